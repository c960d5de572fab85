"""The identity benchmark's labels and hidden copies (bench/identity.py) on tiny records."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from bench.identity import Signature, hidden_copy, hide, transfer_labels


def _sig(source: str, rank: int, name: str, orcid: str | None) -> Signature:
    return Signature(source, "doi:10.1/x", ("p1",), rank, name, orcid)


def test_another_sources_authorship_at_the_same_slot_inherits_a_compatible_label() -> None:
    found = transfer_labels(
        [
            _sig("openalex", 0, "Ada Lovelace", "0000-0001"),
            _sig("s2", 0, "A. Lovelace", None),  # same slot, compatible: inherits
            _sig("s2", 1, "A. Lovelace", None),  # another slot
            _sig("arxiv", 0, "Charles Babbage", None),  # same slot, another name
        ]
    )
    assert [(s.orcid, s.how) for s in found] == [
        ("0000-0001", "own"),
        ("0000-0001", "transferred"),
        (None, "own"),
        (None, "own"),
    ]


def test_hiding_ids_keeps_names_and_drops_orcids_everywhere() -> None:
    record = {"authors": [{"authorId": "7", "name": "N", "externalIds": {"ORCID": "X"}}], "orcid": "Y", "id": "W1"}
    assert hide(record, ids=False) == {"authors": [{"authorId": "7", "name": "N", "externalIds": {}}], "id": "W1"}
    assert hide(record, ids=True) == {"authors": [{"name": "N", "externalIds": {}}], "id": "W1"}


def test_the_hidden_copy_rewrites_json_lines_gzip_and_leaves_other_files(tmp_path: Path) -> None:
    data, out = tmp_path / "data", tmp_path / "out"
    (data / "s2").mkdir(parents=True)
    with gzip.open(data / "s2" / "authors.jsonl.gz", "wt", encoding="utf-8") as fh:
        fh.write(json.dumps({"authorid": "1", "externalids": {"ORCID": ["X"]}}) + "\n")
    (data / "README.md").write_text("orcid", encoding="utf-8")
    hidden_copy(data, out, ids=False)
    with gzip.open(out / "s2" / "authors.jsonl.gz", "rt", encoding="utf-8") as fh:
        assert [json.loads(line) for line in fh] == [{"authorid": "1", "externalids": {}}]
    assert not (out / "README.md").exists()
