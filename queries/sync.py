"""Cypher for `weft sync`: the per-source watermark, the change log, and merging away an id a source retired.

One `(:SyncState {source})` node per source holds the watermark (the last unit fully applied: an OpenAlex
partition date), `merged_<entity>` (the last merged_ids file applied per entity), what the unit in flight
must recompute (`pending_*`, written before the unit's first write so a killed sync that is run again
recomputes it too), `last_sync_at` and `last_summary` (JSON). One `(:Change {seq, at, source, entity, kind,
id, source_id, into, unit})` node per change, created in the transaction that moves the watermark.
"""

from typing import LiteralString

READ_STATE: LiteralString = "MATCH (s:SyncState {source: $source}) RETURN properties(s) AS state"

READ_STATES: LiteralString = "MATCH (s:SyncState) RETURN properties(s) AS state ORDER BY s.source"

# $unit, $papers, $researchers, $moved, $refs, $categories, $new (['entity:OA id']), $seen: the unit's pending work;
# $reauthored: [] when the source notes reauthored works per batch (OpenAlex), null when every author is rebuilt;
# $before: [] when the source notes each replaced work's authorships per batch (OpenAlex works), else null.
# A unit already pending (a killed run) keeps its classification (`pending_new`, `pending_seen`: read
# before anything was written) and gains what this run read.
BEGIN_UNIT: LiteralString = """
MERGE (s:SyncState {source: $source})
WITH s, s.pending_unit = $unit AS again
SET s.pending_new = CASE WHEN again THEN s.pending_new ELSE $new END,
    s.pending_seen = CASE WHEN again THEN s.pending_seen ELSE $seen END,
    s.pending_papers = COLLECT { UNWIND (CASE WHEN again THEN coalesce(s.pending_papers, []) ELSE [] END) + $papers
                                 AS x RETURN DISTINCT x },
    s.pending_researchers = COLLECT { UNWIND (CASE WHEN again THEN coalesce(s.pending_researchers, []) ELSE [] END)
                                      + $researchers AS x RETURN DISTINCT x },
    s.pending_moved = COLLECT { UNWIND (CASE WHEN again THEN coalesce(s.pending_moved, []) ELSE [] END) + $moved
                                AS x RETURN DISTINCT x },
    s.pending_refs = COLLECT { UNWIND (CASE WHEN again THEN coalesce(s.pending_refs, []) ELSE [] END) + $refs
                               AS x RETURN DISTINCT x },
    s.pending_categories = COLLECT { UNWIND (CASE WHEN again THEN coalesce(s.pending_categories, []) ELSE [] END)
                                     + $categories AS x RETURN DISTINCT x },
    s.pending_reauthored = CASE WHEN again THEN s.pending_reauthored ELSE $reauthored END,
    s.pending_before = CASE WHEN again THEN s.pending_before ELSE $before END,
    s.pending_unit = $unit
RETURN s.pending_new AS new, s.pending_seen AS seen
"""

# Adds to the pending unit's lists inside a merge's transaction: $researchers, $papers, $categories, and $before
# (the states of the papers a merge changes, noted before it: NOTE_REAUTHORED's, when the unit notes them).
ADD_PENDING: LiteralString = """
MATCH (s:SyncState {source: $source})
SET s.pending_before = CASE WHEN s.pending_before IS NULL THEN null ELSE s.pending_before + $before END,
    s.pending_categories = COLLECT { UNWIND coalesce(s.pending_categories, []) + $categories AS x
                                     RETURN DISTINCT x },
    s.pending_researchers = COLLECT { UNWIND coalesce(s.pending_researchers, []) + $researchers AS x
                                      RETURN DISTINCT x },
    s.pending_papers = COLLECT { UNWIND coalesce(s.pending_papers, []) + $papers AS x RETURN DISTINCT x }
"""

# Merges' changes, logged when their unit ends: $entries (JSON each: entity, kind, oid, id, into).
NOTE_CHANGES: LiteralString = """
MATCH (s:SyncState {source: $source}) SET s.pending_seen = coalesce(s.pending_seen, []) + $entries
"""

