"""loaders.openalex row builders on real OpenAlex records (pure: no database)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import shared_path
from weft.graph.identity.ids import canonical_keys
from weft.loaders.openalex import abstract_text, accepts, build_rows, institution_name_key, kind
from weft.loaders.rows import FULL_RECORD, MENTION, RejectedRecord


def _load(*parts: str):
    return json.loads(shared_path("openalex", *parts).read_text())


def _rels(rows, rel_type: str):
    return [r for r in rows.rels if r.type == rel_type]


def test_kind_from_id_prefix_and_fields() -> None:
    assert kind(_load("works", "single", "W2741809807.json")) == "work"
    assert kind(_load("authors", "A5032473237.json")) == "author"
    assert kind(_load("institutions", "I114027177.json")) == "institution"
    assert kind({"authorships": [], "referenced_works": []}) == "work"
    assert kind({"paperId": "x"}) is None and kind("text") is None and not accepts([1])


def test_work_rows_state_paper_authors_institutions_categories_references() -> None:
    work = _load("works", "single", "W2741809807.json")
    rows = build_rows(work)
    paper = rows.nodes[0]
    assert (paper.label, paper.level) == ("Paper", FULL_RECORD)
    assert paper.keys == {
        "doi": "10.7717/peerj.4375",
        "openalex_id": "W2741809807",
        "mag_id": "2741809807",
        "pmid": "29456894",
    }
    assert paper.props["title"] == work["display_name"]
    assert paper.props["year"] == 2018 and paper.updated == work["updated_date"]
    assert paper.source_props == {"cited_by_count_openalex": work["cited_by_count"]}
    assert paper.props["abstract"].startswith("Despite growing interest in Open Access")
    assert set(paper.owns) == {"AUTHORED", "IN_CATEGORY", "REFERENCES"}

    authored = _rels(rows, "AUTHORED")
    assert [(a.start, a.props["rank"], a.props["position"]) for a in authored] == [
        (
            f"orcid:{x['author']['orcid'].rsplit('/', 1)[-1]}"
            if x["author"].get("orcid")
            else f"openalex:{x['author']['id'].rsplit('/', 1)[-1]}",
            i,
            x["author_position"],
        )
        for i, x in enumerate(work["authorships"])
    ]
    first = authored[0]
    assert first.props["institution_keys"] == [
        f"ror:{i['ror'].rsplit('/', 1)[-1]}" for i in work["authorships"][0]["institutions"]
    ]
    researchers = [n for n in rows.nodes if n.label == "Researcher"]
    assert all(n.level == MENTION for n in researchers)
    assert researchers[0].keys["openalex_id"] == "A5048491430" and researchers[0].props["is_person"] is True

    refs = _rels(rows, "REFERENCES")
    assert sorted(r.end for r in refs) == sorted({f"openalex:{w.rsplit('/', 1)[-1]}" for w in work["referenced_works"]})
    in_cat = {r.end: r.props for r in _rels(rows, "IN_CATEGORY")}
    primary = work["primary_topic"]["id"].rsplit("/", 1)[-1]
    assert in_cat[f"topic:{primary}"]["primary"] is True
    assert in_cat["field:18"]["primary"] is True  # the primary topic's field
    assert all(not p["primary"] for k, p in in_cat.items() if k.startswith("concept:"))
    assert (f"topic:{primary}", "subfield:1804") in {(r.start, r.end) for r in _rels(rows, "CATEGORY_PART_OF")}
    # every relationship end is a node row of the record (or a Ref key)
    stated = {(n.label, k) for n in rows.nodes for k in canonical_keys(n.label, n.keys)}
    assert all(("Researcher", r.start) in stated for r in authored)


def test_author_listed_twice_keeps_first_slot_and_both_institutions() -> None:
    page = _load("works", "openalexPro_query_page_1.json")
    work = next(w for w in page["results"] if w["id"].endswith("W2106647080"))
    slots = [i for i, a in enumerate(work["authorships"]) if a["author"]["id"].endswith("A5019034894")]
    assert len(slots) == 2
    rows = build_rows(work)
    mine = [r for r in _rels(rows, "AUTHORED") if r.start.endswith("0000-0003-2000-2874")]
    assert len(mine) == 1 and mine[0].props["rank"] == slots[0]
    expected = []
    for i in slots:
        for inst in work["authorships"][i]["institutions"]:
            key = f"ror:{inst['ror'].rsplit('/', 1)[-1]}"
            if key not in expected:
                expected.append(key)
    assert mine[0].props["institution_keys"] == expected


def test_untitled_work_still_builds() -> None:
    works = [
        w
        for p in (
            "openalexPro_query_page_1.json",
            "openalexPro_query_page_2.json",
            "openalexPro_pipeline_chunk_1.json",
            "openalexPro_pipeline_chunk_2.json",
            "openalexPro_pipeline_chunk_3.json",
            "openalexPro_pipeline_chunk_4.json",
            "openalexPro_snowball_cited.json",
        )
        for w in _load("works", p)["results"]
        if not w.get("display_name")
    ]
    assert works
    for w in works:
        assert build_rows(w).nodes[0].props["title"] is None


def test_author_rows_carry_stats_alternatives_and_listed_affiliations() -> None:
    author = _load("authors", "A5032473237.json")
    rows = build_rows(author)
    node = rows.nodes[0]
    assert node.keys == {"openalex_id": "A5032473237", "orcid": "0000-0002-3361-627X"}
    assert node.props["name"] == "Peter Butcher" and node.props["name_key"] == "butcher p"
    assert "Peter William Scott Butcher" in node.props["alt_names"]
    assert node.source_props["h_index_openalex"] == author["summary_stats"]["h_index"]
    assert node.source_props["works_count_openalex"] == author["works_count"]
    listed = {r.end: r.props["years"] for r in _rels(rows, "LISTED_AFFILIATION")}
    assert listed["ror:006jb1a24"] == sorted(author["affiliations"][0]["years"])


def test_junk_author_records_are_flagged_not_people() -> None:
    page = _load("authors", "search_machine_learning.json")
    flags = {a["display_name"]: build_rows(a).nodes[0].props["is_person"] for a in page["results"]}
    assert flags["Machine Learning"] is False and flags["UCI Machine Learning"] is False
    mearman = {
        a["display_name"]: build_rows(a).nodes[0].props["is_person"]
        for a in _load("authors", "search_mearman.json")["results"]
    }
    assert mearman["Downward and Mearman Tony Lawson"] is False and mearman["Joseph Mearman"] is True


def test_institution_rows_parent_part_of_and_name_key() -> None:
    inst = _load("institutions", "I114027177.json")
    rows = build_rows(inst)
    node = rows.nodes[0]
    assert node.keys == {"ror": "0130frc33", "openalex_id": "I114027177"}
    assert node.props["name_key"] == "university of north carolina at chapel hill"
    assert "UNC" in node.props["acronyms"] and "UNC" in node.props["alt_names"]
    parents = [a for a in inst["associated_institutions"] if a["relationship"] == "parent"]
    assert len(_rels(rows, "INSTITUTION_PART_OF")) == len(parents)
    assert institution_name_key("  Université  de la Caroline ") == "universite de la caroline"


@pytest.mark.parametrize(
    ("record", "reason"),
    [
        ({"id": "https://openalex.org/W1", "authorships": "x", "referenced_works": []}, "authorships"),
        ({"authorships": [], "referenced_works": []}, "without a valid id"),
        ("a string", "not an OpenAlex"),
        ({"paperId": "abc"}, "not an OpenAlex"),
    ],
)
def test_unusable_records_are_rejected_with_a_reason(record, reason) -> None:
    with pytest.raises(RejectedRecord, match=reason):
        build_rows(record)


def test_abstract_from_inverted_index() -> None:
    assert abstract_text({"world": [1], "Hello": [0], "again": [3], "hello": [2]}) == "Hello world hello again"
    assert abstract_text(None) is None and abstract_text({}) is None
