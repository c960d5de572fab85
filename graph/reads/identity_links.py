"""Reading a researcher's identity links and "possibly the same person" candidates (graph/MODEL.md "Identity links")."""

from __future__ import annotations

from typing import Any

from weft.graph.reads.reader import GraphReader
from weft.queries import identity_links as q

Row = dict[str, Any]


async def identity_links(reader: GraphReader, ids: list[str]) -> dict[str, list[Row]]:
    """`{id: [{other, linked, score, evidence}]}`: links first, then candidates, each by score."""
    out: dict[str, list[Row]] = {i: [] for i in ids}
    for row in await reader.rows(q.RESEARCHER_LINKS, {"ids": ids}, "reading identity links"):
        out[row["id"]].append(row)
    return out
