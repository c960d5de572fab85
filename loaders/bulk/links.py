"""An OpenAlex works file staged in SQL but for each work's own Paper row: its authors and their
institutions (Researcher and Institution rows, AUTHORED), categories (Category rows, IN_CATEGORY,
CATEGORY_PART_OF) and references: 48 of a synthetic work's 49 staged rows, on which the row builders spent
most of staging.

DuckDB reads the file once and names the works whose rows it can stage exactly as loaders/openalex.py
would: every value those rows come from has the type and form the builder expects (a text id in plain
ASCII, a name without control characters and within its cap…). Those works go through the builder for
their Paper row alone (`openalex.build_rows_without_links`), which still decides what is rejected; their
other rows are then written from SQL for the records the builder kept. Names are cleaned, keyed and told
apart from organisations by the builder's own functions, once per distinct name. Every other work, and
every work of a file DuckDB cannot read as one object per line, goes through the full builder. The staged
rows are the same either way (tests/unit/test_bulk_links.py compares them row for row).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import duckdb
import orjson

from weft.graph.identity.ids import KEY_RANK, KEY_SCHEME, PREFIX
from weft.graph.identity.names import is_person_name
from weft.graph.sources import SOURCE_PRIORITY
from weft.loaders.bulk.engine import sql_text
from weft.loaders.fields import MAX_INT, MAX_KEY_CHARS, MAX_NAME_CHARS, MAX_TEXT_CHARS
from weft.loaders.openalex import institution_name_key, person_facts
from weft.loaders.reader import JSON, is_object
from weft.loaders.rows import MENTION

SOURCE = "openalex"
# is_person of a researcher row whose author has no name at all.
NAMELESS_IS_PERSON = is_person_name(None)
PERSON_FACTS = "STRUCT(name VARCHAR, key VARCHAR, person BOOLEAN)"
# The shapes a topic, a topic's subfield (field, domain) and a concept are read in: every value as JSON,
# so its type is checked as the builder sees it.
TOPIC = '{"id": "JSON", "display_name": "JSON", "score": "JSON", "subfield": "JSON", "field": "JSON", "domain": "JSON"}'
PART = '{"id": "JSON", "display_name": "JSON"}'
CONCEPT = '{"id": "JSON", "display_name": "JSON", "level": "JSON", "score": "JSON"}'
# An id-less author's key is `<paper key>#<rank>`: room kept for the rank.
SCOPE_SUFFIX_CHARS = 12
# What one file's DuckDB may hold before it spills (a worker also holds the builders' rows: ~1.3 GB in
# all at 50,000 works a file).
MEMORY_LIMIT = "1GB"
# Staged rows are written once and read once, by the same machine: the cheapest compression to write.
COMPRESSION = "snappy"
# Rows staged here take node indexes from these on (a record's own rows count from 0).
CATEGORY_INDEX = 1_000_000_000
RESEARCHER_INDEX = 1_300_000_000
INSTITUTION_INDEX = 1_600_000_000
# The raw fields the links come from, read as JSON so their types can be checked as the builder sees them.
COLUMNS = {
    "id": "JSON",
    "updated_date": "JSON",
    "primary_topic": "JSON",
    "topics": "JSON",
    "concepts": "JSON",
    "referenced_works": "JSON",
    "authorships": "JSON",
}

# Helpers. A `plain` text is printable ASCII without spaces: the builder's regexes (Python `\d`,
# `str.strip`) read it as RE2 does. `unique_keys`: an object names each key once (of a key named twice
# DuckDB reads the first value, orjson the last; a line whose own keys repeat DuckDB refuses to read).
# `orjson_text` writes a text as orjson does when it holds no control character (`name_ok` makes sure).
# `is_object` reads a list element's text, which DuckDB writes minified, instead of parsing it again.
MACROS = rf"""
CREATE OR REPLACE MACRO plain(s) AS regexp_full_match(s, '[!-~]*');
CREATE OR REPLACE MACRO openalex_id(s) AS CASE
  WHEN regexp_full_match(s, '(?:https?://openalex\.org/)?[WAISTCFPwaistcfp][0-9]+')
  THEN upper(regexp_extract(s, '[WAISTCFPwaistcfp][0-9]+$')) END;
CREATE OR REPLACE MACRO kind(j, p) AS coalesce(json_type(j, p), 'NULL');
CREATE OR REPLACE MACRO is_object(j) AS starts_with(CAST(j AS VARCHAR), '{{');
CREATE OR REPLACE MACRO unique_keys(j) AS coalesce(list_unique(json_keys(j)) = len(json_keys(j)), true);
CREATE OR REPLACE MACRO text_value(j) AS CASE WHEN json_type(j) = 'VARCHAR' THEN j ->> '$' END;
CREATE OR REPLACE MACRO id_ok(j, p) AS kind(j, p) = 'NULL' OR (kind(j, p) = 'VARCHAR' AND plain(j ->> p));
CREATE OR REPLACE MACRO text_ok(s, cap) AS s IS NULL OR (length(s) <= cap AND NOT regexp_matches(s, '[\x00-\x1f]'));
CREATE OR REPLACE MACRO name_ok(j, p) AS
  kind(j, p) = 'NULL' OR (kind(j, p) = 'VARCHAR' AND text_ok(j ->> p, {MAX_NAME_CHARS}));
