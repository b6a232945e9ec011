"""A Python client of the Tidemark read API (`/v1`) and a webhook verification helper.

    import tidemark

    client = tidemark.Client(api_key="svc_mcp_…", base_url="http://127.0.0.1:8000")
    for update in client.updates.list(since="2026-11-01T00:00:00Z"):
        print(update.at, update.entry_title, update.field, update.value_change)

See docs/client.md in the Tidemark repository.
"""

from tidemark import webhooks
from tidemark._async_client import AsyncClient, AsyncPager, AsyncUpdateWatch
from tidemark._client import Client, SyncPager, UpdateWatch
from tidemark._core import Page, RateLimit
from tidemark._errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    InternalServerError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    TidemarkError,
    UnexpectedResponseError,
    WebhookVerificationError,
)
from tidemark._models import (
    BooleanChange,
    CardUpdate,
    Entry,
    EntryKind,
    FeedUpdate,
    FeedUpdateEntry,
    FeedUpdateSource,
    ModelError,
    NumberChange,
    Source,
    StringChange,
    TimelineCard,
    TrackedAttribute,
    Update,
    ValueChangeType,
)
from tidemark._version import __version__
from tidemark.webhooks import WebhookEvent

ValueChange = ValueChangeType

__all__ = [
    "APIConnectionError",
    "APIError",
    "APITimeoutError",
    "AsyncClient",
    "AsyncPager",
    "AsyncUpdateWatch",
    "AuthenticationError",
    "BadRequestError",
    "BooleanChange",
    "CardUpdate",
    "Client",
    "Entry",
    "EntryKind",
    "FeedUpdate",
    "FeedUpdateEntry",
    "FeedUpdateSource",
    "InternalServerError",
    "ModelError",
    "NotFoundError",
    "NumberChange",
    "Page",
    "PermissionDeniedError",
    "RateLimit",
    "RateLimitError",
    "Source",
    "StringChange",
    "SyncPager",
    "TidemarkError",
    "TimelineCard",
    "TrackedAttribute",
    "UnexpectedResponseError",
    "Update",
    "UpdateWatch",
    "ValueChange",
    "WebhookEvent",
    "WebhookVerificationError",
    "__version__",
    "webhooks",
]
