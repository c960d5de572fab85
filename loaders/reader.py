"""Reading JSON dumps whatever their container: one object, an array, a `{meta, results}` page,
JSON Lines, each optionally gzipped. Yields raw records with where they came from; never raises on
bad content: a bad line or element becomes a `Problem`, and so does a file that cannot be read (empty,
not JSON, unreadable, a dangling link) or is cut short (a truncated gzip: every complete line before
the cut is read). Memory stays bounded: a line longer than `MAX_LINE_BYTES` is skipped unread, a JSON
document larger than `MAX_DOCUMENT_BYTES` is not read (limits in loaders/fields.py).
"""

from __future__ import annotations

import gzip
import io
import json
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TypeAlias, TypeGuard, cast

import orjson

from weft.loaders.fields import MAX_DOCUMENT_BYTES, MAX_LINE_BYTES
from weft.loaders.storage import DataPath, location

# A raw record as json.loads returns it: any JSON value, unchecked until a parser looks at it.
JSON: TypeAlias = Any
# A JSON object (json.loads always gives string keys).
JSONObject: TypeAlias = dict[str, JSON]


def is_object(value: object) -> TypeGuard[JSONObject]:
    """Whether a raw value is a JSON object (narrows it to `dict[str, JSON]`)."""
    return isinstance(value, dict)


def is_array(value: object) -> TypeGuard[list[JSON]]:
    """Whether a raw value is a JSON array (narrows it to `list[JSON]`)."""
    return isinstance(value, list)


# Files found while walking folders that are documentation, not data.
_SKIPPED_SUFFIXES = {".md", ".txt", ".rst", ".html", ".pdf", ".py", ".csv"}


class UnknownFormat(ValueError):
    """A file that is not JSON, JSON Lines or a gzip of either; nothing of it is read."""


class Unreadable(UnknownFormat):
    """A file with nothing to read: empty, not JSON at all, unreadable (permissions, a dangling link) or
    without one readable record. A load reports it and goes on with the other files."""


# Failures of reading a file's bytes (a gzip cut short or corrupt, an I/O error): the rest of the file is lost.
_READ_ERRORS = (OSError, EOFError, zlib.error)


@dataclass(frozen=True)
class Item:
    """One raw record and where it was: `where` is `line 12`, `results[3]`, `[3]` or `record`."""

    path: DataPath
    where: str
    record: JSON


@dataclass(frozen=True)
class Problem:
    """A part of a file that could not be read as a record (for the rejects file)."""

    path: DataPath
    where: str
    reason: str
    raw: str = ""
    whole_file: bool = False  # the file, or all of it from `where` on, could not be read

    def as_json(self) -> dict[str, str]:
        entry = {"file": str(self.path), "where": self.where, "reason": self.reason, "raw": self.raw[:2000]}
        return {**entry, "scope": "file"} if self.whole_file else entry


def data_files(paths: Iterable[DataPath | str]) -> list[DataPath]:
    """Every data file under `paths` (folders read recursively, sorted; docs like README.txt skipped).

    A path that does not exist raises FileNotFoundError; a file named explicitly is always included.
    Dangling links are included (reading them reports them), never skipped silently.
    """
    found: list[DataPath] = []
    for raw in paths:
        path = location(raw)
        if not path.exists() and not path.is_symlink():
            raise FileNotFoundError(f"no such file or folder: {path}")
        if not path.is_dir():
            found.append(path)
            continue
        for child in sorted(p for p in path.rglob("*") if p.is_file() or (p.is_symlink() and not p.exists())):
            name = child.name.removesuffix(".gz")
            if child.name.startswith(".") or Path(name).suffix.lower() in _SKIPPED_SUFFIXES:
                continue
            found.append(child)
    return found


def _open_binary(path: DataPath) -> IO[bytes] | gzip.GzipFile:
    """The file's bytes, gunzipped when it is a gzip (judged by its magic number, not its name)."""
    if isinstance(path, Path):
        with path.open("rb") as probe:
            magic = probe.read(2)
        return gzip.open(path, "rb") if magic == b"\x1f\x8b" else path.open("rb")
    # object storage: fsspec's stream reads ahead in blocks; buffered, as its readline takes no size
    raw = io.BufferedReader(cast("io.RawIOBase", path.open("rb")), 1 << 20)
    return _OwningGzipFile(raw) if raw.peek(2)[:2] == b"\x1f\x8b" else raw


class _OwningGzipFile(gzip.GzipFile):
    """A gzip over an open stream that it closes too (GzipFile leaves a passed stream open)."""

    def __init__(self, raw: IO[bytes]) -> None:
        super().__init__(fileobj=raw, mode="rb")
        self._raw = raw

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._raw.close()


def _bounded_lines(fh: IO[bytes] | gzip.GzipFile) -> Iterator[tuple[int, bytes | None]]:
    """(line number, bytes) of each line; None for a line longer than MAX_LINE_BYTES, skipped unread."""
    lineno = 0
    while line := fh.readline(MAX_LINE_BYTES + 1):
        lineno += 1
        if len(line) <= MAX_LINE_BYTES:
            yield lineno, line
            continue
        while line and not line.endswith(b"\n"):
            line = fh.readline(MAX_LINE_BYTES)
        yield lineno, None


def _text(line: bytes) -> str:
    return line.decode("utf-8", errors="replace")


