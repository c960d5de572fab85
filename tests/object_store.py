"""A real S3-compatible server for the object storage tests: S3Proxy (org.gaul:s3proxy, fetched from Maven
Central by its coordinates, as the Neo4j server is) serving a local folder, on a free loopback port.

The S3 environment (AWS_ENDPOINT_URL, keys, region) is set while it runs, so s3fs, and every process the
tests start, reach it as they would reach S3; s3fs's cached clients are dropped when it starts and stops (a
client made for an earlier server would keep that server's endpoint).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import s3fs

from tests.conftest import free_port
from weft.graph import local_server
from weft.graph.settings import PROJECT_ROOT

S3PROXY = ("org.gaul", "s3proxy", "2.6.0", "jar-with-dependencies")
JAR_DIR = PROJECT_ROOT / "build" / "s3proxy"
KEY, SECRET = "weft-test", "weft-test-secret"
# S3Proxy 2.6 refuses the CRC checksum headers recent botocore adds by default (S3 itself takes them)
CHECKSUMS = {"request_checksum_calculation": "when_required", "response_checksum_validation": "when_required"}


def s3proxy_jar() -> Path:
    """The S3Proxy jar, copied from the local Maven repository (Maven fetches it the first time)."""
    group, artifact, version, classifier = S3PROXY
    jar = JAR_DIR / f"{artifact}-{version}-{classifier}.jar"
    if jar.exists():
        return jar
    if shutil.which("mvn") is None or shutil.which("java") is None:
        pytest.fail("Maven and Java are needed to fetch and run S3Proxy (the object storage tests' server)")
    coordinates = f"{group}:{artifact}:{version}:jar:{classifier}"
    cmd = ["mvn", "-B", "-q", "dependency:copy", f"-Dartifact={coordinates}", f"-DoutputDirectory={JAR_DIR}"]
    result = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=local_server.POM.parent)
    if result.returncode != 0 or not jar.exists():
        pytest.fail(f"fetching {coordinates} failed:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
    return jar


@dataclass(frozen=True)
class ObjectStore:
    """A running S3Proxy: its endpoint, the environment that reaches it, the folder it serves."""

    endpoint: str
    env: dict[str, str]
    root: Path

    def filesystem(self) -> s3fs.S3FileSystem:
        """A fresh s3fs client of this store (not fsspec's cached instance)."""
        return s3fs.S3FileSystem(
            key=KEY, secret=SECRET, endpoint_url=self.endpoint, skip_instance_cache=True, config_kwargs=CHECKSUMS
        )

    def bucket(self, name: str) -> str:
        """A new empty bucket; its URL."""
        self.filesystem().call_s3("create_bucket", Bucket=name)
        return f"s3://{name}"


@contextmanager
def running_object_store(folder: Path) -> Iterator[ObjectStore]:
    """S3Proxy serving `folder / "buckets"`, with the S3 environment set, until the block ends."""
    jar = s3proxy_jar()
    root = folder / "buckets"
    root.mkdir(parents=True)
    port = free_port()
    endpoint = f"http://127.0.0.1:{port}"
    conf = folder / "s3proxy.conf"
    conf.write_text(
        f"s3proxy.endpoint={endpoint}\ns3proxy.authorization=aws-v2-or-v4\n"
        f"s3proxy.identity={KEY}\ns3proxy.credential={SECRET}\n"
        f"jclouds.provider=filesystem\njclouds.filesystem.basedir={root}\n"
        f"jclouds.identity={KEY}\njclouds.credential={SECRET}\n",
        encoding="utf-8",
    )
    log = folder / "s3proxy.log"
    with log.open("wb") as out:
        process = subprocess.Popen(["java", "-jar", str(jar), "--properties", str(conf)], stdout=out, stderr=out)
    env = {
        "AWS_ACCESS_KEY_ID": KEY,
        "AWS_SECRET_ACCESS_KEY": SECRET,
        "AWS_ENDPOINT_URL": endpoint,
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_REQUEST_CHECKSUM_CALCULATION": "when_required",
        "AWS_RESPONSE_CHECKSUM_VALIDATION": "when_required",
    }
    saved = {name: os.environ.get(name) for name in env}
    try:
        _wait_for(port, process, log)
        os.environ.update(env)
        s3fs.S3FileSystem.clear_instance_cache()  # fsspec keeps clients per arguments, not per environment
        yield ObjectStore(endpoint, env, root)
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        s3fs.S3FileSystem.clear_instance_cache()
        process.terminate()
        process.wait(timeout=30)


def _wait_for(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"S3Proxy exited ({process.returncode}):\n{log.read_text(errors='replace')[-3000:]}")
        with closing(socket.socket()) as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    process.terminate()
    pytest.fail(f"S3Proxy did not answer on port {port} within 120 s")
