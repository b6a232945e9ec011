"""The STORAGES entry for an S3-compatible store (django-storages), built in one place for
the settings and the tests."""

from __future__ import annotations

from typing import Any


def s3_storage(
    *,
    bucket: str,
    endpoint_url: str = "",
    region: str = "",
    access_key: str = "",
    secret_key: str = "",
    url_seconds: int = 300,
) -> dict[str, Any]:
    return {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": bucket,
            "endpoint_url": endpoint_url or None,
            "region_name": region or None,
            "access_key": access_key or None,
            "secret_key": secret_key or None,
            # Any S3-compatible store: path-style addressing when an endpoint is given.
            "addressing_style": "path" if endpoint_url else None,
            # Screenshot URLs are presigned and live as long as the app's signed URLs.
            "querystring_auth": True,
            "signature_version": "s3v4",
            "querystring_expire": url_seconds,
            # Names are content digests: the same name is always the same bytes.
            "file_overwrite": True,
        },
    }
