"""GraphReader's rows are what `Record.data()` would give, from one auto-commit read per call."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from neo4j import AsyncDriver
from neo4j.time import Date

from weft.graph.driver import open_async_driver
from weft.graph.reads.reader import GraphReader, plain
from weft.graph.settings import Settings

# Created inside a transaction that is rolled back: the database is left as it was.
GRAPH = """
CREATE p = (a:ReaderProbe {name: 'a', born: date('1970-01-02'), tags: ['x', 'y']})
  -[r:PROBED {weight: 2.5}]->(b:ReaderProbe {name: 'b', at: point({x: 1.0, y: 2.0})})
RETURN a, r, b, p, [a, b] AS nodes, {first: a, rel: r, n: null, ok: true} AS map, 7 AS n, 'text' AS s
"""


@pytest.fixture
async def async_driver(settings: Settings) -> AsyncIterator[AsyncDriver]:
    driver = open_async_driver(settings)
    yield driver
    await driver.close()


async def test_plain_spells_nodes_relationships_and_paths_as_record_data(
    async_driver: AsyncDriver, settings: Settings
) -> None:
    async with async_driver.session(database=settings.neo4j_database) as session:
        tx = await session.begin_transaction()
        try:
            result = await tx.run(GRAPH)
            record = await result.single(strict=True)
            assert {key: plain(value) for key, value in record.items()} == record.data()
            assert plain(record["p"]) == [
                {"name": "a", "born": Date(1970, 1, 2), "tags": ["x", "y"]},
                "PROBED",
                plain(record["b"]),
            ]
        finally:
            await tx.rollback()


async def test_rows_are_plain_dicts_one_query_each(async_driver: AsyncDriver, settings: Settings) -> None:
    reader = GraphReader(async_driver, settings.neo4j_database, settings.query_timeout_s)
    rows = await reader.rows(
        "UNWIND range(1, $n) AS i RETURN i, {i: i, on: date('2020-01-0' + i)} AS m, [i, 'x'] AS l", {"n": 2}, "rows"
    )
    assert rows == [
        {"i": 1, "m": {"i": 1, "on": Date(2020, 1, 1)}, "l": [1, "x"]},
        {"i": 2, "m": {"i": 2, "on": Date(2020, 1, 2)}, "l": [2, "x"]},
    ]
    assert await reader.one("RETURN 1 AS x LIMIT 0", {}, "none") is None
    assert reader.queries_run == 2
