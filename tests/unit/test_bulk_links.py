"""OpenAlex works' links staged in SQL (loaders/bulk/links.py) are the rows the builders stage: every shared
OpenAlex work and a file of hostile ones, staged both ways, row for row (pure: no database)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

from tests.conftest import shared_path
from weft.loaders.bulk.stage import StageFile, StageResult, StageTask, stage_task
from weft.loaders.storage import location

W = "https://openalex.org/"


def _shared_works() -> list[dict[str, Any]]:
    works: list[dict[str, Any]] = []
    for path in sorted(shared_path("openalex", "works").glob("*.json")):
        works.extend(json.loads(path.read_text())["results"])
    return works


def _work(n: int, **fields: Any) -> dict[str, Any]:
    """A small valid work with two topics sharing a field, a concept and references; `fields` replace."""
    topic = {
        "id": f"{W}T1{n}",
        "display_name": f"Topic {n}",
        "score": 0.5,
        "subfield": {"id": f"{W}subfields/1702", "display_name": "Artificial Intelligence"},
        "field": {"id": f"{W}fields/17", "display_name": "Computer Science"},
        "domain": {"id": f"{W}domains/3", "display_name": "Physical Sciences"},
    }
    work = {
        "id": f"{W}W9{n:04d}",
        "display_name": f"Work {n}",
        "publication_year": 2020,
        "updated_date": "2025-06-01T11:32:56.709091",
        "authorships": [{"author": {"id": f"{W}A9{n}", "display_name": "Ada Lovelace"}, "institutions": []}],
        "primary_topic": {"id": f"{W}T1{n}"},
        "topics": [topic, {**topic, "id": f"{W}T2{n}", "score": 0.75, "subfield": None}],
        "concepts": [{"id": f"{W}C4{n}", "display_name": "Computer science", "level": 0, "score": 0.3}],
        "referenced_works": [f"{W}W1", "W2", f"{W}W2"],
    }
    work.update(fields)
    return work


def _topic(**fields: Any) -> list[dict[str, Any]]:
    return [{"id": f"{W}T77", "display_name": "T", "score": 0.1, **fields}]


def _concept(**fields: Any) -> list[dict[str, Any]]:
    return [{"id": f"{W}C77", "display_name": "C", "level": 1, "score": 0.1, **fields}]


# Each a work the builder reads in its own way, rejects, or SQL must leave to it.
HOSTILE: list[dict[str, Any]] = [
    _work(1),
    _work(2, topics=_topic(display_name='Quote " and back\\slash, Ciência')),
    _work(3, topics=_topic(display_name="control \x01 character")),
    _work(4, topics=_topic(id=17)),
    _work(5, topics=_topic(score="0.5")),
    _work(6, topics=_topic(score=True)),
    _work(7, topics=_topic(subfield={"id": f"{W}subfields/1702/", "display_name": None}, field="not an object")),
    _work(8, topics=_topic(subfield={"id": 1702, "display_name": "numeric id"})),
    _work(9, concepts=_concept(level=5_000_000_000)),
    _work(10, concepts=_concept(level=-1)),
    _work(11, concepts=_concept(level=2.0)),
    _work(12, concepts=_concept(level=True, display_name=None)),
    _work(13, concepts=_concept(id="C" + "1" * 1200)),
    _work(14, concepts=_concept(display_name="x" * 1001)),
    _work(15, referenced_works=[1, None, f"{W}w7", "W8 ", " W9", "W١٢", "A5", "W10"]),
    _work(16, referenced_works=[f"{W}W11", "W11"]),
    _work(17, primary_topic="T1"),
    _work(18, primary_topic={"id": 5}),
    _work(19, topics={"not": "a list"}),
    _work(20, updated_date=20250601),
    _work(21, updated_date=None, topics=[], concepts=None, referenced_works=None),
    _work(22, topics=["not an object", {"display_name": "no id"}, *_topic()]),
    _work(23, id=f"{W}W90023"),  # stated twice in the file: the builder's alone
    _work(24, id=f"{W}W90023", display_name="the second copy"),
    _work(25, topics=_topic(score=1e300), concepts=_concept(score=3)),
    _work(26, id="W 90026"),
    {"id": f"{W}A123", "display_name": "an author in a works file", "works_count": 3, "orcid": None},
]


def _write(path: Path, records: list[Any], lines: list[str] | None = None) -> Path:
    text = "\n".join([*(json.dumps(r, ensure_ascii=False) for r in records), *(lines or [])]) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write(text)
    return path


def _staged(path: Path, out: Path, sql_links: bool) -> tuple[StageResult, list[str], list[str], int]:
    """The staged rows of one file (node rows without their index, which only has to be unique in its
    record), and how many relationship rows came from SQL."""
    out.mkdir()
    result = stage_task(StageTask(0, (StageFile(0, location(path), "openalex"),), out, sql_links=sql_links))
    con = duckdb.connect()
    nodes = con.sql(f"SELECT * EXCLUDE (idx) FROM read_parquet('{out}/*.nodes.parquet')").fetchall()  # noqa: S608
    rels = con.sql(f"SELECT * FROM read_parquet('{out}/*.rels.parquet')").fetchall()  # noqa: S608
    from_sql = len(list(out.glob("*-f*.rels.parquet")))
    if from_sql:
        from_sql = con.sql(f"SELECT count(*) FROM read_parquet('{out}/*-f*.rels.parquet')").fetchall()[0][0]  # noqa: S608
    return result, sorted(map(repr, nodes)), sorted(map(repr, rels)), from_sql


def _both_ways(path: Path, tmp_path: Path) -> tuple[StageResult, StageResult, int]:
    python, py_nodes, py_rels, _ = _staged(path, tmp_path / "python", sql_links=False)
    sql, sql_nodes, sql_rels, from_sql = _staged(path, tmp_path / "sql", sql_links=True)
    assert sql_nodes == py_nodes
    assert sql_rels == py_rels
    assert (sql.records, sql.rejected, sql.rejects, sql.kinds) == (
        python.records,
        python.rejected,
        python.rejects,
        python.kinds,
    )
    return python, sql, from_sql


def test_every_shared_openalex_work_stages_the_same_rows_through_sql(tmp_path: Path) -> None:
    works = _shared_works()
    path = _write(tmp_path / "data" / "works" / "updated_date=2024-01-01" / "part_000.gz", works)
    python, _, from_sql = _both_ways(path, tmp_path)
    assert python.records == len(works) and python.rejected == 0
    assert from_sql > 3 * len(works)  # the links of (nearly) every work came from SQL


def _works_linked_in_sql(out: Path) -> set[int]:
    starts = duckdb.sql(
        f"SELECT DISTINCT start FROM read_parquet('{out}/*-f*.rels.parquet') "  # noqa: S608
        "WHERE type = 'REFERENCES' OR type = 'IN_CATEGORY'"
    ).fetchall()
    return {int(start.removeprefix("openalex:W9")) for (start,) in starts}


def test_hostile_works_stage_the_same_rows_through_sql(tmp_path: Path) -> None:
    path = _write(tmp_path / "part_000.gz", HOSTILE)
    python, _, from_sql = _both_ways(path, tmp_path)
    # Only works whose every link value SQL reads as the builder does (a name with quotes, a part that is
    # no object, a level 2.0 or true, which the builder drops, scores 1e300 and 3…); not a control
    # character, a text or boolean score, a numeric part id, a reference with a space or Arabic digits…
    assert _works_linked_in_sql(tmp_path / "sql") == {1, 2, 7, 11, 12, 16, 17, 22, 25}
    reasons = " ".join(r["reason"] for r in python.rejects)
    # topic id 17, primary topic id 5, levels 5e9 and -1, a long key, a long name, topics a dict, id "W 90026"
    assert python.rejected == 8, reasons
    assert from_sql > 0


def test_a_file_duckdb_cannot_read_line_by_line_stages_through_the_builders_alone(tmp_path: Path) -> None:
    path = _write(tmp_path / "part_000.gz", [_work(1)], lines=[json.dumps([_work(2), _work(3)]), "{not json"])
    python, _, from_sql = _both_ways(path, tmp_path)
    assert from_sql == 0 and python.records == 4 and python.rejected == 1


@pytest.mark.parametrize("name", ["part_000", "part_000.jsonl"])
def test_an_uncompressed_file_stages_through_sql_too(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text("\n".join(json.dumps(w) for w in HOSTILE[:3]) + "\n")
    _, _, from_sql = _both_ways(path, tmp_path)
    assert from_sql > 0
