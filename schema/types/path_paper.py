"""`PathPaper`: a paper linking two researchers on a collaboration path."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import strawberry


@strawberry.type(description="A paper linking two researchers on a path.")
class PathPaper:
    id: str = strawberry.field(description="The paper's internal id.")
    title: str | None = strawberry.field(description="Title.")
    year: int | None = strawberry.field(description="Publication year.")

    @classmethod
    def from_record(cls, paper: Mapping[str, Any]) -> PathPaper:
        """From an `{id, title, year}` map."""
        return cls(id=paper["id"], title=paper.get("title"), year=paper.get("year"))
