"""Owner-page fixtures: a signed-in owner of `acme`, and history built by real ingestion."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import Account
from history.ingest import ingest


@pytest.fixture
def owner_client(account: Account) -> Client:
    client = Client()
    client.force_login(account.owner)
    return client


@pytest.fixture
def rival_client(other_account: Account) -> Client:
    client = Client()
    client.force_login(other_account.owner)
    return client


def item(key: str, title: str | None = None, **fields: Any) -> dict[str, Any]:
    return {"identityKey": key, "title": title or key.title(), **fields}


def fetch(account: Account, url: str, entries: list[dict[str, Any]], **extra: Any) -> Any:
    """Ingest one fetch of `url` for the account, as the watcher would."""
    doc: dict[str, Any] = {
        "account": account.slug,
        "source": {"url": url, "name": extra.pop("name", "Shop"), "monitoringFrequency": 30},
        "entries": entries,
        **extra,
    }
    return ingest(doc)
