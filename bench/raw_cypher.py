"""Hand-written Cypher per benchmark shape: the comparator Weft's serving latency is measured against.

One statement per shape, through the neo4j Python driver, returning exactly the fields the GraphQL
query of bench/serve_queries.py returns (camelCase keys, same order of lists), so that
`python -m bench.serve check` can show both give the same values. What Cypher cannot do without
APOC (a slug's accent folding, a cursor's base64) is done in `shape` right after the read, and is
part of the timed work.

The ids are the forms a hand-written endpoint would know: OpenAlex ids for researchers and papers,
ROR ids for institutions, internal ids for networks.
"""

from __future__ import annotations

import base64
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, LiteralString

import neo4j

from weft.queries.network import EGO_NETWORK

# Papers are ordered as Weft orders them (queries/read_papers.py), by the sort keys stored at load
# (`sort_cited`, `sort_date`) that its range indexes serve.

PROFILE: LiteralString = """
MATCH (r:Researcher {openalex_id: $id})
CALL (r) {
  MATCH (r)-[:AUTHORED]->(p:Paper)
  WITH coalesce(p.cited_by_count, 0) AS c ORDER BY c DESC
  WITH collect(c) AS counts
  RETURN size(counts) AS paperCount, reduce(t = 0, c IN counts | t + c) AS citationCount,
         size([k IN range(0, size(counts) - 1) WHERE counts[k] >= k + 1]) AS hIndex,
         size([c IN counts WHERE c >= 10]) AS i10Index
}
CALL (r) {
  OPTIONAL MATCH (r)-[a:AUTHORED]->(p:Paper) WHERE NOT coalesce(p.is_authors_truncated, false)
  RETURN {first: count(CASE WHEN a.position = 'first' THEN 1 END),
          middle: count(CASE WHEN a.position = 'middle' THEN 1 END),
          last: count(CASE WHEN a.position = 'last' THEN 1 END),
          matchedPapers: count(DISTINCT p)} AS authorPositions
}
CALL (r) {
  MATCH (r)-[:AUTHORED]->(p:Paper)-[:IN_CATEGORY]->(c:Category {scheme: 'field'})
  WITH c, count(DISTINCT p) AS n ORDER BY n DESC, c.name, c.id LIMIT 3
  RETURN collect({category: {name: c.name}, count: n}) AS fields
}
CALL (r) {
  MATCH (r)-[:AUTHORED]->(p:Paper)
  WITH p ORDER BY p.sort_cited DESC, p.sort_date DESC, p.id LIMIT 1
  RETURN collect({title: p.title, citedByCount: p.cited_by_count}) AS top
}
CALL (r) {
  CALL (r) {
    MATCH (r)-[a:AUTHORED]->(p:Paper)
    UNWIND coalesce(a.institution_ids, []) AS iid
    WITH iid, count(DISTINCT p) AS n
    MATCH (r)-[af:AFFILIATED_WITH]->(i:Institution {id: iid})
    RETURN af, i, n
    UNION
    MATCH (r)-[af:AFFILIATED_WITH]->(i:Institution)
    RETURN af, i, 0 AS n
  }
  WITH af, i, max(n) AS n
  ORDER BY coalesce(af.last_year, 0) DESC, n DESC, i.name
  RETURN collect({institution: {name: i.name, ror: i.ror}, firstYear: af.first_year, lastYear: af.last_year,
                  paperCount: n}) AS institutions
}
CALL (r) {
  MATCH (r)-[:AUTHORED]->(p:Paper)
  WITH p ORDER BY p.sort_date DESC, p.id
  WITH collect(p) AS found
  RETURN size(found) AS paperTotal,
         [p IN found[0..5] | {node: {title: p.title, year: p.year, citedByCount: p.cited_by_count}}] AS paperEdges
}
CALL (r) {
  MATCH (r)-[c:COAUTHORED_WITH]-(:Researcher) WHERE coalesce(c.weight, 0) >= 1
  RETURN count(*) AS coauthorTotal
}
CALL (r) {
  MATCH (r)-[c:COAUTHORED_WITH]-(o:Researcher) WHERE coalesce(c.weight, 0) >= 1
  WITH c, o ORDER BY c.weight DESC, o.name, o.id LIMIT 5
  RETURN collect({node: {weight: c.weight,
                         researcher: {name: o.name, paperCount: COUNT { (o)-[:AUTHORED]->(:Paper) }}}}) AS coauthorEdges
}
RETURN r.id AS id, r.name AS name, paperCount, citationCount, hIndex, i10Index,
  [x IN [['openalex', r.works_count_openalex], ['s2', r.works_count_s2], ['arxiv', r.works_count_arxiv]]
   WHERE x[1] IS NOT NULL | {source: x[0], value: toInteger(x[1])}] AS worksCount,
  authorPositions, fields, top[0] AS mostCitedPaper, institutions,
  [x IN [['openalex', r.openalex_id, 'https://openalex.org/'],
         ['s2', r.s2_id, 'https://www.semanticscholar.org/author/'],
         ['orcid', r.orcid, 'https://orcid.org/']]
   WHERE x[1] IS NOT NULL AND toString(x[1]) <> '' | {source: x[0], id: toString(x[1]), url: x[2] + toString(x[1])}]
   AS identities,
  paperTotal, paperEdges, coauthorTotal, coauthorEdges
"""

