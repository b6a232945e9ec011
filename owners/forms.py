"""The source form: what `manage.py addsource` takes, as fields a person fills in."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings

from history.models import Source
from watcher.models import Watch
from watcher.sources import FieldSpecRefused, SourceRefused, SourceSettings, parse_fields

FIELD_LINE = "Each line must be NAME=CSS selector, e.g. price=.amount"


class SourceForm(forms.Form):
    url = forms.CharField(
        label="Page address",
        max_length=2048,
        # A text field, not type=url: browsers refuse `shop.example/list` there, which
        # Tidemark reads as https://shop.example/list (`watcher.sources.normal_url`).
        widget=forms.TextInput(
            attrs={
                "placeholder": "https://shop.example/catalogue",
                "inputmode": "url",
                "autocomplete": "url",
                "spellcheck": "false",
            }
        ),
        help_text="A bare domain (shop.example/list) is read as https://.",
    )
    name = forms.CharField(label="Name", max_length=200, required=False)
    frequency = forms.IntegerField(
        label="Check every (minutes)", min_value=1, max_value=525_600, initial=60
    )
    rendering = forms.ChoiceField(
        label="Browser rendering",
        choices=[
            (Watch.Render.AUTO, "Automatic: only when the page is built by script"),
            (Watch.Render.NEVER, "Never"),
            (Watch.Render.ALWAYS, "Always (a screenshot with every check)"),
        ],
        initial=Watch.Render.AUTO,
    )
    selector = forms.CharField(
        label="Item selector (optional)",
        required=False,
        max_length=500,
        help_text="A CSS selector for one item, when the automatic reading misses.",
    )
    field_selectors = forms.CharField(
        label="Field selectors (optional)",
        required=False,
        widget=forms.Textarea(
            attrs={"rows": 3, "placeholder": "rating=.stars\nstock=.availability"}
        ),
        help_text="One NAME=CSS selector per line, read inside each item (e.g. price=.amount).",
    )
    ignore = forms.CharField(
        label="Ignored fields (optional)",
        required=False,
        max_length=1000,
        help_text="Attributes not to track, separated by commas (e.g. reviewCount).",
    )
    pages = forms.IntegerField(
        label="Pages to follow",
        min_value=1,
        max_value=settings.FETCH_MAX_PAGES,
        initial=1,
        help_text="Follow the listing's next-page link up to this many pages.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            if name in self.errors:
                field.widget.attrs["aria-invalid"] = "true"

    def clean_field_selectors(self) -> dict[str, str]:
        """The lines as field selectors, checked by the commands' rule (`parse_fields`) and
        refused in this form's words: its people type lines, not `--field` flags."""
        lines = [line for line in self.cleaned_data["field_selectors"].splitlines() if line.strip()]
        try:
            return parse_fields(lines)
        except FieldSpecRefused as exc:
            if exc.twice:
                raise forms.ValidationError(
                    f"The field “{exc.twice}” is on two lines: give each field once."
                ) from exc
            raise forms.ValidationError(f"{FIELD_LINE}; “{exc.spec.strip()}” is not.") from exc
        except SourceRefused as exc:
            message = str(exc)
            raise forms.ValidationError(message[:1].upper() + message[1:] + ".") from exc

    def settings(self) -> SourceSettings:
        """The cleaned form as source settings (checked by the caller)."""
        data = self.cleaned_data
        return SourceSettings(
            url=data["url"],
            name=data["name"].strip(),
            frequency=data["frequency"],
            selector=data["selector"],
            fields=data["field_selectors"],
            ignore=[part for part in data["ignore"].split(",") if part.strip()],
            pages=data["pages"],
            render=data["rendering"],
        )

    @classmethod
    def initial_of(cls, source: Source) -> dict[str, Any]:
        watch = getattr(source, "watch", None)
        initial: dict[str, Any] = {
            "url": source.url,
            "name": source.name,
            "frequency": source.monitoring_frequency,
        }
        if watch is not None:
            initial |= {
                "rendering": watch.render,
                "selector": watch.selector,
                "field_selectors": "\n".join(f"{k}={v}" for k, v in watch.fields.items()),
                "ignore": ", ".join(watch.ignore),
                "pages": watch.pages,
            }
        return initial

    def refuse(self, exc: SourceRefused) -> None:
        """Show a refusal from the checks on the form, on the field it is about."""
        message = str(exc)
        field = "url"
        # A refusal of the URL quotes it, and a URL may hold any of the words below.
        about_url = message.startswith(("refusing ", "the URL ", "the account already watches"))
        for name in ("selector", "field", "pages", "name", "frequency", "render"):
            if name in message and not about_url:
                field = {"field": "field_selectors", "render": "rendering"}.get(name, name)
                break
        self.add_error(field, message[:1].upper() + message[1:] + ".")
        self.fields[field].widget.attrs["aria-invalid"] = "true"
