"""The bulk path (`weft build`: DuckDB -> Parquet, then `weft import`: neo4j-admin) gives the same
graph as the online loader.

The online side is the session's server with every shared file loaded (`all_sources_graph`: OpenAlex,
Semantic Scholar and arXiv, auto-detected). The import replaces a whole database and stops its server,
so the import side is a second local instance on WEFT_IMPORT_TEST_PORT (default: a free port),
started here and stopped at the end of the module. One build of the same files is imported there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

import pytest
from neo4j import Driver
from typer.testing import CliRunner

from tests.conftest import server_env, shared_path
from weft.graph.bulk_import import ImportSummary, import_built
from weft.graph.driver import open_driver
from weft.graph.errors import InvalidInput
from weft.graph.migrate import BACKFILLS, counts, migrate
from weft.graph.settings import Settings
from weft.loaders.bulk.build import BuildSummary, build_paths
from weft.loaders.reader import Item, data_files, read_records
from weft.queries import admin
from weft.server.cli import app

COAUTHORS = "MATCH (a:Researcher)-[c:COAUTHORED_WITH]->(b:Researcher) RETURN a.id AS a, b.id AS b, c.weight AS w"
PAIR_WEIGHT = """
MATCH (a:Researcher {openalex_id: $a})-[c:COAUTHORED_WITH]-(b:Researcher {openalex_id: $b})
RETURN c.weight AS w
"""


def _shared_paths() -> list[Path]:
    return [shared_path("openalex"), shared_path("semanticscholar"), shared_path("arxiv")]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> BuildSummary:
    out = tmp_path_factory.mktemp("bulk") / "parquet"
    summary = build_paths(_shared_paths(), out, source="auto", echo=lambda m: None)
    assert summary.rejected == 0
    assert not (out / ".work").exists()  # the staged rows and DuckDB file are gone
    return summary


@pytest.fixture(scope="module")
def build_dir(built: BuildSummary) -> Path:
    assert built.out is not None
    return built.out


IMPORT_SAID: list[str] = []  # what the import said as it went


@pytest.fixture(scope="module")
def imported(import_settings: Settings, build_dir: Path) -> ImportSummary:
    return import_built(import_settings, build_dir, echo=IMPORT_SAID.append)


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
    all_sources_graph: Driver,
    settings: Settings,
    import_driver: Driver,
    import_settings: Settings,
    imported: ImportSummary,
    built: BuildSummary,
) -> None:
    online = counts(all_sources_graph, settings.neo4j_database)
    bulk = counts(import_driver, import_settings.neo4j_database)
    assert bulk == online
    assert imported.counts == online
    assert built.counts and all(online.get(name, 0) == n for name, n in built.counts.items())  # as `weft build` said
    assert {"Paper", "Researcher", "Institution", "Category", "SAME_NAME_AS"} <= set(bulk)
    assert bulk["Meta"] == 1


def test_import_gives_the_online_coauthorship_weights(all_sources_graph: Driver, import_driver: Driver) -> None:
    online = {(r["a"], r["b"], r["w"]) for r in all_sources_graph.execute_query(COAUTHORS)[0]}
    bulk = {(r["a"], r["b"], r["w"]) for r in import_driver.execute_query(COAUTHORS)[0]}
    assert bulk == online
    raw = _raw_pair_weights(_raw_works())
    assert len(bulk) >= len(raw)  # every OpenAlex pair, and pairs only other sources know
    # Butcher and Ritsos: the heaviest pair of the visualisation group, at least its raw OpenAlex count.
    pair = ("A5032473237", "A5065371627")
    for driver in (all_sources_graph, import_driver):
        assert driver.execute_query(PAIR_WEIGHT, a=pair[0], b=pair[1])[0][0]["w"] >= raw[pair]


def test_import_gives_the_online_derived_and_node_properties(all_sources_graph: Driver, import_driver: Driver) -> None:
    affiliations = (
        "MATCH (a:Researcher)-[r:AFFILIATED_WITH]->(i:Institution) "
        "RETURN a.id AS a, i.id AS i, r.papers AS p, r.first_year AS f, r.last_year AS l"
    )
    cites = "MATCH (p:Paper)-[:CITES]->(q:Paper) RETURN p.id AS p, q.id AS q"
    stated = "MATCH (p:Paper)-[s:STATES_AFFILIATION]->(i:Institution) RETURN p.id AS p, i.id AS i, s.authors AS n"
    for query in (affiliations, cites, stated):
        online = {tuple(r.values()) for r in all_sources_graph.execute_query(query)[0]}
        bulk = {tuple(r.values()) for r in import_driver.execute_query(query)[0]}
        assert bulk == online and online
    # Every property but load times; the online loader keeps empty lists, the build leaves them out.
    nodes = "MATCH (n) WHERE n.id IS NOT NULL RETURN n.id AS id, properties(n) AS p"

    def comparable(driver: Driver) -> dict[str, dict]:
        return {
            r["id"]: {k: v for k, v in r["p"].items() if not k.endswith("_loaded_at") and v != []}
            for r in driver.execute_query(nodes)[0]
        }

    assert comparable(import_driver) == comparable(all_sources_graph)


def graph_snapshot(driver: Driver, database: str) -> dict[str, object]:
    """Counts and every derived edge with its properties, for comparing two graphs."""
    queries = {
        "coauthored": COAUTHORS,
        "affiliated": "MATCH (a)-[r:AFFILIATED_WITH]->(i) RETURN a.id, i.id, r.papers, r.first_year, r.last_year",
        "cites": "MATCH (p)-[:CITES]->(q) RETURN p.id, q.id",
        "stated": "MATCH (p)-[s:STATES_AFFILIATION]->(i) RETURN p.id, i.id, s.authors",
        "same_name": "MATCH (a)-[s:SAME_NAME_AS]->(b) RETURN a.id, b.id, properties(s)",
        "authored": "MATCH (r)-[a:AUTHORED]->(p) RETURN r.id, p.id, a.rank, a.sources, a.claimed_sources",
        "top_ties": "MATCH (a)-[t:TOP_TIE]->(b) RETURN a.id, b.id, t.weight, t.first_year, t.last_year",
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


def test_claims_same_names_and_every_derived_edge_agree(
    all_sources_graph: Driver, settings: Settings, import_driver: Driver, import_settings: Settings
) -> None:
    """Counts, derived edges (authorship ranks and claims, same-name candidates) and node properties, online
    and bulk."""
    bulk = graph_snapshot(import_driver, import_settings.neo4j_database)
    online = graph_snapshot(all_sources_graph, settings.neo4j_database)
    assert bulk == online
    assert bulk["same_name"] and bulk["coauthored"] and bulk["authored"] and bulk["top_ties"]  # something to compare


# Papers whose `category_ids` is not the sorted list of their IN_CATEGORY ends (absent when none), the
# papers listing any, IN_CATEGORY edges whose keys are not their category's id and their paper's sort keys
# (or are missing), and the edges: [{wrong, listed, stale, edges}].
CATEGORY_KEYS_CHECK = """
MATCH (p:Paper)
WITH p, COLLECT { MATCH (p)-[:IN_CATEGORY]->(c:Category) RETURN c.id AS id ORDER BY id } AS ids
WITH count(CASE WHEN coalesce(p.category_ids, []) <> ids OR p.category_ids = [] THEN 1 END) AS wrong,
     count(p.category_ids) AS listed
