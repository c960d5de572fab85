"""Read queries for institutions: lookups, hierarchy, roster, collaborating institutions."""

from typing import LiteralString

from weft.queries.aliases import by_alias
from weft.queries.projection import lean, picked

# The institutions answering each key of $keys ([{property, value}], most specific first), with the key's
# rank: rank, n. A fragment: INSTITUTION_LOOKUP and INSTITUTION_DETAILS continue it.
_INSTITUTIONS_BY_KEYS: LiteralString = """
UNWIND range(0, size($keys) - 1) AS rank
WITH rank, $keys[rank] AS k
CALL (k) {
  MATCH (n:Institution) WHERE k.property = 'id' AND n.id = k.value RETURN n
  UNION MATCH (n:Institution) WHERE k.property = 'ror' AND n.ror = k.value RETURN n
  UNION MATCH (n:Institution) WHERE k.property = 'openalex_id' AND n.openalex_id = k.value RETURN n
}
"""

# The institution answering the first matching key of $keys ([{property, value}]): node.
INSTITUTION_LOOKUP: LiteralString = lean(_INSTITUTIONS_BY_KEYS + "RETURN n {.*} AS node ORDER BY rank LIMIT 1\n")

# The institution that kept $value among its `aliases` after a merge: node.
INSTITUTION_BY_ALIAS: LiteralString = lean(by_alias("Institution", "$value") + "RETURN n {.*} AS node LIMIT 1\n")

# Candidates for an exact-name lookup: the institutions whose folded `name_key` is $key, and
# full-text hits for the escaped Lucene $query (alternative names): node.
INSTITUTION_NAME_CANDIDATES: LiteralString = lean("""
CALL () {
  MATCH (n:Institution {name_key: $key}) RETURN n
  UNION
  CALL db.index.fulltext.queryNodes('institution_text', $query, {limit: 200}) YIELD node
  RETURN node AS n
}
RETURN n {.*} AS node
""")

# Institutions by internal id (DataLoader): id, node.
INSTITUTIONS_BY_IDS: LiteralString = lean("""
UNWIND $ids AS id MATCH (n:Institution {id: id}) RETURN id, n {.*} AS node
""")

# Parents of many institutions (DataLoader): id, parent (node map).
PARENTS_OF_INSTITUTIONS: LiteralString = lean("""
UNWIND $ids AS iid
MATCH (:Institution {id: iid})-[:PART_OF]->(parent:Institution)
RETURN iid AS id, parent {.*} AS parent ORDER BY id, parent.name
""")

# Children of many institutions (DataLoader): id, child (node map).
CHILDREN_OF_INSTITUTIONS: LiteralString = lean("""
UNWIND $ids AS iid
MATCH (:Institution {id: iid})<-[:PART_OF]-(child:Institution)
RETURN iid AS id, child {.*} AS child ORDER BY id, child.name
""")

# Ids of $id and (when $include_children) every institution PART_OF it, transitively: ids.
INSTITUTION_FAMILY: LiteralString = """
MATCH (root:Institution {id: $id})
OPTIONAL MATCH (c:Institution)-[:PART_OF*1..6]->(root) WHERE $include_children
WITH root, collect(DISTINCT c.id) AS descendants
RETURN [root.id] + descendants AS ids
"""

# Ids of many institutions' families: each one and (when include_children) every institution PART_OF
# it, transitively (DataLoader; $keys are [{id, include_children}]): key, ids.
INSTITUTION_FAMILIES: LiteralString = """
UNWIND $keys AS k
MATCH (root:Institution {id: k.id})
OPTIONAL MATCH (c:Institution)-[:PART_OF*1..6]->(root) WHERE k.include_children
WITH k, root, collect(DISTINCT c.id) AS descendants
RETURN k AS key, [root.id] + descendants AS ids
"""

