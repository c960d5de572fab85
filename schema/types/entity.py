"""The Entity interface: what papers, researchers and institutions share (id, slug, canonical path, ids)."""

from __future__ import annotations

from typing import Any, ClassVar

import strawberry

from weft.graph.identity.lookup import slugify
from weft.schema.support.values import Identity, identities


def resolve_ids(self: Entity) -> list[Identity]:
    """Resolves `ids`: each source's id of this node (its `id_props`), with a link there where known."""
    return identities(self.label, [(source, self.props.get(prop)) for source, prop in self.id_props])


@strawberry.interface(description="A node with a page of its own: a paper, a researcher or an institution.")
class Entity:
    props: strawberry.Private[dict[str, Any]]
    id: str = strawberry.field(description="Internal id (stable, URL-safe; ids of merged nodes still resolve).")
    ids: list[Identity] = strawberry.field(
        resolver=resolve_ids, description="Each source's id for this node, with a link there where known."
    )

    label: ClassVar[str] = ""
    """The node label, which names the node's pages at the sources."""
    site_section: ClassVar[str] = ""
    """The first part of the node's path on this site."""
    id_props: ClassVar[tuple[tuple[str, str], ...]] = ()
    """(source or registry, property) of each id the node may have, in the order `ids` lists them."""

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