PAPER: LiteralString = """
MATCH (p:Paper {openalex_id: $id})
CALL (p) {
  MATCH (p)<-[a:AUTHORED]-(r:Researcher)
  WITH a, r ORDER BY coalesce(a.rank, 999999), r.id
  RETURN collect({position: a.position, rank: a.rank, researcher: {name: r.name},
    affiliations: COLLECT {
      WITH coalesce(a.institution_ids, []) AS ids
      UNWIND range(0, size(ids) - 1) AS k
      MATCH (i:Institution {id: ids[k]})
      WITH k, i ORDER BY k
      RETURN {name: i.name, country: i.country}
    }}) AS authors
}
CALL (p) {
  MATCH (p)-[e:IN_CATEGORY]->(c:Category {scheme: 'topic'})
  WITH e, c ORDER BY coalesce(e.primary, false) DESC, coalesce(e.score, 0.0) DESC, c.key
  RETURN collect({primary: coalesce(e.primary, false), category: {name: c.name}}) AS categories
}
CALL (p) {
  MATCH (p)<-[:CITES]-(q:Paper)
  WITH q ORDER BY coalesce(q.cited_by_count, 0) DESC, q.id
  WITH collect(q) AS found
  RETURN {totalCount: size(found), edges: [q IN found[0..5] | {node: {title: q.title, year: q.year}}]} AS citedBy
}
CALL (p) {
  MATCH (p)-[:CITES]->(q:Paper)
  WITH q ORDER BY coalesce(q.cited_by_count, 0) DESC, q.id
  WITH collect(q) AS found
  RETURN {totalCount: size(found), edges: [q IN found[0..5] | {node: {title: q.title}}]} AS references
}
RETURN p.id AS id, p.title AS title, p.year AS year, p.publication_date AS publicationDate, p.doi AS doi,
  p.cited_by_count AS citedByCount,
  [x IN [['openalex', p.cited_by_count_openalex], ['s2', p.cited_by_count_s2], ['arxiv', p.cited_by_count_arxiv]]
   WHERE x[1] IS NOT NULL | {source: x[0], value: toInteger(x[1])}] AS citedByCountSources,
  p.abstract AS abstract, authors, categories, citedBy, references
"""

