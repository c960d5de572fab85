"""`weft cypher` against the real server: read transactions only, formats, parameters, row cap,
timeout and clear messages for bad queries."""

from __future__ import annotations

import csv
import http.server
import io
import json
import socketserver
import threading

import pytest
from neo4j import Driver
from typer.testing import CliRunner

from weft.graph.errors import InvalidInput, Unavailable
from weft.graph.settings import Settings
from weft.server.cli import app as cli_app
from weft.server.cli.analysis import run_read


def weft(*args: str):
    return CliRunner().invoke(cli_app, list(args))


def test_a_write_is_refused_and_nothing_is_written(driver: Driver) -> None:
    result = weft("cypher", "CREATE (n:Scratch {at: 1}) RETURN n")
    assert result.exit_code == 2
    assert "refused" in result.output and "read-only" in result.output
    merge = weft("cypher", "MERGE (m:Meta {key: 'graph'}) SET m.data_version = 99 RETURN m")
    assert merge.exit_code == 2 and "refused" in merge.output
    assert driver.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"] == 0


# issue 11 item 8: what the guard refuses (planned with EXPLAIN, never run) and a few reads it allows.
REFUSED = [
    "TERMINATE TRANSACTIONS 'neo4j-transaction-1'",
    "SHOW TRANSACTIONS",
    "SHOW USERS",
    "SHOW DATABASES",
    "SHOW SETTINGS",
    "SHOW PROCEDURES",
    "CALL db.clearQueryCaches()",
    "CALL dbms.listConfig()",
    "CALL dbms.components()",
    "CALL db.stats.clear('QUERIES')",
    "MATCH (n) WITH n LIMIT 1 CALL db.clearQueryCaches() YIELD value RETURN value",
    "CALL { CALL dbms.listConfig() YIELD name RETURN name } RETURN name",
    "LOAD CSV FROM 'file:///etc/passwd' AS row RETURN row",
    "CREATE INDEX scratch_a FOR (n:Scratch) ON (n.a)",
    "CALL { CREATE (:Scratch) } IN TRANSACTIONS",
    "STOP DATABASE neo4j",
    "USE system SHOW USERS",
]


@pytest.mark.parametrize("query", REFUSED)
def test_administration_commands_procedures_and_load_csv_are_refused(driver: Driver, query: str) -> None:
    result = weft("cypher", query)
    assert result.exit_code == 2, result.output
    assert "BAD_USER_INPUT" in result.output and "Traceback" not in result.output
    assert weft("cypher", "RETURN 1 AS alive", "--format", "json").exit_code == 0  # the database still runs
    assert driver.execute_query("MATCH (n:Scratch) RETURN count(n) AS n").records[0]["n"] == 0
    indexes = driver.execute_query("SHOW INDEXES YIELD name WHERE name = 'scratch_a' RETURN count(*) AS n")
    assert indexes.records[0]["n"] == 0


def test_load_csv_fetches_no_url(driver: Driver) -> None:
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"a,b\n1,2\n")

        def log_message(self, *args: object) -> None:
            return

    with socketserver.TCPServer(("127.0.0.1", 0), Handler) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            url = f"http://127.0.0.1:{server.server_address[1]}/secret.csv"
            result = weft("cypher", f"LOAD CSV FROM '{url}' AS row RETURN row")
        finally:
            server.shutdown()
    assert result.exit_code == 2 and "LOAD CSV is not allowed" in result.output
    assert hits == []


@pytest.mark.parametrize(
    "query", ["CALL db.labels() YIELD label RETURN count(label) AS n", "MATCH (n) RETURN count(n) AS n"]
)
def test_reads_and_schema_listing_procedures_are_allowed(driver: Driver, query: str) -> None:
    result = weft("cypher", query, "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)[0]["n"] >= 0


def test_the_read_path_refuses_writes_directly(driver: Driver, settings: Settings) -> None:
    with pytest.raises(InvalidInput) as caught:
        run_read(driver, "CREATE (:Scratch)", {}, settings.neo4j_database, 10, 10)
    assert caught.value.argument == "query"


def test_parameters_and_the_three_formats(driver: Driver) -> None:
    query = "UNWIND range(1, $n) AS i RETURN i, $name AS name, i * 2 AS twice"
    as_json = weft("cypher", query, "--param", "n=3", "--param", "name=Ada Lovelace", "--format", "json")
    assert as_json.exit_code == 0, as_json.output
    assert json.loads(as_json.stdout) == [{"i": i, "name": "Ada Lovelace", "twice": 2 * i} for i in (1, 2, 3)]
    as_csv = weft("cypher", query, "-p", "n=2", "-p", 'name="x,y"', "--format", "csv")
    assert list(csv.reader(io.StringIO(as_csv.stdout))) == [
        ["i", "name", "twice"],
        ["1", "x,y", "2"],
        ["2", "x,y", "4"],
    ]
    as_table = weft("cypher", query, "-p", "n=1", "-p", "name=Grace")
    assert as_table.exit_code == 0 and "Grace" in as_table.stdout and "twice" in as_table.stdout


def test_row_cap_says_it_cut(driver: Driver) -> None:
    result = weft("cypher", "UNWIND range(1, 50) AS i RETURN i", "--max-rows", "5", "--format", "json")
    assert result.exit_code == 0
    assert [row["i"] for row in json.loads(result.stdout)] == [1, 2, 3, 4, 5]
    assert "only the first 5 rows" in result.output


def test_nodes_come_out_as_property_maps(driver: Driver) -> None:
    driver.execute_query("CREATE (:Scratch {name: 'n1'})-[:LINKS {w: 2}]->(:Scratch {name: 'n2'})")
    result = weft("cypher", "MATCH (a)-[r]->(b) RETURN a, r, b", "--format", "json")
    assert json.loads(result.stdout) == [
        {
            "a": {"_labels": ["Scratch"], "name": "n1"},
            "r": {"_type": "LINKS", "w": 2},
            "b": {"_labels": ["Scratch"], "name": "n2"},
        }
    ]


def test_bad_queries_and_options_get_clear_messages(driver: Driver, settings: Settings) -> None:
    syntax = weft("cypher", "MATCH (n) RETURN n LIMIT")
    assert syntax.exit_code == 2 and "BAD_USER_INPUT" in syntax.output and "Traceback" not in syntax.output
    assert weft("cypher", "RETURN 1", "--format", "xml").exit_code == 2
    assert weft("cypher", "RETURN 1", "--param", "novalue").exit_code == 2
    with pytest.raises(Unavailable, match="timed out"):
        run_read(
            driver,
            "UNWIND range(1, 100000000) AS i WITH i WHERE i % 7 = 99 RETURN count(*)",
            {},
            settings.neo4j_database,
            0.5,
            10,
        )
