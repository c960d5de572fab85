"""All configuration, read once from the environment, with defaults that work on a laptop."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise SystemExit(f"{name}={raw!r} is not a whole number") from exc


@dataclass(frozen=True)
class Settings:
    """Connection, server and local-Neo4j settings (environment variable in brackets)."""

    neo4j_uri: str = "bolt://127.0.0.1:7687"  # NEO4J_URI
    neo4j_user: str = "neo4j"  # NEO4J_USER
    neo4j_password: str = ""  # NEO4J_PASSWORD; empty means no auth (local dev/test server only)
    neo4j_database: str = "neo4j"  # NEO4J_DATABASE
    query_timeout_s: float = 15.0  # WEFT_QUERY_TIMEOUT: transaction timeout on every API read
    load_batch_size: int = 5000  # WEFT_BATCH_SIZE: rows per write transaction
    neo4j_home: Path = field(default=PROJECT_ROOT / ".neo4j")  # WEFT_NEO4J_HOME: jars and instances
    neo4j_heap: str = "1g"  # WEFT_NEO4J_HEAP
    neo4j_pagecache: str = "512m"  # WEFT_NEO4J_PAGECACHE
    neo4j_start_timeout_s: int = 120  # WEFT_NEO4J_START_TIMEOUT
    serve_workers: int = 0  # WEFT_WORKERS: `weft serve` processes; 0 means one per available core

    @property
    def bolt_host(self) -> str:
        return urlparse(self.neo4j_uri).hostname or "127.0.0.1"

    @property
    def bolt_port(self) -> int:
        return urlparse(self.neo4j_uri).port or 7687

    @property
    def auth(self) -> tuple[str, str] | None:
        return (self.neo4j_user, self.neo4j_password) if self.neo4j_password else None


def load_settings() -> Settings:
    """Read the settings from the environment (called once per process or per test session)."""
    env = os.environ
    return Settings(
        neo4j_uri=env.get("NEO4J_URI", Settings.neo4j_uri),
        neo4j_user=env.get("NEO4J_USER", Settings.neo4j_user),
        neo4j_password=env.get("NEO4J_PASSWORD", Settings.neo4j_password),
        neo4j_database=env.get("NEO4J_DATABASE", Settings.neo4j_database),
        query_timeout_s=float(env.get("WEFT_QUERY_TIMEOUT", Settings.query_timeout_s)),
        load_batch_size=_int("WEFT_BATCH_SIZE", Settings.load_batch_size),
        neo4j_home=Path(env.get("WEFT_NEO4J_HOME", PROJECT_ROOT / ".neo4j")),
        neo4j_heap=env.get("WEFT_NEO4J_HEAP", Settings.neo4j_heap),
        neo4j_pagecache=env.get("WEFT_NEO4J_PAGECACHE", Settings.neo4j_pagecache),
        neo4j_start_timeout_s=_int("WEFT_NEO4J_START_TIMEOUT", Settings.neo4j_start_timeout_s),
        serve_workers=_int("WEFT_WORKERS", Settings.serve_workers),
    )


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not on Linux
        return max(os.cpu_count() or 1, 1)
