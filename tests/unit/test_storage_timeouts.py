"""Object storage that accepts connections and never answers (issue 48): a load fails with a timeout error
naming the settings that bound it (WEFT_STORAGE_CONNECT_TIMEOUT, WEFT_STORAGE_READ_TIMEOUT), where it used to
hang for about 7 minutes. The store is a loopback socket that accepts and stays silent."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import free_port
from tests.silent_port import silent_listener


@pytest.fixture
def silent_store() -> Iterator[tuple[int, list[socket.socket]]]:
    """A loopback port that accepts TCP connections and never says a word; the connections it took."""
    with silent_listener() as listener:
        yield listener


@pytest.mark.timeout(300)  # a guard only: without the fix the load hung for about 7 minutes
def test_a_silent_store_fails_the_load_with_a_timeout_error(
    tmp_path: Path, silent_store: tuple[int, list[socket.socket]]
) -> None:
    port, held = silent_store
    env = {
        **os.environ,
        "NEO4J_URI": f"bolt://127.0.0.1:{free_port()}",
        "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}",
        "AWS_ACCESS_KEY_ID": "weft-test",
        "AWS_SECRET_ACCESS_KEY": "weft-test-secret",
        "AWS_DEFAULT_REGION": "us-east-1",
        "WEFT_STORAGE_CONNECT_TIMEOUT": "1",
        "WEFT_STORAGE_READ_TIMEOUT": "1",
    }
    done = subprocess.run(
        [sys.executable, "-m", "weft", "load", "openalex", "s3://weft-silent/works/"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=290,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("error (UNAVAILABLE): cannot read s3://weft-silent/works/: ReadTimeoutError"), (
        done.stderr
    )
    assert "WEFT_STORAGE_READ_TIMEOUT" in done.stderr
    assert 1 <= len(held) <= 5  # one botocore attempt per s3fs try (botocore's own retries made it 25)
