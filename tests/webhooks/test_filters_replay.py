"""Event filters per endpoint, and replaying an endpoint's events since a time."""

from __future__ import annotations

import json
from typing import Any
from unittest import mock

import pytest
from django.test import Client

from history.ingest import ingest
from history.models import Source, Update
from tests.webhooks.support import add_endpoint, make_account
from webhooks import outbox, tasks
from webhooks.models import WebhookDelivery

pytestmark = [pytest.mark.django_db]


def fetch(account: Any, url: str, entries: dict[str, tuple[str, float]]) -> list[int]:
    doc = {
        "account": account.slug,
        "source": {"url": url},
        "entries": [
            {"identityKey": k, "title": title, "price": price, "currency": "EUR"}
            for k, (title, price) in entries.items()
        ],
    }
    with mock.patch.object(tasks, "enqueue_many", return_value=True):
        return list(ingest(doc, account=account).update_ids)


def delivered(endpoint: Any) -> list[tuple[str | None, str]]:
    """(importance, source url) of each delivery's event, from its body."""
    out = []
    for body in WebhookDelivery.objects.filter(endpoint=endpoint).values_list("body", flat=True):
        data = json.loads(bytes(body))["data"]
        out.append((data.get("importance"), data["source"]["url"]))
    return sorted(out, key=str)


def test_filters_choose_which_events_create_a_delivery() -> None:
    account = make_account()
    shop, jobs = "https://shop.example.com/", "https://jobs.example.com/"
    fetch(account, shop, {"a": ("A", 100.0), "b": ("B", 100.0)})
    fetch(account, jobs, {"j": ("J", 10.0)})
    everything, _ = add_endpoint(account, "https://all.example.com/h")
    serious, _ = add_endpoint(account, "https://serious.example.com/h")
    serious.min_importance = "material"
    serious.save()
    critical_shop, _ = add_endpoint(account, "https://crit.example.com/h")
    critical_shop.min_importance = "critical"
    critical_shop.save()
    critical_shop.sources.set([Source.objects.get(url=shop)])
    WebhookDelivery.objects.all().delete()

    # a: -50 % (critical); b: a title change (minor); j: +10 % (material)
    fetch(account, shop, {"a": ("A", 50.0), "b": ("B new", 100.0)})
    fetch(account, jobs, {"j": ("J", 11.0)})

    assert delivered(everything) == [
        ("critical", shop),
        ("material", jobs),
        ("minor", shop),
    ]
    assert delivered(serious) == [("critical", shop), ("material", jobs)]
    assert delivered(critical_shop) == [("critical", shop)]


def test_an_update_without_importance_counts_as_material() -> None:
    account = make_account()
    fetch(account, "https://shop.example.com/", {"a": ("A", 100.0)})
    endpoint, _ = add_endpoint(account, "https://serious.example.com/h")
    endpoint.min_importance = "material"
    endpoint.save()
    WebhookDelivery.objects.all().delete()
    update_ids = fetch(account, "https://shop.example.com/", {"a": ("A2", 100.0)})
    WebhookDelivery.objects.all().delete()
    Update.objects.filter(pk__in=update_ids).update(importance=None)

    queued, events = outbox.replay(endpoint, 0)

    # The title change (minor) counts as material once its importance is absent.
    assert events == len(queued) == Update.objects.filter(account=account).count()


def test_replay_sends_each_event_once_per_endpoint() -> None:
    account = make_account()
    first = fetch(account, "https://shop.example.com/", {"a": ("A", 1.0), "b": ("B", 2.0)})
    endpoint, _ = add_endpoint(account, "https://hooks.example.com/h")
    later = fetch(account, "https://shop.example.com/", {"a": ("A", 3.0), "b": ("B", 2.0)})
    # The later event has its delivery, finished; the first two were before the endpoint.
    WebhookDelivery.objects.filter(endpoint=endpoint).update(status="succeeded", attempt_count=1)
    at = Update.objects.get(pk=first[0]).at

    queued, events = outbox.replay(endpoint, at)
    again, _ = outbox.replay(endpoint, at)

    assert events == 3
    rows = WebhookDelivery.objects.filter(endpoint=endpoint)
    assert rows.count() == 3  # one delivery per event and endpoint, never two
    assert sorted(queued) == sorted(rows.values_list("pk", flat=True))
    assert set(rows.values_list("status", flat=True)) == {"pending"}
    redone = rows.get(pk__in=queued, attempt_count=1)
    assert redone.max_attempts == 6  # a new series of five, after the automatic one
    assert again == []  # still in flight: nothing is queued twice
    assert len(later) == 1


def test_the_owner_sets_filters_and_replays_from_the_log_page(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    account = make_account(slug="acme")
    client.force_login(account.owner)
    fetch(account, "https://shop.example.com/", {"a": ("A", 1.0)})
    source = Source.objects.get()
    endpoint, _ = add_endpoint(account, "https://hooks.example.com/h")
    other, _ = add_endpoint(make_account(), "https://hooks.example.com/h")

    page = client.get(f"/webhooks/{endpoint.pk}").content.decode()
    assert "Event filters" in page
    assert "Replay events" in page
    saved = client.post(
        f"/webhooks/{endpoint.pk}/filters",
        {"min_importance": "critical", "sources": [source.pk]},
    )
    assert saved.status_code == 302
    endpoint.refresh_from_db()
    assert endpoint.min_importance == "critical"
    assert list(endpoint.sources.all()) == [source]

    with (
        mock.patch.object(tasks, "enqueue_many", return_value=True) as enqueue,
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = client.post(
            f"/webhooks/{endpoint.pk}/replay", {"since": "2000-01-01T00:00"}, follow=True
        )
    # The one event (new: material) is below the critical filter.
    assert "0 event(s) since 2000-01-01 00:00 UTC queued for replay" in response.content.decode()
    assert enqueue.call_count == 0
    replay_other = client.post(f"/webhooks/{other.pk}/replay", {"since": "2000-01-01T00:00"})
    assert replay_other.status_code == 404
    assert client.post(f"/webhooks/{other.pk}/filters", {}).status_code == 404
