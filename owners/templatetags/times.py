"""`{{ ms|ms_date }}`: an epoch-milliseconds history time as a UTC datetime for `date`."""

from __future__ import annotations

from datetime import UTC, datetime

from django import template

register = template.Library()


@register.filter
def ms_date(value: int | None) -> datetime | None:
    if value is None:
        return None
    return datetime.fromtimestamp(value / 1000, tz=UTC)
