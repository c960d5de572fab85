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
from pathlib import Path

from weft.graph.errors import InvalidInput
from weft.graph.sources import SOURCE_KEYS, SOURCE_NAMES
from weft.loaders import arxiv, openalex, s2
from weft.loaders.reader import JSON, UnknownFormat, data_files, is_object, sniff
from weft.loaders.rows import RecordRows

ATTACHING_KINDS = frozenset({"dataset:citations", "dataset:abstracts", "dataset:tldrs"})

# A source's row builder: the rows one raw record states, None for a record that writes nothing,
# or RejectedRecord (loaders.rows) for one it cannot use.
Builder = Callable[[JSON], RecordRows | None]


def _arxiv_kind(record: JSON) -> str | None:
    return "snapshot" if arxiv.accepts(record) else None


# Per source, in the order records are tried: the kind of a record of that source, None otherwise.
_KIND: dict[str, Callable[[JSON], str | None]] = {"arxiv": _arxiv_kind, "s2": s2.kind, "openalex": openalex.kind}
_BUILDER: dict[str, Builder] = {"arxiv": arxiv.build_rows, "s2": s2.build_rows, "openalex": openalex.build_rows}


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

    @property
    def attaches(self) -> bool:
        """Whether its rows only add to papers loaded from other files (S2 citations, abstracts, tldrs)."""
        return self.kind in ATTACHING_KINDS


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


def detect_file(path: Path, source: str = "auto") -> FileFormat:
    """The format of one file; UnknownFormat when it is none we know or not of `source`.

    With a source named, a first record that source's parser recognises is enough (even when it
    could pass for another source's too).
    """
    _check_source(source)
    container, record = sniff(path)  # raises UnknownFormat for non-JSON, empty or unreadable files
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


def plan(paths: Iterable[Path | str], source: str = "auto") -> list[tuple[Path, FileFormat]]:
    """Every data file under `paths` (folders recursively) with its format, all checked before any
    is loaded; reads only the start of each file.

    Files whose rows only attach to papers (S2 citations, abstracts, tldrs) come last, so one run
    over a dataset folder finds the papers it attaches to whatever the file names. Raises
    InvalidInput for an unknown source, a missing path, no data files, or listing every file refused.
    """
    try:
        _check_source(source)
        files = data_files(paths)
    except FileNotFoundError as exc:
        raise InvalidInput(str(exc), "path") from exc
    except ValueError as exc:
        raise InvalidInput(str(exc), "source") from exc
    if not files:
        raise InvalidInput("no data files under the given paths", "path")
    found: list[tuple[Path, FileFormat]] = []
    refused: list[str] = []
    for path in files:
        try:
            found.append((path, detect_file(path, source)))
        except UnknownFormat as exc:
            refused.append(str(exc))
    if refused:
        raise InvalidInput("refused, nothing was written:\n  " + "\n  ".join(refused), "path")
    return sorted(found, key=lambda pair: pair[1].attaches)
