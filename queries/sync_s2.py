"""Cypher for `weft sync s2` and `weft sync arxiv`: what a diff step's records replace, and deleting what only
the source stated (queries/sync.py holds the watermark and the change log every source shares).

Semantic Scholar names a paper by its corpus id (`corpus_id`, a string of digits) and an author by its
author id (`s2_id`); arXiv names a paper by its arXiv id (`arxiv_id`).
"""

from typing import LiteralString

# Each takes $ids (the source's ids) and returns {oid, id} for those in the graph.
EXISTING_S2_PAPERS: LiteralString = "UNWIND $ids AS oid MATCH (n:Paper {corpus_id: oid}) RETURN oid, n.id AS id"
EXISTING_S2_RESEARCHERS: LiteralString = "UNWIND $ids AS oid MATCH (n:Researcher {s2_id: oid}) RETURN oid, n.id AS id"
EXISTING_ARXIV_PAPERS: LiteralString = "UNWIND $ids AS oid MATCH (n:Paper {arxiv_id: oid}) RETURN oid, n.id AS id"

# What arXiv said last of each paper ($ids: arXiv ids): its source rank (level|updated|digest), or null.
ARXIV_RANKS: LiteralString = "UNWIND $ids AS oid MATCH (n:Paper {arxiv_id: oid}) RETURN oid, n.arxiv_rank AS rank"

# What papers about to be replaced or deleted hold now ($ids: corpus ids): their authors (whose pairs are
# recounted whatever the new records say), the papers citing them, their references and categories.
S2_PAPERS_BEFORE: LiteralString = """
UNWIND $ids AS oid
MATCH (p:Paper {corpus_id: oid})
RETURN p.id AS paper,
       COLLECT { MATCH (a:Researcher)-[:AUTHORED]->(p) RETURN a.id } AS authors,
       COLLECT { MATCH (q:Paper)-[:CITES]->(p) RETURN q.id } AS citing,
       COLLECT { MATCH (p)-[:REFERENCES]->(f:Ref) RETURN f.key } AS refs,
       COLLECT { MATCH (p)-[:IN_CATEGORY]->(c:Category) RETURN c.id } AS categories
"""

# The same for arXiv papers ($ids: arXiv ids).
ARXIV_PAPERS_BEFORE: LiteralString = """
UNWIND $ids AS oid
MATCH (p:Paper {arxiv_id: oid})
RETURN p.id AS paper,
       COLLECT { MATCH (a:Researcher)-[:AUTHORED]->(p) RETURN a.id } AS authors,
       [] AS citing, [] AS refs,
       COLLECT { MATCH (p)-[:IN_CATEGORY]->(c:Category) RETURN c.id } AS categories
"""

# The papers an author about to be deleted wrote, and their authors ($ids: S2 author ids).
S2_AUTHORS_BEFORE: LiteralString = """
UNWIND $ids AS oid
MATCH (a:Researcher {s2_id: oid})
RETURN COLLECT { MATCH (a)-[:AUTHORED]->(p:Paper) RETURN p.id } AS papers,
       COLLECT { MATCH (a)-[:AUTHORED]->(:Paper)<-[:AUTHORED]-(b:Researcher) RETURN DISTINCT b.id } AS authors
"""

# The papers named by corpus ids ($ids), e.g. the cited ends of citations about to be removed: {id}.
PAPERS_OF_CORPUS_IDS: LiteralString = "UNWIND $ids AS oid MATCH (p:Paper {corpus_id: oid}) RETURN p.id AS id"

# A property a record of the source no longer states, when the source's value is the one held: its rank
# entry ('<prop>=<level>|<source priority>|…' in `prop_ranks`) and the value go, so the next write of the
# source sets it again as a full load would. $ids (internal paper ids), $prop, $priority (the source's).
DROP_SOURCE_PROPERTY: LiteralString = """
UNWIND $ids AS pid
MATCH (p:Paper {id: pid})
WITH p, [x IN coalesce(p.prop_ranks, []) WHERE x STARTS WITH $prop + '='
         AND split(substring(x, size($prop) + 1), '|')[1] = $priority] AS mine
WHERE size(mine) > 0
SET p.prop_ranks = [x IN p.prop_ranks WHERE NOT x IN mine]
SET p[$prop] = null
"""

