"""The add-endpoint form; the URL is checked by the SSRF rules before anything is saved."""

from __future__ import annotations

from django import forms

from webhooks import sender


class EndpointForm(forms.Form):
    url = forms.CharField(
        label="Receiver URL",
        max_length=2048,
        help_text="A public https address of your system, e.g. https://example.com/hooks/tidemark",
        widget=forms.URLInput(attrs={"placeholder": "https://", "spellcheck": "false"}),
    )
    description = forms.CharField(label="Description", max_length=200, required=False)

    def clean_url(self) -> str:
        url: str = self.cleaned_data["url"].strip()
        try:
            sender.check_url(url)
        except sender.UnsafeURL as exc:
            raise forms.ValidationError(f"This address cannot receive webhooks: {exc}.") from exc
        except sender.DNSFailure as exc:
            raise forms.ValidationError(f"This address does not resolve: {exc}.") from exc
        return url
