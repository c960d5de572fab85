"""The Category type: an arXiv category, OpenAlex topic/subfield/field/domain or concept."""

from __future__ import annotations

from typing import Any

import strawberry

from weft.graph.identity.lookup import slugify
from weft.graph.reads import facets
from weft.schema.context import Info
from weft.schema.support.values import Identity
from weft.schema.types.facet import CountsByYear


@strawberry.type(description="A subject category a paper is filed under.")
class Category:
    id: str = strawberry.field(description="Internal id (stable, URL-safe).")
    key: str | None = strawberry.field(description="Canonical key, e.g. `arxiv:cs.LG`, `topic:T10181`, `field:17`.")
    name: str | None = strawberry.field(description="Display name.")
    scheme: str | None = strawberry.field(
        description="Classification scheme: `arxiv`, `topic`, `subfield`, `field`, `domain` or `concept`."
    )
    level: int | None = strawberry.field(description="Depth within its scheme's hierarchy, where given.")

    @strawberry.field(description="URL words: the id followed by the name.")
    def slug(self) -> str:
        words = slugify(self.name)
        return f"{self.id}-{words}" if words else self.id

    @strawberry.field(description="This category's path on the site, e.g. `/categories/<slug>`.")
    def canonical_url(self) -> str:
        return f"/categories/{self.slug()}"

    @strawberry.field(
        description="Works (papers in the category) and citations they received per year, counted from citations "
        "in the graph."
    )
    async def counts_by_year(self, info: Info) -> CountsByYear:
        return CountsByYear.of(await facets.counts_by_year(info.context.reader, "category", [self.id]))

    @strawberry.field(description="The category's id at its source, with a link there.")
    def ids(self) -> list[Identity]:
        scheme, _, code = (self.key or "").partition(":")
        if not code:
            return []
        if scheme == "arxiv":
            return [Identity(source="arxiv", id=code, url=f"https://arxiv.org/list/{code}/recent")]
        if scheme in ("topic", "concept"):
            return [Identity(source="openalex", id=code, url=f"https://openalex.org/{code}")]
        if scheme in ("subfield", "field", "domain"):
            return [Identity(source="openalex", id=f"{scheme}s/{code}", url=f"https://openalex.org/{scheme}s/{code}")]
        return [Identity(source=scheme, id=code, url=None)]

    @classmethod
    def from_record(cls, props: dict[str, Any]) -> Category:
        """From a Category node's properties."""
        level = props.get("level")
        return cls(
            id=props["id"],
            key=props.get("key"),
            name=props.get("name"),
            scheme=props.get("scheme"),
            level=int(level) if level is not None else None,
        )
