"""Read queries for researchers: lookups, batched stats, profile aggregates, co-authors."""

from functools import cache
from typing import LiteralString

from weft.queries.aliases import by_alias
from weft.queries.derive import pair_key
from weft.queries.projection import lean, picked

# The researchers answering each key of $keys ([{property, value}]), with the key's rank: rank, n.
# A fragment: RESEARCHER_LOOKUP, RESEARCHER_PROFILE and queries/network.py's VERSIONED_EGO_NETWORK continue it.
RESEARCHERS_BY_KEYS: LiteralString = """
UNWIND range(0, size($keys) - 1) AS rank
WITH rank, $keys[rank] AS k
CALL (k) {
  MATCH (n:Researcher) WHERE k.property = 'id' AND n.id = k.value RETURN n
  UNION MATCH (n:Researcher) WHERE k.property = 'openalex_id' AND n.openalex_id = k.value RETURN n
  UNION MATCH (n:Researcher) WHERE k.property = 'orcid' AND n.orcid = k.value RETURN n
  UNION MATCH (n:Researcher) WHERE k.property = 's2_id' AND n.s2_id IN [k.value, toInteger(k.value)] RETURN n
}
"""

# The same for a single key of a known property: one index seek, without the union's branches (issue 9).
_RESEARCHER_BY_ONE_KEY: dict[str, LiteralString] = {
    "id": "MATCH (n:Researcher {id: $keys[0].value}) WITH 0 AS rank, n\n",
    "openalex_id": "MATCH (n:Researcher {openalex_id: $keys[0].value}) WITH 0 AS rank, n\n",
    "orcid": "MATCH (n:Researcher {orcid: $keys[0].value}) WITH 0 AS rank, n\n",
    "s2_id": "MATCH (n:Researcher) WHERE n.s2_id IN [$keys[0].value, toInteger($keys[0].value)] WITH 0 AS rank, n\n",
}

# The researcher answering the first matching key of $keys ([{property, value}]): node.
RESEARCHER_LOOKUP: LiteralString = lean(
    RESEARCHERS_BY_KEYS
    + """RETURN n {.*} AS node ORDER BY rank LIMIT 1
"""
)

# The researcher that kept $value among its `aliases` after a merge: node.
RESEARCHER_BY_ALIAS: LiteralString = lean(by_alias("Researcher", "$value") + "RETURN n {.*} AS node LIMIT 1\n")

# Researchers by internal id (DataLoader): id, node.
RESEARCHERS_BY_IDS: LiteralString = lean("""
UNWIND $ids AS id MATCH (n:Researcher {id: id}) RETURN id, n {.*} AS node
""")

# Paper-based metrics of the researcher `who` (the body of a `CALL (who) { … }`; one row, also with no
# papers): paper_count, citation_count, h_index, i10_index. A fragment, so the three queries reading
# metrics (RESEARCHER_STATS, RESEARCHER_PROFILE, read_papers.PAPER_DETAILS) count them alike.
METRICS_OF_WHO: LiteralString = """
  OPTIONAL MATCH (who)-[:AUTHORED]->(metrics_paper:Paper)
  WITH CASE WHEN metrics_paper IS NULL THEN null ELSE coalesce(metrics_paper.cited_by_count, 0) END AS cites
  ORDER BY cites DESC
  WITH collect(cites) AS counts
  RETURN size(counts) AS paper_count,
         reduce(total = 0, c IN counts | total + c) AS citation_count,
         size([k IN range(0, size(counts) - 1) WHERE counts[k] >= k + 1]) AS h_index,
         size([c IN counts WHERE c >= 10]) AS i10_index
"""

# Paper-based metrics of many researchers (DataLoader): id, paper_count, citation_count, h_index, i10_index.
RESEARCHER_STATS: LiteralString = (
    """
UNWIND $ids AS rid
MATCH (who:Researcher {id: rid})
CALL (who) {"""
    + METRICS_OF_WHO
    + """}
RETURN rid AS id, paper_count, citation_count, h_index, i10_index
"""
)

# Author positions of many researchers over their papers whose author list is complete (DataLoader):
# id, first, middle, last, matched_papers.
AUTHOR_POSITIONS: LiteralString = """
UNWIND $ids AS rid
MATCH (r:Researcher {id: rid})
CALL (r) {
  OPTIONAL MATCH (r)-[a:AUTHORED]->(p:Paper) WHERE NOT coalesce(p.is_authors_truncated, false)
  RETURN count(CASE WHEN a.position = 'first' THEN 1 END) AS first,
         count(CASE WHEN a.position = 'middle' THEN 1 END) AS middle,
         count(CASE WHEN a.position = 'last' THEN 1 END) AS last,
         count(DISTINCT p) AS matched_papers
}
RETURN rid AS id, first, middle, last, matched_papers
"""

