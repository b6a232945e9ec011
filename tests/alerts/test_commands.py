"""`manage.py addalert` and `manage.py alerts`: output, exit codes, nothing half-made."""

from __future__ import annotations

import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.models import Account
from alerts.models import AlertRule, RulesVersion
from history.models import Source
from tests.alerts.support import fetch, item

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def addalert(*args: str) -> str:
    out = StringIO()
    call_command("addalert", *args, stdout=out)
    return out.getvalue()


def test_it_prints_the_new_rules_id_last(account: Account) -> None:
    fetch(account, item("a", 10, inStock=True))
    source = Source.objects.get()
    out = addalert(
        account.slug,
        "--when",
        "inStock becomes true",
        "--notify",
        "mailto:me@example.com",
        "--notify",
        "slack://T000/B000/XXXX",
        "--source",
        source.public_id,
        "--digest",
        "daily",
        "--on-first",
        "--name",
        "Back in stock",
    )
    rule = AlertRule.objects.get()
    assert out.strip().splitlines()[-1] == rule.public_id
    assert (rule.condition, rule.digest, rule.on_first, rule.name) == (
        "inStock becomes true",
        "daily",
        True,
        "Back in stock",
    )
    assert rule.targets == ["mailto:me@example.com", "slack://T000/B000/XXXX"]
    assert rule.source_id == source.pk
    assert RulesVersion.objects.get(account=account).version != 0

    listing = StringIO()
    call_command("alerts", account.slug, stdout=listing)
    [line] = listing.getvalue().splitlines()
    assert line.startswith(f"{rule.public_id}\tactive\tinStock becomes true\t{source.public_id}")
    assert "XXXX" not in line  # the Slack token is not printed


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--when", "price <", "--notify", "mailto:a@example.com"], "condition: expected a number"),
        (["--when", "weight < 3", "--notify", "mailto:a@example.com"], "unknown field 'weight'"),
        (["--when", "new", "--notify", "mailto:nobody"], "notify: 'nobody' is not an e-mail"),
        (["--when", "new", "--notify", "gopher://x"], "not a supported service"),
        (["--when", "new", "--notify", "json://10.0.0.5/hook"], "forbidden address"),
        (["--when", "new", "--notify", "json://127.0.0.1:8080/x"], "forbidden address"),
        (["--when", "new", "--notify", "webhook:999"], "no webhook endpoint 999"),
        (["--when", "new", "--notify", "owner", "--source", "src_nope"], "source: no source"),
        (["--when", "new", "--notify", "owner", "--digest", "weekly"], "digest: 'weekly'"),
    ],
)
def test_bad_input_is_refused_and_creates_nothing(
    account: Account, args: list[str], says: str
) -> None:
    with pytest.raises(CommandError, match=None) as caught:
        addalert(account.slug, *args)
    assert says in str(caught.value)
    assert AlertRule.objects.count() == 0
    assert not RulesVersion.objects.exists()


def test_an_unknown_account_is_refused(db: Any) -> None:
    with pytest.raises(CommandError, match="no account 'ghost'"):
        addalert("ghost", "--when", "new", "--notify", "owner")


def test_the_process_exits_1_with_one_line(transactional_db: Any, account: Account) -> None:
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("the subprocess reaches the test database by its PostgreSQL URL")
    db = connection.settings_dict
    env = {
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "PATH": "/usr/bin:/bin",
    }
    bad = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "addalert",
            account.slug,
            "--when",
            "price < x",
            "--notify",
            "owner",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 1
    assert bad.stdout == ""
    assert len(bad.stderr.strip().splitlines()) == 1
    assert "column 9" in bad.stderr
    good = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "addalert",
            account.slug,
            "--when",
            "new",
            "--notify",
            "owner",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert good.returncode == 0, good.stderr
    assert good.stdout.strip().splitlines()[-1] == AlertRule.objects.get().public_id
