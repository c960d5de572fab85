"""Cypher for collaboration networks: ego networks, paths, institution networks, whole-graph scores.

Every statement is a named constant with `$params`; graph/nx_bridge.py and graph/network*.py run them.
The graph's version, which the network cache keys on, is in queries/read_meta.py.
"""

from typing import LiteralString

# The co-authors `n` of a researcher `x` bound by the caller over stored COAUTHORED_WITH ties of at
# least $min_weight, with the tie's weight `w`.
_TIES_STORED: LiteralString = """
  CALL (x) {
    MATCH (x)-[r:COAUTHORED_WITH]-(n:Researcher)
    WHERE n <> x AND r.weight >= $min_weight
    RETURN n, r.weight AS w
  }
"""

# The same with a year window: `w` is the number of papers both wrote in [$year_from, $year_to]
# (either bound may be null; papers without a year never count), at least $min_weight.
_TIES_WINDOWED: LiteralString = """
  CALL (x) {
    MATCH (x)-[:AUTHORED]->(p:Paper)<-[:AUTHORED]-(n:Researcher)
    WHERE n <> x AND p.year IS NOT NULL
      AND ($year_from IS NULL OR p.year >= $year_from) AND ($year_to IS NULL OR p.year <= $year_to)
    WITH n, count(DISTINCT p) AS w
    WHERE w >= $min_weight
    RETURN n, w
  }
"""

# A researcher `n`'s paper count: all its papers (AUTHORED only ever ends at a Paper, so the degree
# store answers), or with a year window those in it.
_PAPERS_STORED: LiteralString = "COUNT { (n)-[:AUTHORED]->() }"
_PAPERS_WINDOWED: LiteralString = """COUNT {
    MATCH (n)-[:AUTHORED]->(p:Paper)
    WHERE p.year IS NOT NULL
      AND ($year_from IS NULL OR p.year >= $year_from) AND ($year_to IS NULL OR p.year <= $year_to)
  }"""

# The ties among the kept researchers from `a` (one of them, bound by the caller, with `ids` the kept
# researchers' ids) to `b`, each pair once: stored ties (kept from the smaller id), or recounted in the
# window. A stored tie is found the cheaper way for `a`: through its outgoing ties, unless it has more
# than five per kept researcher (a seek costs about as much as reading five ties: bench/RESULTS.md), then
# by looking up its pair with each kept researcher of a larger id (the `coauthored_pair` index,
# graph/MODEL.md "Pair edges"), so a hub among the kept costs at most $limit seeks, not its thousands of
# ties. The lookup is hinted as a seek: on a store whose statistics predate its edges the planner scanned
# the whole index per lookup, even under a plain `USING INDEX`.
_KEPT_TIES_STORED: LiteralString = """
  CALL (a, kept, ids) {
    WITH a, kept, ids, COUNT { (a)-[:COAUTHORED_WITH]->() } <= 5 * size(kept) AS expand
    CALL (a, kept, ids, expand) {
      WITH a, kept WHERE expand
      MATCH (a)-[r:COAUTHORED_WITH]->(b:Researcher)
      WHERE b IN kept
      RETURN b, r
    UNION ALL
      WITH a, ids WHERE NOT expand
      WITH a.id AS aid, ids
      UNWIND [x IN ids WHERE x > aid] AS bid
      MATCH ()-[r:COAUTHORED_WITH {pair: aid + ' ' + bid}]->(b)
      USING INDEX SEEK r:COAUTHORED_WITH(pair)
      RETURN b, r
    }
    WITH b, r WHERE r.weight >= $min_weight
    RETURN b, r.weight AS weight, r.first_year AS first_year, r.last_year AS last_year
  }
"""
_KEPT_TIES_WINDOWED: LiteralString = """
  CALL (a, kept) {
    MATCH (a)-[:AUTHORED]->(p:Paper)<-[:AUTHORED]-(b:Researcher)
    WHERE a.id < b.id AND b IN kept AND p.year IS NOT NULL
      AND ($year_from IS NULL OR p.year >= $year_from) AND ($year_to IS NULL OR p.year <= $year_to)
    WITH b, count(DISTINCT p) AS weight, min(p.year) AS first_year, max(p.year) AS last_year
    WHERE weight >= $min_weight
    RETURN b, weight, first_year, last_year
  }
"""


