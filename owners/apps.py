from django.apps import AppConfig


class OwnersConfig(AppConfig):
    name = "owners"
    verbose_name = "Owner pages"
