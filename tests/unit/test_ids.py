"""graph.identity.ids: canonical keys, internal ids, aliases and key normalisation (pure)."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest

from weft.graph.identity.ids import (
    aliases,
    canonical_keys,
    category_key,
    internal_id,
    key_property,
    node_id,
    normalize_arxiv,
    normalize_doi,
    normalize_openalex,
    normalize_orcid,
    normalize_ror,
    paper_keys,
    scoped_researcher_key,
)


def test_internal_id_is_stable_prefixed_and_url_safe() -> None:
    a = internal_id("Paper", "doi:10.7717/peerj.4375")
    assert a == internal_id("Paper", "doi:10.7717/peerj.4375")
    assert re.fullmatch(r"p[a-z2-7]{11}", a)
    assert internal_id("Researcher", "openalex:A1")[0] == "r"
    assert internal_id("Institution", "ror:0130frc33")[0] == "i"
    assert internal_id("Category", "topic:T1")[0] == "c"
    assert internal_id("Paper", "doi:10.1/a") != internal_id("Paper", "doi:10.1/b")


@pytest.mark.parametrize("key", ["doi:10.7717/peerj.4375", "openalex:W2741809807", "topic:T1", "ключ:ü"])
def test_internal_id_is_the_first_55_bits_of_the_keys_sha1_in_base32(key: str) -> None:
    """Stored graphs hold these ids: the id may be computed any way, but never change."""
    digest = hashlib.sha1(key.encode("utf-8")).digest()  # noqa: S324 - the id's own definition
    assert internal_id("Paper", key) == "p" + base64.b32encode(digest).decode("ascii").lower()[:11]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("https://doi.org/10.7717/PEERJ.4375", "10.7717/peerj.4375"),
        ("doi:10.1000/XYZ", "10.1000/xyz"),
        ("http://dx.doi.org/10.1000/abc", "10.1000/abc"),
        ("10.1000/abc", "10.1000/abc"),
        ("not a doi", None),
        (None, None),
    ],
)
def test_normalize_doi(raw, expected) -> None:
    assert normalize_doi(raw) == expected


def test_normalize_other_ids() -> None:
    assert normalize_openalex("https://openalex.org/W2741809807") == "W2741809807"
    assert normalize_openalex("a5032473237") == "A5032473237"
    assert normalize_openalex("https://openalex.org/subfields/1804") is None
    assert normalize_ror("https://ror.org/0130FRC33") == "0130frc33"
    assert normalize_orcid("https://orcid.org/0000-0002-3361-627x") == "0000-0002-3361-627X"
    assert normalize_arxiv("arXiv:0704.0001v2") == "0704.0001"
    assert normalize_arxiv("https://doi.org/10.48550/arXiv.2302.13971") == "2302.13971"
    assert normalize_arxiv("hep-th/9901001v3") == "hep-th/9901001"
    assert normalize_arxiv("cs.LG") is None
    assert normalize_arxiv("math.CO/0601001v2") == "math/0601001"  # the subject class is not part of the id
    assert normalize_arxiv("arXiv:cond-mat.stat-mech/0102536") == "cond-mat/0102536"


def test_paper_keys_turn_an_arxiv_doi_into_the_arxiv_id() -> None:
    assert paper_keys(doi="https://doi.org/10.48550/arXiv.2302.13971") == {"arxiv_id": "2302.13971"}
    assert paper_keys(doi="10.48550/arxiv.2302.13971", arxiv="2302.13971v3") == {"arxiv_id": "2302.13971"}
    keys = paper_keys(
        doi="https://doi.org/10.7717/peerj.4375",
        openalex="https://openalex.org/W2741809807",
        mag="2741809807",
        pmid="https://pubmed.ncbi.nlm.nih.gov/29456894",
        corpus=123,
        s2=" abc ",
    )
    assert keys == {
        "doi": "10.7717/peerj.4375",
        "openalex_id": "W2741809807",
        "mag_id": "2741809807",
        "pmid": "29456894",
        "corpus_id": "123",
        "s2_id": "abc",
    }
    assert paper_keys(openalex="https://openalex.org/A123") == {}  # an author id is no paper key
    assert paper_keys(corpus="0042") == paper_keys(corpus=42) == {"corpus_id": "42"}


def test_canonical_keys_are_ranked_and_the_best_gives_the_id() -> None:
    keys = {"pmid": "1", "openalex_id": "W1", "doi": "10.1/x", "arxiv_id": "2302.13971"}
    assert canonical_keys("Paper", keys) == ["doi:10.1/x", "arxiv:2302.13971", "openalex:W1", "pmid:1"]
    assert node_id("Paper", keys) == internal_id("Paper", "doi:10.1/x")
    assert canonical_keys("Researcher", {"openalex_id": "A1", "orcid": "0000-0001-0000-0000", "s2_id": "9"}) == [
        "orcid:0000-0001-0000-0000",
        "openalex:A1",
        "s2:9",
    ]
    assert canonical_keys("Institution", {"openalex_id": "I1", "ror": "0abcdef12"}) == ["ror:0abcdef12", "openalex:I1"]
    assert canonical_keys("Category", {"key": "arxiv:cs.LG"}) == ["arxiv:cs.LG"]
    with pytest.raises(ValueError, match="hard key"):
        node_id("Paper", {})


def test_aliases_are_the_ids_of_every_other_key_whatever_the_order() -> None:
    keys = {"openalex_id": "W1", "doi": "10.1/x", "mag_id": "5"}
    assert aliases("Paper", keys) == sorted([internal_id("Paper", "openalex:W1"), internal_id("Paper", "mag:5")])
    assert aliases("Paper", dict(reversed(list(keys.items())))) == aliases("Paper", keys)
    assert aliases("Paper", {"doi": "10.1/x"}) == []


def test_key_property_inverts_canonical_keys() -> None:
    assert key_property("Paper", "doi:10.1/x:y") == ("doi", "10.1/x:y")
    assert key_property("Paper", "corpus:42") == ("corpus_id", "42")
    assert key_property("Researcher", "paper:arxiv:0704.0001#2") == ("scoped_key", "arxiv:0704.0001#2")
    assert key_property("Category", "topic:T1") == ("key", "topic:T1")


def test_scoped_and_category_keys() -> None:
    scoped = scoped_researcher_key("arxiv:0704.0001", 2)
    assert scoped == "arxiv:0704.0001#2"
    assert canonical_keys("Researcher", {"scoped_key": scoped}) == ["paper:arxiv:0704.0001#2"]
    assert category_key("topic", "T10102") == "topic:T10102"
