"""`weft export-csv` / `weft import-csv`: the bulk path through neo4j-admin import."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the bulk-path commands to the root app."""
