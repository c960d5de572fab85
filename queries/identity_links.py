"""Cypher for evidence-based identity links between researcher records (graph/identity/links.py; graph/MODEL.md
"Identity links").

A link is `(:Researcher)-[:SAME_PERSON {score, evidence, model}]->(:Researcher)` from the smaller id to the
larger, resolved when read, never a merge; a candidate below the threshold is `MAYBE_SAME_PERSON` with the
same properties; `weft identity unlink A B` leaves `NOT_SAME_PERSON {since}`, which keeps the pair apart.
"""

from typing import LiteralString

# The candidate pairs {a, b} (a < b) of the given researchers: their SAME_NAME_AS links (same name key,
# compatible names, bounded buckets: never all pairs), less the pairs unlinked by hand.
CANDIDATES: LiteralString = """
UNWIND $ids AS rid
MATCH (r:Researcher {id: rid})-[:SAME_NAME_AS]-(o:Researcher)
WHERE NOT EXISTS { (r)-[:NOT_SAME_PERSON]-(o) }
WITH CASE WHEN r.id < o.id THEN r.id ELSE o.id END AS a, CASE WHEN r.id < o.id THEN o.id ELSE r.id END AS b
RETURN DISTINCT a, b
"""

# The name keys of the given researchers (their same-name buckets): {name_key}.
NAME_KEYS: LiteralString = """
UNWIND $ids AS rid
MATCH (r:Researcher {id: rid})
WHERE r.name_key IS NOT NULL AND r.name_key <> ''
RETURN DISTINCT r.name_key AS name_key
"""

# Everyone in the given same-name buckets (at most $cap + 1 per bucket: a larger bucket has no SAME_NAME_AS
# candidates at all), so a bucket's links are decided together; returns {id}.
BUCKET_MEMBERS: LiteralString = """
UNWIND $keys AS key
CALL (key) {
  MATCH (m:Researcher {name_key: key})
  RETURN m LIMIT $cap + 1
}
RETURN DISTINCT m.id AS id
"""

# One profile per given researcher, each list at most $cap long: its papers, their years, its co-authors'
# name keys (through papers of at most $max_authors authors), its institutions (AFFILIATED_WITH, derived
# from stated and listed affiliations), its papers' categories and the papers they cite.
PROFILES: LiteralString = """
UNWIND $ids AS rid
MATCH (r:Researcher {id: rid})
RETURN r.id AS id, r.name AS name, r.name_key AS name_key,
       COLLECT { MATCH (r)-[:AUTHORED]->(p:Paper) RETURN p.id LIMIT $cap } AS papers,
       COLLECT { MATCH (r)-[:AUTHORED]->(p:Paper) WHERE p.year IS NOT NULL RETURN p.year LIMIT $cap } AS years,
       COLLECT { MATCH (r)-[:AUTHORED]->(p:Paper) WHERE COUNT { (p)<-[:AUTHORED]-() } <= $max_authors
                 MATCH (p)<-[:AUTHORED]-(c:Researcher) WHERE c <> r AND c.name_key IS NOT NULL
                 RETURN DISTINCT c.name_key LIMIT $cap } AS coauthors,
       COLLECT { MATCH (r)-[:AFFILIATED_WITH]->(i:Institution) RETURN DISTINCT i.id LIMIT $cap } AS institutions,
       COLLECT { MATCH (r)-[:AUTHORED]->(p:Paper) UNWIND coalesce(p.category_ids, []) AS c
                 RETURN DISTINCT c LIMIT $cap } AS categories,
       COLLECT { MATCH (r)-[:AUTHORED]->(:Paper)-[:CITES]->(q:Paper) RETURN DISTINCT q.id LIMIT $cap } AS cited
"""

# The links and candidates of the given researchers, each once: {rel (its element id), type, a, b (its ends' ids,
# from start to end), score, evidence, model}; relink compares them with the ones it decided, and writes only
# what differs.
LINKS_OF: LiteralString = """
UNWIND $ids AS rid
MATCH (:Researcher {id: rid})-[l:SAME_PERSON|MAYBE_SAME_PERSON]-(:Researcher)
WITH DISTINCT l
RETURN elementId(l) AS rel, type(l) AS type, startNode(l).id AS a, endNode(l).id AS b, l.score AS score,
       l.evidence AS evidence, l.model AS model
"""

# Drops the links and candidates with the given element ids ($rels): the ones relink no longer decides.
DELETE_LINKS: LiteralString = """
UNWIND $rels AS rel
MATCH ()-[l]->() WHERE elementId(l) = rel
DELETE l
"""

# Writes each row {a, b, score, evidence} (a < b) as a link; the model version names the weights used.
WRITE_LINKS: LiteralString = """
UNWIND $rows AS row
MATCH (a:Researcher {id: row.a}), (b:Researcher {id: row.b})
MERGE (a)-[l:SAME_PERSON]->(b)
SET l.score = row.score, l.evidence = row.evidence, l.model = $model
"""

# As WRITE_LINKS, for the candidates below the threshold ("possibly the same person").
WRITE_MAYBE: LiteralString = """
UNWIND $rows AS row
MATCH (a:Researcher {id: row.a}), (b:Researcher {id: row.b})
MERGE (a)-[l:MAYBE_SAME_PERSON]->(b)
SET l.score = row.score, l.evidence = row.evidence, l.model = $model
"""

# Undoes a link by hand: drops the pair's link or candidate and keeps them apart from then on
# (NOT_SAME_PERSON from the smaller id). Returns {a, b} when both exist.
UNLINK: LiteralString = """
MATCH (a:Researcher {id: $a}), (b:Researcher {id: $b})
OPTIONAL MATCH (a)-[l:SAME_PERSON|MAYBE_SAME_PERSON]-(b)
DELETE l
WITH DISTINCT a, b
MERGE (a)-[n:NOT_SAME_PERSON]->(b)
ON CREATE SET n.since = datetime()
RETURN a.id AS a, b.id AS b
"""

# Every researcher id holding a name key (the whole graph's candidates: `weft identity link --all`), in pages.
RESEARCHER_IDS: LiteralString = """
MATCH (r:Researcher) WHERE r.name_key IS NOT NULL AND r.id > $after
RETURN r.id AS id ORDER BY r.id LIMIT $limit
"""

# The links and candidates of the given researchers, best first: {id, other, linked, score, evidence}.
RESEARCHER_LINKS: LiteralString = """
UNWIND $ids AS rid
MATCH (r:Researcher {id: rid})-[l:SAME_PERSON|MAYBE_SAME_PERSON]-(o:Researcher)
RETURN rid AS id, o {.*} AS other, type(l) = 'SAME_PERSON' AS linked, l.score AS score,
       l.evidence AS evidence
ORDER BY rid, linked DESC, score DESC, o.id
"""

# Every link, for clustering the whole graph (the benchmark): {a, b}.
ALL_LINKS: LiteralString = """
MATCH (a:Researcher)-[:SAME_PERSON]->(b:Researcher)
RETURN a.id AS a, b.id AS b
"""

# The researcher at each signature {pids, rank, source}: the AUTHORED edge at that rank stated by that
# source, on the paper whose id is one of `pids` (the internal ids of the record's paper keys). Returns
# {i, researcher} (the signature's index).
SIGNATURE_RESEARCHERS: LiteralString = """
UNWIND range(0, size($signatures) - 1) AS i
WITH i, $signatures[i] AS s
MATCH (p:Paper) WHERE p.id IN s.pids
MATCH (p)<-[a:AUTHORED {rank: s.rank}]-(r:Researcher)
WHERE s.source IN a.sources
RETURN i, min(r.id) AS researcher
"""
