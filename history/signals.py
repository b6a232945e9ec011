"""The one documented seam between ingestion and webhooks.

`updates_recorded` is sent by `history.ingest` inside the ingestion transaction, after the
fetch's updates are written, with `account_id` (int) and `update_ids` (list of internal
Update keys). Receivers run in that same transaction: whatever they write commits or rolls
back with the fetch. `history` never imports `webhooks`.
"""

from django.dispatch import Signal

updates_recorded = Signal()
