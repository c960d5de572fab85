"""Read queries for papers: lookups, batched relationships for DataLoaders, filtered pages."""

from typing import LiteralString

from weft.queries.aliases import by_alias
from weft.queries.projection import lean, picked
from weft.queries.read_researchers import METRICS_OF_WHO

# The papers answering each key of $keys ([{property, value}], most specific first), with the key's rank:
# rank, n. A fragment: PAPER_LOOKUP and PAPER_DETAILS continue it.
_PAPERS_BY_KEYS: LiteralString = """
UNWIND range(0, size($keys) - 1) AS rank
WITH rank, $keys[rank] AS k
CALL (k) {
  MATCH (n:Paper) WHERE k.property = 'id' AND n.id = k.value RETURN n
  UNION MATCH (n:Paper) WHERE k.property = 'doi' AND n.doi = k.value RETURN n
  UNION MATCH (n:Paper) WHERE k.property = 'arxiv_id' AND n.arxiv_id = k.value RETURN n
  UNION MATCH (n:Paper) WHERE k.property = 'openalex_id' AND n.openalex_id = k.value RETURN n
  UNION MATCH (n:Paper) WHERE k.property = 's2_id' AND n.s2_id = k.value RETURN n
  UNION MATCH (n:Paper) WHERE k.property = 'corpus_id' AND n.corpus_id IN [k.value, toString(k.value)] RETURN n
  UNION MATCH (n:Paper) WHERE k.property = 'mag_id' AND n.mag_id IN [k.value, toString(k.value)] RETURN n
  UNION MATCH (n:Paper) WHERE k.property = 'pmid' AND n.pmid IN [k.value, toString(k.value)] RETURN n
}
"""

# The same for a single key of a known property: one index seek, without the union's branches (issue 9).
_PAPER_BY_ONE_KEY: dict[str, LiteralString] = {
    "id": "MATCH (n:Paper {id: $keys[0].value}) WITH 0 AS rank, n\n",
    "doi": "MATCH (n:Paper {doi: $keys[0].value}) WITH 0 AS rank, n\n",
    "arxiv_id": "MATCH (n:Paper {arxiv_id: $keys[0].value}) WITH 0 AS rank, n\n",
    "openalex_id": "MATCH (n:Paper {openalex_id: $keys[0].value}) WITH 0 AS rank, n\n",
    "s2_id": "MATCH (n:Paper {s2_id: $keys[0].value}) WITH 0 AS rank, n\n",
    "corpus_id": "MATCH (n:Paper) WHERE n.corpus_id IN [$keys[0].value, toString($keys[0].value)] WITH 0 AS rank, n\n",
    "mag_id": "MATCH (n:Paper) WHERE n.mag_id IN [$keys[0].value, toString($keys[0].value)] WITH 0 AS rank, n\n",
    "pmid": "MATCH (n:Paper) WHERE n.pmid IN [$keys[0].value, toString($keys[0].value)] WITH 0 AS rank, n\n",
}

# The paper answering the first matching key of $keys ([{property, value}], most specific first): node.
PAPER_LOOKUP: LiteralString = lean(
    _PAPERS_BY_KEYS
    + """RETURN n {.*} AS node ORDER BY rank LIMIT 1
"""
)

# The paper that kept $value among its `aliases` after a merge: node.
PAPER_BY_ALIAS: LiteralString = lean(by_alias("Paper", "$value") + "RETURN n {.*} AS node LIMIT 1\n")

# Papers by internal id (DataLoader): id, node.
PAPERS_BY_IDS: LiteralString = lean("""
UNWIND $ids AS id MATCH (n:Paper {id: id}) RETURN id, n {.*} AS node
""")

# Authorships of many papers (DataLoader): paper_id, researcher, authorship, in author order.
AUTHORSHIPS_OF_PAPERS: LiteralString = lean("""
UNWIND $ids AS pid
MATCH (:Paper {id: pid})<-[a:AUTHORED]-(r:Researcher)
RETURN pid AS paper_id, r {.*} AS researcher, a {.*} AS authorship
ORDER BY paper_id, coalesce(a.rank, 999999), r.id
""")

