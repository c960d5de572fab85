"""Researcher and institution feeds pick up a paper a sync adds (issue 52), through the app with its response
cache on: the feeds read before the sync are not served again after it (the sync moves the data version)."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

from neo4j import Driver
from starlette.testclient import TestClient

from tests.sync_fixtures import write_snapshots
from weft.graph.migrate import reset
from weft.graph.settings import Settings
from weft.loaders.sync.openalex import sync_openalex
from weft.server.app import create_app

NEW_TITLE = "Path-based Design Model for Constructing and Exploring Alternative Visualisations"  # W4402401980
FEEDS = ("/feeds/researchers/A5032473237.xml", "/feeds/institutions/I161548249.xml")  # Butcher, Bangor


def _titles(http: TestClient, path: str) -> list[str]:
    response = http.get(path)
    assert response.status_code == 200, path
    return [i.findtext("title", "") for i in ElementTree.fromstring(response.content).findall("./channel/item")]


def test_researcher_and_institution_feeds_show_a_paper_a_sync_added(
    driver: Driver, settings: Settings, tmp_path: Path
) -> None:
    before, after = write_snapshots(tmp_path)
    reset(driver, settings.neo4j_database)
    sync_openalex(driver, before, database=settings.neo4j_database)
    with TestClient(create_app(settings)) as http:
        for path in FEEDS:
            titles = _titles(http, path)
            assert titles and NEW_TITLE not in titles, path
        sync_openalex(driver, after, database=settings.neo4j_database)
        for path in FEEDS:
            assert NEW_TITLE in _titles(http, path), path
