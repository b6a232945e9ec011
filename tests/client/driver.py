"""Run one test body against both clients: `drive(lambda c: c.updates.list())` gives the
same Python value from `tidemark.Client` and from `tidemark.AsyncClient`."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import tidemark


async def _resolve_async(value: Any) -> Any:
    if inspect.isawaitable(value):
        return await value
    if isinstance(value, AsyncIterable):
        return [item async for item in value]
    return value


def _resolve_sync(value: Any) -> Any:
    if isinstance(value, Iterable) and not isinstance(value, str | bytes | dict | list):
        return list(value)
    return value


class Driver:
    """A client of one kind (`mode`: "sync" or "async") with fixed options."""

    def __init__(self, mode: str, base_url: str, key: str, **options: Any) -> None:
        self.mode, self.base_url, self.key, self.options = mode, base_url, key, options
        self.statuses: list[int] = []  # of every response the client received, in order

    def __call__(self, body: Callable[[Any], Any]) -> Any:
        if self.mode == "sync":

            def seen(response: httpx.Response) -> None:
                self.statuses.append(response.status_code)

            with (
                httpx.Client(event_hooks={"response": [seen]}) as http,
                tidemark.Client(
                    self.key, base_url=self.base_url, http_client=http, **self.options
                ) as client,
            ):
                return _resolve_sync(body(client))

        async def seen_async(response: httpx.Response) -> None:
            self.statuses.append(response.status_code)

        async def run() -> Any:
            async with (
                httpx.AsyncClient(event_hooks={"response": [seen_async]}) as http,
                tidemark.AsyncClient(
                    self.key, base_url=self.base_url, http_client=http, **self.options
                ) as client,
            ):
                return await _resolve_async(body(client))

        # In a thread of its own: the browser tests' Playwright may keep an event loop
        # running in this one.
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(asyncio.run, run()).result()
