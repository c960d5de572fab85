"""Administration statements: constraints and indexes (each IF NOT EXISTS, so migrating twice is a
no-op), counts, reset."""

from typing import LiteralString

from weft.queries.aliases import INDEX as ALIAS_INDEX
from weft.queries.derive import CATEGORY_IDS_OF_P, IN_CATEGORY_KEYS_OF_R

# Uniqueness constraints: every key a node can be found by.
CONSTRAINTS: tuple[LiteralString, ...] = (
    "CREATE CONSTRAINT paper_id IF NOT EXISTS FOR (n:Paper) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT paper_doi IF NOT EXISTS FOR (n:Paper) REQUIRE n.doi IS UNIQUE",
    "CREATE CONSTRAINT paper_arxiv IF NOT EXISTS FOR (n:Paper) REQUIRE n.arxiv_id IS UNIQUE",
    "CREATE CONSTRAINT paper_openalex IF NOT EXISTS FOR (n:Paper) REQUIRE n.openalex_id IS UNIQUE",
    "CREATE CONSTRAINT paper_s2 IF NOT EXISTS FOR (n:Paper) REQUIRE n.s2_id IS UNIQUE",
    "CREATE CONSTRAINT paper_corpus IF NOT EXISTS FOR (n:Paper) REQUIRE n.corpus_id IS UNIQUE",
    "CREATE CONSTRAINT paper_mag IF NOT EXISTS FOR (n:Paper) REQUIRE n.mag_id IS UNIQUE",
    "CREATE CONSTRAINT paper_pmid IF NOT EXISTS FOR (n:Paper) REQUIRE n.pmid IS UNIQUE",
    "CREATE CONSTRAINT researcher_id IF NOT EXISTS FOR (n:Researcher) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT researcher_openalex IF NOT EXISTS FOR (n:Researcher) REQUIRE n.openalex_id IS UNIQUE",
    "CREATE CONSTRAINT researcher_s2 IF NOT EXISTS FOR (n:Researcher) REQUIRE n.s2_id IS UNIQUE",
    "CREATE CONSTRAINT researcher_orcid IF NOT EXISTS FOR (n:Researcher) REQUIRE n.orcid IS UNIQUE",
    "CREATE CONSTRAINT researcher_scoped IF NOT EXISTS FOR (n:Researcher) REQUIRE n.scoped_key IS UNIQUE",
    "CREATE CONSTRAINT institution_id IF NOT EXISTS FOR (n:Institution) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT institution_ror IF NOT EXISTS FOR (n:Institution) REQUIRE n.ror IS UNIQUE",
    "CREATE CONSTRAINT institution_openalex IF NOT EXISTS FOR (n:Institution) REQUIRE n.openalex_id IS UNIQUE",
    "CREATE CONSTRAINT category_id IF NOT EXISTS FOR (n:Category) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT category_key IF NOT EXISTS FOR (n:Category) REQUIRE n.key IS UNIQUE",
    "CREATE CONSTRAINT ref_key IF NOT EXISTS FOR (n:Ref) REQUIRE n.key IS UNIQUE",
    "CREATE CONSTRAINT meta_key IF NOT EXISTS FOR (n:Meta) REQUIRE n.key IS UNIQUE",
    "CREATE CONSTRAINT sync_state_source IF NOT EXISTS FOR (n:SyncState) REQUIRE n.source IS UNIQUE",
    "CREATE CONSTRAINT change_key IF NOT EXISTS FOR (n:Change) REQUIRE n.key IS UNIQUE",
    "CREATE CONSTRAINT paper_vector_paper IF NOT EXISTS FOR (n:PaperVector) REQUIRE n.paper_id IS UNIQUE",
    # one writer at a time (graph/writer_lock.py): concurrent MERGEs of the lock node meet on this index
    "CREATE CONSTRAINT writer_lock_name IF NOT EXISTS FOR (n:WriterLock) REQUIRE n.name IS UNIQUE",
)

