"""`matchReferences` on the shared data: a DOI in the text, a title with typos, a title cut short, a reference to a
work the graph does not hold and a fabricated one (both abstain), input order, and the 25-reference cap."""

from __future__ import annotations

import pytest

from tests.api.conftest import GraphQLClient

MATCH = """query($texts: [String!]!) {
  matchReferences(texts: $texts) {
    text confidence paper { id title }
    evidence { doi arxivId idMatched titleSimilarity year yearMatches firstAuthor firstAuthorMatches }
  }
}"""


@pytest.fixture(scope="module", autouse=True)
def loaded(all_sources_graph):
    return all_sources_graph


@pytest.fixture(scope="module")
def cited(loaded) -> dict:
    """A paper the shared works cite, with a DOI, a year, a title of six words or more and its first author."""
    with loaded.session() as session:
        record = session.run(
            "MATCH (:Paper)-[:CITES]->(p:Paper)<-[a:AUTHORED]-(r:Researcher) "
            "WHERE p.doi IS NOT NULL AND p.year IS NOT NULL AND size(split(p.title, ' ')) >= 6 AND a.rank = 0 "
            "RETURN DISTINCT p {.id, .title, .year, .doi} AS p, r.name AS author ORDER BY p.id LIMIT 1"
        ).single()
    assert record is not None
    return {**record["p"], "surname": record["author"].split()[-1]}


def _typo(title: str) -> str:
    """Two long words each with a letter dropped."""
    words = title.split()
    long = [i for i, w in enumerate(words) if len(w) >= 6][:2]
    for i in long:
        words[i] = words[i][:2] + words[i][3:]
    return " ".join(words)


def test_real_references(client: GraphQLClient, cited: dict) -> None:
    title, year, surname = cited["title"], cited["year"], cited["surname"]
    texts = [
        f"{surname}, A. ({year}). Some other words entirely. https://doi.org/{cited['doi'].upper()}",
        f'A. {surname}, "{_typo(title)}," {year}.',
        f"@article{{x, author = {{{surname}, A.}}, title = {{{' '.join(title.split()[:5])} ...}}, year = {{{year}}}}}",
        "Turing, A. M. (1950). Computing machinery and intelligence. Mind, 59(236), 433-460.",
        "Quackenbush, Z. (2031). A fabricated survey of imaginary graph neural widgets for quantum basketry. "
        "Journal of Nothing, 4, 1-9.",
    ]
    answer = client.data(MATCH, {"texts": texts})["matchReferences"]
    assert [a["text"] for a in answer] == texts
    by_doi, typo, cut, turing, fabricated = answer
    assert by_doi["paper"]["id"] == cited["id"]
    assert by_doi["evidence"]["doi"] == cited["doi"] and by_doi["evidence"]["idMatched"]
    assert typo["paper"]["id"] == cited["id"]
    assert typo["evidence"]["yearMatches"] and typo["evidence"]["firstAuthorMatches"]
    assert 0.8 < typo["evidence"]["titleSimilarity"] < 1
    assert cut["paper"] is None or cut["paper"]["id"] == cited["id"]  # a cut title may abstain, never mismatch
    assert turing["paper"] is not None and turing["paper"]["title"] == "Computing Machinery and Intelligence"
    assert fabricated["paper"] is None and fabricated["confidence"] < 0.87
    assert all(0 <= a["confidence"] <= 1 for a in answer)


def test_more_than_25_references_is_a_coded_error(client: GraphQLClient) -> None:
    body = client.post(MATCH, {"texts": ["Turing, A. (1950). Computing machinery and intelligence."] * 26})
    assert body["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
