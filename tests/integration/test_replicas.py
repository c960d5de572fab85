"""Read replicas (issue 15): one dump, two read-only servers, the same API answers through either.

Neo4j Community dumps only an offline database and cannot take one offline while its server runs, so the
dump does not come from the session's server (stopping it would pull it from under the other modules, or
from under whoever runs it when NEO4J_URI is theirs). As tests/integration/test_bulk_path.py does for its
import, a primary of this module's own is started on WEFT_REPLICA_TEST_PORTS' first port (default: free ports),
loaded with the bundled OpenAlex slice (demo/data/openalex, itself a slice of the shared data) and asked
the API's questions; `weft replicas dump` stops it and dumps it; `weft replicas start` loads the one dump
into read-only servers on the other ports. Everything is stopped and removed at
the end of the module.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from neo4j.exceptions import ClientError
from starlette.testclient import TestClient
from typer.testing import CliRunner

from tests.api.test_ready import health_app
from tests.conftest import free_ports
from weft.graph import local_server
from weft.graph.driver import open_driver
from weft.graph.settings import PROJECT_ROOT, Settings, load_settings
from weft.graph.writer_lock import writer_lock
from weft.loaders.run import load_paths
from weft.server.app import create_app
from weft.server.cli import app as cli
from weft.server.cli import replicas as replicas_cli

# the primary's and the replicas' Bolt ports: WEFT_REPLICA_TEST_PORTS, else three free ports (none has HTTP)
PORTS = (
    [int(p) for p in os.environ["WEFT_REPLICA_TEST_PORTS"].split(",")]
    if os.environ.get("WEFT_REPLICA_TEST_PORTS")
    else free_ports(3)
)
PRIMARY_PORT, REPLICA_PORTS = PORTS[0], PORTS[1:]
SLICE = PROJECT_ROOT / "demo" / "data" / "openalex"

QUERIES: dict[str, str] = {
    "researcher": """{
      researcher(id: "A5032473237") {
        id name paperCount citationCount hIndex
        institutions { institution { name ror } firstYear lastYear paperCount }
        papers(first: 5, sort: NEWEST) { totalCount edges { cursor node { id title year citedByCount } } }
        coauthors(first: 5) { totalCount edges { node { weight researcher { id name paperCount } } } }
      }
    }""",
    "paper": """{
      paper(id: "W3000695681") {
        id title year doi citedByCount
        authors { position rank researcher { id name } affiliations { name country } }
        references(first: 5) { totalCount edges { node { title } } }
      }
    }""",
    "mostCited": """{
      mostCited(category: "field:17", first: 5) {
        totalCount edges { cursor node { id title year citedByCount authors { researcher { name } } } }
      }
    }""",
}


# Bounds a hang only (two replicas plan at once on a busy machine); never a speed check.
HANG_S = 300.0


def answers(settings: Settings) -> dict[str, Any]:
    """Every query of QUERIES through the app (response cache off) on `settings`' server."""
    found: dict[str, Any] = {}
    unhurried = dataclasses.replace(settings, response_cache_mb=0, request_deadline_s=HANG_S, query_timeout_s=HANG_S)
    with TestClient(create_app(unhurried)) as http:
        for name, query in QUERIES.items():
            response = http.post("/graphql", json={"query": query})
            assert response.status_code == 200, response.text
            body = response.json()
            assert "errors" not in body, body["errors"]
            found[name] = body["data"]
    return found


def _env(settings: Settings) -> dict[str, str]:
    return {
        "NEO4J_URI": settings.neo4j_uri,
        "WEFT_NEO4J_HTTP_PORT": "0",
        "WEFT_NEO4J_HEAP": settings.neo4j_heap,
        "WEFT_NEO4J_PAGECACHE": settings.neo4j_pagecache,
    }


@pytest.fixture(scope="module")
def primary() -> Settings:
    """The module's own primary: small memory, no HTTP connector."""
    return dataclasses.replace(
        load_settings(),
        neo4j_uri=f"bolt://127.0.0.1:{PRIMARY_PORT}",
        neo4j_http_port=0,
        neo4j_heap="512m",
        neo4j_pagecache="64m",
    )


