"""View decorators for the owner settings pages."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.models import Account

OwnerView = Callable[..., HttpResponse]


def owner_required(view: OwnerView) -> Callable[..., HttpResponse]:
    """Sign-in required; the view gets the signed-in owner's Account after the request.

    Every page is scoped through this one lookup, so no view can reach another account.
    A signed-in user who owns no account gets an explanatory 403 page.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        account = Account.objects.filter(owner_id=request.user.pk).first()
        if account is None:
            return render(request, "accounts/no_account.html", status=403)
        return view(request, account, *args, **kwargs)

    return login_required(wrapper)
