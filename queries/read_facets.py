"""Read queries for counts: facets (papers grouped by a dimension) under a paper filter, and per-year trends."""

from typing import LiteralString

from weft.queries.projection import lean
from weft.queries.read_papers import _SORTED_PAGE  # pyright: ignore[reportPrivateUsage]

# The papers matching every non-null filter, one row each: `p`. $anchor (graph/reads/facets.py chooses it)
# names the narrowest filter given, whose papers are gathered from an index or relationships and then tested
# against the rest: `ids` (search hits), `researcher`, `institutions`, `categories`, `country`, `venue`,
# `type`, `language`, `years` (the `paper_year` index) or `all` (every paper). Filters: $ids (paper ids),
# $researcher (id), $institutions (ids; a paper counts when an authorship states one), $categories (ids; any
# of them), $country (an ISO code of a stated institution), $venue, $type, $language, $year_from, $year_to,
# $min_citations. The anchor's own filter is not tested again (`$anchor = ... OR`, which skips the subquery):
# on a field of 129k papers at 1M works that re-test was 90% of the statement (4.1 s of 4.4).
FILTERED_PAPERS: LiteralString = """
CALL () {
  WITH 1 AS go WHERE $anchor = 'ids'
  UNWIND $ids AS pid MATCH (p:Paper {id: pid}) RETURN p
  UNION
  WITH 1 AS go WHERE $anchor = 'researcher'
  MATCH (:Researcher {id: $researcher})-[:AUTHORED]->(p:Paper) RETURN p
  UNION
  WITH 1 AS go WHERE $anchor = 'institutions'
  MATCH (i:Institution)<-[:STATES_AFFILIATION]-(p:Paper) WHERE i.id IN $institutions RETURN p
  UNION
  WITH 1 AS go WHERE $anchor = 'categories'
  MATCH (c:Category)<-[:IN_CATEGORY]-(p:Paper) WHERE c.id IN $categories RETURN p
  UNION
  WITH 1 AS go WHERE $anchor = 'country'
  MATCH (i:Institution)<-[:STATES_AFFILIATION]-(p:Paper) WHERE i.country = $country RETURN p
  UNION
  WITH 1 AS go WHERE $anchor = 'venue'
  MATCH (p:Paper) WHERE p.venue = $venue RETURN p
  UNION
  WITH 1 AS go WHERE $anchor = 'type'
  MATCH (p:Paper) WHERE p.type = $type RETURN p
  UNION
  WITH 1 AS go WHERE $anchor = 'language'
  MATCH (p:Paper) WHERE p.language = $language RETURN p
  UNION
  WITH 1 AS go WHERE $anchor = 'years'
  MATCH (p:Paper) WHERE p.year >= coalesce($year_from, -999999) AND p.year <= coalesce($year_to, 999999) RETURN p
  UNION
  WITH 1 AS go WHERE $anchor = 'all'
  MATCH (p:Paper) RETURN p
}
WITH DISTINCT p
WHERE ($year_from IS NULL OR p.year >= $year_from)
  AND ($year_to IS NULL OR p.year <= $year_to)
  AND ($min_citations IS NULL OR p.sort_cited >= $min_citations)
  AND ($venue IS NULL OR p.venue = $venue)
  AND ($type IS NULL OR p.type = $type)
  AND ($language IS NULL OR p.language = $language)
  AND ($ids IS NULL OR p.id IN $ids)
  AND ($researcher IS NULL OR $anchor = 'researcher'
       OR EXISTS { (:Researcher {id: $researcher})-[:AUTHORED]->(p) })
  AND ($categories IS NULL OR $anchor = 'categories'
       OR EXISTS { (p)-[:IN_CATEGORY]->(c:Category) WHERE c.id IN $categories })
  AND ($institutions IS NULL OR $anchor = 'institutions'
       OR EXISTS { (p)-[:STATES_AFFILIATION]->(i:Institution) WHERE i.id IN $institutions })
  AND ($country IS NULL OR $anchor = 'country'
       OR EXISTS { (p)-[:STATES_AFFILIATION]->(i:Institution) WHERE i.country = $country })
"""

