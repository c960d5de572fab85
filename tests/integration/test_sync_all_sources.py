"""All three sources at once (issue 52): the "before" states of OpenAlex, Semantic Scholar and arXiv loaded,
then `weft sync openalex`, `weft sync s2` and `weft sync arxiv`, equals a full load of the three "after" states.
Fixtures: tests/sync_fixtures.py, tests/s2_sync_fixtures.py, tests/arxiv_sync_fixtures.py.
"""

from __future__ import annotations

from pathlib import Path

from neo4j import Driver

from tests.arxiv_sync_fixtures import write_arxiv
from tests.integration.test_sync_openalex import graph_state
from tests.integration.test_sync_s2 import _same
from tests.s2_sync_fixtures import write_s2
from tests.sync_fixtures import write_snapshots
from weft.graph.migrate import reset
from weft.graph.settings import Settings
from weft.graph.sync_state import sync_states
from weft.loaders.run import load_paths
from weft.loaders.sync.arxiv import sync_arxiv
from weft.loaders.sync.openalex import sync_openalex
from weft.loaders.sync.s2 import sync_s2


def _load(driver: Driver, settings: Settings, openalex: Path, s2: Path, arxiv: Path) -> None:
    reset(driver, settings.neo4j_database)
    for path, source in ((openalex, "openalex"), (s2, "s2"), (arxiv, "arxiv")):
        summary = load_paths(driver, [path], source=source, database=settings.neo4j_database)
        assert summary.rejected == 0 and summary.read > 5


def test_the_three_syncs_equal_a_full_load_of_the_three_after_states(
    driver: Driver, settings: Settings, tmp_path: Path
) -> None:
    db = settings.neo4j_database
    oa_before, oa_after = write_snapshots(tmp_path / "openalex")
    s2_before, s2_after, s2_diffs = write_s2(tmp_path / "s2")
    arxiv_before, arxiv_after = write_arxiv(tmp_path / "arxiv")
    _load(driver, settings, oa_after, s2_after, arxiv_after)
    expected = graph_state(driver, db)

    _load(driver, settings, oa_before, s2_before, arxiv_before)
    sync_openalex(driver, oa_before, database=db)  # the watermark of the loaded snapshot (nothing new)
    sync_openalex(driver, oa_after, database=db)
    sync_s2(driver, s2_diffs, database=db)
    sync_arxiv(driver, arxiv_after, database=db)
    _same(graph_state(driver, db), expected)
    assert [(s["source"], s.get("pending_unit")) for s in sync_states(driver, db)] == [
        ("arxiv", None),
        ("openalex", None),
        ("s2", None),
    ]
