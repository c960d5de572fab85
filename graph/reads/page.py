"""What several read modules share: `Page` (one page of a longer list) and the `$keys` lookup parameter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from weft.graph.identity.lookup import IdKey

Row = dict[str, Any]
"""One node's properties, or one result row, as the driver gives it."""


Props = tuple[str, ...] | None
"""The node properties a page's selection reads (queries/projection.py `picked`); None: every property."""


@dataclass(frozen=True)
class Page:
    """One page of a longer list: the rows shown, how many the whole list has, and the properties its node
    maps hold when it was read for one selection (None: whole nodes; prefetch.covers)."""

    rows: list[Row]
    total: int
    props: Props = None


def unpicked(values: list[Any], props: Props) -> list[Row]:
    """The node maps of a page read with `picked(node, props)`: each list of values zipped with `props`, the
    unset ones left out as `{.*}` leaves them out; the maps as read when `props` is None."""
    if props is None:
        return values
    return [{k: v for k, v in zip(props, row, strict=True) if v is not None} for row in values]


def unpicked_in(rows: list[Row], key: str, props: Props, *extras: str) -> list[Row]:
    """`rows` with the node read with `picked` under each one's `key` made a map again (`unpicked`), the
    values of `picked`'s extras under their keys `extras`."""
    if props is None:
        return rows
    keys = (*props, *extras)
    return [{**row, key: unpicked([row[key]], keys)[0]} for row in rows]


def picked_page(part: Row, props: Props) -> Page:
    """A folded page part {total, page} read with `picked` for `props`."""
    return Page(unpicked(part.get("page") or [], props), part.get("total") or 0, props)


def props_param(props: Props) -> list[str] | None:
    """The `props` parameter of a `picked` page."""
    return None if props is None else list(props)


def keys_param(keys: list[IdKey]) -> list[dict[str, Any]]:
    """The `$keys` parameter of a *_LOOKUP query (aliases are looked up separately)."""
    return [{"property": k.property, "value": k.value} for k in keys if k.property != "alias"]