def _ego_network(ties: LiteralString, papers: LiteralString, kept_ties: LiteralString) -> LiteralString:
    """EGO_NETWORK's text with one kind of tie (stored or windowed) written in."""
    return (
        """
MATCH (c:Researcher {id: $id})
CALL (c) {
  WITH c AS x
"""
        + ties
        + """
  WITH n, max(w) AS s
  RETURN collect({n: n, s: s}) AS ring1
}
WITH c, ring1, [row IN ring1 | row.n] AS r1
CALL (c, r1) {
  UNWIND CASE WHEN $depth >= 2 AND 1 + size(r1) < $limit THEN r1 ELSE [] END AS x
"""
        + ties
        + """
  WITH * WHERE n <> c AND NOT n IN r1
  WITH n, sum(w) AS s
  RETURN collect({n: n, s: s}) AS ring2
}
WITH c, ring1, r1, ring2, [row IN ring2 | row.n] AS r2
CALL (c, r1, r2) {
  UNWIND CASE WHEN $depth >= 3 AND 1 + size(r1) + size(r2) < $limit THEN r2 ELSE [] END AS x
"""
        + ties
        + """
  WITH * WHERE n <> c AND NOT n IN r1 AND NOT n IN r2
  WITH n, sum(w) AS s
  RETURN collect({n: n, s: s}) AS ring3
}
WITH c, ring1, r1, ring2, r2, ring3, 1 + size(r1) + size(r2) + size(ring3) AS total,
  CASE WHEN $depth >= 3 AND 1 + size(r1) + size(r2) < $limit THEN 3
       WHEN $depth >= 2 AND 1 + size(r1) < $limit THEN 2 ELSE 1 END AS reached
CALL (c, r1, r2, reached, total) {
  UNWIND CASE WHEN reached < $depth AND total = $limit THEN CASE reached WHEN 1 THEN r1 ELSE r2 END
              ELSE [] END AS x
"""
        + ties
        + """
  WITH * WHERE n <> c AND NOT n IN r1 AND NOT n IN r2
  RETURN count(n) > 0 AS more
}
WITH c, total, CASE WHEN reached < $depth AND (total > $limit OR more) THEN reached ELSE $depth END AS explored_depth,
  [{n: c, d: 0, s: 0}] + [row IN ring1 | {n: row.n, d: 1, s: row.s}] + [row IN ring2 | {n: row.n, d: 2, s: row.s}]
    + [row IN ring3 | {n: row.n, d: 3, s: row.s}] AS found
UNWIND found AS row
// Grouping (one row per researcher) leaves the ring lists behind: the rows the sort keeps stay small.
WITH c, total, explored_depth, row.n AS n, row.d AS d, max(row.s) AS s
WITH c, total, explored_depth, n, d, CASE WHEN total <= $limit THEN 0 WHEN $rank_by = 'PAPERS' THEN """
        + papers
        + """
  WHEN $rank_by = 'CENTRALITY' THEN COUNT { (n)-[:COAUTHORED_WITH]-() } ELSE s END AS score
ORDER BY d, score DESC, n.id
LIMIT $limit
WITH c, total, explored_depth, collect(n) AS kept, collect({id: n.id, name: n.name, distance: d, paper_count: """
        + papers
        + """}) AS nodes
CALL (kept) {
  WITH kept, [n IN kept | n.id] AS ids
  UNWIND kept AS a
"""
        + kept_ties
        + """
  RETURN collect([a.id, b.id, weight, first_year, last_year]) AS edges
}
RETURN c.id AS centre, total, explored_depth, total > $limit OR explored_depth < $depth AS truncated, nodes, edges
"""
    )


