"""Reference matching (`matchReferences`): the candidate papers of many free-text references in one statement."""

from typing import LiteralString

# For each of $texts ([{at, query}], `query` an escaped Lucene query on the title field of the paper_text
# full-text index), the best $candidates papers with their first three authors' names: at, candidates
# ([{node, score, authors}]).
REFERENCE_CANDIDATES: LiteralString = """
UNWIND $texts AS t
CALL (t) {
  CALL db.index.fulltext.queryNodes('paper_text', t.query, {limit: $candidates}) YIELD node, score
  CALL (node) {
    OPTIONAL MATCH (node)<-[a:AUTHORED]-(r:Researcher)
    WITH r, a ORDER BY coalesce(a.rank, 999999), r.id
    RETURN collect(r.name)[0..3] AS authors
  }
  RETURN collect({
    node: node {.id, .title, .year, .doi, .arxiv_id, .openalex_id, .cited_by_count, .venue},
    score: score, authors: authors
  }) AS candidates
}
RETURN t.at AS at, candidates
"""

# The first three authors' names of papers by internal id (the papers a DOI or arXiv id found): id, authors.
FIRST_AUTHORS: LiteralString = """
UNWIND $ids AS pid
MATCH (p:Paper {id: pid})
CALL (p) {
  OPTIONAL MATCH (p)<-[a:AUTHORED]-(r:Researcher)
  WITH r, a ORDER BY coalesce(a.rank, 999999), r.id
  RETURN collect(r.name)[0..3] AS authors
}
RETURN pid AS id, authors
"""
