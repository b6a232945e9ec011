"""Encryption at rest for webhook signing secrets (Fernet: AES-128-CBC + HMAC-SHA256).

The key comes from `settings.ENCRYPTION_KEY`: one or more urlsafe-base64 Fernet keys,
comma-separated, newest first (the first encrypts, all decrypt, so keys can be rotated).
When it is empty, a key is derived from `SECRET_KEY` with HKDF-SHA256 (fixed salt and
info below), so rotating SECRET_KEY without setting ENCRYPTION_KEY makes stored secrets
unreadable: production should set ENCRYPTION_KEY explicitly.
"""

from __future__ import annotations

import base64
from functools import lru_cache

from cryptography.fernet import Fernet, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

_HKDF_SALT = b"tidemark.webhooks.secret-encryption"
_HKDF_INFO = b"fernet-key-v1"


def derive_key(secret_key: str) -> bytes:
    """A Fernet key derived from SECRET_KEY (used when ENCRYPTION_KEY is unset)."""
    raw = HKDF(algorithm=hashes.SHA256(), length=32, salt=_HKDF_SALT, info=_HKDF_INFO).derive(
        secret_key.encode()
    )
    return base64.urlsafe_b64encode(raw)


@lru_cache(maxsize=4)
def _fernet(encryption_key: str, secret_key: str) -> MultiFernet:
    keys = [k.strip() for k in encryption_key.split(",") if k.strip()]
    if not keys:
        keys = [derive_key(secret_key).decode()]
    return MultiFernet([Fernet(k) for k in keys])


def fernet() -> MultiFernet:
    # Cached on the setting values, so tests that override settings get a matching key.
    return _fernet(settings.ENCRYPTION_KEY, settings.SECRET_KEY)


def encrypt(plaintext: str) -> str:
    return fernet().encrypt(plaintext.encode()).decode()


def decrypt(token: str) -> str:
    return _decrypt(token, settings.ENCRYPTION_KEY, settings.SECRET_KEY)


@lru_cache(maxsize=1024)
def _decrypt(token: str, encryption_key: str, secret_key: str) -> str:
    # A worker signs every delivery with one of a few endpoint secrets: decrypting each once
    # per process saves a Fernet check and AES pass per delivery. Keyed on the settings too,
    # so a key that no longer opens a token still refuses it (failures are not cached).
    return _fernet(encryption_key, secret_key).decrypt(token.encode()).decode()
