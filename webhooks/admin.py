"""Admin for support staff: fast on big delivery tables, and never shows a secret."""

from __future__ import annotations

from django.contrib import admin
from django.db import models

from webhooks.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(admin.ModelAdmin):
    list_display = ("url", "account", "active", "description", "created_at")
    list_filter = ("active",)
    list_select_related = ("account",)
    raw_id_fields = ("account",)
    search_fields = ("url", "account__slug")
    exclude = ("secret_encrypted",)
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}


class WebhookAttemptInline(admin.TabularInline):
    model = WebhookAttempt
    extra = 0
    can_delete = False
    readonly_fields = (
        "number",
        "started_at",
        "duration_ms",
        "status_code",
        "error",
        "detail",
        "response_excerpt",
    )


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    list_display = (
        "event_id",
        "endpoint",
        "status",
        "attempt_count",
        "last_status_code",
        "next_attempt_at",
        "created_at",
    )
    list_filter = ("status", "event_type")
    list_select_related = ("endpoint",)
    raw_id_fields = ("endpoint",)
    search_fields = ("=event_id",)
    show_full_result_count = False  # no COUNT(*) over a big table on every page
    exclude = ("body",)
    readonly_fields = ("body_text",)
    inlines = [WebhookAttemptInline]

    @admin.display(description="body (as sent)")
    def body_text(self, obj: WebhookDelivery) -> str:
        return bytes(obj.body).decode("utf-8", "replace")
