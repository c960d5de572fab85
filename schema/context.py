"""The typed per-request context: the process's driver, settings, this request's reader and DataLoaders."""

from __future__ import annotations

from dataclasses import dataclass, field

from neo4j import AsyncDriver
from starlette.requests import Request
from starlette.responses import Response
from strawberry.types import Info as StrawberryInfo

from weft.graph.reads.reader import GraphReader
from weft.graph.settings import Settings
from weft.schema.support.dataloaders import Loaders


@dataclass
class Context:
    """What every resolver gets as `info.context`.

    `reader` runs this request's Cypher (and counts it); `data` holds the request's DataLoaders.
    """

    request: Request
    response: Response | None
    driver: AsyncDriver
    settings: Settings
    request_id: str
    reader: GraphReader = field(init=False)
    data: Loaders = field(init=False)

    def __post_init__(self) -> None:
        self.reader = GraphReader(self.driver, self.settings.neo4j_database, self.settings.query_timeout_s)
        self.data = Loaders(self.reader)


Info = StrawberryInfo[Context, None]
