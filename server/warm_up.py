"""Warming a freshly started Neo4j with the API's own queries, so its first clients find them planned.

Issue 11: after a restart, the first request of each shape waited for Neo4j to plan its Cypher on a cold
JVM (seconds each on two busy cores), and clients hitting it at once all waited past the request
deadline. `weft neo4j start` therefore runs the README's shapes (and the smallest lookups) through the
schema in-process, with an id that matches nothing: the same statements with the same parameter types
as real requests, planned and cached before `start` returns, at the cost of a few seconds there. A new
database (none of the schema `weft migrate` creates) is not warmed: its lookups lack their indexes, and a
load or `weft migrate` comes first.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from neo4j import READ_ACCESS, AsyncDriver
from neo4j.exceptions import DriverError, Neo4jError
from strawberry.schema.base import BaseSchema

from weft.graph.driver import open_async_driver
from weft.graph.settings import Settings
from weft.queries import admin
from weft.schema.context import Context
from weft.schema.root import build_schema
from weft.server.health import SCHEMA_NAMES

NO_SUCH_ID = "warm-up-matches-nothing"

WARM_QUERIES: tuple[str, ...] = (
    """query ResearcherProfile($id: String!) { researcher(id: $id) {
      id name canonicalUrl paperCount citationCount hIndex i10Index worksCount { source value }
      authorPositions { first middle last matchedPapers } fields(scheme: "field", first: 3) { category { name } count }
      mostCitedPaper { title citedByCount } institutions { institution { name ror } firstYear lastYear paperCount }
      identities { source id url }
      papers(first: 5, sort: NEWEST) { totalCount pageInfo { hasNextPage endCursor } edges { node { title year } } }
      coauthors(first: 5) { totalCount edges { node { weight researcher { name paperCount } } } } } }""",
    """query PaperPage($id: String!) { paper(id: $id) {
      id slug title year publicationDate doi citedByCount
      authors { position researcher { id name } affiliations { name } }
      categories { category { name scheme } score }
      citedBy(first: 5) { totalCount edges { node { title } } }
      references(first: 5) { totalCount edges { node { title } } } } }""",
    """query InstitutionRoster($id: String!) { institution(id: $id) {
      name country ids { source id url } parent { name }
      roster(first: 10) { totalCount edges { node { paperCount firstYear lastYear researcher { name } } } }
      mostCited(first: 3) { title citedByCount }
      collaborators(first: 5) { edges { node { weight institution { name } } } } } }""",
    "query($id: String!) { researcher(id: $id) { id name } paper(id: $id) { id title } }",
    "query($id: String!) { institution(id: $id) { id name } }",
    "{ mostCited(first: 20) { edges { node { id title year citedByCount } } } }",
)


NOT_SET_UP = (
    "not warming the API's queries: the database is new (a load or `weft migrate` sets it up; "
    "the next `weft neo4j start` warms them)"
)
"""What `weft neo4j start` says when `warm_up` found no schema to warm queries on."""


async def has_schema(driver: AsyncDriver, settings: Settings) -> bool:
    """Whether any constraint or index `weft migrate` creates is in the database (True when it cannot tell:
    the warm-up then runs and reports what fails)."""
    try:
        async with driver.session(database=settings.neo4j_database, default_access_mode=READ_ACCESS) as session:
            result = await session.run(admin.SCHEMA_STATE)
            names = {record["name"] async for record in result}
    except (Neo4jError, DriverError):
        return True
    return not names.isdisjoint(SCHEMA_NAMES)


async def warm_up(
    settings: Settings, driver: AsyncDriver | None = None, schema: BaseSchema | None = None
) -> tuple[int, float, list[str]] | None:
    """Run every WARM_QUERIES document once; returns (documents answered without error, seconds, the errors),
    or None on a database with none of Weft's schema yet (nothing run).

    With `driver` and `schema` (a serving worker's, server/availability.py) it runs through those and leaves
    the driver open; without, it builds its own and closes the driver (`weft neo4j start`)."""
    schema = schema or build_schema()
    began = time.monotonic()
    answered, errors = 0, list[str]()
    own = driver is None
    driver = open_async_driver(settings) if driver is None else driver
    try:
        if not await has_schema(driver, settings):
            return None
        for document in WARM_QUERIES:
            context: Any = Context(
                request=None,  # type: ignore[arg-type] - no HTTP request: nothing here reads it
                response=None,
                driver=driver,
                settings=settings,
                request_id=f"warm-up-{uuid.uuid4().hex[:8]}",
            )
            variables = {"id": NO_SUCH_ID} if "$id" in document else None
            result = await schema.execute(document, variable_values=variables, context_value=context)
            answered += not result.errors
            errors += [e.message for e in result.errors or ()]
    finally:
        if own:
            await driver.close()
    return answered, time.monotonic() - began, errors
