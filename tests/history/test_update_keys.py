"""Update's account and source keys are unchecked copies: deletes must still cascade."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from history.models import Change, Entry, Source, Update
from tests.factories import UpdateFactory

pytestmark = pytest.mark.django_db


def test_deleting_an_account_deletes_its_history() -> None:
    update: Any = UpdateFactory()
    other: Any = UpdateFactory()
    update.account.delete()
    assert list(Update.objects.values_list("pk", flat=True)) == [other.pk]
    assert not Source.objects.filter(account=update.account_id).exists()
    assert not Entry.objects.filter(account=update.account_id).exists()
    assert not Change.objects.filter(account=update.account_id).exists()


def test_deleting_a_source_deletes_its_updates() -> None:
    update: Any = UpdateFactory()
    Source.objects.filter(pk=update.source_id).delete()
    assert not Update.objects.filter(pk=update.pk).exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="constraint names are PostgreSQL's")
def test_only_the_entry_and_change_keys_are_checked_by_the_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT a.attname FROM pg_constraint c"
            " JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey)"
            " WHERE c.contype = 'f' AND c.conrelid = 'history_update'::regclass"
        )
        assert sorted(row[0] for row in cursor.fetchall()) == ["change_id", "entry_id"]
