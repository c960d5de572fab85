"""A load killed mid-way, or whose Neo4j stops under it, converges to the same graph when rerun.

Real `weft load` processes against real servers: one SIGKILLed between batches, one whose
server is stopped while it writes (a scratch instance). Each batch is one transaction, and
derived data is recomputed from what is in the graph, so a rerun must equal a clean load.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from neo4j import Driver

from tests.conftest import shared_path
from tests.integration.test_load_arxiv import graph_state
from weft.graph import local_server
from weft.graph.driver import open_driver
from weft.graph.migrate import migrate, reset
from weft.graph.settings import Settings
from weft.loaders.run import load_paths

WEFT = str(Path(sys.executable).parent / "weft")


def _works() -> list[Path]:
    """81 works of a dense collaboration cluster: small, but many batches at --batch-size 100."""
    return [shared_path("openalex", "works", "author_works")]


def _papers(driver: Driver) -> int:
    records, _, _ = driver.execute_query("MATCH (p:Paper) RETURN count(p) AS n")
    return records[0]["n"]


def _start_load(settings: Settings) -> subprocess.Popen[str]:
    # Retries end after 3 s (WEFT_WRITE_RETRY) instead of 30: the server that stops stays down.
    env = dict(os.environ, NEO4J_URI=settings.neo4j_uri, NEO4J_PASSWORD=settings.neo4j_password, WEFT_WRITE_RETRY="3")
    return subprocess.Popen(
        [WEFT, "load", "openalex", *map(str, _works()), "--batch-size", "100", "--quiet"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for_papers(driver: Driver, proc: subprocess.Popen[str], at_least: int = 1) -> None:
    deadline = time.monotonic() + 300
    while _papers(driver) < at_least:
        assert proc.poll() is None, f"the load ended before it could be interrupted: {proc.communicate()}"
        assert time.monotonic() < deadline, "no batch committed within 300 s"
        time.sleep(0.05)


@pytest.fixture(scope="module")
def reference(driver: Driver, settings: Settings) -> tuple:
    """The graph a clean, uninterrupted load of the shared works gives."""
    reset(driver, settings.neo4j_database)
    load_paths(driver, _works(), source="openalex", database=settings.neo4j_database)
    return graph_state(driver, settings.neo4j_database)


def test_a_killed_load_converges_when_rerun(driver: Driver, settings: Settings, reference: tuple) -> None:
    reset(driver, settings.neo4j_database)
    proc = _start_load(settings)
    _wait_for_papers(driver, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL

    partial = graph_state(driver, settings.neo4j_database)
    assert partial[0] and partial != reference  # some batches committed, not the whole load

    load_paths(driver, _works(), source="openalex", database=settings.neo4j_database)
    assert graph_state(driver, settings.neo4j_database) == reference


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_load_whose_server_stops_fails_cleanly_and_converges_after_restart(
    settings: Settings, reference: tuple
) -> None:
    scratch = replace(settings, neo4j_uri=f"bolt://127.0.0.1:{_free_port()}", neo4j_heap="768m", neo4j_pagecache="128m")
    local_server.start(scratch, echo=lambda _m: None)
    try:
        with open_driver(scratch) as driver:
            migrate(driver, scratch.neo4j_database)
            proc = _start_load(scratch)
            _wait_for_papers(driver, proc)
        local_server.stop(scratch)
        _, stderr = proc.communicate(timeout=300)
        assert proc.returncode == 1, stderr
        assert "UNAVAILABLE" in stderr and "Traceback" not in stderr

        local_server.start(scratch, echo=lambda _m: None)
        with open_driver(scratch) as driver:
            load_paths(driver, _works(), source="openalex", database=scratch.neo4j_database)
            assert graph_state(driver, scratch.neo4j_database) == reference
    finally:
        local_server.stop(scratch)
