"""`/v1` routes. Written out by hand: no trailing slashes, no format suffixes, and a
catch-all last so that unknown `/v1` paths answer the 404 envelope too."""

from django.urls import URLPattern, URLResolver, path, re_path

from history.api import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("sources", views.SourceViewSet.as_view({"get": "list"}), name="v1-sources"),
    path(
        "sources/<str:id>/entries",
        views.SourceEntryViewSet.as_view({"get": "list"}),
        name="v1-source-entries",
    ),
    path("updates", views.FeedViewSet.as_view({"get": "list"}), name="v1-updates"),
    path(
        "entries/<str:id>/updates",
        views.EntryUpdateViewSet.as_view({"get": "list"}),
        name="v1-entry-updates",
    ),
    path(
        "entries/<str:id>/changes",
        views.EntryChangeViewSet.as_view({"get": "list"}),
        name="v1-entry-changes",
    ),
    path(
        "changes/<str:id>/snapshot",
        views.SnapshotViewSet.as_view({"get": "retrieve"}),
        name="v1-change-snapshot",
    ),
    path("openapi.json", views.OpenApiViewSet.as_view({"get": "retrieve"}), name="v1-openapi"),
    re_path(r"^(?P<path>.*)$", views.UnknownPathViewSet.as_view({"get": "retrieve"})),
]
