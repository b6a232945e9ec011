"""Owner settings pages: the connect-agent page, where an owner mints and revokes API keys.

Every view works on the Account owned by the signed-in user and nothing else; another
account's key id answers 404. A new key's plaintext never travels in a URL: the create view
stashes it in the session and the next GET of the list pops it, so it is shown exactly once.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.db.models import Max
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.decorators import owner_required
from accounts.forms import KeyCreateForm
from accounts.keys import mint_key
from accounts.models import Account, ApiKey
from accounts.revocation import revoke_keys

SESSION_NEW_KEY = "connect_agent_new_key"


def _origin(request: HttpRequest) -> str:
    return f"{request.scheme}://{request.get_host()}"


def _render_page(
    request: HttpRequest, account: Account, form: KeyCreateForm, *, status: int = 200
) -> HttpResponse:
    new_key = request.session.pop(SESSION_NEW_KEY, None)
    keys = ApiKey.objects.filter(account=account).order_by("-created_at", "-id")
    context: dict[str, Any] = {
        "account": account,
        "keys": keys,
        "form": form,
        "new_key": new_key,
        "origin": _origin(request),
        "key_prefix": settings.API_KEY_PREFIX,
        "mcp_url": settings.MCP_RESOURCE_URL,
        "agents": _approved_agents(request),
    }
    return render(request, "accounts/connect_agent.html", context, status=status)


@require_GET
@owner_required
@never_cache  # the page may carry a freshly minted secret: keep it out of every cache
def connect_agent(request: HttpRequest, account: Account) -> HttpResponse:
    """List the account's keys, show a new key once, and offer the create form."""
    return _render_page(request, account, KeyCreateForm())


@require_POST
@owner_required
@never_cache
def create_key(request: HttpRequest, account: Account) -> HttpResponse:
    """Mint a key, stash its plaintext in the session, and redirect to the list (PRG)."""
    form = KeyCreateForm(request.POST)
    if not form.is_valid():
        return _render_page(request, account, form, status=400)
    row, plaintext = mint_key(
        account=account, name=form.cleaned_data["name"], scopes=form.cleaned_data["scopes"]
    )
    request.session[SESSION_NEW_KEY] = {
        "id": row.pk,
        "name": row.name,
        "plaintext": plaintext,
        "scopes": list(row.scopes),
    }
    return redirect("connect_agent")


@require_http_methods(["GET", "POST"])
@owner_required
def revoke_key(request: HttpRequest, account: Account, key_id: int) -> HttpResponse:
    """GET asks for confirmation; POST revokes and redirects to the list."""
    key = get_object_or_404(ApiKey, pk=key_id, account=account)
    if request.method == "POST":
        if revoke_keys(ApiKey.objects.filter(pk=key.pk)):
            messages.success(request, f"Key “{key.name or key.prefix}” was revoked.")
        else:
            messages.info(request, f"Key “{key.name or key.prefix}” was already revoked.")
        return redirect("connect_agent")
    return render(request, "accounts/revoke_confirm.html", {"key": key})


class SignOutView(auth_views.LogoutView):
    """Django's logout (POST only), plus a message on the sign-in page it redirects to."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        if isinstance(response, HttpResponseRedirect):
            messages.info(request, "You are signed out.")
        return response


def _approved_agents(request: HttpRequest) -> list[dict[str, Any]]:
    """The OAuth clients (MCP agents) this owner approved that still hold a token."""
    from oauth2_provider.models import AccessToken

    rows = (
        AccessToken.objects.filter(user=request.user)
        .values("application_id", "application__name", "application__client_id")
        .annotate(latest=Max("created"), expires=Max("expires"))
        .order_by("-latest")
    )
    return [
        {
            "id": row["application_id"],
            "name": row["application__name"] or row["application__client_id"],
            "approved": row["latest"],
            "expires": row["expires"],
        }
        for row in rows
    ]


@require_POST
@owner_required
def revoke_agent(request: HttpRequest, account: Account, application_id: int) -> HttpResponse:
    """Withdraw an agent's approval: every token and grant it holds for this owner."""
    from oauth2_provider.models import AccessToken, Grant, RefreshToken

    tokens = AccessToken.objects.filter(user=request.user, application_id=application_id)
    if not tokens.exists():
        raise Http404("No such agent.")
    RefreshToken.objects.filter(user=request.user, application_id=application_id).delete()
    Grant.objects.filter(user=request.user, application_id=application_id).delete()
    tokens.delete()
    messages.success(request, "The agent's access was revoked.")
    return redirect("connect_agent")
