"""The sign-in page says what Tidemark is, not only that it holds API keys."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_sign_in_page_describes_the_product(client: Client) -> None:
    body = client.get("/login/").content.decode()
    assert "Tidemark watches web pages and records the change history of every item" in body
    assert (
        "Sign in to manage your watched pages, their history, your API keys and your webhooks."
        in body
    )
    assert "manage the API keys your agents use" not in body
