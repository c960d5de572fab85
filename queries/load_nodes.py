"""Cypher for writing node rows: find by hard keys, merge duplicates, rename ids, upsert.

Every statement takes a list parameter and is run once per batch inside the batch's write
transaction (loaders/write.py). Labels and key properties are fixed here, never from input.
"""

from typing import LiteralString

# --- lookup: every existing node any of a group's keys points at ------------------------------
# Each returns rows {g, id, keys}: the group index, the node's internal id and its key properties.

LOOKUP_PAPERS: LiteralString = """
UNWIND $groups AS g
CALL (g) {
  MATCH (n:Paper {doi: g.keys.doi}) RETURN n
  UNION MATCH (n:Paper {arxiv_id: g.keys.arxiv_id}) RETURN n
  UNION MATCH (n:Paper {openalex_id: g.keys.openalex_id}) RETURN n
  UNION MATCH (n:Paper {s2_id: g.keys.s2_id}) RETURN n
  UNION MATCH (n:Paper {corpus_id: g.keys.corpus_id}) RETURN n
  UNION MATCH (n:Paper {mag_id: g.keys.mag_id}) RETURN n
  UNION MATCH (n:Paper {pmid: g.keys.pmid}) RETURN n
}
RETURN g.g AS g, n.id AS id, n {.doi, .arxiv_id, .openalex_id, .s2_id, .corpus_id, .mag_id, .pmid} AS keys
"""

LOOKUP_RESEARCHERS: LiteralString = """
UNWIND $groups AS g
CALL (g) {
  MATCH (n:Researcher {orcid: g.keys.orcid}) RETURN n
  UNION MATCH (n:Researcher {openalex_id: g.keys.openalex_id}) RETURN n
  UNION MATCH (n:Researcher {s2_id: g.keys.s2_id}) RETURN n
  UNION MATCH (n:Researcher {scoped_key: g.keys.scoped_key}) RETURN n
}
RETURN g.g AS g, n.id AS id, n {.orcid, .openalex_id, .s2_id, .scoped_key} AS keys
"""

LOOKUP_INSTITUTIONS: LiteralString = """
UNWIND $groups AS g
CALL (g) {
  MATCH (n:Institution {ror: g.keys.ror}) RETURN n
  UNION MATCH (n:Institution {openalex_id: g.keys.openalex_id}) RETURN n
}
RETURN g.g AS g, n.id AS id, n {.ror, .openalex_id} AS keys
"""

LOOKUP_CATEGORIES: LiteralString = """
UNWIND $groups AS g
MATCH (n:Category {key: g.keys.key})
RETURN g.g AS g, n.id AS id, n {.key} AS keys
"""

# --- merging two nodes a row proved to be one ---------------------------------------------
# Each takes $merges = [{loser, survivor}] (internal ids): moves the loser's loaded relationships
# onto the survivor (derived ones are dropped and recomputed), deletes the loser, then takes each of
# its properties the survivor lacks or holds from a lower-ranked row (`prop_ranks`).
# Returns {survivor, touched}: ids of researchers whose derived relationships must be recomputed.

_FILL_SURVIVOR: LiteralString = """
WITH l, s, properties(l) AS lp, coalesce(s.prop_ranks, []) AS sr, coalesce(l.prop_ranks, []) AS lr, touched
DETACH DELETE l
WITH s, lp, sr, lr, touched,
     [k IN keys(lp) WHERE NOT k IN ['id', 'aliases', 'alt_names', 'prop_ranks'] AND (s[k] IS NULL OR
        any(x IN lr WHERE x STARTS WITH k + '=' AND none(y IN sr WHERE y STARTS WITH k + '=' AND y >= x)))] AS take
FOREACH (k IN take | SET s[k] = lp[k])
SET s.prop_ranks = COLLECT { UNWIND [x IN sr WHERE none(k IN take WHERE x STARTS WITH k + '=')]
                                    + [x IN lr WHERE any(k IN take WHERE x STARTS WITH k + '=')] AS x
                             RETURN x ORDER BY x },
    s.alt_names = CASE WHEN lp.alt_names IS NULL THEN s.alt_names
      ELSE COLLECT { UNWIND coalesce(s.alt_names, []) + lp.alt_names AS x RETURN DISTINCT x ORDER BY x } END
RETURN s.id AS survivor, touched
"""

