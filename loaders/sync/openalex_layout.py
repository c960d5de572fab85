"""Reading the OpenAlex snapshot layout: manifests, `updated_date=` partitions and `merged_ids` files.

`<root>/data/<entity>/manifest` (Redshift manifest JSON: `entries[]` with `url`, `meta.content_length`,
`meta.record_count`), `<root>/data/<entity>/updated_date=YYYY-MM-DD/part_NNN.gz` (gzip JSON Lines, a record
in the partition of the day of its last change) and `<root>/data/merged_ids/<entity>/YYYY-MM-DD.csv.gz`
(`merge_date,id,merge_into_id`, short ids). Reading only: nothing here writes.
"""

from __future__ import annotations

import csv
import gzip
import io
import re
from dataclasses import dataclass, field
from typing import Any, cast

import orjson

from weft.graph.errors import InvalidInput
from weft.graph.identity.ids import normalize_openalex
from weft.loaders.storage import DataPath, location, storage_error

# The entities Weft follows, in the order a day's partitions are applied (what a work mentions first).
SYNCED_ENTITIES = ("institutions", "authors", "works")
LABELS = {"works": "Paper", "authors": "Researcher", "institutions": "Institution"}
_PARTITION = re.compile(r"^updated_date=(\d{4}-\d{2}-\d{2})$")
_MERGE_FILE = re.compile(r"^(\d{4}-\d{2}-\d{2})\.csv\.gz$")


@dataclass(frozen=True)
class ManifestEntry:
    """One file the manifest lists: its path relative to the entity folder, size and record count."""

    relative: str
    content_length: int | None
    record_count: int | None


@dataclass(frozen=True)
class Manifest:
    """An entity's manifest as read (`raw` compares two reads byte for byte)."""

    entity: str
    raw: bytes
    entries: tuple[ManifestEntry, ...]
    record_count: int | None

    def count_of(self, relative: str) -> int | None:
        """The record count the manifest states for one file (None when it states none or lacks the file)."""
        return next((e.record_count for e in self.entries if e.relative == relative), None)


@dataclass
class Partition:
    """One entity's records of one day: its part files (relative to the entity folder), sorted."""

    entity: str
    date: str
    files: list[str] = field(default_factory=list[str])


@dataclass(frozen=True)
class Merge:
    """`id` was merged into `into` on `date` (short OpenAlex ids; `into` None: merged into nothing)."""

    entity: str
    date: str
    id: str
    into: str | None


def snapshot_root(raw: str | DataPath) -> DataPath:
    """The snapshot root under LOCATION (LOCATION itself or its parent when it is the `data` folder)."""
    root = location(raw, "location")
    try:
        if (root / "data").is_dir():
            return root
        if root.name == "data" and root.is_dir():
            return root.parent
    except Exception as exc:  # noqa: BLE001 - each fsspec backend raises its own errors
        raise storage_error(root, exc) from exc
    raise InvalidInput(
        f"{raw}: no OpenAlex snapshot here (expected a data/ folder holding <entity>/manifest)", "location"
    )


def entities_present(root: DataPath) -> tuple[list[str], list[str]]:
    """(synced entities present, other entity folders, which a sync skips) under `<root>/data`."""
    names = sorted(p.name for p in (root / "data").iterdir() if p.is_dir() and p.name not in ("merged_ids", "parquet"))
    return [e for e in SYNCED_ENTITIES if e in names], [n for n in names if n not in SYNCED_ENTITIES]


def _relative(url: str, entity: str) -> str:
    """A manifest entry's url as a path under the entity folder (`updated_date=…/part_000.gz`)."""
    marker = f"/data/{entity}/"
    if marker in url:
        return url.split(marker, 1)[1]
    if url.startswith(f"data/{entity}/"):
        return url.removeprefix(f"data/{entity}/")
    return url


def _count(meta: object, name: str) -> int | None:
    """An integer of a manifest's `meta` (None when absent or not a number)."""
    value = cast(dict[str, object], meta).get(name) if isinstance(meta, dict) else None
    return value if isinstance(value, int) else None


