"""The project's own Neo4j provisioning: start, status, idempotent start, password, stop."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from neo4j import GraphDatabase
from neo4j.exceptions import AuthError
from starlette.testclient import TestClient
from typer.testing import CliRunner

from tests.conftest import free_ports, server_env
from weft.graph import local_server
from weft.graph.driver import open_async_driver
from weft.graph.reads.reader import GraphReader
from weft.graph.settings import Settings, load_settings
from weft.server.app import create_app
from weft.server.cli import app
from weft.server.warm_up import NOT_SET_UP


def _port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def scratch_settings() -> Iterator[Settings]:
    """Settings for a throwaway instance on free Bolt and HTTP ports (never WEFT_NEO4J_HTTP_PORT's, which may be
    the session server's), with a small heap; its folder is removed after (a free port is new each run)."""
    base = load_settings()
    bolt, http = free_ports(2)
    scratch = replace(
        base,
        neo4j_uri=f"bolt://127.0.0.1:{bolt}",
        neo4j_http_port=http,
        neo4j_password="weft-test-password",
        neo4j_heap="512m",
        neo4j_pagecache="64m",
    )
    yield scratch
    local_server.stop(scratch)
    shutil.rmtree(local_server.Instance(scratch).home, ignore_errors=True)


def test_start_status_restart_and_stop_leave_nothing_behind(scratch_settings: Settings) -> None:
    instance = local_server.Instance(scratch_settings)
    try:
        env = {**server_env(scratch_settings), "NEO4J_PASSWORD": scratch_settings.neo4j_password}
        started = CliRunner().invoke(app, ["neo4j", "start"], env=env)
        assert started.exit_code == 0, started.output
        assert f"Neo4j started at {scratch_settings.neo4j_uri}" in started.output
        # A new database (not migrated, nothing loaded) is not warmed: its lookups lack their indexes (issue 48)
        assert NOT_SET_UP in started.output and "not warmed:" not in started.output, started.output
        pid = local_server.read_pid(instance)
        assert pid is not None
        conf = (instance.conf_dir / "neo4j.conf").read_text()
        assert f"server.bolt.listen_address=127.0.0.1:{scratch_settings.bolt_port}" in conf
        assert "dbms.usage_report.enabled=false" in conf
        assert "dbms.security.auth_enabled=true" in conf

        assert "answers (local instance pid" in local_server.status(scratch_settings)
        assert local_server.start(scratch_settings).startswith("Neo4j already answers")
        assert local_server.read_pid(instance) == pid
        store = local_server.store_bytes(scratch_settings)
        assert store > 64 * 1024, "a new database's store files are there"
        ample = CliRunner().invoke(app, ["neo4j", "start"], env=env)
        assert ample.exit_code == 0 and "already answers" in ample.output and "warning" not in ample.output
        assert "warmed" not in ample.output  # a server that was already up is left alone
        small = CliRunner().invoke(app, ["neo4j", "start"], env={**env, "WEFT_NEO4J_PAGECACHE": "8k"})
        assert small.exit_code == 0 and "warning: the page cache (8k) holds" in small.output, small.output
        assert "WEFT_NEO4J_PAGECACHE=1g" in small.output

        with GraphDatabase.driver(scratch_settings.neo4j_uri, auth=scratch_settings.auth) as driver:
            records, _, _ = driver.execute_query("RETURN 41 + 1 AS answer")
            assert records[0]["answer"] == 42
        with (
            GraphDatabase.driver(scratch_settings.neo4j_uri, auth=("neo4j", "wrong")) as driver,
            pytest.raises(AuthError),
        ):
            driver.verify_connectivity()
        assert not (instance.home / "run" / "initial-password.args").exists()  # the password file is gone

        # issue 11 item 1: a wrong password is reported as such, and the running server is never stopped
        wrong = replace(scratch_settings, neo4j_password="wrong-password")
        with pytest.raises(local_server.CredentialsRefused, match="refuses the credentials"):
            local_server.start(wrong, echo=lambda _m: None)
        result = CliRunner().invoke(app, ["neo4j", "start"], env={**env, "NEO4J_PASSWORD": "wrong-password"})
        assert result.exit_code == 1 and "UNAUTHENTICATED" in result.output, result.output
        assert "left running" in result.output
        # issue 48: the API reports refused credentials as the database being unavailable, not as bad input
        with TestClient(create_app(replace(wrong, response_cache_mb=0))) as http:
            answer = http.post(
                "/graphql",
                json={"query": '{ researcher(id: "A5032473237") { name } }'},
                headers={"accept": "application/graphql-response+json"},
            )
        assert answer.status_code == 503 and answer.json()["errors"][0]["extensions"]["code"] == "UNAVAILABLE"
        time.sleep(6)  # Neo4j locks the user for 5 s after three failed logins
        assert local_server.read_pid(instance) == pid
        assert local_server.bolt_answers(scratch_settings)
    finally:
        stopped = local_server.stop(scratch_settings)
    assert stopped == f"Neo4j on port {scratch_settings.bolt_port} stopped"
    assert local_server.read_pid(instance) is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert not _port_open(scratch_settings.bolt_port)
    # issue 48 item 16: after a stop, nothing runs; it is not a server someone else started
    assert local_server.status(scratch_settings) == f"{scratch_settings.neo4j_uri}: does not answer (not running)"
    assert local_server.stop(scratch_settings).startswith("no local Neo4j running")


def test_only_a_local_uri_is_started() -> None:
    assert local_server.is_local(replace(load_settings(), neo4j_uri="bolt://localhost:7700"))
    assert not local_server.is_local(replace(load_settings(), neo4j_uri="neo4j://db.example.org:7687"))


def test_status_of_a_port_where_nothing_runs_says_so(tmp_path: Path) -> None:
    """Issue 48 item 16: right after a stop (no pid file, nothing answering), nothing runs; the line does not
    blame someone else's server."""
    idle = replace(load_settings(), neo4j_uri=f"bolt://127.0.0.1:{free_ports(1)[0]}", neo4j_home=tmp_path)
    assert local_server.status(idle) == f"{idle.neo4j_uri}: does not answer (not running)"


@pytest.mark.asyncio
async def test_a_read_from_the_local_server_starts_no_task_per_message(settings: Settings) -> None:
    """The local server sends no read timeout hint (Bolt keep-alive off), so the async driver reads a result's
    messages without a task and a timer each: one read of 50 rows starts at most the task of its write."""
    driver = open_async_driver(settings)
    try:
        reader = GraphReader(driver, settings.neo4j_database, settings.query_timeout_s)
        await reader.rows("UNWIND range(1, 50) AS x RETURN x", {}, "warming the pool")
        loop = asyncio.get_running_loop()
        started: list[object] = []

        def counting(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
            started.append(coro)
            return asyncio.Task(coro, loop=loop, **kwargs)

        loop.set_task_factory(counting)
        try:
            rows = await reader.rows("UNWIND range(1, 50) AS x RETURN x", {}, "reading 50 rows")
        finally:
            loop.set_task_factory(None)
    finally:
        await driver.close()
    assert len(rows) == 50 and len(started) <= 2
