"""Deleting an account or a source takes its history with it."""

from __future__ import annotations

from typing import Any

import pytest

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
