"""The staff admin's sign-in under the sign-in throttle answers as the owners' does: 429 with
Retry-After once refused, without checking the password."""

from __future__ import annotations

import secrets
import uuid

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple 7"


def test_a_throttled_admin_sign_in_answers_429_with_retry_after(client: Client) -> None:
    staff = get_user_model().objects.create_user(
        username=f"staff-{uuid.uuid4().hex[:12]}", password=PASSWORD, is_staff=True
    )
    address = f"2001:db8::{secrets.token_hex(2)}:{secrets.token_hex(2)}"
    form = {"username": staff.username, "password": "wrong", "next": "/admin/"}
    for _ in range(5):
        wrong = client.post("/admin/login/", form, REMOTE_ADDR=address)
        assert wrong.status_code == 200  # a wrong password is a form error, as before
        assert not wrong.has_header("Retry-After")

    form["password"] = PASSWORD
    refused = client.post("/admin/login/", form, REMOTE_ADDR=address)

    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= settings.SIGN_IN_WINDOW_SECONDS
    assert "Too many failed sign-in attempts" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_admin_sign_in_page_still_signs_staff_in(client: Client) -> None:
    staff = get_user_model().objects.create_user(
        username=f"staff-{uuid.uuid4().hex[:12]}", password=PASSWORD, is_staff=True
    )
    page = client.get("/admin/login/")
    assert page.status_code == 200
    assert 'name="password"' in page.content.decode()

    signed_in = client.post(
        "/admin/login/?next=/admin/",
        {"username": staff.username, "password": PASSWORD, "next": "/admin/"},
        REMOTE_ADDR=f"2001:db8::{secrets.token_hex(2)}",
    )

    assert signed_in.status_code == 302
    assert signed_in["Location"] == "/admin/"
