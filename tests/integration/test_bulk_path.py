"""The bulk path (`weft build`: DuckDB -> Parquet, then `weft import`: neo4j-admin) gives the same
graph as the online loader.

The online side is the session's server with the shared OpenAlex files loaded (`openalex_graph`).
The import replaces a whole database and stops its server, so the import side is a second local
instance on WEFT_IMPORT_TEST_PORT (default: the session port + 10), started here and stopped at the
end of the module.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

import pytest
from neo4j import Driver
from typer.testing import CliRunner

from tests.conftest import shared_path
from weft.graph import local_server
from weft.graph.bulk_import import ImportSummary, import_built
from weft.graph.driver import open_driver
from weft.graph.errors import InvalidInput
from weft.graph.migrate import counts
from weft.graph.settings import Settings
from weft.loaders.bulk.build import build_paths
from weft.loaders.reader import Item, data_files, read_records
from weft.server.cli import app

COAUTHORS = "MATCH (a:Researcher)-[c:COAUTHORED_WITH]->(b:Researcher) RETURN a.id AS a, b.id AS b, c.weight AS w"
PAIR_WEIGHT = """
MATCH (a:Researcher {openalex_id: $a})-[c:COAUTHORED_WITH]-(b:Researcher {openalex_id: $b})
RETURN c.weight AS w
"""


@pytest.fixture(scope="module")
def import_settings(settings: Settings) -> Iterator[Settings]:
    """A second local instance (WEFT_IMPORT_TEST_PORT or the session port + 10) that the import may
    stop and replace."""
    port = int(os.environ.get("WEFT_IMPORT_TEST_PORT") or settings.bolt_port + 10)
    other = Settings(
        neo4j_uri=f"bolt://127.0.0.1:{port}",
        neo4j_user=settings.neo4j_user,
        neo4j_password=settings.neo4j_password,
        neo4j_home=settings.neo4j_home,
        neo4j_heap=settings.neo4j_heap,
        neo4j_pagecache=settings.neo4j_pagecache,
    )
    yield other
    local_server.stop(other)


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bulk") / "parquet"
    summary = build_paths([shared_path("openalex")], out, source="openalex", echo=lambda m: None)
    assert summary.rejected == 0
    assert summary.counts["Paper"] == len(_raw_works())
    assert not (out / ".work").exists()  # the staged rows and DuckDB file are gone
    return out


@pytest.fixture(scope="module")
def imported(import_settings: Settings, build_dir: Path) -> ImportSummary:
    return import_built(import_settings, build_dir, echo=lambda m: None)


@pytest.fixture(scope="module")
def import_driver(imported: ImportSummary, import_settings: Settings) -> Iterator[Driver]:
    with open_driver(import_settings) as d:
        yield d


def _raw_works() -> dict[str, dict]:
    """The shared OpenAlex works by id, the newest `updated_date` of each (as the loader keeps)."""
    works: dict[str, dict] = {}
    for path in data_files([shared_path("openalex", "works")]):
        for item in read_records(path):
            if isinstance(item, Item):
                work = item.record
                old = works.get(work["id"])
                if old is None or (work.get("updated_date") or "") > (old.get("updated_date") or ""):
                    works[work["id"]] = work
    return works


def _raw_pair_weights(works: dict[str, dict]) -> dict[tuple[str, str], int]:
    weights: dict[tuple[str, str], int] = {}
    for work in works.values():
        authors = {a["author"]["id"].rsplit("/", 1)[-1] for a in work["authorships"] if a["author"].get("id")}
        for pair in combinations(sorted(authors), 2):
            weights[pair] = weights.get(pair, 0) + 1
    return weights


def test_import_gives_the_online_counts(
    openalex_graph: Driver,
    settings: Settings,
    import_driver: Driver,
    import_settings: Settings,
    imported: ImportSummary,
) -> None:
    online = counts(openalex_graph, settings.neo4j_database)
    bulk = counts(import_driver, import_settings.neo4j_database)
    assert bulk == online
    assert imported.counts == online
    works = _raw_works()
    assert bulk["Paper"] == len(works)
    assert bulk["AUTHORED"] == sum(len({a["author"]["id"] for a in w["authorships"]}) for w in works.values())
    assert bulk["Meta"] == 1


def test_import_gives_the_online_coauthorship_weights(openalex_graph: Driver, import_driver: Driver) -> None:
    online = {(r["a"], r["b"], r["w"]) for r in openalex_graph.execute_query(COAUTHORS)[0]}
    bulk = {(r["a"], r["b"], r["w"]) for r in import_driver.execute_query(COAUTHORS)[0]}
    assert bulk == online
    raw = _raw_pair_weights(_raw_works())
    assert len(bulk) == len(raw)
    assert sorted(w for _, _, w in bulk) == sorted(raw.values())
    # Butcher and Ritsos: the heaviest pair of the visualisation group, counted from the raw works.
    pair = ("A5032473237", "A5065371627")
    for driver in (openalex_graph, import_driver):
        assert driver.execute_query(PAIR_WEIGHT, a=pair[0], b=pair[1])[0][0]["w"] == raw[pair]


def test_import_gives_the_online_derived_and_node_properties(openalex_graph: Driver, import_driver: Driver) -> None:
    affiliations = (
        "MATCH (a:Researcher)-[r:AFFILIATED_WITH]->(i:Institution) "
        "RETURN a.id AS a, i.id AS i, r.papers AS p, r.first_year AS f, r.last_year AS l"
    )
    cites = "MATCH (p:Paper)-[:CITES]->(q:Paper) RETURN p.id AS p, q.id AS q"
    for query in (affiliations, cites):
        online = {tuple(r.values()) for r in openalex_graph.execute_query(query)[0]}
        bulk = {tuple(r.values()) for r in import_driver.execute_query(query)[0]}
        assert bulk == online
    # Every property but load times; the online loader keeps empty lists, the build leaves them out.
    nodes = "MATCH (n) WHERE n.id IS NOT NULL RETURN n.id AS id, properties(n) AS p"

    def comparable(driver: Driver) -> dict[str, dict]:
        return {
            r["id"]: {k: v for k, v in r["p"].items() if not k.endswith("_loaded_at") and v != []}
            for r in driver.execute_query(nodes)[0]
        }

    assert comparable(import_driver) == comparable(openalex_graph)


def test_import_into_a_remote_server_is_refused(build_dir: Path) -> None:
    remote = Settings(neo4j_uri="bolt://db.example.org:7687")
    with pytest.raises(InvalidInput, match="not local"):
        import_built(remote, build_dir, echo=lambda m: None)


def test_cli_asks_before_replacing_the_database(
    build_dir: Path, monkeypatch: pytest.MonkeyPatch, import_settings: Settings, import_driver: Driver
) -> None:
    monkeypatch.setenv("NEO4J_URI", import_settings.neo4j_uri)
    before = counts(import_driver, import_settings.neo4j_database)
    result = CliRunner().invoke(app, ["import", str(build_dir)], input="n\n")
    assert result.exit_code == 1
    assert "DELETES everything" in result.output
    assert counts(import_driver, import_settings.neo4j_database) == before


def test_failed_import_reports_why_and_leaves_an_empty_running_database(
    tmp_path: Path, import_settings: Settings, import_driver: Driver
) -> None:
    import duckdb

    duckdb.sql(f"""COPY (SELECT 'p1' AS "id:ID(Paper)") TO '{tmp_path}/nodes.parquet' (FORMAT parquet)""")
    duckdb.sql(
        f"""COPY (SELECT 'p1' AS ":START_ID(Paper)", 'p-nowhere' AS ":END_ID(Paper)")
            TO '{tmp_path}/cites.parquet' (FORMAT parquet)"""
    )
    (tmp_path / "manifest.json").write_text(
        json.dumps(
            {
                "input_type": "parquet",
                "nodes": [{"labels": "Paper", "files": ["nodes.parquet"]}],
                "relationships": [{"type": "CITES", "files": ["cites.parquet"]}],
            }
        )
    )
    with pytest.raises(InvalidInput, match="neo4j-admin import failed") as failure:
        import_built(import_settings, tmp_path, echo=lambda m: None)
    assert "p-nowhere" in str(failure.value)
    with open_driver(import_settings) as d:
        assert counts(d, import_settings.neo4j_database) == {}


def _snapshot(driver: Driver, database: str) -> dict[str, object]:
    """Counts and every derived edge with its properties, for comparing two graphs."""
    queries = {
        "coauthored": COAUTHORS,
        "affiliated": "MATCH (a)-[r:AFFILIATED_WITH]->(i) RETURN a.id, i.id, r.papers, r.first_year, r.last_year",
        "cites": "MATCH (p)-[:CITES]->(q) RETURN p.id, q.id",
        "same_name": "MATCH (a)-[s:SAME_NAME_AS]->(b) RETURN a.id, b.id, s.evidence, s.shared_coauthors, "
        "s.shared_institutions, s.overlapping_years",
        "authored": "MATCH (r)-[a:AUTHORED]->(p) RETURN r.id, p.id, a.rank, a.sources, a.claimed_sources",
    }
    found: dict[str, object] = {"counts": counts(driver, database)}
    for name, query in queries.items():
        found[name] = {tuple(map(repr, r.values())) for r in driver.execute_query(query, database_=database)[0]}
    nodes = "MATCH (n) WHERE n.id IS NOT NULL RETURN n.id AS id, properties(n) AS p"
    found["nodes"] = {
        r["id"]: {k: v for k, v in r["p"].items() if not k.endswith("_loaded_at") and v != []}
        for r in driver.execute_query(nodes, database_=database)[0]
    }
    return found


def test_all_three_sources_give_the_same_graph_both_ways(
    import_settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """OpenAlex + Semantic Scholar + arXiv (auto-detected): bulk import, then the online load on the
    same instance, give equal counts and derived edges (claims and same-name candidates included)."""
    from weft.graph.migrate import reset
    from weft.loaders.run import load_paths

    paths = [shared_path("openalex"), shared_path("semanticscholar"), shared_path("arxiv")]
    out = tmp_path_factory.mktemp("bulk_all") / "parquet"
    built = build_paths(paths, out, source="auto", echo=lambda m: None)
    assert built.rejected == 0
    import_built(import_settings, out, echo=lambda m: None)
    database = import_settings.neo4j_database
    with open_driver(import_settings) as d:
        bulk = _snapshot(d, database)
        reset(d, database)
        load_paths(d, paths, source="auto", database=database)
        online = _snapshot(d, database)
    assert bulk == online
    assert {"Paper", "Researcher", "Institution", "Category", "SAME_NAME_AS"} <= set(bulk["counts"])
