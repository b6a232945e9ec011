"""`ingestschema`: print the fetch document's JSON Schema (`make schema` writes it to docs/)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from history.ingest.schema import json_text


class Command(BaseCommand):
    help = "Print the JSON Schema of a fetch document, generated from its structures."
    requires_system_checks: list[str] = []

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(json_text(), ending="")
