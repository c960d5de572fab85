"""The ResolvedId type: one input of `resolve`, the form it was recognised as, and the node it names (or why none)."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import strawberry

from weft.graph.reads.resolve import Resolution
from weft.schema.support.enums import SearchType
from weft.schema.types.refs import InstitutionRef, PaperRef, ResearcherRef

ResolvedEntity = Annotated[
    PaperRef | ResearcherRef | InstitutionRef,
    strawberry.union("ResolvedEntity", description="The paper, researcher or institution an id names."),
]


@strawberry.enum(description="The form an id was recognised as.")
class IdKind(Enum):
    DOI = strawberry.enum_value("DOI", description="A DOI: bare, `doi:` or a doi.org URL (any letter case).")
    ARXIV = strawberry.enum_value(
        "ARXIV", description="An arXiv id: new (`2110.15032`) or old style (`hep-th/9901001`), versioned, URL or DOI."
    )
    OPENALEX = strawberry.enum_value("OPENALEX", description="An OpenAlex W, A or I id, short or URL.")
    S2_PAPER = strawberry.enum_value("S2_PAPER", description="A Semantic Scholar paperId (40 hex digits) or its URL.")
    CORPUS_ID = strawberry.enum_value("CORPUS_ID", description="A Semantic Scholar `CorpusId:N`.")
    MAG = strawberry.enum_value("MAG", description="A Microsoft Academic Graph id, `mag:N`.")
    PMID = strawberry.enum_value("PMID", description="A PubMed id, `pmid:N` or its URL.")
    ORCID = strawberry.enum_value("ORCID", description="An ORCID iD, bare or URL.")
    ROR = strawberry.enum_value("ROR", description="A ROR id, short or URL.")
    S2_AUTHOR = strawberry.enum_value("S2_AUTHOR", description="A Semantic Scholar authorId (digits) or its URL.")
    WEFT_ID = strawberry.enum_value("WEFT_ID", description="A Weft internal id or slug.")
    WEFT_URL = strawberry.enum_value("WEFT_URL", description="A Weft page URL (`…/papers/<key>-<words>` and so on).")


@strawberry.enum(description="What became of one id.")
class ResolveStatus(Enum):
    FOUND = strawberry.enum_value("FOUND", description="The id names `entity`.")
    MERGED_INTO = strawberry.enum_value(
        "MERGED_INTO",
        description="The id is an alias: its node was merged into `entity` (or took a better key); `mergedInto` is "
        "the survivor's id.",
    )
    NOT_FOUND = strawberry.enum_value("NOT_FOUND", description="A known id form, but the graph holds no such node.")
    UNRECOGNISED = strawberry.enum_value("UNRECOGNISED", description="No id form Weft knows (names are not ids).")


_TYPE_OF_LABEL = {"Paper": SearchType.PAPER, "Researcher": SearchType.RESEARCHER, "Institution": SearchType.INSTITUTION}


@strawberry.type(description="One id given to `resolve`, in input order.")
class ResolvedId:
    input: str = strawberry.field(description="The id as given.")
    kind: IdKind | None = strawberry.field(description="The form it was recognised as; null when unrecognised.")
    type: SearchType | None = strawberry.field(description="The kind of node the id names; null when unrecognised.")
    status: ResolveStatus = strawberry.field(description="Found, an alias of a merged node, not found or unrecognised.")
    merged_into: str | None = strawberry.field(description="The survivor's internal id when the id is an alias.")
    entity: ResolvedEntity | None = strawberry.field(
        description="The node (the survivor for an alias); null when not found or unrecognised."
    )

    @classmethod
    def from_resolution(cls, r: Resolution) -> ResolvedId:
        """From graph/reads/resolve.py's answer for one id."""
        from weft.schema.types.institution import Institution
        from weft.schema.types.paper import Paper
        from weft.schema.types.researcher import Researcher

        entity = None
        if r.node is not None and r.label is not None:
            entity = {"Paper": Paper, "Researcher": Researcher, "Institution": Institution}[r.label].from_record(r.node)
        status = ResolveStatus(r.status)
        return cls(
            input=r.input,
            kind=IdKind(r.kind) if r.kind else None,
            type=_TYPE_OF_LABEL[r.label] if r.label else None,
            status=status,
            merged_into=r.node["id"] if r.node is not None and status is ResolveStatus.MERGED_INTO else None,
            entity=entity,
        )
