"""`weft load …`: reading source dumps into the graph (filled in by the loaders work)."""

from __future__ import annotations

import typer

load_app = typer.Typer(help="Load OpenAlex, Semantic Scholar or arXiv dumps into Neo4j.", no_args_is_help=True)
