# ruff: noqa: RUF001  (the minus sign U+2212, as people read it)
"""`owners.describe`: typed updates written for people (no database)."""

from __future__ import annotations

from typing import Any

import pytest

from history.valuechange import attribute_change, number_change, string_change
from owners.describe import STRING_MAX, describe, describe_update


def number(previous: Any, current: Any, unit: str | None = None) -> dict[str, Any]:
    change: dict[str, Any] = {"type": "number", "current": current}
    if previous is not None:
        change["previous"] = previous
    if unit is not None:
        change["unit"] = unit
    return change


@pytest.mark.parametrize(
    ("previous", "current", "unit", "line"),
    [
        (39.9, 29.9, "EUR", "price 39.90 → 29.90 EUR, −25 %"),
        (20, 24, "USD", "price 20 → 24 USD, +20 %"),
        (29.9, 29, "EUR", "price 29.90 → 29.00 EUR, −3 %"),
        (100, 99.5, "USD", "price 100.00 → 99.50 USD, −0.5 %"),
        (0.125, 0.25, "BTC", "price 0.125 → 0.250 BTC, +100 %"),
        (1000, 1000.5, None, "price 1000.00 → 1000.50, +<0.1 %"),
        (0, 5, "EUR", "price 0 → 5 EUR"),  # no ratio from zero
        (10, 10, "EUR", "price 10 EUR (unit changed)"),
        (None, 29.9, "EUR", "price set to 29.90 EUR"),
    ],
)
def test_prices_have_two_decimals_their_unit_and_the_percentage(previous, current, unit, line):
    assert describe("modified", "price", number(previous, current, unit)) == line


@pytest.mark.parametrize(
    ("field", "change", "line"),
    [
        ("seats", number(5, 10), "seats 5 → 10, +100 %"),
        ("rating", number(4.5, 4.2), "rating 4.5 → 4.2, −6.7 %"),
        ("weight", number(500, 450, "g"), "weight 500 → 450 g, −10 %"),
        ("temperature", number(-5.5, 3, "°C"), "temperature −5.5 → 3.0 °C, +155 %"),
        ("reviews", number(None, 12), "reviews set to 12"),
    ],
)
def test_numbers_are_plain_with_their_unit_and_percentage(field, change, line):
    assert describe("modified", field, change) == line


def test_booleans_read_yes_and_no():
    flip = {"type": "boolean", "previous": True, "current": False}
    assert describe("modified", "inStock", flip) == "inStock yes → no"
    appeared = {"type": "boolean", "current": True}
    assert describe("modified", "inStock", appeared) == "inStock set to yes"


def test_strings_are_quoted_and_long_ones_cut():
    change = {"type": "string", "previous": "A", "current": "B"}
    assert describe("modified", "title", change) == 'title "A" → "B"'
    assert describe("modified", "size", {"type": "string", "current": "XL"}) == 'size set to "XL"'
    long = describe("modified", "title", {"type": "string", "previous": "x" * 500, "current": "y"})
    assert long.startswith('title "' + "x" * (STRING_MAX - 1) + '…" → "y"')


def test_null_and_absent_previous_read_alike():
    assert describe("modified", "size", {"type": "string", "previous": None, "current": "M"}) == (
        describe("modified", "size", {"type": "string", "current": "M"})
    )
    assert describe("modified", "price", number(None, 5, "EUR")) == "price set to 5 EUR"


def test_new_and_removed_are_one_word():
    assert describe("new") == "new"
    assert describe("removed") == "removed"
    # Whatever else a row holds.
    assert describe("new", "price", number(1, 2)) == "new"


def test_a_narration_or_an_odd_row_never_raises():
    assert describe("modified") == "changed"
    assert describe("modified", "price", None) == "price changed"
    assert describe("modified", "price", {"type": "number"}) == "price changed"
    assert describe("modified", "flag", {"type": "boolean", "current": None}) == (
        "flag set to nothing"
    )
    odd = {"type": "number", "previous": "ten", "current": True}
    assert describe("modified", "n", odd) == 'n "ten" → yes'
    nested = {"type": "object", "previous": [1], "current": {"a": 1}}
    assert describe("modified", "x", nested) == 'x "[1]" → "{"a": 1}"'
    assert describe("modified", "x", "not a mapping") == "x changed"  # type: ignore[arg-type]


def test_it_reads_what_ingestion_records():
    """The value changes of history.valuechange, the one rule ingestion uses."""
    assert describe("modified", "price", number_change(39.9, 29.9, "EUR")) == (
        "price 39.90 → 29.90 EUR, −25 %"
    )
    assert describe("modified", "title", string_change("Mug", "Big mug")) == (
        'title "Mug" → "Big mug"'
    )
    change, _ = attribute_change({"b": True}, {"b": False})
    assert describe("modified", "inStock", change) == "inStock yes → no"
    change, type_changed = attribute_change({"s": "12"}, {"n": 12})
    assert type_changed
    assert describe("modified", "size", change) == "size set to 12"


def test_describe_update_takes_the_api_shape():
    card_update = {
        "id": "upd_x",
        "updateType": "modified",
        "field": "inStock",
        "valueChange": {"type": "boolean", "previous": False, "current": True},
        "importance": "material",
    }
    assert describe_update(card_update) == "inStock no → yes"
    assert describe_update({"updateType": "removed"}) == "removed"
    assert describe_update({"updateType": "modified", "headline": "Sale"}) == "changed"
    assert describe_update({}) == "changed"