CREATE OR REPLACE MACRO number(j, p) AS CASE WHEN kind(j, p) IN ('UBIGINT', 'BIGINT', 'DOUBLE')
  THEN TRY_CAST(j -> p AS DOUBLE) END;
CREATE OR REPLACE MACRO number_ok(j, p) AS kind(j, p) = 'NULL' OR coalesce(isfinite(number(j, p)), false);
CREATE OR REPLACE MACRO part_ok(part, id, name) AS kind(part, '$') IN ('NULL', 'OBJECT')
  AND kind(id, '$') IN ('NULL', 'VARCHAR') AND name_ok(name, '$');
CREATE OR REPLACE MACRO part_code(id) AS nullif(regexp_extract(rtrim(coalesce(id ->> '$', ''), '/'), '[^/]*$'), '');
CREATE OR REPLACE MACRO orcid(s) AS CASE
  WHEN regexp_full_match(s, '(?i)(?:https?://orcid\.org/)?[0-9]{{4}}-[0-9]{{4}}-[0-9]{{4}}-[0-9]{{3}}[0-9X]')
  THEN upper(right(s, 19)) END;
CREATE OR REPLACE MACRO ror(s) AS CASE
  WHEN regexp_full_match(s, '(?i)(?:https?://ror\.org/)?0[a-z0-9]{{6}}[0-9]{{2}}') THEN lower(right(s, 9)) END;
