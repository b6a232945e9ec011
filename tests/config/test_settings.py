"""Settings come from the environment, and production refuses insecure defaults."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRINT_SETTINGS = (
    "import django; django.setup(); from django.conf import settings as s; "
    "print(s.DATABASES['default']['ENGINE'], s.CACHES['default']['BACKEND'], "
    "s.CELERY_BROKER_URL, s.STORAGES['default']['BACKEND'], s.DEBUG)"
)


def run_settings(
    env: dict[str, str], code: str = PRINT_SETTINGS
) -> subprocess.CompletedProcess[str]:
    keep = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG"}}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**keep, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_it_runs_on_embedded_defaults_with_no_environment() -> None:
    result = run_settings({})
    assert result.returncode == 0, result.stderr
    engine, cache, broker, storage, debug = result.stdout.split()
    assert engine == "django.db.backends.sqlite3"
    assert cache == "django.core.cache.backends.locmem.LocMemCache"
    assert broker == "filesystem://"
    assert storage == "django.core.files.storage.FileSystemStorage"
    assert debug == "True"


def test_it_uses_postgres_and_redis_from_the_environment() -> None:
    result = run_settings(
        {"DATABASE_URL": "postgres://u@db.internal:5432/x", "REDIS_URL": "redis://cache:6379/1"}
    )
    assert result.returncode == 0, result.stderr
    engine, cache, broker, _, _ = result.stdout.split()
    assert engine == "django.db.backends.postgresql"
    assert cache == "django_redis.cache.RedisCache"
    assert broker == "redis://cache:6379/1"


def test_it_refuses_to_start_without_secret_key_when_debug_is_off() -> None:
    result = run_settings({"DEBUG": "false", "ALLOWED_HOSTS": "api.example.com"})
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_it_refuses_a_weak_secret_key_and_empty_hosts_in_production() -> None:
    result = run_settings({"DEBUG": "false", "SECRET_KEY": "short"})
    assert result.returncode != 0
    assert "shorter than 40 characters" in result.stderr
    assert "ALLOWED_HOSTS is empty" in result.stderr


def test_it_refuses_loopback_webhooks_in_production() -> None:
    result = run_settings(
        {
            "DEBUG": "false",
            "SECRET_KEY": "x" * 50,
            "ALLOWED_HOSTS": "api.example.com",
            "WEBHOOK_ALLOW_LOOPBACK": "true",
        }
    )
    assert result.returncode != 0
    assert "WEBHOOK_ALLOW_LOOPBACK" in result.stderr


def test_it_refuses_loopback_page_fetches_in_production() -> None:
    result = run_settings(
        {
            "DEBUG": "false",
            "SECRET_KEY": "x" * 50,
            "ALLOWED_HOSTS": "api.example.com",
            "FETCH_ALLOW_LOOPBACK": "true",
        }
    )
    assert result.returncode != 0
    assert "FETCH_ALLOW_LOOPBACK must not be enabled in production" in result.stderr


def test_it_starts_with_secure_production_settings() -> None:
    result = run_settings(
        {"DEBUG": "false", "SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "api.example.com"}
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-1] == "False"


def test_embedded_sqlite_waits_for_the_write_lock_instead_of_failing() -> None:
    """web, worker and beat share one SQLite file under `make run`."""
    code = (
        "import django; django.setup(); from django.db import connection as c; "
        "c.ensure_connection(); cur = c.cursor(); cur.execute('PRAGMA journal_mode'); "
        "print(c.settings_dict['OPTIONS']['transaction_mode'], cur.fetchone()[0])"
    )
    keep = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG"}}
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={
            **keep,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": "sqlite:////tmp/tidemark-settings-test.sqlite3",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["IMMEDIATE", "wal"]


def test_boolean_settings_accept_the_usual_words_in_any_case() -> None:
    words = {"TRUE": "True", "yes": "True", "On": "True", "1": "True"}
    words |= {"False": "False", "no": "False", "OFF": "False", "0": "False"}
    for word, expected in words.items():
        result = run_settings({"DEBUG": word, "SECRET_KEY": "x" * 60, "ALLOWED_HOSTS": "a.test"})
        assert result.returncode == 0, result.stderr
        assert result.stdout.split()[-1] == expected, word


def test_a_boolean_setting_that_is_not_a_boolean_refuses_to_start() -> None:
    for name in ("RATE_LIMIT_ENABLED", "DEBUG", "WEBHOOK_ALLOW_LOOPBACK", "CONN_HEALTH_CHECKS"):
        result = run_settings({name: "ture"})

        assert result.returncode != 0, name
        assert f"{name}='ture' is not a boolean" in result.stderr


def _db_options(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.DATABASES['default']['OPTIONS'].get('options', '-'))"
    )
    return run_settings({"DATABASE_URL": "postgres://u@db.internal:5432/x", **env}, code)


def test_generic_plans_are_asked_for_only_where_the_environment_says() -> None:
    off = _db_options({})
    assert off.returncode == 0, off.stderr
    assert off.stdout.strip() == "-"
    on = _db_options({"DB_GENERIC_PLANS": "true"})
    assert on.returncode == 0, on.stderr
    assert on.stdout.strip() == "-c plan_cache_mode=force_generic_plan"
    # Only with prepared statements: unprepared statements have no plan to keep.
    unprepared = _db_options({"DB_GENERIC_PLANS": "true", "DB_PREPARED_STATEMENTS": "false"})
    assert unprepared.stdout.strip() == "-"
    bad = _db_options({"DB_GENERIC_PLANS": "ture"})
    assert bad.returncode != 0
    assert "DB_GENERIC_PLANS='ture' is not a boolean" in bad.stderr
