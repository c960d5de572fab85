"""All configuration, read once from the environment, with defaults that work on a laptop."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import platformdirs

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def default_neo4j_home() -> Path:
    """Where the local Neo4j's jars and instances go when WEFT_NEO4J_HOME is unset: `.neo4j` in a source
    checkout (beside its pyproject.toml), else the user's data folder (an installed wheel's package folder
    is no place for databases)."""
    if (PROJECT_ROOT / "pyproject.toml").is_file():
        return PROJECT_ROOT / ".neo4j"
    return platformdirs.user_data_path("weft", appauthor=False) / "neo4j"


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
    load_batch_size: int = 20000  # WEFT_BATCH_SIZE: rows per write transaction (bench/RESULTS.md, eighteenth run)
    neo4j_home: Path = field(default_factory=default_neo4j_home)  # WEFT_NEO4J_HOME: jars and instances
    neo4j_heap: str = "1g"  # WEFT_NEO4J_HEAP
    neo4j_pagecache: str = "512m"  # WEFT_NEO4J_PAGECACHE
    neo4j_start_timeout_s: int = 120  # WEFT_NEO4J_START_TIMEOUT
    serve_workers: int = 0  # WEFT_WORKERS: `weft serve` processes; 0 means one per available core
    pair_edge_max_authors: int = 100  # WEFT_PAIR_EDGE_MAX_AUTHORS: larger papers make no co-author pairs
    same_name_max_bucket: int = 200  # WEFT_SAME_NAME_MAX_BUCKET: larger same-name groups are not linked
    network_top_ties: int = 50  # WEFT_NETWORK_TOP_TIES: a researcher's ties that reach past it in a network
    bulk_memory_limit: str = "2GB"  # WEFT_BULK_MEMORY_LIMIT: DuckDB's memory_limit in `weft build` (it spills beyond)
    bulk_threads: int = 0  # WEFT_BULK_THREADS: DuckDB threads in `weft build`; 0 means one per core
    bulk_workers: int = 0  # WEFT_BULK_WORKERS: `weft build` staging processes; 0 means one per core
    bulk_engine: str = "duckdb"  # WEFT_BULK_ENGINE: where `weft build` transforms: duckdb or spark
    import_off_heap: str = ""  # WEFT_IMPORT_OFF_HEAP: neo4j-admin import off-heap (4g, 60%); empty: from MemAvailable
    spark_master: str = "local[*]"  # WEFT_SPARK_MASTER: the Spark master of `weft build --engine spark`
    neo4j_http_port: int | None = None  # WEFT_NEO4J_HTTP_PORT: the local server's HTTP/Browser port; 0 = off
    request_deadline_s: float = 15.0  # WEFT_REQUEST_DEADLINE: all the work of one API request, networkx included
    max_body_bytes: int = 1_048_576  # WEFT_MAX_BODY_BYTES: larger request bodies get 413 before parsing
    response_cache_mb: int = 48  # WEFT_RESPONSE_CACHE_MB: whole GraphQL answers kept per worker; 0 turns it off
    network_cache_mb: int = 32  # WEFT_NETWORK_CACHE_MB: computed networks (and their graphs) kept per worker
    response_cache_ttl_s: float = 0.25  # WEFT_RESPONSE_CACHE_TTL_MS: how often the data version is read
    connect_timeout_s: float = 3.0  # WEFT_CONNECT_TIMEOUT: opening a Bolt connection (and waiting for one)
    write_retry_s: float = 30.0  # WEFT_WRITE_RETRY: how long loads and the CLI retry a failed transaction

    @property
    def bolt_host(self) -> str:
        return urlparse(self.neo4j_uri).hostname or "127.0.0.1"

    @property
    def bolt_port(self) -> int:
        return urlparse(self.neo4j_uri).port or 7687

    @property
    def http_port(self) -> int:
        """The local server's HTTP port (Neo4j Browser): WEFT_NEO4J_HTTP_PORT, else 7474 beside the default
        Bolt port 7687 and Bolt + 4 beside any other, so servers on different Bolt ports do not clash."""
        if self.neo4j_http_port is not None:
            return self.neo4j_http_port
        return 7474 if self.bolt_port == 7687 else self.bolt_port + 4

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
        neo4j_home=Path(env["WEFT_NEO4J_HOME"]) if env.get("WEFT_NEO4J_HOME") else default_neo4j_home(),
        neo4j_heap=env.get("WEFT_NEO4J_HEAP", Settings.neo4j_heap),
        neo4j_pagecache=env.get("WEFT_NEO4J_PAGECACHE", Settings.neo4j_pagecache),
        neo4j_start_timeout_s=_int("WEFT_NEO4J_START_TIMEOUT", Settings.neo4j_start_timeout_s),
        serve_workers=_int("WEFT_WORKERS", Settings.serve_workers),
        pair_edge_max_authors=_int("WEFT_PAIR_EDGE_MAX_AUTHORS", Settings.pair_edge_max_authors),
        same_name_max_bucket=_int("WEFT_SAME_NAME_MAX_BUCKET", Settings.same_name_max_bucket),
        network_top_ties=_int("WEFT_NETWORK_TOP_TIES", Settings.network_top_ties),
        bulk_memory_limit=env.get("WEFT_BULK_MEMORY_LIMIT", Settings.bulk_memory_limit),
        bulk_threads=_int("WEFT_BULK_THREADS", Settings.bulk_threads),
        bulk_workers=_int("WEFT_BULK_WORKERS", Settings.bulk_workers),
        bulk_engine=env.get("WEFT_BULK_ENGINE", Settings.bulk_engine),
        import_off_heap=env.get("WEFT_IMPORT_OFF_HEAP", Settings.import_off_heap),
        spark_master=env.get("WEFT_SPARK_MASTER", Settings.spark_master),
        neo4j_http_port=_int("WEFT_NEO4J_HTTP_PORT", -1) if env.get("WEFT_NEO4J_HTTP_PORT") else None,
        request_deadline_s=float(env.get("WEFT_REQUEST_DEADLINE", Settings.request_deadline_s)),
        max_body_bytes=_int("WEFT_MAX_BODY_BYTES", Settings.max_body_bytes),
        response_cache_mb=_int("WEFT_RESPONSE_CACHE_MB", Settings.response_cache_mb),
        network_cache_mb=_int("WEFT_NETWORK_CACHE_MB", Settings.network_cache_mb),
        response_cache_ttl_s=max(_int("WEFT_RESPONSE_CACHE_TTL_MS", 250), 10) / 1000,
        connect_timeout_s=float(env.get("WEFT_CONNECT_TIMEOUT", Settings.connect_timeout_s)),
        write_retry_s=float(env.get("WEFT_WRITE_RETRY", Settings.write_retry_s)),
    )


@dataclass(frozen=True)
class Switches:
    """The serving shortcuts, each on unless its variable is `0` (off only to compare with and without, in
    bench/ and tests; read once at import by the module using it)."""

    fold: bool = True  # WEFT_FOLD: fold a request into one Cypher query per root field (schema/support/prefetch.py)
    keep_folds: bool = True  # WEFT_KEEP_FOLDS: keep a direct plan's folds across requests (prefetch.py)
    flat_lists: bool = True  # WEFT_FLAT_LISTS: complete plain lists in one pass (schema/support/execution.py)
    direct: bool = True  # WEFT_DIRECT: answer repeated documents without graphql-core (schema/support/direct.py)


def load_switches() -> Switches:
    """Read the switches from the environment."""

    def on(name: str) -> bool:
        return os.environ.get(name, "1") != "0"

    return Switches(
        fold=on("WEFT_FOLD"),
        keep_folds=on("WEFT_KEEP_FOLDS"),
        flat_lists=on("WEFT_FLAT_LISTS"),
        direct=on("WEFT_DIRECT"),
    )


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not on Linux
        return max(os.cpu_count() or 1, 1)
