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
