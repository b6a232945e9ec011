"""Browser-only middleware that lets `/v1` requests pass straight through.

The read API is stateless: Bearer keys, no cookies, GET only, and DRF's views are exempt
from CSRF. Sessions, CSRF cookies, the lazy `request.user` and the messages store serve the
pages and the admin only, and building them costs a `/v1` request about a tenth of its CPU
(the messages store alone builds a cookie signer). These subclasses skip them for `/v1/`
and behave exactly like Django's everywhere else; being subclasses, they keep the admin's
system checks satisfied.

`FramingMiddleware` stands in for Django's X-Frame-Options middleware and adds the pages'
Content-Security-Policy, skipping `/v1` the same way.
"""

from __future__ import annotations

import secrets
from typing import Any, cast

from corsheaders import middleware as cors
from django.contrib.auth import middleware as auth
from django.contrib.messages import middleware as messages
from django.contrib.sessions import middleware as sessions
from django.http import HttpRequest, HttpResponseBase
from django.middleware import clickjacking, csrf
from django.utils.cache import patch_vary_headers
from django.utils.deprecation import MiddlewareMixin

API_PREFIX = "/v1/"


class _BrowserOnly(MiddlewareMixin):
    def __call__(self, request: HttpRequest) -> Any:
        if request.path_info.startswith(API_PREFIX):
            return self.get_response(request)
        return super().__call__(request)


class SessionMiddleware(_BrowserOnly, sessions.SessionMiddleware):
    pass


class CsrfViewMiddleware(_BrowserOnly, csrf.CsrfViewMiddleware):
    """Its process_view still runs for `/v1` and returns at once: DRF views are exempt."""


class AuthenticationMiddleware(_BrowserOnly, auth.AuthenticationMiddleware):
    pass


class MessageMiddleware(_BrowserOnly, messages.MessageMiddleware):
    pass


class CorsMiddleware(cors.CorsMiddleware):
    """django-cors-headers, without building `request.headers` when there is no Origin.

    Only a browser's cross-origin request carries `Origin`; for every other request the
    parent reads the whole header map just to find it missing, and then only adds
    `Vary: origin` on CORS URLs. That map costs about 3% of a `/v1` request.
    """

    def add_response_headers(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if "HTTP_ORIGIN" in request.META:
            return super().add_response_headers(request, response)
        enabled = getattr(request, "_cors_enabled", None)
        if enabled is None:
            enabled = self.is_enabled(request)
        if enabled:
            patch_vary_headers(response, ("origin",))
        return response


# The pages' policy: their own scripts, styles, images, frames and fetches only; an inline
# script only with this response's nonce (`request.csp_nonce`). Nothing is loaded from a
# watched site while an owner reads a page: an entry's picture is a link, never an <img>.
CSP = (
    "default-src 'self'; script-src 'self' 'nonce-{nonce}'; style-src 'self'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'"
)
# The consent page's form ends in a redirect to the agent's own callback, which a
# form-action of 'self' would block.
CSP_OAUTH = CSP.removesuffix("; form-action 'self'")
OAUTH_PREFIX = "/oauth/"


class FramingMiddleware(clickjacking.XFrameOptionsMiddleware):
    """Django's X-Frame-Options everywhere, and a Content-Security-Policy on every response
    but `/v1`'s: the pages, the sign-in and the admin.

    Part of the middleware `/v1` already runs, so the API pays one prefix test for it. A
    response that has a policy of its own (a captured page's `sandbox`) keeps it.
    """

    def __call__(self, request: HttpRequest) -> Any:
        if request.path_info.startswith(API_PREFIX):
            return super().__call__(request)
        nonce = secrets.token_urlsafe(16)
        request.csp_nonce = nonce  # type: ignore[attr-defined]
        response = cast(HttpResponseBase, super().__call__(request))  # a WSGI stack
        if "Content-Security-Policy" not in response:
            policy = CSP_OAUTH if request.path_info.startswith(OAUTH_PREFIX) else CSP
            response["Content-Security-Policy"] = policy.format(nonce=nonce)
        return response
