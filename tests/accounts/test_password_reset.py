"""A forgotten password, reset by e-mail: Django's views, our templates and e-mail."""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client

from accounts import signin
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a brand new passphrase 77"


def _demo_owner() -> User:
    """The owner as `manage.py demo` makes it: username `demo`, e-mail demo@example.com."""
    return get_user_model().objects.create_user(
        username="demo", email="demo@example.com", password=PASSWORD
    )


@pytest.fixture(autouse=True)
def _fresh_reset_counts() -> None:
    """Reset requests are counted per address in the shared cache; each test starts at 0."""
    if hasattr(cache, "delete_pattern"):
        cache.delete_pattern(f"*{signin.KEY_PREFIX}reset:*")
    else:
        cache.clear()


def _link(message: Any) -> str:
    match = re.search(r"https?://\S+/password/reset/\S+/", message.body)
    assert match, message.body
    return match.group(0)


def test_the_login_page_links_to_the_reset(client: Client) -> None:
    body = client.get("/login/").content.decode()
    assert '<a href="/password/reset/">Forgot your password?</a>' in body


def test_the_reset_page_renders_our_template(client: Client) -> None:
    response = client.get("/password/reset/")
    assert response.status_code == 200
    assert "registration/password_reset_form.html" in [t.name for t in response.templates]
    assert '<label for="id_email">E-mail address</label>' in response.content.decode()


def test_an_owner_resets_a_forgotten_password_by_e_mail(client: Client, settings: Any) -> None:
    settings.APP_BASE_URL = "https://tidemark.example.com/"
    owner = _demo_owner()
    response = client.post("/password/reset/", {"email": "Demo@Example.com"}, follow=True)
    assert response.redirect_chain[-1] == ("/password/reset/sent/", 302)
    assert "Check your e-mail" in response.content.decode()
    assert "60 minutes" in response.content.decode()

    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["demo@example.com"]
    assert message.subject == "Reset your Tidemark password"
    assert "Your username: demo" in message.body
    link = _link(message)
    assert link.startswith("https://tidemark.example.com/password/reset/")

    path = link.removeprefix("https://tidemark.example.com")
    form_page = client.get(path, follow=True)
    assert "Choose a new password" in form_page.content.decode()
    set_password_url = form_page.redirect_chain[-1][0]
    done = client.post(
        set_password_url,
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        follow=True,
    )
    assert done.redirect_chain[-1] == ("/password/reset/complete/", 302)
    assert "Password set" in done.content.decode()
    owner.refresh_from_db()
    assert owner.check_password(NEW_PASSWORD)

    signed_in = client.post("/login/", {"username": "demo", "password": NEW_PASSWORD})
    assert signed_in.status_code == 302
    client.post("/logout/")
    # The link worked once; now it says so and offers a new one.
    again = client.get(path, follow=True).content.decode()
    assert "This link no longer works" in again
    assert 'href="/password/reset/"' in again


def test_requests_for_one_address_cannot_flood_its_inbox(client: Client, settings: Any) -> None:
    settings.PASSWORD_RESET_MAX_PER_EMAIL = 2
    _demo_owner()
    for _ in range(4):
        response = client.post("/password/reset/", {"email": "Demo@Example.com"})
        assert response.status_code == 302
        assert response["Location"] == "/password/reset/sent/"
    assert len(mail.outbox) == 2


def test_an_unknown_address_looks_the_same_and_sends_nothing(client: Client) -> None:
    _demo_owner()
    response = client.post("/password/reset/", {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert response["Location"] == "/password/reset/sent/"
    assert mail.outbox == []


def test_a_new_password_lifts_the_sign_in_lock(client: Client) -> None:
    owner = _demo_owner()
    address = f"2001:db8::{secrets.token_hex(2)}:{secrets.token_hex(2)}"

    def sign_in(password: str) -> Any:
        return client.post(
            "/login/", {"username": "demo", "password": password}, REMOTE_ADDR=address
        )

    for _ in range(5):
        sign_in("wrong")
    assert sign_in(PASSWORD).status_code == 429

    client.post("/password/reset/", {"email": owner.email})
    path = "/" + _link(mail.outbox[0]).split("/", 3)[3]
    set_password_url = client.get(path, follow=True).redirect_chain[-1][0]
    client.post(set_password_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    assert sign_in(NEW_PASSWORD).status_code == 302


def test_createaccount_owners_sign_in_with_the_e_mail_or_else_the_slug(client: Client) -> None:
    """docs/owners.md: the username is the --owner-email when given, else the slug."""
    call_command(
        "createaccount", "acme", "--owner-email", "ops@acme.example", "--owner-password", PASSWORD
    )
    call_command("createaccount", "solo", "--owner-password", PASSWORD)
    assert (
        client.post("/login/", {"username": "ops@acme.example", "password": PASSWORD}).status_code
        == 302
    )
    client.post("/logout/")
    assert client.post("/login/", {"username": "solo", "password": PASSWORD}).status_code == 302
    client.post("/logout/")
    client.post("/password/reset/", {"email": "ops@acme.example"})
    assert "Your username: ops@acme.example" in mail.outbox[0].body


def test_an_owner_without_a_usable_password_gets_no_link(client: Client) -> None:
    """Django's rule: an owner created without a password gets a password from staff."""
    call_command("createaccount", "nopass", "--owner-email", "np@example.com")
    client.post("/password/reset/", {"email": "np@example.com"})
    assert mail.outbox == []


def test_the_link_lifetime_in_words(settings: Any) -> None:
    settings.PASSWORD_RESET_TIMEOUT = 3600
    assert signin.link_lifetime() == "60 minutes"
    settings.PASSWORD_RESET_TIMEOUT = 86_400
    assert signin.link_lifetime() == "24 hours"
