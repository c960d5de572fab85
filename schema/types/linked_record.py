"""The LinkedRecord type: another researcher record that evidence says is (or may be) the same person."""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.dataloader import DataLoader

from weft.graph.reads.identity_links import identity_links
from weft.schema.context import Info
from weft.schema.types.refs import ResearcherRef

_LOADER = "identity_links"


@strawberry.type(description="Another researcher record that the evidence says is, or may be, the same person.")
class LinkedRecord:
    researcher: ResearcherRef = strawberry.field(description="The other researcher record.")
    score: float = strawberry.field(description="Calibrated probability that the two records are one person.")
    evidence: list[str] = strawberry.field(description="What the two records share (or not), as the score weighed it.")


def _loader(info: Info) -> DataLoader[str, list[dict[str, Any]]]:
    """The request's one DataLoader of identity links (kept on the request's loaders, made on first use)."""
    data = info.context.data
    made = data.__dict__.get(_LOADER)
    if made is None:
        reader = data.reader

        async def load(keys: list[str]) -> list[list[dict[str, Any]]]:
            found = await identity_links(reader, list(dict.fromkeys(keys)))
            return [found.get(k, []) for k in keys]

        made = data.__dict__[_LOADER] = DataLoader(load_fn=load)
    return made


async def linked_records(info: Info, rid: str, linked: bool) -> list[LinkedRecord]:
    """The researcher's links (`linked`) or its candidates below the threshold, best score first."""
    from weft.schema.types.researcher import Researcher

    rows = await _loader(info).load(rid)
    return [
        LinkedRecord(researcher=Researcher.from_record(r["other"]), score=r["score"], evidence=r["evidence"] or [])
        for r in rows
        if r["linked"] == linked
    ]
