"""Shared fixtures: one real Neo4j server per test session, a clean database per module.

The server is NEO4J_URI's if something answers there; otherwise the project's own local
Neo4j Community server is started on that port and stopped at the end of the session.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from neo4j import Driver

from weft.graph import local_server
from weft.graph.driver import open_driver
from weft.graph.migrate import migrate, reset
from weft.graph.settings import PROJECT_ROOT, Settings, load_settings

SHARED_DATA = Path(os.environ.get("WEFT_SHARED_DATA", PROJECT_ROOT.parent / "shared" / "data"))
DEMO_DATA = PROJECT_ROOT / "demo" / "data"


def shared_path(*parts: str) -> Path:
    """A path under ../shared/data; a missing folder fails the test loudly (never skips)."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.fail(f"real test data missing: {path} (set WEFT_SHARED_DATA to the shared/data folder)")
    return path


@pytest.fixture(scope="session")
def settings() -> Iterator[Settings]:
    """Settings of a running real Neo4j, started for the session when nothing answers."""
    s = load_settings()
    started = False
    if not local_server.bolt_answers(s):
        print(local_server.start(s))
        started = True
    with open_driver(s) as driver:
        migrate(driver, s.neo4j_database)
    yield s
    if started and not os.environ.get("WEFT_KEEP_NEO4J"):
        local_server.stop(s)


@pytest.fixture(scope="module")
def driver(settings: Settings) -> Iterator[Driver]:
    """A sync driver on an emptied database (once per test module)."""
    with open_driver(settings) as d:
        reset(d, settings.neo4j_database)
        yield d


@pytest.fixture(scope="module")
def openalex_graph(driver: Driver, settings: Settings) -> Driver:
    """An emptied database with every shared OpenAlex file loaded (works, authors, institutions)."""
    from weft.loaders.run import load_paths

    load_paths(driver, [shared_path("openalex")], source="openalex", database=settings.neo4j_database)
    return driver


@pytest.fixture(scope="module")
def all_sources_graph(driver: Driver, settings: Settings) -> Driver:
    """An emptied database with the shared OpenAlex, Semantic Scholar and arXiv files loaded."""
    from weft.loaders.run import load_paths

    load_paths(
        driver,
        [shared_path("openalex"), shared_path("semanticscholar"), shared_path("arxiv")],
        source="auto",
        database=settings.neo4j_database,
    )
    return driver
