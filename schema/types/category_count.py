"""The CategoryCount type: how many of a researcher's papers fall in one category."""

from __future__ import annotations

import strawberry

from weft.schema.types.category import Category


@strawberry.type(description="How many of a researcher's papers fall in one category.")
class CategoryCount:
    category: Category = strawberry.field(description="The category.")
    count: int = strawberry.field(description="Number of the researcher's papers in it.")
