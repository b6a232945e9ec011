from django.apps import AppConfig


class AlertsConfig(AppConfig):
    name = "alerts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The documented seam: ingestion announces updates and outcomes; alerts listens.
        from alerts.outbox import on_source_outcome, on_source_paused, on_updates_recorded
        from history.signals import source_outcome_recorded, source_paused, updates_recorded

        updates_recorded.connect(on_updates_recorded, dispatch_uid="alerts.outbox")
        source_outcome_recorded.connect(on_source_outcome, dispatch_uid="alerts.outcome")
        source_paused.connect(on_source_paused, dispatch_uid="alerts.paused")
