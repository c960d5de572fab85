"""Which source format a dump file holds, judged from its first readable record (pure but for reading it).

`detect_files(paths, source)` checks every file before anything is written: a file of no known
format, or of another source than the one asked for, raises `UnknownFormat` naming the file and
what it looks like. Each `FileFormat` carries the row builder for its records, so a loader can
write any file without knowing the source:

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
from typing import Any

from weft.graph.sources import SOURCE_KEYS, SOURCE_NAMES
from weft.loaders import arxiv, openalex, s2
from weft.loaders.reader import UnknownFormat, data_files, sniff
from weft.loaders.rows import RecordRows

ATTACHING_KINDS = frozenset({"dataset:citations", "dataset:abstracts", "dataset:tldrs"})


@dataclass(frozen=True)
class FileFormat:
    """What one file holds: `source`, `kind`, `container` (`json`/`jsonl`) and the row builder.

    `build_rows(record)` returns the record's RecordRows, None for a record that writes nothing
    (an S2 `paper-ids` row, a citation to no paper), or raises `RejectedRecord`.
    """

    source: str
    kind: str
    container: str
    build_rows: Callable[[Any], RecordRows | None]

    @property
    def attaches(self) -> bool:
        """Whether its rows only add to papers loaded from other files (S2 citations, abstracts, tldrs)."""
        return self.kind in ATTACHING_KINDS

    def describe(self) -> str:
        """`Semantic Scholar dataset:papers (jsonl)`."""
        return f"{SOURCE_NAMES[self.source]} {self.kind} ({self.container})"


def classify(record: Any) -> tuple[str, str] | None:
    """`(source, kind)` of one raw record, or None when it is no known format.

    >>> classify({"paperId": "2d5673ca", "title": "Computing Machinery and Intelligence"})
    ('s2', 'paper')
    """
    if not isinstance(record, dict):
        return None
    if arxiv.accepts(record):
        return "arxiv", "snapshot"
    if (s2_kind := s2.kind(record)) is not None:
        return "s2", s2_kind
    if (kind := openalex.kind(record)) is not None:
        return "openalex", kind
    return None


def detect_source(path: Path, first: Any) -> str | None:
    """The source of a file from its first record (the hook `loaders.run.plan` calls); None if unknown."""
    found = classify(first)
    return found[0] if found else None


def load_order(path: Path, first: Any) -> int:
    """0 for files of entities, 1 for files that only attach to papers loaded from others (load last)."""
    found = classify(first)
    return 1 if found and found[1] in ATTACHING_KINDS else 0


def _builder(source: str) -> Callable[[Any], RecordRows | None]:
    """The source's row builder; S2's picks the kind per record (papers, authors, pages, dataset rows)."""
    return {"arxiv": arxiv.build_rows, "openalex": openalex.build_rows, "s2": s2.build_rows}[source]


def _looks_like(record: Any) -> str:
    if isinstance(record, dict):
        return "an object with keys " + ", ".join(sorted(map(str, record))[:8])
    return f"a JSON {type(record).__name__}"


def detect_file(path: Path, source: str = "auto") -> FileFormat:
    """The format of one file; UnknownFormat when it is none we know or not of `source`."""
    if source != "auto" and source not in SOURCE_KEYS:
        raise ValueError(f"unknown source {source!r} (expected auto, {', '.join(SOURCE_KEYS)})")
    container, record = sniff(path)  # raises UnknownFormat for non-JSON, empty or unreadable files
    found = classify(record)
    if found is None:
        raise UnknownFormat(
            f"{path}: not an OpenAlex, Semantic Scholar or arXiv file (first record is {_looks_like(record)})"
        )
    if source != "auto" and found[0] != source:
        raise UnknownFormat(
            f"{path}: holds {SOURCE_NAMES[found[0]]} {found[1]} records, not {SOURCE_NAMES[source]} "
            f"(use `weft load {found[0]}` or `weft load auto`)"
        )
    return FileFormat(found[0], found[1], container, _builder(found[0]))


def detect_files(paths: Iterable[Path | str], source: str = "auto") -> list[tuple[Path, FileFormat]]:
    """Every data file under `paths` with its format, all checked before any is loaded.

    Files whose rows only attach to papers (S2 citations, abstracts, tldrs) come last, so one run
    over a dataset folder finds the papers it attaches to whatever the file names. Raises
    UnknownFormat listing every file that is refused (FileNotFoundError for a missing path).
    """
    found: list[tuple[Path, FileFormat]] = []
    refused: list[str] = []
    for path in data_files(paths):
        try:
            found.append((path, detect_file(path, source)))
        except UnknownFormat as exc:
            refused.append(str(exc))
    if refused:
        raise UnknownFormat("refusing to load, nothing was written:\n  " + "\n  ".join(refused))
    return sorted(found, key=lambda pair: pair[1].attaches)
