"""Cypher for the site's own reads (graph/reads/site.py): what the graph holds, and every page's id for the sitemap."""

from typing import LiteralString

# What the home page and llms.txt say the graph holds: nodes per label (count store), papers per
# source id (unique-constraint indexes) and citation links. One row.
SITE_COUNTS: LiteralString = """
CALL () { MATCH (p:Paper) RETURN count(p) AS papers }
CALL () { MATCH (r:Researcher) RETURN count(r) AS researchers }
CALL () { MATCH (i:Institution) RETURN count(i) AS institutions }
CALL () { MATCH (c:Category) RETURN count(c) AS categories }
CALL () { MATCH (:Paper)-[x:CITES]->(:Paper) RETURN count(x) AS citations }
CALL () { MATCH (p:Paper) WHERE p.openalex_id IS NOT NULL RETURN count(p) AS openalex }
CALL () { MATCH (p:Paper) WHERE p.s2_id IS NOT NULL RETURN count(p) AS s2 }
CALL () { MATCH (p:Paper) WHERE p.arxiv_id IS NOT NULL RETURN count(p) AS arxiv }
RETURN papers, researchers, institutions, categories, citations, openalex, s2, arxiv
"""

# The sitemap's rows, in id order from the unique index: `$limit` nodes after id `$after` (skipping
# `$skip` first), each with what its canonical path and lastmod are made of.
SITEMAP_PAPERS: LiteralString = """
MATCH (n:Paper) WHERE n.id > $after
WITH n ORDER BY n.id SKIP $skip LIMIT $limit
RETURN n {.id, .arxiv_id, .openalex_id, .title, .updated_date} AS node
"""

SITEMAP_RESEARCHERS: LiteralString = """
MATCH (n:Researcher) WHERE n.id > $after
WITH n ORDER BY n.id SKIP $skip LIMIT $limit
RETURN n {.id, .name, .updated_date} AS node
"""

SITEMAP_INSTITUTIONS: LiteralString = """
MATCH (n:Institution) WHERE n.id > $after
WITH n ORDER BY n.id SKIP $skip LIMIT $limit
RETURN n {.id, .name, .updated_date} AS node
"""

# The index pages (/papers, /researchers, /institutions): `$limit` nodes after the first `$skip` in the
# order of a range index (papers: paper_sort_cited, the API's MOST_CITED order; the others: their name_key
# index), equal keys by id (PartialTop sorts only those), so a page costs its skip over the index, never a
# sort of every node; with the number listed (count store for papers, the name_key index for the others,
# which lists only the named). Returns total, page.
INDEX_PAPERS: LiteralString = """
CALL () { MATCH (p:Paper) RETURN count(p) AS total }
CALL () {
  MATCH (p:Paper) USING INDEX p:Paper(sort_cited, sort_date)
  WHERE p.sort_cited >= 0 AND p.sort_date IS NOT NULL
  WITH p ORDER BY p.sort_cited DESC, p.sort_date DESC, p.id SKIP $skip LIMIT $limit
  RETURN collect(p {.id, .arxiv_id, .openalex_id, .doi, .title, .year, .cited_by_count, .venue}) AS page
}
RETURN total, page
"""

INDEX_RESEARCHERS: LiteralString = """
CALL () { MATCH (n:Researcher) WHERE n.name_key IS NOT NULL RETURN count(n) AS total }
CALL () {
  MATCH (n:Researcher) WHERE n.name_key IS NOT NULL
  WITH n ORDER BY n.name_key, n.id SKIP $skip LIMIT $limit
  RETURN collect(n {.id, .name, paper_count: COUNT { (n)-[:AUTHORED]->() }}) AS page
}
RETURN total, page
"""

INDEX_INSTITUTIONS: LiteralString = """
CALL () { MATCH (n:Institution) WHERE n.name_key IS NOT NULL RETURN count(n) AS total }
CALL () {
  MATCH (n:Institution) WHERE n.name_key IS NOT NULL
  WITH n ORDER BY n.name_key, n.id SKIP $skip LIMIT $limit
  RETURN collect(n {.id, .name, .country, paper_count: COUNT { (n)<-[:STATES_AFFILIATION]-() }}) AS page
}
RETURN total, page
"""

# Categories' display names by id (a category feed's title): id, name, key.
CATEGORY_NAMES: LiteralString = """
MATCH (c:Category) WHERE c.id IN $ids
RETURN c.id AS id, c.name AS name, c.key AS key ORDER BY c.id
"""
