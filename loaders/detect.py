"""Planning a load: which source format each dump file holds, judged from its first readable record.

`plan(paths, source)` is the one planner (`weft load`, `weft export-csv`): it checks every file
before anything is written, and a file of no known format, or of another source than the one asked
for, refuses the whole load with `InvalidInput` naming each such file and what it looks like. Each
`FileFormat` carries the row builder for its records, so a loader can read any file without
knowing the source:

- arxiv `snapshot`: `id`, `authors`, `categories`, `versions`.
- s2 `paper` / `author` / `page`: Graph API camelCase `paperId` / `authorId`; a result page
  `{total/offset/next/token, data}`.
- s2 `dataset:<name>`: S2AG lowercase fields: `citingcorpusid` (citations), `sha`+`corpusid`
  (paper-ids), `corpusid`+`openaccessinfo` (abstracts), `corpusid`+`model`+`text` (tldrs),
  `corpusid`+`title` (papers), `authorid` (authors), `id`+`name`+`issn`/`alternate_names`
  (publication-venues).
- openalex `work` / `author` / `institution`: `https://openalex.org/W…`/`A…`/`I…` ids or their
  telling fields (`loaders.openalex.kind`).

Containers (one object, an array, a `{meta, results}` page, JSON Lines, gzip of any) are the
reader's (`loaders.reader`); detection only looks at the first record they yield.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from weft.graph.errors import InvalidInput, WeftError
from weft.graph.sources import SOURCE_KEYS, SOURCE_NAMES
from weft.loaders import arxiv, openalex, s2
from weft.loaders.reader import JSON, UnknownFormat, Unreadable, data_files, is_object, sniff
from weft.loaders.rows import RecordRows, RejectedRecord
from weft.loaders.storage import DataPath, is_url, location, storage_error

ATTACHING_KINDS = frozenset({"dataset:citations", "dataset:abstracts", "dataset:tldrs"})

# A source's row builder: the rows one raw record states, None for a record that writes nothing,
# or RejectedRecord (loaders.rows) for one it cannot use.
Builder = Callable[[JSON], RecordRows | None]


def _arxiv_kind(record: JSON) -> str | None:
    return "snapshot" if arxiv.accepts(record) else None


# Per source, in the order records are tried: the kind of a record of that source, None otherwise.
_KIND: dict[str, Callable[[JSON], str | None]] = {"arxiv": _arxiv_kind, "s2": s2.kind, "openalex": openalex.kind}
_BUILDER: dict[str, Builder] = {"arxiv": arxiv.build_rows, "s2": s2.build_rows, "openalex": openalex.build_rows}


def builder(source: str) -> Builder:
    """The row builder of a source (`openalex`, `s2`, `arxiv`): what a worker process needs to read
    a file whose format was planned in another process."""
    return _BUILDER[source]


@dataclass(frozen=True)
class FileFormat:
    """What one file holds: `source`, `kind`, `container` (`json`/`jsonl`) and the row builder.

    `build_rows(record)` returns the record's RecordRows, None for a record that writes nothing
    (an S2 `paper-ids` row, a citation to no paper), or raises `RejectedRecord`; S2's picks the
    kind per record (papers, authors, pages, dataset rows).
    """

    source: str
    kind: str
    container: str
    build_rows: Builder
    why_unreadable: str = ""  # an UNREADABLE file's reason, with its path (`plan` reports it)

    @property
    def attaches(self) -> bool:
        """Whether its rows only add to papers loaded from other files (S2 citations, abstracts, tldrs)."""
        return self.kind in ATTACHING_KINDS


UNREADABLE = "unreadable"


def _no_rows(record: JSON) -> RecordRows | None:
    raise RejectedRecord("the file could not be read")


def unreadable_file(source: str, why: str = "") -> FileFormat:
    """The plan entry of a file with nothing to read (empty, not JSON, unreadable, a dangling link): reading
    it yields one reject naming it (loaders.reader), so a load goes on with the other files. `why`: the
    reason, with the file's path."""
    return FileFormat(source if source != "auto" else "-", UNREADABLE, "-", _no_rows, why)