CREATE OR REPLACE MACRO orjson_text(s) AS
  CASE WHEN s IS NULL THEN 'null' ELSE '"' || replace(replace(s, '\', '\\'), '"', '\"') || '"' END;
CREATE OR REPLACE MACRO orjson_pair(k, v) AS CASE WHEN v IS NOT NULL THEN '"' || k || '":' || orjson_text(v) END;
CREATE OR REPLACE MACRO sha1_bits(s) AS CAST('0x' || substr(sha1(s), 1, 14) AS UBIGINT);
CREATE OR REPLACE MACRO base32_char(v, shift) AS
  substr('abcdefghijklmnopqrstuvwxyz234567', CAST((v >> shift) & 31 AS INTEGER) + 1, 1);
CREATE OR REPLACE MACRO base32_bits(v) AS
  base32_char(v, 51) || base32_char(v, 46) || base32_char(v, 41) || base32_char(v, 36)
  || base32_char(v, 31) || base32_char(v, 26) || base32_char(v, 21) || base32_char(v, 16)
  || base32_char(v, 11) || base32_char(v, 6) || base32_char(v, 1);
"""

# The works of the file by their id as written, each stated once in the file.
WORKS = """
CREATE OR REPLACE TEMP TABLE w AS
SELECT id, upd, pt, topics, concepts, refs, authorships FROM (
  SELECT id ->> '$' AS id, updated_date AS upd, primary_topic AS pt, topics, concepts, referenced_works AS refs,
         authorships,
         count(*) OVER (PARTITION BY id ->> '$') AS copies
  FROM read_json('{path}', format = 'newline_delimited', records = 'true', compression = '{compression}',
                 hive_partitioning = false, columns = {columns})
  WHERE json_type(id) = 'VARCHAR'
)
WHERE copies = 1 AND plain(id) AND starts_with(openalex_id(id), 'W')
"""

# Every category a work names, in the builder's order (each topic, then its subfield, field and
# domain; then the concepts): `ord`, and `chain` (the topic it belongs to), with whether the values it
# comes from are ones SQL reads as the builder does (`ok`). Elements without an id are skipped, as the
# builder skips them; one whose id the builder would fail on is a row with no key and `ok` false.
MENTIONS = f"""
CREATE OR REPLACE TEMP TABLE m AS
WITH t AS (
  SELECT id, e.i AS i, CASE WHEN is_object(e.x) THEN from_json(e.x, '{TOPIC}') END AS x, is_object(e.x) AS obj,
         unique_keys(e.x) AS uniq,
         openalex_id(CASE WHEN json_type(pt) = 'OBJECT' THEN pt ->> '$.id' END) AS primary_tid
  FROM (SELECT id, pt, unnest(list_transform(CAST(topics AS JSON[]), lambda x, i: {{'i': i, 'x': x}})) AS e
        FROM w WHERE json_type(topics) = 'ARRAY')
), topic AS (
  SELECT id, i, x, primary_tid, CASE WHEN obj THEN openalex_id(x.id ->> '$') END AS tid,
         (NOT obj OR id_ok(x.id, '$')) AND uniq AND unique_keys(x.subfield) AND unique_keys(x.field)
         AND unique_keys(x.domain) AS id_fine,
         CASE WHEN json_type(x.subfield) = 'OBJECT' THEN from_json(x.subfield, '{PART}') END AS sub,
         CASE WHEN json_type(x.field) = 'OBJECT' THEN from_json(x.field, '{PART}') END AS fld,
         CASE WHEN json_type(x.domain) = 'OBJECT' THEN from_json(x.domain, '{PART}') END AS dom
  FROM t
), chain AS (
  SELECT id, i, x, tid, id_fine, tid IS NOT DISTINCT FROM primary_tid AND tid IS NOT NULL AS is_primary,
         unnest([
           {{'pos': 0, 'key': 'topic:' || tid, 'name': x.display_name ->> '$', 'scheme': 'topic', 'level': 3,
             'ok': name_ok(x.display_name, '$')}},
           {{'pos': 1, 'key': 'subfield:' || part_code(sub.id), 'name': sub.display_name ->> '$', 'scheme': 'subfield',
             'level': 2, 'ok': part_ok(x.subfield, sub.id, sub.display_name)}},
           {{'pos': 2, 'key': 'field:' || part_code(fld.id), 'name': fld.display_name ->> '$', 'scheme': 'field',
             'level': 1, 'ok': part_ok(x.field, fld.id, fld.display_name)}},
           {{'pos': 3, 'key': 'domain:' || part_code(dom.id), 'name': dom.display_name ->> '$', 'scheme': 'domain',
             'level': 0, 'ok': part_ok(x.domain, dom.id, dom.display_name)}}
         ]) AS c
  FROM topic WHERE tid IS NOT NULL OR NOT id_fine
), concept AS (
  SELECT id, i, x, CASE WHEN obj THEN openalex_id(x.id ->> '$') END AS cid,
         (NOT obj OR id_ok(x.id, '$')) AND uniq AS id_fine
  FROM (SELECT id, e.i AS i, is_object(e.x) AS obj, unique_keys(e.x) AS uniq,
               CASE WHEN is_object(e.x) THEN from_json(e.x, '{CONCEPT}') END AS x
        FROM (SELECT id, unnest(list_transform(CAST(concepts AS JSON[]), lambda x, i: {{'i': i, 'x': x}})) AS e
              FROM w WHERE json_type(concepts) = 'ARRAY'))
)
SELECT id, i * 4 + c.pos AS ord, i AS chain, CASE WHEN tid IS NOT NULL THEN c.key END AS key, c.name AS name,
       c.scheme AS scheme, c.level AS level, is_primary, number(x.score, '$') AS score,
       id_fine AND (tid IS NULL OR (c.ok AND number_ok(x.score, '$'))) AS ok
FROM chain WHERE c.key IS NOT NULL OR NOT id_fine
UNION ALL
SELECT id, {CATEGORY_INDEX} + i AS ord, NULL AS chain, 'concept:' || cid AS key, x.display_name ->> '$' AS name,
       'concept' AS scheme,
       CASE WHEN kind(x.level, '$') IN ('UBIGINT', 'BIGINT') THEN TRY_CAST(x.level AS BIGINT) END AS level,
       false AS is_primary, number(x.score, '$') AS score,
       id_fine AND (cid IS NULL OR (name_ok(x.display_name, '$') AND number_ok(x.score, '$')
         AND (kind(x.level, '$') NOT IN ('UBIGINT', 'BIGINT')
              OR coalesce(TRY_CAST(x.level AS BIGINT) BETWEEN 0 AND {MAX_INT}, false)))) AS ok
FROM concept WHERE cid IS NOT NULL OR NOT id_fine
"""  # noqa: S608 - numbers and names from our own constants

# Each work's references (its texts that are OpenAlex work ids; anything else is skipped, as the
# builder skips it), with whether the text is one SQL reads as the builder does.
REFERENCES = """
CREATE OR REPLACE TEMP TABLE r AS
SELECT id, openalex_id(x ->> '$') AS ref, json_type(x) <> 'VARCHAR' OR plain(x ->> '$') AS ok
FROM (SELECT id, unnest(CAST(refs AS JSON[])) AS x FROM w WHERE json_type(refs) = 'ARRAY')
"""

# Each authorship of a work (its objects only, numbered as the builder numbers them: `rank`), with the
# values the builder reads from it and whether SQL reads them as it does (`ok`). `rkey` is the
# researcher's best key when it has an id (an id-less one is scoped to the paper: its key comes with
# the paper's, in `claims`); `dkey` tells the work's researchers apart, as the builder does.
AUTHORSHIPS = f"""
CREATE OR REPLACE TEMP TABLE a AS
WITH e AS (
  SELECT id, unnest(list_transform(list_filter(CAST(authorships AS JSON[]), lambda x: is_object(x)),
                                   lambda x, i: {{'i': i, 'x': x}})) AS e
  FROM w WHERE json_type(authorships) = 'ARRAY'
), f AS (
  SELECT id, e.i - 1 AS rank, unique_keys(e.x) AS uniq,
         from_json(e.x, '{{"author": "JSON", "raw_author_name": "JSON", "author_position": "JSON",
                           "is_corresponding": "JSON", "institutions": "JSON"}}') AS x
  FROM e
), g AS (
  SELECT id, rank, x, uniq, CASE WHEN json_type(x.author) = 'OBJECT'
                      THEN from_json(x.author, '{{"id": "JSON", "orcid": "JSON", "display_name": "JSON"}}') END AS au
  FROM f
), h AS (
  SELECT *, text_value(au.id) AS aid_text, text_value(au.orcid) AS orcid_text, text_value(au.display_name) AS dn,
         text_value(x.raw_author_name) AS ran
  FROM g
), k AS (
  SELECT *, CASE WHEN starts_with(openalex_id(aid_text), 'A') THEN openalex_id(aid_text) END AS aid,
         orcid(orcid_text) AS orcid, CASE WHEN ran <> '' THEN ran ELSE dn END AS raw_name
  FROM h
)
SELECT id, rank, aid, orcid, raw_name, CASE WHEN dn <> '' THEN dn ELSE raw_name END AS name_src,
       CASE WHEN orcid IS NOT NULL THEN 'orcid:' || orcid WHEN aid IS NOT NULL THEN 'openalex:' || aid END AS rkey,
       coalesce(CASE WHEN orcid IS NOT NULL THEN 'orcid:' || orcid WHEN aid IS NOT NULL THEN 'openalex:' || aid END,
                '#' || rank) AS dkey,
       text_value(x.author_position) AS position,
       coalesce(CASE WHEN json_type(x.is_corresponding) = 'BOOLEAN' THEN TRY_CAST(x.is_corresponding AS BOOLEAN) END,
                false) AS corresponding,
       CASE WHEN json_type(x.institutions) = 'ARRAY' THEN TRY_CAST(x.institutions AS JSON[]) END AS insts,
       kind(x.author, '$') IN ('NULL', 'OBJECT') AND coalesce(plain(aid_text), true)
       AND coalesce(plain(orcid_text), true) AND kind(au.display_name, '$') IN ('NULL', 'VARCHAR')
       AND kind(x.raw_author_name, '$') IN ('NULL', 'VARCHAR') AND kind(x.author_position, '$') IN ('NULL', 'VARCHAR')
       AND kind(x.is_corresponding, '$') IN ('NULL', 'BOOLEAN') AND kind(x.institutions, '$') IN ('NULL', 'ARRAY')
       AND text_ok(dn, {MAX_NAME_CHARS}) AND text_ok(ran, {MAX_NAME_CHARS})
       AND text_ok(text_value(x.author_position), {MAX_TEXT_CHARS})
       AND coalesce(length(aid), 0) < {MAX_KEY_CHARS} AND uniq AND unique_keys(x.author) AS ok
FROM k
"""  # noqa: S608 - numbers from our own constants

# Each institution an authorship names (`ord`: the builder's order over the work), keyed as the
# builder keys it (`ikey`; none: skipped, as the builder skips it), with `ok` as above.
AUTHORSHIP_INSTITUTIONS = f"""
CREATE OR REPLACE TEMP TABLE ai AS
WITH e AS (
  SELECT id, rank, dkey, unnest(list_transform(insts, lambda x, j: {{'j': j, 'x': x}})) AS e
  FROM a WHERE insts IS NOT NULL
), f AS (
  SELECT id, rank, dkey, CAST(rank AS BIGINT) * 4294967296 + e.j AS ord, unique_keys(e.x) AS uniq,
         CASE WHEN is_object(e.x) THEN from_json(e.x, '{{"id": "JSON", "ror": "JSON", "display_name": "JSON",
                                                                   "country_code": "JSON", "type": "JSON"}}') END AS x
  FROM e
), g AS (
  SELECT *, text_value(x.ror) AS ror_text, text_value(x.id) AS oid_text FROM f
), h AS (
  SELECT *, ror(ror_text) AS ror,
         CASE WHEN starts_with(openalex_id(oid_text), 'I') THEN openalex_id(oid_text) END AS oid
  FROM g
)
SELECT * FROM (
SELECT id, rank, dkey, ord, ror, oid,
       CASE WHEN ror IS NOT NULL THEN 'ror:' || ror WHEN oid IS NOT NULL THEN 'openalex:' || oid END AS ikey,
       text_value(x.display_name) AS name, text_value(x.country_code) AS country, text_value(x.type) AS type,
       coalesce(plain(ror_text), true) AND coalesce(plain(oid_text), true)
       AND kind(x.display_name, '$') IN ('NULL', 'VARCHAR') AND kind(x.country_code, '$') IN ('NULL', 'VARCHAR')
       AND kind(x.type, '$') IN ('NULL', 'VARCHAR') AND text_ok(text_value(x.display_name), {MAX_NAME_CHARS})
       AND text_ok(text_value(x.country_code), {MAX_TEXT_CHARS}) AND text_ok(text_value(x.type), {MAX_TEXT_CHARS})
       AND coalesce(length(oid), 0) < {MAX_KEY_CHARS} AND uniq AS ok
FROM h
) WHERE ikey IS NOT NULL OR NOT ok
"""  # noqa: S608 - numbers from our own constants

# The cleaned text, name key and is-a-person of every name the works' authorships give, and the name
# key of every institution name: loaders/openalex.py's own functions, once per distinct text.
NAMES = """
CREATE OR REPLACE TEMP TABLE names AS
SELECT s, person_facts(s) AS f FROM (
  SELECT name_src AS s FROM a WHERE name_src IS NOT NULL UNION SELECT raw_name FROM a WHERE raw_name IS NOT NULL
);
CREATE OR REPLACE TEMP TABLE inames AS
SELECT s, nullif(institution_name_key(s), '') AS key FROM (
  SELECT DISTINCT name AS s FROM ai WHERE name IS NOT NULL AND ikey IS NOT NULL
)
"""

# The works whose links are staged here, with their `updated` text: every value their links come from
# reads the same in SQL as in the builder, and every key is within its cap.
CLEAN = f"""
CREATE OR REPLACE TEMP TABLE clean AS
SELECT id, coalesce(upd ->> '$', '') AS upd FROM w
WHERE kind(upd, '$') IN ('NULL', 'VARCHAR')
  AND (kind(pt, '$') <> 'OBJECT' OR id_ok(pt, '$.id')) AND unique_keys(pt)
  AND kind(topics, '$') IN ('NULL', 'ARRAY') AND kind(concepts, '$') IN ('NULL', 'ARRAY')
  AND kind(refs, '$') IN ('NULL', 'ARRAY')
  AND id NOT IN (SELECT id FROM m WHERE NOT ok OR length(key) > {MAX_KEY_CHARS})
  AND id NOT IN (SELECT id FROM r WHERE NOT ok)
  AND id NOT IN (SELECT id FROM a WHERE NOT ok)
  AND id NOT IN (SELECT id FROM ai WHERE NOT ok)
  AND id NOT IN (
    SELECT id FROM a JOIN names n ON n.s = a.name_src OR n.s = a.raw_name
    WHERE NOT (text_ok(n.f.name, {MAX_NAME_CHARS}) AND text_ok(n.f.key, {MAX_NAME_CHARS}))
  )
  AND id NOT IN (SELECT id FROM ai JOIN inames n ON n.s = ai.name WHERE NOT text_ok(n.key, {MAX_NAME_CHARS}))