# Secondary indexes: sort keys, same-name lookup, old ids, full-text search.
INDEXES: tuple[LiteralString, ...] = (
    "CREATE INDEX paper_year IF NOT EXISTS FOR (n:Paper) ON (n.year)",
    "CREATE INDEX paper_cited IF NOT EXISTS FOR (n:Paper) ON (n.cited_by_count)",
    # Facet filters (queries/read_facets.py): the papers of one venue, type or language, the institutions of a
    # country, found by a seek when that filter is the narrowest given.
    "CREATE INDEX paper_venue IF NOT EXISTS FOR (n:Paper) ON (n.venue)",
    "CREATE INDEX paper_type IF NOT EXISTS FOR (n:Paper) ON (n.type)",
    "CREATE INDEX paper_language IF NOT EXISTS FOR (n:Paper) ON (n.language)",
    "CREATE INDEX institution_country IF NOT EXISTS FOR (n:Institution) ON (n.country)",
    # The paper lists' orders, read in index order (graph/MODEL.md, "Sort keys"): most cited (ties newest
    # first) and by date. Composite, so `ORDER BY p.sort_cited DESC, p.sort_date DESC` needs no sort.
    "CREATE INDEX paper_sort_cited IF NOT EXISTS FOR (n:Paper) ON (n.sort_cited, n.sort_date)",
    "CREATE INDEX paper_sort_date IF NOT EXISTS FOR (n:Paper) ON (n.sort_date)",
    # One category's papers most cited first, read in order from its IN_CATEGORY edges, which carry the
    # category's id and the paper's sort keys (graph/MODEL.md, "Sort keys").
    "CREATE INDEX in_category_sort_cited IF NOT EXISTS FOR ()-[r:IN_CATEGORY]-() "
    "ON (r.category, r.sort_cited, r.sort_date)",
    "CREATE INDEX researcher_name_key IF NOT EXISTS FOR (n:Researcher) ON (n.name_key)",
    "CREATE INDEX researcher_page_rank IF NOT EXISTS FOR (n:Researcher) ON (n.page_rank)",
    "CREATE INDEX institution_name_key IF NOT EXISTS FOR (n:Institution) ON (n.name_key)",
    # The change log, paged by `seq` (the `changes` connection).
    "CREATE INDEX change_seq IF NOT EXISTS FOR (n:Change) ON (n.seq)",
    # The site answers 410 Gone for a page whose node a sync deleted: its deletion found by either id.
    "CREATE INDEX change_id IF NOT EXISTS FOR (n:Change) ON (n.id)",
    "CREATE INDEX change_source_id IF NOT EXISTS FOR (n:Change) ON (n.source_id)",
    # Ref key properties: a paper arriving late finds the references that name it (CITES).
    "CREATE INDEX ref_doi IF NOT EXISTS FOR (n:Ref) ON (n.doi)",
    "CREATE INDEX ref_arxiv IF NOT EXISTS FOR (n:Ref) ON (n.arxiv_id)",
    "CREATE INDEX ref_openalex IF NOT EXISTS FOR (n:Ref) ON (n.openalex_id)",
    "CREATE INDEX ref_s2 IF NOT EXISTS FOR (n:Ref) ON (n.s2_id)",
    "CREATE INDEX ref_corpus IF NOT EXISTS FOR (n:Ref) ON (n.corpus_id)",
    "CREATE INDEX ref_mag IF NOT EXISTS FOR (n:Ref) ON (n.mag_id)",
    "CREATE INDEX ref_pmid IF NOT EXISTS FOR (n:Ref) ON (n.pmid)",
    "CREATE FULLTEXT INDEX paper_text IF NOT EXISTS FOR (n:Paper) ON EACH [n.title, n.abstract]",
    "CREATE FULLTEXT INDEX researcher_text IF NOT EXISTS FOR (n:Researcher) ON EACH [n.name, n.alt_names_text]",
    "CREATE FULLTEXT INDEX institution_text IF NOT EXISTS FOR (n:Institution) ON EACH [n.name, n.alt_names_text]",
    # Retired ids (a merged or re-keyed node's old ids, in its `aliases` list) found by an index query, not a
    # label scan (queries/aliases.py): one term per alias, as written (the `keyword` analyzer).
    *(
        "CREATE FULLTEXT INDEX " + index + " IF NOT EXISTS FOR (n:" + label + ") ON EACH [n.aliases] "
        "OPTIONS {indexConfig: {`fulltext.analyzer`: 'keyword'}}"
        for label, index in ALIAS_INDEX.items()
    ),
    # Papers' sentence vectors (queries/semantic.py): all-MiniLM-L6-v2's 384 dimensions, cosine.
    "CREATE VECTOR INDEX paper_vector IF NOT EXISTS FOR (n:PaperVector) ON (n.vector) "
    "OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}",
)

