"""Cypher for collaboration networks: ego networks, paths, institution networks, whole-graph scores.

Every statement is a named constant with `$params`; graph/nx_bridge.py and graph/network*.py run them.
The graph's version, which the network cache keys on, is in queries/read_meta.py.
"""

from typing import LiteralString

# The ego subgraph of one researcher (internal id): one row per researcher within $depth (1..3) hops
# over COAUTHORED_WITH ties with weight >= $min_weight whose years overlap [$year_from, $year_to],
# with its paper count, its papers in the window (only when $windowed) and its outgoing ties passing
# the same filter. Rows: {centre, id, name, paper_count, papers, ties}; none when the id is unknown.
EGO_SUBGRAPH: LiteralString = """
MATCH (c:Researcher {id: $id})
CALL (c) {
  MATCH (c)-[r:COAUTHORED_WITH]-(n:Researcher)
  WHERE r.weight >= $min_weight
    AND ($year_from IS NULL OR coalesce(r.last_year, $year_from) >= $year_from)
    AND ($year_to IS NULL OR coalesce(r.first_year, $year_to) <= $year_to)
  RETURN collect(DISTINCT n) AS level1
}
CALL (level1) {
  UNWIND CASE WHEN $depth >= 2 THEN level1 ELSE [] END AS x
  MATCH (x)-[r:COAUTHORED_WITH]-(n:Researcher)
  WHERE r.weight >= $min_weight
    AND ($year_from IS NULL OR coalesce(r.last_year, $year_from) >= $year_from)
    AND ($year_to IS NULL OR coalesce(r.first_year, $year_to) <= $year_to)
  RETURN collect(DISTINCT n) AS level2
}
CALL (level2) {
  UNWIND CASE WHEN $depth >= 3 THEN level2 ELSE [] END AS x
  MATCH (x)-[r:COAUTHORED_WITH]-(n:Researcher)
  WHERE r.weight >= $min_weight
    AND ($year_from IS NULL OR coalesce(r.last_year, $year_from) >= $year_from)
    AND ($year_to IS NULL OR coalesce(r.first_year, $year_to) <= $year_to)
  RETURN collect(DISTINCT n) AS level3
}
UNWIND [c] + level1 + level2 + level3 AS n
WITH DISTINCT c, n
RETURN c.id AS centre, n.id AS id, n.name AS name,
  COUNT { (n)-[:AUTHORED]->(:Paper) } AS paper_count,
  CASE WHEN $windowed THEN COLLECT {
    MATCH (n)-[:AUTHORED]->(p:Paper)
    WHERE p.year IS NOT NULL
      AND ($year_from IS NULL OR p.year >= $year_from)
      AND ($year_to IS NULL OR p.year <= $year_to)
    RETURN p {.id, .year}
  } ELSE [] END AS papers,
  [(n)-[r:COAUTHORED_WITH]->(m:Researcher)
    WHERE r.weight >= $min_weight
      AND ($year_from IS NULL OR coalesce(r.last_year, $year_from) >= $year_from)
      AND ($year_to IS NULL OR coalesce(r.first_year, $year_to) <= $year_to)
    | {target: m.id, weight: r.weight, first_year: r.first_year, last_year: r.last_year}] AS ties
"""

# Up to $max_paths shortest co-authorship paths (ties with weight >= $min_weight, at most 6 hops)
# between two researchers (internal ids), every hop with its weight and shared papers.
# One row {source, target, paths}; source/target null when unknown, paths [] when none.
SHORTEST_PATHS: LiteralString = """
OPTIONAL MATCH (s:Researcher {id: $source})
OPTIONAL MATCH (t:Researcher {id: $target})
OPTIONAL CALL (s, t) {
  WITH s, t WHERE s IS NOT NULL AND t IS NOT NULL AND s <> t
  MATCH p = allShortestPaths((s)-[:COAUTHORED_WITH*..6]-(t))
  WHERE all(r IN relationships(p) WHERE r.weight >= $min_weight)
  WITH p LIMIT $max_paths
  WITH p WHERE length(p) <= $max_length
  UNWIND range(0, length(p) - 1) AS i
  WITH p, i, nodes(p)[i] AS x, nodes(p)[i + 1] AS y, relationships(p)[i] AS r
  CALL (x, y) {
    MATCH (x)-[:AUTHORED]->(paper:Paper)<-[:AUTHORED]-(y)
    WITH paper ORDER BY paper.year DESC, paper.id
    RETURN collect(paper {.id, .title, .year}) AS papers
  }
  WITH p, i, {source: x.id, target: y.id, weight: r.weight, papers: papers} AS hop
  ORDER BY i
  WITH p, collect(hop) AS hops
  RETURN collect({nodes: [n IN nodes(p) | n {.id, .name}], hops: hops}) AS paths
}
RETURN s {.id, .name} AS source, t {.id, .name} AS target, coalesce(paths, []) AS paths
"""

# The co-publication network of one institution (internal id): the institution and every
# institution stated on at least $min_weight of the same papers, each with the ids of the papers
# stated with it (through AFFILIATED_WITH researchers' AUTHORED.institution_ids).
# Rows {centre, id, name, country, papers}; none when the id is unknown.
INSTITUTION_SUBGRAPH: LiteralString = """
MATCH (c:Institution {id: $id})
CALL (c) {
  MATCH (c)<-[:AFFILIATED_WITH]-(:Researcher)-[au:AUTHORED]->(p:Paper)
  WHERE c.id IN au.institution_ids
  WITH DISTINCT p
  MATCH (p)<-[other:AUTHORED]-(:Researcher)
  UNWIND other.institution_ids AS other_id
  WITH other_id, count(DISTINCT p) AS shared
  WHERE other_id <> c.id AND shared >= $min_weight
  RETURN collect(other_id) AS neighbour_ids
}
MATCH (x:Institution)
WHERE x.id IN [c.id] + neighbour_ids
CALL (x) {
  MATCH (x)<-[:AFFILIATED_WITH]-(:Researcher)-[au:AUTHORED]->(p:Paper)
  WHERE x.id IN au.institution_ids
  RETURN collect(DISTINCT p.id) AS papers
}
RETURN c.id AS centre, x.id AS id, x.name AS name, x.country AS country, papers
"""

# Every researcher with its outgoing COAUTHORED_WITH ties: {id, ties: [[target id, weight]]}.
ALL_COAUTHOR_TIES: LiteralString = """
MATCH (n:Researcher)
RETURN n.id AS id, [(n)-[r:COAUTHORED_WITH]->(m:Researcher) | [m.id, r.weight]] AS ties
"""

# Stores whole-graph scores on researchers from $rows [{id, page_rank, community}]; returns {written}.
WRITE_RESEARCHER_SCORES: LiteralString = """
UNWIND $rows AS row
MATCH (n:Researcher {id: row.id})
SET n.page_rank = row.page_rank, n.community = row.community
RETURN count(n) AS written
"""

# Reads the stored whole-graph scores: {id, page_rank, community} for every researcher.
RESEARCHER_SCORES: LiteralString = """
MATCH (n:Researcher)
RETURN n.id AS id, n.page_rank AS page_rank, n.community AS community
"""