READ_PENDING: LiteralString = """
MATCH (s:SyncState {source: $source})
RETURN s.pending_unit AS unit, coalesce(s.pending_papers, []) AS papers,
       coalesce(s.pending_researchers, []) AS researchers, coalesce(s.pending_moved, []) AS moved,
       coalesce(s.pending_refs, []) AS refs, coalesce(s.pending_categories, []) AS categories,
       s.pending_reauthored AS reauthored, s.pending_before AS before
"""

# The authorships the source states now of the works about to be replaced ($ids: short ids), to compare with
# the records (loaders/sync/authorships.py): {paper, oid, authorships: [{id, oid, institutions}]}, and what the
# paper's derived data hangs on (PAPER_STATES' columns: year, authors, categories, cited).
AUTHORSHIPS_HELD: LiteralString = """
UNWIND $ids AS oid
MATCH (p:Paper {openalex_id: oid})
RETURN p.id AS paper, oid,
       COLLECT { MATCH (a:Researcher)-[r:AUTHORED]->(p) WHERE $source IN coalesce(r.sources, [])
                 RETURN {id: a.id, oid: a.openalex_id, institutions: coalesce(r.institution_ids, [])} }
         AS authorships,
       p.year AS year,
       COLLECT { MATCH (a:Researcher)-[r:AUTHORED]->(p) RETURN [a.id, coalesce(r.institution_ids, []), a.name] }
         AS authors,
       coalesce(p.category_ids, []) AS categories,
       COLLECT { MATCH (p)-[:CITES]->(q:Paper) RETURN q.id ORDER BY q.id } AS cited
"""

# What a paper `p` holds that its pairs, affiliations and identity evidence hang on: {oid, id, year, authors:
# [[researcher id, institution ids, name]], categories, cited} (loaders/derived.paper_changes compares the state
# noted before a sync replaced or merged it with the state after).
_PAPER_STATE: LiteralString = """
RETURN p.openalex_id AS oid, p.id AS id, p.year AS year,
       COLLECT { MATCH (a:Researcher)-[r:AUTHORED]->(p) RETURN [a.id, coalesce(r.institution_ids, []), a.name] }
         AS authors,
       coalesce(p.category_ids, []) AS categories,
       COLLECT { MATCH (p)-[:CITES]->(q:Paper) RETURN q.id ORDER BY q.id } AS cited
"""

# _PAPER_STATE of the papers of the given OpenAlex works ($ids: short ids).
PAPER_STATES: LiteralString = "UNWIND $ids AS oid MATCH (p:Paper {openalex_id: oid})" + _PAPER_STATE

# _PAPER_STATE of the given papers ($ids: internal ids).
PAPER_STATES_BY_ID: LiteralString = "UNWIND $ids AS pid MATCH (p:Paper {id: pid})" + _PAPER_STATE

# _PAPER_STATE of the papers of the researcher about to be merged away ($old: short OpenAlex id).
PAPER_STATES_OF_AUTHOR: LiteralString = (
    "MATCH (:Researcher {openalex_id: $old})-[:AUTHORED]->(p:Paper) WITH DISTINCT p" + _PAPER_STATE
)

# A batch's reauthored works ($papers: the works the graph lacks, whose pairs a rerun recounts) and the state of
# each work it replaces ($before: JSON each, loaders/sync/authorships.py), added to the pending unit before the
# batch is written; a work noted already (a killed run's note: the state before any write) keeps its first note,
# read first.
NOTE_REAUTHORED: LiteralString = """
MATCH (s:SyncState {source: $source})
SET s.pending_reauthored = COLLECT { UNWIND coalesce(s.pending_reauthored, []) + $papers AS x RETURN DISTINCT x },
    s.pending_before = coalesce(s.pending_before, []) + $before
"""

# The last change's number (the `change_seq` index gives it in order).
LAST_CHANGE_SEQ: LiteralString = """
MATCH (c:Change) WHERE c.seq IS NOT NULL RETURN c.seq AS seq ORDER BY c.seq DESC LIMIT 1
"""