# Every index and its state (ONLINE, POPULATING, FAILED); a uniqueness constraint's backing index bears
# the constraint's name. server/health.py's /ready checks that the names of CONSTRAINTS and INDEXES are
# all there and ONLINE.
SCHEMA_STATE: LiteralString = "SHOW INDEXES YIELD name, state RETURN name, state"

# Blocks until every index is online, so the first query after a migration can use it.
AWAIT_INDEXES: LiteralString = "CALL db.awaitIndexes(300)"

# Papers' sort keys (graph/MODEL.md, "Sort keys") set wherever they are missing or stale, with their
# IN_CATEGORY edges' copies, in batches: the loaders write them, so this only backfills a database loaded
# before they existed or a bulk import (neo4j-admin drops an undated paper's '' date). Idempotent.
BACKFILL_SORT_KEYS: LiteralString = (
    """
MATCH (p:Paper)
WITH p, coalesce(p.cited_by_count, 0) AS cited, coalesce(p.publication_date, toString(p.year), '') AS date
WHERE p.sort_cited IS NULL OR p.sort_date IS NULL OR p.sort_cited <> cited OR p.sort_date <> date
CALL (p, cited, date) {
  SET p.sort_cited = cited, p.sort_date = date
  WITH p
  MATCH (p)-[r:IN_CATEGORY]->(c:Category)
  SET """
    + IN_CATEGORY_KEYS_OF_R
    + """
} IN TRANSACTIONS OF 10000 ROWS
"""
)

# Papers' `category_ids` (graph/MODEL.md "Sort keys") set where missing and the paper is in a category:
# the loaders write them, so this only backfills a database loaded before they existed. Idempotent.
BACKFILL_CATEGORY_IDS: LiteralString = (
    """
MATCH (p:Paper) WHERE p.category_ids IS NULL AND EXISTS { (p)-[:IN_CATEGORY]->(:Category) }
CALL (p) { SET p.category_ids = """
    + CATEGORY_IDS_OF_P
    + """ } IN TRANSACTIONS OF 10000 ROWS
"""
)

# The counts SAME_NAME_AS links held before their evidence was counted when read (read_researchers.
# SAME_NAME_EVIDENCE), removed so no analyst reads a stale one. Idempotent; returns nothing.
BACKFILL_SAME_NAME_PROPERTIES: LiteralString = """
MATCH ()-[s:SAME_NAME_AS]->()
WHERE s.evidence IS NOT NULL OR s.shared_coauthors IS NOT NULL OR s.shared_institutions IS NOT NULL
   OR s.overlapping_years IS NOT NULL
CALL (s) {
  REMOVE s.evidence, s.shared_coauthors, s.shared_institutions, s.overlapping_years
} IN TRANSACTIONS OF 10000 ROWS
"""

# How many IN_CATEGORY edges there are (the count store) and how many carry all three keys (the entries
# of their index, `in_category_sort_cited`): edges, keyed. Seconds at 1M works, where reading every
# edge's properties takes tens.
IN_CATEGORY_KEYS_COVERAGE: LiteralString = """
CALL () { MATCH ()-[r:IN_CATEGORY]->() RETURN count(r) AS edges }
CALL () {
  MATCH ()-[r:IN_CATEGORY]->()
  WHERE r.category IS NOT NULL AND r.sort_cited IS NOT NULL AND r.sort_date IS NOT NULL
  RETURN count(r) AS keyed
}
RETURN edges, keyed
"""

# IN_CATEGORY edges' keys (graph/MODEL.md "Sort keys") set wherever they are missing or differ from their
# paper's and category's, in batches: for a database loaded before the edges had them (the loaders and
# BACKFILL_SORT_KEYS keep them). Idempotent. The edges are read inside the subquery: read before it,
# the rows the SET could change would all be held first (an Eager plan).
BACKFILL_IN_CATEGORY_KEYS: LiteralString = (
    """
MATCH (p:Paper)
CALL (p) {
  MATCH (p)-[r:IN_CATEGORY]->(c:Category)
  WHERE NOT coalesce(r.category = c.id AND r.sort_cited = p.sort_cited AND r.sort_date = p.sort_date, false)
  SET """
    + IN_CATEGORY_KEYS_OF_R
    + """
} IN TRANSACTIONS OF 2000 ROWS
"""
)