# Categories of one scheme over many researchers' papers, most papers first (DataLoader; $keys are
# [{id, scheme, limit}]): id, scheme, limit, fields [{category, count}].
RESEARCHER_FIELDS: LiteralString = """
UNWIND $keys AS k
CALL (k) {
  MATCH (:Researcher {id: k.id})-[:AUTHORED]->(p:Paper)-[:IN_CATEGORY]->(c:Category {scheme: k.scheme})
  WITH c, count(DISTINCT p) AS count ORDER BY count DESC, c.name, c.id
  RETURN collect({category: c {.id, .key, .name, .scheme, .level}, count: count}) AS found
}
RETURN k.id AS id, k.scheme AS scheme, k.limit AS limit, found[0..k.limit] AS fields
"""

# Institutions of many researchers with years and how many of their papers state each, most recent
# first (DataLoader): id, institution, first_year, last_year, paper_count.
# A fragment: the institutions researcher `r` (bound by the caller) is affiliated with, as rows `af, i, n`,
# with `n` the papers of r whose authorship states i: one pass over r's papers counting the ids they state,
# joined to the affiliations by index, and every affiliation again with 0 (group by af, i and take the max).
# Counting per institution instead (every paper of r for every institution) took 193 s for a researcher
# of 17,459 papers and 2,456 institutions in the million-work graph; this takes under a second.
_AFFILIATION_PAPER_COUNTS: LiteralString = """
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
"""

RESEARCHER_INSTITUTIONS: LiteralString = lean(
    """
UNWIND $ids AS rid
MATCH (r:Researcher {id: rid})"""
    + _AFFILIATION_PAPER_COUNTS
    + """WITH rid, af, i, max(n) AS paper_count
RETURN rid AS id, i {.*} AS institution, af.first_year AS first_year, af.last_year AS last_year, paper_count
ORDER BY id, coalesce(af.last_year, 0) DESC, paper_count DESC, i.name
"""
)

# What supports a SAME_NAME_AS link, counted when it is read (graph/MODEL.md "Same-name evidence"), so it
# is never stale and a load does not revisit the links of researchers it adds papers to. A fragment: given
# `r` with what _SAME_NAME_OWN reads of it once (`r_first`, `r_last`, `r_institutions`) and `o`, a
# researcher linked to it, it adds `evidence`, the lines of the numbers that are not zero, in this order:
# the name key (of an `o` with more papers than `r`, the years are read only as far as the overlap needs:
# whether it has a paper as early as `r`'s first and as late as its last, the first such paper answering,
# its whole span only when not);
# co-authors both are COAUTHORED_WITH (each tie of the end with fewer ties looked up from the
# other end by its pair key, one index seek: an expand-into from a prolific end walked thousands of ties
# per co-author); institutions both are AFFILIATED_WITH; years both spans hold; papers both authored
# (from the end with fewer papers, papers above the pair-edge limit included).
SAME_NAME_EVIDENCE: LiteralString = (
    """
CALL (r, o, r_first, r_last, r_institutions) {
  WITH r, o, r_first, r_last, r_institutions,
       COUNT { (r)-[:COAUTHORED_WITH]-() } <= COUNT { (o)-[:COAUTHORED_WITH]-() } AS r_fewer_ties,
       COUNT { (r)-[:AUTHORED]->() } <= COUNT { (o)-[:AUTHORED]->() } AS r_fewer_papers
  WITH r, o, r_first, r_last, r_institutions,
       CASE WHEN r_fewer_ties THEN r ELSE o END AS tie_light,
       CASE WHEN r_fewer_ties THEN o.id ELSE r.id END AS heavy_id,
       CASE WHEN r_fewer_papers THEN r ELSE o END AS paper_light,
       CASE WHEN r_fewer_papers THEN o ELSE r END AS paper_heavy
  CALL (o, r_first, r_last, paper_light) {
    WITH o, r_first, r_last, o <> paper_light AND r_first IS NOT NULL AS prolific
    WITH o, r_first, r_last,
         prolific AND EXISTS { (o)-[:AUTHORED]->(p:Paper) WHERE p.year <= r_first } AS reaches_first,
         prolific AND EXISTS { (o)-[:AUTHORED]->(p:Paper) WHERE p.year >= r_last } AS reaches_last
    OPTIONAL CALL (o, r_first, reaches_first, reaches_last) {
      WITH o WHERE r_first IS NOT NULL AND NOT (reaches_first AND reaches_last)
      MATCH (o)-[:AUTHORED]->(p:Paper)
      RETURN min(p.year) AS earliest, max(p.year) AS latest
    }
    RETURN CASE WHEN reaches_first THEN r_first ELSE earliest END AS o_first,
           CASE WHEN reaches_last THEN r_last ELSE latest END AS o_last
  }
  WITH r, o,
       COUNT { MATCH (tie_light)-[:COAUTHORED_WITH]-(c:Researcher)
               WITH DISTINCT c,
                    """
    + pair_key("c.id", "heavy_id")
    + """ AS key
               MATCH ()-[t:COAUTHORED_WITH {pair: key}]->()
               USING INDEX SEEK t:COAUTHORED_WITH(pair)
               RETURN c } AS coauthors,
       COUNT { MATCH (o)-[:AFFILIATED_WITH]->(i:Institution) WHERE i.id IN r_institutions
               RETURN DISTINCT i } AS institutions,
       CASE WHEN r_first IS NULL OR o_first IS NULL THEN 0
            ELSE (CASE WHEN r_last < o_last THEN r_last ELSE o_last END)
                 - (CASE WHEN r_first > o_first THEN r_first ELSE o_first END) + 1 END AS overlap,
       COUNT { MATCH (paper_light)-[:AUTHORED]->(p:Paper) WHERE EXISTS { (p)<-[:AUTHORED]-(paper_heavy) }
               RETURN DISTINCT p } AS papers
  RETURN ['same name key: ' + r.name_key]
         + CASE WHEN coauthors > 0 THEN ['shared co-authors: ' + toString(coauthors)] ELSE [] END
         + CASE WHEN institutions > 0 THEN ['shared institutions: ' + toString(institutions)] ELSE [] END
         + CASE WHEN overlap > 0 THEN ['overlapping years: ' + toString(overlap)] ELSE [] END
         + CASE WHEN papers > 0 THEN ['listed together on ' + toString(papers) + ' paper(s)'] ELSE [] END AS evidence
}
"""
)

