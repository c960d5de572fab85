"""`python -m weft`: the `weft` command line (server/cli), where the `weft` script is not on PATH.

The only module of the `weft` namespace itself (no __init__.py: weft.graph, weft.server… come from their
own folders, pyproject.toml's package-dir)."""

from weft.server.cli import app

app(prog_name="weft")
