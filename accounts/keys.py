"""Minting and recognising API keys.

Format: `<brand>_mcp_` + 32 base62 characters (190 random bits) + a 6-character base62
CRC32 checksum of the random part, as GitHub's tokens do. The checksum lets a malformed
or mistyped key be refused before any database lookup.
"""

from __future__ import annotations

import hashlib
import secrets
import zlib
from collections.abc import Iterable

from django.conf import settings
from django.db import transaction

from accounts.models import Account, ApiKey

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
RANDOM_LENGTH = 32
CHECKSUM_LENGTH = 6
DISPLAY_LENGTH = 4  # random characters kept in the display prefix
READ_SCOPE = "read"  # what every /v1 endpoint but openapi.json requires


def _base62(number: int, width: int) -> str:
    chars = []
    for _ in range(width):
        number, rem = divmod(number, 62)
        chars.append(ALPHABET[rem])
    return "".join(reversed(chars))


def _checksum(body: str) -> str:
    return _base62(zlib.crc32(body.encode()), CHECKSUM_LENGTH)


def digest(key: str) -> str:
    """SHA-256 hex digest of a key: what the database stores and looks up."""
    return hashlib.sha256(key.encode()).hexdigest()


def generate_key() -> str:
    body = "".join(secrets.choice(ALPHABET) for _ in range(RANDOM_LENGTH))
    return f"{settings.API_KEY_PREFIX}{body}{_checksum(body)}"


def is_well_formed(key: str) -> bool:
    """True when the key has our prefix, length, alphabet and a valid checksum."""
    prefix = settings.API_KEY_PREFIX
    if not key.startswith(prefix) or len(key) != len(prefix) + RANDOM_LENGTH + CHECKSUM_LENGTH:
        return False
    rest = key[len(prefix) :]
    if rest.strip(ALPHABET):  # a character outside the alphabet (str.strip runs in C)
        return False
    body, check = rest[:RANDOM_LENGTH], rest[RANDOM_LENGTH:]
    return secrets.compare_digest(_checksum(body), check)


def normalise_scopes(scopes: Iterable[str] | None) -> list[str]:
    """Deduplicate and validate scopes; none given means `read`."""
    chosen = sorted(set(scopes or ["read"]))
    unknown = [s for s in chosen if s not in settings.API_SCOPES]
    if unknown:
        raise ValueError(f"unknown scope(s): {', '.join(unknown)}")
    return chosen


@transaction.atomic
def mint_key(
    *, account: Account, name: str = "", scopes: Iterable[str] | None = None
) -> tuple[ApiKey, str]:
    """Create a key for the account. Returns the row and the plaintext, shown only once."""
    plaintext = generate_key()
    row = ApiKey.objects.create(
        account=account,
        name=name,
        prefix=plaintext[: len(settings.API_KEY_PREFIX) + DISPLAY_LENGTH],
        digest=digest(plaintext),
        scopes=normalise_scopes(scopes),
    )
    return row, plaintext
