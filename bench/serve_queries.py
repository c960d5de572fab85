"""The GraphQL queries the serving benchmark (bench/serve.py, issue 9) sends, and the peer pairs.

Shapes (issue 9): the README's ResearcherProfile, PaperPage and InstitutionRoster with the id made a
variable, `mostCited(first: 20)` and `researcherNetwork(depth: 2, limit: 200)` (cache miss and hit).
Pairs: the same data asked of Weft and of the `@neo4j/graphql` peer: A, C and D come from
`../shared/bench/peer-neo4j-graphql/queries.json` (read at run time); P (a paper with its authors)
and N (a depth-2 co-author tree, approximate: see NETWORK_NOTE) are added here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

PEER_QUERIES = (
    Path(__file__).resolve().parent.parent.parent / "shared" / "bench" / "peer-neo4j-graphql" / "queries.json"
)

PROFILE = """query ResearcherProfile($id: String!) {
  researcher(id: $id) {
    id
    name
    canonicalUrl
    paperCount
    citationCount
    hIndex
    i10Index
    worksCount { source value }
    authorPositions { first middle last matchedPapers }
    fields(scheme: "field", first: 3) { category { name } count }
    mostCitedPaper { title citedByCount }
    institutions { institution { name ror } firstYear lastYear paperCount }
    identities { source id url }
    papers(first: 5, sort: NEWEST) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { title year citedByCount } }
    }
    coauthors(first: 5) {
      totalCount
      edges { node { weight researcher { name paperCount } } }
    }
  }
}"""

PAPER = """query PaperPage($id: String!) {
  paper(id: $id) {
    id
    slug
    title
    year
    publicationDate
    doi
    citedByCount
    citedByCountSources { source value }
    abstract
    authors {
      position
      rank
      researcher { name }
      affiliations { name country }
    }
    categories(scheme: "topic") { primary category { name } }
    citedBy(first: 5) { totalCount edges { node { title year } } }
    references(first: 5) { totalCount edges { node { title } } }
  }
}"""

ROSTER = """query InstitutionRoster($id: String!) {
  institution(id: $id) {
    name
    country
    ids { source id url }
    parent { name }
    roster(first: 10) {
      totalCount
      edges { node { paperCount firstYear lastYear researcher { name } } }
    }
    mostCited(first: 3) { title citedByCount }
    collaborators(first: 5) { edges { node { weight institution { name } } } }
  }
}"""

# The same text as pair D's Weft query in queries.json.
MOST_CITED = "query { mostCited(first: 20) { edges { node { id title year citedByCount } } } }"

NETWORK = """query Network($id: String!) {
  researcherNetwork(id: $id, depth: 2, limit: 200) {
    centre truncated totalNodeCount
    nodes { id name paperCount distance }
    edges { source target weight firstYear lastYear }
  }
}"""

PAPER_PAIR_WEFT = """query($id: String!) { paper(id: $id) { id title year publicationDate doi citedByCount
  authors { position rank researcher { name } } } }"""
PAPER_PAIR_PEER = """query($id: String!) { papers(where: {openalex_id: {eq: $id}}) {
  id title year publication_date doi cited_by_count
  authorsConnection(sort: [{edge: {rank: ASC}}]) { edges { properties { position rank } node { name } } } } }"""

NETWORK_PAIR_WEFT = """query($id: String!) { researcherNetwork(id: $id, depth: 2, limit: 1000) {
  nodes { id name } edges { source target weight } } }"""
NETWORK_PAIR_PEER = """query($id: String!) { researchers(where: {id: {eq: $id}}) { id name
  coauthorsConnection { edges { properties { weight } node { id name
    coauthorsConnection { edges { properties { weight } node { id name } } } } } } } }"""
NETWORK_NOTE = (
    "N is approximate: the peer has no network field, so it returns the depth-2 tree of ties (each "
    "co-author's co-authors, repeated where shared; no ties among the second ring, no paper counts, no "
    "ranking); Weft returns the deduplicated network (limit 1000 so nothing is cut)."
)


@dataclass(frozen=True)
class Pair:
    """One request asked of Weft and (when `peer` is set) of the peer; `ids` feed `$id` in turn."""

    name: str
    weft: str
    peer: str | None
    ids: tuple[str, ...]  # empty: the query takes no variables
    peer_ids: tuple[str, ...] = ()  # when the peer needs other ids than Weft (same order)

    def variables(self, k: int, for_peer: bool = False) -> dict[str, str]:
        if not self.ids:
            return {}
        ids = self.peer_ids if for_peer and self.peer_ids else self.ids
        return {"id": ids[k % len(ids)]}


def shared_pairs(path: Path = PEER_QUERIES) -> dict[str, Pair]:
    """Pairs A, C, D as queries.json states them (ids: researchers for A, institutions for C)."""
    spec = json.loads(path.read_text(encoding="utf-8"))
    pairs = spec["pairs"]
    ids = {"A": tuple(spec["researchers"]), "C": tuple(spec["institutions"]), "D": ()}
    return {name: Pair(name, pairs[name]["weft"], pairs[name]["peer"], ids[name]) for name in ("A", "C", "D")}
