"""Fixtures for the ingestion tests: a throwaway blob storage and a fetch-document builder."""

from __future__ import annotations

from typing import Any


def fetch_doc(account: str, entries: list[dict[str, Any]] | None = None, **extra: Any) -> dict:
    """A fetch document for https://shop.example.com/list with the given entries."""
    doc: dict[str, Any] = {
        "account": account,
        "source": {
            "url": "https://shop.example.com/list",
            "name": "Shop",
            "monitoringFrequency": 30,
        },
    }
    if entries is not None:
        doc["entries"] = entries
    doc.update(extra)
    return doc