# Categories of many papers (DataLoader): paper_id, category, primary, score; primary and best first.
CATEGORIES_OF_PAPERS: LiteralString = """
UNWIND $ids AS pid
MATCH (:Paper {id: pid})-[e:IN_CATEGORY]->(c:Category)
RETURN pid AS paper_id, c {.id, .key, .name, .scheme, .level} AS category,
       coalesce(e.primary, false) AS primary, e.score AS score
ORDER BY paper_id, primary DESC, coalesce(score, 0.0) DESC, c.key
"""

# The order of a paper list as a key (graph/MODEL.md, "Sort keys"): papers come by `rank` descending,
# then `sort_date` (ascending for OLDEST, else descending), then `id` ascending. `rank` is `sort_cited`
# for MOST_CITED, 1 (dated) or 0 (undated) for OLDEST, 0 for NEWEST. A page continues after the key
# `$after` ({rank, date, id} of the last paper shown; null for the first page): keyset paging.
_SORT_RANK: LiteralString = """CASE $sort WHEN 'MOST_CITED' THEN p.sort_cited
  WHEN 'OLDEST' THEN CASE p.sort_date WHEN '' THEN 0 ELSE 1 END ELSE 0 END"""

# `found` (a list of papers) sorted in $sort order after the key $after, cut to $limit: `page`.
_SORTED_PAGE: LiteralString = lean(
    """CALL (found) {
  UNWIND found AS p
  WITH p, """
    + _SORT_RANK
    + """ AS rank
  WHERE $after IS NULL OR rank < $after.rank OR (rank = $after.rank AND (
        CASE WHEN $sort = 'OLDEST' THEN p.sort_date > $after.date ELSE p.sort_date < $after.date END
        OR (p.sort_date = $after.date AND p.id > $after.id)))
  WITH p, rank ORDER BY rank DESC,
    CASE WHEN $sort = 'OLDEST' THEN p.sort_date ELSE '' END ASC,
    CASE WHEN $sort = 'OLDEST' THEN '' ELSE p.sort_date END DESC,
    p.id
  LIMIT $limit
  RETURN collect("""
    + picked("p", "$props")
    + """) AS page
}
"""
)

# One page of papers matching every non-null filter, in $sort order (NEWEST|OLDEST|MOST_CITED) after the
# key $after, with the total in the same query: total, page (at most $limit node maps).
# Filters: $researcher (id), $institutions (ids; a paper counts when an authorship states one),
# $categories (ids), $year_from, $year_to, $min_citations. At least one of the first three is set: the
# papers are found from it and that (smaller) set is sorted; EVERY_PAPER_PAGES serves the rest.
PAPER_PAGE: LiteralString = lean(
    """
CALL () {
  WITH $researcher AS rid WHERE rid IS NOT NULL
  MATCH (:Researcher {id: rid})-[:AUTHORED]->(p:Paper) RETURN p
  UNION
  WITH $institutions AS iids WHERE $researcher IS NULL AND iids IS NOT NULL
  MATCH (i:Institution)<-[:STATES_AFFILIATION]-(p:Paper) WHERE i.id IN iids RETURN p
  UNION
  WITH $categories AS cids WHERE $researcher IS NULL AND $institutions IS NULL AND cids IS NOT NULL
  MATCH (c:Category)<-[:IN_CATEGORY]-(p:Paper) WHERE c.id IN cids RETURN p
}
WITH DISTINCT p
WHERE ($year_from IS NULL OR p.year >= $year_from)
  AND ($year_to IS NULL OR p.year <= $year_to)
  AND ($min_citations IS NULL OR p.sort_cited >= $min_citations)
  AND ($categories IS NULL OR EXISTS { (p)-[:IN_CATEGORY]->(c:Category) WHERE c.id IN $categories })
  AND ($institutions IS NULL OR EXISTS { (p)-[:STATES_AFFILIATION]->(i:Institution) WHERE i.id IN $institutions })
  AND ($researcher IS NULL OR EXISTS { (:Researcher {id: $researcher})-[:AUTHORED]->(p) })
WITH collect(p) AS found
"""
    + _SORTED_PAGE
    + """RETURN size(found) AS total, page
"""
)

