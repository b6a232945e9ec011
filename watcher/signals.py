"""Credits added to an account resume its creditPaused sources, due at once."""

from __future__ import annotations

from typing import Any

from accounts.models import Account
from watcher.schedule import resume_credit_paused


def on_account_saved(sender: type[Account], instance: Account, **kwargs: Any) -> None:
    if instance.credits is None or instance.credits > 0:
        resume_credit_paused(instance.pk)
