"""One writer at a time (graph/writer_lock.py, issue 52 §5, issue 48 item 3): real `weft load` processes
against the session's Neo4j. Two loads started together: one runs, the other is refused naming the holder,
or waits with --wait and then runs; either way the graph is the one a single load gives (no duplicate node
or relationship, no double-counted weight). A holder killed with SIGKILL is taken over once its lease ran
out; a writer whose lock was taken over stops before its next commit and never releases the new holder's."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from neo4j import Driver
from typer.testing import CliRunner

from tests.conftest import DEMO_DATA, shared_path
from tests.integration.test_load_arxiv import graph_state
from weft.graph import local_server
from weft.graph.bulk_import import _lock_before_stop  # pyright: ignore[reportPrivateUsage]
from weft.graph.errors import WriterBusy, WriterLockLost
from weft.graph.migrate import reset
from weft.graph.settings import Settings
from weft.graph.writer_lock import LOCK_NAME, current_holder, try_acquire, writer_lock
from weft.loaders.run import load_paths
from weft.server.cli import app as cli_app

WEFT = str(Path(sys.executable).parent / "weft")
SHORT_LEASE = "4"  # seconds: the killed holder's lock is taken over this long after its last renewal


def _works() -> list[Path]:
    """50 works of two dense collaboration clusters: co-author weights a double count would show."""
    folder = shared_path("openalex", "works", "author_works")
    return [
        folder / "academic_explorer_author_A5032473237_works.json",
        folder / "academic_explorer_author_A5025875274_works.json",
    ]


def _load(settings: Settings, *extra: str, lease: str | None = None) -> subprocess.Popen[str]:
    env = dict(os.environ, NEO4J_URI=settings.neo4j_uri, NEO4J_PASSWORD=settings.neo4j_password)
    if lease is not None:
        env["WEFT_WRITER_LEASE"] = lease
    return subprocess.Popen(
        [WEFT, "load", "openalex", *map(str, _works()), "--batch-size", "60", "--quiet", *extra],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finish(proc: subprocess.Popen[str]) -> tuple[int, str]:
    _, err = proc.communicate(timeout=900)
    return proc.returncode, " ".join(err.split())  # rich wraps long lines


def _weights(driver: Driver) -> dict[str, int]:
    records, _, _ = driver.execute_query("MATCH ()-[c:COAUTHORED_WITH]->() RETURN c.pair AS pair, c.weight AS w")
    return {r["pair"]: r["w"] for r in records}


def _locks(driver: Driver) -> int:
    return driver.execute_query("MATCH (l:WriterLock) RETURN count(l) AS n").records[0]["n"]


@pytest.fixture(scope="module")
def reference(driver: Driver, settings: Settings) -> tuple[tuple, dict[str, int]]:
    """The graph (and co-author weights) one clean load of the works gives."""
    reset(driver, settings.neo4j_database)
    load_paths(driver, _works(), source="openalex", database=settings.neo4j_database)
    return graph_state(driver, settings.neo4j_database), _weights(driver)


def test_two_loads_started_together_one_runs_the_other_is_refused_naming_it(
    driver: Driver, settings: Settings, reference: tuple[tuple, dict[str, int]]
) -> None:
    reset(driver, settings.neo4j_database)
    procs = [_load(settings), _load(settings)]
    results = [_finish(p) for p in procs]
    codes = sorted(code for code, _ in results)
    assert codes == [0, 1], results
    (ran, _), (_, (_, message)) = sorted(zip(procs, results, strict=True), key=lambda pr: pr[1][0])
    assert "another writer holds the graph: `weft load openalex`" in message
    assert f"(pid {ran.pid} on " in message and "since 20" in message and "lease until 20" in message
    assert "WRITER_BUSY" in message and "--wait" in message
    assert graph_state(driver, settings.neo4j_database) == reference[0]
    assert _weights(driver) == reference[1] and max(reference[1].values()) > 1
    assert _locks(driver) == 0  # released at the end


def test_with_wait_the_second_load_waits_then_runs_and_nothing_is_counted_twice(
    driver: Driver, settings: Settings, reference: tuple[tuple, dict[str, int]]
) -> None:
    reset(driver, settings.neo4j_database)
    procs = [_load(settings, "--wait"), _load(settings, "--wait", "600")]
    results = [_finish(p) for p in procs]
    assert [code for code, _ in results] == [0, 0], results
    waited = [message for _, message in results if "waiting for the writer lock" in message]
    assert len(waited) == 1 and "held by `weft load openalex` (pid" in waited[0]
    assert graph_state(driver, settings.neo4j_database) == reference[0]
    assert _weights(driver) == reference[1]
    assert _locks(driver) == 0


def test_a_killed_holder_is_taken_over_once_its_lease_ran_out(
    driver: Driver, settings: Settings, reference: tuple[tuple, dict[str, int]]
) -> None:
    reset(driver, settings.neo4j_database)
    holder = _load(settings, lease=SHORT_LEASE)
    deadline = time.monotonic() + 600
    while driver.execute_query("MATCH (p:Paper) RETURN count(p) AS n").records[0]["n"] == 0:
        assert holder.poll() is None, holder.communicate()
        assert time.monotonic() < deadline, "no batch committed"
        time.sleep(0.05)
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=30)
    dead = current_holder(driver, settings.neo4j_database)
    assert dead is not None and dead.pid == holder.pid  # the dead process still holds it

    code, message = _finish(_load(settings, "--wait", lease=SHORT_LEASE))
    assert code == 0, message
    assert f"took over the writer lock of `weft load openalex` (pid {holder.pid} on " in message
    assert graph_state(driver, settings.neo4j_database) == reference[0]
    assert _weights(driver) == reference[1]


def test_ctrl_c_releases_the_lock(driver: Driver, settings: Settings) -> None:
    reset(driver, settings.neo4j_database)
    proc = _load(settings)
    deadline = time.monotonic() + 600
    while driver.execute_query("MATCH (p:Paper) RETURN count(p) AS n").records[0]["n"] == 0:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no batch committed"
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    code, message = _finish(proc)
    # Usually 130 "interrupted"; a Ctrl-C landing in a commit can also leave the driver's connection in its
    # transaction (a driver traceback, or exit 2 at the next batch: so before the lock too). Either way:
    assert code != 0, message
    assert _locks(driver) == 0, message


def _steal(driver: Driver, database: str) -> str:
    """Another writer takes the lock over, as it may once a holder's lease ran out."""
    driver.execute_query(
        "MATCH (l:WriterLock {name: $name}) SET l.expires_at = datetime() - duration('PT1S')",
        name=LOCK_NAME,
        database_=database,
    )
    token = uuid.uuid4().hex
    acquired, holder, stale = try_acquire(driver, database, "sync", token, 60.0)
    assert acquired and holder.command == "sync" and stale is not None
    return token