# One roster, for the key map k ({ids, year_from, year_to}): researchers affiliated with any of ids, their
# years overlapping year_from..year_to, most papers stating these institutions (in those years) first.
# The body of a `CALL (k) { … }`: found [{researcher (node), paper_count, first_year, last_year}].
# With one institution and no years, the count is the `papers` its AFFILIATED_WITH edge stores (the
# derived count of the same papers): a researcher with 17,000 papers is not read paper by paper for each
# of their 2,500 institutions' rosters. Several institutions (a paper may state two) or a window count.
_ROSTER_OF_K: LiteralString = """
  MATCH (r:Researcher)-[af:AFFILIATED_WITH]->(i:Institution)
  WHERE i.id IN k.ids
  WITH k, r, min(af.first_year) AS first_year, max(af.last_year) AS last_year, sum(af.papers) AS stated,
    count(af) AS links, count(af.papers) AS stored
  WHERE (k.year_from IS NULL OR last_year IS NULL OR last_year >= k.year_from)
    AND (k.year_to IS NULL OR first_year IS NULL OR first_year <= k.year_to)
  OPTIONAL CALL (k, r, links, stored) {
    WITH k, r WHERE links > 1 OR stored < links OR k.year_from IS NOT NULL OR k.year_to IS NOT NULL
    OPTIONAL MATCH (r)-[a:AUTHORED]->(p:Paper)
    WHERE any(x IN coalesce(a.institution_ids, []) WHERE x IN k.ids)
      AND (k.year_from IS NULL OR p.year >= k.year_from) AND (k.year_to IS NULL OR p.year <= k.year_to)
    WITH r, count(DISTINCT p) AS counted  // grouped by r: no row (counted null) when not counted
    RETURN counted
  }
  WITH r, coalesce(counted, stated) AS paper_count, first_year, last_year ORDER BY paper_count DESC, r.name, r.id
  RETURN collect({researcher: r, paper_count: paper_count, first_year: first_year, last_year: last_year}) AS found
"""

# Rows k.skip..k.end of a roster's `found`, each researcher as its properties: page.
_ROSTER_ROWS: LiteralString = lean("""[x IN found[k.skip..k.end] |
  {researcher: head([one IN [x.researcher] | one {.*}]), paper_count: x.paper_count,
   first_year: x.first_year, last_year: x.last_year}]""")

# Roster pages (DataLoader; $keys are [{ids, year_from, year_to, skip, end}]): researchers affiliated
# with any of ids, their years overlapping year_from..year_to, most papers stating these institutions
# (in those years) first: key, total, page [{researcher, paper_count, first_year, last_year}].
ROSTER_PAGES: LiteralString = (
    "UNWIND $keys AS k\nCALL (k) {"
    + _ROSTER_OF_K
    + "}\nRETURN k AS key, size(found) AS total, "
    + _ROSTER_ROWS
    + " AS page\n"
)

# The institutions stated on papers that also state institution k.id (STATES_AFFILIATION: some authorship
# of the paper names it), most such papers first: co-publications, the usual measure of institutional
# collaboration, and bounded by the institution's own papers (each states a handful of institutions).
# (A paper has one STATES_AFFILIATION per institution, so the pattern's two differ and j is never k.)
# The body of a `CALL (k) { … }`: found [{institution (node), weight (shared papers), shared (them)}].
_COLLABORATORS_OF_K: LiteralString = """
  MATCH (:Institution {id: k.id})<-[:STATES_AFFILIATION]-(p:Paper)-[:STATES_AFFILIATION]->(j)
  WITH j, collect(p) AS shared
  ORDER BY size(shared) DESC, j.name, j.id
  RETURN collect({institution: j, weight: size(shared), shared: shared}) AS found
"""

# Rows k.skip..k.end of the collaborators' `found`, each institution as its properties, and when
# k.researchers how many researchers state it on the shared papers (null otherwise): page.
_COLLABORATOR_ROWS: LiteralString = lean("""[x IN found[k.skip..k.end] |
  {institution: head([one IN [x.institution] | one {.*}]), weight: x.weight,
   researchers: CASE WHEN k.researchers THEN COUNT {
     WITH x.institution.id AS jid, x.shared AS shared
     UNWIND shared AS p
     MATCH (p)<-[au:AUTHORED]-(r:Researcher) WHERE jid IN au.institution_ids
     RETURN DISTINCT r } END}]""")

# Pages of the institutions each institution co-publishes with, most shared papers first (DataLoader;
# $keys are [{id, skip, end, researchers}]): key, total, page [{institution, weight, researchers}].
COLLABORATOR_PAGES: LiteralString = (
    "UNWIND $keys AS k\nCALL (k) {"
    + _COLLABORATORS_OF_K
    + "}\nRETURN k AS key, size(found) AS total, "
    + _COLLABORATOR_ROWS
    + " AS page\n"
)

