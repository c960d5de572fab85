"""One record to rows or a reject: the step `weft load` and `weft build` share."""

from __future__ import annotations

import json
from pathlib import Path

from weft.loaders import openalex
from weft.loaders.reader import JSON, Item, Problem
from weft.loaders.records import Rejected, record_rows, write_rejects
from weft.loaders.rows import NodeRow, RecordRows, RejectedRecord, RelRow

PATH = Path("works.jsonl")


def _item(record: JSON, where: str = "line 3") -> Item:
    return Item(PATH, where, record)


def test_a_usable_record_gives_its_checked_rows() -> None:
    rows = record_rows(openalex.build_rows, _item({"id": "https://openalex.org/W1", "authorships": []}))
    assert isinstance(rows, RecordRows) and rows.nodes[0].keys == {"openalex_id": "W1"}


def test_a_record_that_writes_nothing_is_neither_rows_nor_a_reject() -> None:
    assert record_rows(lambda record: None, _item({"sha": "x", "corpusid": 1})) is None


def test_an_unreadable_part_of_a_file_is_rejected_as_the_reader_reported_it() -> None:
    problem = Problem(PATH, "line 2", "malformed JSON: Expecting value", "{oops")
    assert record_rows(openalex.build_rows, problem) == Rejected(problem.as_json())


def test_a_refused_record_is_rejected_with_the_builders_reason_and_the_raw_record() -> None:
    def refuse(record: JSON) -> RecordRows:
        raise RejectedRecord("OpenAlex work without a valid id ('x')")

    outcome = record_rows(refuse, _item({"id": "x", "title": "é" * 3000}))
    assert isinstance(outcome, Rejected)
    assert outcome.entry["file"] == "works.jsonl" and outcome.entry["where"] == "line 3"
    assert outcome.entry["reason"] == "OpenAlex work without a valid id ('x')"
    assert len(outcome.entry["raw"]) == 2000 and outcome.entry["raw"].startswith('{"id": "x", "title": "éé')


def test_a_record_of_an_unexpected_shape_names_the_exception() -> None:
    def crash(record: JSON) -> RecordRows:
        return record["missing"]

    outcome = record_rows(crash, _item({"id": "x"}))
    assert isinstance(outcome, Rejected) and outcome.entry["reason"] == "KeyError: 'missing'"


def test_rows_failing_the_record_check_are_rejected() -> None:
    empty = record_rows(lambda record: RecordRows(), _item({}))
    assert isinstance(empty, Rejected) and empty.entry["reason"] == "record states no entity"
    paper = NodeRow("Paper", {"doi": "10.1/x"}, "s2")
    dangling = RecordRows([paper], [RelRow("AUTHORED", "orcid:0000-0001", paper.key)])
    outcome = record_rows(lambda record: dangling, _item({}))
    assert isinstance(outcome, Rejected) and "names a node the record does not state" in outcome.entry["reason"]


def test_rejects_are_written_as_json_lines(tmp_path: Path) -> None:
    entries = [{"file": "a.json", "where": "line 1", "reason": "malformed JSON", "raw": "é"}]
    target = tmp_path / "out" / "rejects.jsonl"
    write_rejects(target, entries)
    assert [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()] == entries
    assert "é" in target.read_text(encoding="utf-8")
