"""The bad-input corpus (issue 11) through `weft load`: every complete record loads, every bad part is
rejected with its file and line, unreadable files are reported (exit 3), derived data is recomputed,
and nothing loaded before is lost or overwritten by a rejected record."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from neo4j import Driver
from typer.testing import CliRunner

from tests.fixtures import bad_input
from weft.graph.settings import Settings
from weft.server.cli import app


@pytest.fixture(scope="module")
def loaded(driver: Driver, settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The baseline loaded, then the corpus folder: the corpus, the CLI's results and the rejects file."""
    root = tmp_path_factory.mktemp("bad_input")
    corpus = bad_input.build(root / "corpus")
    runner = CliRunner()
    env = {"NEO4J_URI": settings.neo4j_uri, "COLUMNS": "200"}
    first = runner.invoke(app, ["load", "openalex", "--quiet", str(root / "baseline.jsonl")], env=env)
    assert first.exit_code == 0, first.output
    rejects = root / "rejects.jsonl"
    args = ["load", "openalex", "--quiet", "--rejects", str(rejects), str(root / "corpus")]
    result = runner.invoke(app, args, env=env)
    return {
        "corpus": corpus,
        "result": result,
        "rejects": [json.loads(line) for line in rejects.read_text().splitlines()],
    }


def _papers(driver: Driver) -> dict[str, dict[str, Any]]:
    records, _, _ = driver.execute_query(
        "MATCH (p:Paper) RETURN p.openalex_id AS id, p.title AS title, p.year AS year", routing_="r"
    )
    return {r["id"]: {"title": r["title"], "year": r["year"]} for r in records}


def test_exit_3_names_every_file_not_read_in_full(loaded: dict[str, Any]) -> None:
    result, corpus = loaded["result"], loaded["corpus"]
    assert result.exit_code == 3, result.output
    assert "Traceback" not in result.output and "Aborted" not in result.output
    assert "could not be read in full" in result.output
    for name in corpus.unread:
        assert name in result.output


def test_every_bad_part_is_rejected_with_file_and_line(loaded: dict[str, Any]) -> None:
    corpus = loaded["corpus"]
    found = {(Path(r["file"]).name, r["where"]) for r in loaded["rejects"]}
    assert found == corpus.rejects
    whole = {Path(r["file"]).name for r in loaded["rejects"] if r.get("scope") == "file"}
    assert whole == corpus.unread
    reasons = {(Path(r["file"]).name, r["where"]): r["reason"] for r in loaded["rejects"]}
    assert (
        "out of range" in reasons[("c_overflow.jsonl", "line 1")] and "year" in reasons[("c_overflow.jsonl", "line 1")]
    )
    assert "cited_by_count" in reasons[("c_overflow.jsonl", "line 3")]
    assert "not a whole number" in reasons[("d_wrong_types.jsonl", "line 3")]
    assert "not a text" in reasons[("d_wrong_types.jsonl", "line 4")]
    assert "malformed JSON" in reasons[("d_wrong_types.jsonl", "line 5")]
    assert "longer than" in reasons[("e_huge.jsonl", "line 2")]
    assert "longer than 4000" in reasons[("e_huge.jsonl", "line 3")]
    assert "cut short" in reasons[next(k for k in reasons if k[0] == "b_truncated.jsonl.gz")]
    assert all(len(r["raw"]) <= 2000 for r in loaded["rejects"])


def test_exactly_the_good_records_are_stored_with_coerced_values(driver: Driver, loaded: dict[str, Any]) -> None:
    corpus = loaded["corpus"]
    stored = _papers(driver)
    expected = corpus.loaded | {bad_input.short_id(w) for w in corpus.baseline}
    assert set(stored) == expected
    for pid, year in corpus.years.items():
        assert stored[pid]["year"] == year
    for pid, title in corpus.titles.items():
        assert stored[pid]["title"] == title
    assert max(len(p["title"] or "") for p in stored.values()) <= 4000


def test_nothing_loaded_before_is_lost_or_overwritten(driver: Driver, loaded: dict[str, Any]) -> None:
    stored = _papers(driver)
    for work in loaded["corpus"].baseline:
        assert stored[bad_input.short_id(work)] == {"title": work["title"], "year": work["publication_year"]}


def test_derived_data_is_recomputed_for_the_lines_before_the_cut(driver: Driver, loaded: dict[str, Any]) -> None:
    pairs: set[tuple[str, str]] = set()
    for work in loaded["corpus"].truncated:
        authors = sorted({bad_input.short_id(a["author"]) for a in work["authorships"] if a["author"].get("id")})
        if 2 <= len(authors) <= 20:
            pairs |= set(itertools.combinations(authors, 2))
    assert pairs
    records, _, _ = driver.execute_query(
        "UNWIND $pairs AS pair MATCH (a:Researcher {openalex_id: pair[0]})-[:COAUTHORED_WITH]-"
        "(b:Researcher {openalex_id: pair[1]}) RETURN count(DISTINCT pair) AS n",
        pairs=[list(p) for p in pairs],
        routing_="r",
    )
    assert records[0]["n"] == len(pairs)