# The bounded ego network of one researcher (internal id), ranked and cut to $limit in the database.
# Ring k (k <= $depth) holds the researchers k ties from the centre; it is read only while the nearer
# rings hold fewer than $limit researchers (farther ones could not be kept), so at most $limit - 1
# researchers' ties are ever expanded. The kept researchers are the first $limit by (ring, score
# descending, id), score by $rank_by: WEIGHT the summed weight of the ties to the ring before (to the
# centre for ring 1), PAPERS the paper count, CENTRALITY the number of co-authors in the whole graph
# (scores are computed only when something is cut); then only the ties among the kept ones are read.
# One row {centre, total, explored_depth, truncated, nodes: [{id, name, paper_count, distance}],
# edges: [[source, target, weight, first_year, last_year]] (lists decode faster than maps)}; none
# when the id is unknown. `total` counts the researchers within `explored_depth` rings: $depth, or
# the ring after which a nearer ring already left someone out (rings 0..k hold more than $limit, or
# exactly $limit with more beyond). EGO_NETWORK reads stored ties; EGO_NETWORK_WINDOWED recounts each
# tie and paper count in [$year_from, $year_to] (two statements: each plans in half the time).
EGO_NETWORK: LiteralString = _ego_network(_TIES_STORED, _PAPERS_STORED, _KEPT_TIES_STORED)
EGO_NETWORK_WINDOWED: LiteralString = _ego_network(_TIES_WINDOWED, _PAPERS_WINDOWED, _KEPT_TIES_WINDOWED)

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

# The co-publication network of one institution (internal id), cut to $limit in the database: the
# institutions stated on at least $min_weight of the centre's papers (STATES_AFFILIATION) are ranked by
# those shared papers (then id) and only the centre and the first $limit - 1 are read further, each with
# the ids of the papers stating it.
# Rows {centre, partners (how many passed $min_weight), id, name, country, papers}, the centre first;
# none when the id is unknown.
INSTITUTION_NETWORK: LiteralString = """
MATCH (c:Institution {id: $id})
CALL (c) {
  MATCH (c)<-[:STATES_AFFILIATION]-(p:Paper)-[:STATES_AFFILIATION]->(x:Institution)
  WHERE x <> c
  WITH x, count(p) AS shared
  WHERE shared >= $min_weight
  WITH x, shared ORDER BY shared DESC, x.id
  RETURN collect(x) AS partners
}
UNWIND [c] + partners[0..$limit - 1] AS x
CALL (x) {
  MATCH (x)<-[:STATES_AFFILIATION]-(p:Paper)
  RETURN collect(p.id) AS papers
}
RETURN c.id AS centre, size(partners) AS partners, x.id AS id, x.name AS name, x.country AS country, papers
"""

# Every researcher with its outgoing COAUTHORED_WITH ties: {id, ties: [[target id, weight]]}.
ALL_COAUTHOR_TIES: LiteralString = """
MATCH (n:Researcher)
RETURN n.id AS id, [(n)-[r:COAUTHORED_WITH]->(m:Researcher) | [m.id, r.weight]] AS ties
"""

# Stores whole-graph scores on researchers from $rows [{id, page_rank, community, component,
# degree_centrality, betweenness}]; returns {written}.
WRITE_RESEARCHER_SCORES: LiteralString = """
UNWIND $rows AS row
MATCH (n:Researcher {id: row.id})
SET n.page_rank = row.page_rank, n.community = row.community, n.component = row.component,
    n.degree_centrality = row.degree_centrality, n.betweenness = row.betweenness
RETURN count(n) AS written
"""

# The number of stored co-authorship ties (`weft analytics --engine auto` picks by it).
COUNT_COAUTHOR_TIES: LiteralString = """
MATCH ()-[r:COAUTHORED_WITH]->()
RETURN count(r) AS ties
"""

# Reads the stored whole-graph scores: {id, page_rank, community} for every researcher.
RESEARCHER_SCORES: LiteralString = """
MATCH (n:Researcher)
RETURN n.id AS id, n.page_rank AS page_rank, n.community AS community
"""
