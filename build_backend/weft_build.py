"""Weft's build backend: setuptools' own, refusing to build a wheel without the pages' browser libraries.

`npm ci --prefix web` (`make web`, or the Dockerfile's web stage) copies GraphiQL, React and Cytoscape.js
into server/static/vendor. A wheel built before that would install and serve pages that never load their
scripts (GraphiQL stuck on "Loading…"), so the build stops with a one-line reason instead. Editable
installs read server/static from the checkout and are not checked.
"""

from __future__ import annotations

import re
from pathlib import Path

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 - the rest of the PEP 517 hooks, unchanged

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "server"
VENDOR = SERVER / "static" / "vendor"
# `/static/vendor/x.js` in a page, or `static_url('vendor/x.js')` in a template or in the code that fills one
VENDOR_REF = re.compile(r"""(?:/static/|['"])vendor/([\w.-]+)""")


def vendor_files_referenced(server: Path = SERVER) -> set[str]:
    """The file names under /static/vendor/ that the pages load (named in server/'s templates and modules)."""
    sources = [*server.rglob("*.html"), *server.rglob("*.py")]
    return {name for source in sources for name in VENDOR_REF.findall(source.read_text())}


def missing_vendor_files(server: Path = SERVER, vendor: Path = VENDOR) -> list[str]:
    """Referenced vendor files that are not in the vendor folder, sorted."""
    return sorted(name for name in vendor_files_referenced(server) if not (vendor / name).is_file())


def check_vendor_files() -> None:
    """Stop the build when a page's browser library is missing."""
    missing = missing_vendor_files()
    if missing:
        raise SystemExit(
            f"weft build: server/static/vendor lacks {', '.join(missing)}; run `make web` "
            "(npm ci --prefix web) before building a wheel"
        )


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, str | list[str]] | None = None,
    metadata_directory: str | None = None,
) -> str:
    """setuptools' build_wheel, after the vendor check."""
    check_vendor_files()
    return build_meta.build_wheel(wheel_directory, config_settings, metadata_directory)