# Sources lists of two relationships that became one: the sorted union.
MERGE_PAPERS: LiteralString = (
    """
UNWIND $merges AS m
MATCH (l:Paper {id: m.loser}), (s:Paper {id: m.survivor})
CALL (l, s) {
  MATCH (a:Researcher)-[r:AUTHORED]->(l)
  MERGE (a)-[r2:AUTHORED]->(s)
  WITH r, r2, coalesce(r2.sources, []) + coalesce(r.sources, []) AS srcs
  SET r2 += properties(r)
  SET r2.sources = COLLECT { UNWIND srcs AS x RETURN DISTINCT x ORDER BY x }
}
CALL (l, s) {
  MATCH (l)-[r:IN_CATEGORY]->(c:Category)
  MERGE (s)-[r2:IN_CATEGORY]->(c)
  WITH r, r2, coalesce(r2.sources, []) + coalesce(r.sources, []) AS srcs
  SET r2 += properties(r)
  SET r2.sources = COLLECT { UNWIND srcs AS x RETURN DISTINCT x ORDER BY x }
}
CALL (l, s) {
  MATCH (l)-[r:REFERENCES]->(f:Ref)
  MERGE (s)-[r2:REFERENCES]->(f)
  WITH r, r2, coalesce(r2.sources, []) + coalesce(r.sources, []) AS srcs
  SET r2.sources = COLLECT { UNWIND srcs AS x RETURN DISTINCT x ORDER BY x }
}
WITH l, s, COLLECT { MATCH (a:Researcher)-[:AUTHORED]->(s) RETURN a.id } AS touched
"""
    + _FILL_SURVIVOR
)

MERGE_RESEARCHERS: LiteralString = (
    """
UNWIND $merges AS m
MATCH (l:Researcher {id: m.loser}), (s:Researcher {id: m.survivor})
WITH l, s, COLLECT { MATCH (l)-[:COAUTHORED_WITH|SAME_NAME_AS]-(b:Researcher) RETURN b.id } AS touched
CALL (s) {  // the survivor may take the loser's name: it is linked again (derive.UNLINKED_NAME_KEYS)
  MATCH (s)-[x:SAME_NAME_AS]-()
  DELETE x
}
CALL (l, s) {
  MATCH (l)-[r:AUTHORED]->(p:Paper)
  MERGE (s)-[r2:AUTHORED]->(p)
  WITH r, r2, coalesce(r2.sources, []) + coalesce(r.sources, []) AS srcs
  SET r2 += properties(r)
  SET r2.sources = COLLECT { UNWIND srcs AS x RETURN DISTINCT x ORDER BY x }
}
CALL (l, s) {
  MATCH (l)-[r:LISTED_AFFILIATION]->(i:Institution)
  MERGE (s)-[r2:LISTED_AFFILIATION]->(i)
  WITH r, r2, coalesce(r2.sources, []) + coalesce(r.sources, []) AS srcs
  SET r2 += properties(r)
  SET r2.sources = COLLECT { UNWIND srcs AS x RETURN DISTINCT x ORDER BY x }
}
"""
    + _FILL_SURVIVOR
)

