"""Public ids: prefixed, fixed-width, opaque, and reversible to the internal key."""

from __future__ import annotations

import pytest

from history import ids


def reference_encode(prefix: str, pk: int) -> str:
    """The scheme spelled out digit by digit, to check the fast encoder against."""
    number = (pk * ids._MULT) % ids._MOD
    digits = []
    for _ in range(11):
        number, rem = divmod(number, 62)
        digits.append(ids.ALPHABET[rem])
    return prefix + "".join(reversed(digits))


EDGES = [1, 2, 61, 62, 3843, 3844, 10**9, 2**40 + 7, 2**63 - 1]


@pytest.mark.parametrize("pk", EDGES)
def test_it_encodes_as_the_reference_scheme_and_decodes_back(pk: int) -> None:
    public = ids.encode(ids.UPDATE, pk)
    assert public == reference_encode(ids.UPDATE, pk)
    assert len(public) == len(ids.UPDATE) + 11
    assert ids.decode(ids.UPDATE, public) == pk


def test_it_round_trips_a_range_of_keys() -> None:
    for pk in range(1, 20_000, 7):
        public = ids.encode(ids.ENTRY, pk)
        assert public == reference_encode(ids.ENTRY, pk)
        assert ids.decode(ids.ENTRY, public) == pk


def test_neighbouring_keys_do_not_look_alike() -> None:
    first, second = ids.encode(ids.SOURCE, 41), ids.encode(ids.SOURCE, 42)
    assert first[-4:] != second[-4:]


@pytest.mark.parametrize(
    "public",
    [
        "ent_short",
        "src_" + "A" * 11,  # another type's prefix
        "ent_" + "!" * 11,  # not base62
        "ent_" + "z" * 11,  # beyond 2**64
        "ent_" + "0" * 11,  # key 0
        "",
    ],
)
def test_it_refuses_what_is_not_one_of_its_ids(public: str) -> None:
    assert ids.decode(ids.ENTRY, public) is None


def test_the_memoised_parent_encoder_gives_the_same_ids() -> None:
    for pk in (1, 2, 99, 2**40 + 7, 2**63 - 1):
        for prefix in (ids.ENTRY, ids.SOURCE, ids.CHANGE):
            assert ids.encode_parent(prefix, pk) == ids.encode(prefix, pk)
            assert ids.encode_parent(prefix, pk) == ids.encode(prefix, pk)  # from the cache
