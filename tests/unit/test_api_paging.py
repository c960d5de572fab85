"""Opaque cursors and page windows (first capped at 100, bad cursors named)."""

from __future__ import annotations

import base64

import pytest

from weft.graph.errors import InvalidInput
from weft.schema.support.connection import Connection
from weft.schema.support.paging import Window, check_range, decode_cursor, encode_cursor, window


def test_cursor_round_trip_and_opacity() -> None:
    for offset in (0, 1, 23, 99, 12345):
        cursor = encode_cursor(offset)
        assert str(offset) != cursor
        assert decode_cursor(cursor) == offset


@pytest.mark.parametrize(
    "bad", ["", "abc", "!!!", base64.urlsafe_b64encode(b"other:5").decode(), encode_cursor(3) + "x"]
)
def test_bad_cursor_names_argument(bad: str) -> None:
    with pytest.raises(InvalidInput) as err:
        decode_cursor(bad)
    assert err.value.argument == "after"


def test_window() -> None:
    assert window(None, None, 24) == Window(0, 24)
    assert window(10, encode_cursor(9), 24) == Window(10, 10)
    assert window(0, None, 24) == Window(0, 0)
    assert window(100, None, 24).limit == 100


@pytest.mark.parametrize("first", [101, 1000, -1])
def test_window_rejects_first(first: int) -> None:
    with pytest.raises(InvalidInput) as err:
        window(first, None, 24)
    assert err.value.argument == "first"
    assert str(first) in str(err.value)


def test_check_range() -> None:
    check_range("depth", 2, 1, 3)
    check_range("depth", None, 1, 3)
    with pytest.raises(InvalidInput) as err:
        check_range("depth", 9, 1, 3)
    assert err.value.argument == "depth"


def test_connection_page_info() -> None:
    conn = Connection.build(["c", "d"], total=5, page=Window(2, 2))
    assert [e.node for e in conn.edges] == ["c", "d"]
    assert [decode_cursor(e.cursor) for e in conn.edges] == [2, 3]
    assert conn.page_info.has_next_page and conn.page_info.has_previous_page
    assert conn.total_count == 5
    last = Connection.build(["e"], total=5, page=Window(4, 2))
    assert not last.page_info.has_next_page
    empty = Connection.build([], total=0, page=Window(0, 10))
    assert empty.page_info.start_cursor is None and not empty.page_info.has_next_page
