"""Cypher for reading the sync change log (graph/reads/changes.py): the `changes` connection, the site's
feed of changes and the tombstones the site answers 410 Gone for."""

from typing import LiteralString

# One page of the log in `seq` order (the `change_seq` index gives it in order): changes after `$after`
# (a seq), of the entities in `$entities` (null: any), at or after `$since` (a datetime, or null);
# `$limit` rows. Rows {change}.
CHANGE_PAGE: LiteralString = """
MATCH (c:Change) WHERE c.seq > $after AND ($entities IS NULL OR c.entity IN $entities)
  AND ($since IS NULL OR c.at >= $since)
RETURN c {.seq, .at, .source, .entity, .kind, .id, .source_id, .into} AS change
ORDER BY c.seq LIMIT $limit
"""

# How many changes the whole filtered list holds (`after` aside): one row {total}.
CHANGE_COUNT: LiteralString = """
MATCH (c:Change) WHERE c.seq IS NOT NULL AND ($entities IS NULL OR c.entity IN $entities)
  AND ($since IS NULL OR c.at >= $since)
RETURN count(c) AS total
"""

# The newest `$limit` changes, newest first: the site's feed. Rows {change}.
NEWEST_CHANGES: LiteralString = """
MATCH (c:Change) WHERE c.seq IS NOT NULL
RETURN c {.seq, .at, .source, .entity, .kind, .id, .source_id, .into} AS change
ORDER BY c.seq DESC LIMIT $limit
"""

# The newest deletion logged for any of the internal ids `$ids` or source ids `$source_ids` (the `change_id`
# and `change_source_id` indexes find them) whose node is really gone (a deleted record that another source
# still states leaves its node): a tombstone. At most one row {seq, at, source, id, source_id}.
DELETION_OF: LiteralString = """
CALL () {
  UNWIND $ids AS k MATCH (c:Change {id: k}) RETURN c
  UNION
  UNWIND $source_ids AS k MATCH (c:Change {source_id: k}) RETURN c
}
WITH c WHERE c.kind = 'deleted' AND NOT EXISTS { MATCH (:Paper {id: c.id}) }
  AND NOT EXISTS { MATCH (:Researcher {id: c.id}) } AND NOT EXISTS { MATCH (:Institution {id: c.id}) }
RETURN c.seq AS seq, c.at AS at, c.source AS source, c.id AS id, c.source_id AS source_id
ORDER BY c.seq DESC LIMIT 1
"""
