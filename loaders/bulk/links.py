"""An OpenAlex works file's categories and references, staged in SQL: three quarters of a work's staged
rows (Category rows, IN_CATEGORY, CATEGORY_PART_OF, REFERENCES), on which the row builders spent ~40% of
staging.

DuckDB reads the file once and names the works whose links it can stage exactly as loaders/openalex.py
would: every value those rows come from has the type and form the builder expects (a text id in plain
ASCII, a name without control characters and within its cap…). Those works go through the builder
without their links (`openalex.build_rows_without_links`), which still decides what is rejected; their
links are then written from SQL for the records the builder kept. Every other work, and every work of a
file DuckDB cannot read as one object per line, goes through the full builder. The staged rows are the
same either way (tests/unit/test_bulk_links.py compares them row for row).
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import orjson

from weft.graph.identity.ids import PREFIX
from weft.graph.sources import SOURCE_PRIORITY
from weft.loaders.fields import MAX_INT, MAX_KEY_CHARS, MAX_NAME_CHARS
from weft.loaders.reader import JSON, is_object
from weft.loaders.rows import MENTION

SOURCE = "openalex"
# Category rows staged here take node indexes from here on (a record's own rows count from 0).
FIRST_INDEX = 1_000_000_000
# The raw fields the links come from, read as JSON so their types can be checked as the builder sees them.
COLUMNS = {
    "id": "JSON",
    "updated_date": "JSON",
    "primary_topic": "JSON",
    "topics": "JSON",
    "concepts": "JSON",
    "referenced_works": "JSON",
}

# Helpers. A `plain` text is printable ASCII without spaces: the builder's regexes (Python `\d`,
# `str.strip`) read it as RE2 does. `orjson_text` writes a text as orjson does when it holds no
# control character (`name_ok` makes sure).
MACROS = rf"""
CREATE OR REPLACE MACRO plain(s) AS regexp_full_match(s, '[!-~]*');
CREATE OR REPLACE MACRO openalex_id(s) AS CASE
  WHEN regexp_full_match(s, '(?:https?://openalex\.org/)?[WAISTCFPwaistcfp][0-9]+')
  THEN upper(regexp_extract(s, '[WAISTCFPwaistcfp][0-9]+$')) END;
CREATE OR REPLACE MACRO kind(j, p) AS coalesce(json_type(j, p), 'NULL');
CREATE OR REPLACE MACRO id_ok(j, p) AS kind(j, p) = 'NULL' OR (kind(j, p) = 'VARCHAR' AND plain(j ->> p));
CREATE OR REPLACE MACRO name_ok(j, p) AS kind(j, p) = 'NULL'
  OR (kind(j, p) = 'VARCHAR' AND length(j ->> p) <= {MAX_NAME_CHARS} AND NOT regexp_matches(j ->> p, '[\x00-\x1f]'));
CREATE OR REPLACE MACRO number(j, p) AS CASE WHEN kind(j, p) IN ('UBIGINT', 'BIGINT', 'DOUBLE')
  THEN CAST(j -> p AS DOUBLE) END;
CREATE OR REPLACE MACRO number_ok(j, p) AS kind(j, p) = 'NULL' OR coalesce(isfinite(number(j, p)), false);
CREATE OR REPLACE MACRO part_ok(j, p) AS kind(j, p) IN ('NULL', 'OBJECT')
  AND kind(j, p || '.id') IN ('NULL', 'VARCHAR') AND name_ok(j, p || '.display_name');
CREATE OR REPLACE MACRO part_code(j, p) AS
  nullif(regexp_extract(rtrim(coalesce(j ->> (p || '.id'), ''), '/'), '[^/]*$'), '');
