"""`weft cypher` and `weft analytics`: ad-hoc read-only Cypher and whole-graph scores."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the analysis commands to the root app."""
