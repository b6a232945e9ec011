"""robots.txt, honoured (RFC 9309) with Protego and cached per origin.

The file is fetched through the same SSRF-checked client as pages. 4xx answers mean no
rules (everything allowed), and so does a redirect that cannot be followed (to a `data:` or
`mailto:` URL: the file is unavailable, RFC 9309 section 2.3.1.3); a 5xx answer means
everything is disallowed until the file can be read again (section 2.3.1.4), cached for a
short time. When the host does not answer at all, the page's own request fails and its
reason is the one recorded.
"""

from __future__ import annotations

import functools
import time
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache
from protego import Protego

from watcher import fetch

ROBOTS_MAX_BYTES = 500_000  # RFC 9309: parse at least 500 KiB
_UNREACHABLE = "\x00unreachable"
_UNREACHABLE_CACHE_SECONDS = 300


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def user_agent_token() -> str:
    """The product token robots.txt groups are matched against: `Tidemark`."""
    return settings.FETCH_USER_AGENT.split("/", 1)[0].strip() or "Tidemark"


# A few seconds of memory in front of the shared cache: checks of one host come in runs.
_MEMO: dict[str, tuple[float, str]] = {}
_MEMO_SECONDS = 30.0
_MEMO_MAX = 10_000


def _load(origin: str) -> str:
    memo = _MEMO.get(origin)
    if memo is not None and memo[0] > time.monotonic():
        return memo[1]
    text = _load_shared(origin)
    if text is None:
        return ""  # no answer at all: the page's own request will say why; nothing is kept
    if len(_MEMO) >= _MEMO_MAX:
        _MEMO.clear()
    _MEMO[origin] = (time.monotonic() + _MEMO_SECONDS, text)
    return text


def _load_shared(origin: str) -> str | None:
    key = f"tm:robots:{origin}"
    text = cache.get(key)
    if text is not None:
        return str(text)
    try:
        fetched = fetch.get(f"{origin}/robots.txt", max_bytes=ROBOTS_MAX_BYTES, accept="text/plain")
        text, seconds = fetched.body.decode("utf-8", "replace"), settings.FETCH_ROBOTS_CACHE_SECONDS
    except fetch.FetchFailed as exc:
        if exc.status is None:
            # No answer at all (DNS, connection, timeout): the page's own request will
            # fail the same way and say why; nothing is cached.
            return None
        if exc.status < 500:
            text, seconds = "", settings.FETCH_ROBOTS_CACHE_SECONDS
        else:
            text, seconds = _UNREACHABLE, _UNREACHABLE_CACHE_SECONDS
    cache.set(key, text, seconds)
    return text


@functools.lru_cache(maxsize=256)
def _parsed(text: str) -> Protego:
    """The rules of one robots.txt text, parsed once (a site's checks come in runs)."""
    return Protego.parse(text)


def refusal(url: str) -> str | None:
    """Why robots.txt forbids fetching `url`, or None when it is allowed."""
    origin = _origin(url)
    text = _load(origin)
    if text == _UNREACHABLE:
        return f"{origin}/robots.txt could not be read, so the site may not be fetched for now."
    if not text.strip():
        return None
    if _parsed(text).can_fetch(url, user_agent_token()):
        return None
    return "the site's robots.txt disallows fetching this page for Tidemark."
