"""Cypher for collaboration networks: ego networks, paths, institution networks, whole-graph scores.

Every statement is a named constant with `$params`; graph/nx_bridge.py and graph/network*.py run them.
The graph's version, which the network cache keys on, is in queries/read_meta.py.
"""

from typing import LiteralString

from weft.queries.derive import pair_key
from weft.queries.read_meta import DATA_VERSION
from weft.queries.read_researchers import RESEARCHERS_BY_KEYS

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

# The ties a ring researcher `x` (bound by the caller) reaches the next ring through, at least
# $min_weight, with their weight `w` (graph/MODEL.md "Network backbone"): a researcher with TOP_TIE edges
# (more co-authors than `network_top_ties`) reaches only its heaviest ties, which those edges copy; any
# other researcher all of its ties. So a ring costs at most that many ties per researcher before it.
_REACH_STORED: LiteralString = """
  CALL (x) {
    WITH x, EXISTS { (x)-[:TOP_TIE]->() } AS hub
    CALL (x, hub) {
      WITH * WHERE hub
      MATCH (x)-[t:TOP_TIE]->(n:Researcher)
      WHERE t.weight >= $min_weight
      RETURN n, t.weight AS w
    UNION ALL
      WITH * WHERE NOT hub
      MATCH (x)-[r:COAUTHORED_WITH]-(n:Researcher)
      WHERE n <> x AND r.weight >= $min_weight
      RETURN n, r.weight AS w
    }
    RETURN n, w
  }
"""

# The ties among the kept researchers from `a` (one of them, bound by the caller, with `c` the centre and
# `ids` the kept researchers' ids) to `b`, as rows [smaller id, larger id, weight, first_year, last_year]
# (a tie found from both ends is the same row twice): the centre's own ties (ring 1 is made of them), and
# each other kept researcher's reaching ties (_REACH_STORED: its TOP_TIE edges, or all its ties), so what
# is drawn is the backbone the rings were found through and no kept researcher costs more than
# `network_top_ties` ties. The centre's ties are found the cheaper way: through its ties, unless it has
# more than five per kept researcher (a seek costs about as much as reading five ties: bench/RESULTS.md),
# then by looking up its pair with each kept researcher (the `coauthored_pair` index, graph/MODEL.md "Pair
# edges"), hinted as a seek: on a store whose statistics predate its edges the planner scanned the whole
# index per lookup, even under a plain `USING INDEX`.
_KEPT_TIES_STORED: LiteralString = (
    """
  CALL (c, a, kept, ids) {
    WITH * WHERE a = c
    WITH c, kept, ids, COUNT { (c)-[:COAUTHORED_WITH]-() } <= 5 * size(kept) AS expand
    CALL (c, kept, ids, expand) {
      WITH * WHERE expand
      MATCH (c)-[r:COAUTHORED_WITH]-(b:Researcher)
      WHERE b IN kept
      RETURN b, r.weight AS weight, r.first_year AS first_year, r.last_year AS last_year
    UNION ALL
      WITH * WHERE NOT expand
      WITH c.id AS cid, ids
      UNWIND [x IN ids WHERE x <> cid] AS bid
      MATCH ()-[r:COAUTHORED_WITH {pair: """
    + pair_key("cid", "bid")
    + """}]->()
      USING INDEX SEEK r:COAUTHORED_WITH(pair)
      RETURN CASE WHEN startNode(r).id = cid THEN endNode(r) ELSE startNode(r) END AS b,
             r.weight AS weight, r.first_year AS first_year, r.last_year AS last_year
    }
    RETURN b, weight, first_year, last_year
  UNION ALL
    WITH * WHERE a <> c AND EXISTS { (a)-[:TOP_TIE]->() }
    MATCH (a)-[t:TOP_TIE]->(b:Researcher)
    WHERE b IN kept AND b <> c
    RETURN b, t.weight AS weight, t.first_year AS first_year, t.last_year AS last_year
  UNION ALL
    WITH * WHERE a <> c AND NOT EXISTS { (a)-[:TOP_TIE]->() }
    MATCH (a)-[r:COAUTHORED_WITH]-(b:Researcher)
    WHERE b IN kept AND b <> c
    RETURN b, r.weight AS weight, r.first_year AS first_year, r.last_year AS last_year
  }
  WITH a, b, weight, first_year, last_year WHERE weight >= $min_weight
  WITH CASE WHEN a.id < b.id THEN [a.id, b.id] ELSE [b.id, a.id] END + [weight, first_year, last_year] AS tie
"""
)
_KEPT_TIES_WINDOWED: LiteralString = """
  CALL (a, kept) {
    MATCH (a)-[:AUTHORED]->(p:Paper)<-[:AUTHORED]-(b:Researcher)
    WHERE a.id < b.id AND b IN kept AND p.year IS NOT NULL
      AND ($year_from IS NULL OR p.year >= $year_from) AND ($year_to IS NULL OR p.year <= $year_to)
    WITH b, count(DISTINCT p) AS weight, min(p.year) AS first_year, max(p.year) AS last_year
    WHERE weight >= $min_weight
    RETURN [a.id, b.id, weight, first_year, last_year] AS tie
  }
  WITH tie
"""


