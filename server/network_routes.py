"""HTTP routes for network exports and the network page (filled in by the network work)."""

from __future__ import annotations

from starlette.routing import BaseRoute

routes: list[BaseRoute] = []