CALL () {
  MATCH (p:Paper)-[r:IN_CATEGORY]->(c:Category)
  RETURN count(CASE WHEN r.category = c.id AND r.sort_cited = p.sort_cited AND r.sort_date = p.sort_date
                    THEN null ELSE 1 END) AS stale,
         count(r) AS edges
}
RETURN wrong, listed, stale, edges
"""


def test_each_paper_lists_its_categories_online_and_bulk(
    all_sources_graph: Driver, settings: Settings, import_driver: Driver, import_settings: Settings
) -> None:
    """`category_ids` (the category pages' membership test) is each paper's IN_CATEGORY ends, and each
    IN_CATEGORY edge carries its category's id and its paper's sort keys (the most-cited category page's
    index), in both paths."""
    graphs = ((all_sources_graph, settings.neo4j_database), (import_driver, import_settings.neo4j_database))
    for driver, database in graphs:
        found = driver.execute_query(CATEGORY_KEYS_CHECK, database_=database).records[0]
        assert found["wrong"] == 0 and found["listed"] > 100, (database, found)
        assert found["stale"] == 0 and found["edges"] > found["listed"], (database, found)


def test_the_import_says_each_step_as_it_goes(imported: ImportSummary) -> None:
    """neo4j-admin's phases as they start and end, then each migration step with what it wrote."""
    steps = [m.strip() for m in IMPORT_SAID]
    assert "Nodes …" in steps and "Relationships …" in steps, steps
    assert (
        steps.index("Nodes …")
        < steps.index("Relationships …")
        < next(i for i, m in enumerate(steps) if m.startswith("IMPORT DONE in "))
    )
    assert any(m.startswith("Relationships: done in ") for m in steps)
    # neo4j-admin took the memory sized from what is available (graph/bulk_import.off_heap_budget)
    assert any(re.fullmatch(r"neo4j-admin database import full into \S+ from .+ \(\d+m off-heap\)", m) for m in steps)
    migration = steps[next(i for i, m in enumerate(steps) if "constraints and indexes online" in m) :]
    said = [
        re.sub(
            r"[0-9,]+ set|(?<=identity links: )[0-9,]+",
            lambda n: "N set" if n[0].endswith("set") else "N",
            m.split(" (")[0],
        )
        for m in migration
    ]
    assert said == [
        f"{len(admin.CONSTRAINTS) + len(admin.INDEXES)} constraints and indexes online",
        f"backfills: round {BACKFILLS} with {Settings.network_top_ties} top ties ran or was built before, "
        "not checked again",
        "co-author pair keys: 0 properties backfilled, constraint created",  # the build keyed every tie
        "papers' sort keys: N set",  # the undated papers' '' (the node property test compares them)
        "identity links: N",  # as an online load links last (the counts tests compare the SAME_PERSON edges)
    ]


def test_the_import_leaves_every_constraint_and_index(import_settings: Settings, import_driver: Driver) -> None:
    """Every constraint and index a migration creates is there after the import alone (before any test here
    runs a full migration), the co-author pair keys' too: the pair seeks of loads and networks need it."""
    records = import_driver.execute_query(
        "SHOW INDEXES YIELD name, state RETURN collect(name) AS names, collect(DISTINCT state) AS states",
        database_=import_settings.neo4j_database,
    ).records[0]
    assert records["states"] == ["ONLINE"]
    named = [re.search(r"(?:CONSTRAINT|INDEX) (\w+) IF NOT EXISTS", q) for q in (*admin.CONSTRAINTS, *admin.INDEXES)]
    expected = {m.group(1) for m in named if m} | {"coauthored_pair"}
    assert len(expected) == len(admin.CONSTRAINTS) + len(admin.INDEXES) + 1
    assert expected <= set(records["names"]), expected - set(records["names"])


def test_the_build_leaves_the_backfills_nothing_to_do(import_settings: Settings, import_driver: Driver) -> None:
    """The import skips the migration's backfills because the build wrote what they write: checked here by
    running them all, which must write nothing and refresh no researcher's TOP_TIE edges."""
    said: list[str] = []
    migrate(import_driver, import_settings.neo4j_database, echo=said.append, top_ties=import_settings.network_top_ties)
    steps = [re.sub(r" \([0-9.]+s\)$", "", m) for m in said[1:]]
    assert steps == [
        "papers' sort keys: 0 properties backfilled",
        "papers' category ids: 0 properties backfilled",
        "category edges' keys: 0 properties backfilled",
        "co-author pair keys: 0 properties backfilled",
        "same-name links' stored counts: 0 properties backfilled",
        "heaviest ties (TOP_TIE): 0 researchers refreshed",
    ]


def test_import_into_a_remote_server_is_refused(build_dir: Path) -> None:
    remote = Settings(neo4j_uri="bolt://db.example.org:7687")
    with pytest.raises(InvalidInput, match="not local"):
        import_built(remote, build_dir, echo=lambda m: None)


def test_cli_asks_before_replacing_the_database(
    build_dir: Path, monkeypatch: pytest.MonkeyPatch, import_settings: Settings, import_driver: Driver
) -> None:
    for name, value in server_env(import_settings).items():
        monkeypatch.setenv(name, value)
    before = counts(import_driver, import_settings.neo4j_database)
    result = CliRunner().invoke(app, ["import", str(build_dir)], input="n\n")
    assert result.exit_code == 1
    assert "DELETES everything" in result.output
    assert counts(import_driver, import_settings.neo4j_database) == before


def test_failed_import_reports_why_and_leaves_an_empty_running_database(  # last: it empties the import
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