# The whole graph's papers (no researcher, institution or category filter) in index order: each order
# reads its range index from the key after the cursor and stops at $limit (never sorting every paper);
# the total comes from the count store, or from the sort index when $year_from, $year_to or
# $min_citations narrow the list. Parameters beyond the filters and $limit say where the page starts
# (graph/reads/papers.py computes them from the cursor; a null one empties its branch):
# $tie_cited, $tie_date, $tie_id: the cursor's own sort values (papers equal to them with a larger id);
# $below_cited, $below_date, $above_date: papers strictly past the cursor's value; $undated_after: the
# undated papers after this id (OLDEST lists them last). $min_cited is $min_citations or 0.
# Returns total, page (at most $limit node maps). EVERY_PAPER_PAGES[(sort, narrowed, after)] is the query.
_YEARS: LiteralString = """($year_from IS NULL OR p.year >= $year_from)
    AND ($year_to IS NULL OR p.year <= $year_to)"""
_MIN_CITED: LiteralString = "($min_citations IS NULL OR p.sort_cited >= $min_citations)"

_COUNT_EVERY_PAPER: LiteralString = """
CALL () { MATCH (p:Paper) RETURN count(p) AS total }
"""
_COUNT_NARROWED: LiteralString = (
    """
CALL () {
  MATCH (p:Paper)
  WHERE p.sort_cited >= $min_cited AND p.sort_date IS NOT NULL AND """
    + _YEARS
    + """
  RETURN count(p) AS total
}
"""
)

# A further filter of the index-ordered pages: `p` is in the category $category (its stored
# `category_ids`, one property read, where the relationship test read the paper's relationships).
_IN_CATEGORY: LiteralString = "\n      AND $category IN p.category_ids"


_Branch = tuple[LiteralString, LiteralString]


def _index_page(
    branches: list[_Branch], order: LiteralString, extra: LiteralString, scope: LiteralString
) -> LiteralString:
    """The subquery returning `page`: each branch (a condition on `p`, the order it is read in) read from its
    sort index up to $limit, the union of them in `order` up to $limit; `extra` filters `p` further in
    every branch (with the variables in `scope` imported)."""
    reads: list[LiteralString] = [
        """
    MATCH (p:Paper)
    WHERE """
        + where
        + " AND "
        + _YEARS
        + extra
        + """
    WITH p ORDER BY """
        + by
        + """ LIMIT $limit RETURN p"""
        for where, by in branches
    ]
    return (
        "CALL ("
        + scope
        + ") {\n  CALL ("
        + scope
        + ") {"
        + "\n    UNION ALL".join(reads)
        + """
  }
  WITH p ORDER BY """
        + order
        + """ LIMIT $limit
  RETURN collect("""
        + picked("p", "$props")
        + """) AS page
}
"""
    )


# The papers tied with the cursor's date, after its id (NEWEST and OLDEST).
_DATE_TIE: _Branch = (
    "p.sort_date = $tie_date AND p.id > $tie_id AND " + _MIN_CITED,
    "p.id",
)


def _most_cited_page(ties: bool = True) -> LiteralString:
    """MOST_CITED from the key on: the cursor's ties (unless `ties` is False: the first page has no cursor),
    then lower counts (one category's: _CATEGORY_MOST_CITED)."""
    tied: _Branch = (
        "p.sort_cited = $tie_cited AND p.sort_date <= $tie_date AND (p.sort_date < $tie_date OR p.id > $tie_id)"
        " AND p.sort_cited >= $min_cited",
        "p.sort_cited DESC, p.sort_date DESC, p.id",
    )
    below: _Branch = (
        "p.sort_cited < $below_cited AND p.sort_cited >= $min_cited AND p.sort_date IS NOT NULL",
        "p.sort_cited DESC, p.sort_date DESC, p.id",
    )
    return _index_page([tied, below] if ties else [below], "p.sort_cited DESC, p.sort_date DESC, p.id", "", "")


def _newest_page(extra: LiteralString = "", scope: LiteralString = "", ties: bool = True) -> LiteralString:
    """NEWEST from the key on: the cursor's ties (unless `ties` is False), then earlier dates."""
    earlier: _Branch = ("p.sort_date < $below_date AND " + _MIN_CITED, "p.sort_date DESC, p.id")
    return _index_page([_DATE_TIE, earlier] if ties else [earlier], "p.sort_date DESC, p.id", extra, scope)


