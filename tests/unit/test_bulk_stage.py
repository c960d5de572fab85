"""Bulk staging's node rows (loaders.bulk.stage.node_rows) on real OpenAlex works (pure: no database)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from tests.conftest import shared_path
from weft.loaders.bulk.stage import StageFile, node_rows, tasks_for
from weft.loaders.openalex import build_rows
from weft.loaders.rows import RecordRows


def _works() -> list[RecordRows]:
    raw = json.loads(shared_path("openalex", "works", "openalexPro_query_page_1.json").read_text())["results"]
    built = [build_rows(work) for work in raw]
    return [rows for rows in built if rows is not None]


@pytest.mark.parametrize(("updated", "first"), [("1999-01-01", "original"), ("2999-01-01", "copy")])
def test_a_node_stated_twice_in_a_record_has_one_first_row_its_best_ranked(updated: str, first: str) -> None:
    """`first` marks one row per (label, key, source) in a record, the one ranked highest: here an older or a
    newer copy of a work's first author row added to the work."""
    rows = _works()[0]
    original = next(i for i, row in enumerate(rows.nodes) if row.label == "Researcher")
    rows.nodes.append(replace(rows.nodes[original], updated=updated))
    staged = node_rows(7, rows, 0, {})
    assert [row["idx"] for row in staged] == list(range(len(rows.nodes)))
    firsts = [row["idx"] for row in staged if row["first"]]
    assert len(firsts) == len({(row["label"], row["rowkey"], row["source"]) for row in staged}) == len(rows.nodes) - 1
    assert (original in firsts, len(rows.nodes) - 1 in firsts) == (first == "original", first == "copy")


def test_staging_notes_each_property_kind() -> None:
    kinds: dict[str, set[str]] = {}
    for rec, rows in enumerate(_works()):
        node_rows(rec, rows, 0, kinds)
    assert kinds["Paper.year"] == {"int"} and kinds["Paper.title"] == {"str"}
    assert kinds["Paper/source.cited_by_count_openalex"] == {"int"}
    assert kinds["Researcher.is_person"] == {"bool"}


def test_each_large_file_is_its_own_task_and_the_largest_go_first(tmp_path: Path) -> None:
    sizes = {"a": 3 << 20, "b": 6 << 20, "c": 20 << 20, "d": 1 << 20, "e": 40 << 20, "f": 2 << 20}
    files = []
    for ordinal, (name, size) in enumerate(sizes.items()):
        path = tmp_path / name
        with path.open("wb") as out:
            out.truncate(size)
        files.append(StageFile(ordinal, path, "openalex"))

    tasks = tasks_for(files, tmp_path)

    # c and e alone; the small ones in file order until a task holds 8 MB (a+b), the rest (d+f)
    assert [[f.path.name for f in t.files] for t in tasks] == [["e"], ["c"], ["a", "b"], ["d", "f"]]
    assert [t.number for t in tasks] == [2, 1, 0, 3]