# What SAME_NAME_EVIDENCE reads once of `r` when it has a SAME_NAME_AS link: the span of its papers' years
# (r_first, r_last) and the ids of the institutions it is AFFILIATED_WITH (r_institutions).
_SAME_NAME_OWN: LiteralString = """
CALL (r) {
  WITH r WHERE EXISTS { (r)-[:SAME_NAME_AS]-() }
  MATCH (r)-[:AUTHORED]->(p:Paper)
  RETURN min(p.year) AS r_first, max(p.year) AS r_last
}
WITH *, CASE WHEN EXISTS { (r)-[:SAME_NAME_AS]-() }
            THEN COLLECT { MATCH (r)-[:AFFILIATED_WITH]->(i:Institution) RETURN DISTINCT i.id }
            ELSE [] END AS r_institutions
"""

# Researchers sharing each researcher's name key, linked by SAME_NAME_AS, with the evidence
# (SAME_NAME_EVIDENCE; DataLoader): id, researcher, evidence.
RESEARCHER_SAME_NAME: LiteralString = lean(
    """
UNWIND $ids AS rid
MATCH (r:Researcher {id: rid})"""
    + _SAME_NAME_OWN
    + """MATCH (r)-[:SAME_NAME_AS]-(o:Researcher)"""
    + SAME_NAME_EVIDENCE
    + """RETURN rid AS id, o {.*} AS researcher, evidence ORDER BY id, o.name, o.id
"""
)

# The most cited paper of many researchers, ties to the newest (DataLoader): id, node.
MOST_CITED_PAPER: LiteralString = lean("""
UNWIND $ids AS rid
MATCH (:Researcher {id: rid})-[:AUTHORED]->(p:Paper)
WITH rid, p ORDER BY coalesce(p.cited_by_count, 0) DESC, coalesce(p.publication_date, '') DESC, p.id
WITH rid, collect(p)[0] AS top
RETURN rid AS id, top {.*} AS node
""")

