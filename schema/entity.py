"""The Entity interface: what papers, researchers and institutions share (id, slug, canonical path)."""

from __future__ import annotations

from typing import Any

import strawberry

from weft.graph.identity.lookup import slugify


@strawberry.interface(description="A node with a page of its own: a paper, a researcher or an institution.")
class Entity:
    props: strawberry.Private[dict[str, Any]]
    id: str = strawberry.field(description="Internal id (stable, URL-safe; ids of merged nodes still resolve).")

    site_section = ""

    def slug_text(self) -> str | None:
        """The words the slug is made of (a title or a name)."""
        raise NotImplementedError

    @strawberry.field(description="URL words: the id followed by the first words of the title or name.")
    def slug(self) -> str:
        words = slugify(self.slug_text())
        return f"{self.id}-{words}" if words else self.id

    @strawberry.field(
        description="This node's path on the site: `/papers/<slug>`, `/researchers/<slug>` or `/institutions/<slug>`."
    )
    def canonical_url(self) -> str:
        return f"/{self.site_section}/{self.slug()}"
