"""An independent recount of the shared OpenAlex works in DuckDB, straight from the raw JSON files (every file
shape), for the facets the API must reproduce: per dimension, each group's papers and citations, and the
papers without a value. Independent of the loader and of Cypher: only the files and SQL."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb

_SETUP = """
CREATE TABLE docs AS SELECT content::JSON AS j FROM read_text('{glob}');
CREATE TABLE entities AS
  SELECT unnest(from_json(json_extract(j, '$.results'), '["JSON"]')) AS e FROM docs
    WHERE json_type(j) = 'OBJECT' AND json_type(json_extract(j, '$.results')) = 'ARRAY'
  UNION ALL SELECT unnest(from_json(j, '["JSON"]')) FROM docs WHERE json_type(j) = 'ARRAY'
  UNION ALL SELECT j FROM docs WHERE json_type(j) = 'OBJECT' AND json_extract(j, '$.results') IS NULL;
-- one row per work: its newest record
CREATE TABLE works AS
  SELECT json_extract_string(e, '$.id') AS wid, arg_max(e, json_extract_string(e, '$.updated_date')) AS w
  FROM entities WHERE json_extract_string(e, '$.id') LIKE 'https://openalex.org/W%' GROUP BY 1;
CREATE TABLE base AS SELECT wid,
    TRY_CAST(json_extract(w, '$.publication_year') AS INTEGER) AS year,
    json_extract_string(w, '$.type') AS type,
    json_extract_string(w, '$.language') AS language,
    json_extract_string(w, '$.primary_location.source.display_name') AS venue,
    coalesce(TRY_CAST(json_extract(w, '$.cited_by_count') AS BIGINT), 0) AS cited
  FROM works;
CREATE TABLE authorships AS
  SELECT wid, unnest(range(len(lst))) AS rank, unnest(lst) AS a
  FROM (SELECT wid, from_json(json_extract(w, '$.authorships'), '["JSON"]') AS lst FROM works);
-- an author: its ORCID, else its OpenAlex id, else (no id) its slot on the work
CREATE TABLE author_pairs AS SELECT DISTINCT wid,
    regexp_extract(json_extract_string(a, '$.author.id'), '(A[0-9]+)$', 1) AS openalex,
    coalesce(regexp_extract(json_extract_string(a, '$.author.orcid'), '([0-9X-]{19})$', 1),
             regexp_extract(json_extract_string(a, '$.author.id'), '(A[0-9]+)$', 1),
             'slot:' || wid || '#' || rank) AS key
  FROM authorships;
CREATE TABLE inst_mentions AS
  SELECT wid, i.value AS i FROM authorships,
    LATERAL (SELECT unnest(from_json(json_extract(a, '$.institutions'), '["JSON"]')) AS value) i;
-- an institution: its ROR, else its OpenAlex id (an institution with neither is no node)
CREATE TABLE inst_pairs AS SELECT DISTINCT wid, key, openalex, country FROM (
  SELECT wid,
    coalesce(nullif(regexp_extract(json_extract_string(i, '$.ror'), '([0-9a-z]+)$', 1), ''),
             nullif(regexp_extract(json_extract_string(i, '$.id'), '(I[0-9]+)$', 1), '')) AS key,
    regexp_extract(json_extract_string(i, '$.id'), '(I[0-9]+)$', 1) AS openalex,
    json_extract_string(i, '$.country_code') AS country
  FROM inst_mentions) WHERE key IS NOT NULL;
CREATE TABLE topics AS
  SELECT wid, t.value AS t FROM works,
    LATERAL (SELECT unnest(from_json(json_extract(w, '$.topics'), '["JSON"]')) AS value) t;
CREATE TABLE category_pairs AS SELECT DISTINCT wid, scheme, key FROM (
  SELECT wid, 'topic' AS scheme, 'topic:' || regexp_extract(json_extract_string(t, '$.id'), '([^/]+)$', 1) AS key
    FROM topics
  UNION ALL SELECT wid, s.scheme, s.scheme || ':' || regexp_extract(json_extract_string(t, '$.' || s.scheme || '.id'),
                                                                     '([^/]+)$', 1)
    FROM topics, (VALUES ('subfield'), ('field')) s(scheme)
    WHERE json_extract_string(t, '$.' || s.scheme || '.id') IS NOT NULL);
"""

# (wid, key) of each dimension: a paper is in the group of each key it has.
_PAIRS = {
    "YEAR": "SELECT wid, CAST(year AS VARCHAR) AS key FROM base WHERE year IS NOT NULL",
    "TYPE": "SELECT wid, type AS key FROM base WHERE type IS NOT NULL",
    "LANGUAGE": "SELECT wid, language AS key FROM base WHERE language IS NOT NULL",
    "VENUE": "SELECT wid, venue AS key FROM base WHERE venue IS NOT NULL",
    "FIELD": "SELECT wid, key FROM category_pairs WHERE scheme = 'field'",
    "SUBFIELD": "SELECT wid, key FROM category_pairs WHERE scheme = 'subfield'",
    "TOPIC": "SELECT wid, key FROM category_pairs WHERE scheme = 'topic'",
    "INSTITUTION": "SELECT wid, key FROM inst_pairs",
    "COUNTRY": "SELECT wid, country AS key FROM inst_pairs WHERE country IS NOT NULL",
    "RESEARCHER": "SELECT wid, key FROM author_pairs",
}
DIMENSIONS = tuple(_PAIRS)


@dataclass(frozen=True)
class Recount:
    """One dimension under one filter: {key: (papers, citations)}, and the papers without a key."""

    groups: dict[str, tuple[int, int]]
    unknown: tuple[int, int]
    total: int


class FacetRecount:
    """The shared OpenAlex works in a DuckDB database in memory, counted by SQL."""

    def __init__(self, openalex: Path) -> None:
        self.db = duckdb.connect()
        self.db.execute(_SETUP.replace("{glob}", str(openalex / "works" / "**" / "*.json")))

    def recount(self, dimension: str, where: str) -> Recount:
        """`dimension`'s groups over the works satisfying the SQL condition `where` on `base` (a fixed string of the
        test's own, never input)."""
        filtered = f"SELECT * FROM base WHERE {where}"  # noqa: S608 (the test's own fixed conditions)
        pairs = f"SELECT DISTINCT wid, key FROM ({_PAIRS[dimension]})"  # noqa: S608
        rows = self.db.execute(
            f"SELECT k.key, count(*), sum(f.cited) FROM ({filtered}) f JOIN ({pairs}) k USING (wid) GROUP BY 1"  # noqa: S608
        ).fetchall()
        unknown = self.db.execute(
            f"SELECT count(*), coalesce(sum(cited), 0) FROM ({filtered}) f WHERE wid NOT IN (SELECT wid FROM ({pairs}))"  # noqa: S608
        ).fetchone()
        total = self.db.execute(f"SELECT count(*) FROM ({filtered}) f").fetchone()  # noqa: S608
        assert unknown is not None and total is not None
        return Recount({k: (int(n), int(c)) for k, n, c in rows}, (int(unknown[0]), int(unknown[1])), int(total[0]))
