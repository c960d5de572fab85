"""The `weft` command line: one module per group of commands; `main.app` is the entry point."""

from weft.server.cli.main import app

__all__ = ["app"]
