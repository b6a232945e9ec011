"""Fixtures for the accounts tests: signed-in owners and a clean rate-limit Redis."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import cast

import pytest
import redis
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from accounts import ratelimit
from accounts.models import Account
from tests.factories import UserFactory

PASSWORD = "correct horse battery staple"


@pytest.fixture
def owner_client(client: Client, account: Account) -> Client:
    client.force_login(account.owner)
    return client


@pytest.fixture
def staff_client(client: Client, db: None) -> Client:
    staff = cast(User, UserFactory(username="staff@example.com", is_staff=True, is_superuser=True))
    client.force_login(staff)
    return client


@pytest.fixture
def limiter_redis() -> Iterator[redis.Redis]:
    """The limiter's Redis, emptied of counters and cached keys before and after the test."""
    url = settings.RATE_LIMIT_REDIS_URL
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail("REDIS_URL is not set in CI: the rate limiter cannot be tested")
        pytest.skip("REDIS_URL is not set: the rate limiter needs a real Redis")
    client = redis.Redis.from_url(url)

    def flush() -> None:
        names = [
            name
            for prefix in (ratelimit.KEY_PREFIX, ratelimit.RECORD_PREFIX)
            for name in client.scan_iter(match=f"{prefix}*", count=1000)
        ]
        if names:
            client.delete(*names)

    flush()
    ratelimit.reset()
    yield client
    flush()
    ratelimit.reset()