@pytest.fixture(scope="module")
def deployed(primary: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The primary loaded and asked, a dump refused under a running writer, then dumped (`weft replicas dump`),
    two replicas started from the dump (`weft replicas start`); yields the primary's answers, the dump and the
    replicas' settings."""
    for port in PORTS:
        assert not local_server.port_in_use("127.0.0.1", port), f"port {port} is taken; set WEFT_REPLICA_TEST_PORTS"
    runner = CliRunner()
    dump_dir = tmp_path_factory.mktemp("replicas") / "dump"
    replicas = [replicas_cli.replica_settings(primary, port) for port in REPLICA_PORTS]
    try:
        shutil.rmtree(local_server.Instance(primary).home, ignore_errors=True)  # a fresh, empty store
        local_server.start(primary, echo=lambda _m: None)
        with open_driver(primary) as driver:
            load_paths(driver, [SLICE], source="openalex", database=primary.neo4j_database)
        expected = answers(primary)

        with open_driver(primary) as driver, writer_lock(driver, primary.neo4j_database, "load openalex (test)"):
            refused = runner.invoke(cli, ["replicas", "dump", str(dump_dir)], env=_env(primary))
        assert refused.exit_code == 1, refused.output
        assert "WRITER_BUSY" in refused.output and "`weft load openalex (test)`" in refused.output
        assert local_server.bolt_answers(primary) and not dump_dir.exists()  # not stopped under a writer

        dumped = runner.invoke(cli, ["replicas", "dump", str(dump_dir), "--no-restart"], env=_env(primary))
        assert dumped.exit_code == 0, dumped.output
        assert "Community dumps only offline databases" in dumped.output
        assert not local_server.bolt_answers(primary)  # --no-restart: the primary stays down

        ports = ",".join(map(str, REPLICA_PORTS))
        started = runner.invoke(
            cli, ["replicas", "start", "--from", str(dump_dir), "--ports", ports], env=_env(primary)
        )
        assert started.exit_code == 0, started.output
        for replica in replicas:
            assert f"replica :{replica.bolt_port}: loaded neo4j.dump" in started.output
            assert replica.neo4j_uri in started.output
        yield {"expected": expected, "dump": dump_dir / "neo4j.dump", "replicas": replicas}
    finally:
        replicas_cli.stop_replicas(
            primary,
            [p for p in REPLICA_PORTS if p in replicas_cli.replica_ports(primary)],
            delete=True,
            echo=lambda _m: None,
        )
        local_server.stop(primary)
        shutil.rmtree(local_server.Instance(primary).home, ignore_errors=True)


def test_the_dump_is_one_file_the_replicas_say_where_they_come_from(
    deployed: dict[str, Any], primary: Settings
) -> None:
    dump: Path = deployed["dump"]
    assert dump.is_file() and dump.stat().st_size > 100_000
    status = CliRunner().invoke(cli, ["replicas", "status"], env=_env(primary))
    assert status.exit_code == 0, status.output
    for replica in deployed["replicas"]:
        assert f"{replica.neo4j_uri}: answers (local instance pid" in status.output
        conf = (local_server.Instance(replica).conf_dir / "neo4j.conf").read_text()
        assert "server.databases.default_to_read_only=true\n" in conf
    assert status.output.count(f"read-only, loaded from {dump.resolve()}") == len(REPLICA_PORTS)


def test_replicas_refuse_writes_and_hold_the_primarys_graph(deployed: dict[str, Any]) -> None:
    for replica in deployed["replicas"]:
        with open_driver(replica) as driver:
            with pytest.raises(ClientError) as refused:
                driver.execute_query(
                    "CREATE (:Probe {at: $port})", port=replica.bolt_port, database_=replica.neo4j_database
                )
            assert "read" in (refused.value.code or "").lower() or "read-only" in (refused.value.message or "")
            records, _, _ = driver.execute_query(
                "MATCH (m:Meta {key: 'graph'}) RETURN m.data_version AS v", database_=replica.neo4j_database
            )
            assert records[0]["v"] >= 1  # the load's data version came with the dump
            probes, _, _ = driver.execute_query(
                "MATCH (p:Probe) RETURN count(p) AS n", database_=replica.neo4j_database
            )
            assert probes[0]["n"] == 0


def test_replicas_are_ready_with_the_schema_that_came_with_the_dump(deployed: dict[str, Any]) -> None:
    for replica in deployed["replicas"]:
        with TestClient(health_app(replica)) as http:
            ready = http.get("/ready")
        assert ready.status_code == 200, ready.text
        assert ready.json()["status"] == "ready"


def test_api_answers_are_identical_through_either_replica_and_the_primarys(deployed: dict[str, Any]) -> None:
    expected = deployed["expected"]
    # the answers are about something: the slice has Butcher's profile, the paper and a ranking
    assert expected["researcher"]["researcher"]["paperCount"] > 0
    assert expected["researcher"]["researcher"]["coauthors"]["totalCount"] > 0
    assert expected["paper"]["paper"]["authors"]
    assert len(expected["mostCited"]["mostCited"]["edges"]) == 5
    with ThreadPoolExecutor(max_workers=len(deployed["replicas"])) as pool:  # both replicas plan at once
        through = list(pool.map(answers, deployed["replicas"]))
    for got in through:
        assert got == expected
    assert through[0] == through[1]


def test_replica_commands_refuse_busy_ports_missing_dumps_and_non_replicas(
    deployed: dict[str, Any], primary: Settings, tmp_path: Path
) -> None:
    runner = CliRunner()
    env = _env(primary)
    busy = runner.invoke(
        cli, ["replicas", "start", "--from", str(deployed["dump"]), "--ports", str(REPLICA_PORTS[0])], env=env
    )
    assert busy.exit_code == 2
    assert f"port {REPLICA_PORTS[0]} is busy: a replica runs there" in busy.output
    missing = runner.invoke(cli, ["replicas", "start", "--from", str(tmp_path), "--ports", "7979"], env=env)
    assert missing.exit_code == 2
    assert f"dump not found: no neo4j.dump in the folder {tmp_path}" in missing.output
    own = runner.invoke(
        cli, ["replicas", "start", "--from", str(deployed["dump"]), "--ports", str(PRIMARY_PORT)], env=env
    )
    assert own.exit_code == 2 and "is NEO4J_URI's" in own.output
    not_replica = runner.invoke(cli, ["replicas", "stop", "--ports", str(PRIMARY_PORT)], env=env)
    assert not_replica.exit_code == 2 and f"port {PRIMARY_PORT} is not a replica" in not_replica.output
