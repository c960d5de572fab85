"""OpenAlex works' links staged in SQL (loaders/bulk/links.py) are the rows the builders stage: every shared
OpenAlex work and a file of hostile ones, staged both ways, row for row (pure: no database)."""

from __future__ import annotations

import gzip
import json
from collections import Counter
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


def _author(**fields: Any) -> dict[str, Any]:
    """An authorship; `fields` replace the author's (id, orcid, display_name) or the authorship's own."""
    author = {"id": f"{W}A77", "display_name": "Grace Hopper", "orcid": None}
    own = {"author_position": "first", "raw_author_name": "G. Hopper", "is_corresponding": True, "institutions": []}
    for name, value in fields.items():
        (author if name in author else own)[name] = value
    return {"author": author, **own}


def _inst(n: int, **fields: Any) -> dict[str, Any]:
    return {
        "id": f"{W}I{n}",
        "ror": None,
        "display_name": f"University {n}",
        "country_code": "PT",
        "type": "education",
    } | fields


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
    _work(40, doi='https://doi.org/10.1234/A"b\\c', authorships=[{"author": {"display_name": "Id-less Author"}}]),
    _work(41, authorships=[_author(id=17, orcid="https://orcid.org/0000-0002-1825-009x"), "no object", _author()]),
    _work(
        42, authorships=[_author(display_name="", raw_author_name="Raw  Name"), _author(id=None, raw_author_name="")]
    ),
    _work(43, authorships=[_author(display_name=None, id=None), _author(display_name="ACME Consortium", id="I5")]),
    _work(44, authorships=[_author(institutions=[_inst(1)]), _author(institutions=[_inst(2), _inst(1), _inst(3)])]),
    _work(45, authorships=[_author(institutions=[_inst(4, ror="https://ROR.org/05DXPS055"), _inst(5, id=None), "x"])]),
    _work(46, authorships=[_author(institutions=[{"display_name": "no ids"}, _inst(6, display_name='Q "u" \\ é')])]),
    _work(47, authorships=[_author(institutions=[_inst(7, display_name=None, country_code=None, type=None)])]),
    _work(48, authorships=[_author(id=" A5")]),
    _work(49, authorships=[_author(orcid="0000-0002-1825-0097 ")]),
    _work(50, authorships=["no object", {"author": "not an object"}]),
    _work(51, authorships=[_author(is_corresponding="yes")]),
    _work(52, authorships=[_author(author_position=1)]),
    _work(53, authorships=[_author(display_name="Ada\tLovelace")]),
    _work(54, authorships=[_author(display_name="y" * 1001)]),
    _work(55, authorships=[_author(institutions=[_inst(8, country_code=7)])]),
    _work(56, authorships=[_author(institutions=[_inst(9, ror=" 05dxps055")])]),
    _work(57, authorships=[_author(institutions={"not": "a list"})]),
    _work(58, authorships=[_author(display_name="José   García", raw_author_name=None, orcid="0000-0001-0000-0001")]),
    _work(59, authorships=[_author(display_name="Smith " + "ß" * 600)]),  # a name key of 1,202 characters
    _work(60, authorships=[_author(institutions=[_inst(10, display_name="ﷺ" * 100)])]),  # its key: 1,800
    _work(61, doi="10.1234/" + "d" * 990, authorships=[{"author": {"display_name": "Id-less Author"}}]),
    _work(  # the first mention of a researcher and of an institution gives their values
        62,
        authorships=[
            _author(display_name="First Name", institutions=[_inst(11)]),
            _author(display_name="Second Name", author_position="last", institutions=[_inst(11, display_name="Other")]),
        ],
    ),
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
    python, sql, from_sql = _both_ways(path, tmp_path)
    assert python.records == len(works) and python.rejected == 0
    # every work but those whose id the file states twice (both copies go to the builder)
    copies = Counter(work["id"] for work in works)
    assert sql.linked_in_sql == sum(n for n in copies.values() if n == 1) > 0.95 * len(works)
    assert from_sql > 3 * len(works)  # the links of (nearly) every work came from SQL


