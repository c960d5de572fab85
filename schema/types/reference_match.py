"""The ReferenceMatch type: one free-text reference, the paper it cites (or none), the confidence and the evidence."""

from __future__ import annotations

import strawberry

from weft.graph.reads.references import Evidence
from weft.graph.reads.references import ReferenceMatch as Found
from weft.schema.types.refs import PaperRef


@strawberry.type(description="Why a reference was matched to a paper.")
class ReferenceEvidence:
    doi: str | None = strawberry.field(description="The DOI written in the reference, if any.")
    arxiv_id: str | None = strawberry.field(description="The arXiv id written in the reference, if any.")
    id_matched: bool = strawberry.field(description="True when that DOI or arXiv id names the paper.")
    title_similarity: float = strawberry.field(
        description="How well the paper's title appears in the reference, 0..1 (its first 60% counts, at most "
        "0.95, when the reference cuts the title short)."
    )
    year: int | None = strawberry.field(description="The paper's year.")
    year_matches: bool = strawberry.field(description="True when the reference states that year.")
    first_author: str | None = strawberry.field(description="The surname of the paper's first author.")
    first_author_matches: bool = strawberry.field(description="True when the reference names that surname.")
    venue_matches: bool = strawberry.field(
        description="True when the reference names the paper's venue (outside its title)."
    )

    @classmethod
    def of(cls, e: Evidence) -> ReferenceEvidence:
        return cls(
            doi=e.doi,
            arxiv_id=e.arxiv_id,
            id_matched=e.id_matched,
            title_similarity=e.title_similarity,
            year=e.year,
            year_matches=e.year_matches,
            first_author=e.first_author,
            first_author_matches=e.first_author_matches,
            venue_matches=e.venue_matches,
        )


@strawberry.type(description="One reference given to `matchReferences`, in input order.")
class ReferenceMatch:
    text: str = strawberry.field(description="The reference as given.")
    paper: PaperRef | None = strawberry.field(
        description="The paper it cites; null when no candidate reaches the threshold (it abstains, not guesses)."
    )
    confidence: float = strawberry.field(description="0..1: how sure the best candidate is the paper cited.")
    evidence: ReferenceEvidence | None = strawberry.field(
        description="The best candidate's evidence (also when it abstained); null when there was no candidate."
    )

    @classmethod
    def from_match(cls, m: Found) -> ReferenceMatch:
        from weft.schema.types.paper import Paper

        return cls(
            text=m.text,
            paper=Paper.from_record(m.paper) if m.paper is not None else None,
            confidence=m.confidence,
            evidence=ReferenceEvidence.of(m.evidence) if m.evidence is not None else None,
        )
