"""The watcher in the staff admin: how each source is read, on the source's own page."""

from __future__ import annotations

from django import forms
from django.contrib import admin

from history.admin import SourceAdmin
from history.models import Source
from watcher.models import Watch
from watcher.sources import SourceRefused, check_selector, check_url


class WatchForm(forms.ModelForm):
    class Meta:
        model = Watch
        fields = ("selector", "fields", "ignore", "pages", "render")

    def clean_selector(self) -> str:
        css = str(self.cleaned_data.get("selector") or "").strip()
        if css:
            try:
                check_selector(css, "the item selector")
            except SourceRefused as exc:
                raise forms.ValidationError(str(exc)) from exc
        return css

    def clean_fields(self) -> dict[str, str]:
        value = self.cleaned_data.get("fields") or {}
        if not isinstance(value, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in value.items()
        ):
            raise forms.ValidationError('a JSON object of names to CSS, e.g. {"stock": ".stock"}')
        try:
            for name, css in value.items():
                check_selector(css, f"the selector of field {name}")
        except SourceRefused as exc:
            raise forms.ValidationError(str(exc)) from exc
        return value

    def clean_ignore(self) -> list[str]:
        value = self.cleaned_data.get("ignore") or []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise forms.ValidationError('a JSON list of attribute names, e.g. ["reviewCount"]')
        return sorted({v.strip() for v in value if v.strip()})


class WatchInline(admin.StackedInline):
    model = Watch
    form = WatchForm
    can_delete = True
    extra = 0
    max_num = 1
    verbose_name = "watching (Tidemark fetches this page itself)"
    verbose_name_plural = verbose_name
    readonly_fields = ("etag", "last_modified", "body_hash", "rendered")


class WatchedSourceForm(forms.ModelForm):
    class Meta:
        model = Source
        fields = ("account", "url", "name", "monitoring_frequency", "status")

    def clean_url(self) -> str:
        """The same checks as `addsource`: http(s) only, no private or reserved address."""
        try:
            return check_url(str(self.cleaned_data.get("url") or ""))
        except SourceRefused as exc:
            raise forms.ValidationError(str(exc)) from exc


admin.site.unregister(Source)


@admin.register(Source)
class WatchedSourceAdmin(SourceAdmin):
    form = WatchedSourceForm
    inlines = (WatchInline,)
