"""graph.local_server.fetch_jars: servers starting at once (parallel test workers) fetch the jars once."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from weft.graph import local_server
from weft.graph.settings import Settings


def test_concurrent_starts_fetch_the_jars_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inside, most, calls = 0, 0, 0
    guard = threading.Lock()

    def slow_fetch(instance: local_server.Instance, wanted: str, quiet: bool) -> None:
        nonlocal inside, most, calls
        with guard:
            inside, calls = inside + 1, calls + 1
            most = max(most, inside)
        time.sleep(0.3)  # long enough for the other starts to arrive while this one fetches
        (instance.lib / ".complete").write_text(f"{wanted}\n")
        with guard:
            inside -= 1

    monkeypatch.setattr(local_server, "_fetch_with_maven", slow_fetch)
    instances = [
        local_server.Instance(Settings(neo4j_uri=f"bolt://127.0.0.1:{port}", neo4j_home=tmp_path))
        for port in (7700, 7720, 7740)
    ]
    threads = [threading.Thread(target=local_server.fetch_jars, args=(instance,)) for instance in instances]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert (calls, most) == (1, 1)
    assert (tmp_path / "lib" / ".complete").read_text().strip() == local_server.pom_digest()
