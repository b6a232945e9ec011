"""History's admin detail pages show epoch-ms times as UTC dates (the lists show dates too)."""

from __future__ import annotations

import re
from typing import Any, cast

import pytest
from django.test import Client

from accounts.models import Account
from history.admin import when
from history.models import Entry, FeedClock, PageState, Source, Update
from tests.factories import EntryFactory, SourceFactory, UpdateFactory

pytestmark = pytest.mark.django_db

MS = 1_700_000_000_000
DATE = "2023-11-14 22:13:20 UTC"


def _readonly(body: str, field: str) -> str:
    """The text shown for a read-only field on an admin detail page."""
    match = re.search(
        rf'<div class="form-row[^"]*field-{field}[^"]*">.*?<div class="readonly">(.*?)</div>',
        body,
        re.S,
    )
    assert match, f"no read-only field {field}"
    return match.group(1).strip()


@pytest.fixture
def staff(admin_client: Client) -> Client:
    return admin_client


def test_when_is_an_iso_like_utc_date() -> None:
    assert when(MS) == DATE
    assert when(MS + 999) == DATE
    assert when(None) is None


def test_entry_change_and_update_pages_show_dates(staff: Client, account: Account) -> None:
    source = cast(Source, SourceFactory(account=account, created_at=MS))
    entry = cast(Entry, EntryFactory(source=source, update_time=MS, created_at=MS - 86_400_000))
    update = cast(Update, UpdateFactory(entry=entry, at=MS))

    page = staff.get(f"/admin/history/entry/{entry.pk}/change/").content.decode()
    assert _readonly(page, "update_time_utc") == DATE
    assert _readonly(page, "created_at_utc") == "2023-11-13 22:13:20 UTC"
    assert _readonly(page, "title") == entry.title  # every other field is still there

    page = staff.get(f"/admin/history/change/{update.change_id}/change/").content.decode()
    assert _readonly(page, "at_utc") == DATE
    assert str(MS) not in page

    page = staff.get(f"/admin/history/update/{update.pk}/change/").content.decode()
    assert _readonly(page, "at_utc") == DATE
    assert _readonly(page, "field") == "price"
    assert str(MS) not in page


def test_page_state_and_feed_clock_pages_show_dates(staff: Client, account: Account) -> None:
    state = PageState.objects.create(digest="d" * 64, created_at=MS)
    FeedClock.objects.create(account=account, last_at=MS)

    page = staff.get(f"/admin/history/pagestate/{state.pk}/change/").content.decode()
    assert _readonly(page, "created_at_utc") == DATE
    assert _readonly(page, "digest") == "d" * 64

    page = staff.get(f"/admin/history/feedclock/{account.pk}/change/").content.decode()
    assert _readonly(page, "last_at_utc") == DATE
    assert _readonly(page, "account") != ""


def test_the_source_page_shows_its_times_as_dates(staff: Client, account: Account) -> None:
    source = cast(
        Source,
        SourceFactory(
            account=account,
            created_at=MS,
            last_fetch_time=MS,
            last_fetch_error_time=MS,
            next_fetch_time=MS + 3_600_000,
        ),
    )
    page = staff.get(f"/admin/history/source/{source.pk}/change/").content.decode()
    for field in ("created_at", "last_fetch_time", "last_fetch_error_time"):
        assert _readonly(page, f"{field}_utc") == DATE
    assert _readonly(page, "next_fetch_time_utc") == "2023-11-14 23:13:20 UTC"
    assert str(MS) not in page


def test_the_lists_still_show_dates(staff: Client, account: Account) -> None:
    SourceFactory(account=account, created_at=MS, last_fetch_time=None)
    body: Any = staff.get("/admin/history/source/").content.decode()
    assert "Nov. 14, 2023, 10:13 p.m.</td>" in body
    assert '<td class="field-last_fetch">-</td>' in body
    assert str(MS) not in body


def test_a_feed_clock_names_its_time_as_a_date() -> None:
    assert str(FeedClock(account_id=7, last_at=1_700_000_000_000)) == (
        "clock of account 7 at 2023-11-14 22:13:20 UTC"
    )