def _oldest_page(extra: LiteralString = "", scope: LiteralString = "", ties: bool = True) -> LiteralString:
    """OLDEST from the key on: the cursor's ties (unless `ties` is False), later dates, then the undated
    papers after $undated_after."""
    later: list[_Branch] = [
        ("p.sort_date > $above_date AND " + _MIN_CITED, "p.sort_date, p.id"),
        ("p.sort_date = '' AND p.id > $undated_after AND " + _MIN_CITED, "p.id"),
    ]
    return _index_page([_DATE_TIE, *later] if ties else later, "p.sort_date = '', p.sort_date, p.id", extra, scope)


_FROM_KEY: dict[tuple[str, bool], LiteralString] = {
    (sort, after): lean(page(ties=after) + "RETURN total, page\n")
    for sort, page in (("MOST_CITED", _most_cited_page), ("NEWEST", _newest_page), ("OLDEST", _oldest_page))
    for after in (False, True)
}

EVERY_PAPER_PAGES: dict[tuple[str, bool, bool], LiteralString] = {
    (sort, narrowed, after): (_COUNT_NARROWED if narrowed else _COUNT_EVERY_PAPER) + _FROM_KEY[(sort, after)]
    for sort in ("MOST_CITED", "NEWEST", "OLDEST")
    for narrowed in (False, True)
    for after in (False, True)
}
"""(sort, narrowed by years or citations, after a cursor): the page's statement. The first page (no
cursor) has no ties of a cursor to read first."""


def _category_pages(index_page: LiteralString) -> LiteralString:
    return lean(
        """
MATCH (c:Category {id: $category})
CALL () { MATCH (p:Paper) RETURN count(p) AS papers }
WITH c, papers, COUNT { (c)<-[:IN_CATEGORY]-() } AS total
CALL (c, total, papers) {
  WITH c WHERE 10 * total * total > 6 * $limit * papers
  """
        + index_page
        + """
  RETURN page
  UNION
  WITH c WHERE 10 * total * total <= 6 * $limit * papers
  MATCH (c)<-[:IN_CATEGORY]-(p:Paper)
  WITH collect(p) AS found
  """
        + _SORTED_PAGE
        + """
  RETURN page
}
RETURN total, page
"""
    )


# One category's papers most cited first, from the key on (the EVERY_PAPER_PAGES parameters): the
# category's IN_CATEGORY edges, which carry the paper's sort keys, read in order from their relationship
# index (`in_category_sort_cited`), the cursor's ties and then lower counts, each up to $limit (and the
# rest of its last tie, for the ids). The ORDER BY names `r.category` too: without the index's first key
# the planner does not see the index order and sorts the whole category.
_CATEGORY_MOST_CITED: LiteralString = lean(
    """
MATCH (c:Category {id: $category})
WITH c, COUNT { (c)<-[:IN_CATEGORY]-() } AS total
CALL () {
  CALL () {
    MATCH (p:Paper)-[r:IN_CATEGORY]->()
    WHERE r.category = $category AND r.sort_cited = $tie_cited AND r.sort_date <= $tie_date
      AND (r.sort_date < $tie_date OR p.id > $tie_id)
    WITH p ORDER BY r.category DESC, r.sort_cited DESC, r.sort_date DESC, p.id LIMIT $limit RETURN p
    UNION ALL
    MATCH (p:Paper)-[r:IN_CATEGORY]->()
    WHERE r.category = $category AND r.sort_cited < $below_cited AND r.sort_date IS NOT NULL
    WITH p ORDER BY r.category DESC, r.sort_cited DESC, r.sort_date DESC, p.id LIMIT $limit RETURN p
  }
  WITH p ORDER BY p.sort_cited DESC, p.sort_date DESC, p.id LIMIT $limit
  RETURN collect("""
    + picked("p", "$props")
    + """) AS page
}
RETURN total, page
"""
)

# The papers of one category ($category, an id) in $sort order, no other filter: total (the category's
# degree), page (at most $limit node maps). MOST_CITED reads ~$limit edges from the category's own index
# range. NEWEST and OLDEST: a large category walks the paper sort index from the cursor (the
# EVERY_PAPER_PAGES parameters) keeping its own papers: ~$limit x papers / total rows, ~2 db hits each
# (the index entry and the paper's `category_ids`); a small one is gathered and sorted like PAPER_PAGE
# (after $after): total rows, ~5 db hits each. The walk is taken when it costs less (measured at 1M):
# total^2 > 0.6 x $limit x papers (at 1M papers and $limit 21, categories above ~3,600 papers).
CATEGORY_PAPER_PAGES: dict[str, LiteralString] = {
    "MOST_CITED": _CATEGORY_MOST_CITED,
    "NEWEST": _category_pages(_newest_page(_IN_CATEGORY, "c")),
    "OLDEST": _category_pages(_oldest_page(_IN_CATEGORY, "c")),
}