"""  # noqa: S608 - numbers and names from our own constants

# The builder's record numbers and paper keys of the works it built without links (loaded by `claim`).
CLAIMS_COLUMNS = {"id": "VARCHAR", "rec": "BIGINT", "paper": "VARCHAR", "seq": "INTEGER"}

# Each work's categories: the first mention of each key gives its name and level.
CATEGORIES = """
CREATE OR REPLACE TEMP TABLE cf AS
SELECT m.id, m.key, arg_min(m.name, m.ord) AS name, arg_min(m.level, m.ord) AS level,
       arg_min(m.scheme, m.ord) AS scheme, min(m.ord) AS ord
FROM m JOIN clean USING (id) JOIN claims USING (id) GROUP BY m.id, m.key
"""


def _mention_rows(
    label: str, first_index: int, rows: str, columns: tuple[str, ...], content: str, rowkey: str, props: str, keys: str
) -> str:
    """A SELECT of staged node rows (loaders.bulk.stage.NODE_COLUMNS) for mentions of `label` from the
    query `rows`, which gives each row's rec, n (its place among the record's rows of this label), upd,
    seq, the columns `rowkey` uses and the row's `columns`: everything its props (a JSON text), keys (the
    key list) and `content` (the text its digest is taken of: loaders.write.row_ranks hashes orjson's text
    of the properties and keys) come from. Those three are worked out once per distinct `columns` (a
    category recurs on thousands of works, an institution on hundreds: 1.6 s less of a 50,000-work file's
    staging), then joined back to the rows."""
    return f"""
