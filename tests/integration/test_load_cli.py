"""`weft load …` end to end: summary table, rejects file, exit codes (real server, real files)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from neo4j import Driver
from typer.testing import CliRunner

from tests.conftest import shared_path
from weft.graph.settings import Settings
from weft.server.cli import app


@pytest.fixture()
def runner(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("NEO4J_URI", settings.neo4j_uri)
    monkeypatch.setenv("COLUMNS", "200")
    return CliRunner()


def test_load_prints_a_summary_per_file_and_writes_rejects(driver: Driver, runner: CliRunner, tmp_path: Path) -> None:
    single = shared_path("openalex", "works", "single")
    bad = tmp_path / "bad.jsonl"
    good = json.loads((single / "W2741809807.json").read_text())
    bad.write_text(json.dumps(good) + "\n{not json\n")
    rejects = tmp_path / "rejects.jsonl"
    result = runner.invoke(
        app, ["load", "openalex", "--quiet", "--batch-size", "200", "--rejects", str(rejects), str(single), str(bad)]
    )
    assert result.exit_code == 0, result.output
    files = sorted(single.glob("*.json"))
    for f in files:
        assert f.name in result.output
    assert f"{len(files) + 2} records" in result.output
    assert [json.loads(line)["where"] for line in rejects.read_text().splitlines()] == ["line 2"]
    records, _, _ = driver.execute_query("MATCH (p:Paper) RETURN count(p) AS n", routing_="r")
    assert records[0]["n"] == len(files)


def test_unknown_file_exits_2_and_names_it(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "notes.dat").write_text("hello\n")
    result = runner.invoke(app, ["load", "openalex", "--quiet", str(tmp_path)])
    assert result.exit_code == 2
    assert "notes.dat" in result.output and "nothing was written" in result.output


def test_dead_database_exits_1_with_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:9")
    result = CliRunner().invoke(app, ["load", "openalex", "--quiet", str(shared_path("openalex", "works", "single"))])
    assert result.exit_code == 1
    assert "UNAVAILABLE" in result.output and "Traceback" not in result.output
