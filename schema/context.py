"""The typed per-request context: the process's driver, settings, and this request's DataLoaders."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from graph.settings import Settings
from neo4j import AsyncDriver


@dataclass
class Context:
    """What every resolver gets as `info.context`.

    `loaders` holds DataLoaders created fresh for each request (never shared across requests);
    schema modules create theirs lazily with `context.loader(name, factory)`.
    """

    request: Request
    response: Response | None
    driver: AsyncDriver
    settings: Settings
    request_id: str
    loaders: dict[str, Any] = field(default_factory=dict)

    def loader(self, name: str, factory: Callable[[], Any]) -> Any:
        """This request's DataLoader called `name`, created by `factory()` on first use."""
        if name not in self.loaders:
            self.loaders[name] = factory()
        return self.loaders[name]