WITH rows AS ({rows}), made AS (
  SELECT {", ".join(columns)}, substr(sha1({content}), 1, 10) AS digest, CAST({props} AS JSON) AS props, {keys} AS keys
  FROM (SELECT DISTINCT {", ".join(columns)} FROM rows)
)
SELECT rows.rec, CAST({first_index} + rows.n - 1 AS INTEGER) AS idx, '{label}' AS label, {rowkey} AS rowkey,
       '{SOURCE}' AS source, {MENTION} AS level, '{MENTION}|' || rows.upd || '|' || made.digest AS srank,
       '{MENTION}|{SOURCE_PRIORITY[SOURCE]}|' || rows.upd || '|' || made.digest AS rrank, true AS "first",
       CAST([] AS VARCHAR[]) AS owns, made.props, CAST('{{}}' AS JSON) AS sprops,
       CAST(NULL AS VARCHAR[]) AS alt, made.keys, rows.seq
FROM rows JOIN made ON {" AND ".join(f"made.{c} IS NOT DISTINCT FROM rows.{c}" for c in columns)}
"""  # noqa: S608 - names and SQL from this module's constants


def _key(label: str, prop: str, value: str) -> str:
    """One entry of a staged row's key list: the value, its internal id (the canonical key's SHA-1 bits in
    base32) and its rank."""
    scheme = KEY_SCHEME[label][prop]
    canonical = f"'{scheme}:' || {value}" if scheme else value
    iid = f"'{PREFIX[label]}' || base32_bits(sha1_bits({canonical}))"
    return f"{{'prop': '{prop}', 'val': {value}, 'iid': {iid}, 'krank': {KEY_RANK[label][prop]}}}"


def _keys(*entries: str) -> str:
    return f"list_filter([{', '.join(entries)}], lambda k: k.val IS NOT NULL)"


# Category rows as loaders.bulk.stage.node_rows writes them (ranks as loaders.write.row_ranks makes them:
# the digest is SHA-1 of orjson's text).
CATEGORY_ROWS = _mention_rows(
    "Category",
    CATEGORY_INDEX,
    columns=("key", "name", "scheme", "level"),
    rows="""
    SELECT f.*, c.upd, claims.rec, claims.seq, row_number() OVER (PARTITION BY claims.rec ORDER BY f.ord) AS n
    FROM cf f JOIN clean c USING (id) JOIN claims USING (id)
    """,
    content="""'[{"level":' || coalesce(CAST(level AS VARCHAR), 'null') || ',"name":' || orjson_text(name)
               || ',"scheme":' || orjson_text(scheme) || '},{},{"key":' || orjson_text(key) || '}]'""",
    rowkey="rows.key",
    props="""'{' || concat_ws(',', '"name":' || to_json(name), '"scheme":' || to_json(scheme),
                                   '"level":' || level) || '}'""",
    keys=f"[{_key('Category', 'key', 'key')}]",
)


# Each researcher of a claimed work (its first authorship) and each institution (its first mention), as
# node rows; `scoped` is an id-less researcher's key.
PEOPLE = f"""
CREATE OR REPLACE TEMP TABLE ra AS
SELECT a.*, c.upd, claims.rec, claims.seq, claims.paper,
       CASE WHEN a.rkey IS NULL THEN claims.paper || '#' || a.rank END AS scoped,
       nm.f.name AS pname, nm.f.key AS pkey, coalesce(nm.f.person, {str(NAMELESS_IS_PERSON).lower()}) AS person,
       rw.f.name AS raw_clean,
       row_number() OVER (PARTITION BY claims.rec ORDER BY a.rank) AS n
