"""Adding a watched source: the checks `manage.py addsource` and the owner pages share."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from cssselect import GenericTranslator, SelectorError
from django.conf import settings
from django.db import IntegrityError, transaction

import netguard
from accounts.models import Account
from history.clock import now_ms
from history.models import Source
from watcher.models import Watch

NAME_MAX = 200
RESERVED_FIELDS = frozenset({"title", "url", "price", "image"})  # entry fields, not attributes


class SourceRefused(ValueError):
    """The source cannot be added; the message says why."""


def check_url(url: str) -> str:
    """The URL as it will be stored, or SourceRefused. A host that does not resolve is
    accepted (its fetches record `failed`); one that resolves to a forbidden address is not.
    """
    url = url.strip()
    try:
        _scheme, host, port, _path = netguard.split_url(url, schemes=("http", "https"))
        netguard.checked_addresses(host, port, allow_loopback=settings.FETCH_ALLOW_LOOPBACK)
    except netguard.UnsafeURL as exc:
        raise SourceRefused(f"refusing {url}: {exc}") from exc
    except netguard.DNSFailure:
        pass
    if len(url) > 2048:
        raise SourceRefused("the URL is longer than 2048 characters")
    return url.split("#", 1)[0]


def check_selector(css: str, what: str) -> str:
    css = css.strip()
    if not css:
        raise SourceRefused(f"{what} is empty")
    try:
        GenericTranslator().css_to_xpath(css)
    except SelectorError as exc:
        raise SourceRefused(f"{what} {css!r} is not a valid CSS selector: {exc}") from exc
    return css


def parse_fields(specs: Iterable[str]) -> dict[str, str]:
    """`NAME=CSS` pairs (`--field`) as a mapping; SourceRefused for a bad one."""
    fields: dict[str, str] = {}
    for spec in specs:
        name, sep, css = spec.partition("=")
        name = name.strip()
        if not sep or not name:
            raise SourceRefused(f"--field {spec!r} must be NAME=CSS")
        if name in fields:
            raise SourceRefused(f"--field {name} is given twice")
        fields[name] = check_selector(css, f"the selector of field {name}")
    return fields


def add_source(
    account: Account,
    url: str,
    *,
    name: str = "",
    frequency: int = 60,
    selector: str = "",
    fields: Mapping[str, str] | None = None,
    ignore: Iterable[str] = (),
    pages: int = 1,
    render: str = Watch.Render.AUTO,
) -> Source:
    """Create an active watched source, due at once. Raises SourceRefused."""
    url = check_url(url)
    if len(name) > NAME_MAX:
        raise SourceRefused(f"the name is longer than {NAME_MAX} characters")
    if frequency < 1:
        raise SourceRefused("the frequency must be at least 1 minute")
    if not 1 <= pages <= settings.FETCH_MAX_PAGES:
        raise SourceRefused(f"pages must be between 1 and {settings.FETCH_MAX_PAGES}")
    if render not in Watch.Render.values:
        raise SourceRefused("render must be auto, never or always")
    if selector:
        selector = check_selector(selector, "the item selector")
    ignore = sorted({i.strip() for i in ignore if i.strip()})
    existing = Source.objects.filter(account=account, url=url).first()
    if existing is not None:
        raise SourceRefused(f"the account already watches {url}: source {existing.public_id}")
    now = now_ms()
    try:
        with transaction.atomic():
            source = Source.objects.create(
                account=account,
                url=url,
                name=name,
                monitoring_frequency=frequency,
                status=Source.Status.ACTIVE,
                created_at=now,
                next_fetch_time=now,
            )
            Watch.objects.create(
                source=source,
                selector=selector,
                fields=dict(fields or {}),
                ignore=ignore,
                pages=pages,
                render=render,
            )
    except IntegrityError as exc:  # added by someone else just now
        raise SourceRefused(f"the account already watches {url}") from exc
    return source
