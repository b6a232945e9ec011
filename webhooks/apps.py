from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "webhooks"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The one documented seam: ingestion announces updates, the outbox listens.
        from history.signals import updates_recorded
        from webhooks.outbox import on_updates_recorded

        updates_recorded.connect(on_updates_recorded, dispatch_uid="webhooks.outbox")