# Pages of each researcher's co-authors with weight >= min_weight, by WEIGHT or by most recent
# shared year (DataLoader; $keys are [{id, min_weight, sort, skip, end}]):
# id, min_weight, sort, skip, end, total, page [{researcher, weight, first_year, last_year}].
COAUTHOR_PAGES: LiteralString = lean("""
UNWIND $keys AS k
CALL (k) {
  OPTIONAL MATCH (:Researcher {id: k.id})-[c:COAUTHORED_WITH]-(o:Researcher)
  WHERE coalesce(c.weight, 0) >= k.min_weight
  WITH o, c ORDER BY
    CASE WHEN k.sort = 'RECENT' THEN coalesce(c.last_year, 0) ELSE 0 END DESC,
    c.weight DESC, o.name, o.id
  RETURN collect(CASE WHEN o IS NULL THEN null ELSE
    {researcher: o, weight: c.weight, first_year: c.first_year, last_year: c.last_year} END) AS found
}
RETURN k.id AS id, k.min_weight AS min_weight, k.sort AS sort, k.skip AS skip, k.end AS end,
       size(found) AS total,
       [x IN found[k.skip..k.end] | {researcher: head([one IN [x.researcher] | one {.*}]), weight: x.weight,
                                     first_year: x.first_year, last_year: x.last_year}] AS page
""")


# A researcher's profile in one round trip (issue 9): the researcher answering the first key of $keys, and
# each part the GraphQL selection asks for, read by a subquery that runs only when its parameter says so.
# $want: {stats, positions, most_cited, institutions, same_name} booleans; $fields: {scheme, limit},
# $papers: {year_from, year_to, sort, skip, end} and $coauthors: {min_weight, sort, skip, end, stats}, or
# null when not asked. Each part reads what the DataLoader query of the same name reads, in the same order:
# RESEARCHER_STATS, AUTHOR_POSITIONS, RESEARCHER_FIELDS, MOST_CITED_PAPER, RESEARCHER_INSTITUTIONS,
# RESEARCHER_SAME_NAME, read_papers.RESEARCHER_PAPER_PAGES (no category filter) and COAUTHOR_PAGES (with
# the metrics of the co-authors on the page when $coauthors.stats; each one's paper count, its AUTHORED
# degree, in its node map when $coauthors.paper_counts: no paper of a prolific co-author is read for it).
# Returns node, stats, positions, fields, most_cited, institutions, same_name, papers {total, page},
# coauthors {total, page, metrics}; a part not asked is null or an empty value to ignore. The statement a
# request runs holds only the parts it asks (`researcher_profile(parts)`, one of at most 256 texts, each
# planned once); RESEARCHER_PROFILE is the one with every part.
def _part(opening: LiteralString, rest: LiteralString) -> LiteralString:
    return "OPTIONAL CALL (r) {\n  " + opening + rest + "}\n"


