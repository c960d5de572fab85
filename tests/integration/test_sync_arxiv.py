"""`weft sync arxiv`: a full load of an arXiv dump plus a sync of a later dump equals a full load of the later
dump (issue 52): a new version replaces the title, authors, categories and version list; a second sync changes
nothing; a sync killed mid-way converges when run again; a dry run writes nothing. Fixtures:
tests/arxiv_sync_fixtures.py (the real records of ../shared/data/arxiv).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from neo4j import Driver

from tests.arxiv_sync_fixtures import NEW_DATE, NEW_TITLE, write_arxiv
from tests.integration.test_sync_openalex import graph_state
from tests.integration.test_sync_s2 import State, _same
from tests.sync_fixtures import killed_after_first_batch
from weft.graph.migrate import reset
from weft.graph.settings import Settings
from weft.graph.sync_state import changes, sync_state
from weft.loaders.run import load_paths
from weft.loaders.sync.arxiv import sync_arxiv


@pytest.fixture(scope="module")
def dumps(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return write_arxiv(tmp_path_factory.mktemp("arxiv-dumps"))


def _load(driver: Driver, settings: Settings, path: Path) -> None:
    reset(driver, settings.neo4j_database)
    summary = load_paths(driver, [path], source="arxiv", database=settings.neo4j_database)
    assert summary.rejected == 0 and summary.read >= 7


@pytest.fixture(scope="module")
def arxiv_expected(driver: Driver, settings: Settings, dumps: tuple[Path, Path]) -> State:
    _load(driver, settings, dumps[1])
    return graph_state(driver, settings.neo4j_database)


def test_a_sync_of_a_later_dump_equals_a_full_load_of_it_and_again_changes_nothing(
    driver: Driver, settings: Settings, dumps: tuple[Path, Path], arxiv_expected: State
) -> None:
    db = settings.neo4j_database
    _load(driver, settings, dumps[0])
    dry = sync_arxiv(driver, dumps[1], database=db, dry_run=True)
    assert (dry.entities["works"].new, dry.entities["works"].updated) == (1, 2)
    assert sync_state(driver, db, "arxiv") == {}
    report = sync_arxiv(driver, dumps[1], database=db, batch_size=10)
    assert report.watermark == NEW_DATE and (report.entities["works"].new, report.entities["works"].updated) == (1, 2)
    _same(graph_state(driver, db), arxiv_expected)
    paper = driver.execute_query(
        "MATCH (p:Paper {arxiv_id: '0704.0007'}) RETURN p.title AS t, p.versions AS v, "
        "COLLECT { MATCH (a)-[:AUTHORED]->(p) RETURN a.name ORDER BY a.name } AS authors",
        database_=db,
    ).records
    assert paper[0]["v"][-1] == f"v3@{NEW_DATE}"
    assert paper[0]["t"] == NEW_TITLE and paper[0]["authors"] == ["Alejandro Corichi", "Mary Newcomb"]
    logged = sorted((c["kind"], c["source_id"]) for c in changes(driver, db) if c["source"] == "arxiv")
    assert logged == [("new", "0704.0008"), ("updated", "0704.0002"), ("updated", "0704.0007")]

    again = sync_arxiv(driver, dumps[1], database=db)
    assert again.units == [] and again.watermark == NEW_DATE
    _same(graph_state(driver, db), arxiv_expected)


KILLED_SYNC = killed_after_first_batch("arxiv", "sync_arxiv", batch_size=5)


def test_a_killed_sync_converges_when_run_again(
    driver: Driver, settings: Settings, dumps: tuple[Path, Path], arxiv_expected: State
) -> None:
    db = settings.neo4j_database
    _load(driver, settings, dumps[0])
    proc = subprocess.run([sys.executable, "-c", KILLED_SYNC, str(dumps[1])], capture_output=True, text=True)
    assert proc.returncode == -9, proc.stderr
    assert sync_state(driver, db, "arxiv").get("pending_unit") == f"through {NEW_DATE}"
    sync_arxiv(driver, dumps[1], database=db)
    assert sync_state(driver, db, "arxiv").get("pending_unit") is None
    _same(graph_state(driver, db), arxiv_expected)