def classify(record: JSON) -> tuple[str, str] | None:
    """`(source, kind)` of one raw record, or None when it is no known format.

    >>> classify({"paperId": "2d5673ca", "title": "Computing Machinery and Intelligence"})
    ('s2', 'paper')
    """
    if not is_object(record):
        return None
    for source, kind_of in _KIND.items():
        if (kind := kind_of(record)) is not None:
            return source, kind
    return None


def _looks_like(record: JSON) -> str:
    if is_object(record):
        return "an object with keys " + ", ".join(sorted(record)[:8])
    return f"a JSON {type(record).__name__}"


def _check_source(source: str) -> None:
    if source != "auto" and source not in SOURCE_KEYS:
        raise ValueError(f"unknown source {source!r} (expected auto, {', '.join(SOURCE_KEYS)})")


def detect_file(path: DataPath, source: str = "auto") -> FileFormat:
    """The format of one file; UnknownFormat when it is none we know or not of `source`.

    With a source named, a first record that source's parser recognises is enough (even when it
    could pass for another source's too).
    """
    _check_source(source)
    try:
        container, record = sniff(path)
    except Unreadable as exc:  # empty, not JSON, unreadable: loading it reports it, the other files still load
        return unreadable_file(source, str(exc))
    if source != "auto" and (kind := _KIND[source](record)) is not None:
        return FileFormat(source, kind, container, _BUILDER[source])
    found = classify(record)
    if found is None:
        raise UnknownFormat(
            f"{path}: not an OpenAlex, Semantic Scholar or arXiv file (first record is {_looks_like(record)})"
        )
    if source != "auto":
        raise UnknownFormat(
            f"{path}: holds {SOURCE_NAMES[found[0]]} {found[1]} records, not {SOURCE_NAMES[source]} "
            f"(use `weft load {found[0]}` or `weft load auto`)"
        )
    return FileFormat(found[0], found[1], container, _BUILDER[found[0]])


# OpenAlex snapshot entity folders (`data/<entity>/…`) whose records Weft does not load: skipped.
UNLOADED_OPENALEX = frozenset(
    "sources concepts topics funders publishers fields subfields domains keywords continents countries "
    "institution-types languages licenses sdgs work-types source-types awards".split()
)
# OpenAlex `merged_ids/<entity>/` folders and the label whose `openalex_id` their ids are.
MERGED_ENTITIES = {"works": "Paper", "authors": "Researcher", "institutions": "Institution"}
# Semantic Scholar datasets whose delete files remove an entity: its key field, label, key property.
S2_DELETES = {"papers": ("corpusid", "Paper", "corpus_id"), "authors": ("authorid", "Researcher", "s2_id")}
_DELETE_FOLDERS = frozenset({"deletes", "delete_files"})


@dataclass(frozen=True)
class DeleteFile:
    """An S2 diff's delete file: the entities (by `label`.`prop` from the record field `field`) it
    removes from the base dump and from diffs up to `seq`; `dataset` is None when none is known."""

    path: DataPath
    dataset: str | None
    seq: int


@dataclass
class Layout:
    """What a set of paths holds, by snapshot layout: data files (with their format and diff sequence,
    0 for a base dump), S2 delete files, OpenAlex merged_ids files, and notes on what is skipped."""

    data: list[tuple[DataPath, FileFormat, int]]
    deletes: list[DeleteFile]
    merged: list[tuple[DataPath, str]]
    notes: list[str]


def _role(path: DataPath) -> str:
    """`manifest`, `merged`, `unloaded`, `delete` or `data`, from where a file sits in a snapshot."""
    parts = path.parts
    if path.name in ("manifest.json", "manifest"):  # a build's; an OpenAlex snapshot entity's (no extension)
        return "manifest"
    if "merged_ids" in parts:
        return "merged"
    if "data" in parts:
        i = len(parts) - 1 - parts[::-1].index("data")
        if i + 1 < len(parts) - 1 and parts[i + 1] in UNLOADED_OPENALEX:
            return "unloaded"
    if _DELETE_FOLDERS & set(parts):
        return "delete"
    return "data"


def _diff_seq(path: DataPath, diffs: list[str]) -> int:
    """0 for a base dump file; for a file under `diffs/<name>/`, 1 + the rank of <name> among the diffs."""
    parts = path.parts
    if "diffs" in parts:
        i = parts.index("diffs")
        if i + 1 < len(parts) - 1:
            return diffs.index(parts[i + 1]) + 1
    return 0