MERGE_INSTITUTIONS: LiteralString = (
    """
UNWIND $merges AS m
MATCH (l:Institution {id: m.loser}), (s:Institution {id: m.survivor})
WITH l, s, COLLECT { MATCH (l)<-[:AFFILIATED_WITH|LISTED_AFFILIATION]-(a:Researcher) RETURN a.id } AS touched
CALL (l, s) {
  MATCH (a:Researcher)-[r:LISTED_AFFILIATION]->(l)
  MERGE (a)-[r2:LISTED_AFFILIATION]->(s)
  WITH r, r2, coalesce(r2.sources, []) + coalesce(r.sources, []) AS srcs
  SET r2 += properties(r)
  SET r2.sources = COLLECT { UNWIND srcs AS x RETURN DISTINCT x ORDER BY x }
}
CALL (l, s) {
  MATCH (l)-[r:PART_OF]->(p:Institution) WHERE p <> s
  MERGE (s)-[r2:PART_OF]->(p)
  WITH r, r2, coalesce(r2.sources, []) + coalesce(r.sources, []) AS srcs
  SET r2.sources = COLLECT { UNWIND srcs AS x RETURN DISTINCT x ORDER BY x }
}
CALL (l, s) {
  MATCH (c:Institution)-[r:PART_OF]->(l) WHERE c <> s
  MERGE (c)-[r2:PART_OF]->(s)
  WITH r, r2, coalesce(r2.sources, []) + coalesce(r.sources, []) AS srcs
  SET r2.sources = COLLECT { UNWIND srcs AS x RETURN DISTINCT x ORDER BY x }
}
"""
    + _FILL_SURVIVOR
)

# --- renaming: a node gained a better key, so its id changes (the old id stays in aliases) ------
# $renames = [{old, new}]; returns nothing.

RENAME_PAPERS: LiteralString = "UNWIND $renames AS r MATCH (n:Paper {id: r.old}) SET n.id = r.new"
RENAME_RESEARCHERS: LiteralString = "UNWIND $renames AS r MATCH (n:Researcher {id: r.old}) SET n.id = r.new"
RENAME_INSTITUTIONS: LiteralString = "UNWIND $renames AS r MATCH (n:Institution {id: r.old}) SET n.id = r.new"

# AUTHORED.institution_ids hold internal ids: rewrite them when an institution's id changed
# (rename or merge). Scans AUTHORED edges naming the old id; rare. Returns the papers of the rewritten
# edges (their STATES_AFFILIATION is rebuilt): paper.
REWRITE_INSTITUTION_IDS: LiteralString = """
UNWIND $renames AS c
MATCH (:Researcher)-[r:AUTHORED]->(p:Paper) WHERE c.old IN r.institution_ids
SET r.institution_ids = COLLECT { UNWIND r.institution_ids AS x
  WITH CASE WHEN x = c.old THEN c.new ELSE x END AS y RETURN DISTINCT y }
RETURN DISTINCT p.id AS paper
"""

# --- upsert -----------------------------------------------------------------------------------
# $rows = [{i, id, keys, aliases, props, ranks, alt_names, sources: [{source, source_rank,
# source_props, rank_property, loaded_property}]}], exactly one row per node (rows of one UNWIND
# must not touch one node twice: Eager plans read every row before writing any). Keys and aliases
# always; each source's own values when its row is that source's newest (`<source>_rank`); each
# shared property when the row's rank for it (`ranks[k]`) is at least the rank it was last written
# with (`prop_ranks`: sorted `name=rank` strings), so it holds the highest-ranked value any row gave.
# Returns {i, won}: the sources whose row is (now) their newest, so their owned edges apply.

# What a researcher's SAME_NAME_AS links depend on of its own node, nulls made comparable.
_NAMED: LiteralString = "[coalesce(n.name, ''), coalesce(n.name_key, ''), coalesce(n.is_person, true)]"


