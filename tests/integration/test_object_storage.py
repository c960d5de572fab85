"""Object storage URLs (loaders/storage.py) against a real S3-compatible server (S3Proxy, tests/object_store.py).

An object reads as the local file does (gzip or not), a bucket prefix lists as its folder does, `weft build`
reads from and writes to a bucket from the command line, and a bad URL (a missing bucket or object, refused
credentials, a protocol with no file system, an endpoint that does not answer) is a clear error raised
before anything is written. The Spark build from and to a bucket, and `weft import s3://…`, are in
test_bulk_spark.py. No database is needed here.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import s3fs
from typer.testing import CliRunner

from tests.conftest import shared_path
from tests.object_store import ObjectStore, running_object_store
from weft.graph.errors import InvalidInput, Unavailable
from weft.loaders.bulk.build import BuildOptions, build_paths
from weft.loaders.bulk.output import import_file_differences
from weft.loaders.reader import Item, data_files, read_records
from weft.loaders.storage import download, is_url, location
from weft.server.cli import app

LOADED_AT = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
OPTIONS = BuildOptions(memory_limit="1GB", workers=1)
OPENALEX_DOCUMENT = shared_path("openalex", "works", "openalexPro_query_page_1.json")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ObjectStore]:
    with running_object_store(tmp_path_factory.mktemp("s3")) as running:
        yield running


@pytest.fixture(scope="module")
def dumps(store: ObjectStore) -> str:
    """s3://weft-dumps holding the shared arXiv file, the Semantic Scholar dataset samples (gzip JSON Lines)
    and one OpenAlex JSON document."""
    bucket = store.bucket("weft-dumps")
    fs = store.filesystem()
    fs.put(str(shared_path("arxiv")), "weft-dumps/arxiv", recursive=True)
    fs.put(str(shared_path("semanticscholar", "datasets_sample")), "weft-dumps/s2", recursive=True)
    fs.put(str(OPENALEX_DOCUMENT), f"weft-dumps/openalex/{OPENALEX_DOCUMENT.name}")
    return bucket


@pytest.fixture(scope="module")
def built(store: ObjectStore) -> str:
    return store.bucket("weft-built")


def _records(path: Path | str) -> list[tuple[str, object]]:
    return [(item.where, item.record) for item in read_records(location(path)) if isinstance(item, Item)]


def test_urls_are_told_from_paths() -> None:
    assert is_url("s3://b/k") and is_url("gs://b/k") and is_url("az://c/k")
    assert not is_url("/data/dump") and not is_url("file:///data/dump") and not is_url("relative/s3:/x")
    assert location("file:///data/dump") == Path("/data/dump")


def test_a_prefix_lists_the_files_its_folder_holds(dumps: str) -> None:
    local = shared_path("semanticscholar", "datasets_sample")
    remote = data_files([f"{dumps}/s2"])
    assert [p.parts[-2:] for p in remote] == [p.parts[-2:] for p in data_files([local])]
    assert len(remote) > 5 and all(p.name.endswith(".jsonl.gz") for p in remote)


def test_objects_read_as_the_local_files_do(dumps: str) -> None:
    """Every record and where it is, from gzip JSON Lines, plain JSON Lines and a JSON document."""
    papers = shared_path("semanticscholar", "datasets_sample", "papers", "papers-sample.jsonl.gz")
    arxiv = next(shared_path("arxiv").glob("*.jsonl"))
    for local, url in (
        (papers, f"{dumps}/s2/papers/{papers.name}"),
        (arxiv, f"{dumps}/arxiv/{arxiv.name}"),
        (OPENALEX_DOCUMENT, f"{dumps}/openalex/{OPENALEX_DOCUMENT.name}"),
    ):
        expected = _records(local)
        assert len(expected) > 1 and _records(url) == expected


def test_cli_builds_from_a_bucket_into_a_bucket(dumps: str, built: str, tmp_path: Path) -> None:
    """`weft build s3://… --out s3://…`: the uploaded files are the files a local build writes."""
    result = CliRunner().invoke(
        app, ["build", f"{dumps}/arxiv", "--out", f"{built}/cli", "--workers", "1", "--memory-limit", "1GB"]
    )
    assert result.exit_code == 0, result.output
    assert f"Next: weft import {built}/cli" in result.output
    local = build_paths([shared_path("arxiv")], tmp_path / "local", options=OPTIONS, echo=lambda m: None)
    fetched = download(location(f"{built}/cli"), tmp_path / "fetched", echo=lambda m: None)
    manifest = json.loads((fetched / "manifest.json").read_text(encoding="utf-8"))
    papers = sum(1 for _ in open(next(shared_path("arxiv").glob("*.jsonl")), encoding="utf-8"))
    assert manifest["counts"]["Paper"] == local.counts["Paper"] == papers
    # the CLI stamps its own load time, so compare everything but the load-time columns
    differences = import_file_differences(tmp_path / "local", fetched, ignore_suffix="loaded_at")
    assert differences == {}


def test_a_missing_bucket_or_prefix_is_refused_before_building(built: str, tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="no such file or folder: s3://weft-nowhere/dump"):
        build_paths(["s3://weft-nowhere/dump"], tmp_path / "out", options=OPTIONS, echo=lambda m: None)
    with pytest.raises(InvalidInput, match="no such file or folder"):
        build_paths([f"{built}/not-there"], tmp_path / "out", options=OPTIONS, echo=lambda m: None)
    with pytest.raises(InvalidInput, match="cannot write to s3://weft-nowhere/out: FileNotFoundError"):
        build_paths([shared_path("arxiv")], "s3://weft-nowhere/out", options=OPTIONS, echo=lambda m: None)
    assert not (tmp_path / "out").exists()


def test_a_protocol_without_a_file_system_names_the_extra(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match=r"gcsfs.*pip install 'weft\[storage\]'"):
        build_paths(["gs://weft-dumps/arxiv"], tmp_path / "out", options=OPTIONS, echo=lambda m: None)
    with pytest.raises(InvalidInput, match="Unsupported filesystem: 'nosuch'"):
        build_paths(["nosuch://weft-dumps/arxiv"], tmp_path / "out", options=OPTIONS, echo=lambda m: None)


@pytest.fixture
def s3_env(store: ObjectStore, monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """Change the S3 environment for one test; s3fs's cached clients are dropped before and after."""
    s3fs.S3FileSystem.clear_instance_cache()
    yield monkeypatch
    monkeypatch.undo()
    s3fs.S3FileSystem.clear_instance_cache()
    assert os.environ["AWS_ENDPOINT_URL"] == store.endpoint


def test_refused_credentials_are_bad_input(dumps: str, s3_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    s3_env.setenv("AWS_SECRET_ACCESS_KEY", "not-the-secret")
    with pytest.raises(InvalidInput, match=f"cannot read {dumps}/arxiv: PermissionError"):
        build_paths([f"{dumps}/arxiv"], tmp_path / "out", options=OPTIONS, echo=lambda m: None)


def test_an_endpoint_that_does_not_answer_is_unavailable(
    dumps: str, s3_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    s3_env.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")  # discard port: nothing listens
    s3_env.setenv("AWS_MAX_ATTEMPTS", "1")
    with pytest.raises(Unavailable, match="cannot read .*EndpointConnectionError"):
        build_paths([f"{dumps}/arxiv"], tmp_path / "out", options=OPTIONS, echo=lambda m: None)
    result = CliRunner().invoke(app, ["build", f"{dumps}/arxiv", "--out", str(tmp_path / "out")])
    assert result.exit_code == 1 and "UNAVAILABLE" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "out").exists()
