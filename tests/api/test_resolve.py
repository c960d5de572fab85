"""`resolve`: every id form the README names, on the shared data of all sources; input order, unknown and
malformed ids, aliases, the 500-id cap, and one query per kind of node."""

from __future__ import annotations

import pytest

from tests.api.conftest import GraphQLClient

RESOLVE = """query($ids: [String!]!) {
  resolve(ids: $ids) {
    input kind type status mergedInto
    entity { __typename ... on Paper { id title } ... on Researcher { id name } ... on Institution { id name } }
  }
}"""


@pytest.fixture(scope="module", autouse=True)
def loaded(all_sources_graph):
    return all_sources_graph


def _one(driver, query: str) -> dict:
    with driver.session() as session:
        record = session.run(query).single()
    assert record is not None, query
    return dict(record["n"])


@pytest.fixture(scope="module")
def paper(loaded) -> dict:
    """A paper holding a DOI and an OpenAlex id."""
    return _one(
        loaded, "MATCH (n:Paper) WHERE n.doi IS NOT NULL AND n.openalex_id IS NOT NULL RETURN n ORDER BY n.id LIMIT 1"
    )


def _forms(client: GraphQLClient, paper: dict, loaded) -> list[tuple[str, str, str]]:
    """(id as a program would send it, expected kind, expected node id) for every form the README names."""
    arxiv = _one(loaded, "MATCH (n:Paper) WHERE n.arxiv_id =~ '\\\\d{4}\\\\.\\\\d+' RETURN n ORDER BY n.id LIMIT 1")
    person = _one(
        loaded, "MATCH (n:Researcher) WHERE n.orcid IS NOT NULL AND n.openalex_id IS NOT NULL RETURN n LIMIT 1"
    )
    s2_person = _one(loaded, "MATCH (n:Researcher) WHERE n.s2_id IS NOT NULL RETURN n ORDER BY n.id LIMIT 1")
    place = _one(loaded, "MATCH (n:Institution) WHERE n.ror IS NOT NULL AND n.openalex_id IS NOT NULL RETURN n LIMIT 1")
    s2 = _one(
        loaded, "MATCH (n:Paper) WHERE n.s2_id IS NOT NULL AND n.corpus_id IS NOT NULL RETURN n ORDER BY n.id LIMIT 1"
    )
    doi, pid = paper["doi"], paper["id"]
    page = client.data("query($id: String!) { paper(id: $id) { canonicalUrl } }", {"id": pid})["paper"]
    who = client.data("query($id: String!) { researcher(id: $id) { canonicalUrl } }", {"id": person["id"]})
    return [
        (doi, "DOI", pid),
        (doi.upper(), "DOI", pid),
        (f"doi:{doi}", "DOI", pid),
        (f"https://doi.org/{doi}", "DOI", pid),
        (f"http://dx.doi.org/{doi.upper()}", "DOI", pid),
        (arxiv["arxiv_id"], "ARXIV", arxiv["id"]),
        (f"arXiv:{arxiv['arxiv_id']}v2", "ARXIV", arxiv["id"]),
        (f"https://arxiv.org/abs/{arxiv['arxiv_id']}", "ARXIV", arxiv["id"]),
        (f"10.48550/arXiv.{arxiv['arxiv_id']}", "ARXIV", arxiv["id"]),
        (paper["openalex_id"], "OPENALEX", pid),
        (f"https://openalex.org/{paper['openalex_id']}", "OPENALEX", pid),
        (s2["s2_id"], "S2_PAPER", s2["id"]),
        (f"https://www.semanticscholar.org/paper/{s2['s2_id']}", "S2_PAPER", s2["id"]),
        (f"CorpusId:{s2['corpus_id']}", "CORPUS_ID", s2["id"]),
        (pid, "WEFT_ID", pid),
        (f"http://127.0.0.1:8000{page['canonicalUrl']}", "WEFT_URL", pid),
        (person["orcid"], "ORCID", person["id"]),
        (f"https://orcid.org/{person['orcid']}", "ORCID", person["id"]),
        (person["openalex_id"], "OPENALEX", person["id"]),
        (f"https://openalex.org/{person['openalex_id']}", "OPENALEX", person["id"]),
        (str(s2_person["s2_id"]), "S2_AUTHOR", s2_person["id"]),
        (person["id"], "WEFT_ID", person["id"]),
        (f"https://weft.example.org{who['researcher']['canonicalUrl']}", "WEFT_URL", person["id"]),
        (place["ror"], "ROR", place["id"]),
        (f"https://ror.org/{place['ror']}", "ROR", place["id"]),
        (place["openalex_id"], "OPENALEX", place["id"]),
        (place["id"], "WEFT_ID", place["id"]),
    ]


