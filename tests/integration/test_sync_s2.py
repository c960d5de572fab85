"""`weft sync s2`: a full load of the "before" release plus a sync of the diff step equals a full load of the
"after" release (issue 52), a second sync changes nothing, a sync killed mid-step converges when run again, a
gap in the chain and a listing that changes are refused before writing, a dry run writes nothing. Fixtures:
tests/s2_sync_fixtures.py (the real sample records of ../shared/data).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from neo4j import Driver
from typer.testing import CliRunner

from tests.integration.test_sync_openalex import graph_state
from tests.s2_sync_fixtures import FROM, IDS, NEW_ABSTRACT, NEW_TITLE, STEP, TO, write_s2
from tests.sync_fixtures import killed_after_first_batch
from weft.graph.errors import InvalidInput
from weft.graph.migrate import reset
from weft.graph.settings import Settings
from weft.graph.sync_state import changes, sync_state
from weft.loaders.run import load_paths
from weft.loaders.sync import s2_layout
from weft.loaders.sync.s2 import sync_s2
from weft.server.cli.main import app

State = tuple[dict[str, Any], Counter[str]]


@pytest.fixture(scope="module")
def s2_dirs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    return write_s2(tmp_path_factory.mktemp("s2-diffs"))


def _load(driver: Driver, settings: Settings, folder: Path) -> None:
    reset(driver, settings.neo4j_database)
    summary = load_paths(driver, [folder], source="s2", database=settings.neo4j_database)
    assert summary.rejected == 0 and summary.read > 10


@pytest.fixture(scope="module")
def s2_expected(driver: Driver, settings: Settings, s2_dirs: tuple[Path, Path, Path]) -> State:
    """The graph a full `weft load` of the "after" release gives."""
    _load(driver, settings, s2_dirs[1])
    return graph_state(driver, settings.neo4j_database)


@pytest.fixture(scope="module")
def s2_before(driver: Driver, settings: Settings, s2_dirs: tuple[Path, Path, Path]) -> State:
    """The graph a full `weft load` of the "before" release gives."""
    _load(driver, settings, s2_dirs[0])
    return graph_state(driver, settings.neo4j_database)


def _same(got: State, want: State) -> None:
    nodes, edges = got
    assert sorted(set(nodes) ^ set(want[0])) == []
    assert [(k, _diff(p, want[0][k])) for k, p in nodes.items() if p != want[0][k]] == []
    assert sorted((edges - want[1]).elements()) == [] and sorted((want[1] - edges).elements()) == []


def _diff(got: dict[str, Any], want: dict[str, Any]) -> dict[str, Any]:
    return {k: (got.get(k), want.get(k)) for k in got.keys() | want.keys() if got.get(k) != want.get(k)}


def test_a_sync_of_the_step_equals_a_full_load_of_after_and_again_changes_nothing(
    driver: Driver, settings: Settings, s2_dirs: tuple[Path, Path, Path], s2_expected: State
) -> None:
    db = settings.neo4j_database
    _load(driver, settings, s2_dirs[0])
    report = sync_s2(driver, s2_dirs[2], database=db, batch_size=20)
    assert (report.watermark_before, report.watermark, report.units) == (None, TO, [STEP])
    works, authors = report.entities["works"], report.entities["authors"]
    assert (works.new, works.updated, works.deleted, authors.updated, authors.deleted) == (1, 4, 1, 1, 1)
    _same(graph_state(driver, db), s2_expected)
    title = driver.execute_query(
        "MATCH (p:Paper {corpus_id: $c}) RETURN p.title AS t, p.abstract AS a", c=IDS["P1"], database_=db
    ).records
    assert [(r["t"], r["a"]) for r in title] == [(NEW_TITLE, NEW_ABSTRACT)]
    logged = {(c["entity"], c["kind"], c["source_id"]) for c in changes(driver, db) if c["source"] == "s2"}
    assert ("works", "deleted", IDS["P5"]) in logged and ("works", "new", IDS["P6"]) in logged
    assert ("authors", "deleted", IDS["A5"]) in logged
    assert sync_state(driver, db, "s2")["watermark"] == TO

    out = CliRunner().invoke(app, ["status"])
    assert out.exit_code == 0 and f"s2: watermark {TO}" in out.output, out.output
    assert "works: 1 new, 4 updated, 0 merged, 1 deleted" in out.output, out.output
    again = sync_s2(driver, s2_dirs[2], database=db)  # nothing past the watermark: nothing to do
    assert again.units == [] and again.watermark == TO
    _same(graph_state(driver, db), s2_expected)


def test_the_same_step_applied_twice_changes_nothing(
    driver: Driver, settings: Settings, s2_dirs: tuple[Path, Path, Path], s2_expected: State
) -> None:
    """The step's writes are idempotent: applied again over "after" (as a re-run of a killed step does)."""
    db = settings.neo4j_database
    _load(driver, settings, s2_dirs[0])
    sync_s2(driver, s2_dirs[2], database=db)
    driver.execute_query("MATCH (s:SyncState {source: 's2'}) SET s.watermark = $f", f=FROM, database_=db)
    sync_s2(driver, s2_dirs[2], database=db)
    _same(graph_state(driver, db), s2_expected)


