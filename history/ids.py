"""Public identifiers: a type prefix and an opaque, stable encoding of the internal key.

The internal BigAutoField serves joins and keyset pagination. On the wire it is multiplied
by an odd constant modulo 2**64 (a bijection, so no lookup table is needed) and written in
base62 at a fixed width, e.g. `upd_3KqV0cX9fLm`. Clients must treat ids as opaque strings.
"""

from __future__ import annotations

import functools

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_INDEX = {c: i for i, c in enumerate(ALPHABET)}
_MOD = 1 << 64
_MASK = _MOD - 1
_MULT = 0x9E3779B97F4A7C15
_INV = pow(_MULT, -1, _MOD)
_WIDTH = 11  # 62**11 > 2**64

SOURCE = "src_"
ENTRY = "ent_"
CHANGE = "chg_"
UPDATE = "upd_"


# Two base62 digits per divmod: ids are encoded ~100 times per API page, so this is hot.
_PAIRS = [a + b for a in ALPHABET for b in ALPHABET]


def encode(prefix: str, pk: int) -> str:
    n = (pk * _MULT) & _MASK  # modulo 2**64
    n, r0 = divmod(n, 3844)
    n, r1 = divmod(n, 3844)
    n, r2 = divmod(n, 3844)
    n, r3 = divmod(n, 3844)
    n, r4 = divmod(n, 3844)
    # 2**64 / 62**10 < 62, so one single digit leads: 11 characters in all.
    # One f-string builds the id in one allocation (chained + made six intermediates).
    return f"{prefix}{ALPHABET[n]}{_PAIRS[r4]}{_PAIRS[r3]}{_PAIRS[r2]}{_PAIRS[r1]}{_PAIRS[r0]}"


# Parents (entries, sources, changes) repeat down a page and across pages, so their ids are
# memoised; an LRU hit costs a tenth of an encode. Update ids are unique: encode() directly.
encode_parent = functools.lru_cache(maxsize=8192)(encode)


def decode(prefix: str, public_id: str) -> int | None:
    """The internal key for a public id, or None when it is not one of ours."""
    if not public_id.startswith(prefix) or len(public_id) != len(prefix) + _WIDTH:
        return None
    number = 0
    for char in public_id[len(prefix) :]:
        digit = _INDEX.get(char)
        if digit is None:
            return None
        number = number * 62 + digit
    if number >= _MOD:
        return None
    pk = (number * _INV) % _MOD
    return pk if 0 < pk < (1 << 63) else None