ROSTER: LiteralString = """
MATCH (i:Institution {ror: $id})
CALL (i) {
  OPTIONAL MATCH (i)-[:PART_OF]->(parent:Institution)
  WITH parent ORDER BY parent.name LIMIT 1
  RETURN CASE WHEN parent IS NULL THEN null ELSE {name: parent.name} END AS parent
}
CALL (i) {
  MATCH (r:Researcher)-[af:AFFILIATED_WITH]->(i)
  WITH r, min(af.first_year) AS firstYear, max(af.last_year) AS lastYear
  WITH r, firstYear, lastYear,
       COUNT { (r)-[a:AUTHORED]->(:Paper) WHERE i.id IN coalesce(a.institution_ids, []) } AS paperCount
  ORDER BY paperCount DESC, r.name, r.id
  WITH collect({node: {paperCount: paperCount, firstYear: firstYear, lastYear: lastYear,
                       researcher: {name: r.name}}}) AS found
  RETURN {totalCount: size(found), edges: found[0..10]} AS roster
}
CALL (i) {
  MATCH (i)<-[:STATES_AFFILIATION]-(p:Paper)
  WITH p ORDER BY p.sort_cited DESC, p.sort_date DESC, p.id LIMIT 3
  RETURN collect({title: p.title, citedByCount: p.cited_by_count}) AS mostCited
}
CALL (i) {
  MATCH (i)<-[:STATES_AFFILIATION]-(:Paper)-[:STATES_AFFILIATION]->(j:Institution)
  WITH j, count(*) AS weight ORDER BY weight DESC, j.name, j.id LIMIT 5
  RETURN {edges: collect({node: {weight: weight, institution: {name: j.name}}})} AS collaborators
}
RETURN i.name AS name, i.country AS country,
  [x IN [['ror', i.ror, 'https://ror.org/'], ['openalex', i.openalex_id, 'https://openalex.org/']]
   WHERE x[1] IS NOT NULL AND toString(x[1]) <> '' | {source: x[0], id: toString(x[1]), url: x[2] + toString(x[1])}]
   AS ids,
  parent, roster, mostCited, collaborators
"""

MOST_CITED: LiteralString = """
MATCH (p:Paper) WHERE p.sort_cited >= 0 AND p.sort_date IS NOT NULL
WITH p ORDER BY p.sort_cited DESC, p.sort_date DESC, p.id LIMIT 20
RETURN collect({node: {id: p.id, title: p.title, year: p.year, citedByCount: p.cited_by_count}}) AS edges
"""

# Depth 2, minWeight 1, no year window, limit $limit, rankBy WEIGHT: Weft's own bounded ego-network
# statement (queries/network.py), the best Cypher there is for the shape; `_network` lists its nodes by
# (distance, id) and its ties as maps, as the GraphQL answer does. The ratio then isolates what Weft adds.
NETWORK: LiteralString = EGO_NETWORK
NETWORK_PARAMS = {"depth": 2, "min_weight": 1, "rank_by": "WEIGHT", "year_from": None, "year_to": None}


def _network(row: dict[str, Any]) -> dict[str, Any]:
    nodes = sorted(row["nodes"], key=lambda n: (n["distance"], n["id"]))
    return {
        "researcherNetwork": {
            "centre": row["centre"],
            "truncated": row["truncated"],
            "totalNodeCount": row["total"],
            "nodes": [
                {"id": n["id"], "name": n["name"], "paperCount": n["paper_count"], "distance": n["distance"]}
                for n in nodes
            ],
            "edges": [
                {"source": min(a, b), "target": max(a, b), "weight": w, "firstYear": f, "lastYear": t}
                for a, b, w, f, t in row["edges"]
            ],
        }
    }


PAIR_A: LiteralString = """
MATCH (r:Researcher {openalex_id: $id})
CALL (r) {
  MATCH (r)-[:AUTHORED]->(p:Paper)
  WITH p ORDER BY p.sort_date DESC, p.id
  WITH collect(p) AS found
  RETURN {totalCount: size(found),
          edges: [p IN found[0..24] | {node: {title: p.title, year: p.year, citedByCount: p.cited_by_count}}]} AS papers
}
CALL (r) {
  MATCH (r)-[c:COAUTHORED_WITH]-(o:Researcher) WHERE coalesce(c.weight, 0) >= 1
  WITH c, o ORDER BY c.weight DESC, o.name, o.id
  WITH collect({node: {weight: c.weight, researcher: {name: o.name}}}) AS found
  RETURN {totalCount: size(found), edges: found[0..10]} AS coauthors
}
RETURN r.id AS id, r.name AS name, papers, coauthors
"""

