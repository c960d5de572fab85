"""Cypher for claiming id-less author slots (the rule is in loaders/claims.py)."""

from typing import LiteralString

# Author slots of the given papers at ranks where a paper-scoped researcher or a claimed source sits
# next to at least one other researcher: {paper, rank, researcher, scoped, name, key_rank, sources, claimed}.
CLAIM_SLOTS: LiteralString = """
UNWIND $ids AS pid
MATCH (p:Paper {id: pid})<-[a:AUTHORED]-(r:Researcher)
WHERE a.rank IS NOT NULL
WITH p, a.rank AS rank, collect({
  researcher: r.id, scoped: r.scoped_key IS NOT NULL, name: r.name,
  key_rank: CASE WHEN r.orcid IS NOT NULL THEN 0 WHEN r.openalex_id IS NOT NULL THEN 1
                 WHEN r.s2_id IS NOT NULL THEN 2 ELSE 3 END,
  sources: coalesce(a.sources, []), claimed: coalesce(a.claimed_sources, [])}) AS slots
WHERE size(slots) > 1 AND any(s IN slots WHERE s.scoped OR size(s.claimed) > 0)
UNWIND slots AS s
RETURN p.id AS paper, rank, s.researcher AS researcher, s.scoped AS scoped, s.name AS name,
       s.key_rank AS key_rank, s.sources AS sources, s.claimed AS claimed
"""

# Each statement takes one row per edge (an UNWIND must not touch one edge twice) and returns nothing.
# Adds the claimed sources onto the claimant's edge: $moves = [{paper, to, sources}].
CLAIM_ONTO: LiteralString = """
UNWIND $moves AS m
MATCH (:Researcher {id: m.to})-[t:AUTHORED]->(:Paper {id: m.paper})
WITH t, m, [x IN $sources WHERE x IN coalesce(t.claimed_sources, []) OR x IN m.sources] AS claimed
SET t.sources = [x IN $sources WHERE x IN t.sources OR x IN m.sources],
    t.claimed_sources = CASE WHEN size(claimed) = 0 THEN null ELSE claimed END
"""

# Takes the claimed sources off the edge they leave, deletes it when no source is left, and deletes
# a paper-scoped researcher left with no paper: $moves = [{paper, from, sources}].
CLAIM_FROM: LiteralString = """
UNWIND $moves AS m
MATCH (src:Researcher {id: m.from})-[f:AUTHORED]->(:Paper {id: m.paper})
WITH f, m, src, [x IN coalesce(f.claimed_sources, []) WHERE NOT x IN m.sources] AS left_claimed
SET f.sources = [x IN f.sources WHERE NOT x IN m.sources],
    f.claimed_sources = CASE WHEN size(left_claimed) = 0 THEN null ELSE left_claimed END
WITH f, src WHERE size(f.sources) = 0
DELETE f
WITH DISTINCT src WHERE src.scoped_key IS NOT NULL AND NOT EXISTS { (src)-[:AUTHORED]->() }
DETACH DELETE src
"""
