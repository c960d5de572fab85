"""The page statements read with `values_only` return maps, lists and scalars only (issue 9).

`GraphReader.rows(..., values_only=True)` keeps the driver's values as they come instead of walking them
to turn nodes into property dicts. A node, relationship or path left anywhere in such a result would reach
the schema as a driver object, so every part of a researcher profile and of a paper page is read here,
with every property and with picked ones, for the busiest researchers and papers of the shared load.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from neo4j import Driver
from neo4j.graph import Node, Path, Relationship

from tests.unit.test_profile_statement import EVERY_PART
from weft.graph.driver import open_async_driver
from weft.graph.reads.papers import CitedByPart, PaperFilter, PaperParts, ReferencesPart, paper_key, paper_page
from weft.graph.reads.reader import GraphReader
from weft.graph.reads.researchers import ProfileParts
from weft.graph.settings import Settings
from weft.queries import read_papers as qp
from weft.queries import read_researchers as qr


def profile_parts(props: tuple[str, ...] | None) -> ProfileParts:
    """Every part of a profile (tests/unit/test_profile_statement.py), co-authors with their metrics and
    paper counts, the lists reading `props`."""
    assert EVERY_PART.papers is not None and EVERY_PART.coauthors is not None
    return replace(
        EVERY_PART,
        papers=replace(EVERY_PART.papers, props=props),
        coauthors=replace(EVERY_PART.coauthors, stats=True, paper_counts=True, props=props),
    )


def paper_parts(props: tuple[str, ...] | None) -> PaperParts:
    return PaperParts(
        authors=True,
        affiliations=True,
        author_stats=True,
        author_paper_counts=True,
        categories=True,
        researcher_props=props,
        cited_by=CitedByPart("MOST_CITED", 0, 5, props=props),
        references=ReferencesPart(0, 5, props=props),
    )


def graph_objects(value: Any) -> list[Any]:
    """The nodes, relationships and paths anywhere in `value`."""
    if isinstance(value, (Node, Relationship, Path)):
        return [value]
    if isinstance(value, dict):
        return [found for v in value.values() for found in graph_objects(v)]
    if isinstance(value, list):
        return [found for v in value for found in graph_objects(v)]
    return []


def read(driver: Driver, settings: Settings, query: str, params: dict[str, Any]) -> list[Any]:
    records, _, _ = driver.execute_query(query, params, database_=settings.neo4j_database)  # type: ignore[arg-type]
    assert records, "the statement found what it was asked for"
    return [record.values() for record in records]


def test_profile_and_paper_statements_return_no_graph_objects(all_sources_graph: Driver, settings: Settings) -> None:
    researchers, _, _ = all_sources_graph.execute_query(
        "MATCH (r:Researcher) RETURN r.id AS id ORDER BY COUNT { (r)-[:AUTHORED]->() } DESC, id LIMIT 3",
        database_=settings.neo4j_database,
    )
    papers, _, _ = all_sources_graph.execute_query(
        "MATCH (p:Paper) RETURN p.id AS id ORDER BY COUNT { (p)<-[:CITES]-() } + COUNT { (p)-[:CITES]->() } DESC, "
        "id LIMIT 3",
        database_=settings.neo4j_database,
    )
    checked = 0
    for props in (None, ("id", "name", "title", "year")):
        parts = profile_parts(props)
        for row in researchers:
            keys = [{"property": "id", "value": row["id"]}]
            for query in (qr.researcher_profile(parts.names(), "id"), qr.researcher_profile(parts.names())):
                values = read(all_sources_graph, settings, query, {"keys": keys, **parts.params()})
                assert graph_objects(values) == []
                checked += 1
        paper = paper_parts(props)
        for row in papers:
            keys = [{"property": "id", "value": row["id"]}]
            for query in (qp.PAPER_DETAILS_BY_KEY["id"], qp.PAPER_DETAILS):
                values = read(all_sources_graph, settings, query, {"keys": keys, **paper.params()})
                assert graph_objects(values) == []
                checked += 1
    assert checked == 24


@pytest.mark.asyncio
async def test_paper_pages_return_no_graph_objects(all_sources_graph: Driver, settings: Settings) -> None:
    """`paper_page` keeps the driver's values (`values_only`): every statement it runs (the whole graph's pages
    in each order, a researcher's, an institution's, a category's, a filtered one; first and later pages;
    every property and picked ones) returns maps, lists and scalars only."""
    db = settings.neo4j_database
    ids = all_sources_graph.execute_query(
        "MATCH (r:Researcher)-[:AUTHORED]->(p:Paper)-[:STATES_AFFILIATION]->(i:Institution), (p)-[:IN_CATEGORY]->(c) "
        "WHERE p.language = 'en' RETURN r.id AS r, i.id AS i, c.id AS c ORDER BY r.id, i.id, c.id LIMIT 1",
        database_=db,
    ).records[0]
    filters = [
        PaperFilter(),
        PaperFilter(year_from=2000),
        PaperFilter(researcher=ids["r"]),
        PaperFilter(institutions=[ids["i"]]),
        PaperFilter(categories=[ids["c"]]),
        PaperFilter(researcher=ids["r"], language="en"),
    ]
    async_driver = open_async_driver(settings)
    checked = 0
    try:
        reader = GraphReader(async_driver, db, settings.query_timeout_s)
        for where in filters:
            for sort in ("MOST_CITED", "NEWEST", "OLDEST"):
                for props in (None, ("id", "title", "year")):
                    first = await paper_page(reader, where, sort, None, 3, props)
                    assert first.rows and graph_objects(first.rows) == []
                    key = paper_key(first.rows[-1], sort)
                    after = await paper_page(reader, where, sort, key, 3, props)
                    assert graph_objects(after.rows) == []
                    checked += 1
    finally:
        await async_driver.close()
    assert checked == 36


def test_the_check_finds_a_node() -> None:
    """The walk above can fail: a node inside a list inside a map is found."""
    node = Node(None, "4:x:1", 1, ["Paper"], {"id": "p1"})  # type: ignore[arg-type]
    assert graph_objects([{"page": [1, {"x": node}]}]) == [node]
