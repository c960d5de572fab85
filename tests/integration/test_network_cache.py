"""The network cache against the real server: a repeat reads only the version; a reset followed by
a different load (data_version back at 1) is not mistaken for the old graph."""

from __future__ import annotations

import json

import pytest
from neo4j import Driver

from tests.conftest import shared_path
from weft.graph.driver import open_async_driver
from weft.graph.migrate import reset
from weft.graph.network import NetworkParams, network_from_row, researcher_network, shape_of
from weft.graph.network_cache import VersionedCache
from weft.graph.reads.reader import GraphReader
from weft.graph.settings import Settings
from weft.loaders.run import load_paths
from weft.queries import network as q

KUNCHEVA = "A5039168231"
FAITHFULL_WORKS = ("openalex", "works", "author_works", "academic_explorer_author_A5017572309_works.json")
KUNCHEVA_WORKS = ("openalex", "works", "author_works", "academic_explorer_author_A5039168231_works.json")


def coauthors_in(parts: tuple[str, ...], author: str) -> set[str]:
    """OpenAlex ids of everyone sharing a work with `author` in one raw file (plus the author)."""
    found: set[str] = set()
    for work in json.loads(shared_path(*parts).read_text(encoding="utf-8")):
        ids = {a["author"]["id"].rsplit("/", 1)[-1] for a in work["authorships"] if a["author"].get("id")}
        if author in ids:
            found |= ids
    return found


async def network_openalex_ids(driver: Driver, settings: Settings, cache: VersionedCache) -> tuple[set[str], int]:
    async_driver = open_async_driver(settings)
    try:
        reader = GraphReader(async_driver, settings.neo4j_database, settings.query_timeout_s)
        network = await researcher_network(reader, KUNCHEVA, NetworkParams(depth=1), cache=cache)
        queries = reader.queries_run
    finally:
        await async_driver.close()
    records, _, _ = driver.execute_query(
        "MATCH (r:Researcher) WHERE r.id IN $ids RETURN r.openalex_id AS oa", ids=list(network.graph.nodes)
    )
    return {r["oa"] for r in records}, queries


@pytest.mark.asyncio
async def test_reset_and_a_different_load_are_not_served_from_cache(driver: Driver, settings: Settings) -> None:
    cache = VersionedCache()
    db = settings.neo4j_database
    load_paths(driver, [shared_path(*FAITHFULL_WORKS)], source="openalex", database=db)
    first, queries = await network_openalex_ids(driver, settings, cache)
    # a network the cache does not hold: the version, the look-up and the network in one read
    assert first == coauthors_in(FAITHFULL_WORKS, KUNCHEVA) and queries == 1
    again, queries = await network_openalex_ids(driver, settings, cache)
    assert again == first and queries == 1 and cache.hits == 1
    version = driver.execute_query("MATCH (m:Meta {key: 'graph'}) RETURN m.data_version AS v").records[0]["v"]

    reset(driver, db)
    load_paths(driver, [shared_path(*KUNCHEVA_WORKS)], source="openalex", database=db)
    # the same data_version as before the reset (each load's count of transactions may meet another's)
    driver.execute_query("MATCH (m:Meta {key: 'graph'}) SET m.data_version = $v", v=version, database_=db)
    second, queries = await network_openalex_ids(driver, settings, cache)
    assert queries >= 3
    assert second == coauthors_in(KUNCHEVA_WORKS, KUNCHEVA) != first


@pytest.mark.asyncio
async def test_a_miss_read_in_one_query_is_the_network_the_three_query_path_reads(
    driver: Driver, settings: Settings
) -> None:
    """VERSIONED_EGO_NETWORK (version, look-up by any key, network: one round trip) answers what the data
    version read, the look-up and EGO_NETWORK answer, stored and windowed, for ids in each form."""
    db = settings.neo4j_database
    load_paths(driver, [shared_path(*KUNCHEVA_WORKS)], source="openalex", database=db)
    internal = driver.execute_query("MATCH (r:Researcher {openalex_id: $oa}) RETURN r.id AS id", oa=KUNCHEVA)
    centre = internal.records[0]["id"]
    async_driver = open_async_driver(settings)
    try:
        checked = 0
        for params in (NetworkParams(depth=1), NetworkParams(depth=2, limit=5), NetworkParams(year_from=2010)):
            for raw in (KUNCHEVA, centre, f"https://openalex.org/{KUNCHEVA}"):
                reader = GraphReader(async_driver, db, settings.query_timeout_s)
                folded = await researcher_network(reader, raw, params, cache=VersionedCache())
                assert folded is not None and reader.queries_run == 1
                row = await reader.one(
                    q.EGO_NETWORK_WINDOWED if params.windowed else q.EGO_NETWORK,
                    {"id": centre, **shape_of(params.validated())},
                    "the three-query path's network",
                    values_only=True,
                )
                assert row is not None
                apart = network_from_row(row)
                seen = (folded.nodes, folded.ties, folded.total_node_count, folded.truncated, folded.explored_depth)
                assert seen == (apart.nodes, apart.ties, apart.total_node_count, apart.truncated, apart.explored_depth)
                checked += 1
        reader = GraphReader(async_driver, db, settings.query_timeout_s)
        assert await researcher_network(reader, "A0000000000", NetworkParams(), cache=VersionedCache()) is None
    finally:
        await async_driver.close()
    assert checked == 9
