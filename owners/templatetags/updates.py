"""`{{ update|describe }}`: an update, as the selectors and the API serve it, for people."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from owners.describe import describe_update

register = template.Library()


@register.filter(name="describe")
def describe_filter(update: Mapping[str, Any] | None) -> str:
    """The line of `owners.describe` for an API-shaped update dict; empty for nothing."""
    if not isinstance(update, Mapping):
        return ""
    return describe_update(update)
