"""SQL of the bulk transform, one constant per step (loaders/bulk/transform.py runs them).

Written once, in DuckDB's dialect, and run as is by DuckDB and transpiled by SQLGlot for Spark
(loaders/bulk/spark.py). So it keeps to what both engines mean the same way: every step is a
`CREATE OR REPLACE TABLE … AS SELECT` (no UPDATE or DELETE, which Spark's file tables lack), lists
are indexed by literals only (SQLGlot shifts `x[1]` to Spark's `x[0]` but not `x[i]`), lengths use
`array_length`, one `unnest` per SELECT, and lambdas never hold an aggregate.

The rules are the online writer's (graph/MODEL.md, loaders/rows.py): rows sharing a hard key are one
node; each shared property holds the value of the best-ranked row that gave one; a source's own
values and owned relationships come from its newest row; derived edges as queries/derive.py builds
them. `{placeholders}` are filled only with names checked by transform.identifier.
"""

# --- staged rows (nr: node rows, read where they are staged; rr: relationship rows, loaded) --------

# Records whose own entity a later-or-same delete file (S2 diffs) or merged_ids list (OpenAlex)
# removes: `gone(label, prop, val, seq)`, from `gone_deletes` (delete files) and `merged`.
GONE = """
CREATE OR REPLACE TABLE gone AS
SELECT label, prop, val, seq FROM gone_deletes
UNION ALL
SELECT label, 'openalex_id' AS prop, id AS val, $always AS seq FROM merged WHERE id <> ''
"""

# merged_ids rows (`id`, `merge_into_id`, read as text from `merged_ids`) as bare OpenAlex ids.
MERGED = """
CREATE OR REPLACE TABLE merged AS
SELECT label, regexp_extract(id, '([WAI][0-9]+)$', 1) AS id,
       regexp_extract(merge_into_id, '([WAI][0-9]+)$', 1) AS target
FROM merged_ids
"""

DROP_GONE_RECORDS = """
CREATE OR REPLACE TABLE gone_recs AS
SELECT DISTINCT n.rec FROM nr n
JOIN gone g ON g.label = n.label AND g.seq >= n.seq
 AND list_contains(list_transform(n.keys, lambda k: k.prop || '=' || k.val), g.prop || '=' || g.val)
WHERE n.idx = 0;
CREATE OR REPLACE TABLE nr_live AS SELECT * FROM nr WHERE rec NOT IN (SELECT rec FROM gone_recs);
CREATE OR REPLACE TABLE rr AS SELECT * FROM rr WHERE rec NOT IN (SELECT rec FROM gone_recs);
"""

# References to a merged OpenAlex work point at the work it was merged into.
ALIAS_REFERENCES = """
CREATE OR REPLACE TABLE rr AS
WITH m AS (SELECT 'openalex:' || id AS old, 'openalex:' || min(target) AS new FROM merged GROUP BY id)
SELECT r.rid, r.rec, r.type, r.start, CASE WHEN m.new IS NULL THEN r."end" ELSE m.new END AS "end", r.owner,
       r.source, r.props, r.inst
FROM rr r LEFT JOIN m ON r.type = 'REFERENCES' AND r."end" = m.old
"""

# --- identity: connected components over the hard keys -------------------------------------------

# Key pairs stated together by one row: its first key with each of its keys (itself included), both
# directions.
KEY_EDGES = """
CREATE OR REPLACE TABLE ke AS
WITH pairs AS (
  SELECT label, keys[1].prop || '=' || keys[1].val AS a,
         unnest(list_transform(keys, lambda k: k.prop || '=' || k.val)) AS b
  FROM nr WHERE array_length(keys) > 1
)
SELECT DISTINCT label, a, b FROM (SELECT label, a, b FROM pairs UNION ALL SELECT label, b, a FROM pairs)
"""

COMPONENTS_START = """
CREATE OR REPLACE TABLE cm AS SELECT label, a AS k, min(b) AS c FROM ke GROUP BY label, a
"""