def test_a_dry_run_writes_nothing(
    driver: Driver, settings: Settings, s2_dirs: tuple[Path, Path, Path], s2_before: State
) -> None:
    db = settings.neo4j_database
    _load(driver, settings, s2_dirs[0])
    out = CliRunner().invoke(app, ["sync", "s2", str(s2_dirs[2]), "--dry-run"])
    assert out.exit_code == 0 and f"s2: watermark none -> {TO} ({STEP})" in out.output, out.output
    assert "dry run: nothing written" in out.output
    _same(graph_state(driver, db), s2_before)
    assert sync_state(driver, db, "s2") == {}


def test_a_gap_in_the_chain_is_refused(
    driver: Driver, settings: Settings, s2_dirs: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    db = settings.neo4j_database
    diffs = tmp_path / "diffs"
    shutil.copytree(s2_dirs[2], diffs)
    for dataset in ("papers", "authors", "abstracts", "citations"):  # the step after a missing one
        (diffs / dataset / STEP).rename(diffs / dataset / "2025-01-21_to_2025-01-28")
    _load(driver, settings, s2_dirs[0])
    driver.execute_query("MERGE (s:SyncState {source: 's2'}) SET s.watermark = $t", t=TO, database_=db)
    before = graph_state(driver, db)
    with pytest.raises(InvalidInput, match=f"a gap .* at release {TO}, and the next step starts at 2025-01-21"):
        sync_s2(driver, diffs, database=db)
    _same(graph_state(driver, db), before)


def test_a_listing_changed_while_reading_is_refused_before_writing(
    driver: Driver,
    settings: Settings,
    s2_dirs: tuple[Path, Path, Path],
    s2_before: State,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db = settings.neo4j_database
    diffs = tmp_path / "diffs"
    shutil.copytree(s2_dirs[2], diffs)
    from weft.loaders.sync import s2 as sync_module

    real = sync_module._read_step

    def read_then_publish(step: s2_layout.Step) -> Any:  # the bucket is filled while the sync reads it
        out = real(step)
        (diffs / "papers" / STEP / "update_files" / "part-1.jsonl").write_text("")
        return out

    monkeypatch.setattr(sync_module, "_read_step", read_then_publish)
    _load(driver, settings, s2_dirs[0])
    with pytest.raises(InvalidInput, match="listing changed"):
        sync_s2(driver, diffs, database=db)
    _same(graph_state(driver, db), s2_before)
    with pytest.raises(InvalidInput, match="max-deletes"):
        sync_s2(driver, s2_dirs[2], database=db, max_deletes=0)
    _same(graph_state(driver, db), s2_before)


KILLED_SYNC = killed_after_first_batch("s2", "sync_s2", batch_size=10)


def test_a_killed_sync_converges_when_run_again(
    driver: Driver, settings: Settings, s2_dirs: tuple[Path, Path, Path], s2_expected: State
) -> None:
    db = settings.neo4j_database
    _load(driver, settings, s2_dirs[0])
    proc = subprocess.run([sys.executable, "-c", KILLED_SYNC, str(s2_dirs[2])], capture_output=True, text=True)
    assert proc.returncode == -9, proc.stderr
    assert sync_state(driver, db, "s2").get("pending_unit") == STEP  # killed inside the step
    sync_s2(driver, s2_dirs[2], database=db)
    assert sync_state(driver, db, "s2").get("pending_unit") is None
    _same(graph_state(driver, db), s2_expected)
