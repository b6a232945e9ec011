"""The owner pages: sources, a source, an entry's timeline, the feed.

Ids in these URLs are the API's public ids (`src_…`, `ent_…`), so a page and the API name
an object alike. Every view is scoped to the signed-in owner's account.
"""

from django.urls import URLPattern, URLResolver, path

from owners import entry, feed, snapshots, sources

urlpatterns: list[URLPattern | URLResolver] = [
    path("sources", sources.source_list, name="sources"),
    path("sources/add", sources.source_add, name="source_add"),
    path("sources/preview", sources.source_add_preview, name="source_add_preview"),
    path("sources/<str:source_id>", sources.source_detail, name="source_detail"),
    path("sources/<str:source_id>/edit", sources.source_edit, name="source_edit"),
    path("sources/<str:source_id>/preview", sources.source_preview, name="source_preview"),
    path("sources/<str:source_id>/check", sources.source_check, name="source_check"),
    path("sources/<str:source_id>/pause", sources.source_pause, name="source_pause"),
    path("sources/<str:source_id>/resume", sources.source_resume, name="source_resume"),
    path("sources/<str:source_id>/delete", sources.source_delete, name="source_delete"),
    path("feed", feed.feed, name="feed"),
    # entry pages
    path("entries/<str:entry_id>", entry.entry_detail, name="entry_detail"),
    path("changes/<str:change_id>/snapshot", snapshots.snapshot, name="change_snapshot"),
    path("changes/<str:change_id>/text", snapshots.page_text, name="change_text"),
    path("changes/<str:change_id>/diff", snapshots.page_diff, name="change_diff"),
]
