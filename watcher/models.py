"""What the watcher keeps per watched source: how to read the page, and what it saw last.

A source is watched (fetched by Tidemark on its schedule) when it has a `Watch`; sources
that only ever arrive through `manage.py ingest` have none and are never claimed. The
schedule itself (`status`, `nextFetchTime`) is the source's, in `history`.
"""

from __future__ import annotations

import hashlib
import json

from django.db import models

from history.models import Source


class Watch(models.Model):
    class Render(models.TextChoices):
        AUTO = "auto"
        NEVER = "never"
        ALWAYS = "always"

    source = models.OneToOneField(
        Source, on_delete=models.CASCADE, primary_key=True, related_name="watch"
    )
    selector = models.CharField(
        max_length=500, blank=True, help_text="CSS selector of one item; overrides extraction"
    )
    fields = models.JSONField(default=dict, blank=True, help_text="{attribute name: CSS}")
    ignore = models.JSONField(default=list, blank=True, help_text="attributes not tracked")
    pages = models.PositiveSmallIntegerField(default=1, help_text="listing pages to follow")
    render = models.CharField(max_length=8, choices=Render.choices, default=Render.AUTO)
    # What the last fetch saw, for conditional requests and the unchanged-page short cut.
    etag = models.CharField(max_length=500, blank=True)
    last_modified = models.CharField(max_length=100, blank=True)
    body_hash = models.CharField(max_length=64, blank=True)
    # The digest of the reading settings the last read used (`settings_digest`): the
    # conditional GET and the unchanged-page short cut repeat that read only while the
    # settings are still these, so an edit from any path takes effect at the next check.
    settings_hash = models.CharField(max_length=64, blank=True, default="", db_default="")
    rendered = models.BooleanField(
        default=False, help_text="the last good read needed the browser (render=auto)"
    )
    # The entry counts of the last good reads, oldest first (at most five): what a read
    # that finds far fewer is measured against (`watcher.check.collapse`). Kept here, in
    # the row the check already reads, so judging a read costs no query.
    counts = models.JSONField(default=list, db_default=[], blank=True)
    # The last read was a collapse: the owner has been told, and is not told again until a
    # good read ends it.
    collapsed = models.BooleanField(default=False, db_default=False)

    def __str__(self) -> str:
        return f"watch of source {self.source_id}"

    def settings_digest(self) -> str:
        """SHA-256 of every setting that changes what a read of the same bytes yields."""
        settings = {
            "selector": self.selector,
            "fields": self.fields or {},
            "ignore": sorted(self.ignore or []),
            "pages": self.pages,
            "render": self.render,
        }
        return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()
