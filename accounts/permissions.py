"""Scope permission for the `/v1` read API (spec: Authentication, rules 3 and 6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rest_framework.permissions import BasePermission

from accounts.authentication import AuthenticatedKey
from accounts.keys import READ_SCOPE

if TYPE_CHECKING:
    # Only for hints: DRF imports this module while rest_framework.views is initialising.
    from rest_framework.request import Request
    from rest_framework.views import APIView


class HasReadScope(BasePermission):
    """Requires an authenticated key carrying the `read` scope; else 401 or 403."""

    message = "This API key lacks the 'read' scope."

    def has_permission(self, request: Request, view: APIView) -> bool:
        key = request.auth
        if not isinstance(key, AuthenticatedKey):
            # No credentials: DRF turns a False here into NotAuthenticated (401) because
            # the request has an authenticator with a challenge header.
            return False
        return READ_SCOPE in key.scopes
