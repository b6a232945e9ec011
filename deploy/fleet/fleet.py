"""A Tidemark fleet on one machine, and the checks that it behaves as one service.

    python deploy/fleet/fleet.py [--keep]       # `make fleet`

Starts, all on loopback: PostgreSQL and Redis (expected running, as for the tests), an S3
server (moto's server mode), two web processes (gunicorn, 2 workers each), two Celery
workers, one render worker, one beat, the MCP server, and nginx (Debian's package) in front
of the web processes and the MCP server. Production settings (DEBUG=false), S3 storage,
Prometheus metrics in multi-process mode. Then it checks, through nginx:

1. `/readyz` answers 200 with every check `ok`, and `/healthz` 200;
2. 400 concurrent requests for one key (limit 300 a minute) get exactly 300 answers of 200
   and 100 of 429: both web processes share one limiter (Redis);
3. fetches ingested through one process (`manage.py ingest`) while another polls `/v1/updates`
   by the spec's rule (`since` = the newest `at` seen, de-duplicated by id) lose no update;
4. the feed's throughput through nginx (two web processes) beside one web process alone
   (reported, wrk when installed).

Exit status 0 when every check passes. `--keep` leaves the fleet running until Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
VAR = ROOT / "var" / "fleet"
BIN = Path(sys.executable).parent
PYTHON = sys.executable
SECRET_KEY = "fleet-recipe-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"
PORT, WEB1, WEB2, MCP, S3 = 18200, 18201, 18202, 18203, 18204
LIMIT = 300

_procs: list[subprocess.Popen[bytes]] = []


def log(message: str) -> None:
    print(f"[fleet {time.strftime('%H:%M:%S')}] {message}", flush=True)


def start(args: list[str], env: dict[str, str], name: str) -> subprocess.Popen[bytes]:
    out = (VAR / f"{name}.log").open("wb")
    proc = subprocess.Popen(
        args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
    )
    _procs.append(proc)
    return proc


def stop_all() -> None:
    for proc in reversed(_procs):
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
    for proc in _procs:
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def get(url: str, key: str = "", timeout: float = 10) -> tuple[int, bytes]:
    request = urllib.request.Request(url)  # noqa: S310 - loopback only
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:  # noqa: S310
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def wait_ok(url: str, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if get(url, timeout=2)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"{what} did not come up at {url}: see {VAR}")


def manage(env: dict[str, str], *args: str, stdin: str | None = None) -> str:
    done = subprocess.run(
        [PYTHON, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed: {done.stderr}")
    return done.stdout


def environment(database_url: str, redis_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "PYTHONPATH": str(ROOT),
            "DEBUG": "false",
            "SECRET_KEY": SECRET_KEY,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "CELERY_BROKER_URL": redis_url,
            "RATE_LIMIT_DEFAULT": str(LIMIT),
            # Enough room that no request is served uncounted under a burst.
            "RATE_LIMIT_CONNECT_TIMEOUT_MS": "1000",
            "S3_BUCKET": "tidemark-fleet",
            "S3_ENDPOINT_URL": f"http://127.0.0.1:{S3}",
            "S3_REGION": "us-east-1",
            "AWS_ACCESS_KEY_ID": "fleet",
            "AWS_SECRET_ACCESS_KEY": "fleet-secret",
            "METRICS_TOKEN": "fleet-metrics-token",
            # nginx appends the client's address to X-Forwarded-For: the sign-in throttle
            # counts that address, not nginx's.
            "SIGN_IN_TRUSTED_PROXIES": "1",
            "PROMETHEUS_MULTIPROC_DIR": str(VAR / "metrics"),
            "MCP_PORT": str(MCP),
            "APP_BASE_URL": f"http://127.0.0.1:{PORT}",
            "LOG_LEVEL": "WARNING",
        }
    )
    for name in ("WEBHOOK_ALLOW_LOOPBACK", "FETCH_ALLOW_LOOPBACK"):
        env.pop(name, None)
    return env


def start_fleet(env: dict[str, str]) -> None:
    shutil.rmtree(VAR, ignore_errors=True)
    (VAR / "metrics").mkdir(parents=True)
    start([str(BIN / "moto_server"), "-H", "127.0.0.1", "-p", str(S3)], env, "s3")
    wait_ok(f"http://127.0.0.1:{S3}/moto-api/", "the S3 server")
    import boto3

    boto3.client(
        "s3",
        endpoint_url=f"http://127.0.0.1:{S3}",
        region_name="us-east-1",
        aws_access_key_id="fleet",
        aws_secret_access_key="fleet-secret",
    ).create_bucket(Bucket="tidemark-fleet")
    manage(env, "migrate", "--noinput", "-v", "0")
    gunicorn = [str(BIN / "gunicorn"), "config.wsgi", "-c", "python:config.gunicorn"]
    for n, port in enumerate((WEB1, WEB2), 1):
        start([*gunicorn, "--bind", f"127.0.0.1:{port}", "--workers", "2"], env, f"web{n}")
    celery = [str(BIN / "celery"), "-A", "config"]
    for n in (1, 2):
        start(
            [*celery, "worker", "-Q", "celery,webhooks", "--concurrency", "2", "-n",
             f"fleet-worker{n}@%h", "--loglevel", "WARNING"],
            env, f"worker{n}",
        )  # fmt: skip
    start(
        [*celery, "worker", "-Q", "render", "--concurrency", "1", "-n", "fleet-render@%h",
         "--loglevel", "WARNING"],
        env, "render",
    )  # fmt: skip
    start(
        [*celery, "beat", "--schedule", str(VAR / "beat-schedule"), "--loglevel", "WARNING"],
        env,
        "beat",
    )
    start(
        [str(BIN / "uvicorn"), "mcpserver.asgi:app", "--host", "127.0.0.1", "--port", str(MCP)],
        env,
        "mcp",
    )
    conf = (ROOT / "deploy" / "fleet" / "nginx.conf.template").read_text()
    for name, value in {
        "prefix": str(VAR),
        "port": PORT,
        "web1": WEB1,
        "web2": WEB2,
        "mcp": MCP,
    }.items():
        conf = conf.replace("{" + name + "}", str(value))
    (VAR / "nginx.conf").write_text(conf)
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    start([nginx, "-p", str(VAR), "-c", str(VAR / "nginx.conf"), "-g", "daemon off;"], env, "nginx")
    for port in (WEB1, WEB2):
        wait_ok(f"http://127.0.0.1:{port}/healthz", f"web on {port}")
    wait_ok(f"http://127.0.0.1:{PORT}/healthz", "nginx")


def check_ready() -> dict[str, Any]:
    status, body = get(f"http://127.0.0.1:{PORT}/readyz")
    answer = json.loads(body)
    ok = status == 200 and all(v == "ok" for v in answer["checks"].values())
    return {"ok": ok, "status": status, "checks": answer["checks"]}


def check_shared_limiter(env: dict[str, str]) -> dict[str, Any]:
    key = manage(env, "mintkey", "fleet", "--name", "burst").strip().splitlines()[-1]
    url = f"http://127.0.0.1:{PORT}/v1/sources"
    with ThreadPoolExecutor(64) as pool:
        statuses = list(pool.map(lambda _: get(url, key)[0], range(400)))
    ok, limited = statuses.count(200), statuses.count(429)
    return {"ok": ok == LIMIT and limited == 400 - LIMIT, "200": ok, "429": limited}


def check_metrics() -> dict[str, Any]:
    """The burst's 400 requests, counted across every gunicorn worker of both processes."""
    request = urllib.request.Request(f"http://127.0.0.1:{PORT}/metrics")
    request.add_header("Authorization", "Bearer fleet-metrics-token")
    with urllib.request.urlopen(request, timeout=10) as answer:  # noqa: S310
        text = answer.read().decode()
    counted = {"200": 0.0, "429": 0.0}
    for line in text.splitlines():
        if line.startswith('tidemark_http_requests_total{route="/v1/sources"'):
            status = line.split('status="', 1)[1].split('"', 1)[0]
            counted[status] = counted.get(status, 0.0) + float(line.rsplit(" ", 1)[1])
    ok = counted["200"] >= LIMIT and counted["429"] >= 400 - LIMIT
    return {"ok": ok, "sources 200": counted["200"], "sources 429": counted["429"]}


