"""API fixtures: the ASGI app over HTTP (Starlette TestClient, lifespan run) and a live uvicorn server."""

from __future__ import annotations

import dataclasses
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from starlette.testclient import TestClient

from weft.graph.settings import Settings
from weft.server.app import create_app


class GraphQLClient:
    """Posts GraphQL operations to an app and returns the decoded JSON body."""

    def __init__(self, http: TestClient) -> None:
        self.http = http
        self.last_response: Any = None

    def post(self, query: str, variables: dict | None = None, **headers: str) -> dict:
        response = self.http.post("/graphql", json={"query": query, "variables": variables or {}}, headers=headers)
        self.last_response = response
        assert response.status_code in (200, 400), response.text
        return response.json()

    def data(self, query: str, variables: dict | None = None) -> dict:
        """The `data` of a query that must succeed without errors."""
        body = self.post(query, variables)
        assert "errors" not in body, body["errors"]
        return body["data"]

    @property
    def cypher_queries(self) -> int:
        return int(self.last_response.headers["x-weft-cypher-queries"])


def executing(settings: Settings) -> Settings:
    """The settings with the response cache off: these tests look at what executing a request does (its
    Cypher count, its answer right after a load); tests/api/test_response_cache.py tests the cache."""
    return dataclasses.replace(settings, response_cache_mb=0)


def api_client(settings: Settings) -> Iterator[GraphQLClient]:
    """A GraphQLClient on a fresh app whose lifespan (driver open/close) runs around the block."""
    with TestClient(create_app(executing(settings))) as http:
        yield GraphQLClient(http)


@pytest.fixture(scope="module")
def client(settings: Settings) -> Iterator[GraphQLClient]:
    """The app over HTTP in-process, against the session's real Neo4j."""
    yield from api_client(settings)


class LiveServer:
    """uvicorn serving the app in a thread on a free port."""

    def __init__(self, settings: Settings, response_cache: bool = False) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        app = create_app(settings if response_cache else executing(settings))
        config = uvicorn.Config(app, log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/graphql"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


@pytest.fixture(scope="module")
def live_server(settings: Settings) -> Iterator[LiveServer]:
    """A real uvicorn server on a free port, for clients that need a socket (node, gql)."""
    with LiveServer(settings) as server:
        yield server