# Ends a unit: its changes ($changes = [{seq, key, entity, kind, id, source_id, into}]; a key already logged
# is skipped), the watermark property $mark set to $value, pending cleared, last sync time and summary.
FINISH_UNIT: LiteralString = """
MERGE (s:SyncState {source: $source})
WITH s
CALL (s) {
  UNWIND $changes AS c
  MERGE (x:Change {key: c.key})
  ON CREATE SET x.seq = c.seq, x.at = datetime(), x.source = $source, x.unit = $unit, x.entity = c.entity,
                x.kind = c.kind, x.id = c.id, x.source_id = c.source_id, x.into = c.into
}
SET s[$mark] = $value, s.last_sync_at = datetime(), s.last_unit = $unit,
    s.pending_unit = null, s.pending_new = null, s.pending_seen = null, s.pending_papers = null,
    s.pending_researchers = null, s.pending_moved = null, s.pending_refs = null, s.pending_categories = null,
    s.pending_reauthored = null, s.pending_before = null
"""

# Ends a sync run: what it did, as JSON ($summary), and when.
RECORD_SUMMARY: LiteralString = """
MERGE (s:SyncState {source: $source})
SET s.last_sync_at = datetime(), s.last_summary = $summary
"""

CHANGES_OF_KEYS: LiteralString = "UNWIND $keys AS k MATCH (c:Change {key: k}) RETURN k AS key"

# Changes after `$since` (a datetime, or null) and `$after` (a seq), of `$entity` (or any), oldest first.
READ_CHANGES: LiteralString = """
MATCH (c:Change) WHERE c.seq > $after AND ($entity IS NULL OR c.entity = $entity)
  AND ($since IS NULL OR c.at >= datetime($since))
RETURN c {.seq, .at, .source, .entity, .kind, .id, .source_id, .into, .unit} AS change
ORDER BY c.seq LIMIT $first
"""

# --- what a unit's records replace -------------------------------------------------------------------
# Each takes $ids (short OpenAlex ids) and returns {oid, id} for those in the graph.
EXISTING_PAPERS: LiteralString = "UNWIND $ids AS oid MATCH (n:Paper {openalex_id: oid}) RETURN oid, n.id AS id"
EXISTING_RESEARCHERS: LiteralString = (
    "UNWIND $ids AS oid MATCH (n:Researcher {openalex_id: oid}) RETURN oid, n.id AS id"
)
EXISTING_INSTITUTIONS: LiteralString = (
    "UNWIND $ids AS oid MATCH (n:Institution {openalex_id: oid}) RETURN oid, n.id AS id"
)

# What works about to be replaced hold now: their authors (whose pairs must be recounted whatever the new
# records say) and their references (a Ref nobody references any more is removed). $ids: short ids.
WORKS_BEFORE: LiteralString = """
UNWIND $ids AS oid
MATCH (p:Paper {openalex_id: oid})
RETURN p.id AS paper,
       COLLECT { MATCH (a:Researcher)-[:AUTHORED]->(p) RETURN a.id } AS authors,
       COLLECT { MATCH (p)-[:REFERENCES]->(f:Ref) RETURN f.key } AS refs,
       COLLECT { MATCH (p)-[:IN_CATEGORY]->(c:Category) RETURN c.id } AS categories
"""

# The categories of a paper about to be merged away: $old (short id); returns {id}.
CATEGORIES_OF_WORK: LiteralString = """
MATCH (:Paper {openalex_id: $old})-[:IN_CATEGORY]->(c:Category) RETURN c.id AS id
"""

DELETE_ORPHAN_REFS: LiteralString = """
UNWIND $keys AS k
MATCH (f:Ref {key: k}) WHERE NOT EXISTS { ()-[:REFERENCES]->(f) }
DELETE f
"""

