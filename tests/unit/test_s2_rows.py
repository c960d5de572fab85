"""Semantic Scholar Graph API and dataset records -> rows, checked against the raw shared files."""

from __future__ import annotations

import gzip
import json
from collections import Counter

import pytest

from tests.conftest import shared_path
from weft.graph.identity.ids import normalize_doi
from weft.loaders import s2
from weft.loaders.rows import FULL_RECORD, MENTION, RejectedRecord


@pytest.fixture(scope="module")
def paper_doc() -> dict:
    return json.loads(shared_path("semanticscholar", "graph_api", "Paper.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def author_doc() -> dict:
    return json.loads(shared_path("semanticscholar", "graph_api", "Author.json").read_text(encoding="utf-8"))


def dataset(kind: str) -> list[dict]:
    folder = shared_path("semanticscholar", "datasets_sample", kind)
    (path,) = folder.glob("*.jsonl.gz")
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def raw_papers(paper_doc: dict, author_doc: dict) -> list[dict]:
    return [paper_doc, *paper_doc["citations"], *paper_doc["references"], *author_doc["papers"]]


def test_graph_api_counts_match_the_raw_files(paper_doc: dict, author_doc: dict) -> None:
    raw = raw_papers(paper_doc, author_doc)
    raw_ids = {p["paperId"] for p in raw if p["paperId"]}
    raw_authors = {a["authorId"] for p in raw for a in p.get("authors") or [] if a["authorId"]}
    raw_authorships = {
        (p["paperId"], a["authorId"]) for p in raw if p["paperId"] for a in p["authors"] if a["authorId"]
    }
    idless = [(p["paperId"], a["name"]) for p in raw for a in p.get("authors") or [] if not a["authorId"]]

    built = [s2.paper_rows(paper_doc), s2.author_rows(author_doc)]
    papers = {n.keys["s2_id"] for rows in built for n in rows.nodes if n.label == "Paper"}
    researchers = {n.key for rows in built for n in rows.nodes if n.label == "Researcher"}
    authored = {(r.end, r.start) for rows in built for r in rows.rels if r.type == "AUTHORED"}

    assert papers == raw_ids and len(papers) == 1068
    assert {k.removeprefix("s2:") for k in researchers if not k.startswith("paper:")} == raw_authors
    assert len(raw_authors) == 3309
    assert len([k for k in researchers if k.startswith("paper:")]) == len(idless) == 3
    assert len([a for a in authored if not a[1].startswith("paper:")]) == len(raw_authorships) == 3532
    assert (
        sum(
            1
            for p in {p["paperId"]: p for p in raw if p["paperId"]}.values()
            if (p.get("externalIds") or {}).get("ArXiv")
        )
        == 243
    )
    arxiv_keyed = {n.keys["s2_id"] for rows in built for n in rows.nodes if n.label == "Paper" and "arxiv_id" in n.keys}
    assert len(arxiv_keyed) == 243


def test_citations_and_references_become_references(paper_doc: dict) -> None:
    rows = s2.paper_rows(paper_doc)
    main = rows.nodes[0]
    assert main.key == "doi:" + normalize_doi(paper_doc["externalIds"]["DOI"])
    refs = [r for r in rows.rels if r.type == "REFERENCES"]
    out = [r for r in refs if r.start == main.key]
    into = [r for r in refs if r.end == main.key]
    assert len(into) == len({c["paperId"] for c in paper_doc["citations"] if c["paperId"]}) == 1000
    assert all(r.owner is None for r in into)
    with_id = [r for r in paper_doc["references"] if r["paperId"]]
    assert len(out) == len(with_id) == 8 and all(r.owner == 0 for r in out)
    assert len(paper_doc["references"]) - len(with_id) == 6  # the id-less ones cannot be nodes
    assert main.owns == ("AUTHORED", "IN_CATEGORY", "REFERENCES")


def test_turing_paper_keys_props_and_per_source_counts(paper_doc: dict) -> None:
    main = s2.paper_rows(paper_doc).nodes[0]
    ext = paper_doc["externalIds"]
    assert main.keys == {
        "doi": ext["DOI"].lower(),
        "s2_id": paper_doc["paperId"],
        "corpus_id": str(paper_doc["corpusId"]),
        "mag_id": ext["MAG"],
    }
    assert main.level == FULL_RECORD and main.source == "s2"
    assert main.props["title"] == paper_doc["title"] and main.props["year"] == paper_doc["year"]
    assert main.props["dblp_id"] == ext["DBLP"]
    assert main.source_props["cited_by_count_s2"] == paper_doc["citationCount"]
    assert main.source_props["reference_count_s2"] == paper_doc["referenceCount"]
    assert main.props["tldr"] == paper_doc["tldr"]["text"]


def test_authors_carry_s2_counts_and_name_keys(paper_doc: dict, author_doc: dict) -> None:
    turing = s2.paper_rows(paper_doc).nodes[1]
    raw = paper_doc["authors"][0]
    assert turing.keys == {"s2_id": raw["authorId"]} and turing.level == MENTION
    assert turing.source_props == {
        "works_count_s2": raw["paperCount"],
        "cited_by_count_s2": raw["citationCount"],
        "h_index_s2": raw["hIndex"],
    }
    profile = s2.author_rows(author_doc).nodes[0]
    assert profile.level == FULL_RECORD and profile.keys == {"s2_id": "2262347"}
    assert profile.source_props["h_index_s2"] == author_doc["hIndex"]
    assert profile.source_props["works_count_s2"] == author_doc["paperCount"]
    assert profile.props["name_key"] == "turing a" and profile.props["is_person"] is True
    papers = [n for n in s2.author_rows(author_doc).nodes if n.label == "Paper"]
    assert len(papers) == len({p["paperId"] for p in author_doc["papers"]})


def test_two_a_turing_ids_stay_two_researchers(paper_doc: dict, author_doc: dict) -> None:
    built = [s2.paper_rows(paper_doc), s2.author_rows(author_doc)]
    turings = {
        n.keys["s2_id"]
        for rows in built
        for n in rows.nodes
        if n.label == "Researcher" and n.props.get("name") == "A. Turing"
    }
    assert {"2262347", "2079681794"} <= turings


def test_idless_authors_are_paper_scoped(paper_doc: dict) -> None:
    rows = s2.paper_rows(paper_doc)
    scoped = [n for n in rows.nodes if n.label == "Researcher" and "scoped_key" in n.keys]
    expected = {
        f"s2:{p['paperId']}#{rank}": a["name"]
        for p in paper_doc["citations"]
        for rank, a in enumerate(p["authors"])
        if not a["authorId"]
    }
    assert {n.keys["scoped_key"]: n.props["name"] for n in scoped} == expected
    assert all(n.props["paper_scoped"] for n in scoped)


def test_fields_of_study_are_categories(paper_doc: dict) -> None:
    rows = s2.paper_rows(paper_doc)
    main_links = [r.end for r in rows.rels if r.type == "IN_CATEGORY" and r.start == rows.nodes[0].key]
    raw = {f["category"] for f in paper_doc["s2FieldsOfStudy"]} | set(paper_doc["fieldsOfStudy"])
    assert sorted(main_links) == sorted(f"s2field:{c.lower().replace(' ', '-')}" for c in raw)


def test_dataset_papers_keys_from_externalids_and_url() -> None:
    rows = dataset("papers")
    built = [s2.dataset_rows("papers", r) for r in rows]
    for raw, out in zip(rows, built, strict=True):
        paper = out.nodes[0]
        assert paper.keys["corpus_id"] == str(raw["corpusid"]) == raw["externalids"]["CorpusId"]
        assert paper.keys["s2_id"] == raw["url"].rsplit("/", 1)[-1]
        if raw["externalids"]["DOI"]:
            assert paper.keys["doi"] == raw["externalids"]["DOI"].lower()
        assert paper.updated == raw["updated"]
        assert len([r for r in out.rels if r.type == "AUTHORED"]) == len(raw["authors"])
    assert sum("doi" in b.nodes[0].keys for b in built) == 20


def test_integer_and_string_corpus_ids_are_one_key() -> None:
    assert s2.corpus_key(14636783) == s2.corpus_key("14636783") == "corpus:14636783"
    assert s2.corpus_key(None) is None and s2.corpus_key("abc") is None


def test_dataset_authors() -> None:
    rows = dataset("authors")
    built = [s2.dataset_rows("authors", r).nodes[0] for r in rows]
    assert [b.keys["s2_id"] for b in built] == [r["authorid"] for r in rows]
    roldan = next(b for b in built if b.keys["s2_id"] == "144501675")
    assert roldan.props["alt_names"] == ["J. Roldán", "Joseph Roldan"]
    assert sum("works_count_s2" in b.source_props for b in built) == sum(r["papercount"] is not None for r in rows)


def test_dataset_citations_link_by_corpus_id_only_when_both_ends_exist() -> None:
    rows = dataset("citations")
    built = [s2.dataset_rows("citations", r) for r in rows]
    assert sum(b is None for b in built) == sum(r["citedcorpusid"] is None for r in rows) == 23
    for raw, out in zip(rows, built, strict=True):
        if out is None:
            continue
        assert out.nodes[0].keys == {"corpus_id": raw["citingcorpusid"]} and out.nodes[0].level == s2.ATTACH
        assert [(r.type, r.start, r.end) for r in out.rels] == [
            ("REFERENCES", f"corpus:{raw['citingcorpusid']}", f"corpus:{raw['citedcorpusid']}")
        ]


def test_dataset_abstracts_and_tldrs_attach_only() -> None:
    abstracts = dataset("abstracts")
    for raw in abstracts:
        out = s2.dataset_rows("abstracts", raw)
        assert out.nodes[0].level == s2.ATTACH and out.nodes[0].keys == {"corpus_id": str(raw["corpusid"])}
        assert out.nodes[0].props == {"abstract": " ".join(raw["abstract"].split())}
    tldrs = dataset("tldrs")
    built = [s2.dataset_rows("tldrs", r) for r in tldrs]
    assert sum(b is not None for b in built) == sum(bool(r["text"].strip()) for r in tldrs)


def test_paper_ids_and_venues_are_read_but_write_nothing() -> None:
    assert Counter(s2.dataset_rows("paper-ids", r) is None for r in dataset("paper-ids")) == Counter({True: 100})
    assert Counter(s2.dataset_rows("publication-venues", r) is None for r in dataset("publication-venues")) == Counter(
        {True: 100}
    )


@pytest.mark.parametrize(
    ("kind", "bad"),
    [
        ("papers", {"title": "no ids at all", "externalids": None}),
        ("papers", ["not", "an", "object"]),
        ("authors", {"name": "Nobody", "authorid": None}),
        ("citations", {"citingcorpusid": None, "citedcorpusid": "1"}),
        ("citations", {"citingcorpusid": "x1", "citedcorpusid": "1"}),
        ("abstracts", {"abstract": "text", "corpusid": None}),
        ("paper-ids", {"corpusid": 5}),
        ("publication-venues", {"id": "", "name": "x"}),
    ],
)
def test_bad_dataset_rows_are_rejected(kind: str, bad: object) -> None:
    with pytest.raises(RejectedRecord):
        s2.dataset_rows(kind, bad)


def test_bad_graph_api_records_are_rejected(paper_doc: dict) -> None:
    with pytest.raises(RejectedRecord):
        s2.paper_rows({"paperId": None, "title": "x"})
    with pytest.raises(RejectedRecord):
        s2.author_rows({"authorId": None, "name": "x"})
    with pytest.raises(RejectedRecord):
        s2.paper_rows("Paper.json")
    # wrong types inside a record: the paper still loads, the bad parts are left out
    odd = dict(paper_doc, authors="A. Turing", citations=None, references=[None, 3], year="1950", journal=[])
    rows = s2.paper_rows(odd)
    assert [n.label for n in rows.nodes] == ["Paper", "Category", "Category"]
    assert rows.nodes[0].props["year"] == 1950


def test_endpoint_shaped_citations_and_references_unwrap(paper_doc: dict) -> None:
    """`/paper/{id}/citations` and `/references` wrap each paper as `{citingPaper}` / `{citedPaper}`."""
    wrapped = dict(
        paper_doc,
        citations=[{"citingPaper": c, "contexts": [], "intents": []} for c in paper_doc["citations"]],
        references=[{"citedPaper": r, "isInfluential": False} for r in paper_doc["references"]],
    )
    plain, unwrapped = s2.paper_rows(paper_doc), s2.paper_rows(wrapped)
    assert [(n.label, n.key) for n in unwrapped.nodes] == [(n.label, n.key) for n in plain.nodes]
    assert [(r.type, r.start, r.end) for r in unwrapped.rels] == [(r.type, r.start, r.end) for r in plain.rels]


def test_graph_api_result_pages(paper_doc: dict, author_doc: dict) -> None:
    """`/author/{id}/papers`, `/paper/search`, `/paper/{id}/citations` pages, built from the real records."""
    papers_page = {"offset": 0, "next": 60, "data": [*author_doc["papers"], {"paperId": None, "title": "x"}]}
    assert s2.kind(papers_page) == "page"
    rows = s2.build_rows(papers_page)
    expected = [s2.paper_rows(p) for p in author_doc["papers"]]
    assert [(n.label, n.key) for n in rows.nodes] == [(n.label, n.key) for part in expected for n in part.nodes]
    assert len(rows.rels) == sum(len(part.rels) for part in expected)
    owners = [rows.nodes[r.owner] for r in rows.rels if r.type == "AUTHORED"]
    assert all(o.label == "Paper" for o in owners)
    assert all(rows.nodes[r.owner].key == r.end for r in rows.rels if r.type == "AUTHORED")
    citations_page = {"offset": 0, "data": [{"citingPaper": c, "contexts": []} for c in paper_doc["citations"][:10]]}
    assert {n.keys["s2_id"] for n in s2.build_rows(citations_page).nodes if n.label == "Paper"} == {
        c["paperId"] for c in paper_doc["citations"][:10]
    }
    authors_page = {"total": 1, "offset": 0, "data": [author_doc]}
    assert s2.build_rows(authors_page).nodes[0].keys == {"s2_id": author_doc["authorId"]}
    assert s2.build_rows({"total": 0, "offset": 0, "data": []}) is None