# One round of label propagation: each key takes the smallest component of its neighbours.
COMPONENTS_STEP = """
CREATE OR REPLACE TABLE cm2 AS
SELECT e.label, e.a AS k, min(c.c) AS c FROM ke e JOIN cm c ON c.label = e.label AND c.k = e.b
GROUP BY e.label, e.a
"""

COMPONENTS_CHANGED = """
SELECT count(*) FROM cm2 JOIN cm USING (label, k) WHERE cm2.c <> cm.c
"""

# Each node row, whole, with its node (`comp`: its component), for everything that follows: the
# one copy of the staged rows in the database, so that no later step joins rows back by (rec, idx).
ROW_NODES = """
CREATE OR REPLACE TABLE rn AS
SELECT n.*, coalesce(c.c, n.keys[1].prop || '=' || n.keys[1].val) AS comp
FROM nr n LEFT JOIN cm c ON c.label = n.label AND c.k = n.keys[1].prop || '=' || n.keys[1].val
"""

# A node's keys: per key property the smallest value its rows gave (two values are a conflict the
# summary reports), the internal id of that value, the key's rank. Nodes only attach rows state
# (S2 abstracts of papers not loaded) do not exist.
NODE_KEYS = """
CREATE OR REPLACE TABLE nk AS
WITH stated AS (
  SELECT label, comp, unnest(keys) AS k FROM rn
), keys AS (
  SELECT label, comp, k.prop AS prop, k.val AS val, k.iid AS iid, k.krank AS krank FROM stated
), live AS (
  SELECT label, comp FROM rn GROUP BY label, comp HAVING max(level) > 0
)
SELECT label, comp, prop, min(val) AS val, arg_min(iid, val) AS iid, min(krank) AS krank,
       count(DISTINCT val) AS nvals
FROM keys JOIN live USING (label, comp)
GROUP BY label, comp, prop
"""

NODES = """
CREATE OR REPLACE TABLE node AS
WITH g AS (
  SELECT label, comp, arg_min(iid, krank) AS id, list(iid) AS iids, max(nvals) > 1 AS conflict
  FROM nk GROUP BY label, comp
)
SELECT label, comp, id, list_sort(list_filter(iids, lambda x: x <> id)) AS aliases, conflict FROM g
"""

# The node each row key stands for. A row's key is its first hard key, and a key belongs to one
# component, so every row stating a key is a row of the same node: relationship rows find their ends
# here, by key, instead of among all the node rows of their record (a tenth of the rows to hash).
# Rows of nodes that do not exist (no row above level 0) find no node here and in EFFECTIVE.
KEY_NODES = """
CREATE OR REPLACE TABLE kn AS
SELECT r.label, r.rowkey, min(n.id) AS node_id FROM rn r JOIN node n USING (label, comp) GROUP BY r.label, r.rowkey
"""

# The rows whose owned relationships count: the first row of its (node, source) in its record and
# the newest of that source for the node (loaders/rows.py). This and KEY_NODES each join `rn` to `node`:
# both joins together cost about half of keeping every row's node id in a table (8 s against 15 s at 1M).
EFFECTIVE = """
CREATE OR REPLACE TABLE eff AS
WITH x AS (
  SELECT r.rec, r.idx, r."first", r.srank, r.source, n.id AS node_id FROM rn r JOIN node n USING (label, comp)
), best AS (SELECT node_id, source, max(srank) AS m FROM x GROUP BY node_id, source)
SELECT x.rec, x.idx FROM x JOIN best b USING (node_id, source) WHERE x."first" AND x.srank = b.m
"""

# --- node properties ---------------------------------------------------------------------------

