"""A paper Semantic Scholar deleted in a diff step, and no other source states, answers 410 Gone on the site
like one OpenAlex withdrew (issue 52); the change log's deletion is its tombstone."""

from __future__ import annotations

from pathlib import Path

from neo4j import Driver

from tests.api.conftest import api_client
from tests.s2_sync_fixtures import IDS, write_s2
from weft.graph.migrate import reset
from weft.graph.settings import Settings
from weft.graph.sync_state import changes
from weft.loaders.run import load_paths
from weft.loaders.sync.s2 import sync_s2


def test_a_paper_s2_deleted_answers_410(driver: Driver, settings: Settings, tmp_path: Path) -> None:
    db = settings.neo4j_database
    before, _, diffs = write_s2(tmp_path)
    reset(driver, db)
    load_paths(driver, [before], source="s2", database=db)
    kept = driver.execute_query("MATCH (p:Paper {corpus_id: $c}) RETURN p.id AS id", c=IDS["P1"], database_=db)
    sync_s2(driver, diffs, database=db)
    gone = [c["id"] for c in changes(driver, db) if c["kind"] == "deleted" and c["source_id"] == IDS["P5"]]
    assert len(gone) == 1 and gone[0]
    for client in api_client(settings):
        page = client.http.get(f"/papers/{gone[0]}")
        assert page.status_code == 410, page.text[:300]
        assert client.http.get(f"/papers/{kept.records[0]['id']}").status_code == 200