# Pages of each researcher's papers, optionally in categories ($keys[].categories: ids) and a year range,
# sorted by sort (NEWEST|OLDEST|MOST_CITED; the order of PAPER_PAGE, by offset) (DataLoader; $keys are
# [{id, categories, year_from, year_to, sort, skip, end}]): key, total, page (node maps).
RESEARCHER_PAPER_PAGES: LiteralString = lean("""
UNWIND $keys AS k
CALL (k) {
  OPTIONAL MATCH (:Researcher {id: k.id})-[:AUTHORED]->(p:Paper)
  WHERE (k.year_from IS NULL OR p.year >= k.year_from) AND (k.year_to IS NULL OR p.year <= k.year_to)
    AND (k.categories IS NULL OR EXISTS { (p)-[:IN_CATEGORY]->(c:Category) WHERE c.id IN k.categories })
  WITH k, p, CASE k.sort WHEN 'MOST_CITED' THEN p.sort_cited
    WHEN 'OLDEST' THEN CASE p.sort_date WHEN '' THEN 0 ELSE 1 END ELSE 0 END AS rank
  ORDER BY rank DESC,
    CASE WHEN k.sort = 'OLDEST' THEN p.sort_date ELSE '' END ASC,
    CASE WHEN k.sort = 'OLDEST' THEN '' ELSE p.sort_date END DESC,
    p.id
  RETURN collect(p) AS found
}
RETURN k AS key, size(found) AS total, [x IN found[k.skip..k.end] | x {.*}] AS page
""")

# Categories by id, key or case-insensitive name, for many strings at once (DataLoader): value, ids.
CATEGORY_LOOKUPS: LiteralString = """
UNWIND $values AS value
OPTIONAL MATCH (c:Category) WHERE c.id = value OR c.key = value OR toLower(c.name) = toLower(value)
RETURN value, collect(c.id) AS ids
"""

# Pages of the loaded papers citing each paper (DataLoader; $keys are [{id, sort, skip, end}], sort
# NEWEST|OLDEST|MOST_CITED): id, sort, skip, end, total, page (node maps).
CITED_BY_PAGES: LiteralString = lean("""
UNWIND $keys AS k
CALL (k) {
  OPTIONAL MATCH (:Paper {id: k.id})<-[:CITES]-(p:Paper)
  WITH p ORDER BY
    CASE WHEN k.sort = 'MOST_CITED' THEN coalesce(p.cited_by_count, 0) ELSE 0 END DESC,
    CASE WHEN k.sort = 'NEWEST' THEN coalesce(p.publication_date, toString(p.year), '') ELSE '' END DESC,
    CASE WHEN k.sort = 'OLDEST' THEN coalesce(p.publication_date, toString(p.year), '9999') ELSE '' END ASC,
    p.id
  RETURN collect(p) AS found
}
RETURN k.id AS id, k.sort AS sort, k.skip AS skip, k.end AS end,
       size(found) AS total, [x IN found[k.skip..k.end] | x {.*}] AS page
""")

# Pages of the loaded papers each paper cites, most cited first (DataLoader; $keys are
# [{id, skip, end}]): id, skip, end, total, page (node maps).
REFERENCES_PAGES: LiteralString = lean("""
UNWIND $keys AS k
CALL (k) {
  OPTIONAL MATCH (:Paper {id: k.id})-[:CITES]->(p:Paper)
  WITH p ORDER BY coalesce(p.cited_by_count, 0) DESC, p.id
  RETURN collect(p) AS found
}
RETURN k.id AS id, k.skip AS skip, k.end AS end, size(found) AS total, [x IN found[k.skip..k.end] | x {.*}] AS page
""")

