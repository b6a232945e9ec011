from django.apps import AppConfig


class WatcherConfig(AppConfig):
    name = "watcher"
    default_auto_field = "django.db.models.BigAutoField"
