"""Relay paging: opaque cursors, the `first`/`after` window and its limits (pure).

Two kinds of cursor. Lists paged by key (`mostCited`, `papers`) hand out `weft:v2:` cursors holding the
sort order and the item's sort key, and continue from that key in index order, so a page costs the same
however deep it is and an item inserted before the cursor does not shift the next page. Other lists
hand out `weft:v1:` cursors holding the item's position. A cursor of the other kind (a `weft:v1:`
position from before keyset paging, or a key cursor of another sort order) is refused as an invalid
`after`: ask again from the start.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import dataclass

from weft.graph.errors import InvalidInput

MAX_FIRST = 100
DEFAULT_FIRST = 20
_CURSOR_PREFIX = "weft:v1:"
_KEY_PREFIX = "weft:v2:"
_SEQ_PREFIX = "weft:change:"
# Cursors are ours and short; anything longer, or a position or rank past these, is not one of ours
# (a huge number would overflow Neo4j's 64-bit integers: issue 11).
MAX_CURSOR_CHARS = 512
MAX_OFFSET = 10_000_000
MAX_RANK = 2**53
_POSITION = re.compile(r"[0-9]{1,8}")

SortKey = tuple[int, str, str]
"""An item's place in a list paged by key: (rank, date, id), as graph/reads/papers.py's `PaperKey`."""


def encode_cursor(offset: int) -> str:
    """The opaque cursor of the item at `offset` (0-based) in a list.

    >>> decode_cursor(encode_cursor(41))
    41
    """
    return base64.urlsafe_b64encode(f"{_CURSOR_PREFIX}{offset}".encode()).decode("ascii")


def decode_cursor(cursor: str, argument: str = "after") -> int:
    """The offset a cursor stands for; InvalidInput naming `argument` if it is not one of ours."""
    text = _decoded(cursor, argument)
    position = text[len(_CURSOR_PREFIX) :]
    if not text.startswith(_CURSOR_PREFIX) or not _POSITION.fullmatch(position) or int(position) > MAX_OFFSET:
        raise InvalidInput(f"`{argument}` is not a valid cursor", argument=argument)
    return int(position)


def encode_seq_cursor(seq: int) -> str:
    """The opaque cursor of change number `seq` in the change log (the log pages by number, not position).

    >>> decode_seq_cursor(encode_seq_cursor(7))
    7
    """
    return base64.urlsafe_b64encode(f"{_SEQ_PREFIX}{seq}".encode()).decode("ascii")


def decode_seq_cursor(cursor: str, argument: str = "after") -> int:
    """The change number a change-log cursor stands for; InvalidInput naming `argument` if it is not one."""
    text = _decoded(cursor, argument)
    number = text[len(_SEQ_PREFIX) :]
    if not text.startswith(_SEQ_PREFIX) or not re.fullmatch(r"[0-9]{1,15}", number) or int(number) > MAX_RANK:
        raise InvalidInput(f"`{argument}` is not a valid cursor", argument=argument)
    return int(number)


def encode_key_cursor(sort: str, key: SortKey) -> str:
    """The opaque cursor of the item with sort key `key` in a list in `sort` order.

    >>> decode_key_cursor(encode_key_cursor("NEWEST", (0, "2024-05-01", "pabc")), "NEWEST")
    (0, '2024-05-01', 'pabc')
    """
    text = _KEY_PREFIX + json.dumps([sort, *key], separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode("ascii")


def decode_key_cursor(cursor: str, sort: str, argument: str = "after") -> SortKey:
    """The sort key a cursor of a list in `sort` order stands for; InvalidInput naming `argument` when it is
    not one of ours, holds a position (an older `weft:v1:` cursor) or belongs to another sort order."""
    text = _decoded(cursor, argument)
    if text.startswith(_CURSOR_PREFIX):
        raise InvalidInput(
            f"`{argument}` is a position cursor from an earlier version; this list continues by sort key, "
            "so ask again without it and use the new cursors",
            argument=argument,
        )
    try:
        value = json.loads(text[len(_KEY_PREFIX) :]) if text.startswith(_KEY_PREFIX) else None
    except ValueError:
        value = None
    match value:
        case [str(s), int(rank), str(date), str(item)] if s == sort and _is_rank(rank):
            return (rank, date, item)
        case [str(s), int(), str(), str()] if s != sort:
            raise InvalidInput(f"`{argument}` is a cursor of the {s} order, not {sort}", argument=argument)
        case _:
            raise InvalidInput(f"`{argument}` is not a valid cursor", argument=argument)


def _is_rank(value: int) -> bool:
    return not isinstance(value, bool) and -MAX_RANK <= value <= MAX_RANK


def _decoded(cursor: str, argument: str) -> str:
    if len(cursor) > MAX_CURSOR_CHARS:
        raise InvalidInput(f"`{argument}` is not a valid cursor", argument=argument)
    try:
        return base64.urlsafe_b64decode(cursor.encode("ascii")).decode("utf-8")
    except (binascii.Error, UnicodeError, ValueError) as exc:
        raise InvalidInput(f"`{argument}` is not a valid cursor", argument=argument) from exc


@dataclass(frozen=True)
class KeyWindow:
    """Which slice of a list paged by key a page shows: at most `limit` items after the key `after`."""

    after: SortKey | None
    limit: int


def key_window(first: int | None, after: str | None, sort: str, default: int = DEFAULT_FIRST) -> KeyWindow:
    """The page asked of a list paged by key in `sort` order (`first` checked as `window` does)."""
    limit = window(first, None, default).limit
    return KeyWindow(after=None if after is None else decode_key_cursor(after, sort), limit=limit)


@dataclass(frozen=True)
class Window:
    """Which slice of a list a page shows: `skip` items, then at most `limit`."""

    skip: int
    limit: int

    @property
    def end(self) -> int:
        return self.skip + self.limit


def window(first: int | None, after: str | None, default: int = DEFAULT_FIRST, argument: str = "first") -> Window:
    """The page asked for (`default` items when `first` is None); `first` must be 0..100 (InvalidInput
    naming the argument otherwise).

    >>> window(10, encode_cursor(9), 24)
    Window(skip=10, limit=10)
    """
    limit = default if first is None else first
    if limit < 0:
        raise InvalidInput(f"`{argument}` must not be negative (got {limit})", argument=argument)
    if limit > MAX_FIRST:
        raise InvalidInput(f"`{argument}` must be at most {MAX_FIRST} (got {limit})", argument=argument)
    skip = 0 if after is None else decode_cursor(after) + 1
    return Window(skip=skip, limit=limit)


def check_range(name: str, value: int | None, low: int, high: int) -> None:
    """InvalidInput naming `name` unless `value` is None or within low..high."""
    if value is not None and not low <= value <= high:
        raise InvalidInput(f"`{name}` must be between {low} and {high} (got {value})", argument=name)