def test_a_writer_whose_lock_was_taken_over_stops_before_its_next_commit(driver: Driver, settings: Settings) -> None:
    db = settings.neo4j_database
    reset(driver, db)
    try:
        with pytest.raises(WriterLockLost, match="lock was lost"):  # noqa: PT012 - the lock's block is the point
            with writer_lock(driver, db, "load openalex", lease_s=60.0):
                thief = _steal(driver, db)
                load_paths(driver, _works(), source="openalex", database=db, batch_size=60)
        assert driver.execute_query("MATCH (p:Paper) RETURN count(p) AS n").records[0]["n"] == 0  # rolled back
        # leaving the block released nothing: the lock is still the new holder's
        token = driver.execute_query("MATCH (l:WriterLock) RETURN l.token AS t", database_=db).records[0]["t"]
        assert token == thief
        with pytest.raises(WriterBusy, match="`weft sync`"), writer_lock(driver, db, "load openalex"):
            pass
    finally:
        driver.execute_query("MATCH (l:WriterLock) DELETE l", database_=db)


def test_the_heartbeat_finds_a_lost_lock(driver: Driver, settings: Settings) -> None:
    db = settings.neo4j_database
    try:
        with writer_lock(driver, db, "embed", lease_s=1.5) as lock:
            _steal(driver, db)
            deadline = time.monotonic() + 120
            while not lock.lost:  # renewed every 0.5 s
                assert time.monotonic() < deadline, "the heartbeat never noticed"
                time.sleep(0.05)
            with pytest.raises(WriterLockLost, match="another writer took it over"):
                lock.check()
    finally:
        driver.execute_query("MATCH (l:WriterLock) DELETE l", database_=db)


def test_the_heartbeat_keeps_a_short_lease_alive(driver: Driver, settings: Settings) -> None:
    """A writer busy for several leases keeps its lock: nobody can take it over meanwhile."""
    db = settings.neo4j_database
    with writer_lock(driver, db, "analytics", lease_s=6.0) as lock:
        first = lock.holder.expires_at
        deadline = time.monotonic() + 120
        while lock.holder.expires_at == first:
            assert time.monotonic() < deadline, "never renewed"
            time.sleep(0.05)
        acquired, holder, _ = try_acquire(driver, db, "load s2", uuid.uuid4().hex, 60.0)
        assert not acquired and holder.command == "analytics"
        lock.check()
    assert _locks(driver) == 0


@pytest.mark.parametrize(
    "args",
    [
        ["migrate"],
        ["reset", "--yes"],
        ["embed"],
        ["analytics", "--engine", "networkx"],
        ["load", "auto", str(DEMO_DATA / "openalex" / "institutions")],
        ["sync", "openalex", "README.md"],
    ],
    ids=lambda args: args[0],
)
def test_every_writing_command_is_refused_while_another_writes(
    driver: Driver, settings: Settings, args: list[str]
) -> None:
    db = settings.neo4j_database
    papers = driver.execute_query("MATCH (p:Paper) RETURN count(p) AS n").records[0]["n"]
    token = uuid.uuid4().hex
    assert try_acquire(driver, db, "sync openalex", token, 60.0)[0]
    try:
        result = CliRunner().invoke(cli_app, args)
    finally:
        driver.execute_query("MATCH (l:WriterLock {token: $t}) DELETE l", t=token, database_=db)
    message = " ".join(result.output.split())
    assert result.exit_code == 1, message
    assert "WRITER_BUSY" in message and "`weft sync openalex` (pid" in message
    assert driver.execute_query("MATCH (p:Paper) RETURN count(p) AS n").records[0]["n"] == papers


def test_import_takes_the_lock_before_it_stops_the_server(driver: Driver, settings: Settings) -> None:
    """`weft import` is refused, the server left running, while another command writes."""
    db = settings.neo4j_database
    token = uuid.uuid4().hex
    assert try_acquire(driver, db, "load s2", token, 60.0)[0]
    try:
        with pytest.raises(WriterBusy, match="`weft load s2`"):
            _lock_before_stop(settings, None, print)
    finally:
        driver.execute_query("MATCH (l:WriterLock {token: $t}) DELETE l", t=token, database_=db)
    assert local_server.bolt_answers(settings)
