"""Read queries for researchers: lookups, batched stats, profile aggregates, co-authors."""

from typing import LiteralString

# The researcher answering the first matching key of $keys ([{property, value}]): node.
RESEARCHER_LOOKUP: LiteralString = """
UNWIND range(0, size($keys) - 1) AS rank
WITH rank, $keys[rank] AS k
CALL (k) {
  MATCH (n:Researcher) WHERE k.property = 'id' AND n.id = k.value RETURN n
  UNION MATCH (n:Researcher) WHERE k.property = 'openalex_id' AND n.openalex_id = k.value RETURN n
  UNION MATCH (n:Researcher) WHERE k.property = 'orcid' AND n.orcid = k.value RETURN n
  UNION MATCH (n:Researcher) WHERE k.property = 's2_id' AND n.s2_id IN [k.value, toInteger(k.value)] RETURN n
}
RETURN n {.*} AS node ORDER BY rank LIMIT 1
"""

# The researcher that kept $value among its `aliases` after a merge: node.
RESEARCHER_BY_ALIAS: LiteralString = """
MATCH (n:Researcher) WHERE $value IN n.aliases RETURN n {.*} AS node LIMIT 1
"""

# Researchers by internal id (DataLoader): id, node.
RESEARCHERS_BY_IDS: LiteralString = """
UNWIND $ids AS id MATCH (n:Researcher {id: id}) RETURN id, n {.*} AS node
"""

# Paper-based metrics of many researchers (DataLoader): id, paper_count, citation_count, h_index, i10_index.
RESEARCHER_STATS: LiteralString = """
UNWIND $ids AS rid
MATCH (r:Researcher {id: rid})
CALL (r) {
  OPTIONAL MATCH (r)-[:AUTHORED]->(p:Paper)
  WITH p, CASE WHEN p IS NULL THEN null ELSE coalesce(p.cited_by_count, 0) END AS cites
  ORDER BY cites DESC
  WITH collect(cites) AS counts
  RETURN size(counts) AS paper_count,
         reduce(total = 0, c IN counts | total + c) AS citation_count,
         size([k IN range(0, size(counts) - 1) WHERE counts[k] >= k + 1]) AS h_index,
         size([c IN counts WHERE c >= 10]) AS i10_index
}
RETURN rid AS id, paper_count, citation_count, h_index, i10_index
"""

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
RESEARCHER_INSTITUTIONS: LiteralString = """
UNWIND $ids AS rid
MATCH (r:Researcher {id: rid})-[af:AFFILIATED_WITH]->(i:Institution)
CALL (r, i) {
  OPTIONAL MATCH (r)-[a:AUTHORED]->(p:Paper) WHERE i.id IN coalesce(a.institution_ids, [])
  RETURN count(DISTINCT p) AS paper_count
}
RETURN rid AS id, i {.*} AS institution, af.first_year AS first_year, af.last_year AS last_year, paper_count
ORDER BY id, coalesce(af.last_year, 0) DESC, paper_count DESC, i.name
"""

# Researchers sharing each researcher's name key, linked by SAME_NAME_AS (DataLoader): id, researcher, evidence.
RESEARCHER_SAME_NAME: LiteralString = """
UNWIND $ids AS rid
MATCH (:Researcher {id: rid})-[s:SAME_NAME_AS]-(o:Researcher)
RETURN rid AS id, o {.*} AS researcher, coalesce(s.evidence, []) AS evidence ORDER BY id, o.name, o.id
"""

# The most cited paper of many researchers, ties to the newest (DataLoader): id, node.
MOST_CITED_PAPER: LiteralString = """
UNWIND $ids AS rid
MATCH (:Researcher {id: rid})-[:AUTHORED]->(p:Paper)
WITH rid, p ORDER BY coalesce(p.cited_by_count, 0) DESC, coalesce(p.publication_date, '') DESC, p.id
WITH rid, collect(p)[0] AS top
RETURN rid AS id, top {.*} AS node
"""

# Pages of each researcher's co-authors with weight >= min_weight, by WEIGHT or by most recent
# shared year (DataLoader; $keys are [{id, min_weight, sort, skip, end}]):
# id, min_weight, sort, skip, end, total, page [{researcher, weight, first_year, last_year}].
COAUTHOR_PAGES: LiteralString = """
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
       [x IN found[k.skip..k.end] | {researcher: properties(x.researcher), weight: x.weight,
                                     first_year: x.first_year, last_year: x.last_year}] AS page
"""