# One page of the papers FILTERED_PAPERS finds, in $sort order after the key $after (as PAPER_PAGE), with the
# total: total, page. For the filters PAPER_PAGE does not take (country, venue, type, language, search hits).
FILTERED_PAPER_PAGE: LiteralString = lean(
    FILTERED_PAPERS
    + """WITH collect(p) AS found
"""
    + _SORTED_PAGE
    + """RETURN size(found) AS total, page
"""
)

# The groups of one dimension over `found` (the filtered papers), each block reading `p` in `found` and giving
# rows `key`, `name`, `p` (one per paper and group; DISTINCT below). A paper in no group (no year, no
# institution, ...) is counted in the unknown bucket by `_UNKNOWN[dimension]`.
_GROUPED: dict[LiteralString, LiteralString] = {
    "year": "WITH p, p.year AS key WHERE key IS NOT NULL WITH p, key, toString(key) AS name",
    "venue": "WITH p, p.venue AS key WHERE key IS NOT NULL WITH p, key, key AS name",
    "type": "WITH p, p.type AS key WHERE key IS NOT NULL WITH p, key, key AS name",
    "language": "WITH p, p.language AS key WHERE key IS NOT NULL WITH p, key, key AS name",
    "field": "MATCH (p)-[:IN_CATEGORY]->(c:Category {scheme: 'field'}) WITH p, c.id AS key, c.name AS name",
    "subfield": "MATCH (p)-[:IN_CATEGORY]->(c:Category {scheme: 'subfield'}) WITH p, c.id AS key, c.name AS name",
    "topic": "MATCH (p)-[:IN_CATEGORY]->(c:Category {scheme: 'topic'}) WITH p, c.id AS key, c.name AS name",
    "institution": "MATCH (p)-[:STATES_AFFILIATION]->(i:Institution) WITH p, i.id AS key, i.name AS name",
    "country": "MATCH (p)-[:STATES_AFFILIATION]->(i:Institution) WHERE i.country IS NOT NULL "
    "WITH p, i.country AS key, i.country AS name",
    "researcher": "MATCH (p)<-[:AUTHORED]-(r:Researcher) WITH p, r.id AS key, r.name AS name",
}

_UNKNOWN: dict[LiteralString, LiteralString] = {
    "year": "p.year IS NULL",
    "venue": "p.venue IS NULL",
    "type": "p.type IS NULL",
    "language": "p.language IS NULL",
    "field": "NOT EXISTS { (p)-[:IN_CATEGORY]->(:Category {scheme: 'field'}) }",
    "subfield": "NOT EXISTS { (p)-[:IN_CATEGORY]->(:Category {scheme: 'subfield'}) }",
    "topic": "NOT EXISTS { (p)-[:IN_CATEGORY]->(:Category {scheme: 'topic'}) }",
    "institution": "NOT EXISTS { (p)-[:STATES_AFFILIATION]->(:Institution) }",
    "country": "NOT EXISTS { (p)-[:STATES_AFFILIATION]->(i:Institution) WHERE i.country IS NOT NULL }",
    "researcher": "NOT EXISTS { (p)<-[:AUTHORED]-(:Researcher) }",
}

DIMENSIONS: tuple[LiteralString, ...] = tuple(_GROUPED)
"""The dimensions FACETS can group by, each the name of one of its result columns and of a `$want` flag."""