_CENTRE_BY_ID: LiteralString = """
MATCH (c:Researcher {id: $id})
"""

# The centre found by any accepted id form ($keys as RESEARCHER_LOOKUP takes them, first match wins).
_CENTRE_BY_KEYS: LiteralString = (
    RESEARCHERS_BY_KEYS
    + """WITH n AS c ORDER BY rank LIMIT 1
"""
)


def _ego_network(
    ties: LiteralString,
    reach: LiteralString,
    papers: LiteralString,
    kept_ties: LiteralString,
    centre: LiteralString = _CENTRE_BY_ID,
) -> LiteralString:
    """EGO_NETWORK's text with one kind of tie (stored or windowed) written in: `ties` the centre's,
    `reach` a ring researcher's ties into the next ring; `centre` binds `c`."""
    return (
        centre
        + """CALL (c) {
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
        + reach
        + """
  WITH * WHERE n <> c AND NOT n IN r1
  WITH n, sum(w) AS s
  RETURN collect({n: n, s: s}) AS ring2
}
WITH c, ring1, r1, ring2, [row IN ring2 | row.n] AS r2
CALL (c, r1, r2) {
  UNWIND CASE WHEN $depth >= 3 AND 1 + size(r1) + size(r2) < $limit THEN r2 ELSE [] END AS x
"""
        + reach
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
        + reach
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
CALL (c, kept) {
  WITH c, kept, [n IN kept | n.id] AS ids
  UNWIND kept AS a
"""
        + kept_ties
        + """
  RETURN collect(DISTINCT tie) AS edges
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
EGO_NETWORK: LiteralString = _ego_network(_TIES_STORED, _REACH_STORED, _PAPERS_STORED, _KEPT_TIES_STORED)
EGO_NETWORK_WINDOWED: LiteralString = _ego_network(
    _TIES_WINDOWED, _TIES_WINDOWED, _PAPERS_WINDOWED, _KEPT_TIES_WINDOWED
)


def _versioned(network: LiteralString) -> LiteralString:
    """`network` (found by $keys) with the graph's version (DATA_VERSION's columns) in the same row."""
    return "CALL () {" + DATA_VERSION + "}\nCALL () {" + network + "}\nRETURN *\n"


# A network the cache cannot hold (graph/network_cache.py `cached`'s `read_missing`): the graph's version,
# the centre looked up by $keys (any accepted id form but an alias) and its network, in one round trip
# where a version read, a look-up and EGO_NETWORK took three. One row {data_version, meta, researchers,
# ties} + EGO_NETWORK's columns; none when no researcher has those keys. VERSIONED_EGO_NETWORK[windowed].
VERSIONED_EGO_NETWORK: dict[bool, LiteralString] = {
    False: _versioned(_ego_network(_TIES_STORED, _REACH_STORED, _PAPERS_STORED, _KEPT_TIES_STORED, _CENTRE_BY_KEYS)),
    True: _versioned(
        _ego_network(_TIES_WINDOWED, _TIES_WINDOWED, _PAPERS_WINDOWED, _KEPT_TIES_WINDOWED, _CENTRE_BY_KEYS)
    ),
}

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
