"""Shared fixtures. Tests run on PostgreSQL and Redis when DATABASE_URL / REDIS_URL are set."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.factories import AccountFactory, api_key

# The Celery worker and receiver fixtures, registered once here so that every test folder
# shares ONE session worker (a fixture imported into a module would start a second one,
# and two workers consuming one queue race each other).
pytest_plugins = ["tests.webhooks.support"]

TEST_OUTPUT = Path(
    os.environ.get("TEST_OUTPUT_DIR", Path(__file__).resolve().parent.parent / "test-output")
)


@pytest.fixture
def account(db):
    return AccountFactory(slug="acme")


@pytest.fixture
def other_account(db):
    return AccountFactory(slug="rival")


@pytest.fixture
def key(account) -> str:
    """A plaintext `read` key for `account`."""
    return api_key(account, ["read"])


@pytest.fixture
def auth(key) -> dict[str, str]:
    """Headers for the test client: `client.get(url, headers=auth)`."""
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture
def test_output() -> Path:
    """A folder under test-output/ for screenshots and other artefacts of a run."""
    TEST_OUTPUT.mkdir(parents=True, exist_ok=True)
    return TEST_OUTPUT


@pytest.fixture
def tmp_storage(settings: Any, tmp_path: Path) -> Path:
    """Point the default storage at a temporary folder (blobs written by ingestion)."""
    location = tmp_path / "storage"
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(location)},
        },
    }
    return location