# {label}'s properties: per shared property the value of the best-ranked row giving one and that
# rank, per source value the newest row's, keys, ranks and load times; {parsed} (the JSON columns as
# structs `pj` and `sj`), {extracts}, {aggregates} and {columns} are generated per property.
NODE_PROPS = """
CREATE OR REPLACE TABLE props_{label} AS
WITH x AS (
  SELECT d.id AS node_id, n.source, n.srank, n.rrank, n.alt, {extracts}
  FROM (SELECT label, comp, source, srank, rrank, alt, {parsed} FROM rn WHERE label = '{label}') n
  JOIN node d USING (label, comp)
), agg AS (
  SELECT node_id, {aggregates} FROM x GROUP BY node_id
), keyed AS (
  SELECT n.id AS node_id, {keys} FROM nk k JOIN node n USING (label, comp) WHERE k.label = '{label}'
  GROUP BY n.id
)
SELECT n.id, n.aliases, {columns}
FROM node n JOIN agg a ON a.node_id = n.id JOIN keyed k ON k.node_id = n.id
WHERE n.label = '{label}'
"""

# --- relationships -----------------------------------------------------------------------------

# Each relationship row with its ends' node ids (a Ref end is its key) and its order among the rows
# stating the same edge: source priority, then record (the later record wins, as it would online).
REL_IDS = """
CREATE OR REPLACE TABLE rri AS
SELECT r.rid, r.type, r.source, r.props, r.inst, s.node_id AS sid,
       CASE WHEN t.end_label = 'Ref' THEN r."end" ELSE e.node_id END AS eid,
       t.start_label, t.end_label, t.stored,
       p.priority * 1000000000000000 + (r.rec % 1000000000000000) AS ord
FROM rr r
JOIN rel_ends t ON t.type = r.type
JOIN source_priority p ON p.source = r.source
JOIN kn s ON s.label = t.start_label AND s.rowkey = r.start
LEFT JOIN kn e ON e.label = t.end_label AND e.rowkey = r."end"
LEFT JOIN eff o ON o.rec = r.rec AND o.idx = r.owner
WHERE (r.owner IS NULL OR o.rec IS NOT NULL)
  AND (t.end_label = 'Ref' OR e.node_id IS NOT NULL)
  AND NOT (r.type = 'INSTITUTION_PART_OF' AND s.node_id = e.node_id)
"""

# AUTHORED rows' institutions as node ids, in the order the row names them.
REL_INSTITUTIONS = """
CREATE OR REPLACE TABLE rinst AS
WITH e AS (
  SELECT r.rid, unnest(list_transform(r.inst, lambda k, i: {'pos': i, 'k': k})) AS e
  FROM rri r WHERE r.inst IS NOT NULL
), u AS (SELECT rid, e.pos AS pos, e.k AS k FROM e)
SELECT u.rid, list_transform(list_sort(list({'pos': u.pos, 'id': i.node_id})), lambda p: p.id) AS iids
FROM u JOIN kn i ON i.label = 'Institution' AND i.rowkey = u.k
GROUP BY u.rid
"""

# One edge per (type, start, end): every source stating it, the best source, per property the
# value of the best row giving one; {parsed} (`pj`), {extracts} and {aggregates} are generated per
# property, {sources} per known source (flags cost less than a list of every row's source; rri keeps
# known sources only).
EDGES = """
CREATE OR REPLACE TABLE edge_{type} AS
WITH x AS (
  SELECT r.sid, r.eid, r.source, r.ord, r.inst IS NOT NULL AS has_inst, coalesce(i.iids, []) AS iids, {extracts}
  FROM (SELECT rid, sid, eid, source, ord, inst, {parsed} FROM rri WHERE type = '{type}') r
  LEFT JOIN rinst i USING (rid)
)
SELECT sid, eid, {sources} AS sources,
       arg_max(source, ord) AS source, CAST(NULL AS VARCHAR[]) AS claimed_sources,
       arg_max(iids, ord) FILTER (WHERE has_inst) AS institution_ids{aggregates}
FROM x GROUP BY sid, eid
"""

# --- claims ------------------------------------------------------------------------------------

