"""Relay paging: opaque cursors, the `first`/`after` window and its limits (pure)."""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

from weft.graph.errors import InvalidInput

MAX_FIRST = 100
DEFAULT_FIRST = 20
_CURSOR_PREFIX = "weft:v1:"


def encode_cursor(offset: int) -> str:
    """The opaque cursor of the item at `offset` (0-based) in a list.

    >>> decode_cursor(encode_cursor(41))
    41
    """
    return base64.urlsafe_b64encode(f"{_CURSOR_PREFIX}{offset}".encode()).decode("ascii")


def decode_cursor(cursor: str, argument: str = "after") -> int:
    """The offset a cursor stands for; InvalidInput naming `argument` if it is not one of ours."""
    try:
        text = base64.urlsafe_b64decode(cursor.encode("ascii")).decode("utf-8")
    except (binascii.Error, UnicodeError, ValueError) as exc:
        raise InvalidInput(f"`{argument}` is not a valid cursor", argument=argument) from exc
    if not text.startswith(_CURSOR_PREFIX) or not text[len(_CURSOR_PREFIX) :].isdigit():
        raise InvalidInput(f"`{argument}` is not a valid cursor", argument=argument)
    return int(text[len(_CURSOR_PREFIX) :])


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
