"""Opening drivers from settings and translating driver failures into graph.errors."""

from __future__ import annotations

from collections.abc import Generator
from contextlib import contextmanager
from typing import Final

import neo4j
from neo4j import AsyncDriver, AsyncGraphDatabase, Driver, GraphDatabase
from neo4j.exceptions import (
    AuthError,
    ClientError,
    ServiceUnavailable,
    SessionExpired,
    TransientError,
)

from weft.graph.errors import InvalidInput, Unavailable
from weft.graph.settings import Settings

# Our statements are reviewed in queries/; planner notifications (e.g. "property key does not exist"
# for a property no node has yet) would only print to users' terminals, so the server sends none.
_NOTIFICATION_SEVERITY: Final = "OFF"
# Pooled connections idle longer than this are checked (one round trip) before a query uses them.
_LIVENESS_CHECK_S: Final = 2.0


def open_driver(settings: Settings) -> Driver:
    """A synchronous driver, for the CLI and loaders: managed transactions that fail with a retryable
    error (the database restarting, a leader switch) are retried for WEFT_WRITE_RETRY seconds."""
    return GraphDatabase.driver(
        settings.neo4j_uri,
        auth=settings.auth,
        notifications_min_severity=_NOTIFICATION_SEVERITY,
        connection_timeout=settings.connect_timeout_s,
        max_transaction_retry_time=settings.write_retry_s,
    )


def open_async_driver(settings: Settings) -> AsyncDriver:
    """The one async driver a server process uses (opened in the Starlette lifespan).

    Fails fast while the database is down (issue 11): opening a connection and waiting for a free one
    are bounded by WEFT_CONNECT_TIMEOUT, well under the request deadline, and pooled connections idle
    for a while are checked before use, so a restarted server's dead connections are found at once.
    """
    return AsyncGraphDatabase.driver(
        settings.neo4j_uri,
        auth=settings.auth,
        notifications_min_severity=_NOTIFICATION_SEVERITY,
        connection_timeout=settings.connect_timeout_s,
        connection_acquisition_timeout=settings.connect_timeout_s,
        liveness_check_timeout=_LIVENESS_CHECK_S,
    )


def is_unavailable(exc: BaseException) -> bool:
    """True for failures that mean 'the database is down or unreachable', not 'bad query'."""
    return isinstance(exc, (ServiceUnavailable, SessionExpired, AuthError, OSError)) or (
        isinstance(exc, TransientError)
    )


@contextmanager
def translated_errors(what: str) -> Generator[None, None, None]:
    """Re-raise driver exceptions as Unavailable / InvalidInput with a message naming `what`."""
    try:
        yield
    except AuthError as exc:  # a ClientError too, but the server's configuration, not the client's input
        raise Unavailable(f"{what}: Neo4j refused the credentials") from exc
    except neo4j.exceptions.ClientError as exc:
        if "TimedOut" in (exc.code or ""):
            raise Unavailable(f"{what}: the query timed out") from exc
        if (exc.code or "").startswith("Neo.ClientError.Security."):  # forbidden, locked out, rate limited
            raise Unavailable(f"{what}: Neo4j refused access ({exc.code})") from exc
        raise InvalidInput(f"{what}: {exc.message}") from exc
    except (ServiceUnavailable, SessionExpired, TransientError, OSError) as exc:
        raise Unavailable(f"{what}: Neo4j is unavailable ({exc.__class__.__name__})") from exc
    except UnicodeEncodeError as exc:  # a lone surrogate (JSON's `\\udfff`) in a parameter: Bolt sends UTF-8
        raise InvalidInput(f"{what}: a text argument is not valid Unicode ({exc.reason})") from exc


def check_connectivity(driver: Driver, what: str = "connecting to Neo4j") -> None:
    """Raise Unavailable unless the server answers."""
    with translated_errors(what):
        driver.verify_connectivity()


__all__ = [
    "ClientError",
    "check_connectivity",
    "is_unavailable",
    "open_async_driver",
    "open_driver",
    "translated_errors",
]