# Author slots (paper, rank) an id-less researcher shares with an identified one, for
# loaders.claims.plan_claims, ordered by paper.
CLAIM_SLOTS = """
WITH slots AS (
  SELECT a.eid AS paper, a.rank, a.sid AS researcher, k.scoped, p.name, k.key_rank, a.sources
  FROM edge_AUTHORED a JOIN researcher_keys k ON k.id = a.sid JOIN props_Researcher p ON p.id = a.sid
  WHERE a.rank IS NOT NULL
), wanted AS (
  SELECT paper, rank FROM slots GROUP BY paper, rank HAVING count(*) > 1 AND bool_or(scoped)
)
SELECT s.* FROM slots s JOIN wanted USING (paper, rank) ORDER BY paper, rank, researcher
"""

RESEARCHER_KEYS = """
CREATE OR REPLACE TABLE researcher_keys AS
SELECT n.id, bool_or(k.prop = 'scoped_key') AS scoped,
       min(CASE k.prop WHEN 'orcid' THEN 0 WHEN 'openalex_id' THEN 1 WHEN 's2_id' THEN 2 ELSE 3 END) AS key_rank
FROM nk k JOIN node n USING (label, comp) WHERE k.label = 'Researcher' GROUP BY n.id
"""

# Claim moves (paper, from, to, sources) applied to AUTHORED: the claiming edge gains the sources
# (and notes them as claimed), the claimed-from edge loses them and goes when none is left.
# {columns} are edge_AUTHORED's other columns ({qualified}: the same with `a.`).
CLAIM_EDGES = """
CREATE OR REPLACE TABLE edge_AUTHORED AS
WITH onto AS (
  SELECT paper, "to", flatten(list(sources)) AS s FROM claim_moves GROUP BY paper, "to"
), away AS (
  SELECT paper, "from", flatten(list(sources)) AS s FROM claim_moves GROUP BY paper, "from"
), gained AS (
  SELECT a.sid, a.eid, {qualified},
         CASE WHEN o.s IS NULL THEN a.sources ELSE list_sort(list_distinct(a.sources || o.s)) END AS sources,
         CASE WHEN o.s IS NULL THEN a.claimed_sources
              ELSE list_sort(list_distinct(coalesce(a.claimed_sources, []) || o.s)) END AS claimed_sources,
         w.s AS lost
  FROM edge_AUTHORED a
  LEFT JOIN onto o ON o.paper = a.eid AND o."to" = a.sid
  LEFT JOIN away w ON w.paper = a.eid AND w."from" = a.sid
), kept AS (
  SELECT sid, eid, {columns},
         CASE WHEN lost IS NULL THEN sources ELSE list_filter(sources, lambda s: NOT list_contains(lost, s)) END
           AS sources,
         CASE WHEN lost IS NULL THEN claimed_sources
              ELSE nullif(list_filter(coalesce(claimed_sources, []), lambda s: NOT list_contains(lost, s)), []) END
           AS claimed_sources
  FROM gained
)
SELECT * FROM kept WHERE array_length(sources) > 0
"""

# Scoped researchers every one of whose authorships was claimed away are gone.
UNCLAIMED = """
CREATE OR REPLACE TABLE unclaimed AS
SELECT k.id FROM researcher_keys k WHERE k.scoped AND k.id IN (SELECT "from" FROM claim_moves)
  AND NOT EXISTS (SELECT 1 FROM edge_AUTHORED a WHERE a.sid = k.id);
CREATE OR REPLACE TABLE props_Researcher AS
SELECT * FROM props_Researcher WHERE id NOT IN (SELECT id FROM unclaimed);
"""

# --- derived -----------------------------------------------------------------------------------