def sniff(path: DataPath) -> tuple[str, JSON]:
    """(`json` | `jsonl`, first readable record) of a file; UnknownFormat when it holds none.

    Cheap for JSON Lines (stops at the first good line); reads a JSON document whole. Unreadable for a
    file with nothing to read.
    """
    kind = _kind(path)
    first_problem = None
    for item in read_records(path):
        if isinstance(item, Item):
            return kind, item.record
        first_problem = first_problem or item
    if first_problem is not None:
        raise Unreadable(f"{path}: no readable record ({first_problem.where}: {first_problem.reason})")
    raise Unreadable(f"{path}: holds no records")


def _expand(path: DataPath, where: str, value: JSON) -> Iterator[Item | Problem]:
    """A page or array becomes its elements; anything else is one record."""
    if is_object(value) and is_array(results := value.get("results")) and "meta" in value:
        for i, record in enumerate(results):
            yield Item(path, f"{where}results[{i}]" if where else f"results[{i}]", record)
    elif is_array(value):
        for i, record in enumerate(value):
            yield Item(path, f"{where}[{i}]", record)
    else:
        yield Item(path, where or "record", value)


def read_records(path: DataPath) -> Iterator[Item | Problem]:
    """Every raw record of one file, in file order; bad lines or documents yield a Problem, and so does a
    file that cannot be read or is cut short (after the records read before the cut)."""
    try:
        kind = _kind(path)
    except UnknownFormat as exc:
        yield Problem(path, "file", str(exc), whole_file=True)
        return
    if kind == "json":
        yield from _document_records(path)
        return
    lineno = 0
    try:
        with _open_binary(path) as fh:
            for lineno, line in _bounded_lines(fh):
                yield from _line_records(path, lineno, line)
    except _READ_ERRORS as exc:
        reason = f"file cut short or unreadable after line {lineno} ({exc.__class__.__name__}: {exc}); the rest is lost"
        yield Problem(path, f"line {lineno + 1}", reason, whole_file=True)


# Every digit as 0, to find a run of 20 digits with one `in` (a regex takes 10x as long).
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_TWENTY_DIGITS = b"0" * 20


def _loads(line: bytes) -> JSON:
    """orjson for speed; the stdlib, whose value or error is then the answer, for what orjson refuses
    (NaN, lone surrogates, bad JSON) and for lines with a run of 20 digits (orjson reads an integer past
    64 bits as a float; the stdlib keeps it exact)."""
    if _TWENTY_DIGITS in line.translate(_DIGITS_AS_ZERO):
        return json.loads(line)
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        return json.loads(line)


def _line_records(path: DataPath, lineno: int, line: bytes | None) -> Iterator[Item | Problem]:
    """The record(s) of one JSON Lines line (a line may hold an array or a page), or its Problem."""
    if line is None:
        yield Problem(path, f"line {lineno}", f"line longer than {MAX_LINE_BYTES} bytes, skipped unread")
        return
    if not line.strip():
        return
    try:
        value = _loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        yield Problem(path, f"line {lineno}", f"malformed JSON: {getattr(exc, 'msg', exc)}", _text(line[:4000]))
        return
    except (ValueError, RecursionError) as exc:  # a number of thousands of digits, nesting thousands deep
        yield Problem(path, f"line {lineno}", f"unreadable JSON: {exc.__class__.__name__}", _text(line[:4000]))
        return
    if isinstance(value, list) or (isinstance(value, dict) and "meta" in value):
        yield from _expand(path, f"line {lineno} ", value)
    else:
        yield Item(path, f"line {lineno}", value)


def _document_records(path: DataPath) -> Iterator[Item | Problem]:
    """The records of a file holding one JSON document (read whole, up to MAX_DOCUMENT_BYTES)."""
    try:
        with _open_binary(path) as fh:
            data = fh.read(MAX_DOCUMENT_BYTES + 1)
    except _READ_ERRORS as exc:
        yield Problem(path, "file", f"file cut short or unreadable ({exc.__class__.__name__}: {exc})", whole_file=True)
        return
    if len(data) > MAX_DOCUMENT_BYTES:
        reason = f"a JSON document larger than {MAX_DOCUMENT_BYTES} bytes, not read"
        yield Problem(path, "file", reason, whole_file=True)
        return
    text = _text(data)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        around = text[max(0, exc.pos - 200) : exc.pos + 200]
        yield Problem(path, f"line {exc.lineno}", f"malformed JSON: {exc.msg}", around)
        return
    except (ValueError, RecursionError) as exc:
        yield Problem(path, "file", f"unreadable JSON: {exc.__class__.__name__}", text[:400])
        return
    yield from _expand(path, "", value)


def _kind(path: DataPath) -> str:
    """`json` or `jsonl`, judged from the first two non-blank lines; UnknownFormat for anything else.

    JSON Lines when a line holds a complete JSON value and more lines follow (a malformed first
    line still counts when the second is complete); otherwise one JSON document.
    """
    lines: list[str] = []
    try:
        with _open_binary(path) as fh:
            for _, line in _bounded_lines(fh):
                text = "{" if line is None else _text(line).strip().lstrip("\ufeff")  # too long: incomplete
                if text:
                    lines.append(text)
                    if len(lines) == 2:
                        break
    except _READ_ERRORS as exc:
        if not lines:
            raise Unreadable(f"{path}: cannot be read ({exc.__class__.__name__}: {exc})") from exc
    if not lines:
        raise Unreadable(f"{path}: empty file")
    if lines[0][0] not in "{[":
        raise Unreadable(f"{path}: not JSON or JSON Lines (starts with {lines[0][:30]!r})")
    if len(lines) == 1:
        return "json"
    return "jsonl" if _complete(lines[0]) or _complete(lines[1]) else "json"


def _complete(line: str) -> bool:
    try:
        value = json.loads(line)
    except json.JSONDecodeError:
        return False
    return isinstance(value, (dict, list)) and len(line) > 2