def _works_linked_in_sql(out: Path, works: list[dict[str, Any]]) -> set[int]:
    """The numbers (`_work(n)`) of the works whose link rows came from SQL (a record's number is its line)."""
    recs = duckdb.sql(f"SELECT DISTINCT rec FROM read_parquet('{out}/*-f*.rels.parquet')").fetchall()  # noqa: S608
    return {int(works[rec]["id"].removeprefix(f"{W}W9")) for (rec,) in recs}


def test_hostile_works_stage_the_same_rows_through_sql(tmp_path: Path) -> None:
    path = _write(tmp_path / "part_000.gz", HOSTILE)
    python, _, from_sql = _both_ways(path, tmp_path)
    # Only works whose every link value SQL reads as the builder does (a name with quotes, a part that is
    # no object, a level 2.0 or true, which the builder drops, scores 1e300 and 3…); not a control
    # character, a text or boolean score, a numeric part id, a reference with a space or Arabic digits…
    # … or an author's: an id with a space, a text is_corresponding, a tab, a numeric country…
    in_sql = {1, 2, 7, 11, 12, 16, 17, 21, 22, 25, *range(40, 48), 58, 62}
    assert _works_linked_in_sql(tmp_path / "sql", HOSTILE) == in_sql
    reasons = " ".join(r["reason"] for r in python.rejects)
    # topic id 17, primary topic id 5, levels 5e9 and -1, a long key, a long name, topics a dict, id "W 90026",
    # an author name of 1,001 characters, two name keys too long, an id-less author's key too long
    assert python.rejected == 12, reasons
    assert from_sql > 0


def _repeating(n: int, old: str, new: str) -> str:
    """Work n as a JSON line with `old` (a key and value of one of its objects) stated twice: first
    `old`, then `new` (orjson keeps the last)."""
    line = json.dumps(_work(n, authorships=[_author(institutions=[_inst(n)])]))
    assert old in line
    return line.replace(old, f"{old}, {new}", 1)


def test_works_with_a_key_named_twice_in_an_object_stage_the_same_rows_through_sql(tmp_path: Path) -> None:
    lines = [
        _repeating(70, f'"id": "{W}A77"', f'"id": "{W}A78"'),  # the author
        _repeating(71, f'"id": "{W}I71"', f'"id": "{W}I72"'),  # an institution
        _repeating(72, '"raw_author_name": "G. Hopper"', '"raw_author_name": "Grace"'),  # the authorship
        _repeating(73, f'"id": "{W}T173"', f'"id": "{W}T999"'),  # a topic
        _repeating(74, '"id": "https://openalex.org/fields/17"', '"id": "18"'),  # a topic's field
        _repeating(75, f'"id": "{W}C475"', f'"id": "{W}C999"'),  # a concept
        _repeating(76, f'"primary_topic": {{"id": "{W}T176"', f'"id": "{W}T276"'),  # the primary topic
    ]
    path = _write(tmp_path / "part_000.gz", [_work(77)], lines=lines)
    _, sql, _ = _both_ways(path, tmp_path)
    assert sql.linked_in_sql == 1  # work 77 alone


def test_a_file_duckdb_cannot_read_line_by_line_stages_through_the_builders_alone(tmp_path: Path) -> None:
    path = _write(tmp_path / "part_000.gz", [_work(1)], lines=[json.dumps([_work(2), _work(3)]), "{not json"])
    python, sql, from_sql = _both_ways(path, tmp_path)
    assert from_sql == 0 and python.records == 4 and python.rejected == 1
    assert sql.linked_in_sql == 0 and len(sql.builder_files) == 1 and sql.builder_files[0].startswith(f"{path}: ")


@pytest.mark.parametrize("name", ["part_000", "part_000.jsonl"])
def test_an_uncompressed_file_stages_through_sql_too(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text("\n".join(json.dumps(w) for w in HOSTILE[:3]) + "\n")
    _, _, from_sql = _both_ways(path, tmp_path)
    assert from_sql > 0