def test_every_id_form_resolves_in_input_order(client: GraphQLClient, paper: dict, loaded) -> None:
    forms = _forms(client, paper, loaded)
    answer = client.data(RESOLVE, {"ids": [raw for raw, _, _ in forms]})["resolve"]
    assert [a["input"] for a in answer] == [raw for raw, _, _ in forms]
    got = [(a["input"], a["kind"], a["status"], (a["entity"] or {}).get("id")) for a in answer]
    assert got == [(raw, kind, "FOUND", node) for raw, kind, node in forms]


def test_one_query_per_kind_of_node(client: GraphQLClient, paper: dict, loaded) -> None:
    forms = _forms(client, paper, loaded)
    client.data(RESOLVE, {"ids": [raw for raw, _, _ in forms] * 5})
    assert client.cypher_queries == 3  # papers, researchers, institutions: not one per id
    client.data(RESOLVE, {"ids": [paper["doi"], paper["openalex_id"], paper["id"]]})
    assert client.cypher_queries == 1


def test_unknown_and_malformed_ids(client: GraphQLClient, paper: dict) -> None:
    ids = ["10.9999/no-such-doi", "Peter Butcher", paper["doi"], "", "0000-0001-0000-000X", "W1", "doi:10.1/x"]
    ids.append("math.CO/0601001v2")
    answer = client.data(RESOLVE, {"ids": ids})["resolve"]
    got = [(a["input"], a["kind"], a["type"], a["status"], a["entity"]) for a in answer]
    assert got[0] == ("10.9999/no-such-doi", "DOI", "PAPER", "NOT_FOUND", None)
    assert got[1] == ("Peter Butcher", None, None, "UNRECOGNISED", None)
    assert got[2][3] == "FOUND" and answer[2]["entity"]["id"] == paper["id"]
    assert got[3] == ("", None, None, "UNRECOGNISED", None)
    assert got[4] == ("0000-0001-0000-000X", "ORCID", "RESEARCHER", "NOT_FOUND", None)
    assert got[5] == ("W1", "OPENALEX", "PAPER", "NOT_FOUND", None)
    assert got[6] == ("doi:10.1/x", None, None, "UNRECOGNISED", None)
    assert got[7] == ("math.CO/0601001v2", "ARXIV", "PAPER", "NOT_FOUND", None)  # old style (none in the data)


def test_an_alias_resolves_to_its_survivor(client: GraphQLClient, loaded) -> None:
    node = _one(loaded, "MATCH (n:Paper) WHERE size(coalesce(n.aliases, [])) > 0 RETURN n ORDER BY n.id LIMIT 1")
    answer = client.data(RESOLVE, {"ids": [node["aliases"][0]]})["resolve"][0]
    assert (answer["kind"], answer["status"], answer["mergedInto"]) == ("WEFT_ID", "MERGED_INTO", node["id"])
    assert answer["entity"]["id"] == node["id"]


def test_more_than_500_ids_is_a_coded_error(client: GraphQLClient, paper: dict) -> None:
    assert len(client.data(RESOLVE, {"ids": [paper["doi"]] * 500})["resolve"]) == 500
    body = client.post(RESOLVE, {"ids": [paper["doi"]] * 501})
    assert body["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
    assert "500" in body["errors"][0]["message"]
