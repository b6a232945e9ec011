"""NOTIFY_ALLOW_LOOPBACK is refused in production, like the other loopback switches."""

from __future__ import annotations

from tests.config.test_settings import run_settings


def test_it_refuses_loopback_alert_targets_in_production() -> None:
    result = run_settings(
        {
            "DEBUG": "false",
            "SECRET_KEY": "x" * 50,
            "ALLOWED_HOSTS": "api.example.com",
            "NOTIFY_ALLOW_LOOPBACK": "true",
        }
    )
    assert result.returncode != 0
    assert "NOTIFY_ALLOW_LOOPBACK must not be enabled in production" in result.stderr
