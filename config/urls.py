"""Root URLs. `/v1` is the read API; everything else is pages and the admin."""

from django.contrib import admin
from django.contrib.staticfiles.urls import staticfiles_urlpatterns
from django.urls import URLPattern, URLResolver, include, path

from history.signing import serve_blob

urlpatterns: list[URLPattern | URLResolver] = [
    path("v1/", include("history.api.urls")),
    path("blobs/<str:token>", serve_blob, name="blob"),
    path("admin/", admin.site.urls),
    path("", include("accounts.urls")),
    path("", include("webhooks.urls")),
]

# CSS and JS of the pages under gunicorn in development (`make run`); empty when DEBUG is
# off, where `collectstatic` output is served by the front proxy (docs/owners.md).
urlpatterns += staticfiles_urlpatterns()