def parse_manifest(entity: str, raw: bytes) -> Manifest:
    """A manifest's entries and total (pure); InvalidInput when it is not manifest JSON.

    >>> m = parse_manifest("works", b'{"entries": [{"url": "s3://openalex/data/works/updated_date=2024-01-02/'
    ...     b'part_000.gz", "meta": {"content_length": 10, "record_count": 3}}], "meta": {"record_count": 3}}')
    >>> m.entries[0].relative, m.count_of("updated_date=2024-01-02/part_000.gz"), m.record_count
    ('updated_date=2024-01-02/part_000.gz', 3, 3)
    """
    try:
        doc: Any = orjson.loads(raw)
        entries = tuple(
            ManifestEntry(
                _relative(str(e["url"]), entity),
                _count(e.get("meta"), "content_length"),
                _count(e.get("meta"), "record_count"),
            )
            for e in doc["entries"]
        )
        total = _count(doc.get("meta"), "record_count")
    except (orjson.JSONDecodeError, KeyError, TypeError, AttributeError) as exc:
        raise InvalidInput(f"the {entity} manifest is not a snapshot manifest ({exc})", "location") from exc
    return Manifest(entity, raw, entries, total)


def read_manifest(root: DataPath, entity: str) -> Manifest:
    """The entity's manifest; InvalidInput when it is missing (OpenAlex removes it while it writes a partition)."""
    path = root / "data" / entity / "manifest"
    try:
        raw = path.read_bytes()
    except FileNotFoundError as exc:
        raise InvalidInput(
            f"{path}: no manifest (OpenAlex deletes it while it writes a partition: try again later)", "location"
        ) from exc
    except Exception as exc:  # noqa: BLE001 - each fsspec backend raises its own errors
        raise storage_error(path, exc) from exc
    return parse_manifest(entity, raw)


def partitions(root: DataPath, entity: str, after: str | None) -> list[Partition]:
    """The entity's partitions dated after `after` (all when None), oldest first, each with its part files."""
    found: list[Partition] = []
    for folder in (root / "data" / entity).iterdir():
        m = _PARTITION.match(folder.name)
        if m and folder.is_dir() and (after is None or m.group(1) > after):
            files = sorted(f"{folder.name}/{f.name}" for f in folder.iterdir() if f.name.endswith(".gz"))
            found.append(Partition(entity, m.group(1), files))
    return sorted(found, key=lambda p: p.date)


def merge_files(root: DataPath, entity: str, after: str | None, through: str | None) -> list[tuple[str, DataPath]]:
    """The entity's merged_ids files dated after `after` and up to `through` (None: no bound), oldest first."""
    folder = root / "data" / "merged_ids" / entity
    if not folder.is_dir():
        return []
    found: list[tuple[str, DataPath]] = []
    for path in folder.iterdir():
        m = _MERGE_FILE.match(path.name)
        if m and (after is None or m.group(1) > after) and (through is None or m.group(1) <= through):
            found.append((m.group(1), path))
    return sorted(found, key=lambda item: item[0])


def parse_merges(entity: str, text: str) -> list[Merge]:
    """The rows of a merged_ids CSV (pure): ids normalised to short ids; an empty `merge_into_id` is a
    merge into nothing (a withdrawn record).

    >>> parse_merges("authors", "merge_date,id,merge_into_id\\n2022-06-07,A2257618939,A2208157607\\n")
    [Merge(entity='authors', date='2022-06-07', id='A2257618939', into='A2208157607')]
    """
    rows: list[Merge] = []
    for row in csv.DictReader(io.StringIO(text)):
        old = normalize_openalex(row.get("id") or "")
        if old is None:
            raise InvalidInput(f"merged_ids/{entity}: a row without a valid id: {row}", "location")
        into = normalize_openalex(row.get("merge_into_id") or "") if row.get("merge_into_id") else None
        rows.append(Merge(entity, row.get("merge_date") or "", old, into))
    return rows


def read_merges(path: DataPath, entity: str) -> list[Merge]:
    """The merges of one merged_ids file (gzip CSV)."""
    try:
        text = gzip.decompress(path.read_bytes()).decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"{path}: not a gzip CSV ({exc})", "location") from exc
    return parse_merges(entity, text)