PAIR_C: LiteralString = """
MATCH (i:Institution {ror: $id})
CALL (i) {
  MATCH (r:Researcher)-[af:AFFILIATED_WITH]->(i)
  WITH r, min(af.first_year) AS firstYear, max(af.last_year) AS lastYear
  WITH r, firstYear, lastYear,
       COUNT { (r)-[a:AUTHORED]->(:Paper) WHERE i.id IN coalesce(a.institution_ids, []) } AS paperCount
  ORDER BY paperCount DESC, r.name, r.id
  WITH collect({node: {firstYear: firstYear, lastYear: lastYear, researcher: {name: r.name}}}) AS found
  RETURN {totalCount: size(found), edges: found[0..10]} AS roster
}
RETURN i.id AS id, i.name AS name, i.country AS country, roster
"""


def slugify(text: str | None, max_words: int = 8) -> str:
    """The slug rule of graph/identity/lookup.py (ASCII-folded, lowercase, hyphen-joined first words)."""
    folded = unicodedata.normalize("NFKD", re.sub(r"[\u2010-\u2015\u2212]", " ", text or ""))
    words = re.findall(r"[a-z0-9]+", folded.encode("ascii", "ignore").decode("ascii").lower())
    return "-".join(words[:max_words])


def cursor(offset: int) -> str:
    """The opaque position cursor Weft gives the item at `offset` of a researcher's papers (per-entity lists
    are short and paged by position; only the whole-graph lists page by sort key)."""
    return base64.urlsafe_b64encode(f"weft:v1:{offset}".encode()).decode("ascii")


def _slugged(node_id: str, text: str | None) -> str:
    words = slugify(text)
    return f"{node_id}-{words}" if words else node_id


def _profile(row: dict[str, Any]) -> dict[str, Any]:
    paper_edges = row.pop("paperEdges")
    total = row.pop("paperTotal")
    out = {"id": row["id"], "name": row["name"], "canonicalUrl": f"/researchers/{_slugged(row['id'], row['name'])}"}
    out.update(row)
    out["papers"] = {
        "totalCount": total,
        "pageInfo": {
            "hasNextPage": len(paper_edges) < total,
            "endCursor": cursor(len(paper_edges) - 1) if paper_edges else None,
        },
        "edges": paper_edges,
    }
    out["coauthors"] = {"totalCount": out.pop("coauthorTotal"), "edges": out.pop("coauthorEdges")}
    return {"researcher": out}


def _paper(row: dict[str, Any]) -> dict[str, Any]:
    out = {"id": row["id"], "slug": _slugged(row["id"], row["title"])}
    out.update(row)
    return {"paper": out}


@dataclass(frozen=True)
class RawShape:
    """One hand-written statement and what turns its single row into the GraphQL `data` object."""

    name: str
    cypher: LiteralString
    shape: Callable[[dict[str, Any]], dict[str, Any]]
    empty: dict[str, Any]  # `data` when the statement returns no row (unknown id)

    def run(self, driver: neo4j.Driver, database: str, params: dict[str, Any]) -> dict[str, Any]:
        """The row as a lean client reads it: its values by key (`Record.data()` walks every nested value
        again, ~127 ms more on a 7,400-tie network; issue 53)."""
        records, _, keys = driver.execute_query(
            self.cypher, params, database_=database, routing_=neo4j.RoutingControl.READ
        )
        return self.shape(dict(zip(keys, records[0].values(), strict=True))) if records else self.empty


RAW: dict[str, RawShape] = {
    "profile": RawShape("profile", PROFILE, _profile, {"researcher": None}),
    "paper": RawShape("paper", PAPER, _paper, {"paper": None}),
    "roster": RawShape("roster", ROSTER, lambda row: {"institution": row}, {"institution": None}),
    "mostCited": RawShape("mostCited", MOST_CITED, lambda row: {"mostCited": row}, {"mostCited": {"edges": []}}),
    "network": RawShape("network", NETWORK, _network, {"researcherNetwork": None}),
    "A": RawShape("A", PAIR_A, lambda row: {"researcher": row}, {"researcher": None}),
    "C": RawShape("C", PAIR_C, lambda row: {"institution": row}, {"institution": None}),
}
