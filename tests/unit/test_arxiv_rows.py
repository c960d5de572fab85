"""arXiv snapshot records -> rows, checked against the raw shared snapshot lines."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from tests.conftest import shared_path
from weft.graph.identity.names import name_key
from weft.loaders import arxiv
from weft.loaders.rows import MENTION, RejectedRecord


@pytest.fixture(scope="module")
def records() -> list[dict]:
    with shared_path("arxiv", "arxiv-metadata-oai-snapshot.head200.jsonl").open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def by_id(records: list[dict], arxiv_id: str) -> dict:
    return next(r for r in records if r["id"] == arxiv_id)


def test_every_record_is_one_paper_with_its_ids(records: list[dict]) -> None:
    built = [arxiv.build_rows(r) for r in records]
    papers = [rows.nodes[0] for rows in built]
    assert len(papers) == len(records) == 200
    assert all(p.label == "Paper" and p.source == "arxiv" for p in papers)
    assert len({p.keys["arxiv_id"] for p in papers}) == 200
    assert [p.keys["arxiv_id"] for p in papers] == [r["id"] for r in records]
    with_doi = {r["id"]: r["doi"].split()[0].lower() for r in records if r["doi"]}
    assert {p.keys["arxiv_id"]: p.keys["doi"] for p in papers if "doi" in p.keys} == with_doi


def test_categories_in_order_first_is_primary(records: list[dict]) -> None:
    all_codes: set[str] = set()
    for record in records:
        rows = arxiv.build_rows(record)
        codes = record["categories"].split()
        all_codes.update(codes)
        links = [r for r in rows.rels if r.type == "IN_CATEGORY"]
        assert [r.end for r in links] == [f"arxiv:{c}" for c in codes]
        assert [r.props["primary"] for r in links] == [True] + [False] * (len(codes) - 1)
        cats = [n for n in rows.nodes if n.label == "Category"]
        assert [(n.keys["key"], n.props["scheme"]) for n in cats] == [(f"arxiv:{c}", "arxiv") for c in codes]
        assert [n.props["name"] for n in cats] == [arxiv.CATEGORY_NAMES[c] for c in codes]
    assert len(all_codes) == len({c for r in records for c in r["categories"].split()})


def test_authors_are_paper_scoped_decoded_and_ranked(records: list[dict]) -> None:
    total = 0
    for record in records:
        rows = arxiv.build_rows(record)
        people = [n for n in rows.nodes if n.label == "Researcher"]
        authored = [r for r in rows.rels if r.type == "AUTHORED"]
        assert len(people) == len(authored) == len(record["authors_parsed"])
        total += len(people)
        for rank, (person, link) in enumerate(zip(people, authored, strict=True)):
            assert person.keys == {"scoped_key": f"arxiv:{record['id']}#{rank}"}
            assert person.key == f"paper:arxiv:{record['id']}#{rank}"
            assert person.level == MENTION and person.props["paper_scoped"] is True
            assert link.start == person.key and link.end == rows.nodes[0].key
            assert link.props["rank"] == rank
            last = record["authors_parsed"][rank][0]
            assert last.replace("\n", " ").split()[-1] in person.props["name"]
        positions = [link.props["position"] for link in authored]
        if positions:
            assert positions[0] == "first" and (len(positions) == 1 or positions[-1] == "last")
    assert total == 537


def test_category_names_from_the_taxonomy(records: list[dict]) -> None:
    rows = arxiv.build_rows(next(r for r in records if r["id"] == "0704.0002"))
    names = {n.keys["key"]: n.props["name"] for n in rows.nodes if n.label == "Category"}
    assert names == {"arxiv:math.CO": "Combinatorics", "arxiv:cs.CG": "Computational Geometry"}
    unknown = arxiv.build_rows(dict(records[0], categories="xx.YY hep-ph"))
    assert [n.props["name"] for n in unknown.nodes if n.label == "Category"] == [
        "xx.YY",
        "High Energy Physics - Phenomenology",
    ]


def test_tex_names_are_decoded(records: list[dict]) -> None:
    rows = arxiv.build_rows(by_id(records, "0704.0001"))
    names = [n.props["name"] for n in rows.nodes if n.label == "Researcher"]
    assert names == ["C. Balázs", "E. L. Berger", "P. M. Nadolsky", "C.-P. Yuan"]
    assert "Bal\\'azs" in by_id(records, "0704.0001")["authors"]
    assert rows.nodes[1].props["name_key"] == "balazs c"


def test_free_text_authors_are_the_fallback(records: list[dict]) -> None:
    for record in records:
        without = {k: v for k, v in record.items() if k != "authors_parsed"}
        from_parsed = [name_key(n.props["name"]) for n in arxiv.build_rows(record).nodes if n.label == "Researcher"]
        from_text = [name_key(n.props["name"]) for n in arxiv.build_rows(without).nodes if n.label == "Researcher"]
        assert from_text == from_parsed, record["id"]
    escaped = [r for r in records if "\\" in r["authors"]]
    decoded = {
        n.props["name"]
        for r in escaped
        for n in arxiv.build_rows({k: v for k, v in r.items() if k != "authors_parsed"}).nodes
        if n.label == "Researcher"
    }
    assert {"Péter E. Frenkel", "Mikkel Øbro", "Rastislav Šrámek", "Broňa Brejová", "Tomáš Vinař"} <= decoded


def test_versions_and_dates(records: list[dict]) -> None:
    paper = arxiv.build_rows(by_id(records, "0704.0001")).nodes[0]
    assert paper.source_props["versions"] == ["v1@2007-04-02", "v2@2007-07-24"]
    assert paper.source_props["arxiv_version"] == 2
    assert paper.props["year"] == 2007 and paper.props["publication_date"] == "2007-04-02"
    assert paper.updated == "2008-11-26" == paper.props["updated_date"]
    counts = Counter(len(arxiv.build_rows(r).nodes[0].source_props["versions"]) for r in records)
    assert counts == Counter(len(r["versions"]) for r in records)


def test_a_later_version_is_newer_an_earlier_one_older(records: list[dict]) -> None:
    record = by_id(records, "0704.0002")
    current = arxiv.build_rows(record).nodes[0]
    later = copy.deepcopy(record)
    later["versions"].append({"version": "v3", "created": "Mon, 5 Jan 2015 10:00:00 GMT"})
    later["update_date"] = "2015-01-06"
    newer = arxiv.build_rows(later).nodes[0]
    earlier = copy.deepcopy(record)
    earlier["versions"] = earlier["versions"][:1]
    earlier["update_date"] = "2007-04-01"
    older = arxiv.build_rows(earlier).nodes[0]
    assert older.updated < current.updated < newer.updated
    assert newer.source_props["arxiv_version"] == 3 and older.source_props["arxiv_version"] == 1
    assert newer.keys == current.keys == older.keys


@pytest.mark.parametrize(
    ("raw", "canonical"),
    [
        ("0704.0001", "0704.0001"),
        ("0704.0001v6", "0704.0001"),
        ("2110.15032", "2110.15032"),
        ("2110.15032v2", "2110.15032"),
        ("arXiv:2110.15032v6", "2110.15032"),
        ("hep-th/9901001", "hep-th/9901001"),
        ("hep-th/9901001v3", "hep-th/9901001"),
        ("math.CO/0601001", "math/0601001"),
        ("math.GT/0309136v2", "math/0309136"),
        ("HEP-TH/9901001", "hep-th/9901001"),
        ("https://arxiv.org/abs/2110.15032v1", "2110.15032"),
        ("10.48550/arXiv.2110.15032", "2110.15032"),
    ],
)
def test_ids_normalise_to_one_canonical_id(records: list[dict], raw: str, canonical: str) -> None:
    record = dict(by_id(records, "0704.0002"), id=raw)
    assert arxiv.build_rows(record).nodes[0].keys["arxiv_id"] == canonical


def test_versioned_and_plain_ids_give_the_same_rows(records: list[dict]) -> None:
    record = by_id(records, "0704.0001")
    plain = arxiv.build_rows(record)
    versioned = arxiv.build_rows(dict(record, id="0704.0001v2"))
    assert [(n.label, n.key) for n in plain.nodes] == [(n.label, n.key) for n in versioned.nodes]


def test_titles_and_abstracts_lose_hard_line_breaks(records: list[dict]) -> None:
    broken = [r for r in records if "\n" in r["title"]]
    assert broken
    for record in records:
        props = arxiv.build_rows(record).nodes[0].props
        assert "\n" not in props["title"] and "  " not in props["title"]
        assert "\n" not in props["abstract"] and "  " not in props["abstract"]
        assert props["abstract"] == " ".join(record["abstract"].split())
    math = arxiv.build_rows(next(r for r in records if "$\\Lambda_{\\alpha}$" in r["title"])).nodes[0]
    assert math.props["title"] == "From dyadic $\\Lambda_{\\alpha}$ to $\\Lambda_{\\alpha}$"
    accented = next(r for r in records if 'Gr\\"obner' in r["title"])
    assert "Gröbner" in arxiv.build_rows(accented).nodes[0].props["title"]


def test_the_collaboration_author_is_flagged(records: list[dict]) -> None:
    flagged = [
        n.props["name"]
        for r in records
        for n in arxiv.build_rows(r).nodes
        if n.label == "Researcher" and not n.props["is_person"]
    ]
    assert flagged == ["The BABAR Collaboration"]


@pytest.mark.parametrize(
    "bad", [[], "0704.0001", {"title": "no id"}, {"id": None}, {"id": "not-an-id"}, {"id": 704.0001}]
)
def test_bad_records_are_rejected_with_a_reason(bad: object) -> None:
    with pytest.raises(RejectedRecord):
        arxiv.build_rows(bad)


def test_wrong_types_inside_a_record_do_not_crash(records: list[dict]) -> None:
    record = dict(
        by_id(records, "0704.0001"), versions="v1", categories=None, authors_parsed="x", title=7, abstract=None, doi=12
    )
    rows = arxiv.build_rows(record)
    assert rows.nodes[0].keys == {"arxiv_id": "0704.0001"}
    assert rows.nodes[0].props["title"] is None and rows.nodes[0].source_props["versions"] is None
    assert [n.props["name"] for n in rows.nodes if n.label == "Researcher"] == [
        "C. Balázs",
        "E. L. Berger",
        "P. M. Nadolsky",
        "C.-P. Yuan",
    ]