# Each paper's `category_ids` (graph/MODEL.md "Sort keys"): its IN_CATEGORY ends, sorted; null when none.
# Each IN_CATEGORY edge's keys: the category's id and the paper's sort keys.
PAPER_CATEGORY_IDS = """
CREATE OR REPLACE TABLE paper_categories AS
SELECT sid AS id, list_sort(list(eid)) AS category_ids FROM edge_IN_CATEGORY GROUP BY sid;
CREATE OR REPLACE TABLE props_Paper AS
SELECT p.*, c.category_ids FROM props_Paper p LEFT JOIN paper_categories c USING (id);
CREATE OR REPLACE TABLE edge_IN_CATEGORY AS
SELECT e.*, e.eid AS category, p.sort_cited, p.sort_date
FROM edge_IN_CATEGORY e LEFT JOIN props_Paper p ON p.id = e.sid;
"""

# Every Paper key as the canonical key a Ref holds (`doi:10.1/x`).
PAPER_REF_KEYS = """
CREATE OR REPLACE TABLE paper_ck AS
SELECT s.scheme || ':' || k.val AS ck, n.id
FROM nk k JOIN node n USING (label, comp) JOIN paper_schemes s ON s.prop = k.prop
WHERE k.label = 'Paper'
"""

CITES = """
CREATE OR REPLACE TABLE edge_CITES AS
SELECT DISTINCT r.sid, c.id AS eid FROM edge_REFERENCES r JOIN paper_ck c ON c.ck = r.eid WHERE r.sid <> c.id
"""

AUTHORSHIPS = """
CREATE OR REPLACE TABLE au AS
SELECT a.sid AS rid, a.eid AS pid, p.year, a.institution_ids
FROM edge_AUTHORED a JOIN props_Paper p ON p.id = a.eid
"""

# COAUTHORED_WITH {weight, first_year, last_year, pair} from papers of at most $max_authors authors
# (graph/MODEL.md "Pair edges"), from the smaller id to the larger, keyed "<smaller id> <larger id>"
# as the online loader keys it (queries/derive.py). `au` holds one row per (researcher, paper) (edge_AUTHORED
# is one row per pair), so a pair's rows are its shared papers: count(*), not count(DISTINCT pid) (10 s
# against 16 s at 1M, the same rows).
COAUTHORED = """
CREATE OR REPLACE TABLE edge_COAUTHORED_WITH AS
WITH small AS (SELECT pid FROM au GROUP BY pid HAVING count(*) <= $max_authors),
people AS (SELECT a.* FROM au a JOIN small USING (pid))
SELECT a.rid AS sid, b.rid AS eid, count(*) AS weight, min(a.year) AS first_year,
       max(a.year) AS last_year, a.rid || ' ' || b.rid AS pair
FROM people a JOIN people b ON a.pid = b.pid AND a.rid < b.rid
GROUP BY a.rid, b.rid
"""

# TOP_TIE {weight, first_year, last_year} (graph/MODEL.md "Network backbone"): from each researcher with
# more than $top_ties co-authors to that many of its heaviest (weight descending, then id), as the online
# loader's REFRESH_TOP_TIES (queries/derive.py) keeps them.
TOP_TIES = """
CREATE OR REPLACE TABLE edge_TOP_TIE AS
WITH ends AS (
  SELECT sid AS rid, eid AS other, weight, first_year, last_year FROM edge_COAUTHORED_WITH
  UNION ALL
  SELECT eid AS rid, sid AS other, weight, first_year, last_year FROM edge_COAUTHORED_WITH
),
ranked AS (
  SELECT rid, other, weight, first_year, last_year,
         row_number() OVER (PARTITION BY rid ORDER BY weight DESC, other) AS place,
         count(*) OVER (PARTITION BY rid) AS ties
  FROM ends
)
SELECT rid AS sid, other AS eid, weight, first_year, last_year FROM ranked WHERE ties > $top_ties AND place <= $top_ties
"""

# Columns the derived statements below read that a table has only when some record stated them (the
# tables' columns follow the properties seen): added empty before they run, so any dump builds.
COLUMNS_READ: dict[str, dict[str, str]] = {
    "props_Paper": {"year": "BIGINT"},
    "props_Researcher": {"name": "VARCHAR", "name_key": "VARCHAR", "is_person": "BOOLEAN"},
    "edge_LISTED_AFFILIATION": {"years": "BIGINT[]"},
}

