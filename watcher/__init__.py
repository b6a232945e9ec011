"""The watcher: fetches monitored pages and turns them into fetch documents for ingestion."""
