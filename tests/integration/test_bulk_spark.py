"""`weft build --engine spark` writes the same import files as the DuckDB engine (issue 15).

Both engines build every shared file plus the LLaMA arXiv line of tests/integration/test_cross_source.py
(so id-less arXiv authors are claimed: the claim step runs), stamped with one `loaded_at`. Spark runs
on `local[2]`. Each file group must hold the same columns, of the same Parquet types, and the same rows
in any order: neo4j-admin then imports the same graph from either (test_bulk_path.py checks the DuckDB
engine's import against the online loader). No database is needed here.
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pytest

from tests.conftest import shared_path
from tests.integration.test_cross_source import LLAMA_ARXIV, derived_llama_arxiv_line
from weft.graph.identity.ids import internal_id
from weft.loaders.bulk.build import BuildOptions, BuildSummary, build_paths
from weft.loaders.bulk.output import import_file_differences

LOADED_AT = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    line = tmp_path_factory.mktemp("llama") / "llama-arxiv.jsonl"
    line.write_text(json.dumps(derived_llama_arxiv_line()) + "\n", encoding="utf-8")
    return [shared_path("openalex"), shared_path("semanticscholar"), shared_path("arxiv"), line]


def _build(inputs: list[Path], out: Path, engine: str) -> BuildSummary:
    options = BuildOptions(engine=engine, master="local[2]", memory_limit="1GB", workers=2)
    summary = build_paths(inputs, out, options=options, echo=lambda m: None, loaded_at=LOADED_AT)
    assert summary.rejected == 0
    assert not (out / ".work").exists()
    return summary


@pytest.fixture(scope="module")
def duckdb_build(inputs: list[Path], tmp_path_factory: pytest.TempPathFactory) -> BuildSummary:
    return _build(inputs, tmp_path_factory.mktemp("duckdb") / "out", "duckdb")


@pytest.fixture(scope="module")
def spark_build(inputs: list[Path], tmp_path_factory: pytest.TempPathFactory) -> BuildSummary:
    return _build(inputs, tmp_path_factory.mktemp("spark") / "out", "spark")


def test_both_engines_count_the_same_graph_with_claims(duckdb_build: BuildSummary, spark_build: BuildSummary) -> None:
    assert spark_build.counts == duckdb_build.counts
    assert duckdb_build.counts["Paper"] > 2000 and duckdb_build.counts["COAUTHORED_WITH"] > 50_000
    assert spark_build.claims == duckdb_build.claims > 0  # LLaMA's arXiv author slots were claimed


def test_spark_writes_part_files_and_duckdb_one_file_per_group(
    duckdb_build: BuildSummary, spark_build: BuildSummary
) -> None:
    assert duckdb_build.out is not None and spark_build.out is not None
    duck = json.loads((duckdb_build.out / "manifest.json").read_text(encoding="utf-8"))
    spark = json.loads((spark_build.out / "manifest.json").read_text(encoding="utf-8"))
    assert [g["files"] for g in duck["nodes"]][:2] == [["nodes_Institution.parquet"], ["nodes_Category.parquet"]]
    paper = next(g["files"] for g in spark["nodes"] if g["labels"] == "Paper")
    assert paper and all(f.startswith("nodes_Paper/part-") and f.endswith(".parquet") for f in paper)
    assert all((spark_build.out / f).is_file() for f in paper)


def test_every_import_file_holds_the_same_columns_types_and_rows(
    duckdb_build: BuildSummary, spark_build: BuildSummary
) -> None:
    assert duckdb_build.out is not None and spark_build.out is not None
    assert import_file_differences(duckdb_build.out, spark_build.out) == {}


def test_a_changed_row_is_a_difference(duckdb_build: BuildSummary, tmp_path: Path) -> None:
    """The comparison can fail: one category's name changed in a copy of the DuckDB build."""
    assert duckdb_build.out is not None
    copy = tmp_path / "copy"
    shutil.copytree(duckdb_build.out, copy)
    target = copy / "nodes_Category.parquet"
    source = duckdb.read_parquet(str(duckdb_build.out / "nodes_Category.parquet"))
    source.project("* REPLACE (CASE WHEN row_number() OVER () = 1 THEN 'x' ELSE name END AS name)").write_parquet(
        str(target)
    )
    assert set(import_file_differences(duckdb_build.out, copy)) == {"nodes Category"}


def test_claimed_llama_has_no_id_less_author_left(spark_build: BuildSummary) -> None:
    """The claim step's outcome in the Spark files: LLaMA's authors are all identified researchers."""
    assert spark_build.out is not None
    manifest = json.loads((spark_build.out / "manifest.json").read_text(encoding="utf-8"))
    rels, nodes = manifest["relationships"], manifest["nodes"]
    authored = [str(spark_build.out / f) for g in rels if g["type"] == "AUTHORED" for f in g["files"]]
    people = [str(spark_build.out / f) for g in nodes if g["labels"] == "Researcher" for f in g["files"]]
    llama = internal_id("Paper", f"arxiv:{LLAMA_ARXIV}")
    rows = duckdb.execute(
        "SELECT r.paper_scoped, a.claimed_sources FROM read_parquet($a) a JOIN read_parquet($r) r "
        'ON r."id:ID(Researcher)" = a.":START_ID(Researcher)" WHERE a.":END_ID(Paper)" = $p',
        {"a": authored, "r": people, "p": llama},
    ).fetchall()
    assert rows and not [r for r in rows if r[0]]
    assert [r for r in rows if r[1] and "arxiv" in r[1]]