# A paper page in one round trip (issue 9): the paper answering the first key of $keys, and each part the
# GraphQL selection asks for, read by a subquery that runs only when its parameter says so.
# $want: {authors, affiliations, author_stats, author_paper_counts, categories} booleans (affiliations: the
# institutions each authorship states; author_stats: each author's metrics; author_paper_counts: each
# author's paper count, its AUTHORED degree, in its node map when the other metrics are not asked);
# $cited_by: {sort, skip, end} and $references: {skip, end}, or null when not asked. Each part reads what
# the DataLoader query of the same name reads, in the same order: AUTHORSHIPS_OF_PAPERS,
# read_institutions.INSTITUTIONS_BY_IDS, read_researchers.RESEARCHER_STATS, CATEGORIES_OF_PAPERS,
# CITED_BY_PAGES, REFERENCES_PAGES.
# Returns node, authors [{researcher, authorship, institutions, metrics}], categories [{category, primary,
# score}], cited_by {total, page}, references {total, page}; a part not asked is an empty value to ignore.
_PAPER_DETAILS: LiteralString = lean(
    """WITH n AS p ORDER BY rank LIMIT 1
OPTIONAL CALL (p) {
  WITH p WHERE $want.authors
  MATCH (p)<-[a:AUTHORED]-(r:Researcher)
  OPTIONAL CALL (a) {
    WITH a WHERE $want.affiliations
    UNWIND coalesce(a.institution_ids, []) AS iid
    MATCH (i:Institution {id: iid})
    RETURN collect(i {.*}) AS institutions
  }
  OPTIONAL CALL (r) {
    WITH r AS who WHERE $want.author_stats"""
    + METRICS_OF_WHO
    + """}
  WITH r, a, institutions, paper_count, citation_count, h_index, i10_index
  ORDER BY coalesce(a.rank, 999999), r.id
  RETURN collect({researcher: """
    + picked(
        "r",
        "$want.researcher_props",
        ("paper_count", "CASE WHEN $want.author_paper_counts THEN COUNT { (r)-[:AUTHORED]->() } END"),
    )
    + """,
                  authorship: a {.*}, institutions: institutions,
                  metrics: {id: r.id, paper_count: paper_count, citation_count: citation_count, h_index: h_index,
                            i10_index: i10_index}}) AS authors
}
OPTIONAL CALL (p) {
  WITH p WHERE $want.categories
  MATCH (p)-[e:IN_CATEGORY]->(c:Category)
  WHERE $want.category_scheme IS NULL OR c.scheme = $want.category_scheme
  WITH c, coalesce(e.primary, false) AS primary, e.score AS score
  ORDER BY primary DESC, coalesce(score, 0.0) DESC, c.key
  RETURN collect({category: c {.id, .key, .name, .scheme, .level}, primary: primary, score: score}) AS categories
}
OPTIONAL CALL (p) {
  WITH p WHERE $cited_by IS NOT NULL
  OPTIONAL MATCH (p)<-[:CITES]-(q:Paper)
  WITH q ORDER BY
    CASE WHEN $cited_by.sort = 'MOST_CITED' THEN coalesce(q.cited_by_count, 0) ELSE 0 END DESC,
    CASE WHEN $cited_by.sort = 'NEWEST' THEN coalesce(q.publication_date, toString(q.year), '') ELSE '' END DESC,
    CASE WHEN $cited_by.sort = 'OLDEST' THEN coalesce(q.publication_date, toString(q.year), '9999') ELSE '' END ASC,
    q.id
  WITH collect(q) AS found
  RETURN {total: size(found), page: [x IN found[$cited_by.skip..$cited_by.end] | """
    + picked("x", "$cited_by.props")
    + """]} AS cited_by
}
OPTIONAL CALL (p) {
  WITH p WHERE $references IS NOT NULL
  OPTIONAL MATCH (p)-[:CITES]->(q:Paper)
  WITH q ORDER BY coalesce(q.cited_by_count, 0) DESC, q.id
  WITH collect(q) AS found
  RETURN {total: size(found), page: [x IN found[$references.skip..$references.end] | """
    + picked("x", "$references.props")
    + """]} AS references
}
RETURN p {.*} AS node, authors, categories, cited_by, references
"""
)
PAPER_DETAILS: LiteralString = _PAPERS_BY_KEYS + _PAPER_DETAILS
PAPER_DETAILS_BY_KEY: dict[str, LiteralString] = {key: find + _PAPER_DETAILS for key, find in _PAPER_BY_ONE_KEY.items()}
"""PAPER_DETAILS for a single key of each property: the paper found by that index alone."""
