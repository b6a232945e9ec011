"""The owner is e-mailed when a source becomes autoPaused or creditPaused, once per change."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from io import StringIO
from typing import Any, cast

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.db import transaction

from accounts.models import Account
from config.celery import app
from history import notify
from history.clock import now_ms
from history.ingest import ingest
from history.models import Source
from tests.factories import AccountFactory, SourceFactory
from tests.history.conftest import fetch_doc
from watcher import tasks
from watcher.models import Watch

pytestmark = pytest.mark.django_db

Capture = Callable[..., AbstractContextManager[list[Callable[[], Any]]]]


@pytest.fixture(autouse=True)
def eager_tasks(settings: Any) -> Iterator[None]:
    """Tasks run in this process when published, and the task's sent-marks in a fresh cache."""
    before = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "status-mail-tests",
        }
    }
    settings.AUTOPAUSE_AFTER_FAILURES = 3
    settings.APP_BASE_URL = "https://tidemark.example.com"
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = before


def _fail(account: Account, capture: Capture, reason: str = "HTTP 503") -> None:
    with capture(execute=True):
        ingest(fetch_doc(account.slug, outcome="failed", errorReason=reason))


def _ok(account: Account, capture: Capture) -> None:
    with capture(execute=True):
        ingest(fetch_doc(account.slug, []))


def test_auto_pause_mails_the_owner_once_with_the_reason_and_a_link(
    account: Account, django_capture_on_commit_callbacks: Capture
) -> None:
    for _ in range(2):
        _fail(account, django_capture_on_commit_callbacks)
    assert mail.outbox == []
    _fail(account, django_capture_on_commit_callbacks, reason="HTTP 503 from upstream")
    source = Source.objects.get()
    assert source.status == "autoPaused"
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [account.owner.email]
    assert message.subject == "Tidemark paused your source Shop"
    assert "its last 3 fetches failed" in message.body
    assert "HTTP 503 from upstream" in message.body
    assert f"https://tidemark.example.com/sources/{source.public_id}" in message.body

    # Failed probes while it stays autoPaused tell nobody again.
    for _ in range(3):
        _fail(account, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 1


def test_it_mails_again_only_after_the_source_was_active_again(
    account: Account, django_capture_on_commit_callbacks: Capture
) -> None:
    for _ in range(3):
        _fail(account, django_capture_on_commit_callbacks)
    _ok(account, django_capture_on_commit_callbacks)
    assert Source.objects.get().status == "active"
    for _ in range(3):
        _fail(account, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 2


def test_the_mail_leaves_after_commit_never_inside_ingestion(
    account: Account, django_capture_on_commit_callbacks: Capture
) -> None:
    for _ in range(2):
        _fail(account, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        ingest(fetch_doc("acme", outcome="failed"))
    assert Source.objects.get().status == "autoPaused"
    assert (len(callbacks), mail.outbox) == (1, [])
    callbacks[0]()
    assert len(mail.outbox) == 1


def test_a_rolled_back_pause_tells_no_one(
    account: Account, django_capture_on_commit_callbacks: Capture
) -> None:
    for _ in range(2):
        _fail(account, django_capture_on_commit_callbacks)

    def pause_then_roll_back() -> None:
        with transaction.atomic():
            ingest(fetch_doc("acme", outcome="failed"))
            raise RuntimeError("rolled back")

    with django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(RuntimeError):
        pause_then_roll_back()
    assert (callbacks, mail.outbox) == ([], [])


def test_an_owner_without_e_mail_is_skipped_silently(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    owner = get_user_model().objects.create_user(username="quiet", email="")
    account = cast(Account, AccountFactory(slug="quiet", owner=owner))
    for _ in range(3):
        _fail(account, django_capture_on_commit_callbacks)
    assert Source.objects.get().status == "autoPaused"
    assert mail.outbox == []


def _watched(account: Any) -> Source:
    source = cast(Source, SourceFactory(account=account, next_fetch_time=now_ms() - 1000))
    Watch.objects.create(source=source)
    return source


def test_the_tick_mails_each_credit_paused_source_once(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    broke = cast(Account, AccountFactory(credits=0))
    first, second = _watched(broke), _watched(broke)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.tick() == 0
    assert set(Source.objects.values_list("status", flat=True)) == {"creditPaused"}
    assert sorted(m.subject for m in mail.outbox) == sorted(
        f"Tidemark paused your source {s.name}" for s in (first, second)
    )
    assert f"the account {broke.slug} has no fetch credits left" in mail.outbox[0].body
    assert "/sources/src_" in mail.outbox[0].body
    with django_capture_on_commit_callbacks(execute=True):
        tasks.tick()
    assert len(mail.outbox) == 2

    # Credits added resume them; spent again, the next claim pauses and tells again.
    broke.credits = 10
    broke.save()
    Account.objects.filter(pk=broke.pk).update(credits=0)
    with django_capture_on_commit_callbacks(execute=True):
        tasks.tick()
    assert len(mail.outbox) == 4


def test_an_operators_scheduler_pass_mails_too(django_capture_on_commit_callbacks: Capture) -> None:
    broke = cast(Account, AccountFactory(credits=0))
    source = _watched(broke)
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("fetch", "--due", stdout=out)
    assert "0 source(s) fetched, 1 paused for lack of credits." in out.getvalue()
    assert [m.subject for m in mail.outbox] == [f"Tidemark paused your source {source.name}"]


def test_the_task_sends_once_per_change_and_not_when_stale(account: Account) -> None:
    source = cast(Source, SourceFactory(account=account, status="autoPaused"))
    notify.send_status_mail(source.pk, "autoPaused", 1_000)
    notify.send_status_mail(source.pk, "autoPaused", 1_000)  # a redelivered message
    assert len(mail.outbox) == 1
    Source.objects.filter(pk=source.pk).update(status="active")
    notify.send_status_mail(source.pk, "autoPaused", 2_000)  # resumed before the mail left
    notify.send_status_mail(source.pk + 1000, "autoPaused", 2_000)  # gone
    assert len(mail.outbox) == 1


def test_a_failed_send_can_be_retried(account: Account, monkeypatch: pytest.MonkeyPatch) -> None:
    source = cast(Source, SourceFactory(account=account, status="creditPaused"))

    def smtp_down(*args: Any, **kwargs: Any) -> None:
        raise ConnectionRefusedError("smtp down")

    monkeypatch.setattr(notify, "send_mail", smtp_down)
    with pytest.raises(ConnectionRefusedError):
        notify.send_status_mail.run(source.pk, "creditPaused", 5)
    monkeypatch.undo()
    notify.send_status_mail.run(source.pk, "creditPaused", 5)
    assert len(mail.outbox) == 1


def test_only_pauses_are_told() -> None:
    with pytest.raises(ValueError, match="no e-mail for status"):
        notify.source_paused(1, "disabled", 0)
