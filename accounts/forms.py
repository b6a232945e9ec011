"""Forms of the owner settings pages."""

from __future__ import annotations

from django import forms

SCOPE_CHOICES = [
    ("read", "read: the /v1 read API"),
    ("mcp", "mcp: the MCP server for agents"),
]


class KeyCreateForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        help_text="What will use this key, e.g. “laptop agent” or “nightly export”.",
        widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": "laptop agent"}),
    )
    scopes = forms.MultipleChoiceField(
        choices=SCOPE_CHOICES,
        initial=["read", "mcp"],
        widget=forms.CheckboxSelectMultiple,
        help_text="Pick at least one.",
        error_messages={"required": "Choose at least one scope."},
    )

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError("Give the key a name.")
        return name
