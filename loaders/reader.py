"""Reading JSON dumps whatever their container: one object, an array, a `{meta, results}` page,
JSON Lines, each optionally gzipped. Yields raw records with where they came from; never raises on
bad content (a bad line or element becomes a `Problem`), only on a file that is no JSON at all.
"""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias, TypeGuard

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


@dataclass(frozen=True)
class Item:
    """One raw record and where it was: `where` is `line 12`, `results[3]`, `[3]` or `record`."""

    path: Path
    where: str
    record: JSON


@dataclass(frozen=True)
class Problem:
    """A part of a file that could not be read as a record (for the rejects file)."""

    path: Path
    where: str
    reason: str
    raw: str = ""

    def as_json(self) -> dict[str, str]:
        return {"file": str(self.path), "where": self.where, "reason": self.reason, "raw": self.raw[:2000]}


def data_files(paths: Iterable[Path | str]) -> list[Path]:
    """Every data file under `paths` (folders read recursively, sorted; docs like README.txt skipped).

    A path that does not exist raises FileNotFoundError; a file named explicitly is always included.
    """
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise FileNotFoundError(f"no such file or folder: {path}")
        if path.is_file():
            found.append(path)
            continue
        for child in sorted(p for p in path.rglob("*") if p.is_file()):
            name = child.name.removesuffix(".gz")
            if child.name.startswith(".") or Path(name).suffix.lower() in _SKIPPED_SUFFIXES:
                continue
            found.append(child)
    return found


def _open_text(path: Path) -> io.TextIOBase:
    with path.open("rb") as probe:
        magic = probe.read(2)
    if magic == b"\x1f\x8b":
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8", errors="replace")
    return path.open("r", encoding="utf-8", errors="replace")


def sniff(path: Path) -> tuple[str, JSON]:
    """(`json` | `jsonl`, first readable record) of a file; UnknownFormat when it holds none.

    Cheap for JSON Lines (stops at the first good line); reads a JSON document whole.
    """
    kind = _kind(path)
    first_problem = None
    for item in read_records(path):
        if isinstance(item, Item):
            return kind, item.record
        first_problem = first_problem or item
    if first_problem is not None:
        raise UnknownFormat(f"{path}: no readable record ({first_problem.where}: {first_problem.reason})")
    raise UnknownFormat(f"{path}: holds no records")


def _expand(path: Path, where: str, value: JSON) -> Iterator[Item | Problem]:
    """A page or array becomes its elements; anything else is one record."""
    if is_object(value) and is_array(results := value.get("results")) and "meta" in value:
        for i, record in enumerate(results):
            yield Item(path, f"{where}results[{i}]" if where else f"results[{i}]", record)
    elif is_array(value):
        for i, record in enumerate(value):
            yield Item(path, f"{where}[{i}]", record)
    else:
        yield Item(path, where or "record", value)


def read_records(path: Path) -> Iterator[Item | Problem]:
    """Every raw record of one file, in file order; bad lines or documents yield a Problem."""
    try:
        kind = _kind(path)
    except UnknownFormat as exc:
        yield Problem(path, "file", str(exc))
        return
    with _open_text(path) as fh:
        if kind == "json":
            text = fh.read()
            try:
                value = json.loads(text)
            except json.JSONDecodeError as exc:
                yield Problem(
                    path,
                    f"line {exc.lineno}",
                    f"malformed JSON: {exc.msg}",
                    text[max(0, exc.pos - 200) : exc.pos + 200],
                )
                return
            yield from _expand(path, "", value)
            return
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                yield Problem(path, f"line {lineno}", f"malformed JSON: {exc.msg}", line)
                continue
            if isinstance(value, list) or (isinstance(value, dict) and "meta" in value):
                yield from _expand(path, f"line {lineno} ", value)
            else:
                yield Item(path, f"line {lineno}", value)


def _kind(path: Path) -> str:
    """`json` or `jsonl`, judged from the first two non-blank lines; UnknownFormat for anything else.

    JSON Lines when a line holds a complete JSON value and more lines follow (a malformed first
    line still counts when the second is complete); otherwise one JSON document.
    """
    try:
        with _open_text(path) as fh:
            lines: list[str] = []
            for line in fh:
                if line.strip():
                    lines.append(line.strip().lstrip("\ufeff"))
                    if len(lines) == 2:
                        break
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise UnknownFormat(f"{path}: cannot be read ({exc})") from exc
    if not lines:
        raise UnknownFormat(f"{path}: empty file")
    if lines[0][0] not in "{[":
        raise UnknownFormat(f"{path}: not JSON or JSON Lines (starts with {lines[0][:30]!r})")
    if len(lines) == 1:
        return "json"
    return "jsonl" if _complete(lines[0]) or _complete(lines[1]) else "json"


def _complete(line: str) -> bool:
    try:
        value = json.loads(line)
    except json.JSONDecodeError:
        return False
    return isinstance(value, (dict, list)) and len(line) > 2
