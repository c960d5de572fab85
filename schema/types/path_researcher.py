"""`PathResearcher`: a researcher on a collaboration path (id and name)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import strawberry


@strawberry.type(description="A researcher on a path.")
class PathResearcher:
    id: str = strawberry.field(description="Internal id.")
    name: str | None = strawberry.field(description="Display name.")

    @classmethod
    def from_record(cls, node: Mapping[str, Any]) -> PathResearcher:
        """From an `{id, name}` map."""
        return cls(id=node["id"], name=node.get("name"))
