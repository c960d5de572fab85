"""The NamedEntity interface: an entity known by a name and its other spellings (researchers, institutions)."""

from __future__ import annotations

import strawberry

from weft.schema.types.entity import Entity


def resolve_alt_names(self: NamedEntity) -> list[str]:
    """Resolves `altNames`: the other names the sources use, as stored."""
    return list(self.props.get("alt_names") or [])


@strawberry.interface(description="An entity known by a name: a researcher or an institution.")
class NamedEntity(Entity):
    name: str | None = strawberry.field(description="Display name.")
    alt_names: list[str] = strawberry.field(
        resolver=resolve_alt_names, description="Other names or spellings of the name seen in the sources."
    )

    def slug_text(self) -> str | None:
        return self.name
