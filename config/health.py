"""`/healthz` (the process is up) and `/readyz` (it can serve: database, Redis, storage).

Neither needs a key, neither is rate limited (they are outside `/v1`), neither is in the
OpenAPI document. A load balancer routes traffic by `/readyz`; an orchestrator restarts a
process by `/healthz` (docs/deploying.md).
"""

from __future__ import annotations

import os
from pathlib import Path

from django.conf import settings
from django.core.files.storage import default_storage
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


def _database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return "ok"


def _redis() -> str:
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1)
    client.ping()
    return "ok"


def _storage() -> str:
    if settings.S3_BUCKET:
        import botocore.exceptions

        client = default_storage.connection.meta.client  # type: ignore[attr-defined]
        try:
            client.head_bucket(Bucket=settings.S3_BUCKET)
        except botocore.exceptions.ClientError as exc:
            code = exc.response.get("Error", {}).get("Code", "")
            if code in ("404", "NoSuchBucket"):
                raise RuntimeError(f"the bucket {settings.S3_BUCKET} does not exist") from exc
            raise RuntimeError(f"the bucket {settings.S3_BUCKET} answered {code}") from exc
        return "ok"
    location = Path(settings.STORAGE_DIR)
    location.mkdir(parents=True, exist_ok=True)
    if not os.access(location, os.W_OK):
        raise RuntimeError(f"{location} is not writable")
    return "ok"


@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _database, "storage": _storage}
    if settings.REDIS_URL:
        checks["redis"] = _redis
    results: dict[str, str] = {}
    for name, check in checks.items():
        try:
            results[name] = check()
        except Exception as exc:  # every failure is reported by name, none escapes
            results[name] = f"failing: {exc}"
    ok = all(value == "ok" for value in results.values())
    return JsonResponse(
        {"status": "ok" if ok else "unavailable", "checks": results}, status=200 if ok else 503
    )