_PROFILE_PARTS: dict[str, tuple[LiteralString, LiteralString]] = {
    "stats": (
        _part("WITH r AS who WHERE $want.stats", METRICS_OF_WHO),
        "{paper_count: paper_count, citation_count: citation_count, h_index: h_index, i10_index: i10_index} AS stats",
    ),
    "positions": (
        _part(
            "WITH r WHERE $want.positions",
            """
  OPTIONAL MATCH (r)-[a:AUTHORED]->(p:Paper) WHERE NOT coalesce(p.is_authors_truncated, false)
  WITH count(CASE WHEN a.position = 'first' THEN 1 END) AS first,
       count(CASE WHEN a.position = 'middle' THEN 1 END) AS middle,
       count(CASE WHEN a.position = 'last' THEN 1 END) AS last,
       count(DISTINCT p) AS matched_papers
  RETURN {first: first, middle: middle, last: last, matched_papers: matched_papers} AS positions
""",
        ),
        "positions",
    ),
    "fields": (
        _part(
            "WITH r WHERE $fields IS NOT NULL",
            """
  MATCH (r)-[:AUTHORED]->(p:Paper)-[:IN_CATEGORY]->(c:Category {scheme: $fields.scheme})
  WITH c, count(DISTINCT p) AS count ORDER BY count DESC, c.name, c.id
  WITH collect({category: c {.id, .key, .name, .scheme, .level}, count: count}) AS found
  RETURN found[0..coalesce($fields.limit, 0)] AS fields
""",
        ),
        "fields",
    ),
    "most_cited": (
        _part(
            "WITH r WHERE $want.most_cited",
            """
  MATCH (r)-[:AUTHORED]->(p:Paper)
  WITH p ORDER BY coalesce(p.cited_by_count, 0) DESC, coalesce(p.publication_date, '') DESC, p.id
  WITH collect(p)[0] AS top
  RETURN top {.*} AS most_cited
""",
        ),
        "most_cited",
    ),
    "institutions": (
        _part(
            "WITH r WHERE $want.institutions",
            _AFFILIATION_PAPER_COUNTS
            + """  WITH i, af, max(n) AS paper_count ORDER BY coalesce(af.last_year, 0) DESC, paper_count DESC, i.name
  RETURN collect({institution: i {.*}, first_year: af.first_year, last_year: af.last_year,
                  paper_count: paper_count}) AS institutions
""",
        ),
        "institutions",
    ),
    "same_name": (
        _part(
            "WITH r WHERE $want.same_name",
            _SAME_NAME_OWN
            + "  MATCH (r)-[:SAME_NAME_AS]-(o:Researcher)"
            + SAME_NAME_EVIDENCE
            + """  WITH o, evidence ORDER BY o.name, o.id
  RETURN collect({researcher: o {.*}, evidence: evidence}) AS same_name
""",
        ),
        "same_name",
    ),
    "papers": (
        _part(
            "WITH r WHERE $papers IS NOT NULL",
            """
  OPTIONAL MATCH (r)-[:AUTHORED]->(p:Paper)
  WHERE ($papers.year_from IS NULL OR p.year >= $papers.year_from)
    AND ($papers.year_to IS NULL OR p.year <= $papers.year_to)
  WITH p ORDER BY
    CASE WHEN $papers.sort = 'MOST_CITED' THEN coalesce(p.cited_by_count, 0) ELSE 0 END DESC,
    CASE WHEN $papers.sort = 'NEWEST' THEN coalesce(p.publication_date, toString(p.year), '') ELSE '' END DESC,
    CASE WHEN $papers.sort = 'OLDEST' THEN coalesce(p.publication_date, toString(p.year), '9999') ELSE '' END ASC,
    CASE WHEN $papers.sort = 'MOST_CITED' THEN coalesce(p.publication_date, '') ELSE '' END DESC,
    p.id
  WITH collect(p) AS found
  RETURN {total: size(found), page: [x IN found[$papers.skip..$papers.end] | """
            + picked("x", "$papers.props")
            + """]} AS papers
""",
        ),
        "papers",
    ),
    "coauthors": (
        _part(
            "WITH r WHERE $coauthors IS NOT NULL",
            """
  OPTIONAL MATCH (r)-[c:COAUTHORED_WITH]-(o:Researcher)
  WHERE coalesce(c.weight, 0) >= $coauthors.min_weight
  WITH o, c ORDER BY
    CASE WHEN $coauthors.sort = 'RECENT' THEN coalesce(c.last_year, 0) ELSE 0 END DESC,
    c.weight DESC, o.name, o.id
  WITH collect(CASE WHEN o IS NULL THEN null ELSE
    {researcher: o, weight: c.weight, first_year: c.first_year, last_year: c.last_year} END) AS found
  WITH found, found[$coauthors.skip..$coauthors.end] AS shown
  OPTIONAL CALL (shown) {
    WITH shown WHERE $coauthors.stats
    UNWIND shown AS x
    WITH x.researcher AS who
    CALL (who) {"""
            + METRICS_OF_WHO
            + """}
    RETURN collect({id: who.id, paper_count: paper_count, citation_count: citation_count, h_index: h_index,
                    i10_index: i10_index}) AS metrics
  }
  RETURN {total: size(found), metrics: metrics,
          page: [x IN shown | {researcher: head([one IN [x.researcher] | """
            + picked(
                "one",
                "$coauthors.props",
                ("paper_count", "CASE WHEN $coauthors.paper_counts THEN COUNT { (one)-[:AUTHORED]->() } END"),
            )
            + """]),
                               weight: x.weight, first_year: x.first_year, last_year: x.last_year}]} AS coauthors
""",
        ),
        "coauthors",
    ),
}
PROFILE_PARTS: frozenset[str] = frozenset(_PROFILE_PARTS)
"""The parts a profile may read with the researcher (graph/reads/researchers.py ProfileParts.names)."""


@cache
def researcher_profile(parts: frozenset[str], key: str | None = None) -> LiteralString:
    """RESEARCHER_PROFILE with the subqueries of `parts` alone, the others' columns null: a part not asked
    costs nothing, where a subquery switched off by its parameter still cost ~40 us (issue 9). `key`: the
    property of the one key in $keys, when there is one (then looked up by that index alone)."""
    columns: list[LiteralString] = [
        column if name in parts else "null AS " + column.split(" AS ")[-1]
        for name, (_, column) in _PROFILE_PARTS.items()
    ]
    return lean(
        _RESEARCHER_BY_ONE_KEY.get(key or "", RESEARCHERS_BY_KEYS)
        + "WITH n AS r ORDER BY rank LIMIT 1\n"
        + "".join(block for name, (block, _) in _PROFILE_PARTS.items() if name in parts)
        + "RETURN r {.*} AS node, "
        + ", ".join(columns)
        + "\n"
    )


RESEARCHER_PROFILE: LiteralString = researcher_profile(PROFILE_PARTS)