def _facet_block(dimension: LiteralString) -> LiteralString:
    """The subquery of one dimension: {groups (the first $first, by $order), distinct (how many groups in all),
    unknown {count, citations}} as the column `dimension`, or null when $want does not ask for it."""
    return (
        """OPTIONAL CALL (found) {
  WITH found WHERE $want."""
        + dimension
        + """
  CALL (found) {
    UNWIND found AS p
    """
        + _GROUPED[dimension]
        + """
    WITH DISTINCT key, name, p
    WITH key, name, count(p) AS n, sum(p.sort_cited) AS cited
    ORDER BY CASE WHEN $order = 'COUNT' THEN n END DESC, key
    RETURN collect({key: toString(key), name: name, count: n, citations: cited}) AS groups
  }
  CALL (found) {
    UNWIND found AS p
    WITH p WHERE """
        + _UNKNOWN[dimension]
        + """
    RETURN {count: count(p), citations: sum(p.sort_cited)} AS unknown
  }
  RETURN {groups: groups[0..$first], distinct: size(groups), unknown: unknown} AS """
        + dimension
        + """
}
"""
    )


# Papers matching the filter (FILTERED_PAPERS' parameters) grouped by each dimension $want asks for ($want:
# {year, venue, type, language, field, subfield, topic, institution, country, researcher} booleans), in one
# statement: the filtered papers are found once, then each dimension asked for is counted over them.
# A group counts distinct papers (a paper with two institutions of one country counts once for it) and sums
# their `sort_cited` (citations, 0 when unknown). $order: COUNT (most papers first, then key) or KEY;
# $first: groups kept per dimension. Returns total (papers matching), and one column per dimension
# ({groups [{key, name, count, citations}], distinct, unknown {count, citations}}, null when not asked).
FACETS: LiteralString = lean(
    FILTERED_PAPERS
    + """WITH collect(p) AS found
"""
    + "".join(_facet_block(d) for d in DIMENSIONS)
    + "RETURN size(found) AS total, "
    + ", ".join(DIMENSIONS)
    + "\n"
)

# Works and citations per year of papers gathered by $anchor ('researcher': $id's AUTHORED papers;
# 'institution': papers stating one of $ids; 'category': $id's IN_CATEGORY papers): per year, `works` (papers
# published that year) and `cited` (citations received that year: CITES edges into the papers from papers
# published that year); and the per-year citations the OpenAlex record of the researcher or the one institution
# stated (`counts_by_year`: stated_years, stated_counts, parallel lists; null when it gave none).
COUNTS_BY_YEAR: LiteralString = lean("""
CALL () {
  WITH 1 AS go WHERE $anchor = 'researcher'
  MATCH (:Researcher {id: $id})-[:AUTHORED]->(p:Paper) RETURN p
  UNION
  WITH 1 AS go WHERE $anchor = 'institution'
  MATCH (i:Institution)<-[:STATES_AFFILIATION]-(p:Paper) WHERE i.id IN $ids RETURN p
  UNION
  WITH 1 AS go WHERE $anchor = 'category'
  MATCH (:Category {id: $id})<-[:IN_CATEGORY]-(p:Paper) RETURN p
}
WITH collect(DISTINCT p) AS found
CALL (found) {
  UNWIND found AS p
  WITH p.year AS year, count(p) AS works WHERE year IS NOT NULL
  RETURN collect({year: year, works: works}) AS works
}
CALL (found) {
  UNWIND found AS p
  MATCH (p)<-[:CITES]-(q:Paper) WHERE q.year IS NOT NULL
  WITH q.year AS year, count(*) AS cited
  RETURN collect({year: year, cited: cited}) AS cited
}
OPTIONAL CALL () {
  WITH 1 AS go WHERE $anchor = 'researcher'
  MATCH (n:Researcher {id: $id}) RETURN n.citation_years_openalex AS years, n.citations_by_year_openalex AS counts
  UNION
  WITH 1 AS go WHERE $anchor = 'institution' AND size($ids) = 1
  MATCH (n:Institution {id: $id}) RETURN n.citation_years_openalex AS years, n.citations_by_year_openalex AS counts
}
RETURN works, cited, years AS stated_years, counts AS stated_counts
""")