FROM (SELECT *, row_number() OVER (PARTITION BY id, dkey ORDER BY rank) AS nth FROM a) a
JOIN clean c USING (id) JOIN claims USING (id)
LEFT JOIN names nm ON nm.s = a.name_src LEFT JOIN names rw ON rw.s = a.raw_name
WHERE a.nth = 1;
CREATE OR REPLACE TEMP TABLE ia AS
SELECT ai.*, c.upd, claims.rec, claims.seq, im.key AS nkey,
       row_number() OVER (PARTITION BY claims.rec ORDER BY ai.ord) AS n
FROM (SELECT *, row_number() OVER (PARTITION BY id, ikey ORDER BY ord) AS nth FROM ai WHERE ikey IS NOT NULL) ai
JOIN clean c USING (id) JOIN claims USING (id) LEFT JOIN inames im ON im.s = ai.name
WHERE ai.nth = 1
"""  # noqa: S608 - numbers and names from our own constants

# Researcher and Institution rows as loaders.bulk.stage.node_rows writes them (keys best first, ranks
# as loaders.write.row_ranks makes them).
RESEARCHER_ROWS = _mention_rows(
    "Researcher",
    RESEARCHER_INDEX,
    columns=("person", "pname", "pkey", "scoped", "aid", "orcid"),
    rows="SELECT * FROM ra",
    content="""'[{"is_person":' || person || ',"name":' || orjson_text(pname) || ',"name_key":' || orjson_text(pkey)
               || ',"paper_scoped":' || CASE WHEN scoped IS NULL THEN 'null' ELSE 'true' END || '},{},{'
               || concat_ws(',', orjson_pair('openalex_id', aid), orjson_pair('orcid', orcid),
                            orjson_pair('scoped_key', scoped)) || '}]'""",
    rowkey="coalesce(rows.rkey, 'paper:' || rows.scoped)",
    props="""'{' || concat_ws(',', orjson_pair('name', pname), orjson_pair('name_key', pkey), '"is_person":' || person,
                                   CASE WHEN scoped IS NOT NULL THEN '"paper_scoped":true' END) || '}'""",
    keys=_keys(
        _key("Researcher", "orcid", "orcid"),
        _key("Researcher", "openalex_id", "aid"),
        _key("Researcher", "scoped_key", "scoped"),
    ),
)

INSTITUTION_ROWS = _mention_rows(
    "Institution",
    INSTITUTION_INDEX,
    columns=("country", "name", "nkey", "type", "oid", "ror"),
    rows="SELECT * FROM ia",
    content="""'[{"country":' || orjson_text(country) || ',"name":' || orjson_text(name) || ',"name_key":'
               || orjson_text(nkey) || ',"type":' || orjson_text(type) || '},{},{'
               || concat_ws(',', orjson_pair('openalex_id', oid), orjson_pair('ror', ror)) || '}]'""",
    rowkey="rows.ikey",
    props="""'{' || concat_ws(',', orjson_pair('name', name), orjson_pair('name_key', nkey),
                                   orjson_pair('country', country), orjson_pair('type', type)) || '}'""",
    keys=_keys(_key("Institution", "ror", "ror"), _key("Institution", "openalex_id", "oid")),
)

# IN_CATEGORY (one per key: primary when any mention is, the highest score stated), CATEGORY_PART_OF
# (each topic's chain, narrowest first) and REFERENCES, as loaders.bulk.stage.rel_rows writes them.
REL_ROWS = f"""
  WITH mc AS (SELECT m.* FROM m JOIN clean USING (id)),
  rels AS (
    SELECT id, 'IN_CATEGORY' AS type, NULL AS start, key AS "end", 0 AS owner,
           CASE WHEN max(score) IS NULL THEN json_object('primary', bool_or(is_primary))
                ELSE json_object('primary', bool_or(is_primary), 'score', max(score)) END AS props
    FROM mc GROUP BY id, key
    UNION ALL
    SELECT id, 'CATEGORY_PART_OF', key, parent, NULL, '{{}}' FROM (
      SELECT id, key, lead(key) OVER (PARTITION BY id, chain ORDER BY ord) AS parent FROM mc WHERE chain IS NOT NULL
    ) WHERE parent IS NOT NULL
    UNION ALL
    SELECT DISTINCT r.id, 'REFERENCES', NULL, 'openalex:' || r.ref, 0, '{{}}'
    FROM r JOIN clean USING (id) WHERE starts_with(r.ref, 'W')
  )
  SELECT claims.rec, rels.type, coalesce(rels.start, claims.paper) AS start, rels."end",
         CAST(rels.owner AS INTEGER) AS owner, '{SOURCE}' AS source, CAST(rels.props AS JSON) AS props,
         CAST(NULL AS VARCHAR[]) AS inst
  FROM rels JOIN claims USING (id)
