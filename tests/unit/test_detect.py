"""Per-file format detection on every shared file, and refusal of files of no known format."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import shared_path
from weft.graph.errors import InvalidInput
from weft.loaders import arxiv, openalex, s2
from weft.loaders.detect import UNREADABLE, classify, detect_file, plan
from weft.loaders.reader import UnknownFormat


def expected_format(path: Path) -> tuple[str, str]:
    """What a shared file holds, from where the data README says it is (not from its content)."""
    parts = path.relative_to(shared_path()).parts
    if parts[0] == "arxiv":
        return "arxiv", "snapshot"
    if parts[0] == "openalex":
        return "openalex", {"works": "work", "authors": "author", "institutions": "institution"}[parts[1]]
    if parts[1] == "graph_api":
        return "s2", path.stem.lower()
    return "s2", f"dataset:{parts[2]}"


def test_every_shared_file_is_detected() -> None:
    found = plan([shared_path()])
    expected_files = sorted(p for p in shared_path().rglob("*") if p.is_file() and not p.name.endswith((".md", ".txt")))
    assert sorted(p for p, _ in found) == expected_files
    for path, fmt in found:
        assert (fmt.source, fmt.kind) == expected_format(path), path
        assert fmt.container == ("jsonl" if ".jsonl" in path.name else "json")


def test_builders_follow_the_format() -> None:
    paper = detect_file(shared_path("semanticscholar", "graph_api", "Paper.json"))
    assert paper.build_rows is s2.build_rows and paper.kind == "paper"
    assert detect_file(shared_path("semanticscholar", "graph_api", "Author.json")).kind == "author"
    assert detect_file(shared_path("arxiv", "arxiv-metadata-oai-snapshot.head200.jsonl")).build_rows is arxiv.build_rows
    assert detect_file(shared_path("openalex", "works", "single", "W2741809807.json")).build_rows is openalex.build_rows
    venues = detect_file(
        shared_path("semanticscholar", "datasets_sample", "publication-venues", "publication-venues-sample.jsonl.gz")
    )
    assert venues.kind == "dataset:publication-venues" and venues.container == "jsonl"


def test_attaching_files_come_last() -> None:
    found = plan([shared_path("semanticscholar", "datasets_sample")])
    kinds = [fmt.kind for _, fmt in found]
    attaching = {"dataset:citations", "dataset:abstracts", "dataset:tldrs"}
    assert set(kinds[-3:]) == attaching
    assert kinds.index("dataset:papers") < min(kinds.index(k) for k in attaching)


def test_explicit_source_must_match(tmp_path: Path) -> None:
    work = shared_path("openalex", "works", "single", "W2741809807.json")
    assert detect_file(work, "openalex").source == "openalex"
    with pytest.raises(UnknownFormat, match="OpenAlex work records, not Semantic Scholar"):
        detect_file(work, "s2")
    with pytest.raises(InvalidInput, match="not arXiv"):
        plan([shared_path("semanticscholar", "graph_api")], "arxiv")
    with pytest.raises(ValueError, match="unknown source"):
        detect_file(work, "crossref")
    with pytest.raises(InvalidInput, match="unknown source") as unknown:
        plan([work], "crossref")
    assert unknown.value.argument == "source"


def test_a_named_source_takes_a_record_its_parser_recognises(tmp_path: Path) -> None:
    """An OpenAlex work that also carries arXiv's snapshot fields: auto takes it for arXiv (tried
    first); `weft load openalex` loads it as the work it also is."""
    both = tmp_path / "both.json"
    record = {"id": "https://openalex.org/W1", "authors": "", "categories": "", "versions": []}
    both.write_text(json.dumps(record), encoding="utf-8")
    assert (detect_file(both).source, detect_file(both).kind) == ("arxiv", "snapshot")
    named = detect_file(both, "openalex")
    assert (named.source, named.kind, named.build_rows) == ("openalex", "work", openalex.build_rows)


def test_gzipped_and_plain_files_detect_alike(tmp_path: Path) -> None:
    plain = tmp_path / "papers.jsonl"
    with gzip.open(shared_path("semanticscholar", "datasets_sample", "papers", "papers-sample.jsonl.gz"), "rb") as src:
        plain.write_bytes(src.read())
    zipped = tmp_path / "Paper.json.gz"
    with gzip.open(zipped, "wb") as out:
        out.write(shared_path("semanticscholar", "graph_api", "Paper.json").read_bytes())
    assert detect_file(plain).kind == "dataset:papers" and detect_file(plain).container == "jsonl"
    assert detect_file(zipped).kind == "paper" and detect_file(zipped).container == "json"


def test_a_json_file_of_no_known_source_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    bad = tmp_path / "crossref.json"
    bad.write_bytes(json.dumps({"DOI": "10.1/x", "title": ["A"], "author": []}).encode())
    good = tmp_path / "W2741809807.json"
    shutil.copy(shared_path("openalex", "works", "single", "W2741809807.json"), good)
    with pytest.raises(UnknownFormat, match="not an OpenAlex, Semantic Scholar or arXiv file"):
        detect_file(bad)
    with pytest.raises(InvalidInput) as refused:
        plan([good, bad])
    assert "nothing was written" in str(refused.value) and str(bad) in str(refused.value)
    assert str(good) not in str(refused.value) and refused.value.argument == "path"


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("notes.json", b"hello, this is not JSON\n", "not JSON or JSON Lines (starts with 'hello, this is not JSON')"),
        ("empty.jsonl", b"", "empty file"),
        ("numbers.jsonl", b"1\n2\n3\n", "not JSON or JSON Lines (starts with '1')"),
        ("broken.jsonl", b'{"id": \n{"also": broken\n', "no readable record (line 2: malformed JSON"),
    ],
)
def test_an_unreadable_file_is_planned_beside_the_good_ones_and_alone_is_refused(
    tmp_path: Path, name: str, content: bytes, reason: str
) -> None:
    """Issue 11: one bad file no longer refuses a folder; loading it reports it (tests/integration)."""
    bad = tmp_path / name
    bad.write_bytes(content)
    good = tmp_path / "W2741809807.json"
    shutil.copy(shared_path("openalex", "works", "single", "W2741809807.json"), good)
    assert detect_file(bad).kind == UNREADABLE
    kinds = {path.name: fmt.kind for path, fmt in plan([good, bad])}
    assert kinds == {good.name: "work", bad.name: UNREADABLE}
    with pytest.raises(InvalidInput) as refused:
        plan([bad])
    assert "nothing was written" in str(refused.value) and f"{bad}: {reason}" in str(refused.value)  # issue 48


def test_missing_path_or_no_data_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="no such file"):
        plan([tmp_path / "nope.json"])
    (tmp_path / "README.md").write_text("docs only\n", encoding="utf-8")
    with pytest.raises(InvalidInput, match="no data files"):
        plan([tmp_path])


def test_classify_single_records() -> None:
    assert classify({"paperId": "x"}) == ("s2", "paper")
    assert classify({"authorId": "1", "name": "A. Turing", "papers": []}) == ("s2", "author")
    assert classify({"citingcorpusid": "1", "citedcorpusid": None}) == ("s2", "dataset:citations")
    assert classify({"corpusid": 1, "model": "tldr@v2.0.0", "text": "t"}) == ("s2", "dataset:tldrs")
    assert classify({"id": "0704.0001", "authors": "", "categories": "hep-ph", "versions": []}) == ("arxiv", "snapshot")
    assert classify({"id": "https://openalex.org/I114027177"}) == ("openalex", "institution")
    assert classify({"id": "https://openalex.org/A5017898742"}) == ("openalex", "author")
    assert classify({"total": 1, "offset": 0, "data": [{"paperId": "x"}]}) == ("s2", "page")
    assert classify({"offset": 0, "data": [{"citingPaper": {"paperId": "x"}}]}) == ("s2", "page")
    assert classify({"total": 1, "data": [{"DOI": "10.1/x"}]}) is None
    assert classify({"DOI": "10.1/x"}) is None
    assert classify([1, 2]) is None and classify("text") is None
