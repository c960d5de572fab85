"""Similar papers and similar researchers, by their sentence vectors (graph/embeddings.py)."""

from __future__ import annotations

from dataclasses import dataclass

from weft.graph.reads.page import Row
from weft.graph.reads.reader import GraphReader
from weft.queries import semantic as q

EXTRA_NEIGHBOURS = 8
"""Asked of the vector index beyond `limit`: the paper itself and duplicate vectors are dropped from them."""
RESEARCHER_CANDIDATE_PAPERS = 200
"""Papers nearest a researcher's centroid whose authors are the candidates for `similarResearchers`."""


@dataclass(frozen=True)
class Similar:
    """Neighbours of a paper or researcher; `has_vector` False when it has none to compare (no text)."""

    has_vector: bool
    rows: list[Row]


async def similar_papers(reader: GraphReader, paper_id: str, limit: int) -> Similar:
    """Up to `limit` papers nearest to `paper_id` as `{paper, score}` (cosine), best first."""
    params = {"id": paper_id, "k": limit + EXTRA_NEIGHBOURS, "limit": limit}
    row = await reader.one(q.SIMILAR_PAPERS, params, "finding similar papers")
    if row is None:
        return Similar(False, [])
    return Similar(bool(row["has_vector"]), row["similar"] or [])


async def similar_researchers(reader: GraphReader, researcher_id: str, limit: int, exclude_coauthors: bool) -> Similar:
    """Up to `limit` researchers as `{researcher, score, shared}` whose papers' centroid is nearest to
    `researcher_id`'s (cosine), best first; co-authors left out when `exclude_coauthors`."""
    params = {
        "id": researcher_id,
        "k": max(RESEARCHER_CANDIDATE_PAPERS, 4 * limit),
        "limit": limit,
        "exclude_coauthors": exclude_coauthors,
    }
    row = await reader.one(q.SIMILAR_RESEARCHERS, params, "finding similar researchers")
    if row is None:
        return Similar(False, [])
    return Similar(row["papers"] > 0, row["similar"] or [])


async def vector_model(reader: GraphReader, paper_id: str) -> str | None:
    """The model that made the paper's vector; None when it has none."""
    row = await reader.one(q.PAPER_VECTOR_MODEL, {"id": paper_id}, "reading a paper's vector")
    return row["model"] if row else None
