"""Operator commands: createaccount and mintkey."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from accounts.keys import digest, is_well_formed
from accounts.models import Account, ApiKey

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_createaccount_creates_the_account_and_its_owner_and_prints_the_slug():
    out = run(
        "createaccount",
        "acme",
        "--name",
        "Acme Inc.",
        "--owner-email",
        "ops@acme.example",
        "--owner-password",
        "s3cret-enough",
    )

    assert out == "acme\n"
    account = Account.objects.select_related("owner").get(slug="acme")
    assert account.name == "Acme Inc."
    assert (account.owner.username, account.owner.email) == ("ops@acme.example", "ops@acme.example")
    assert account.owner.check_password("s3cret-enough")


def test_createaccount_without_password_leaves_the_owner_unable_to_log_in():
    run("createaccount", "solo")

    owner = Account.objects.get(slug="solo").owner
    assert owner.username == "solo"
    assert not owner.has_usable_password()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["not a slug"], "invalid slug"),
        (["ok", "--owner-email", "nope"], "invalid --owner-email"),
    ],
)
def test_createaccount_refuses_bad_input(args, message):
    with pytest.raises(CommandError, match=message):
        run("createaccount", *args)
    assert Account.objects.count() == 0


def test_createaccount_refuses_an_existing_slug_or_user():
    run("createaccount", "acme")

    with pytest.raises(CommandError, match="already exists"):
        run("createaccount", "acme")
    get_user_model().objects.create(username="taken@example.com")
    with pytest.raises(CommandError, match="already exists"):
        run("createaccount", "third", "--owner-email", "taken@example.com")
    assert Account.objects.count() == 1


def test_mintkey_prints_only_the_key_with_read_scope_by_default(account):
    out = run("mintkey", "acme", "--name", "ci")

    key = out.strip()
    assert out == key + "\n"
    assert is_well_formed(key)
    row = ApiKey.objects.get(digest=digest(key))
    assert (row.account_id, row.name, row.scopes) == (account.pk, "ci", ["read"])


def test_mintkey_grants_repeated_scopes(account):
    key = run("mintkey", "acme", "--scope", "read", "--scope", "mcp").strip()

    assert ApiKey.objects.get(digest=digest(key)).scopes == ["mcp", "read"]


def test_mintkey_fails_for_an_unknown_account():
    with pytest.raises(CommandError, match="no account 'ghost'"):
        run("mintkey", "ghost")
    assert ApiKey.objects.count() == 0


def test_mintkey_rejects_an_unknown_scope(account):
    with pytest.raises(CommandError):
        run("mintkey", "acme", "--scope", "write")
    assert ApiKey.objects.count() == 0
