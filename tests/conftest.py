"""Shared fixtures: one real Neo4j server per test session, a clean database per module.

The server is NEO4J_URI's if something answers there; otherwise the project's own local
Neo4j Community server is started on that port and stopped at the end of the session. The start begins
in the background when collection ends, and the unit tests (tests/unit, which need no server) run first.

Loading every shared OpenAlex file takes about a minute, and eight modules read it. A module whose first
database test asks for a shared load (`openalex_graph`, `all_sources_graph`) gets the database the previous
module left when that still holds exactly the same load, untouched: same counts of nodes, relationships
and their properties, same data version (every Weft write bumps it). Anything else is emptied and loaded
afresh, as before, except that a load some module changes before another asks for it again is read back
once right after its first load, and later modules get it from that copy (every node and relationship
rewritten as they were, checked by the same fingerprint) in about a third of the loader's time. Modules
asking for the same load run one after another (`pytest_collection_modifyitems`).
A module that only adds properties to the load (`weft analytics` scores) removes them at its end
(`restoring`): when the counts are then those of the load again, the next module takes it, at a newer data
version (tests compare data versions only with the one they read before).

In parallel (`make test TEST_WORKERS=2`: `pytest -n 2 --dist loadgroup --no-loadscope-reorder`), each worker
has its own session server (`worker_bolt_port`: worker gw0 on NEO4J_URI's port, gwN on the Nth port of
WEFT_TEST_WORKER_PORTS, else NEO4J_URI's port + 10 * N), set as the worker's NEO4J_URI before any fixture or
`weft` subprocess reads it. Every test is marked `xdist_group` with its module, or with its shared load for
the modules that ask for one, so a module (module fixtures) and the modules that reuse one load always run
in one worker, in the order above. A new module needs nothing for this: its fixtures stay per module.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, LiteralString

import pytest
from neo4j import Driver

from weft.graph import local_server
from weft.graph.driver import open_driver
from weft.graph.local_server import free_port, free_ports  # noqa: F401 - the tests import them from here
from weft.graph.migrate import migrate, reset
from weft.graph.settings import PROJECT_ROOT, Settings, load_settings

SHARED_DATA = Path(os.environ.get("WEFT_SHARED_DATA", PROJECT_ROOT.parent / "shared" / "data"))
DEMO_DATA = PROJECT_ROOT / "demo" / "data"
# Starlette's TestClient sends `Host: testserver`: the apps the tests build answer it beside the local names.
os.environ.setdefault("WEFT_ALLOWED_HOSTS", "testserver,localhost,127.0.0.1,[::1]")


def server_env(settings: Settings) -> dict[str, str]:
    """The environment a `weft` command needs to act on `settings`' local server and no other: its Bolt URI
    and its own HTTP port (a WEFT_NEO4J_HTTP_PORT set for the session's server must not be inherited)."""
    return {
        "NEO4J_URI": settings.neo4j_uri,
        "WEFT_NEO4J_HTTP_PORT": str(settings.http_port),
        "WEFT_NEO4J_HEAP": settings.neo4j_heap,
        "WEFT_NEO4J_PAGECACHE": settings.neo4j_pagecache,
    }


def shared_path(*parts: str) -> Path:
    """A path under ../shared/data; a missing folder fails the test loudly (never skips)."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.fail(f"real test data missing: {path} (set WEFT_SHARED_DATA to the shared/data folder)")
    return path


class _BackgroundStart(threading.Thread):
    """The session server's start, in a thread begun at the end of collection so that it boots while the unit
    tests run: what it said, and what it raised (raised again by whoever waits for it)."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(name="session-neo4j-start", daemon=True)
        self.settings = settings
        self.said: list[str] = []
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.said.append(local_server.start(self.settings, echo=self.said.append))
        except BaseException as exc:
            self.error = exc


_background: list[_BackgroundStart] = []  # at most one start, taken by the first to wait for it


def _start_in_background() -> None:
    """Start the session server in a thread when nothing answers."""
    s = load_settings()
    if not local_server.bolt_answers(s):
        start = _BackgroundStart(s)
        _background.append(start)
        start.start()


def _started_in_background() -> bool:
    """Wait for a background start, if one was begun; True when it started the server (raises its error)."""
    if not _background:
        return False
    start = _background.pop()
    start.join()
    print(*start.said, sep="\n")
    if start.error is not None:
        raise start.error
    return True


def worker_bolt_port(base: int, worker: str, ports: str = "") -> int:
    """The Bolt port of the session server of pytest-xdist worker `worker` ("gw0", "gw1", ...): `base` for gw0,
    else the worker's entry of the comma-separated `ports` (WEFT_TEST_WORKER_PORTS), else `base` + 10 * N."""
    n = int(worker.removeprefix("gw"))
    given = [int(p) for p in ports.split(",") if p.strip()]
    if n < len(given):
        return given[n]
    return base if n == 0 else base + 10 * n


def pytest_configure(config: pytest.Config) -> None:
    """In a pytest-xdist worker other than gw0: NEO4J_URI names the worker's own server (`worker_bolt_port`),
    its HTTP port beside it, before anything reads the settings."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    ports = os.environ.get("WEFT_TEST_WORKER_PORTS", "")
    if not worker or (worker == "gw0" and not ports):
        return
    s = load_settings()
    port = worker_bolt_port(s.bolt_port, worker, ports)
    os.environ["NEO4J_URI"] = f"bolt://{s.bolt_host}:{port}"
    if s.neo4j_http_port:  # an explicit HTTP port would clash between workers: Bolt + 4 instead
        os.environ["WEFT_NEO4J_HTTP_PORT"] = str(port + 4)


def pytest_collection_finish(session: pytest.Session) -> None:
    if not session.config.option.collectonly and any("settings" in _fixtures(item) for item in session.items):
        _start_in_background()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A server started in the background for tests that never ran (deselected, interrupted) is stopped, and
    the scratch server too."""
    if _started_in_background() and not os.environ.get("WEFT_KEEP_NEO4J"):
        local_server.stop(load_settings())
    for server in _scratch:  # when the session ended before the last module that uses it
        local_server.stop(server)


@pytest.fixture(scope="session")
def settings() -> Iterator[Settings]:
    """Settings of a running real Neo4j, started for the session when nothing answers (in the background
    from the end of collection: `_start_in_background`)."""
    s = load_settings()
    started = _started_in_background()
    if not local_server.bolt_answers(s):
        print(local_server.start(s))
        started = True
    with open_driver(s) as driver:
        migrate(driver, s.neo4j_database)
    yield s
    if started and not os.environ.get("WEFT_KEEP_NEO4J"):
        local_server.stop(s)


@pytest.fixture(scope="module")
def import_settings(settings: Settings) -> Iterator[Settings]:
    """A second local instance (Bolt on WEFT_IMPORT_TEST_PORT or a free port, HTTP on another free port) that
    `weft import` may stop and replace; stopped and removed at the end of the module."""
    bolt, http = free_ports(2)
    port = int(os.environ.get("WEFT_IMPORT_TEST_PORT") or bolt)
    other = Settings(
        neo4j_uri=f"bolt://127.0.0.1:{port}",
        neo4j_http_port=http,
        neo4j_user=settings.neo4j_user,
        neo4j_password=settings.neo4j_password,
        neo4j_home=settings.neo4j_home,
        neo4j_heap=settings.neo4j_heap,
        neo4j_pagecache=settings.neo4j_pagecache,
    )
    yield other
    local_server.stop(other)
    shutil.rmtree(local_server.Instance(other).home, ignore_errors=True)


_scratch: list[Settings] = []  # the session's scratch server, once started


def _later_module_uses(request: pytest.FixtureRequest, fixture: str) -> bool:
    """True when a module after the requesting one has a test that uses `fixture`."""
    items = request.session.items
    last = max(i for i, item in enumerate(items) if getattr(item, "module", None) is request.module)
    return any(fixture in _fixtures(item) for item in items[last + 1 :])


@pytest.fixture(scope="module")
def scratch_server(settings: Settings, request: pytest.FixtureRequest) -> Iterator[Settings]:
    """A scratch Neo4j (graph/local_server.scratch_settings: own free port, small memory) that tests stop,
    kill and restart, running, migrated and emptied for the module. One server serves every module that
    asks (each Neo4j start costs seconds to tens of seconds); stopped after the last of them."""
    if not _scratch:
        _scratch.append(local_server.scratch_settings(settings))
    server = _scratch[0]
    local_server.start(server, echo=lambda _m: None)  # a no-op when it answers
    try:
        with open_driver(server) as driver:
            reset(driver, server.neo4j_database)
            migrate(driver, server.neo4j_database)  # indexes, as every Weft database has them
        yield server
    finally:
        if not _later_module_uses(request, "scratch_server"):
            local_server.stop(server)


SHARED_LOADS = ("openalex_graph", "all_sources_graph")
FINGERPRINT = """
CALL () { MATCH (n) RETURN count(n) AS nodes, sum(size(keys(n))) AS node_properties }
CALL () { MATCH ()-[r]->() RETURN count(r) AS relationships, sum(size(keys(r))) AS relationship_properties }
OPTIONAL MATCH (m:Meta {key: 'graph'})
RETURN nodes, node_properties, relationships, relationship_properties, m.data_version AS data_version
"""
_held: dict[str, object] = {}
"""The shared load the database holds ("load") and its fingerprint right after loading ("fingerprint")."""


def _fingerprint(driver: Driver, settings: Settings) -> tuple[object, ...]:
    records, _, _ = driver.execute_query(FINGERPRINT, database_=settings.neo4j_database)
    return tuple(records[0].values())


def _holds(driver: Driver, settings: Settings, load: str) -> bool:
    """True when the database holds `load` exactly as it was loaded."""
    return _held.get("load") == load and _held.get("fingerprint") == _fingerprint(driver, settings)


# Removes the scores `weft analytics` stores on researchers: the `undo` of `restoring` for the modules that
# run the analytics on a shared load.
ANALYTICS_SCORES_REMOVED: LiteralString = (
    "MATCH (n:Researcher) REMOVE n.page_rank, n.community, n.component, n.degree_centrality, n.betweenness"
)


@contextmanager
def restoring(driver: Driver, settings: Settings, load: str, undo: LiteralString) -> Iterator[Driver]:
    """Around a module's use of the shared `load` that only adds properties to it: afterwards `undo`
    removes them, and when the database then counts exactly the nodes, relationships and properties it
    held as loaded, it still counts as holding `load` (only its data version moved on); otherwise the
    next module loads afresh."""
    try:
        yield driver
    finally:
        driver.execute_query(undo, database_=settings.neo4j_database)
        held = _held.get("fingerprint")
        now = _fingerprint(driver, settings)
        # the four counts of FINGERPRINT as loaded; its data version has moved on
        if _held.get("load") == load and isinstance(held, tuple) and now[:4] == held[:4]:
            _held["fingerprint"] = now
        else:
            _held.clear()


def _module_load(items: list[pytest.Item], module: object) -> str | None:
    """The shared load the module's first database test asks for (None: it starts from an empty database)."""
    for item in items:
        names = getattr(item, "fixturenames", ())
        if getattr(item, "module", None) is module and "driver" in names:
            return next((load for load in SHARED_LOADS if load in names), None)
    return None


def _fixtures(item: pytest.Item) -> tuple[str, ...]:
    return tuple(getattr(item, "fixturenames", ()))


UNIT = Path(__file__).parent / "unit"


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the `xdist_group` marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The unit tests (tests/unit: no server) run first, while the session server boots; then modules that
    start from the same shared load run one after another, those marked `writes_shared_load` (they change
    it, so the next module loads afresh) last; otherwise in collected order. Each test is marked
    `xdist_group` with its shared load or its module (one worker runs the group, in this order)."""
    on_server = {getattr(item, "module", None) for item in items if "settings" in _fixtures(item)}
    group: dict[object, tuple[bool, int, bool]] = {}
    loads: dict[object, str | None] = {}
    for item in items:
        module = getattr(item, "module", None)
        if module not in group:
            load = loads[module] = _module_load(items, module)
            writes = item.get_closest_marker("writes_shared_load") is not None
            unit = item.path.is_relative_to(UNIT) and module not in on_server
            group[module] = (not unit, SHARED_LOADS.index(load) if load else len(SHARED_LOADS), writes)
    items.sort(key=lambda item: group[getattr(item, "module", None)])  # stable: order kept within a group
    for item in items:
        item.add_marker(pytest.mark.xdist_group(loads[getattr(item, "module", None)] or item.nodeid.split("::", 1)[0]))


@pytest.fixture(scope="module")
def driver(settings: Settings, request: pytest.FixtureRequest) -> Iterator[Driver]:
    """A sync driver on an emptied database (once per test module), or on the shared load the module's
    first database test asks for when the database still holds it untouched."""
    with open_driver(settings) as d:
        load = _module_load(request.session.items, request.module)
        if load is None or not _holds(d, settings, load):
            reset(d, settings.neo4j_database)
            _held.clear()
        # no writer lock left by an earlier module's killed `weft load` (its lease would refuse this module's)
        d.execute_query("MATCH (l:WriterLock) DELETE l", database_=settings.neo4j_database)
        yield d


# A copy of a shared load as the loader left it: every node (labels, properties) and relationship (its ends,
# type, properties), read right after a module loaded it into an empty database. A later module that needs
# the load again (an earlier one changed it) gets it back from this copy in a third of the loader's time.
COPY_NODES = "MATCH (n) RETURN elementId(n) AS id, labels(n) AS labels, properties(n) AS props"
COPY_RELATIONSHIPS = (
    "MATCH (a)-[r]->(b) RETURN elementId(a) AS start, elementId(b) AS end, type(r) AS type, properties(r) AS props"
)
RESTORE_NODES = "UNWIND $rows AS row CREATE (n:$(row.labels)) SET n = row.props RETURN elementId(n) AS id"
RESTORE_RELATIONSHIPS = """
UNWIND $rows AS row
MATCH (a) WHERE elementId(a) = row.start
MATCH (b) WHERE elementId(b) = row.end
CREATE (a)-[r:$(row.type)]->(b) SET r = row.props
"""
RESTORE_BATCH = 5000


@dataclass(frozen=True)
class _Copy:
    """A shared load's nodes and relationships as read back (`COPY_NODES`, `COPY_RELATIONSHIPS`)."""

    nodes: list[dict[str, Any]]
    relationships: list[dict[str, Any]]
    fingerprint: tuple[object, ...]


_copies: dict[str, _Copy] = {}


def _copy(driver: Driver, settings: Settings) -> _Copy:
    db = settings.neo4j_database
    nodes = [r.data() for r in driver.execute_query(COPY_NODES, database_=db).records]
    relationships = [r.data() for r in driver.execute_query(COPY_RELATIONSHIPS, database_=db).records]
    return _Copy(nodes, relationships, _fingerprint(driver, settings))


def _restore(driver: Driver, settings: Settings, copy: _Copy) -> None:
    """Write `copy` into the empty database; it must then count exactly what the load counted."""
    db = settings.neo4j_database
    new_id: dict[str, str] = {}
    for i in range(0, len(copy.nodes), RESTORE_BATCH):
        batch = copy.nodes[i : i + RESTORE_BATCH]
        rows = [{"labels": n["labels"], "props": n["props"]} for n in batch]
        made = driver.execute_query(RESTORE_NODES, rows=rows, database_=db).records
        new_id.update(zip((n["id"] for n in batch), (r["id"] for r in made), strict=True))
    for i in range(0, len(copy.relationships), 2 * RESTORE_BATCH):
        rows = [
            {"start": new_id[r["start"]], "end": new_id[r["end"]], "type": r["type"], "props": r["props"]}
            for r in copy.relationships[i : i + 2 * RESTORE_BATCH]
        ]
        driver.execute_query(RESTORE_RELATIONSHIPS, rows=rows, database_=db)
    restored = _fingerprint(driver, settings)
    assert restored == copy.fingerprint, f"the restored copy differs from the load: {restored} != {copy.fingerprint}"


def _loaded_again_later(session: pytest.Session, load: str) -> bool:
    """True when a module that changes `load` (`writes_shared_load`) runs before another that asks for it:
    only then is a copy worth its reading."""
    modules = list(dict.fromkeys(getattr(item, "module", None) for item in session.items))
    users = [module for module in modules if _module_load(session.items, module) == load]
    return any(_writes_shared_load(session.items, module) for module in users[:-1])


def _writes_shared_load(items: list[pytest.Item], module: object) -> bool:
    item = next(item for item in items if getattr(item, "module", None) is module)
    return item.get_closest_marker("writes_shared_load") is not None


def _shared_load(
    driver: Driver, settings: Settings, load: str, paths: list[Path], source: str, session: pytest.Session
) -> Driver:
    from weft.loaders.run import load_paths

    if not _holds(driver, settings, load):
        empty = _fingerprint(driver, settings)[0] == 0  # else: on what the module's earlier tests wrote
        if empty and load in _copies:
            _restore(driver, settings, _copies[load])
        else:
            load_paths(driver, paths, source=source, database=settings.neo4j_database)
        _held.clear()
        if empty:
            _held.update(load=load, fingerprint=_fingerprint(driver, settings))
            if load not in _copies and _loaded_again_later(session, load):
                _copies[load] = _copy(driver, settings)
    return driver


@pytest.fixture(scope="module")
def openalex_graph(driver: Driver, settings: Settings, request: pytest.FixtureRequest) -> Driver:
    """A database holding every shared OpenAlex file (works, authors, institutions) and nothing else."""
    return _shared_load(driver, settings, "openalex_graph", [shared_path("openalex")], "openalex", request.session)


@pytest.fixture(scope="module")
def all_sources_graph(driver: Driver, settings: Settings, request: pytest.FixtureRequest) -> Driver:
    """A database holding the shared OpenAlex, Semantic Scholar and arXiv files and nothing else."""
    paths = [shared_path("openalex"), shared_path("semanticscholar"), shared_path("arxiv")]
    return _shared_load(driver, settings, "all_sources_graph", paths, "auto", request.session)
