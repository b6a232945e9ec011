"""The browser-only middleware: skipped for the stateless /v1, Django's own elsewhere."""

from __future__ import annotations

import corsheaders.middleware
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import Client, RequestFactory

from config import middleware

pytestmark = pytest.mark.django_db


def test_every_browser_middleware_is_the_api_skipping_subclass() -> None:
    skipping = {
        f"config.middleware.{cls.__name__}"
        for cls in (
            middleware.SessionMiddleware,
            middleware.CsrfViewMiddleware,
            middleware.AuthenticationMiddleware,
            middleware.MessageMiddleware,
        )
    }
    assert skipping <= set(settings.MIDDLEWARE)
    replaced = ("django.contrib.sessions.", "django.contrib.auth.", "django.contrib.messages.")
    assert not any(
        name.startswith(replaced) or name == "django.middleware.csrf.CsrfViewMiddleware"
        for name in settings.MIDDLEWARE
    )


def test_api_answers_ignore_the_session_and_set_no_cookie(
    client: Client, auth: dict[str, str]
) -> None:
    staff = User.objects.create_user("s@example.com", password="pw-123456789", is_staff=True)
    client.force_login(staff)  # a browser that also holds a session cookie
    response = client.get("/v1/sources", headers=auth)
    assert response.status_code == 200
    assert response.cookies == {}
    assert "Cookie" not in response.get("Vary", "")
    assert response["X-Frame-Options"] == "DENY"  # the rest of the chain still runs


def test_pages_still_get_sessions_csrf_and_the_user(client: Client) -> None:
    page = client.get("/login/")
    assert page.status_code == 200
    assert "csrftoken" in page.cookies
    User.objects.create_user("o@example.com", password="pw-123456789")
    strict = Client(enforce_csrf_checks=True)
    assert strict.post("/login/", {"username": "o@example.com"}).status_code == 403
    assert client.get("/connect-agent").status_code == 302  # anonymous: off to sign in
    assert client.login(username="o@example.com", password="pw-123456789")
    assert client.get("/connect-agent").status_code == 403  # signed in, owns no account


@pytest.mark.parametrize("path", ["/v1/sources", "/v1/updates?limit=5", "/login/", "/admin/"])
@pytest.mark.parametrize("method", ["GET", "OPTIONS"])
@pytest.mark.parametrize("origin", [None, "https://app.example.org"])
def test_cors_headers_are_django_cors_headers_own(path: str, method: str, origin: str | None):
    """The Origin-less shortcut adds exactly what django-cors-headers itself would."""
    factory = RequestFactory()
    headers = {} if origin is None else {"Origin": origin}
    answers = []
    for cls in (middleware.CorsMiddleware, corsheaders.middleware.CorsMiddleware):
        request = factory.generic(method, path, headers=headers)
        response = cls(lambda request: HttpResponse("ok"))(request)
        assert isinstance(response, HttpResponse)
        answers.append(sorted(response.items()))
    assert answers[0] == answers[1]
    if path.startswith("/v1/"):
        assert ("Vary", "origin") in answers[0]