CREATE OR REPLACE MACRO orjson_text(s) AS
  CASE WHEN s IS NULL THEN 'null' ELSE '"' || replace(replace(s, '\', '\\'), '"', '\"') || '"' END;
CREATE OR REPLACE MACRO base32_sha1(s, n) AS array_to_string(list_transform(range(n), lambda j:
  substr('abcdefghijklmnopqrstuvwxyz234567',
         CAST((CAST('0x' || substr(sha1(s), 1, 14) AS UBIGINT) >> (51 - 5 * j)) & 31 AS INTEGER) + 1, 1)), '');
"""

# The works of the file by their id as written, each stated once in the file.
WORKS = """
CREATE OR REPLACE TEMP TABLE w AS
SELECT id, upd, pt, topics, concepts, refs FROM (
  SELECT id ->> '$' AS id, updated_date AS upd, primary_topic AS pt, topics, concepts, referenced_works AS refs,
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
  SELECT id, e.i AS i, e.x AS x, pt FROM (
    SELECT id, pt, unnest(list_transform(CAST(topics AS JSON[]), lambda x, i: {{'i': i, 'x': x}})) AS e
    FROM w WHERE json_type(topics) = 'ARRAY')
), topic AS (
  SELECT id, i, x, CASE WHEN json_type(x) = 'OBJECT' THEN openalex_id(x ->> '$.id') END AS tid,
         json_type(x) <> 'OBJECT' OR id_ok(x, '$.id') AS id_fine,
         openalex_id(CASE WHEN json_type(pt) = 'OBJECT' THEN pt ->> '$.id' END) AS primary_tid
  FROM t
), chain AS (
  SELECT id, i, x, tid, id_fine, tid IS NOT DISTINCT FROM primary_tid AND tid IS NOT NULL AS is_primary,
         unnest([
           {{'pos': 0, 'key': 'topic:' || tid, 'name': x ->> '$.display_name', 'scheme': 'topic', 'level': 3,
             'ok': name_ok(x, '$.display_name')}},
           {{'pos': 1, 'key': 'subfield:' || part_code(x, '$.subfield'), 'name': x ->> '$.subfield.display_name',
             'scheme': 'subfield', 'level': 2, 'ok': part_ok(x, '$.subfield')}},
           {{'pos': 2, 'key': 'field:' || part_code(x, '$.field'), 'name': x ->> '$.field.display_name',
             'scheme': 'field', 'level': 1, 'ok': part_ok(x, '$.field')}},
           {{'pos': 3, 'key': 'domain:' || part_code(x, '$.domain'), 'name': x ->> '$.domain.display_name',
             'scheme': 'domain', 'level': 0, 'ok': part_ok(x, '$.domain')}}
         ]) AS c
  FROM topic WHERE tid IS NOT NULL OR NOT id_fine
), concept AS (
  SELECT id, e.i AS i, e.x AS x, CASE WHEN json_type(e.x) = 'OBJECT' THEN openalex_id(e.x ->> '$.id') END AS cid,
         json_type(e.x) <> 'OBJECT' OR id_ok(e.x, '$.id') AS id_fine
  FROM (SELECT id, unnest(list_transform(CAST(concepts AS JSON[]), lambda x, i: {{'i': i, 'x': x}})) AS e
        FROM w WHERE json_type(concepts) = 'ARRAY')
)
SELECT id, i * 4 + c.pos AS ord, i AS chain, CASE WHEN tid IS NOT NULL THEN c.key END AS key, c.name AS name,
       c.scheme AS scheme, c.level AS level, is_primary, number(x, '$.score') AS score,
       id_fine AND (tid IS NULL OR (c.ok AND number_ok(x, '$.score'))) AS ok
FROM chain WHERE c.key IS NOT NULL OR NOT id_fine
UNION ALL
SELECT id, {FIRST_INDEX} + i AS ord, NULL AS chain, 'concept:' || cid AS key, x ->> '$.display_name' AS name,
       'concept' AS scheme,
       CASE WHEN kind(x, '$.level') IN ('UBIGINT', 'BIGINT') THEN TRY_CAST(x -> '$.level' AS BIGINT) END AS level,
       false AS is_primary, number(x, '$.score') AS score,
       id_fine AND (cid IS NULL OR (name_ok(x, '$.display_name') AND number_ok(x, '$.score')
         AND (kind(x, '$.level') NOT IN ('UBIGINT', 'BIGINT')
              OR coalesce(TRY_CAST(x -> '$.level' AS BIGINT) BETWEEN 0 AND {MAX_INT}, false)))) AS ok
FROM concept WHERE cid IS NOT NULL OR NOT id_fine
"""  # noqa: S608 - numbers and names from our own constants

# Each work's references (its texts that are OpenAlex work ids; anything else is skipped, as the
# builder skips it), with whether the text is one SQL reads as the builder does.
REFERENCES = """
CREATE OR REPLACE TEMP TABLE r AS
SELECT id, openalex_id(x ->> '$') AS ref, json_type(x) <> 'VARCHAR' OR plain(x ->> '$') AS ok
FROM (SELECT id, unnest(CAST(refs AS JSON[])) AS x FROM w WHERE json_type(refs) = 'ARRAY')
"""

# The works whose links are staged here, with their `updated` text: every value their links come from
# reads the same in SQL as in the builder, and every key is within its cap.
CLEAN = f"""
CREATE OR REPLACE TEMP TABLE clean AS
SELECT id, coalesce(upd ->> '$', '') AS upd FROM w
WHERE kind(upd, '$') IN ('NULL', 'VARCHAR')
  AND (kind(pt, '$') <> 'OBJECT' OR id_ok(pt, '$.id'))
  AND kind(topics, '$') IN ('NULL', 'ARRAY') AND kind(concepts, '$') IN ('NULL', 'ARRAY')
  AND kind(refs, '$') IN ('NULL', 'ARRAY')
  AND id NOT IN (SELECT id FROM m WHERE NOT ok OR length(key) > {MAX_KEY_CHARS})
  AND id NOT IN (SELECT id FROM r WHERE NOT ok)
"""  # noqa: S608 - numbers and names from our own constants

# The builder's record numbers and paper keys of the works it built without links (loaded by `claim`).
CLAIMS_COLUMNS = {"id": "VARCHAR", "rec": "BIGINT", "paper": "VARCHAR", "seq": "INTEGER"}

# Category rows as loaders.bulk.stage.node_rows writes them: the first mention of each key in a work
# gives its name and level; ranks as loaders.write.row_ranks makes them (the digest is orjson's text).
NODE_ROWS = f"""
CREATE OR REPLACE TEMP TABLE staged_nodes AS
  WITH firsts AS (
    SELECT m.id, m.key, arg_min(m.name, m.ord) AS name, arg_min(m.level, m.ord) AS level,
           arg_min(m.scheme, m.ord) AS scheme, min(m.ord) AS ord
    FROM m JOIN clean USING (id) GROUP BY m.id, m.key
  ), ids AS (
    SELECT key, '{PREFIX["Category"]}' || base32_sha1(key, 11) AS iid FROM (SELECT DISTINCT key FROM firsts)
  ), ranked AS (
    SELECT f.*, c.upd, claims.rec, claims.seq, ids.iid,
           substr(sha1('[{{"level":' || coalesce(CAST(f.level AS VARCHAR), 'null') || ',"name":' || orjson_text(f.name)
                       || ',"scheme":' || orjson_text(f.scheme) || '}},{{}},{{"key":' || orjson_text(f.key) || '}}]'),
                  1, 10) AS digest
    FROM firsts f JOIN clean c USING (id) JOIN claims USING (id) JOIN ids USING (key)
  )
  SELECT rec, CAST({FIRST_INDEX} + row_number() OVER (PARTITION BY rec ORDER BY ord) - 1 AS INTEGER) AS idx,
         'Category' AS label, key AS rowkey, '{SOURCE}' AS source, {MENTION} AS level,
         '{MENTION}|' || upd || '|' || digest AS srank,
         '{MENTION}|{SOURCE_PRIORITY[SOURCE]}|' || upd || '|' || digest AS rrank,
         true AS "first", CAST([] AS VARCHAR[]) AS owns,
         CAST('{{' || concat_ws(',', '"name":' || to_json(name), '"scheme":' || to_json(scheme), '"level":' || level)
              || '}}' AS JSON) AS props,
         CAST('{{}}' AS JSON) AS sprops, CAST(NULL AS VARCHAR[]) AS alt,
         [{{'prop': 'key', 'val': key, 'iid': iid, 'krank': 0}}] AS keys, seq
  FROM ranked
"""  # noqa: S608 - numbers and names from our own constants

# IN_CATEGORY (one per key: primary when any mention is, the highest score stated), CATEGORY_PART_OF
# (each topic's chain, narrowest first) and REFERENCES, as loaders.bulk.stage.rel_rows writes them.
REL_ROWS = f"""
CREATE OR REPLACE TEMP TABLE staged_rels AS
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

# Which property kinds the staged rows hold (loaders.bulk.stage notes them per row).
KINDS = """
SELECT count(*) > 0, count(m.name) > 0, count(m.level) > 0, count(m.score) > 0
FROM m JOIN clean USING (id) JOIN claims USING (id)
"""


class LinkStager:
    """One OpenAlex works file's links, staged in SQL for the works `takes` accepts (see module doc)."""

    def __init__(self, path: Path, work_dir: Path) -> None:
        self.work_dir = work_dir
        self.con = duckdb.connect(
            config={"threads": 1, "memory_limit": "1GB", "temp_directory": str(work_dir / ".links-tmp")}
        )
        self.claims: list[bytes] = []
        with path.open("rb") as probe:
            compression = "gzip" if probe.read(2) == b"\x1f\x8b" else "none"
        self.con.execute(MACROS)
        self.con.execute(WORKS.format(path=_quoted(path), compression=compression, columns=_struct(COLUMNS)))
        for statement in (MENTIONS, REFERENCES, CLEAN):
            self.con.execute(statement)
        self.ids: set[str] = {row[0] for row in self.con.execute("SELECT id FROM clean").fetchall()}

    @classmethod
    def open(cls, path: object, work_dir: Path) -> LinkStager | None:
        """The stager of a local file DuckDB reads as one JSON object per line; None for any other file
        (every work of it then goes through the full builder)."""
        if not isinstance(path, Path):
            return None
        try:
            return cls(path, work_dir)
        except duckdb.Error:
            return None

    def takes(self, record: JSON) -> bool:
        """Whether this record's links are staged here (each id at most once)."""
        if not is_object(record):
            return False
        rid = record.get("id")
        if isinstance(rid, str) and rid in self.ids:
            self.ids.discard(rid)
            return True
        return False

    def claim(self, record_id: str, rec: int, paper_key: str, seq: int) -> None:
        """The builder kept this record (built without links) as record `rec` with paper key `paper_key`."""
        self.claims.append(orjson.dumps({"id": record_id, "rec": rec, "paper": paper_key, "seq": seq}) + b"\n")

    def write(self, stem: Path) -> dict[str, set[str]]:
        """The claimed works' link rows as `<stem>.nodes.parquet` and `<stem>.rels.parquet`; the property
        kinds they hold (as loaders.bulk.stage.StageResult.kinds)."""
        scratch = stem.with_suffix(".claims.jsonl")
        scratch.write_bytes(b"".join(self.claims))
        self.con.execute(
            "CREATE OR REPLACE TEMP TABLE claims AS SELECT * FROM "  # noqa: S608 - our paths
            f"read_json('{_quoted(scratch)}', format = 'newline_delimited', columns = {_struct(CLAIMS_COLUMNS)})"
        )
        scratch.unlink()
        for table, statement, suffix in (("staged_nodes", NODE_ROWS, "nodes"), ("staged_rels", REL_ROWS, "rels")):
            self.con.execute(statement)
            target = _quoted(stem.with_name(f"{stem.name}.{suffix}.parquet"))
            self.con.execute(f"COPY {table} TO '{target}' (FORMAT parquet, COMPRESSION zstd)")
        row = self.con.execute(KINDS).fetchone()
        assert row is not None
        any_rows, names, levels, scores = row
        kinds: dict[str, set[str]] = {}
        if any_rows:
            kinds |= {"Category.scheme": {"str"}, "IN_CATEGORY.primary": {"bool"}}
        for present, name, kind in (
            (names, "Category.name", "str"),
            (levels, "Category.level", "int"),
            (scores, "IN_CATEGORY.score", "float"),
        ):
            if present:
                kinds[name] = {kind}
        return kinds

    def close(self) -> None:
        self.con.close()


def _quoted(path: Path) -> str:
    """A path inside a SQL text literal."""
    return str(path).replace("'", "''")


def _struct(columns: dict[str, str]) -> str:
    return "{" + ", ".join(f"'{name}': '{kind}'" for name, kind in columns.items()) + "}"
