"""The documented seams between ingestion and the apps that react to it (webhooks, alerts).

`updates_recorded` is sent by `history.ingest` inside the ingestion transaction, after the
fetch's updates are written, with `account_id` (int) and `update_ids` (list of internal
Update keys), and, for receivers that match in memory, `updates` (ingestion's
`PendingUpdate`s, in the order of `update_ids`) and `source_id`.

`source_outcome_recorded` is sent by `history.ingest` for every fetch, after the source's
fetch fields moved: `account_id`, `source_id`, `outcome`, `failures` (consecutive failed or
broken fetches), `at`, `reason`.

`source_paused` is sent by `history.notify.source_paused` when a source becomes
autoPaused or creditPaused: `account_id`, `source_id`, `status`, `at`, `failures`.

Receivers run in the sender's transaction: whatever they write commits or rolls back with
it. `history` never imports `webhooks` or `alerts`.
"""

from django.dispatch import Signal

updates_recorded = Signal()
source_outcome_recorded = Signal()
source_paused = Signal()