def _s2_dataset(path: DataPath) -> str | None:
    return next((part for part in reversed(path.parts) if part in S2_DELETES), None)


def merged_files(paths: Iterable[DataPath | str]) -> list[tuple[DataPath, str]]:
    """OpenAlex `merged_ids/<entity>/*.csv.gz` files under `paths`, with the label of their ids."""
    found: list[tuple[DataPath, str]] = []
    for raw in paths:
        root = location(raw)
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*.csv.gz")):
            entity = path.parent.name
            if path.parent.parent.name == "merged_ids" and entity in MERGED_ENTITIES:
                found.append((path, MERGED_ENTITIES[entity]))
    return found


def _listing(paths: list[DataPath | str], source: str) -> tuple[list[DataPath], list[tuple[DataPath, str]]]:
    """The data files and merged_ids files under `paths`; InvalidInput for what cannot be listed."""
    try:
        _check_source(source)
        return data_files(paths), merged_files(paths)
    except FileNotFoundError as exc:
        raise InvalidInput(str(exc), "path") from exc
    except ValueError as exc:
        raise InvalidInput(str(exc), "source") from exc
    except WeftError:
        raise
    except Exception as exc:  # object storage: each fsspec backend raises its own errors (botocore, google-auth…)
        if not any(is_url(p) for p in paths):
            raise
        raise storage_error(", ".join(map(str, paths)), exc) from exc


def layout(paths: Iterable[DataPath | str], source: str = "auto") -> Layout:
    """The files under `paths` by role, every data file's format checked as `plan` does.

    Understands the OpenAlex snapshot (`data/<entity>/updated_date=…/part_NNN.gz`, `manifest.json`,
    `merged_ids/<entity>/*.csv.gz`), Semantic Scholar datasets (a folder per dataset; diffs as
    `diffs/<from>_<to>/<dataset>/updates|deletes/…`) and the arXiv snapshot (one JSON Lines file).
    """
    files, merged = _listing(list(paths), source)
    diffs = sorted({p.parts[p.parts.index("diffs") + 1] for p in files if "diffs" in p.parts[:-1]})
    result = Layout([], [], merged, [])
    skipped: dict[str, int] = {}
    refused: list[str] = []
    for path in files:
        role = _role(path)
        if role in ("manifest", "merged", "unloaded"):
            skipped[role] = skipped.get(role, 0) + 1
        elif role == "delete":
            result.deletes.append(DeleteFile(path, _s2_dataset(path), _diff_seq(path, diffs)))
        else:
            try:
                result.data.append((path, detect_file(path, source), _diff_seq(path, diffs)))
            except UnknownFormat as exc:
                refused.append(str(exc))
    if refused:
        raise InvalidInput("refused, nothing was written:\n  " + "\n  ".join(refused), "path")
    if not result.data:
        raise InvalidInput("no data files under the given paths", "path")
    if skipped.get("unloaded"):
        result.notes.append(f"{skipped['unloaded']} files of OpenAlex entities Weft does not load skipped")
    result.data.sort(key=lambda item: (item[1].attaches, item[2]))
    return result


def plan(paths: Iterable[DataPath | str], source: str = "auto") -> list[tuple[DataPath, FileFormat]]:
    """Every data file under `paths` (folders recursively) with its format, all checked before any
    is loaded; reads only the start of each file.

    Snapshot layouts are understood (`layout`): OpenAlex manifests, merged_ids lists and entity
    folders Weft does not load are skipped, S2 delete files are not data (the bulk path applies them).
    Files whose rows only attach to papers (S2 citations, abstracts, tldrs) come last, so one run
    over a dataset folder finds the papers it attaches to whatever the file names; diffs come after
    the base dump, in order. Raises InvalidInput for an unknown source, a missing path, no data files,
    or listing every file refused, each with its reason (so does a file none could be read of).
    """
    planned = [(path, fmt) for path, fmt, _ in layout(paths, source).data]
    if all(fmt.kind == UNREADABLE for _, fmt in planned):
        reasons = "\n  ".join(fmt.why_unreadable or f"{path}: cannot be read" for path, fmt in planned)
        raise InvalidInput(f"refused, nothing was written: no file could be read:\n  {reasons}", "path")
    return planned
