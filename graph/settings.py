"""All configuration, read once from the environment, with defaults that work on a laptop.

`Settings` names each environment variable once, beside its field (`env("NAME", default)`), with the
checks its value must pass (`Annotated[...]`). `load_settings` reads them through pydantic-settings: an
unset or empty variable keeps the default, and a bad value stops the command with one line naming the
variable (`SystemExit`), never a traceback. `Settings(...)` itself reads nothing (tests build their own).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import os
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, cast
from urllib.parse import urlparse

import platformdirs
import pydantic
from pydantic import AfterValidator, BeforeValidator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def default_neo4j_home() -> Path:
    """Where the local Neo4j's jars and instances go when WEFT_NEO4J_HOME is unset: `.neo4j` in a source
    checkout (beside its pyproject.toml), else the user's data folder (an installed wheel's package folder
    is no place for databases)."""
    if (PROJECT_ROOT / "pyproject.toml").is_file():
        return PROJECT_ROOT / ".neo4j"
    return platformdirs.user_data_path("weft", appauthor=False) / "neo4j"


LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")
"""Hosts every server answers to unless WEFT_ALLOWED_HOSTS says otherwise (a browser on the same machine)."""
DEFAULT_BASE_URL = "http://127.0.0.1:8000"
"""The absolute base of links when WEFT_PUBLIC_URL is unset and the app runs outside `weft serve`."""
NEO4J_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
"""The URI schemes the Neo4j driver speaks (NEO4J_URI)."""


class BadValue(ValueError):
    """A value an environment variable may not have; its message follows `NAME='value' ` in the error."""


def _whole(raw: object) -> object:
    """A whole number (as the text gives it); `is not a whole number` otherwise."""
    if isinstance(raw, str):
        try:
            return int(raw)
        except ValueError:
            raise BadValue("is not a whole number") from None
    return raw


def _at_least(minimum: float, example: float) -> BeforeValidator:
    """A finite number of at least `minimum`; the error gives `example` (the default)."""

    def number(raw: object) -> object:
        try:
            value = float(cast(str, raw))
        except (TypeError, ValueError):
            value = math.nan
        if not (math.isfinite(value) and value >= minimum):
            raise BadValue(f"is not a number of at least {minimum:g} (such as {example:g})")
        return value

    return BeforeValidator(number)


def _milliseconds(raw: object) -> object:
    """Milliseconds (at least 10) as seconds: WEFT_RESPONSE_CACHE_TTL_MS."""
    return max(cast(int, _whole(raw)), 10) / 1000 if isinstance(raw, str) else raw


def _neo4j_uri(raw: str) -> str:
    """One of NEO4J_SCHEMES, a host and a numeric port if any (the driver's own error is a traceback)."""
    default = Settings.neo4j_uri
    try:
        parts = urlparse(raw)
        parts.port  # noqa: B018 - raises ValueError for a port that is no number
    except ValueError:
        raise BadValue(f"has a port that is no number (such as {default})") from None
    if parts.scheme not in NEO4J_SCHEMES or not parts.hostname:
        schemes = ", ".join(f"{scheme}://" for scheme in NEO4J_SCHEMES)
        raise BadValue(f"is not a Neo4j URI such as {default} (it starts with one of {schemes})")
    return raw


def _public_url(raw: str) -> str:
    """An absolute http(s) base URL without query or fragment (trailing slash dropped); empty when unset."""
    raw = raw.strip()
    if not raw:
        return ""
    try:
        parts = urlparse(raw)
        parts.port  # noqa: B018 - raises ValueError for a port that is no number
    except ValueError:
        raise BadValue("is not a URL") from None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise BadValue("must be an http(s) URL such as https://weft.example.org")
    return raw.rstrip("/")


def _hosts(raw: object) -> object:
    """Comma-separated host names (`*.example.org` and `*` allowed), lower-cased; IPv6 in brackets as in Host."""
    if not isinstance(raw, str):
        return raw
    hosts = tuple(_bracketed(h.strip().lower()) for h in raw.split(",") if h.strip())
    for host in hosts:
        if "*" in host[1:] or (host.startswith("*") and host != "*" and not host.startswith("*.")):
            raise BadValue(f"names {host!r}, no host name (a wildcard must be `*.example.org` or `*`)")
    return hosts


def _bracketed(host: str) -> str:
    """An IPv6 address as a Host header writes it (`[::1]`); other hosts unchanged."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def _stripped(raw: object) -> object:
    return raw.strip() if isinstance(raw, str) else raw


Whole = Annotated[int, BeforeValidator(_whole)]
Neo4jUri = Annotated[str, AfterValidator(_neo4j_uri)]
PublicUrl = Annotated[str, AfterValidator(_public_url)]
Hosts = Annotated[tuple[str, ...], NoDecode, BeforeValidator(_hosts)]
Stripped = Annotated[str, BeforeValidator(_stripped)]


def env(name: str, default: Any = dataclasses.MISSING, *, factory: Any = dataclasses.MISSING) -> Any:
    """A settings field read from the environment variable `name` (its only mention in the code)."""
    return field(default=default, default_factory=factory, metadata={"env": name})


def seconds(name: str, default: float, minimum: float = 0.0) -> Any:
    """A duration in seconds of at least `minimum` (the error quotes the default)."""
    return field(default=default, metadata={"env": name, "check": _at_least(minimum, default)})


@dataclass(frozen=True)
class Settings:
    """Connection, server and local-Neo4j settings, each with the environment variable it is read from."""

    neo4j_uri: Neo4jUri = env("NEO4J_URI", "bolt://127.0.0.1:7687")
    neo4j_user: str = env("NEO4J_USER", "neo4j")
    neo4j_password: str = env("NEO4J_PASSWORD", "")  # empty means no auth (local dev/test server only)
    neo4j_database: str = env("NEO4J_DATABASE", "neo4j")
    query_timeout_s: float = seconds("WEFT_QUERY_TIMEOUT", 15.0)  # transaction timeout on every API read
    load_batch_size: Whole = env("WEFT_BATCH_SIZE", 20000)  # rows per write transaction (bench/RESULTS.md)
    neo4j_home: Path = env("WEFT_NEO4J_HOME", factory=default_neo4j_home)  # jars and instances
    neo4j_heap: str = env("WEFT_NEO4J_HEAP", "1g")
    neo4j_pagecache: str = env("WEFT_NEO4J_PAGECACHE", "512m")
    neo4j_start_timeout_s: Whole = env("WEFT_NEO4J_START_TIMEOUT", 120)
    serve_workers: Whole = env("WEFT_WORKERS", 0)  # `weft serve` processes; 0 means one per available core
    pair_edge_max_authors: Whole = env("WEFT_PAIR_EDGE_MAX_AUTHORS", 100)  # larger papers make no co-author pairs
    same_name_max_bucket: Whole = env("WEFT_SAME_NAME_MAX_BUCKET", 200)  # larger same-name groups are not linked
    network_top_ties: Whole = env("WEFT_NETWORK_TOP_TIES", 50)  # a researcher's ties that reach past it in a network
    bulk_memory_limit: str = env("WEFT_BULK_MEMORY_LIMIT", "2GB")  # DuckDB's memory_limit in `weft build`
    bulk_threads: Whole = env("WEFT_BULK_THREADS", 0)  # DuckDB threads in `weft build`; 0 means one per core
    bulk_workers: Whole = env("WEFT_BULK_WORKERS", 0)  # `weft build` staging processes; 0 means one per core
    bulk_engine: str = env("WEFT_BULK_ENGINE", "duckdb")  # where `weft build` transforms: duckdb or spark
    import_off_heap: str = env("WEFT_IMPORT_OFF_HEAP", "")  # neo4j-admin import off-heap; empty: from MemAvailable
    spark_master: str = env("WEFT_SPARK_MASTER", "local[*]")  # the Spark master of `weft build --engine spark`
    neo4j_http_port: Whole | None = env("WEFT_NEO4J_HTTP_PORT", None)  # the local server's HTTP port; 0 = off
    request_deadline_s: float = seconds("WEFT_REQUEST_DEADLINE", 15.0)  # all the work of one API request
    max_body_bytes: Whole = env("WEFT_MAX_BODY_BYTES", 1_048_576)  # larger request bodies get 413 before parsing
    response_cache_mb: Whole = env("WEFT_RESPONSE_CACHE_MB", 32)  # whole GraphQL answers per worker; 0 turns it off
    network_cache_mb: Whole = env("WEFT_NETWORK_CACHE_MB", 24)  # computed networks (and their graphs) per worker
    # how often the data version is read (the variable is in milliseconds, at least 10)
    response_cache_ttl_s: Annotated[float, BeforeValidator(_milliseconds)] = env("WEFT_RESPONSE_CACHE_TTL_MS", 0.25)
    connect_timeout_s: float = seconds("WEFT_CONNECT_TIMEOUT", 3.0)  # opening a Bolt connection (and waiting for one)
    storage_connect_timeout_s: float = seconds("WEFT_STORAGE_CONNECT_TIMEOUT", 5.0)  # connecting to object storage
    storage_read_timeout_s: float = seconds("WEFT_STORAGE_READ_TIMEOUT", 10.0)  # object storage's silence allowed
    write_retry_s: float = seconds("WEFT_WRITE_RETRY", 30.0)  # how long loads and the CLI retry a failed transaction
    public_url: PublicUrl = env("WEFT_PUBLIC_URL", "")  # the base of every absolute URL; `weft serve` sets its own
    allowed_hosts: Hosts = env("WEFT_ALLOWED_HOSTS", ())  # Host headers answered; empty: public URL's + local
    forwarded_allow_ips: Stripped = env("WEFT_FORWARDED_ALLOW_IPS", "")  # proxies trusted for X-Forwarded-*
    writer_lease_s: float = seconds("WEFT_WRITER_LEASE", 60.0, minimum=1)  # a dead writer's lock holds this long

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


def environment_variables() -> dict[str, str]:
    """Each setting's environment variable, by field name (the README's configuration table lists them)."""
    return {f.name: f.metadata["env"] for f in dataclasses.fields(Settings)}


class _FromEnvironment(BaseSettings):
    """What pydantic-settings reads: exact names, an empty variable as unset, other variables ignored."""

    model_config = SettingsConfigDict(
        case_sensitive=True, env_ignore_empty=True, extra="ignore", validate_default=False
    )


@functools.cache
def _environment_model() -> type[BaseSettings]:
    """A pydantic-settings model of `Settings`' fields, each read from its variable with its checks."""
    hints = typing.get_type_hints(Settings, include_extras=True)
    fields: dict[str, Any] = {}
    for item in dataclasses.fields(Settings):
        kind = hints[item.name]
        if "check" in item.metadata:
            kind = Annotated[kind, item.metadata["check"]]
        fields[item.name] = (kind, pydantic.Field(None, validation_alias=item.metadata["env"]))
    return pydantic.create_model("EnvironmentSettings", __base__=_FromEnvironment, **fields)


def load_settings() -> Settings:
    """Read the settings from the environment (called once per process or per test session); a bad value
    stops the process with one line naming its variable."""
    try:
        given = _environment_model()()
    except pydantic.ValidationError as exc:
        raise SystemExit(_one_line(exc)) from None
    return Settings(**given.model_dump(exclude_unset=True))


def _one_line(exc: pydantic.ValidationError) -> str:
    """`NAME='value' what is wrong with it`, for the first bad variable."""
    error = exc.errors()[0]
    name = str(error["loc"][0])
    cause = (error.get("ctx") or {}).get("error")
    reason = str(cause) if isinstance(cause, BadValue) else error["msg"]
    return f"{name}={os.environ.get(name, error.get('input'))!r} {reason}"


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not on Linux
        return max(os.cpu_count() or 1, 1)
