"""Issue 50's pure parts: which form an id is (`resolve`), what a reference's text says (`matchReferences`), and the
argument caps those two fields have beyond the API's usual ones."""

from __future__ import annotations

import doctest
import importlib

import pytest
from graphql import parse

from weft.graph.identity.id_forms import id_form
from weft.graph.reads.references import (  # pyright: ignore[reportPrivateUsage]
    THRESHOLD,
    _ids_in,
    _scored,
    best_candidate,
    score,
    title_similarity,
)
from weft.schema.support.limits import argument_errors


@pytest.mark.parametrize("module", ["weft.graph.identity.id_forms", "weft.graph.reads.references"])
def test_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(
    ("raw", "kind", "label", "first_key"),
    [
        ("10.1145/3313831.3376594", "DOI", "Paper", ("doi", "10.1145/3313831.3376594")),
        ("HTTPS://DOI.ORG/10.1145/ABC", "DOI", "Paper", ("doi", "10.1145/abc")),
        ("10.48550/arXiv.2110.15032", "ARXIV", "Paper", ("arxiv_id", "2110.15032")),
        ("arXiv:2110.15032v6", "ARXIV", "Paper", ("arxiv_id", "2110.15032")),
        ("math.CO/0601001v2", "ARXIV", "Paper", ("arxiv_id", "math/0601001")),
        ("https://openalex.org/W3000695681", "OPENALEX", "Paper", ("openalex_id", "W3000695681")),
        ("A5032473237", "OPENALEX", "Researcher", ("openalex_id", "A5032473237")),
        ("I4210128009", "OPENALEX", "Institution", ("openalex_id", "I4210128009")),
        ("2d5673caa9e6af3a7b82a43f19ee920992db07ad", "S2_PAPER", "Paper", None),
        ("CorpusId:14636783", "CORPUS_ID", "Paper", ("corpus_id", 14636783)),
        ("https://orcid.org/0000-0002-1825-0097", "ORCID", "Researcher", ("orcid", "0000-0002-1825-0097")),
        ("https://ror.org/006jb1a24", "ROR", "Institution", ("ror", "006jb1a24")),
        ("2262347", "S2_AUTHOR", "Researcher", ("s2_id", "2262347")),
        ("rufru6um2r75-peter-butcher", "WEFT_ID", "Researcher", ("id", "rufru6um2r75")),
        ("https://weft.example.org/papers/2110.15032-attention", "WEFT_URL", "Paper", ("arxiv_id", "2110.15032")),
        ("http://127.0.0.1:8000/institutions/iabcdefghijk-bangor", "WEFT_URL", "Institution", ("id", "iabcdefghijk")),
    ],
)
def test_id_forms(raw: str, kind: str, label: str, first_key: tuple[str, object] | None) -> None:
    form = id_form(raw)
    assert form is not None and (form.kind, form.label) == (kind, label)
    if first_key:
        assert (form.keys[0].property, form.keys[0].value) == first_key


@pytest.mark.parametrize("raw", ["", "   ", "Peter Butcher", "Bangor University", "doi:10.1/x", "X123", "p123"])
def test_what_is_no_id(raw: str) -> None:
    assert id_form(raw) is None


def test_ids_written_in_references() -> None:
    assert _ids_in("Smith, J. (2020). T. J. X, 1. https://doi.org/10.1000/ABC.123.") == ("10.1000/abc.123", None)
    assert _ids_in('A. Smith, "T," arXiv:2110.15032v2, 2021.') == (None, "2110.15032")
    assert _ids_in("doi = {10.48550/arXiv.2110.15032}") == (None, "2110.15032")
    assert _ids_in("Turing, A. (1950). Computing machinery and intelligence.") == (None, None)


def test_year_and_first_author_move_the_confidence() -> None:
    node = {"id": "p1", "title": "Computing machinery and intelligence", "year": 1950}
    right, evidence = score(
        "Turing, A. (1950). Computing machinery and intelligence.", node, ["Alan Turing"], False, None, None
    )
    wrong, _ = score(
        "Smith, B. (2012). Computing machinery and intelligence.", node, ["Alan Turing"], False, None, None
    )
    assert evidence.year_matches and evidence.first_author == "turing" and evidence.first_author_matches
    assert right == 1.0 and wrong < 0.87
    assert (
        title_similarity("Computing machinery and intelligence", "Deep residual learning for image recognition") < 0.6
    )