# Categories no paper is in and no category is part of any more (a load of what remains would not make them);
# run until it deletes none, since a parent can lose its last child. $ids; returns {deleted}.
DELETE_ORPHAN_CATEGORIES: LiteralString = """
UNWIND $ids AS cid
MATCH (c:Category {id: cid})
WHERE NOT EXISTS { ()-[:IN_CATEGORY]->(c) } AND NOT EXISTS { (:Category)-[:PART_OF]->(c) }
DETACH DELETE c
RETURN count(*) AS deleted
"""

# --- merging away an id the source retired -----------------------------------------------------------
# $old, $into: short OpenAlex ids. The loser (the node holding $old) loses what OpenAlex stated from it (its
# own record's edges: the survivor's record already says what holds); what other sources state moves onto
# the survivor (the node holding $into), with the loser's other keys the survivor lacks; the survivor keeps
# the loser's ids in `merged_from` and `aliases` (so every lookup by an old id finds it). With no survivor in
# the graph, the loser goes when no other source states it. Returns {loser, survivor, researchers, papers,
# gone}: internal ids, what to recompute, and whether the loser was deleted; no row when $old is not there.

_DROP_OPENALEX: LiteralString = """
  WITH r, [x IN coalesce(r.sources, []) WHERE x <> 'openalex'] AS rest
  SET r.sources = rest
  WITH r WHERE size(r.sources) = 0
  DELETE r
"""

_MOVE: LiteralString = """
  WITH r, r2, coalesce(r2.sources, []) + coalesce(r.sources, []) AS srcs
  SET r2 += CASE WHEN r2.source IS NULL THEN properties(r) ELSE {} END
  SET r2.sources = COLLECT { UNWIND srcs AS x RETURN DISTINCT x ORDER BY x }
"""

# The loser's ids onto the survivor, the loser deleted; keys ($keys: the label's other key properties) move
# only when another source states the loser (OpenAlex's own keys of it are the retired record's).
_ALIAS_AND_DELETE: LiteralString = """
WITH l, s, l.id AS lid, coalesce(l.aliases, []) AS laliases, properties(l) AS lp, researchers, papers, others
DETACH DELETE l
WITH s, lid, laliases, lp, researchers, papers, others
CALL (s, lid, laliases, lp, others) {
  WITH s WHERE s IS NOT NULL
  SET s.merged_from = COLLECT { UNWIND coalesce(s.merged_from, []) + [lid] + laliases AS x
                                WITH x WHERE x <> s.id RETURN DISTINCT x ORDER BY x }
  SET s.aliases = COLLECT { UNWIND coalesce(s.aliases, []) + s.merged_from AS x RETURN DISTINCT x ORDER BY x }
  FOREACH (k IN [k IN $keys WHERE others AND lp[k] IS NOT NULL AND s[k] IS NULL] | SET s[k] = lp[k])
}
RETURN lid AS loser, s.id AS survivor, researchers, papers, true AS gone
"""

# The loser when another source still states it and nothing survives: only OpenAlex's key and rank go.
_KEEP_OTHERS: LiteralString = """
WITH l, s, researchers, papers,
     any(k IN keys(l) WHERE k ENDS WITH '_rank' AND k <> 'openalex_rank') AS others
CALL (l, s, others) {
  WITH l WHERE s IS NULL AND others
  REMOVE l.openalex_id, l.openalex_rank
}
WITH l, s, researchers, papers, others WHERE s IS NOT NULL OR NOT others
"""