def check_no_update_lost(env: dict[str, str], fetches: int = 30) -> dict[str, Any]:
    key = manage(env, "mintkey", "fleet", "--name", "poller").strip().splitlines()[-1]
    # The poller's own key has no practical limit; the burst key's window must not matter.
    manage(env, "shell", "-c", "from accounts.models import ApiKey; "
           "ApiKey.objects.filter(name='poller').update(rate_limit=1000000)")  # fmt: skip
    lines = []
    for n in range(fetches):
        entries = [
            {"title": f"Item {i}", "url": f"https://fleet.example.com/p/{i}", "price": 10 + i + n}
            for i in range(20)
        ]
        doc = {"account": "fleet", "source": {"url": "https://fleet.example.com/list"}}
        lines.append(json.dumps({**doc, "entries": entries}))
    # One writer process ingests the fetches one by one (as a watcher would) while this
    # process polls through nginx, i.e. through both web processes.
    script = (
        "import sys, time\n"
        "from history.ingest import ingest\n"
        "for line in sys.stdin:\n"
        "    ingest(line)\n"
        "    time.sleep(0.05)\n"
    )
    writer = subprocess.Popen(
        [PYTHON, str(ROOT / "manage.py"), "shell", "-c", script],
        cwd=ROOT, env=env, stdin=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert writer.stdin is not None
    writer.stdin.write("\n".join(lines) + "\n")
    writer.stdin.close()
    seen: set[str] = set()
    since = 0
    polls = 0

    def poll() -> None:
        nonlocal since, polls
        polls += 1
        cursor = ""
        newest = since
        while True:
            query = f"since={since}&limit=100" + (f"&cursor={cursor}" if cursor else "")
            status, body = get(f"http://127.0.0.1:{PORT}/v1/updates?{query}", key)
            if status != 200:
                raise RuntimeError(f"poll answered {status}: {body[:200]!r}")
            page = json.loads(body)
            for row in page["data"]:
                seen.add(row["id"])
                newest = max(newest, row["at"])
            cursor = page["pagination"]["nextCursor"] or ""
            if not page["pagination"]["hasMore"]:
                break
        since = newest  # at-or-after: the rows at `since` come again and are de-duplicated

    while writer.poll() is None:
        poll()
    poll()
    written = json.loads(
        manage(env, "shell", "-c", "import json; from history.models import Update; "
               "from history import ids; print(json.dumps([ids.encode(ids.UPDATE, pk) for pk "
               "in Update.objects.filter(account__slug='fleet').values_list('pk', flat=True)]))")
        .strip().splitlines()[-1]
    )  # fmt: skip
    lost = set(written) - seen
    return {
        "ok": writer.returncode == 0 and not lost and bool(written),
        "written": len(written),
        "polls": polls,
        "lost": len(lost),
    }


def measure_feed(env: dict[str, str]) -> dict[str, Any]:
    wrk = shutil.which("wrk")
    if not wrk:
        return {"skipped": "wrk is not installed (make bench installs it)"}
    key = manage(env, "mintkey", "fleet", "--name", "wrk").strip().splitlines()[-1]
    manage(env, "shell", "-c", "from accounts.models import ApiKey; "
           "ApiKey.objects.filter(name='wrk').update(rate_limit=1000000000)")  # fmt: skip

    def rps(url: str) -> float:
        out = subprocess.run(
            [wrk, "-t2", "-c16", "-d5s", "-H", f"Authorization: Bearer {key}", url],
            capture_output=True, text=True, check=False,
        ).stdout  # fmt: skip
        for line in out.splitlines():
            if line.startswith("Requests/sec:"):
                return float(line.split()[1])
        return 0.0

    return {
        "nginx_two_web_rps": rps(f"http://127.0.0.1:{PORT}/v1/updates"),
        "one_web_rps": rps(f"http://127.0.0.1:{WEB1}/v1/updates"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "FLEET_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tidemark_fleet"
        ),
    )
    parser.add_argument(
        "--redis-url", default=os.environ.get("FLEET_REDIS_URL", "redis://127.0.0.1:6379/5")
    )
    parser.add_argument("--keep", action="store_true", help="leave the fleet running")
    args = parser.parse_args()
    env = environment(args.database_url, args.redis_url)
    import redis

    redis.Redis.from_url(args.redis_url).flushdb()  # the fleet's own Redis db only
    name = args.database_url.rsplit("/", 1)[1]
    pg = ["-h", "127.0.0.1", "-U", "postgres"]
    subprocess.run(["dropdb", *pg, "--if-exists", name], check=False, capture_output=True)
    subprocess.run(["createdb", *pg, name], check=True)
    try:
        log("starting: S3 server, 2 web, 2 workers, render, beat, MCP, nginx")
        start_fleet(env)
        manage(env, "createaccount", "fleet")
        results = {
            "ready": check_ready(),
            "shared limiter (400 requests, limit 300)": check_shared_limiter(env),
            "metrics summed over every web process": check_metrics(),
            "no update lost (ingest in one process, poll through another)": check_no_update_lost(
                env
            ),
        }
        results["feed throughput"] = measure_feed(env)
        for name, result in results.items():
            verdict = "" if "ok" not in result else ("PASS " if result["ok"] else "FAIL ")
            log(f"{verdict}{name}: {json.dumps({k: v for k, v in result.items() if k != 'ok'})}")
        failed = [n for n, r in results.items() if r.get("ok") is False]
        if args.keep:
            log(f"the fleet runs on http://127.0.0.1:{PORT}/ (Ctrl-C stops it)")
            signal.pause()
        return 1 if failed else 0
    finally:
        stop_all()


if __name__ == "__main__":
    sys.exit(main())
