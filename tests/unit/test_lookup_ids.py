"""Id parsing for paper/researcher/institution lookups, slugs, name folding and Lucene escaping."""

from __future__ import annotations

import pytest

from weft.graph.identity.ids import internal_id
from weft.graph.identity.lookup import (
    IdKey,
    escape_lucene,
    fold_name,
    parse_institution_id,
    parse_paper_id,
    parse_researcher_id,
    prefix_query,
    slugify,
)

PAPER_ID = internal_id("Paper", "openalex:W2741809807")
RESEARCHER_ID = internal_id("Researcher", "openalex:A5032473237")
INSTITUTION_ID = internal_id("Institution", "ror:05dxps055")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("2110.15032", IdKey("arxiv_id", "2110.15032")),
        ("2110.15032v6", IdKey("arxiv_id", "2110.15032")),
        ("arXiv:2110.15032", IdKey("arxiv_id", "2110.15032")),
        ("ARXIV:2110.15032V2", IdKey("arxiv_id", "2110.15032")),
        ("astro-ph/9901001", IdKey("arxiv_id", "astro-ph/9901001")),
        ("arXiv:hep-th/9901001v3", IdKey("arxiv_id", "hep-th/9901001")),
        ("math.CO/0601001v2", IdKey("arxiv_id", "math/0601001")),
        ("https://arxiv.org/abs/0704.0001v2", IdKey("arxiv_id", "0704.0001")),
        ("10.1038/nature12373", IdKey("doi", "10.1038/nature12373")),
        ("doi:10.1038/Nature12373", IdKey("doi", "10.1038/nature12373")),
        ("https://doi.org/10.1038/NATURE12373", IdKey("doi", "10.1038/nature12373")),
        ("https://dx.doi.org/10.1038/nature12373", IdKey("doi", "10.1038/nature12373")),
        ("W2741809807", IdKey("openalex_id", "W2741809807")),
        ("https://openalex.org/W2741809807", IdKey("openalex_id", "W2741809807")),
        ("2d5673caa9e6af3a7b82a43f19ee920992db07ad", IdKey("s2_id", "2d5673caa9e6af3a7b82a43f19ee920992db07ad")),
        ("CorpusId:14636783", IdKey("corpus_id", 14636783)),
        ("corpusid:14636783", IdKey("corpus_id", 14636783)),
        ("PMID:30124854", IdKey("pmid", 30124854)),
        ("MAG:2741809807", IdKey("mag_id", 2741809807)),
    ],
)
def test_paper_id_forms(raw: str, expected: IdKey) -> None:
    assert expected in parse_paper_id(raw)


def test_arxiv_doi_gives_arxiv_key_first_and_doi_too() -> None:
    keys = parse_paper_id("10.48550/arXiv.2110.15032")
    assert keys == [IdKey("arxiv_id", "2110.15032"), IdKey("doi", "10.48550/arxiv.2110.15032")]


def test_internal_paper_id_and_slug() -> None:
    assert parse_paper_id(PAPER_ID) == [IdKey("id", PAPER_ID), IdKey("alias", PAPER_ID)]
    assert parse_paper_id(f"{PAPER_ID}-the-state-of-oa") == [IdKey("id", PAPER_ID), IdKey("alias", PAPER_ID)]
    # A researcher id is not a paper id.
    assert parse_paper_id(RESEARCHER_ID) == []


@pytest.mark.parametrize(
    "raw", ["", "   ", "hello world", "W", "10.1/x", "A5032473237", "'; MATCH (n) DETACH DELETE n //"]
)
def test_not_a_paper_id(raw: str) -> None:
    assert parse_paper_id(raw) == []


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("A5032473237", IdKey("openalex_id", "A5032473237")),
        ("https://openalex.org/A5032473237", IdKey("openalex_id", "A5032473237")),
        ("0000-0002-1825-0097", IdKey("orcid", "0000-0002-1825-0097")),
        ("https://orcid.org/0000-0002-1825-009x", IdKey("orcid", "0000-0002-1825-009X")),
        ("2262347", IdKey("s2_id", "2262347")),
        ("https://www.semanticscholar.org/author/2262347", IdKey("s2_id", "2262347")),
        (RESEARCHER_ID, IdKey("id", RESEARCHER_ID)),
        (f"{RESEARCHER_ID}-peter-butcher", IdKey("id", RESEARCHER_ID)),
    ],
)
def test_researcher_id_forms(raw: str, expected: IdKey) -> None:
    assert expected in parse_researcher_id(raw)


def test_researcher_rejects_other_kinds() -> None:
    assert parse_researcher_id("W2741809807") == []
    assert parse_researcher_id(PAPER_ID) == []


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("05dxps055", IdKey("ror", "05dxps055")),
        ("https://ror.org/05DXPS055", IdKey("ror", "05dxps055")),
        ("I114027177", IdKey("openalex_id", "I114027177")),
        ("https://openalex.org/I114027177", IdKey("openalex_id", "I114027177")),
        (INSTITUTION_ID, IdKey("id", INSTITUTION_ID)),
        (f"{INSTITUTION_ID}-caltech", IdKey("id", INSTITUTION_ID)),
    ],
)
def test_institution_id_forms(raw: str, expected: IdKey) -> None:
    keys = parse_institution_id(raw)
    assert expected in keys
    assert all(k.property != "name" for k in keys)


def test_institution_name_is_folded() -> None:
    assert parse_institution_id("  Université de  MONTRÉAL ") == [IdKey("name", "universite de montreal")]


def test_fold_and_slug() -> None:
    assert fold_name("Bangor University") == fold_name("BANGOR  university")
    assert fold_name("Universität Wien") == "universitat wien"
    assert slugify("Yasset Pérez‐Riverol: GloVe & Word2Vec!") == "yasset-perez-riverol-glove-word2vec"
    assert slugify(None) == ""


def test_escape_lucene_neutralises_syntax() -> None:
    assert escape_lucene("deep learning") == "deep AND learning"
    assert escape_lucene("title:(x OR y)") == "title\\:\\(x AND or AND y\\)"
    assert escape_lucene('a* "b" c~2 d^3 e/f \\') == 'a\\* AND \\"b\\" AND c\\~2 AND d\\^3 AND e\\/f AND \\\\'
    assert escape_lucene("   ") == ""


def test_prefix_query() -> None:
    assert prefix_query("butch") == "butch*"
    assert prefix_query("peter butch") == "peter AND butch*"
    assert prefix_query("x(") == "x\\("
    assert prefix_query("") == ""