"""  # noqa: S608 - numbers and names from our own constants

# AUTHORED: one per researcher of a work, from its first authorship, with the institutions of all its
# authorships (each once, in the order first named).
AUTHORED_ROWS = f"""
WITH il AS (
  SELECT id, dkey, list(ikey ORDER BY o) AS keys
  FROM (SELECT id, dkey, ikey, min(ord) AS o FROM ai WHERE ikey IS NOT NULL GROUP BY id, dkey, ikey)
  GROUP BY id, dkey
)
SELECT rec, 'AUTHORED' AS type, coalesce(rkey, 'paper:' || scoped) AS start, paper AS "end", 0 AS owner,
       '{SOURCE}' AS source,
       CAST('{{' || concat_ws(',', orjson_pair('position', position), '"rank":' || rank,
                              orjson_pair('raw_name', raw_clean), '"is_corresponding":' || corresponding)
            || '}}' AS JSON) AS props,
       coalesce(il.keys, CAST([] AS VARCHAR[])) AS inst
FROM ra LEFT JOIN il USING (id, dkey)
"""  # noqa: S608 - numbers and names from our own constants

# Every property the rows staged here can hold, with its kind (tests/unit/test_bulk_links.py checks
# them against the builders'): a property's kind is noted when any staged row holds it.
PROPERTY_KINDS: dict[str, dict[str, str]] = {
    "Category": {"name": "str", "scheme": "str", "level": "int"},
    "Researcher": {"name": "str", "name_key": "str", "is_person": "bool", "paper_scoped": "bool"},
    "Institution": {"name": "str", "name_key": "str", "country": "str", "type": "str"},
    "IN_CATEGORY": {"primary": "bool", "score": "float"},
    "AUTHORED": {"position": "str", "rank": "int", "raw_name": "str", "is_corresponding": "bool"},
}


# Whether any staged row holds each of them (columns named `owner.prop`), from the tables the rows come
# from: m (category mentions), cf (each work's categories), ra (researchers, AUTHORED), ia (institutions).
KINDS = """
SELECT (SELECT count(name) FROM cf) > 0 AS "Category.name", (SELECT count(*) FROM cf) > 0 AS "Category.scheme",
       (SELECT count(level) FROM cf) > 0 AS "Category.level",
       (SELECT count(*) FROM cf) > 0 AS "IN_CATEGORY.primary",
       (SELECT count(score) FROM m JOIN clean USING (id) JOIN claims USING (id)) > 0 AS "IN_CATEGORY.score",
       count(pname) > 0 AS "Researcher.name", count(pkey) > 0 AS "Researcher.name_key",
       count(*) > 0 AS "Researcher.is_person", count(scoped) > 0 AS "Researcher.paper_scoped",
       count(position) > 0 AS "AUTHORED.position", count(*) > 0 AS "AUTHORED.rank",
       count(raw_clean) > 0 AS "AUTHORED.raw_name", count(*) > 0 AS "AUTHORED.is_corresponding",
       (SELECT count(name) FROM ia) > 0 AS "Institution.name",
       (SELECT count(nkey) FROM ia) > 0 AS "Institution.name_key",
       (SELECT count(country) FROM ia) > 0 AS "Institution.country",
       (SELECT count(type) FROM ia) > 0 AS "Institution.type"
