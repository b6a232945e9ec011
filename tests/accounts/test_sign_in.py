"""Sign-in pages: Django's auth views with our templates."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import Account
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_the_login_page_renders_our_template(client: Client) -> None:
    response = client.get("/login/")
    assert response.status_code == 200
    assert "registration/login.html" in [t.name for t in response.templates]
    body = response.content.decode()
    assert '<label for="id_username">Username</label>' in body
    assert 'name="csrfmiddlewaretoken"' in body


def test_it_signs_an_owner_in_and_lands_on_their_sources(client: Client, account: Account) -> None:
    response = client.post(
        "/login/", {"username": account.owner.username, "password": PASSWORD}, follow=True
    )
    assert response.redirect_chain[-1] == ("/sources", 302)
    assert "<h1>Sources</h1>" in response.content.decode()


def test_a_wrong_password_is_refused_with_a_message(client: Client, account: Account) -> None:
    response = client.post("/login/", {"username": account.owner.username, "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_root_sends_people_to_their_sources(client: Client) -> None:
    response = client.get("/", follow=True)
    assert [url for url, _ in response.redirect_chain] == [
        "/sources",
        "/login/?next=/sources",
    ]


def test_logout_is_a_post_and_says_so(client: Client, account: Account) -> None:
    client.force_login(account.owner)
    response = client.post("/logout/", follow=True)
    assert response.redirect_chain[-1] == ("/login/", 302)
    assert "You are signed out." in response.content.decode()
    assert client.get("/connect-agent").status_code == 302


def test_password_change(client: Client, account: Account) -> None:
    client.force_login(account.owner)
    page = client.get("/password/change/")
    assert page.status_code == 200
    assert "registration/password_change_form.html" in [t.name for t in page.templates]
    response = client.post(
        "/password/change/",
        {
            "old_password": PASSWORD,
            "new_password1": "a much newer passphrase 42",
            "new_password2": "a much newer passphrase 42",
        },
        follow=True,
    )
    assert response.redirect_chain[-1] == ("/password/change/done/", 302)
    assert "Password changed" in response.content.decode()
    account.owner.refresh_from_db()
    assert account.owner.check_password("a much newer passphrase 42")


def test_the_nav_links_every_owner_page(client: Client, account: Account) -> None:
    client.force_login(account.owner)
    body = client.get("/connect-agent").content.decode()
    hrefs = ("/sources", "/feed", "/connect-agent", "/webhooks", "/password/change/")
    for href in (f'href="{h}"' for h in hrefs):
        assert href in body
    assert 'action="/logout/"' in body
    assert 'aria-current="page"' in body
