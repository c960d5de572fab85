"""Cypher for facts about the graph as a whole, read by graph/reads/meta.py."""

from typing import LiteralString

# The graph's version for analytics caches: the Meta node's data_version (bumped by every load that
# writes) and element id (new after `weft reset`), plus researcher and co-authorship counts from the
# count store, so a reset and a different load that restart data_version at 1 still look different.
# One row {data_version, meta, researchers, ties}; data_version and meta are null before any load.
DATA_VERSION: LiteralString = """
OPTIONAL MATCH (m:Meta {key: 'graph'})
WITH m
CALL () { MATCH (r:Researcher) RETURN count(r) AS researchers }
CALL () { MATCH ()-[c:COAUTHORED_WITH]->() RETURN count(c) AS ties }
RETURN m.data_version AS data_version, elementId(m) AS meta, researchers, ties
"""

# When the graph last changed: the time the newest data version was committed (BUMP_DATA_VERSION sets
# `loaded_at` with it), as epoch seconds; the site's Last-Modified. One row {changed_at}, null before any load.
DATA_CHANGED_AT: LiteralString = """
OPTIONAL MATCH (m:Meta {key: 'graph'})
RETURN m.loaded_at.epochMillis / 1000.0 AS changed_at
"""
