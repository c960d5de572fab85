"""The PaperVersion type: one (arXiv) version of a paper."""

from __future__ import annotations

import strawberry


@strawberry.type(description="One version of a paper (arXiv versions).")
class PaperVersion:
    version: str = strawberry.field(description="Version label, e.g. `v2`.")
    date: str | None = strawberry.field(description="ISO date the version was submitted.")

    @classmethod
    def from_record(cls, text: str) -> PaperVersion:
        """From a stored `v1@2007-04-02` string."""
        version, _, date = text.partition("@")
        return cls(version=version, date=date or None)