# The papers with an authorship stating any of k.ids, optionally in k.categories and k.year_from..k.year_to,
# in k.sort order (NEWEST|OLDEST|MOST_CITED). The body of a `CALL (k) { … }`: found (nodes).
_PAPERS_OF_K: LiteralString = """
  MATCH (i:Institution)<-[:STATES_AFFILIATION]-(p:Paper)
  WHERE i.id IN k.ids
  WITH DISTINCT k, p
  WHERE (k.year_from IS NULL OR p.year >= k.year_from) AND (k.year_to IS NULL OR p.year <= k.year_to)
    AND (k.categories IS NULL OR EXISTS { (p)-[:IN_CATEGORY]->(c:Category) WHERE c.id IN k.categories })
  WITH k, p, CASE k.sort WHEN 'MOST_CITED' THEN p.sort_cited
    WHEN 'OLDEST' THEN CASE p.sort_date WHEN '' THEN 0 ELSE 1 END ELSE 0 END AS rank
  ORDER BY rank DESC,
    CASE WHEN k.sort = 'OLDEST' THEN p.sort_date ELSE '' END ASC,
    CASE WHEN k.sort = 'OLDEST' THEN '' ELSE p.sort_date END DESC,
    p.id
  RETURN collect(p) AS found
"""

# Pages of papers with an authorship stating any of ids, optionally in categories and a year range,
# sorted by sort (NEWEST|OLDEST|MOST_CITED) (DataLoader; $keys are
# [{ids, categories, year_from, year_to, sort, skip, end}]): key, total, page (node maps).
INSTITUTION_PAPER_PAGES: LiteralString = lean(
    "UNWIND $keys AS k\nCALL (k) {"
    + _PAPERS_OF_K
    + "}\nRETURN k AS key, size(found) AS total, [x IN found[k.skip..k.end] | x {.*}] AS page\n"
)

# An institution page in one round trip (issue 9): the institution answering the first key of $keys and
# each part the GraphQL selection asks for, read by a subquery that runs only when its parameter says so:
# $parents, $children (booleans); $roster {year_from, year_to, skip, end}, $most_cited {end} (its first papers, most
# cited first) and $collaborators {skip, end, researchers}, or null when not asked. Each part reads what the DataLoader
# query of the same name reads, in the same order (PARENTS_OF_INSTITUTIONS, CHILDREN_OF_INSTITUTIONS, ROSTER_PAGES,
# INSTITUTION_PAPER_PAGES, COLLABORATOR_PAGES) for this institution alone.
# Returns node, parents, children (node maps), roster, most_cited, collaborators ({total, page} each, as those
# queries return them; null when not asked).
INSTITUTION_DETAILS: LiteralString = lean(
    _INSTITUTIONS_BY_KEYS
    + """WITH n AS inst ORDER BY rank LIMIT 1
OPTIONAL CALL (inst) {
  WITH inst WHERE $parents
  MATCH (inst)-[:PART_OF]->(parent:Institution)
  WITH parent ORDER BY parent.name
  RETURN collect(parent {.*}) AS parents
}
OPTIONAL CALL (inst) {
  WITH inst WHERE $children
  MATCH (inst)<-[:PART_OF]-(child:Institution)
  WITH child ORDER BY child.name
  RETURN collect(child {.*}) AS children
}
OPTIONAL CALL (inst) {
  WITH {ids: [inst.id], year_from: $roster.year_from, year_to: $roster.year_to, skip: $roster.skip,
        end: $roster.end} AS k
  WHERE $roster IS NOT NULL
  CALL (k) {"""
    + _ROSTER_OF_K
    + """}
  RETURN {total: size(found), page: [x IN found[k.skip..k.end] |
    {researcher: head([one IN [x.researcher] | """
    + picked("one", "$roster.props")
    + """]), paper_count: x.paper_count, first_year: x.first_year, last_year: x.last_year}]} AS roster
}
OPTIONAL CALL (inst) {
  WITH {ids: [inst.id], categories: null, year_from: null, year_to: null, sort: 'MOST_CITED', skip: 0,
        end: $most_cited.end} AS k
  WHERE $most_cited IS NOT NULL
  CALL (k) {"""
    + _PAPERS_OF_K
    + """}
  RETURN {total: size(found), page: [x IN found[k.skip..k.end] | x {.*}]} AS most_cited
}
OPTIONAL CALL (inst) {
  WITH {id: inst.id, skip: $collaborators.skip, end: $collaborators.end, researchers: $collaborators.researchers} AS k
  WHERE $collaborators IS NOT NULL
  CALL (k) {"""
    + _COLLABORATORS_OF_K
    + """}
  RETURN {total: size(found), page: """
    + _COLLABORATOR_ROWS
    + """} AS collaborators
}
RETURN inst {.*} AS node, parents, children, roster, most_cited, collaborators
"""
)