MERGE_AWAY_RESEARCHER: LiteralString = (
    """
MATCH (l:Researcher {openalex_id: $old})
OPTIONAL MATCH (s:Researcher {openalex_id: $into}) WHERE s <> l
WITH l, s,
     COLLECT { MATCH (l)-[:COAUTHORED_WITH|SAME_NAME_AS|TOP_TIE]-(b:Researcher) RETURN DISTINCT b.id } AS neighbours,
     COLLECT { MATCH (l)-[:AUTHORED]->(p:Paper) RETURN p.id } AS papers
CALL (l) { MATCH (l)-[r:AUTHORED|LISTED_AFFILIATION]->() """
    + _DROP_OPENALEX
    + """}
CALL (l, s) {
  WITH l, s WHERE s IS NOT NULL
  MATCH (l)-[r:AUTHORED]->(p:Paper)
  MERGE (s)-[r2:AUTHORED]->(p)"""
    + _MOVE
    + """}
CALL (l, s) {
  WITH l, s WHERE s IS NOT NULL
  MATCH (l)-[r:LISTED_AFFILIATION]->(i:Institution)
  MERGE (s)-[r2:LISTED_AFFILIATION]->(i)"""
    + _MOVE
    + """}
WITH l, s, papers,
     neighbours + CASE WHEN s IS NULL THEN [] ELSE [s.id] END
       + COLLECT { MATCH (x:Researcher)-[:AUTHORED]->(p:Paper) WHERE p.id IN papers RETURN DISTINCT x.id }
       AS researchers
"""
    + _KEEP_OTHERS
    + _ALIAS_AND_DELETE
)

MERGE_AWAY_INSTITUTION: LiteralString = (
    """
MATCH (l:Institution {openalex_id: $old})
OPTIONAL MATCH (s:Institution {openalex_id: $into}) WHERE s <> l
WITH l, s,
     COLLECT { MATCH (l)<-[:AFFILIATED_WITH|LISTED_AFFILIATION]-(a:Researcher) RETURN DISTINCT a.id } AS researchers,
     COLLECT { MATCH (p:Paper)-[:STATES_AFFILIATION]->(l) RETURN p.id } AS papers
CALL (l) { MATCH (l)<-[r:LISTED_AFFILIATION]-() """
    + _DROP_OPENALEX
    + """}
CALL (l) { MATCH (l)-[r:PART_OF]->() """
    + _DROP_OPENALEX
    + """}
CALL (l, s) {
  WITH l, s WHERE s IS NOT NULL
  MATCH (a:Researcher)-[r:LISTED_AFFILIATION]->(l)
  MERGE (a)-[r2:LISTED_AFFILIATION]->(s)"""
    + _MOVE
    + """}
CALL (l, s) {
  WITH l, s WHERE s IS NOT NULL
  MATCH (c:Institution)-[r:PART_OF]->(l) WHERE c <> s
  MERGE (c)-[r2:PART_OF]->(s)"""
    + _MOVE
    + """}
"""
    + _KEEP_OTHERS
    + _ALIAS_AND_DELETE
)

MERGE_AWAY_PAPER: LiteralString = (
    """
MATCH (l:Paper {openalex_id: $old})
OPTIONAL MATCH (s:Paper {openalex_id: $into}) WHERE s <> l
WITH l, s,
     COLLECT { MATCH (a:Researcher)-[:AUTHORED]->(l) RETURN a.id } AS authors,
     COLLECT { MATCH (q:Paper)-[:CITES]->(l) RETURN q.id } AS citing
CALL (l) { MATCH (l)<-[r:AUTHORED]-() """
    + _DROP_OPENALEX
    + """}
CALL (l) { MATCH (l)-[r:IN_CATEGORY|REFERENCES]->() """
    + _DROP_OPENALEX
    + """}
CALL (l, s) {
  WITH l, s WHERE s IS NOT NULL
  MATCH (a:Researcher)-[r:AUTHORED]->(l)
  MERGE (a)-[r2:AUTHORED]->(s)"""
    + _MOVE
    + """}
CALL (l, s) {
  WITH l, s WHERE s IS NOT NULL
  MATCH (l)-[r:IN_CATEGORY]->(c:Category)
  MERGE (s)-[r2:IN_CATEGORY]->(c)"""
    + _MOVE
    + """}
CALL (l, s) {
  WITH l, s WHERE s IS NOT NULL
  MATCH (l)-[r:REFERENCES]->(f:Ref)
  MERGE (s)-[r2:REFERENCES]->(f)"""
    + _MOVE
    + """}
WITH l, s, authors AS researchers, citing + CASE WHEN s IS NULL THEN [] ELSE [s.id] END AS papers
"""
    + _KEEP_OTHERS
    + _ALIAS_AND_DELETE
)
