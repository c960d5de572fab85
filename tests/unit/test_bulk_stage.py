"""Bulk staging's node lines (loaders.bulk.stage.NodeStager) on real OpenAlex works: a row content
worked out once per process stages the same as worked out afresh (pure: no database)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from tests.conftest import shared_path
from weft.loaders.bulk.stage import NodeStager
from weft.loaders.openalex import build_rows
from weft.loaders.rows import RecordRows


def _works() -> list[RecordRows]:
    raw = json.loads(shared_path("openalex", "works", "openalexPro_query_page_1.json").read_text())["results"]
    built = [build_rows(work) for work in raw]
    return [rows for rows in built if rows is not None]


def _lines(stager: NodeStager, rec: int, rows: RecordRows) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stager.lines(rec, rows, 0)]


def test_a_row_content_seen_before_stages_as_if_new() -> None:
    """Every work staged after all the others through one stager (most of its institutions and categories
    are known by then, the cache even cleared on the way) gives the lines a fresh stager gives."""
    works = _works()
    shared = NodeStager({}, capacity=50)
    for rec, rows in enumerate(works):
        _lines(shared, rec, rows)
    recurring = Counter(line["rowkey"] for rec, rows in enumerate(works) for line in _lines(shared, rec, rows))
    assert sum(1 for n in recurring.values() if n > 1) > 20  # the works share many rows
    for rec, rows in enumerate(works):
        assert _lines(shared, rec, rows) == _lines(NodeStager({}), rec, rows)


def test_each_node_of_a_record_has_one_first_row_its_best_ranked() -> None:
    """`first` marks one row per (label, key, source) in a record: the one ranked highest."""
    stager = NodeStager({})
    for rec, rows in enumerate(_works()):
        lines = _lines(stager, rec, rows)
        assert [line["idx"] for line in lines] == list(range(len(rows.nodes)))
        by_node: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
        for line in lines:
            by_node.setdefault((line["label"], line["rowkey"], line["source"]), []).append(line)
        for group in by_node.values():
            firsts = [line for line in group if line["first"]]
            assert len(firsts) == 1 and firsts[0]["rrank"] == max(line["rrank"] for line in group)


def test_the_stager_notes_each_property_kind() -> None:
    kinds: dict[str, set[str]] = {}
    stager = NodeStager(kinds)
    for rec, rows in enumerate(_works()):
        stager.lines(rec, rows, 0)
    assert kinds["Paper.year"] == {"int"} and kinds["Paper.title"] == {"str"}
    assert kinds["Paper/source.cited_by_count_openalex"] == {"int"}
    assert kinds["Researcher.is_person"] == {"bool"}
