"""OAuth for agents that cannot paste a key: django-oauth-toolkit as the authorization
server (RFC 8414 metadata, RFC 7591 dynamic registration, PKCE, RFC 8707 resource
indicators), issuing `svc_oat_` access tokens for the MCP resource only.

The web app serves the endpoints (`/oauth/authorize/` with the owner's consent page,
`/oauth/token/`, `/oauth/register/`, `/oauth/revoke_token/`, and
`/.well-known/oauth-authorization-server`); the MCP process checks the tokens
(`verify`). `/v1` refuses them (accounts.authentication), as the contract says.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.conf import settings
from django.utils import timezone
from oauth2_provider.models import AccessToken


def access_token(request: Any, refresh_token: bool = False) -> str:
    """An access token: the brand's OAuth prefix and 40 random characters."""
    return settings.OAUTH_TOKEN_PREFIX + secrets.token_urlsafe(30)


def refresh_token(request: Any, refresh_token: bool = False) -> str:
    return secrets.token_urlsafe(40)


def verify(token: str) -> tuple[int, int, list[str]] | None:
    """(account id, token id, scopes) of a live access token issued for the MCP resource
    to an account owner, else None."""
    checksum = hashlib.sha256(token.encode()).hexdigest()
    row = (
        AccessToken.objects.select_related("user__account").filter(token_checksum=checksum).first()
    )
    if row is None or row.user is None or row.expires <= timezone.now():
        return None
    if not row.resource or not row.allows_audience(settings.MCP_RESOURCE_URL):
        return None  # bound to another resource, or to none: not ours to honour
    account = getattr(row.user, "account", None)
    if account is None:
        return None
    return account.pk, row.pk, row.scope.split()
