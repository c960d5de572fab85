"""`weft migrate`, `weft reset`, `weft counts` against the real server."""

from __future__ import annotations

from neo4j import Driver
from typer.testing import CliRunner

from weft.graph.migrate import BACKFILLS, counts, migrate
from weft.graph.settings import Settings
from weft.queries import admin
from weft.server.cli import app

runner = CliRunner()


def _constraint_names(driver: Driver) -> set[str]:
    records, _, _ = driver.execute_query("SHOW CONSTRAINTS YIELD name RETURN name")
    return {r["name"] for r in records}


def test_migrate_is_idempotent_and_creates_every_constraint(driver: Driver, settings: Settings) -> None:
    for _ in range(2):
        result = runner.invoke(app, ["migrate"])
        assert result.exit_code == 0, result.output
    expected = {s.split()[2] for s in admin.CONSTRAINTS}
    assert expected <= _constraint_names(driver)


def test_migrate_says_each_step_and_backfills_what_an_older_load_lacks(driver: Driver) -> None:
    """A paper loaded without its sort keys or category ids (as by an older Weft) gets them, its category
    edge its keys; a same-name link loses the counts an older Weft stored on it; a second run writes
    nothing; each step is said with what it wrote."""
    assert runner.invoke(app, ["migrate"]).exit_code == 0  # whatever the database held before
    driver.execute_query(
        "CREATE (:Paper {id: 'p-migrate-1', cited_by_count: 3, year: 2020})"
        "-[:IN_CATEGORY]->(:Category {id: 'c-migrate-1'})"
    )
    driver.execute_query(
        "CREATE (:Researcher {id: 'r-migrate-1'})-[:SAME_NAME_AS {evidence: ['same name key: x'], "
        "shared_coauthors: 0, shared_institutions: 0, overlapping_years: 2}]->(:Researcher {id: 'r-migrate-2'})"
    )
    first = runner.invoke(app, ["migrate"])
    assert first.exit_code == 0, first.output
    assert "constraints and indexes online" in first.output
    assert "papers' sort keys: 5 properties backfilled" in first.output  # its two keys, its edge's three
    assert "papers' category ids: 1 property backfilled" in first.output
    assert "category edges' keys: 0 properties backfilled" in first.output  # set with the sort keys
    assert "co-author pair keys: 0 properties backfilled" in first.output  # the constraint stands
    assert "same-name links' stored counts: 4 properties backfilled" in first.output
    link = "MATCH (:Researcher {id: 'r-migrate-1'})-[s:SAME_NAME_AS]->() RETURN properties(s) AS s"
    assert [r["s"] for r in driver.execute_query(link).records] == [{}]
    records, _, _ = driver.execute_query(
        "MATCH (p:Paper {id: 'p-migrate-1'})-[r:IN_CATEGORY]->() "
        "RETURN p.sort_cited AS cited, p.sort_date AS date, p.category_ids AS ids, r {.*} AS edge"
    )
    assert (records[0]["cited"], records[0]["date"], records[0]["ids"]) == (3, "2020", ["c-migrate-1"])
    assert records[0]["edge"] == {"category": "c-migrate-1", "sort_cited": 3, "sort_date": "2020"}
    second = runner.invoke(app, ["migrate"])
    assert second.output.count(": 0 properties backfilled") == 5, second.output
    driver.execute_query(
        "MATCH (n) WHERE n.id IN ['p-migrate-1', 'c-migrate-1', 'r-migrate-1', 'r-migrate-2'] DETACH DELETE n"
    )


def _backfilled(driver: Driver) -> int | None:
    records, _, _ = driver.execute_query("MATCH (m:Meta {key: 'graph'}) RETURN m.backfilled AS round")
    return records[0]["round"] if records else None


def test_loads_run_each_round_of_backfills_once_and_weft_migrate_checks_again(
    driver: Driver, settings: Settings
) -> None:
    """A load's migration (recheck=False) runs the backfills on a graph that has not had this round, notes
    the round on the Meta node, then skips them (no paper is read); `weft migrate` still checks."""
    had_meta = bool(driver.execute_query("MATCH (m:Meta {key: 'graph'}) RETURN m").records)
    driver.execute_query("MERGE (m:Meta {key: 'graph'}) REMOVE m.backfilled")
    said: list[str] = []
    migrate(driver, settings.neo4j_database, said.append, recheck=False)
    assert any(m.startswith("papers' sort keys: ") for m in said), said  # never had them: they run
    assert _backfilled(driver) == BACKFILLS
    driver.execute_query("CREATE (:Paper {id: 'p-migrate-2', cited_by_count: 4, year: 2021})")  # no sort keys
    said.clear()
    migrate(driver, settings.neo4j_database, said.append, recheck=False)
    skipped = f"with {Settings.network_top_ties} top ties ran or was built before, not checked again"
    assert said[-1] == f"backfills: round {BACKFILLS} {skipped}", said
    assert not any("backfilled" in m for m in said)
    keys = "MATCH (p:Paper {id: 'p-migrate-2'}) RETURN p.sort_cited AS cited"
    assert driver.execute_query(keys).records[0]["cited"] is None  # skipped, so not mended
    checked = runner.invoke(app, ["migrate"])
    assert "papers' sort keys: 2 properties backfilled" in checked.output, checked.output
    assert driver.execute_query(keys).records[0]["cited"] == 4
    driver.execute_query("MATCH (p:Paper {id: 'p-migrate-2'}) DETACH DELETE p")
    if not had_meta:
        driver.execute_query("MATCH (m:Meta {key: 'graph'}) DETACH DELETE m")


def test_reset_asks_first_and_keeps_constraints(driver: Driver, settings: Settings) -> None:
    # a category with more edges than one of reset's transactions deletes (relationships go in batches first)
    driver.execute_query(
        "CREATE (c:Category {id: 'c-reset'}) WITH c UNWIND range(1, 12000) AS i "
        "CREATE (:Paper {id: 'p-reset-' + i})-[:IN_CATEGORY]->(c)"
    )
    declined = runner.invoke(app, ["reset"], input="n\n")
    assert declined.exit_code == 1
    assert counts(driver, settings.neo4j_database)["IN_CATEGORY"] == 12000

    accepted = runner.invoke(app, ["reset", "--yes"])
    assert accepted.exit_code == 0, accepted.output
    assert counts(driver, settings.neo4j_database) == {}
    assert {s.split()[2] for s in admin.CONSTRAINTS} <= _constraint_names(driver)


def test_counts_prints_each_label(driver: Driver) -> None:
    driver.execute_query("CREATE (:Researcher {id: 'r-count-1'})-[:AUTHORED]->(:Paper {id: 'p-count-1'})")
    result = runner.invoke(app, ["counts"])
    assert result.exit_code == 0
    assert "Researcher" in result.output and "AUTHORED" in result.output


def test_a_dead_database_is_a_clear_error_not_a_traceback(monkeypatch) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed_port = s.getsockname()[1]
    monkeypatch.setenv("NEO4J_URI", f"bolt://127.0.0.1:{closed_port}")
    result = runner.invoke(app, ["migrate"])
    assert result.exit_code == 1
    assert "UNAVAILABLE" in result.output and "Neo4j is unavailable" in result.output
    assert "Traceback" not in result.output