# AFFILIATED_WITH {first_year, last_year, papers}: institutions stated on authorships (their
# papers' years) and listed affiliations (their years), to institutions that exist.
AFFILIATED = """
CREATE OR REPLACE TABLE edge_AFFILIATED_WITH AS
WITH stated AS (
  SELECT rid, unnest(institution_ids) AS iid, year, pid FROM au WHERE institution_ids IS NOT NULL
  UNION ALL
  SELECT sid AS rid, eid AS iid,
         unnest(CASE WHEN array_length(coalesce(years, [])) = 0 THEN [NULL] ELSE years END) AS year, NULL AS pid
  FROM edge_LISTED_AFFILIATION
)
SELECT s.rid AS sid, s.iid AS eid, min(year) AS first_year, max(year) AS last_year,
       count(DISTINCT pid) AS papers
FROM stated s JOIN props_Institution i ON i.id = s.iid
GROUP BY s.rid, s.iid
"""

# STATES_AFFILIATION {authors}: each paper to the institutions its authorships state (that exist), with
# how many of its authors state each (queries/derive.py BUILD_STATED).
STATED = """
CREATE OR REPLACE TABLE edge_STATES_AFFILIATION AS
WITH stated AS (SELECT rid, pid, unnest(institution_ids) AS iid FROM au WHERE institution_ids IS NOT NULL)
SELECT s.pid AS sid, s.iid AS eid, count(DISTINCT s.rid) AS authors
FROM stated s JOIN props_Institution i ON i.id = s.iid
GROUP BY s.pid, s.iid
"""

# SAME_NAME_AS (graph/MODEL.md "Pair edges"), in steps of their own: one statement that did it all ran
# 36-44 s at 1M, these steps ~21 s (DuckDB planned the whole worse: it ran the names UDF on every pair,
# not once per distinct pair of names, and joined in a costlier order).
# Pairs of people in a name_key bucket of at most $cap people, smaller id first, with both names.
SAME_NAME_PAIRS = """
CREATE OR REPLACE TABLE same_name_pairs AS
WITH people AS (
  SELECT id, name, name_key FROM props_Researcher
  WHERE name_key IS NOT NULL AND name_key <> '' AND coalesce(is_person, true) AND name IS NOT NULL AND name <> ''
), sizes AS (SELECT name_key FROM people GROUP BY name_key HAVING count(*) <= $cap)
SELECT a.id AS sid, b.id AS eid, a.name_key, a.name AS a_name, b.name AS b_name
FROM people a JOIN sizes USING (name_key) JOIN people b ON b.name_key = a.name_key AND a.id < b.id
"""

# Whether two names are compatible (graph/identity/names.py, a UDF), once per distinct pair of names (at
# 1M: 0.74 M of 3.56 M pairs).
SAME_NAME_COMPATIBLE = """
CREATE OR REPLACE TABLE same_name_compatible AS
SELECT a_name, b_name, names_compatible(a_name, b_name) AS ok FROM (SELECT DISTINCT a_name, b_name FROM same_name_pairs)
"""

# The links: pairs whose names are compatible. A link holds nothing more: its evidence is counted when it
# is read (queries/read_researchers.SAME_NAME_EVIDENCE).
SAME_NAME = """
CREATE OR REPLACE TABLE edge_SAME_NAME_AS AS
SELECT p.sid, p.eid FROM same_name_pairs p JOIN same_name_compatible c USING (a_name, b_name) WHERE c.ok
"""

# Ref nodes: every reference key an edge points at, with the key's property.
REFS = """
CREATE OR REPLACE TABLE props_Ref AS
SELECT DISTINCT r.eid AS "key", s.prop, substr(r.eid, length(s.scheme) + 2) AS val
FROM edge_REFERENCES r JOIN paper_schemes s ON s.scheme = split_part(r.eid, ':', 1)
"""
