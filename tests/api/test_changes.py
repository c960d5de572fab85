"""The change log over HTTP after a real `weft sync` of the OpenAlex snapshot fixtures (issue 52): the `changes`
connection pages exactly through the log and filters by entity and time, a deleted work's page answers 410 Gone,
and the site's feed of changes lists the newest first."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from datetime import datetime
from typing import Any
from xml.etree import ElementTree

import pytest
from neo4j import Driver

from tests.api.conftest import GraphQLClient, api_client
from tests.sync_fixtures import CHANGES, write_snapshots
from weft.graph.migrate import reset
from weft.graph.settings import Settings
from weft.graph.sync_state import changes as logged_changes
from weft.loaders.sync.openalex import sync_openalex

CHANGES_QUERY = """
query($first: Int!, $after: String, $entity: ChangeEntity, $since: String) {
  changes(first: $first, after: $after, entity: $entity, since: $since) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { cursor node { seq at source entity kind id sourceId into current { __typename id } } }
  }
}
"""


@pytest.fixture(scope="module")
def synced(driver: Driver, settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The "before" snapshot synced into an empty graph, then "after"; the database's time between the two."""
    before, after = write_snapshots(tmp_path_factory.mktemp("openalex-snapshots"))
    reset(driver, settings.neo4j_database)
    sync_openalex(driver, before, database=settings.neo4j_database)
    records, _, _ = driver.execute_query("RETURN toString(datetime()) AS now", database_=settings.neo4j_database)
    sync_openalex(driver, after, database=settings.neo4j_database)
    return str(records[0]["now"])


@pytest.fixture(scope="module")
def api(synced: str, settings: Settings) -> Iterator[GraphQLClient]:
    yield from api_client(settings)


@pytest.fixture(scope="module")
def log(synced: str, driver: Driver, settings: Settings) -> list[dict[str, Any]]:
    """The whole change log as the graph holds it, oldest first."""
    return logged_changes(driver, settings.neo4j_database, first=100_000)


def _all_pages(api: GraphQLClient, first: int, **filters: Any) -> list[dict[str, Any]]:
    """Every change the connection lists, page after page of `first`."""
    nodes: list[dict[str, Any]] = []
    after = None
    while True:
        page = api.data(CHANGES_QUERY, {"first": first, "after": after, **filters})["changes"]
        nodes += [e["node"] for e in page["edges"]]
        assert page["pageInfo"]["hasPreviousPage"] == (after is not None)
        if not page["pageInfo"]["hasNextPage"]:
            return nodes
        assert page["pageInfo"]["endCursor"] == page["edges"][-1]["cursor"]
        after = page["pageInfo"]["endCursor"]


def _as_logged(node: dict[str, Any]) -> tuple[Any, ...]:
    return (node["seq"], node["kind"].lower(), node["id"], node["sourceId"], node["into"])


def test_pages_walk_the_whole_log_exactly(api: GraphQLClient, log: list[dict[str, Any]]) -> None:
    assert {c["kind"] for c in log} >= {"new", "updated", "merged", "deleted"}
    want = [(c["seq"], c["kind"], c["id"], c["source_id"], c["into"]) for c in log]
    for first in (7, 100):
        assert [_as_logged(n) for n in _all_pages(api, first)] == want
    total = api.data(CHANGES_QUERY, {"first": 1})["changes"]["totalCount"]
    assert total == len(log)


def test_the_entity_filter_keeps_only_that_entity(api: GraphQLClient, log: list[dict[str, Any]]) -> None:
    for entity, logged in (("PAPER", "works"), ("RESEARCHER", "authors"), ("INSTITUTION", "institutions")):
        want = [c["seq"] for c in log if c["entity"] == logged]
        got = _all_pages(api, 5, entity=entity)
        assert [n["seq"] for n in got] == want and want, entity
        assert {n["entity"] for n in got} == {entity}
        page = api.data(CHANGES_QUERY, {"first": 1, "entity": entity})["changes"]
        assert page["totalCount"] == len(want)


def test_since_lists_only_what_later_syncs_logged(api: GraphQLClient, log: list[dict[str, Any]], synced: str) -> None:
    between = datetime.fromisoformat(synced.replace("Z", "+00:00"))
    want = [c["seq"] for c in log if c["at"].to_native() >= between]
    assert want and len(want) < len(log)  # the second sync's changes only
    assert [n["seq"] for n in _all_pages(api, 100, since=synced)] == want
    assert _all_pages(api, 100, since="2999-01-01") == []
    assert [n["seq"] for n in _all_pages(api, 100, since="2000-01-01")] == [c["seq"] for c in log]