def _picked(text: str, nodes: list[dict], authors: list[str]) -> tuple[str, float]:
    """The id of the node `text` is matched to among `nodes` (each by `authors`), and its confidence."""
    scored = []
    for node in nodes:
        raw, evidence = _scored(text, node, authors, False, None, None)
        scored.append((raw, node, evidence))
    found = best_candidate(scored, text)
    assert found is not None
    return found[1]["id"], min(1.0, found[0])


def test_near_ties_go_to_the_title_the_reference_holds_then_its_venue_then_the_more_cited() -> None:
    cancer = "CA A Cancer Journal for Clinicians"
    text = f'R. L. Siegel, N. S. Wagle, and A. Cercek, "Coloretal cancer statistcis, 2023," {cancer}, 2023.'
    short = {"id": "short", "title": "Cancer statistics, 2023", "year": 2023, "venue": cancer, "cited_by_count": 9}
    longer = {"id": "long", "title": "Colorectal cancer statistics, 2023", "year": 2023, "venue": cancer}
    for nodes in ([short, longer], [longer, short]):
        assert _picked(text, nodes, ["Rebecca L. Siegel"])[0] == "long"

    title = "The PRISMA 2020 statement: an updated guideline for reporting systematic reviews"
    text = f'M. J. Page, J. E. McKenzie, and P. M. Bossuyt, "{title}," BMJ, 2021.'
    reviews = {"id": "reviews", "title": title, "year": 2021, "venue": "Systematic Reviews", "cited_by_count": 9}
    bmj = {"id": "bmj", "title": title, "year": 2021, "venue": "BMJ", "cited_by_count": 5}
    for nodes in ([reviews, bmj], [bmj, reviews]):
        assert _picked(text, nodes, ["Matthew J. Page"]) == ("bmj", 1.0)  # the venue named beside the title

    title = "A rapid and sensitive method for the quantitation of microgram quantities of protein"
    text = f"Bradford, M. M. (1976). {title}. Analytical Biochemistry"
    records = [{"id": f"r{n}", "title": title, "year": 1976, "cited_by_count": n} for n in (10, 300, 20)]
    assert _picked(text, records, ["Marion M. Bradford"])[0] == "r300"  # two records of one work: the more cited


def test_a_title_made_of_two_halves_stays_below_the_threshold() -> None:
    """Half a real title joined to half of another (a made-up reference) with the year right by chance."""
    node = {"id": "p", "title": "U-Net: Convolutional Networks for Biomedical Image Segmentation", "year": 2015}
    text = "Moher, D. (2015). U-Net: Convolutional Networks for Long-Form Documents. BMJ"
    assert score(text, node, ["Olaf Ronneberger"], False, None, None)[0] < THRESHOLD
    node = {"id": "q", "title": "Projector augmented-wave method", "year": 1994}
    text = "Clare, A. (1994). Global burden of 369 diseases, augmented-wave method. Science"
    assert score(text, node, ["Peter E. Blöchl"], False, None, None)[0] < 0.75


def _errors(query: str, variables: dict) -> list:
    return argument_errors(parse(query), variables)


def test_resolve_and_match_references_have_their_own_caps() -> None:
    resolve = "query($ids: [String!]!) { resolve(ids: $ids) { input } }"
    assert _errors(resolve, {"ids": ["W1"] * 500}) == []
    assert "500 items" in _errors(resolve, {"ids": ["W1"] * 501})[0].message
    other = 'query($ids: [String!]!) { search(query: "x", types: $ids) { totalCount } }'
    assert "100 items" in _errors(other, {"ids": ["PAPER"] * 101})[0].message  # the usual cap elsewhere
    match = "query($t: [String!]!) { matchReferences(texts: $t) { confidence } }"
    reference = "Smith, J., Jones, K., Brown, L., White, M., Green, N., & Black, O. (2020). " + "word " * 40
    assert _errors(match, {"t": [reference] * 25}) == []
    assert "25 items" in _errors(match, {"t": [reference] * 26})[0].message
    assert "2000 characters" in _errors(match, {"t": ["x" * 2001]})[0].message
