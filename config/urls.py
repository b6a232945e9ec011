"""Root URLs. `/v1` is the read API; everything else is pages and the admin."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("v1/", include("history.api.urls")),
    path("admin/", admin.site.urls),
    path("", include("accounts.urls")),
    path("", include("webhooks.urls")),
]