FROM ra
"""


class LinksUnread(Exception):
    """DuckDB cannot read a file as one JSON object per line (the message says why)."""


class LinkStager:
    """One OpenAlex works file's rows but the Paper rows, staged in SQL for the works `takes` accepts (see
    the module doc)."""

    def __init__(self, path: Path, work_dir: Path) -> None:
        self.con = duckdb.connect(
            config={
                "threads": 1,
                "memory_limit": MEMORY_LIMIT,
                # one folder per process: DuckDB names its spill files alike in every database
                "temp_directory": str(work_dir / f".links-spill-{os.getpid()}"),
            }
        )
        self.claims: list[bytes] = []
        try:
            self.ids = self._read(path)
        except BaseException:
            self.con.close()
            raise

    def _read(self, path: Path) -> set[str]:
        """Read the file; the ids (as written) of the works whose other rows are staged here."""
        with path.open("rb") as probe:
            compression = "gzip" if probe.read(2) == b"\x1f\x8b" else "none"
        self.con.execute("SET enable_progress_bar = false")
        self.con.execute(MACROS)
        # duckdb's stubs type create_function's parameter types loosely (as loaders/bulk/engine.py says)
        self.con.create_function(  # pyright: ignore[reportUnknownMemberType]
            "person_facts",
            _person_facts,
            ["VARCHAR"],  # pyright: ignore[reportArgumentType]
            PERSON_FACTS,  # pyright: ignore[reportArgumentType]
        )
        self.con.create_function(  # pyright: ignore[reportUnknownMemberType]
            "institution_name_key",
            institution_name_key,
            ["VARCHAR"],  # pyright: ignore[reportArgumentType]
            "VARCHAR",  # pyright: ignore[reportArgumentType]
        )
        self.con.execute(WORKS.format(path=sql_text(path), compression=compression, columns=columns_struct(COLUMNS)))
        for statement in (MENTIONS, REFERENCES, AUTHORSHIPS, AUTHORSHIP_INSTITUTIONS, NAMES, CLEAN):
            self.con.execute(statement)
        return {row[0] for row in self.con.execute("SELECT id FROM clean").fetchall()}

    @classmethod
    def open(cls, path: object, work_dir: Path) -> LinkStager:
        """The stager of a local file DuckDB reads as one JSON object per line; LinksUnread for any other
        file (every work of it then goes through the full builder)."""
        if not isinstance(path, Path):
            raise LinksUnread("not a local file")
        try:
            return cls(path, work_dir)
        except duckdb.Error as exc:
            raise LinksUnread(str(exc).splitlines()[0][:300]) from exc

    def takes(self, record: JSON) -> bool:
        """Whether this record's links are staged here (each id at most once)."""
        if not is_object(record):
            return False
        rid = record.get("id")
        if isinstance(rid, str) and rid in self.ids:
            self.ids.discard(rid)
            return True
        return False

    def claim(self, record_id: str, rec: int, paper_key: str, seq: int) -> bool:
        """The builder kept this record (built without links) as record `rec` with paper key `paper_key`:
        its other rows are staged here. False (the record then needs the full builder) when the key is too
        long to scope an id-less author's key to within MAX_KEY_CHARS."""
        if len(paper_key) > MAX_KEY_CHARS - SCOPE_SUFFIX_CHARS:
            return False
        self.claims.append(orjson.dumps({"id": record_id, "rec": rec, "paper": paper_key, "seq": seq}) + b"\n")
        return True

    def write(self, stem: Path) -> dict[str, set[str]]:
        """The claimed works' other rows as `<stem><part>.nodes.parquet` and `<stem><part>.rels.parquet`
        (part: c categories, r researchers, i institutions, l links, a AUTHORED); the property kinds they
        hold (as loaders.bulk.stage.StageResult.kinds)."""
        scratch = stem.with_suffix(".claims.jsonl")
        scratch.write_bytes(b"".join(self.claims))
        self.con.execute(
            "CREATE OR REPLACE TEMP TABLE claims AS SELECT * FROM "  # noqa: S608 - our paths
            f"read_json('{sql_text(scratch)}', format = 'newline_delimited', "
            f"columns = {columns_struct(CLAIMS_COLUMNS)})"
        )
        scratch.unlink()
        self.con.execute(CATEGORIES)
        self.con.execute(PEOPLE)
        for part, rows, suffix in (
            ("c", CATEGORY_ROWS, "nodes"),
            ("r", RESEARCHER_ROWS, "nodes"),
            ("i", INSTITUTION_ROWS, "nodes"),
            ("l", REL_ROWS, "rels"),
            ("a", AUTHORED_ROWS, "rels"),
        ):
            target = sql_text(stem.with_name(f"{stem.name}{part}.{suffix}.parquet"))
            self.con.execute(f"COPY ({rows}) TO '{target}' (FORMAT parquet, COMPRESSION {COMPRESSION})")
        result = self.con.execute(KINDS)
        held = result.fetchone() or ()
        kinds: dict[str, set[str]] = {}
        for (name, *_), present in zip(result.description or (), held, strict=True):
            if present:
                owner, prop = name.split(".")
                kinds[name] = {PROPERTY_KINDS[owner][prop]}
        return kinds

    def close(self) -> None:
        self.con.close()


def _person_facts(name: str) -> dict[str, Any]:
    text, key, person = person_facts(name)
    return {"name": text, "key": key, "person": person}


def columns_struct(columns: dict[str, str]) -> str:
    """A column map as the DuckDB struct literal read_json's `columns` takes."""
    return "{" + ", ".join(f"'{name}': '{kind}'" for name, kind in columns.items()) + "}"
