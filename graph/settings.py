"""All configuration, read once from the environment, with defaults that work on a laptop."""

from __future__ import annotations

import math
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


def _public_url(name: str) -> str:
    """An absolute http(s) base URL without query or fragment (trailing slash dropped); empty when unset."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return ""
    try:
        parts = urlparse(raw)
        parts.port  # noqa: B018 - raises ValueError for a port that is no number
    except ValueError as exc:
        raise SystemExit(f"{name}={raw!r} is not a URL") from exc
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise SystemExit(f"{name}={raw!r} must be an http(s) URL such as https://weft.example.org")
    return raw.rstrip("/")


def _hosts(name: str) -> tuple[str, ...]:
    """Comma-separated host names (`*.example.org` and `*` allowed), lower-cased; IPv6 in brackets as in Host."""
    hosts = tuple(_bracketed(h.strip().lower()) for h in os.environ.get(name, "").split(",") if h.strip())
    for host in hosts:
        if "*" in host[1:] or (host.startswith("*") and host != "*" and not host.startswith("*.")):
            raise SystemExit(f"{name}: {host!r} is no host name (a wildcard must be `*.example.org` or `*`)")
    return hosts


def _bracketed(host: str) -> str:
    """An IPv6 address as a Host header writes it (`[::1]`); other hosts unchanged."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")
"""Hosts every server answers to unless WEFT_ALLOWED_HOSTS says otherwise (a browser on the same machine)."""
DEFAULT_BASE_URL = "http://127.0.0.1:8000"
"""The absolute base of links when WEFT_PUBLIC_URL is unset and the app runs outside `weft serve`."""


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
    storage_connect_timeout_s: float = 5.0  # WEFT_STORAGE_CONNECT_TIMEOUT: opening a connection to object storage
    storage_read_timeout_s: float = 10.0  # WEFT_STORAGE_READ_TIMEOUT: object storage's silence before a call fails
    write_retry_s: float = 30.0  # WEFT_WRITE_RETRY: how long loads and the CLI retry a failed transaction
    public_url: str = ""  # WEFT_PUBLIC_URL: the base of every absolute URL; `weft serve` sets its own address if unset
    allowed_hosts: tuple[str, ...] = ()  # WEFT_ALLOWED_HOSTS: Host headers answered; empty: public URL's + local
    forwarded_allow_ips: str = ""  # WEFT_FORWARDED_ALLOW_IPS: proxies whose X-Forwarded-* is trusted; empty: none
    writer_lease_s: float = 60.0  # WEFT_WRITER_LEASE: seconds a dead writer's lock holds (graph/writer_lock.py)

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
    def base_url(self) -> str:
        """The absolute base of every URL the site writes (canonical links, JSON-LD, sitemaps, feeds, llms.txt,
        openapi.json): WEFT_PUBLIC_URL, else the local default; never a request's Host header."""
        return self.public_url or DEFAULT_BASE_URL

    @property
    def trusted_hosts(self) -> tuple[str, ...]:
        """The Host headers the server answers (others get 400): WEFT_ALLOWED_HOSTS, else the public URL's host
        and the local names."""
        if self.allowed_hosts:
            return self.allowed_hosts
        own = _bracketed((urlparse(self.base_url).hostname or "").lower())
        return tuple(dict.fromkeys((own, *LOCAL_HOSTS)))

    @property
    def auth(self) -> tuple[str, str] | None:
        return (self.neo4j_user, self.neo4j_password) if self.neo4j_password else None


NEO4J_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
"""The URI schemes the Neo4j driver speaks (NEO4J_URI)."""


def _float(name: str, default: float, minimum: float = 0.0) -> float:
    """A number of at least `minimum` from the environment (`default` when unset); a one-line error naming
    the variable otherwise, as `_int` gives."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= minimum):
        raise SystemExit(f"{name}={raw!r} is not a number of at least {minimum:g} (such as {default:g})")
    return value


def _neo4j_uri(name: str, default: str) -> str:
    """A Neo4j URI from the environment (`default` when unset): one of NEO4J_SCHEMES, a host and a numeric
    port if any; a one-line error naming the variable otherwise (the driver's own is a traceback)."""
    raw = os.environ.get(name) or default
    try:
        parts = urlparse(raw)
        parts.port  # noqa: B018 - raises ValueError for a port that is no number
    except ValueError as exc:
        raise SystemExit(f"{name}={raw!r} has a port that is no number (such as {default})") from exc
    if parts.scheme not in NEO4J_SCHEMES or not parts.hostname:
        schemes = ", ".join(f"{scheme}://" for scheme in NEO4J_SCHEMES)
        raise SystemExit(f"{name}={raw!r} is not a Neo4j URI such as {default} (it starts with one of {schemes})")
    return raw


def load_settings() -> Settings:
    """Read the settings from the environment (called once per process or per test session)."""
    env = os.environ
    return Settings(
        neo4j_uri=_neo4j_uri("NEO4J_URI", Settings.neo4j_uri),
        neo4j_user=env.get("NEO4J_USER", Settings.neo4j_user),
        neo4j_password=env.get("NEO4J_PASSWORD", Settings.neo4j_password),
        neo4j_database=env.get("NEO4J_DATABASE", Settings.neo4j_database),
        query_timeout_s=_float("WEFT_QUERY_TIMEOUT", Settings.query_timeout_s),
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
        request_deadline_s=_float("WEFT_REQUEST_DEADLINE", Settings.request_deadline_s),
        max_body_bytes=_int("WEFT_MAX_BODY_BYTES", Settings.max_body_bytes),
        response_cache_mb=_int("WEFT_RESPONSE_CACHE_MB", Settings.response_cache_mb),
        network_cache_mb=_int("WEFT_NETWORK_CACHE_MB", Settings.network_cache_mb),
        response_cache_ttl_s=max(_int("WEFT_RESPONSE_CACHE_TTL_MS", 250), 10) / 1000,
        connect_timeout_s=_float("WEFT_CONNECT_TIMEOUT", Settings.connect_timeout_s),
        storage_connect_timeout_s=_float("WEFT_STORAGE_CONNECT_TIMEOUT", Settings.storage_connect_timeout_s),
        storage_read_timeout_s=_float("WEFT_STORAGE_READ_TIMEOUT", Settings.storage_read_timeout_s),
        write_retry_s=_float("WEFT_WRITE_RETRY", Settings.write_retry_s),
        public_url=_public_url("WEFT_PUBLIC_URL"),
        allowed_hosts=_hosts("WEFT_ALLOWED_HOSTS"),
        forwarded_allow_ips=env.get("WEFT_FORWARDED_ALLOW_IPS", "").strip(),
        writer_lease_s=_float("WEFT_WRITER_LEASE", Settings.writer_lease_s, minimum=1),
    )


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not on Linux
        return max(os.cpu_count() or 1, 1)
