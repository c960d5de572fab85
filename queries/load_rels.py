"""Cypher for writing relationship rows between nodes already upserted in the same transaction.

Rows name their ends by internal id. Every loaded relationship keeps `sources` (sorted list of the
sources that state it); its properties come from the highest-priority source (`$priority`).
"""

from typing import LiteralString

# Properties and sources of a relationship `r` just MERGEd for `row` (shared tail of the upserts).
# `$sources` is the fixed list of source names, so `sources` keeps one order whatever the load order.
_SET_FROM_SOURCE: LiteralString = """
WITH r, row, r.source IS NULL OR $priority[row.source] >= $priority[r.source] AS leads,
     coalesce(r.sources, []) AS srcs
SET r += CASE WHEN leads THEN row.props ELSE {} END,
    r.source = CASE WHEN leads THEN row.source ELSE r.source END,
    r.sources = [x IN $sources WHERE x IN srcs OR x IN row.sources]
"""

# $rows = [{start, end, source, sources, props}], one row per relationship (`source` the
# highest-priority of `sources`, whose props these are); each returns nothing.
WRITE_AUTHORED: LiteralString = (
    """
UNWIND $rows AS row
MATCH (a:Researcher {id: row.start}), (p:Paper {id: row.end})
MERGE (a)-[r:AUTHORED]->(p)
"""
    + _SET_FROM_SOURCE
)

WRITE_IN_CATEGORY: LiteralString = (
    """
UNWIND $rows AS row
MATCH (p:Paper {id: row.start}), (c:Category {id: row.end})
MERGE (p)-[r:IN_CATEGORY]->(c)
"""
    + _SET_FROM_SOURCE
)

WRITE_REFERENCES: LiteralString = (
    """
UNWIND $rows AS row
MATCH (p:Paper {id: row.start}), (f:Ref {key: row.end})
MERGE (p)-[r:REFERENCES]->(f)
"""
    + _SET_FROM_SOURCE
)

WRITE_CATEGORY_PART_OF: LiteralString = (
    """
UNWIND $rows AS row
MATCH (c:Category {id: row.start}), (p:Category {id: row.end})
MERGE (c)-[r:PART_OF]->(p)
"""
    + _SET_FROM_SOURCE
)

WRITE_INSTITUTION_PART_OF: LiteralString = (
    """
UNWIND $rows AS row
MATCH (c:Institution {id: row.start}), (p:Institution {id: row.end})
WITH c, p, row WHERE c <> p
MERGE (c)-[r:PART_OF]->(p)
"""
    + _SET_FROM_SOURCE
)

WRITE_LISTED_AFFILIATION: LiteralString = (
    """
UNWIND $rows AS row
MATCH (a:Researcher {id: row.start}), (i:Institution {id: row.end})
MERGE (a)-[r:LISTED_AFFILIATION]->(i)
"""
    + _SET_FROM_SOURCE
)

# --- relationships with a node created in the same transaction --------------------------------
# Such an end has no relationship yet, so CREATE (no MERGE check) gives what MERGE + _SET_FROM_SOURCE
# would: the row's props, `source`, and `sources` in the fixed order. Same $rows as WRITE_*; each
# returns nothing.
_SET_NEW: LiteralString = """
SET r += row.props, r.source = row.source, r.sources = [x IN $sources WHERE x IN row.sources]
"""

CREATE_AUTHORED: LiteralString = (
    """
UNWIND $rows AS row
MATCH (a:Researcher {id: row.start}), (p:Paper {id: row.end})
CREATE (a)-[r:AUTHORED]->(p)
"""
    + _SET_NEW
)

CREATE_IN_CATEGORY: LiteralString = (
    """
UNWIND $rows AS row
MATCH (p:Paper {id: row.start}), (c:Category {id: row.end})
CREATE (p)-[r:IN_CATEGORY]->(c)
"""
    + _SET_NEW
)

CREATE_REFERENCES: LiteralString = (
    """
UNWIND $rows AS row
MATCH (p:Paper {id: row.start}), (f:Ref {key: row.end})
CREATE (p)-[r:REFERENCES]->(f)
"""
    + _SET_NEW
)