# Which round of the migration's backfills (graph/migrate.BACKFILLS) the graph has had, and for how many
# ties a researcher's TOP_TIE edges were made: {backfilled} (0 when never, or no Meta node yet), {top_ties}.
BACKFILLED: LiteralString = """
OPTIONAL MATCH (m:Meta {key: 'graph'}) RETURN coalesce(m.backfilled, 0) AS backfilled, m.top_ties AS top_ties
"""

# Notes that the backfills of round $round have run with $k ties kept per researcher, on the Meta node if
# there is one (a migration never adds a node: an empty graph stays empty); returns nothing.
MARK_BACKFILLED: LiteralString = "MATCH (m:Meta {key: 'graph'}) SET m.backfilled = $round, m.top_ties = $k"

# Researchers whose number of TOP_TIE edges is not what graph/MODEL.md "Network backbone" gives for $k:
# $k for one with more than $k co-authors, else none (both counts from the degree store); {id}.
TOP_TIES_MISCOUNTED: LiteralString = """
MATCH (r:Researcher)
WITH r, COUNT { (r)-[:COAUTHORED_WITH]-() } AS degree, COUNT { (r)-[:TOP_TIE]->() } AS kept
WHERE kept <> CASE WHEN degree > $k THEN $k ELSE 0 END
RETURN r.id AS id
"""

# One COAUTHORED_WITH per pair, and the index each co-author MERGE seeks (graph/MODEL.md "Pair
# edges"). Created by the migration only once every edge is keyed (graph/migrate.py): its presence
# says the store's edges are keyed, so no later migration reads them again.
COAUTHORED_PAIR_CONSTRAINT: LiteralString = (
    "CREATE CONSTRAINT coauthored_pair IF NOT EXISTS FOR ()-[r:COAUTHORED_WITH]-() REQUIRE r.pair IS UNIQUE"
)
COAUTHORED_PAIR_CONSTRAINED: LiteralString = (
    "SHOW CONSTRAINTS YIELD name WHERE name = 'coauthored_pair' RETURN count(*) > 0 AS present"
)

# How many COAUTHORED_WITH edges there are (the count store) and how many are keyed: {edges, keyed}.
COAUTHORED_PAIR_COVERAGE: LiteralString = """
CALL () { MATCH ()-[r:COAUTHORED_WITH]->() RETURN count(r) AS edges }
CALL () { MATCH ()-[r:COAUTHORED_WITH]->() WHERE r.pair IS NOT NULL RETURN count(r) AS keyed }
RETURN edges, keyed
"""

# COAUTHORED_WITH edges' `pair` ("<start id> <end id>", graph/MODEL.md "Pair edges") set where it is
# missing or stale, in batches: for a database loaded before edges had it. Idempotent. An edge stored
# from the larger id (never written so) gets the key of its ends as they are; the next load touching
# either end replaces it (derive.CLEAR_COAUTHORED).
BACKFILL_COAUTHORED_PAIRS: LiteralString = """
MATCH (a:Researcher)
CALL (a) {
  MATCH (a)-[r:COAUTHORED_WITH]->(b)
  WHERE coalesce(r.pair <> a.id + ' ' + b.id, true)
  SET r.pair = a.id + ' ' + b.id
} IN TRANSACTIONS OF 2000 ROWS
"""

# Delete everything in batches, relationships first (constraints and indexes stay); return nothing.
DELETE_ALL_RELATIONSHIPS: LiteralString = "MATCH ()-[r]->() CALL (r) { DELETE r } IN TRANSACTIONS OF 10000 ROWS"
# The writer lock stays: `weft reset` holds it while it empties the graph (graph/writer_lock.py).
DELETE_ALL_NODES: LiteralString = "MATCH (n) WHERE NOT n:WriterLock CALL (n) { DELETE n } IN TRANSACTIONS OF 10000 ROWS"

# Counts nodes per label and relationships per type: [{kind, name, count}].
COUNTS: LiteralString = """
CALL () {
  MATCH (n) UNWIND labels(n) AS name RETURN 'node' AS kind, name, count(*) AS count
  UNION ALL
  MATCH ()-[r]->() RETURN 'relationship' AS kind, type(r) AS name, count(*) AS count
}
RETURN kind, name, count ORDER BY kind, name
"""
