"""Loading the shared arXiv snapshot into the real server: counts, properties, versions, bad input."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest
from neo4j import Driver

from tests.conftest import shared_path
from weft.graph.errors import InvalidInput
from weft.graph.migrate import counts, reset
from weft.graph.settings import Settings
from weft.loaders.run import load_paths

SNAPSHOT = ("arxiv", "arxiv-metadata-oai-snapshot.head200.jsonl")


def raw_records() -> list[dict]:
    with shared_path(*SNAPSHOT).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def graph_state(driver: Driver, database: str) -> tuple[list, list]:
    """Every node (labels, properties but load times; not the version or a killed writer's lock) and
    relationship (type, ends, properties)."""
    nodes, _, _ = driver.execute_query(
        "MATCH (n) WHERE NOT n:Meta AND NOT n:WriterLock RETURN labels(n) AS labels, properties(n) AS props",
        database_=database,
    )
    rels, _, _ = driver.execute_query(
        "MATCH (a)-[r]->(b) RETURN type(r) AS type, coalesce(a.id, a.key) AS a, coalesce(b.id, b.key) AS b, "
        "properties(r) AS props",
        database_=database,
    )

    def clean(props: dict) -> dict:
        return {k: v for k, v in props.items() if not k.endswith("_loaded_at")}

    return (
        sorted(json.dumps([r["labels"], clean(r["props"])], sort_keys=True, default=str) for r in nodes),
        sorted(json.dumps([r["type"], r["a"], r["b"], r["props"]], sort_keys=True, default=str) for r in rels),
    )


def load(driver: Driver, settings: Settings, *paths: Path, source: str = "arxiv"):
    return load_paths(driver, list(paths), source=source, database=settings.neo4j_database)


@pytest.fixture(scope="module")
def loaded(driver: Driver, settings: Settings) -> Driver:
    summary = load(driver, settings, shared_path(*SNAPSHOT))
    assert summary.read == 200 and summary.rejected == 0
    return driver


def test_counts_match_the_raw_snapshot(loaded: Driver, settings: Settings) -> None:
    records = raw_records()
    found = counts(loaded, settings.neo4j_database)
    assert found["Paper"] == len({r["id"] for r in records}) == 200
    assert found["Category"] == len({c for r in records for c in r["categories"].split()})
    assert found["IN_CATEGORY"] == sum(len(set(r["categories"].split())) for r in records)
    assert found["AUTHORED"] == found["Researcher"] == sum(len(r["authors_parsed"]) for r in records) == 537
    assert found["COAUTHORED_WITH"] == sum(len(list(combinations(r["authors_parsed"], 2))) for r in records)
    assert "CITES" not in found and "Institution" not in found


def test_paper_properties(loaded: Driver, settings: Settings) -> None:
    record = next(r for r in raw_records() if r["id"] == "0704.0001")
    rows, _, _ = loaded.execute_query(
        "MATCH (p:Paper {arxiv_id: '0704.0001'}) RETURN p", database_=settings.neo4j_database
    )
    paper = rows[0]["p"]
    assert paper["doi"] == record["doi"].lower()
    assert paper["title"] == " ".join(record["title"].split())
    assert paper["versions"] == ["v1@2007-04-02", "v2@2007-07-24"]
    assert paper["year"] == 2007 and paper["publication_date"] == "2007-04-02"
    assert paper["journal_ref"] == record["journal-ref"]
    rows, _, _ = loaded.execute_query(
        "MATCH (p:Paper {arxiv_id: '0704.0002'})-[r:IN_CATEGORY]->(c:Category) "
        "RETURN c.key AS key, r.primary AS primary ORDER BY key",
        database_=settings.neo4j_database,
    )
    assert [(r["key"], r["primary"]) for r in rows] == [("arxiv:cs.CG", False), ("arxiv:math.CO", True)]


def test_tex_names_are_decoded_in_rank_order(loaded: Driver, settings: Settings) -> None:
    rows, _, _ = loaded.execute_query(
        "MATCH (r:Researcher)-[a:AUTHORED]->(:Paper {arxiv_id: $id}) "
        "RETURN r.name AS name, r.paper_scoped AS scoped, a.position AS position ORDER BY a.rank",
        id="0704.0001",
        database_=settings.neo4j_database,
    )
    assert [r["name"] for r in rows] == ["C. Balázs", "E. L. Berger", "P. M. Nadolsky", "C.-P. Yuan"]
    assert [r["position"] for r in rows] == ["first", "middle", "middle", "last"]
    assert all(r["scoped"] for r in rows)
    names, _, _ = loaded.execute_query(
        "MATCH (r:Researcher) WHERE r.name CONTAINS '\\\\' OR r.name CONTAINS '{' RETURN r.name AS name",
        database_=settings.neo4j_database,
    )
    assert names == []


def test_reload_changes_nothing(loaded: Driver, settings: Settings) -> None:
    before = graph_state(loaded, settings.neo4j_database)
    summary = load(loaded, settings, shared_path(*SNAPSHOT))
    assert summary.rejected == 0 and summary.merged == 200
    assert graph_state(loaded, settings.neo4j_database) == before


def test_a_later_version_updates_an_earlier_one_does_not(driver: Driver, settings: Settings, tmp_path: Path) -> None:
    reset(driver, settings.neo4j_database)
    record = next(r for r in raw_records() if r["id"] == "0704.0002")
    later = dict(
        record,
        id="0704.0002v3",
        title="Sparsity-certifying Graph Decompositions (revised)",
        versions=[*record["versions"], {"version": "v3", "created": "Tue, 6 Jan 2015 09:00:00 GMT"}],
        update_date="2015-01-07",
    )
    earlier = dict(
        record,
        title="Sparsity-certifying Graph Decompositions (first draft)",
        versions=record["versions"][:1],
        update_date="2007-04-01",
    )
    (tmp_path / "later.jsonl").write_text(json.dumps(later) + "\n", encoding="utf-8")
    (tmp_path / "earlier.jsonl").write_text(json.dumps(earlier) + "\n", encoding="utf-8")
    (tmp_path / "current.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")

    def paper() -> dict:
        rows, _, _ = driver.execute_query("MATCH (p:Paper) RETURN p", database_=settings.neo4j_database)
        assert len(rows) == 1
        return dict(rows[0]["p"])

    load(driver, settings, tmp_path / "current.jsonl")
    assert paper()["versions"] == ["v1@2007-03-31", "v2@2008-12-13"]
    load(driver, settings, tmp_path / "later.jsonl")
    assert paper()["title"] == later["title"]
    assert paper()["versions"] == ["v1@2007-03-31", "v2@2008-12-13", "v3@2015-01-06"]
    for older in ("current.jsonl", "earlier.jsonl"):
        load(driver, settings, tmp_path / older)
        assert paper()["title"] == later["title"] and paper()["arxiv_version"] == 3


def test_bad_lines_are_reported_and_the_rest_loads(driver: Driver, settings: Settings, tmp_path: Path) -> None:
    reset(driver, settings.neo4j_database)
    good = raw_records()[:3]
    lines = [
        json.dumps(good[0]),
        "{this is not json",
        json.dumps({k: v for k, v in good[1].items() if k != "id"}),
        json.dumps(dict(good[2], id="not-an-arxiv-id")),
        json.dumps(good[2]),
    ]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rejects = tmp_path / "rejects.jsonl"
    summary = load_paths(driver, [path], source="arxiv", database=settings.neo4j_database, rejects_path=rejects)
    assert summary.read == 5 and summary.rejected == 3
    assert [(r["file"], r["where"]) for r in summary.rejects] == [
        (str(path), "line 2"),
        (str(path), "line 3"),
        (str(path), "line 4"),
    ]
    assert len(rejects.read_text(encoding="utf-8").splitlines()) == 3
    rows, _, _ = driver.execute_query(
        "MATCH (p:Paper) RETURN p.arxiv_id AS id ORDER BY id", database_=settings.neo4j_database
    )
    assert [r["id"] for r in rows] == [good[0]["id"], good[2]["id"]]


def test_a_file_of_another_format_is_refused_before_writing(driver: Driver, settings: Settings, tmp_path: Path) -> None:
    reset(driver, settings.neo4j_database)
    junk = tmp_path / "notes.json"
    junk.write_text(json.dumps({"hello": "world"}), encoding="utf-8")
    for paths in (
        [shared_path(*SNAPSHOT), junk],
        [shared_path(*SNAPSHOT), shared_path("semanticscholar", "graph_api", "Paper.json")],
    ):
        with pytest.raises(InvalidInput):
            load(driver, settings, *paths)
        assert counts(driver, settings.neo4j_database) == {}


def test_weft_load_auto_and_arxiv_on_the_command_line(driver: Driver, settings: Settings, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from weft.server.cli import app

    reset(driver, settings.neo4j_database)
    runner = CliRunner()
    junk = tmp_path / "notes.jsonl"
    junk.write_text('{"hello": "world"}\n{"hello": "again"}\n', encoding="utf-8")
    refused = runner.invoke(app, ["load", "auto", "--quiet", str(shared_path(*SNAPSHOT)), str(junk)])
    assert refused.exit_code == 2 and "notes.jsonl" in refused.output
    assert counts(driver, settings.neo4j_database) == {}
    wrong = runner.invoke(
        app, ["load", "arxiv", "--quiet", str(shared_path("semanticscholar", "graph_api", "Author.json"))]
    )
    assert wrong.exit_code == 2 and counts(driver, settings.neo4j_database) == {}
    done = runner.invoke(app, ["load", "auto", "--quiet", str(shared_path(*SNAPSHOT))])
    assert done.exit_code == 0, done.output
    assert counts(driver, settings.neo4j_database)["Paper"] == 200