CREATE_CATEGORY_PART_OF: LiteralString = (
    """
UNWIND $rows AS row
MATCH (c:Category {id: row.start}), (p:Category {id: row.end})
CREATE (c)-[r:PART_OF]->(p)
"""
    + _SET_NEW
)

CREATE_INSTITUTION_PART_OF: LiteralString = (
    """
UNWIND $rows AS row
MATCH (c:Institution {id: row.start}), (p:Institution {id: row.end})
WITH c, p, row WHERE c <> p
CREATE (c)-[r:PART_OF]->(p)
"""
    + _SET_NEW
)

CREATE_LISTED_AFFILIATION: LiteralString = (
    """
UNWIND $rows AS row
MATCH (a:Researcher {id: row.start}), (i:Institution {id: row.end})
CREATE (a)-[r:LISTED_AFFILIATION]->(i)
"""
    + _SET_NEW
)

# --- replacing what a newer record of a source says -------------------------------------------
# $owners = [{id, sources: [{source, keep}]}], one row per owner node. Each drops every listed
# source from the owner's edges of one type whose other end is not in that source's `keep` (ids, or
# Ref keys), deletes edges no source states any more, and returns {researcher} ids whose derived
# edges must be recomputed (AUTHORED, LISTED_AFFILIATION) or {released} counts.

_DROP_SOURCE: LiteralString = """
WITH r, other, drop, [x IN coalesce(r.claimed_sources, []) WHERE NOT x IN drop] AS claimed
WHERE size(drop) > 0
SET r.sources = [x IN r.sources WHERE NOT x IN drop],
    r.claimed_sources = CASE WHEN size(claimed) = 0 THEN null ELSE claimed END
WITH r, other, size(r.sources) = 0 AS orphan
FOREACH (_ IN CASE WHEN orphan THEN [1] ELSE [] END | DELETE r)
"""

RELEASE_AUTHORED: LiteralString = (
    """
UNWIND $owners AS o
MATCH (:Paper {id: o.id})<-[r:AUTHORED]-(other:Researcher)
WITH r, other, [s IN o.sources WHERE s.source IN coalesce(r.sources, []) AND NOT other.id IN s.keep
  | s.source] AS drop
"""
    + _DROP_SOURCE
    + "RETURN DISTINCT other.id AS researcher"
)

RELEASE_IN_CATEGORY: LiteralString = (
    """
UNWIND $owners AS o
MATCH (:Paper {id: o.id})-[r:IN_CATEGORY]->(other:Category)
WITH r, other, [s IN o.sources WHERE s.source IN coalesce(r.sources, []) AND NOT other.id IN s.keep
  | s.source] AS drop
"""
    + _DROP_SOURCE
    + "RETURN count(*) AS released"
)

RELEASE_REFERENCES: LiteralString = (
    """
UNWIND $owners AS o
MATCH (:Paper {id: o.id})-[r:REFERENCES]->(other:Ref)
WITH r, other, [s IN o.sources WHERE s.source IN coalesce(r.sources, []) AND NOT other.key IN s.keep
  | s.source] AS drop
"""
    + _DROP_SOURCE
    + "RETURN count(*) AS released"
)

RELEASE_LISTED_AFFILIATION: LiteralString = (
    """
UNWIND $owners AS o
MATCH (other:Researcher {id: o.id})-[r:LISTED_AFFILIATION]->(i:Institution)
WITH r, other, [s IN o.sources WHERE s.source IN coalesce(r.sources, []) AND NOT i.id IN s.keep
  | s.source] AS drop
"""
    + _DROP_SOURCE
    + "RETURN DISTINCT other.id AS researcher"
)

RELEASE_INSTITUTION_PART_OF: LiteralString = (
    """
UNWIND $owners AS o
MATCH (:Institution {id: o.id})-[r:PART_OF]->(other:Institution)
WITH r, other, [s IN o.sources WHERE s.source IN coalesce(r.sources, []) AND NOT other.id IN s.keep
  | s.source] AS drop
"""
    + _DROP_SOURCE
    + "RETURN count(*) AS released"
)
