"""`manage.py demo`: history through the real engine, once; a fresh key every run."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command

from accounts.keys import digest
from accounts.models import Account, ApiKey
from history.models import Change, Entry, Source, Update
from history.pagestate import read_blob

pytestmark = pytest.mark.django_db

KEY_LINE = re.compile(r"^API key: (\S+)$", re.MULTILINE)


def run_demo(*args: str) -> str:
    out = io.StringIO()
    call_command("demo", *args, stdout=out)
    return out.getvalue()


def test_demo_builds_a_multi_day_history_of_three_pages(tmp_storage):
    out = run_demo("--base-url", "http://localhost:9000/")

    account = Account.objects.get(slug="demo")
    assert account.owner.username == "demo"
    password = re.search(r"Owner login: demo / (\S+)", out)
    assert password is not None
    assert account.owner.check_password(password.group(1))
    sources = Source.objects.filter(account=account)
    assert sources.count() == 3
    ats = list(Change.objects.filter(account=account).values_list("at", flat=True))
    assert max(ats) - min(ats) >= 4 * 86_400_000  # spans days
    updates = Update.objects.filter(account=account)
    kinds = set(updates.values_list("update_type", flat=True))
    assert kinds == {"new", "modified", "removed"}
    assert updates.filter(field="price").count() >= 3
    assert updates.filter(field__isnull=True, headline__isnull=False).count() >= 2
    outcomes = set(Change.objects.filter(account=account).values_list("outcome", flat=True))
    assert outcomes == {"ok", "failed", "broken"}
    # Reappearance: an entry with a `removed` update followed by a later `new` one.
    reappeared = [
        e
        for e in Entry.objects.filter(account=account)
        if list(e.updates.order_by("at").values_list("update_type", flat=True)).count("new") == 2
    ]
    assert reappeared
    change = Change.objects.filter(account=account, current_state__isnull=False).first()
    assert change is not None
    state = change.current_state
    assert state is not None
    assert read_blob(state.markdown_name or "").startswith(b"# ")
    assert read_blob(state.screenshot_name or "").startswith(b"\x89PNG")
    key = KEY_LINE.search(out)
    assert key is not None
    assert f'curl -H "Authorization: Bearer {key.group(1)}" http://localhost:9000/v1/updates' in out


def test_demo_is_idempotent_and_mints_a_fresh_key_each_run(tmp_storage):
    first = run_demo()
    counts = (Change.objects.count(), Update.objects.count(), Entry.objects.count())

    second = run_demo()

    assert (Change.objects.count(), Update.objects.count(), Entry.objects.count()) == counts
    old_match, new_match = KEY_LINE.search(first), KEY_LINE.search(second)
    assert old_match is not None
    assert new_match is not None
    old_key, new_key = old_match.group(1), new_match.group(1)
    assert old_key != new_key
    assert ApiKey.objects.get(digest=digest(old_key)).revoked_at is not None
    fresh = ApiKey.objects.get(digest=digest(new_key))
    assert (fresh.revoked_at, fresh.name, fresh.scopes) == (None, "demo", ["mcp", "read"])
    assert "already present" in second
    assert "curl -H" in second


PASSWORD_LINE = re.compile(r"^Owner login: demo / (\S+)$", re.MULTILINE)


def test_the_password_is_set_once_and_kept_so_a_restart_keeps_the_owner_signed_in(
    tmp_storage, client
):
    first = run_demo()
    match = PASSWORD_LINE.search(first)
    assert match is not None
    password = match.group(1)
    assert client.login(username="demo", password=password)
    assert client.get("/sources").status_code == 200

    second = run_demo()

    assert PASSWORD_LINE.search(second) is None  # not printed again: it did not change
    assert "manage.py demo --reset-password" in second
    owner = Account.objects.get(slug="demo").owner
    assert owner.check_password(password)
    # The session the first run's password opened is still good.
    assert client.get("/sources").status_code == 200


def test_reset_password_sets_and_prints_a_new_one_and_signs_the_owner_out(tmp_storage, client):
    first = PASSWORD_LINE.search(run_demo())
    assert first is not None
    assert client.login(username="demo", password=first.group(1))

    again = PASSWORD_LINE.search(run_demo("--reset-password"))

    assert again is not None
    assert again.group(1) != first.group(1)
    owner = Account.objects.get(slug="demo").owner
    assert owner.check_password(again.group(1))
    assert not owner.check_password(first.group(1))
    assert client.get("/sources").status_code == 302  # the old session ended with it


def test_an_explicit_password_is_set_on_any_run(tmp_storage):
    run_demo()
    out = run_demo("--password", "harbour-lantern-42")
    assert "Owner login: demo / harbour-lantern-42" in out
    assert Account.objects.get(slug="demo").owner.check_password("harbour-lantern-42")