def _upsert_body(named: LiteralString | None = None) -> LiteralString:
    """The upsert after its MERGE; with `named` (an expression over `n`), its value before any SET is carried
    on as `named`."""
    before: LiteralString = "" if named is None else ", " + named + " AS named"
    carried: LiteralString = "" if named is None else ", named"
    return (
        """
WITH n, row, coalesce(n.prop_ranks, []) AS ranks,
     [src IN row.sources WHERE n[src.rank_property] IS NULL OR src.source_rank >= n[src.rank_property]
      | src.source] AS won"""
        + before
        + """
WITH n, row, ranks, won"""
        + carried
        + """,
     [k IN keys(row.props) WHERE none(x IN ranks WHERE x STARTS WITH k + '=' AND x > k + '=' + row.ranks[k])] AS take
SET n += row.keys,
    n.aliases = CASE WHEN n.merged_from IS NULL THEN row.aliases
      ELSE COLLECT { UNWIND row.aliases + n.merged_from AS x RETURN DISTINCT x ORDER BY x } END,
    n.prop_ranks = COLLECT { UNWIND [x IN ranks WHERE none(k IN take WHERE x STARTS WITH k + '=')]
                                    + [k IN take | k + '=' + row.ranks[k]] AS x RETURN x ORDER BY x }
FOREACH (src IN row.sources |
  SET n[src.loaded_property] = datetime(),
      n += CASE WHEN src.source IN won THEN src.source_props ELSE {} END,
      n[src.rank_property] = CASE WHEN src.source IN won THEN src.source_rank ELSE n[src.rank_property] END)
FOREACH (k IN take | SET n[k] = row.props[k])
FOREACH (_ IN CASE WHEN row.alt_names IS NULL THEN [] ELSE [1] END |
  SET n.alt_names = COLLECT { UNWIND coalesce(n.alt_names, []) + row.alt_names AS x RETURN DISTINCT x ORDER BY x })
"""
    )


_UPSERT_BODY = _upsert_body()  # only a researcher's links depend on what it was before

UPSERT_PAPERS: LiteralString = (
    "UNWIND $rows AS row MERGE (n:Paper {id: row.id})"
    + _UPSERT_BODY
    + "SET n.cited_by_count = coalesce(n.cited_by_count_openalex, n.cited_by_count_s2)\n"
    # the lists' sort keys (graph/MODEL.md, "Sort keys"; admin.BACKFILL_SORT_KEYS computes the same)
    + "SET n.sort_cited = coalesce(n.cited_by_count, 0),\n"
    + "    n.sort_date = coalesce(n.publication_date, toString(n.year), '')\n"
    + "RETURN row.i AS i, won"
)

UPSERT_RESEARCHERS: LiteralString = (
    "UNWIND $rows AS row MERGE (n:Researcher {id: row.id})"
    + _upsert_body(_NAMED)
    + "SET n.alt_names_text = reduce(s = '', x IN coalesce(n.alt_names, []) | s + x + ' ')\n"
    # a researcher whose name, name key or person flag changed loses its same-name links in the same
    # transaction; the load links its bucket again (derive.UNLINKED_NAME_KEYS), even after an interruption
    + "WITH n, row, won, named\n"
    + "CALL (n, named) {\n  WITH n WHERE named <> "
    + _NAMED
    + "\n  MATCH (n)-[s:SAME_NAME_AS]-() DELETE s\n}\n"
    + "RETURN row.i AS i, won"
)

UPSERT_INSTITUTIONS: LiteralString = (
    "UNWIND $rows AS row MERGE (n:Institution {id: row.id})"
    + _UPSERT_BODY
    + "SET n.alt_names_text = reduce(s = '', x IN coalesce(n.alt_names, []) | s + x + ' ')\n"
    + "RETURN row.i AS i, won"
)

UPSERT_CATEGORIES: LiteralString = (
    "UNWIND $rows AS row MERGE (n:Category {id: row.id})" + _UPSERT_BODY + "RETURN row.i AS i, won"
)

# References: one Ref per canonical paper key, with the key's property for citation resolution.
# $refs = [{key, keys}]; returns nothing.
UPSERT_REFS: LiteralString = "UNWIND $refs AS r MERGE (f:Ref {key: r.key}) SET f += r.keys"