def test_each_change_links_the_node_as_it_is_now(api: GraphQLClient) -> None:
    nodes = _all_pages(api, 100)
    deleted = [n for n in nodes if n["kind"] == "DELETED" and n["sourceId"] == CHANGES["deleted_work"]]
    assert deleted and all(n["current"] is None for n in deleted)
    old, _ = CHANGES["merged_author"]
    merged = [n for n in nodes if n["kind"] == "MERGED" and n["sourceId"] == old]
    assert merged and all(n["current"] == {"__typename": "Researcher", "id": n["into"]} for n in merged)
    retitled = [n for n in nodes if n["kind"] == "UPDATED" and n["sourceId"] == CHANGES["retitled"]]
    assert retitled and all(n["current"] == {"__typename": "Paper", "id": n["id"]} for n in retitled)


def _code(api: GraphQLClient, variables: dict[str, Any]) -> str:
    body = api.post(CHANGES_QUERY, variables)
    assert body["data"] is None or body["data"].get("changes") is None
    return body["errors"][0]["extensions"]["code"]


def test_bad_arguments_are_coded_errors(api: GraphQLClient) -> None:
    other_kind = base64.urlsafe_b64encode(b"weft:v1:3").decode()
    for after in ("not-a-cursor", other_kind, base64.urlsafe_b64encode(b"weft:change:-1").decode()):
        assert _code(api, {"first": 5, "after": after}) == "BAD_USER_INPUT", after
    assert _code(api, {"first": 101}) == "BAD_USER_INPUT"
    assert _code(api, {"first": 5, "since": "last tuesday"}) == "BAD_USER_INPUT"


def test_a_deleted_work_answers_410_gone_and_an_unknown_one_404(api: GraphQLClient, log: list[dict[str, Any]]) -> None:
    work = CHANGES["deleted_work"]
    deletion = next(c for c in log if c["kind"] == "deleted" and c["source_id"] == work)
    for path in (
        f"/papers/{work}",
        f"/papers/{work}-old-title-words",
        f"/papers/{work.lower()}",
        f"/papers/{deletion['id']}",
    ):
        page = api.http.get(path, follow_redirects=False)
        assert page.status_code == 410, path
        assert page.headers["content-type"].startswith("text/html")
        assert "<h1>Gone</h1>" in page.text and work in page.text, path
    assert api.data("query($id: String!) { paper(id: $id) { id } }", {"id": work}) == {"paper": None}
    for unknown in ("/papers/W1", "/papers/W99999999999", "/researchers/A1", "/institutions/I1"):
        assert api.http.get(unknown, follow_redirects=False).status_code == 404, unknown
    survivor = api.http.get(f"/papers/{CHANGES['retitled']}", follow_redirects=True)
    assert survivor.status_code == 200


def test_the_changes_feed_lists_the_newest_first_each_linking_its_page(
    api: GraphQLClient, log: list[dict[str, Any]], settings: Settings
) -> None:
    feed = api.http.get("/feeds/changes.xml")
    assert feed.status_code == 200 and feed.headers["content-type"].startswith("application/rss+xml")
    items = ElementTree.fromstring(feed.content).findall("./channel/item")
    newest = sorted(log, key=lambda c: c["seq"], reverse=True)[:30]
    assert [int(i.findtext("guid", "").rsplit("-", 1)[1]) for i in items] == [c["seq"] for c in newest]
    base = settings.base_url
    links = {int(i.findtext("guid", "").rsplit("-", 1)[1]): i.findtext("link", "") for i in items}
    assert all(link.startswith(base + "/") and link.startswith(("http://", "https://")) for link in links.values())
    deleted = {c["id"] for c in log if c["kind"] == "deleted"}
    assert any(c["id"] in deleted for c in newest)
    for change in newest:  # a deleted node's old page answers 410, every other page (a merged one: its survivor's) 200
        path = links[change["seq"]][len(base) :]
        status = api.http.get(path, follow_redirects=True).status_code
        gone = change["kind"] != "merged" and change["id"] in deleted
        assert status == (410 if gone else 200), (change, path)
    for page in ("/developers", "/llms.txt"):
        assert "/feeds/changes.xml" in api.http.get(page).text, page
