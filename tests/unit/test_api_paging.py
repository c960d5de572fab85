"""Opaque cursors (positions and sort keys) and page windows (first capped at 100, bad cursors named)."""

from __future__ import annotations

import base64
import json

import pytest

from weft.graph.errors import InvalidInput
from weft.schema.support.connection import Connection
from weft.schema.support.paging import (
    KeyWindow,
    Window,
    check_range,
    decode_cursor,
    decode_key_cursor,
    encode_cursor,
    encode_key_cursor,
    key_window,
    window,
)


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
    assert [decode_cursor(e.encoded()) for e in conn.edges] == [2, 3]
    assert conn.page_info.has_next_page and conn.page_info.has_previous_page
    assert conn.total_count == 5
    last = Connection.build(["e"], total=5, page=Window(4, 2))
    assert not last.page_info.has_next_page
    empty = Connection.build([], total=0, page=Window(0, 10))
    assert empty.page_info.start_cursor is None and not empty.page_info.has_next_page


def test_key_cursor_round_trip_and_opacity() -> None:
    for sort, key in [
        ("MOST_CITED", (321354, "2019-06-01", "pabc")),
        ("NEWEST", (0, "", "p:1")),
        ("OLDEST", (1, "2001", "x")),
    ]:
        cursor = encode_key_cursor(sort, key)
        assert key[2] not in cursor and key_window(5, cursor, sort) == KeyWindow(after=key, limit=5)
        assert decode_key_cursor(cursor, sort) == key


def test_key_cursor_of_another_order_is_refused() -> None:
    cursor = encode_key_cursor("NEWEST", (0, "2020-01-01", "p1"))
    with pytest.raises(InvalidInput) as err:
        decode_key_cursor(cursor, "MOST_CITED")
    assert err.value.argument == "after" and "NEWEST" in str(err.value)


def test_position_cursor_is_refused_by_a_keyed_list() -> None:
    """An old `weft:v1:` offset cursor names itself as such instead of paging from a wrong place."""
    with pytest.raises(InvalidInput) as err:
        key_window(10, encode_cursor(9), "NEWEST")
    assert err.value.argument == "after" and "position cursor" in str(err.value)
    with pytest.raises(InvalidInput):
        decode_cursor(encode_key_cursor("NEWEST", (0, "2020", "p1")))


def b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode()


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "!!!",
        b64("weft:v2:"),
        b64("weft:v2:{"),
        b64('weft:v2:["NEWEST",0,"2020"]'),
        b64('weft:v2:["NEWEST","0","2020","p1"]'),
        b64('weft:v2:["NEWEST",true,"2020","p1"]'),
        b64('weft:v2:["NEWEST",0,2020,"p1"]'),
        b64('weft:v3:["NEWEST",0,"2020","p1"]'),
    ],
)
def test_bad_key_cursor_names_argument(bad: str) -> None:
    with pytest.raises(InvalidInput) as err:
        decode_key_cursor(bad, "NEWEST")
    assert err.value.argument == "after"


def test_key_window_checks_first() -> None:
    assert key_window(None, None, "NEWEST", 24) == KeyWindow(None, 24)
    with pytest.raises(InvalidInput) as err:
        key_window(101, None, "NEWEST")
    assert err.value.argument == "first"


def test_keyed_connection_page_info() -> None:
    first, second = ("NEWEST", (0, "2024-05-01", "p1")), ("NEWEST", (0, "2023", "p2"))
    conn = Connection.keyed([(first, "a"), (second, "b")], total=5, has_next=True, after=False)
    c1, c2 = encode_key_cursor(*first), encode_key_cursor(*second)
    assert [(e.encoded(), e.node) for e in conn.edges] == [(c1, "a"), (c2, "b")]
    assert conn.page_info.has_next_page and not conn.page_info.has_previous_page
    assert (conn.page_info.start_cursor, conn.page_info.end_cursor, conn.total_count) == (c1, c2, 5)
    last = Connection.keyed([], total=5, has_next=False, after=True)
    assert last.page_info.has_previous_page and last.page_info.end_cursor is None


def _b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode()


@pytest.mark.parametrize(
    "bad",
    [
        _b64("weft:v1:9223372036854775807"),  # issue 11 item 6: raised OverflowError (an internal error)
        _b64("weft:v1:" + "9" * 300),
        _b64("weft:v1:-1"),
        _b64("weft:v1:1e9"),
        _b64("weft:v1:" + "1" * 600),  # longer than any cursor of ours
    ],
)
def test_huge_or_odd_position_cursors_are_bad_input(bad: str) -> None:
    with pytest.raises(InvalidInput) as err:
        window(10, bad, 24)
    assert err.value.argument == "after"


@pytest.mark.parametrize("rank", [2**63, -(2**63) - 1, 10**30, "9223372036854775807", 1e400, True, None])
def test_huge_or_odd_key_cursors_are_bad_input(rank: object) -> None:
    text = "weft:v2:" + json.dumps(["NEWEST", rank, "2024-05-01", "pabc"])
    with pytest.raises(InvalidInput) as err:
        decode_key_cursor(_b64(text), "NEWEST")
    assert err.value.argument == "after"
