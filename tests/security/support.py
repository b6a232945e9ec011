"""An owner with a captured page's history: shared by the policy's header tests and its
Chromium tests (tests/browser/test_csp.py)."""

from __future__ import annotations

from typing import cast

from django.contrib.auth.models import User

from accounts.models import Account
from history.ingest import ingest
from history.models import Entry
from tests.factories import AccountFactory, UserFactory
from tests.history.conftest import fetch_doc

# A 1x1 PNG: a screenshot a browser can draw.
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC"


def owner(slug: str) -> Account:
    user = cast(User, UserFactory(username=f"{slug}@example.com"))
    return cast(Account, AccountFactory(slug=slug, name=slug.title(), owner=user))


def mug_history(account: Account) -> Entry:
    """Two checks of a mug whose price fell; the second captured a page with a script."""
    for price, snapshot in (
        (39.9, {"markdown": "# The shop\n\n- Mug: 39.90\n", "html": "<p>before</p>"}),
        (
            29.9,
            {
                "markdown": "# The shop\n\n- Mug: 29.90\n",
                "html": "<h1>The shop</h1><script>parent.owned = true;</script>",
                "screenshot": PNG,
            },
        ),
    ):
        entry = {"identityKey": "mug", "title": "Mug", "price": price, "currency": "EUR"}
        ingest(fetch_doc(account.slug, [entry], snapshot=snapshot))
    return Entry.objects.get(account=account, identity_key="mug")
