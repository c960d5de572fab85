"""loaders.reader: every container shape, gzip, bad lines, unknown files; and same-name pairing."""

from __future__ import annotations

import gzip
import itertools
import json
from pathlib import Path

import pytest

from tests.conftest import shared_path
from weft.loaders.derived import crowded_buckets, same_name_pairs
from weft.loaders.reader import Item, Problem, UnknownFormat, data_files, read_records, sniff


def _items(path: Path) -> list:
    return list(read_records(path))


def test_shared_openalex_files_in_all_three_shapes() -> None:
    single = _items(shared_path("openalex", "works", "single", "W2741809807.json"))
    assert [(i.where, i.record["id"]) for i in single] == [("record", "https://openalex.org/W2741809807")]
    page = _items(shared_path("openalex", "works", "openalexPro_query_page_2.json"))
    assert len(page) == 59 and page[3].where == "results[3]"
    array = _items(shared_path("openalex", "works", "author_works", "academic_explorer_author_A5017572309_works.json"))
    assert len(array) == 6 and array[0].where == "[0]"
    assert all(isinstance(i, Item) for i in single + page + array)


def test_jsonl_gz_and_bad_lines(tmp_path: Path) -> None:
    path = tmp_path / "works.jsonl.gz"
    with gzip.open(path, "wt") as fh:
        fh.write('{"id": 1}\n\n{"id": 2\n[{"id": 3}, {"id": 4}]\n{"meta": {}, "results": [{"id": 5}]}\n')
    items = _items(path)
    assert [(type(i).__name__, i.where) for i in items] == [
        ("Item", "line 1"),
        ("Problem", "line 3"),
        ("Item", "line 4 [0]"),
        ("Item", "line 4 [1]"),
        ("Item", "line 5 results[0]"),
    ]
    assert "malformed JSON" in items[1].reason and items[1].raw.startswith('{"id": 2')
    assert sniff(path) == ("jsonl", {"id": 1})


def test_odd_but_readable_lines_read_exactly(tmp_path: Path) -> None:
    """NaN, an integer past 64 bits, a lone surrogate, a byte-order mark: read as the standard library
    reads them (a faster parser tried here turned the integer into a float), and a bad line's problem
    quotes the standard library's message."""
    lines = ['{"x": NaN}', f'{{"x": {10**30}}}', '{"x": "\\ud800"}', '\ufeff{"x": 1}', '{"x": 1,}']
    path = tmp_path / "odd.jsonl"
    path.write_bytes("\n".join(lines).encode("utf-8") + b"\n")
    items = _items(path)
    assert [i.record["x"] for i in items[:3] if isinstance(i, Item)][1:] == [10**30, "\ud800"]
    assert items[0].record["x"] != items[0].record["x"]  # NaN
    assert isinstance(items[3], Item) and items[3].record == {"x": 1}
    try:
        json.loads(lines[4])
    except json.JSONDecodeError as exc:
        expected = exc.msg
    assert isinstance(items[4], Problem) and items[4].reason == f"malformed JSON: {expected}"


def test_a_bad_first_line_does_not_hide_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text('{"id": \n{"id": 2}\n{"id": 3}\n')
    assert [i.where for i in _items(path) if isinstance(i, Item)] == ["line 2", "line 3"]


def test_truncated_json_document_is_one_problem_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "page.json"
    path.write_text('{\n  "meta": {},\n  "results": [\n    {"id": 1},\n')
    items = _items(path)
    assert len(items) == 1 and isinstance(items[0], Problem) and items[0].where.startswith("line ")


@pytest.mark.parametrize("content", [b"", b"id,title\n1,x\n", b"\x00\x01binary", b"   \n"])
def test_unknown_formats_are_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "x.dat"
    path.write_bytes(content)
    with pytest.raises(UnknownFormat):
        sniff(path)


def test_data_files_walk_folders_and_skip_docs(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    for name in ("b.json", "sub/a.jsonl.gz", "README.md", "sub/README.txt", ".hidden.json"):
        (tmp_path / name).write_text("{}")
    assert [p.relative_to(tmp_path).as_posix() for p in data_files([tmp_path])] == ["b.json", "sub/a.jsonl.gz"]
    with pytest.raises(FileNotFoundError):
        data_files([tmp_path / "missing"])
    shared = data_files([shared_path("semanticscholar", "datasets_sample")])
    assert len(shared) == 7 and all(p.name.endswith(".jsonl.gz") for p in shared)
    assert json.loads(json.dumps([str(p) for p in shared]))  # plain paths


def test_same_name_pairs_are_compatible_people_only() -> None:
    members = [
        {"name_key": "mearman r", "id": "r2", "name": "ROBERT C. MEARMAN", "is_person": True},
        {"name_key": "mearman r", "id": "r1", "name": "R. C. MEARMAN", "is_person": True},
        {"name_key": "mearman r", "id": "r3", "name": "Richard Mearman", "is_person": True},
        {"name_key": "lawson d", "id": "r4", "name": "Downward and Mearman Tony Lawson", "is_person": False},
        {"name_key": "lawson d", "id": "r5", "name": "D. Lawson", "is_person": True},
        {"name_key": "zhang w", "id": "r7", "name": "Wei Zhang", "is_person": True},
        {"name_key": "zhang w", "id": "r6", "name": "Wei Zhang", "is_person": True},
    ]
    assert same_name_pairs(members) == [{"a": "r1", "b": "r2"}, {"a": "r1", "b": "r3"}, {"a": "r6", "b": "r7"}]
    assert same_name_pairs(members, bucket_limit=2) == [{"a": "r6", "b": "r7"}]
    assert crowded_buckets(members, bucket_limit=2) == {"mearman r"}  # the non-person is not counted
    assert crowded_buckets(members) == set()


def test_same_name_pairs_leave_linked_pairs_alone() -> None:
    """Two linked people are never paired again; an unlinked one (touched, or left by a crowded bucket)
    pairs with everyone compatible, linked or not, each pair once, the smaller id first."""
    bucket = [
        {"name_key": "zhang w", "id": "r3", "name": "Wei Zhang", "is_person": True, "links": 1},
        {"name_key": "zhang w", "id": "r1", "name": "Wei Zhang", "is_person": True, "links": 1},
        {"name_key": "zhang w", "id": "r2", "name": "W. Zhang", "is_person": True, "links": 0},
        {"name_key": "zhang w", "id": "r4", "name": "W. Zhang", "is_person": True, "links": 0},
        {"name_key": "zhang w", "id": "r5", "name": "Wen Zhang", "is_person": True, "links": 2},
    ]
    assert same_name_pairs(bucket) == [
        {"a": "r1", "b": "r2"},
        {"a": "r1", "b": "r4"},
        {"a": "r2", "b": "r3"},
        {"a": "r2", "b": "r4"},
        {"a": "r2", "b": "r5"},
        {"a": "r3", "b": "r4"},
        {"a": "r4", "b": "r5"},
    ]
    linked = [dict(m, links=1) for m in bucket]
    assert same_name_pairs(linked) == []
    unlinked = [dict(m, links=0) for m in bucket]
    assert same_name_pairs(unlinked) == [
        {"a": a, "b": b}
        for a, b in itertools.combinations(["r1", "r2", "r3", "r4", "r5"], 2)
        if {a, b} != {"r1", "r5"} and {a, b} != {"r3", "r5"}
    ]
