from django.apps import AppConfig
from django.db.models.signals import post_save


class WatcherConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "watcher"
    verbose_name = "Watcher"

    def ready(self) -> None:
        from accounts.models import Account
        from watcher.signals import on_account_saved

        post_save.connect(on_account_saved, sender=Account, dispatch_uid="watcher.credits")
