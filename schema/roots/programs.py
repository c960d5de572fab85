"""Root fields for programs: batch id resolution (`resolve`) and free-text reference matching."""

from __future__ import annotations

from typing import Annotated

import strawberry

from weft.graph.reads import references, resolve
from weft.schema.context import Info
from weft.schema.types.reference_match import ReferenceMatch
from weft.schema.types.resolved_id import ResolvedId


@strawberry.type
class ProgramQuery:
    @strawberry.field(
        description="Up to 500 ids of any form Weft knows (DOI, arXiv, OpenAlex, Semantic Scholar paperId and "
        "CorpusId, ORCID, ROR, Weft ids and page URLs), each in input order with the form it was recognised as and "
        "the paper, researcher or institution it names, or why none (one database query per kind of node)."
    )
    async def resolve(
        self,
        info: Info,
        ids: Annotated[list[str], strawberry.argument(description="The ids, at most 500.")],
    ) -> list[ResolvedId]:
        found = await resolve.resolve_ids(info.context.reader, ids)
        return [ResolvedId.from_resolution(r) for r in found]

    @strawberry.field(
        description="Up to 25 free-text references, as bibliographies write them (any style), each matched to the "
        "paper it cites, with a confidence in [0, 1] and the evidence (a DOI or arXiv id in the text, title "
        "similarity, year, first author's surname); `paper` is null below the threshold: it abstains rather than "
        "guess, which also flags references to works that are not in the graph (or do not exist)."
    )
    async def match_references(
        self,
        info: Info,
        texts: Annotated[list[str], strawberry.argument(description="The references, at most 25.")],
    ) -> list[ReferenceMatch]:
        found = await references.match_references(info.context.reader, texts)
        return [ReferenceMatch.from_match(m) for m in found]
