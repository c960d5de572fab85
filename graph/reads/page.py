"""What several read modules share: `Page` (one page of a longer list) and the `$keys` lookup parameter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from weft.graph.identity.lookup import IdKey

Row = dict[str, Any]
"""One node's properties, or one result row, as the driver gives it."""


@dataclass(frozen=True)
class Page:
    """One page of a longer list: the rows shown and how many the whole list has."""

    rows: list[Row]
    total: int


def keys_param(keys: list[IdKey]) -> list[dict[str, Any]]:
    """The `$keys` parameter of a *_LOOKUP query (aliases are looked up separately)."""
    return [{"property": k.property, "value": k.value} for k in keys if k.property != "alias"]
