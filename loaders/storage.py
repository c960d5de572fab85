"""Where dump files and built folders live: a local path, or an object storage URL (`s3://bucket/…`,
`gs://…`, `az://…`, any fsspec protocol) read and written through universal-pathlib and fsspec.

URLs need the `storage` extra (`pip install 'weft[storage]'`: fsspec, s3fs, universal-pathlib; gcsfs or
adlfs for Google or Azure). Credentials, region and endpoint come from the storage library's own
environment (for S3: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_ENDPOINT_URL, AWS_PROFILE…).

A store that accepts connections but never answers fails a call within WEFT_STORAGE_CONNECT_TIMEOUT and
WEFT_STORAGE_READ_TIMEOUT per attempt: for S3 each call is one botocore attempt, retried by s3fs itself
(5 attempts with short pauses), so a silent endpoint fails a load in about five read timeouts, where
botocore's retries under s3fs's (25 attempts of 15 s) took about 7 minutes.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, cast

from weft.graph.errors import InvalidInput, Unavailable, WeftError
from weft.graph.settings import load_settings

if TYPE_CHECKING:
    from upath import UPath

    DataPath: TypeAlias = Path | UPath
else:
    DataPath: TypeAlias = Any


class FileSystem(Protocol):
    """The part of an fsspec file system Weft uses (fsspec ships no types)."""

    def find(self, path: str, detail: bool) -> dict[str, dict[str, object]]: ...
    def get_file(self, rpath: str, lpath: str) -> None: ...
    def put_file(self, lpath: str, rpath: str) -> None: ...
    def pipe_file(self, path: str, value: bytes) -> None: ...
    def rm_file(self, path: str) -> None: ...


def _fs(path: UPath) -> tuple[FileSystem, str]:
    """The file system of a URL and the path within it, without a trailing slash."""
    return cast(FileSystem, path.fs), path.path.rstrip("/")


_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
NEEDS_EXTRA = "object storage URLs need the storage extra of weft: pip install 'weft[storage]'"


def is_url(raw: object) -> bool:
    """True for `scheme://…` other than `file://` (pure).

    >>> is_url("s3://openalex/data"), is_url("/data/openalex"), is_url("file:///data")
    (True, False, False)
    """
    return isinstance(raw, str) and bool(_URL.match(raw)) and not raw.startswith("file://")


def location(raw: str | Path | DataPath, what: str = "path") -> DataPath:
    """A local Path, or a UPath for an object storage URL; InvalidInput when the URL cannot be served."""
    if not isinstance(raw, str):
        return raw
    if not is_url(raw):
        return Path(raw.removeprefix("file://"))
    try:
        from upath import UPath
    except ImportError as exc:
        raise InvalidInput(f"{raw}: {NEEDS_EXTRA}", what) from exc
    try:
        path = UPath(raw, **storage_options(raw))
        path.fs  # noqa: B018 - instantiates the file system now, so a missing backend fails here
    except ImportError as exc:
        raise InvalidInput(f"{raw}: {exc} ({NEEDS_EXTRA})", what) from exc
    except ValueError as exc:
        raise InvalidInput(f"{raw}: {exc}", what) from exc
    return path


def storage_options(url: str) -> dict[str, Any]:
    """The file system options that bound a silent store (WEFT_STORAGE_CONNECT_TIMEOUT and _READ_TIMEOUT):
    S3's botocore timeouts, with one attempt per call (s3fs retries the call itself); none for others."""
    if not url.startswith(("s3://", "s3a://")):
        return {}
    settings = load_settings()
    timeouts = {
        "connect_timeout": settings.storage_connect_timeout_s,
        "read_timeout": settings.storage_read_timeout_s,
        "retries": {"total_max_attempts": 1},
    }
    return {"config_kwargs": timeouts}


_TIMEOUT_HINT = "(WEFT_STORAGE_CONNECT_TIMEOUT and WEFT_STORAGE_READ_TIMEOUT bound each attempt)"


# Failures that are the request's, not the store's: a missing bucket or object, refused or missing credentials.
_REFUSALS = frozenset({"FileNotFoundError", "PermissionError", "NoCredentialsError", "PartialCredentialsError"})


def storage_error(where: object, exc: BaseException, doing: str = "read") -> WeftError:
    """What a failed storage call means: InvalidInput for what the user can fix (no such bucket or object,
    refused credentials), Unavailable for a store that did not answer (no endpoint, timeouts)."""
    message = f"cannot {doing} {where}: {exc.__class__.__name__}: {exc}"
    if "Timeout" in exc.__class__.__name__:
        message = f"{message} {_TIMEOUT_HINT}"
    refused = isinstance(exc, FileNotFoundError | PermissionError) or exc.__class__.__name__ in _REFUSALS
    return InvalidInput(message, "out" if doing == "write to" else "path") if refused else Unavailable(message)


def local_copy(path: DataPath, folder: Path) -> Path:
    """`path` itself when local; otherwise a copy of the object in `folder` (for readers that need a file)."""
    if isinstance(path, Path):
        return path
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{len(list(folder.iterdir())):06d}-{path.name}"
    fs, name = _fs(path)
    fs.get_file(name, str(target))
    return target


def _files_under(fs: FileSystem, root: str) -> list[str]:
    """The objects under `root`, sorted; files only: some stores also list folder entries (S3Proxy's
    StorageClass DIRECTORY)."""
    return sorted(name for name, info in fs.find(root, detail=True).items() if info.get("type") == "file")


def check_writable(url: UPath) -> None:
    """InvalidInput now, not after a long build, when `url` cannot be written (no bucket, no permission)."""
    fs, root = _fs(url)
    probe = f"{root}/.weft-write-probe"
    try:
        fs.pipe_file(probe, b"")
        fs.rm_file(probe)
    except Exception as exc:  # noqa: BLE001 - each fsspec backend raises its own errors (botocore, google-auth…)
        raise storage_error(url, exc, "write to") from exc


def upload(folder: Path, url: UPath, echo: Callable[[str], object] = print) -> int:
    """Replace what is under `url` with the files of `folder`; the number of files uploaded.

    Files go up one by one, the manifest last, so a reader that finds manifest.json finds every file.
    """
    fs, root = _fs(url)
    for name in _files_under(fs, root):  # one by one: not every S3-compatible store takes DeleteObjects
        fs.rm_file(name)
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    files.sort(key=lambda p: p.name == "manifest.json")
    for i, file in enumerate(files, 1):
        fs.put_file(str(file), f"{root}/{file.relative_to(folder).as_posix()}")
        echo(f"uploaded {i}/{len(files)} files to {url}")
    return len(files)


def download(url: UPath, folder: Path, echo: Callable[[str], object] = print) -> Path:
    """Copy the files under `url` into `folder` (emptied first); `folder`."""
    fs, root = _fs(url)
    try:  # each fsspec backend raises its own errors (botocore, google-auth…)
        names = _files_under(fs, root)
    except Exception as exc:  # noqa: BLE001
        raise storage_error(url, exc) from exc
    if not names:
        raise InvalidInput(f"nothing under {url}", "path")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for i, name in enumerate(names, 1):
        target = folder / name.removeprefix(root).lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        fs.get_file(name, str(target))
        echo(f"downloaded {i}/{len(names)} files from {url}")
    return folder
