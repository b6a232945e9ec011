"""A real S3 API for the storage tests: moto's server mode on 127.0.0.1, not an in-process
mock."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from config.storage import s3_storage
from tests.live import free_port

MOTO = Path(sys.executable).parent / "moto_server"


@pytest.fixture(scope="session")
def s3_endpoint() -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing"}
    proc = subprocess.Popen(
        [str(MOTO), "-H", "127.0.0.1", "-p", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.1)
    else:
        proc.kill()
        raise RuntimeError("moto_server did not start")
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(10)


@pytest.fixture
def s3(s3_endpoint: str, settings: Any) -> Any:
    """The default storage on a fresh bucket of the moto server; returns the boto3 client."""
    import boto3

    bucket = f"tidemark-{time.time_ns()}"
    client = boto3.client(
        "s3",
        endpoint_url=s3_endpoint,
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    client.create_bucket(Bucket=bucket)
    settings.S3_BUCKET = bucket
    settings.S3_ENDPOINT_URL = s3_endpoint
    settings.STORAGES = {
        **settings.STORAGES,
        "default": s3_storage(
            bucket=bucket,
            endpoint_url=s3_endpoint,
            region="us-east-1",
            access_key="testing",
            secret_key="testing",
            url_seconds=settings.SIGNED_URL_TTL_SECONDS,
        ),
    }
    client.bucket = bucket
    return client
