"""The admin shows deliveries with their body and attempts, and never an endpoint's secret."""

from __future__ import annotations

from typing import cast

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from tests.factories import UserFactory
from tests.webhooks.support import add_endpoint, make_account
from webhooks.models import WebhookAttempt, WebhookDelivery

pytestmark = [pytest.mark.django_db]


def test_admin_pages_render_without_the_secret(client: Client) -> None:
    staff = UserFactory(username="staff@example.com", is_staff=True, is_superuser=True)
    client.force_login(cast(User, staff))
    endpoint, secret = add_endpoint(make_account(), "https://hooks.example.com/in")
    row = WebhookDelivery.objects.create(
        endpoint=endpoint, event_id="upd_x", body=b'{"id":"upd_x"}'
    )
    WebhookAttempt.objects.create(
        delivery=row, number=1, started_at=timezone.now(), error="timeout"
    )

    page = client.get(f"/admin/webhooks/webhookendpoint/{endpoint.pk}/change/")
    assert page.status_code == 200
    assert secret not in page.content.decode()
    assert endpoint.secret_encrypted not in page.content.decode()

    assert client.get("/admin/webhooks/webhookdelivery/").status_code == 200
    detail = client.get(f"/admin/webhooks/webhookdelivery/{row.pk}/change/").content.decode()
    assert "{&quot;id&quot;:&quot;upd_x&quot;}" in detail
    assert "timeout" in detail