# The source no longer states these citations ($pairs = [{citing: corpus id, cited: Ref key}]): its name
# leaves the REFERENCES edge, which goes when no source is left on it.
DROP_S2_CITATIONS: LiteralString = """
UNWIND $pairs AS c
MATCH (:Paper {corpus_id: c.citing})-[r:REFERENCES]->(:Ref {key: c.cited})
WHERE 's2' IN coalesce(r.sources, [])
SET r.sources = [x IN r.sources WHERE x <> 's2']
WITH r WHERE size(r.sources) = 0
DELETE r
"""

# What the source stated of one node it deleted: its name leaves the node's edges (an edge no source is left
# on goes); the node goes when no other source states it (another source's `<source>_rank`), else it only
# loses the source's rank and its `_s2`/`_arxiv` properties. $label_key, $old; returns {id, gone, researchers,
# papers}: the internal id and what to recompute; no row when the node is not there.
_DROP_EDGES_OF_SOURCE: LiteralString = """
  WITH r, [x IN coalesce(r.sources, []) WHERE x <> $source] AS rest
  SET r.sources = rest
  WITH r WHERE size(r.sources) = 0
  DELETE r
"""

_DELETE_OR_KEEP: LiteralString = """
WITH l, researchers, papers,
     any(k IN keys(l) WHERE k ENDS WITH '_rank' AND k <> $source + '_rank') AS others
CALL (l, others) {
  WITH l WHERE others
  FOREACH (k IN [k IN keys(l) WHERE k = $source + '_rank' OR k ENDS WITH '_' + $source] | SET l[k] = null)
}
WITH l, l.id AS lid, researchers, papers, others
CALL (l, others) {
  WITH l WHERE NOT others
  DETACH DELETE l
}
RETURN lid AS id, NOT others AS gone, researchers, papers
"""

DELETE_S2_PAPER: LiteralString = (
    """
MATCH (l:Paper {corpus_id: $old})
WITH l,
     COLLECT { MATCH (a:Researcher)-[:AUTHORED]->(l) RETURN a.id } AS researchers,
     COLLECT { MATCH (q:Paper)-[:CITES]->(l) RETURN q.id } AS papers
CALL (l) { MATCH (l)<-[r:AUTHORED]-() """
    + _DROP_EDGES_OF_SOURCE
    + """}
CALL (l) { MATCH (l)-[r:IN_CATEGORY|REFERENCES]->() """
    + _DROP_EDGES_OF_SOURCE
    + "}\n"
    + _DELETE_OR_KEEP
)

DELETE_S2_RESEARCHER: LiteralString = (
    """
MATCH (l:Researcher {s2_id: $old})
WITH l,
     COLLECT { MATCH (l)-[:AUTHORED]->(:Paper)<-[:AUTHORED]-(b:Researcher) WHERE b <> l RETURN DISTINCT b.id }
       + COLLECT { MATCH (l)-[:COAUTHORED_WITH|SAME_NAME_AS|TOP_TIE]-(b:Researcher) RETURN DISTINCT b.id }
       AS researchers,
     COLLECT { MATCH (l)-[:AUTHORED]->(p:Paper) RETURN p.id } AS papers
CALL (l) { MATCH (l)-[r:AUTHORED|LISTED_AFFILIATION]->() """
    + _DROP_EDGES_OF_SOURCE
    + "}\n"
    + _DELETE_OR_KEEP
)

# Researchers among $ids that no source states any more: no authorship left and no record of their own
# (no `<source>_rank` at the full-record level $full). Returns {id} of those deleted.
DELETE_UNSTATED_RESEARCHERS: LiteralString = """
UNWIND $ids AS rid
MATCH (r:Researcher {id: rid})
WHERE NOT EXISTS { (r)-[:AUTHORED]->() }
  AND none(k IN keys(r) WHERE k ENDS WITH '_rank' AND r[k] STARTS WITH $full + '|')
DETACH DELETE r
RETURN rid AS id
"""

# The names a paper-scoped researcher ($ids; `scoped_key` starting with $prefix, e.g. 'arxiv:') was written
# with: only the replaced record stated them, and a write unions names, so they go before it is written again.
CLEAR_SCOPED_NAMES: LiteralString = """
UNWIND $ids AS rid
MATCH (r:Researcher {id: rid}) WHERE r.scoped_key STARTS WITH $prefix
SET r.alt_names = null, r.alt_names_text = null
"""
