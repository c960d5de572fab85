"""The typed per-request context: the process's driver, settings, this request's reader and DataLoaders."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

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
    `loaders` is a free-form registry for other schema modules (`context.loader(name, factory)`).
    """

    request: Request
    response: Response | None
    driver: AsyncDriver
    settings: Settings
    request_id: str
    reader: GraphReader = field(init=False)
    data: Loaders = field(init=False)
    loaders: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.reader = GraphReader(self.driver, self.settings.neo4j_database, self.settings.query_timeout_s)
        self.data = Loaders(self.reader)

    def loader(self, name: str, factory: Callable[[], Any]) -> Any:
        """This request's DataLoader called `name`, created by `factory()` on first use."""
        if name not in self.loaders:
            self.loaders[name] = factory()
        return self.loaders[name]


Info = StrawberryInfo[Context, None]
