"""`weft cypher` against the real server: read transactions only, formats, parameters, row cap,
timeout and clear messages for bad queries."""

from __future__ import annotations

import csv
import io
import json

import pytest
from neo4j import Driver
from typer.testing import CliRunner

from weft.graph.errors import InvalidInput, Unavailable
from weft.graph.settings import Settings
from weft.server.cli import app as cli_app
from weft.server.cli.analysis import run_read


def weft(*args: str):
    return CliRunner().invoke(cli_app, list(args))


def test_a_write_is_refused_by_the_database_and_nothing_is_written(driver: Driver) -> None:
    result = weft("cypher", "CREATE (n:Scratch {at: 1}) RETURN n")
    assert result.exit_code == 2
    assert "refused" in result.output and "read transaction" in result.output
    merge = weft("cypher", "MERGE (m:Meta {key: 'graph'}) SET m.data_version = 99 RETURN m")
    assert merge.exit_code == 2 and "refused" in merge.output
    assert driver.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"] == 0


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
