"""Staff admin for the change history (docs/admin.md).

History is written only by ingestion, so changes, updates, page states, entries and feed
clocks are read-only here. Sources can be paused and resumed.

These tables hold millions of rows, so every list avoids a full COUNT(*): the full result
count is off, and `EstimatedCountPaginator` counts at most `CAP` rows of a filtered list
and reads the planner's estimate (pg_class.reltuples) for an unfiltered one. Every foreign
key shown in a list is fetched in the same query (`list_select_related`), and foreign keys
on forms are raw-id widgets, never a <select> of every row.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from accounts.paginators import EstimatedCountPaginator
from history.clock import ms_to_datetime, now_ms
from history.models import Change, Entry, FeedClock, Importance, PageState, Source, Update


def _ms(value: int | None) -> Any:
    return ms_to_datetime(value) if value is not None else None


class BigTableAdmin(admin.ModelAdmin):
    paginator = EstimatedCountPaginator
    show_full_result_count = False
    # "Show counts" would run one COUNT per filter option over the whole table.
    show_facets = admin.ShowFacets.NEVER
    list_per_page = 50


class ReadOnlyAdmin(BigTableAdmin):
    """History is written by ingestion only: staff may look, never edit."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Source)
class SourceAdmin(BigTableAdmin):
    list_display = (
        "__str__",
        "public_id",
        "account",
        "status",
        "monitoring_frequency",
        "last_fetch",
        "last_fetch_outcome",
        "consecutive_fetch_failures",
        "created",
    )
    list_select_related = ("account",)
    list_filter = ("status", "last_fetch_outcome")
    search_fields = ("url", "name", "account__slug")
    raw_id_fields = ("account",)
    readonly_fields = (
        "api_id",
        "created",
        "last_fetch",
        "last_fetch_outcome",
        "last_fetch_error_reason",
        "last_error",
        "consecutive_fetch_failures",
        "next_fetch",
        "entry_kinds",
    )
    fields = ("account", "url", "name", "monitoring_frequency", "status", *readonly_fields)
    ordering = ("-id",)
    actions = ("pause_sources", "resume_sources")

    @admin.display(description="API id")
    def api_id(self, obj: Source) -> str:
        return obj.public_id if obj.pk else "(assigned on save)"

    @admin.display(description="last error at")
    def last_error(self, obj: Source) -> Any:
        return _ms(obj.last_fetch_error_time)

    @admin.display(description="next fetch", ordering="next_fetch_time")
    def next_fetch(self, obj: Source) -> Any:
        return _ms(obj.next_fetch_time)

    def save_model(self, request: HttpRequest, obj: Source, form: Any, change: bool) -> None:
        """A new source starts now; a change of status or frequency reschedules at once."""
        now = now_ms()
        if obj.pk is None:
            obj.created_at = now
        if not change or {"status", "monitoring_frequency"} & set(form.changed_data):
            obj.next_fetch_time = now if obj.status == Source.Status.ACTIVE else None
        super().save_model(request, obj, form, change)

    @admin.display(description="last fetch", ordering="last_fetch_time")
    def last_fetch(self, obj: Source) -> Any:
        return _ms(obj.last_fetch_time)

    @admin.display(description="created", ordering="created_at")
    def created(self, obj: Source) -> Any:
        return _ms(obj.created_at)

    @admin.action(description="Pause selected sources (status: disabled)", permissions=["change"])
    def pause_sources(self, request: HttpRequest, queryset: QuerySet[Source]) -> None:
        paused = queryset.filter(status=Source.Status.ACTIVE).update(
            status=Source.Status.DISABLED, next_fetch_time=None
        )
        self.message_user(request, f"Paused {paused} source(s).", messages.SUCCESS)

    @admin.action(description="Resume selected sources (status: active)", permissions=["change"])
    def resume_sources(self, request: HttpRequest, queryset: QuerySet[Source]) -> None:
        # Auto-paused sources resume too, with a fresh failure count; credit-paused ones
        # wait for billing, which the admin does not override.
        resumed = queryset.filter(
            status__in=[Source.Status.DISABLED, Source.Status.AUTO_PAUSED]
        ).update(
            status=Source.Status.ACTIVE, consecutive_fetch_failures=0, next_fetch_time=now_ms()
        )
        self.message_user(request, f"Resumed {resumed} source(s).", messages.SUCCESS)


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = (
        "__str__",
        "public_id",
        "source",
        "account",
        "kind",
        "price",
        "currency",
        "update_type",
        "updated",
        "is_stub",
    )
    list_select_related = ("source", "account")
    list_filter = ("update_type", "is_stub")
    raw_id_fields = ("account", "source")
    ordering = ("-id",)

    @admin.display(description="update time", ordering="update_time")
    def updated(self, obj: Entry) -> Any:
        return _ms(obj.update_time)


@admin.register(Change)
class ChangeAdmin(ReadOnlyAdmin):
    list_display = (
        "public_id",
        "time",
        "source",
        "account",
        "outcome",
        "body_total_additions",
        "body_total_deletions",
    )
    list_select_related = ("source", "account")
    list_filter = ("outcome",)
    raw_id_fields = ("account", "source", "current_state", "previous_state")
    ordering = ("-id",)

    @admin.display(description="at", ordering="at")
    def time(self, obj: Change) -> Any:
        return _ms(obj.at)


class ImportanceFilter(admin.SimpleListFilter):
    """Filters as the API does: a row without importance counts as material (DESIGN 2)."""

    title = "importance"
    parameter_name = "importance"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [(value, str(label)) for value, label in Importance.choices]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if value in Importance.values:
            return queryset.filter(importance_level=value)
        return queryset


@admin.register(Update)
class UpdateAdmin(ReadOnlyAdmin):
    list_display = (
        "public_id",
        "time",
        "entry",
        "source",
        "account",
        "update_type",
        "field",
        "importance",
        "values",
    )
    list_select_related = ("entry", "source", "account")
    list_filter = (ImportanceFilter, "update_type")
    raw_id_fields = ("account", "source", "entry", "change")
    ordering = ("-id",)

    @admin.display(description="at", ordering="at")
    def time(self, obj: Update) -> Any:
        return _ms(obj.at)

    @admin.display(description="value change")
    def values(self, obj: Update) -> str:
        """`previous → current unit`, short enough for one table row."""
        change = obj.value_change
        if not isinstance(change, dict):
            return obj.headline or "-"
        text = f"{change.get('previous', '∅')} → {change.get('current', '∅')}"
        if change.get("unit"):
            text += f" {change['unit']}"
        return text if len(text) <= 60 else text[:59] + "…"


@admin.register(PageState)
class PageStateAdmin(ReadOnlyAdmin):
    list_display = ("digest", "created", "markdown_name", "html_name", "screenshot_name")
    search_fields = ("=digest",)
    ordering = ("-id",)

    @admin.display(description="created", ordering="created_at")
    def created(self, obj: PageState) -> Any:
        return _ms(obj.created_at)


@admin.register(FeedClock)
class FeedClockAdmin(ReadOnlyAdmin):
    list_display = ("account", "last", "last_at")
    list_select_related = ("account",)
    raw_id_fields = ("account",)

    @admin.display(description="last at", ordering="last_at")
    def last(self, obj: FeedClock) -> Any:
        return _ms(obj.last_at)
