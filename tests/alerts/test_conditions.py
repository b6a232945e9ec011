"""The condition language: what parses, what is refused, and where the error points."""

from __future__ import annotations

import pytest

from alerts import conditions as c

FIELDS = c.Fields({"inStock": "boolean", "rating": "number", "colour": "string"})


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("new", "new"),
        ("removed", "removed"),
        ("changed and importance >= material", "changed and importance >= material"),
        ("price < 30", "price < 30"),
        ("price <= 29.5", "price <= 29.5"),
        ("PRICE > 10", "price > 10"),
        ("price >= 100", "price >= 100"),
        ("price drop >= 10%", "price drop >= 10%"),
        ("price drop >= 10 %", "price drop >= 10%"),
        ("price drop >= 5", "price drop >= 5"),
        ("price rise >= 20%", "price rise >= 20%"),
        ("price lowest", "price lowest"),
        ("inStock becomes true", "inStock becomes true"),
        ("inStock becomes false", "inStock becomes false"),
        ("rating >= 4.5", "rating >= 4.5"),
        ('new and title ~ "Lamp"', 'new and title ~ "lamp"'),
        ("kind = product and price < 30", "price < 30 and kind = product"),
        ("importance >= critical", "importance >= critical"),
        ("broken", "broken"),
        ("broken 5", "broken 5"),
        ("paused", "paused"),
    ],
)
def test_it_parses_and_prints_the_canonical_form(text: str, canonical: str) -> None:
    assert c.describe(c.parse(text, FIELDS)) == canonical


def test_the_ast_is_typed() -> None:
    parsed = c.parse('price < 30 and title ~ "lamp"', FIELDS)
    assert parsed.trigger == c.Compare("price", "<", 30.0)
    assert parsed.filters == (c.TitleContains("lamp"),)
    assert c.parse("price drop >= 10%").trigger == c.Move("drop", 10.0, True)
    assert c.parse("broken").trigger == c.Broken(3)


@pytest.mark.parametrize(
    ("text", "column", "word", "says"),
    [
        ("price < cheap", 9, "cheap", "expected a number"),
        ("price", 6, "", "expected <"),
        ("colour < 3", 10, "3", "string field; it cannot be compared with a number"),
        ("weight < 3", 1, "weight", "unknown field 'weight'"),
        ("inStock becomes maybe", 17, "maybe", "true or false"),
        ("rating becomes true", 8, "becomes", "number field"),
        ("inStock < 3", 11, "3", "boolean field"),
        ("new and", 8, "", "after 'and'"),
        ("new or removed", 5, "or", "expected 'and'"),
        ("price < 30 and price > 10", 16, "price", "one change at a time"),
        ("importance >= huge", 15, "huge", "minor, material, critical"),
        ('title ~ "unterminated', 9, '"unterminated', "unterminated string"),
        ("title ~ lamp", 9, "lamp", "quoted string"),
        ('broken and title ~ "x"', 12, "title", "about the source"),
        ("broken 0", 8, "0", "whole number"),
        ("price drop >= 0%", 15, "0", "more than 0"),
        ("", 1, "", "empty"),
        ("new $", 5, "$", "unexpected character"),
    ],
)
def test_a_bad_condition_points_at_the_offending_word(
    text: str, column: int, word: str, says: str
) -> None:
    with pytest.raises(c.ConditionError) as caught:
        c.parse(text, FIELDS)
    assert caught.value.column == column, str(caught.value)
    assert caught.value.word == word
    assert says in caught.value.message
    assert f"column {column}" in str(caught.value)


def test_without_known_fields_any_attribute_name_parses() -> None:
    assert c.parse("anything becomes true").trigger == c.Becomes("anything", True)
