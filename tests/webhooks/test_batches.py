"""A commit's deliveries travel in a few messages, and a batch never waits on a slow or
failing receiver (no broker: the tasks' publishing is mocked)."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from kombu.exceptions import OperationalError

from webhooks import tasks
from webhooks.delivery import Outcome


def _sent(*counts: int) -> tuple[list[list[int]], list[int]]:
    """The batches and the single deliveries that enqueue_many sends for one commit with
    `counts` deliveries for each endpoint (ids numbered on from 1)."""
    groups, first = [], 1
    for count in counts:
        groups.append(list(range(first, first + count)))
        first += count
    with (
        mock.patch.object(tasks.deliver_many, "apply_async") as many,
        mock.patch.object(tasks.deliver, "apply_async") as one,
    ):
        assert tasks.enqueue_many(groups)
    return [c.args[0][0] for c in many.call_args_list], [c.args[0][0] for c in one.call_args_list]


def test_a_big_commit_goes_in_full_batches() -> None:
    batches, singles = _sent(1000)
    assert singles == []
    assert [len(b) for b in batches] == [tasks.BATCH] * (1000 // tasks.BATCH)
    assert [i for b in batches for i in b] == list(range(1, 1001))


def test_a_small_commit_is_spread_so_that_every_worker_process_gets_a_share() -> None:
    batches, singles = _sent(100)
    assert singles == []
    assert len(batches) >= tasks.SPREAD
    assert max(len(b) for b in batches) <= tasks.BATCH
    assert [i for b in batches for i in b] == list(range(1, 101))
    batches, singles = _sent(5)
    assert (batches, singles) == ([], [1, 2, 3, 4, 5])


def test_a_batch_holds_the_deliveries_of_one_endpoint_only() -> None:
    batches, singles = _sent(30, 30)
    assert singles == []
    assert len(batches) >= tasks.SPREAD
    assert all(max(b) <= 30 or min(b) > 30 for b in batches)
    assert [i for b in batches for i in b] == list(range(1, 61))


def test_a_broker_failure_stops_the_batches_and_says_so(caplog: Any) -> None:
    with mock.patch.object(
        tasks.deliver_many, "apply_async", side_effect=OperationalError("down")
    ) as many:
        assert not tasks.enqueue_many([list(range(100))])
    assert many.call_count == 1  # the rest would fail the same way, and slowly
    assert "could not enqueue" in caplog.text


def _run_batch(ids: list[int], outcomes: dict[int, Outcome]) -> tuple[list[int], list[Any]]:
    with (
        mock.patch.object(tasks.delivery, "attempt", side_effect=outcomes.__getitem__) as attempt,
        mock.patch.object(tasks, "enqueue", return_value=True) as enqueue,
    ):
        tasks.deliver_many(ids)
    return [c.args[0] for c in attempt.call_args_list], enqueue.call_args_list


def test_a_batch_delivers_in_turn_while_its_attempts_succeed() -> None:
    ok = Outcome("succeeded")
    attempted, enqueued = _run_batch([1, 2, 3], {1: ok, 2: Outcome("skipped"), 3: ok})
    assert attempted == [1, 2, 3]
    assert enqueued == []


def test_after_an_attempt_that_did_not_succeed_the_rest_go_as_messages_of_their_own() -> None:
    outcomes = {1: Outcome("succeeded"), 2: Outcome("retry", 60)}
    attempted, enqueued = _run_batch([1, 2, 3, 4], outcomes)
    assert attempted == [1, 2]
    assert enqueued == [mock.call(2, countdown=60), mock.call(3), mock.call(4)]


def test_after_a_slow_attempt_the_rest_go_as_messages_of_their_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tasks, "PROMPT_SECONDS", -1.0)  # every attempt counts as slow
    attempted, enqueued = _run_batch([1, 2, 3], {1: Outcome("succeeded")})
    assert attempted == [1]
    assert enqueued == [mock.call(2), mock.call(3)]
