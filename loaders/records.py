"""One raw record to the rows it writes, or to the reject it is: the step the online loader
(loaders.run) and the bulk path's staging (loaders.bulk.stage) share, so both reject the same records with
the same reasons.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from weft.loaders.detect import Builder
from weft.loaders.fields import check_fields, coerce_record
from weft.loaders.reader import Item, Problem
from weft.loaders.rows import RecordRows, RejectedRecord
from weft.loaders.write import check_record

# What a builder may raise on a record it cannot use: RejectedRecord says why; the others are a
# record of an unexpected shape, reported with the exception's class.
_UNUSABLE = (RejectedRecord, KeyError, TypeError, ValueError, AttributeError, OverflowError, RecursionError)


@dataclass(frozen=True)
class Rejected:
    """A part of a file that is read but not loaded: `entry` is its line in the rejects file
    (`file`, `where`, `reason`, `raw`: the record as JSON, cut at 2,000 characters)."""

    entry: dict[str, str]


def record_rows(build_rows: Builder, item: Item | Problem) -> RecordRows | Rejected | None:
    """The checked rows of one item read from a file.

    None for a record that is read (and counted) but writes nothing by design (an S2 paper-ids
    row…); Rejected for a part of the file that was no record, or a record its builder refuses or
    whose rows fail `loaders.write.check_record`.
    """
    if isinstance(item, Problem):
        return Rejected(item.as_json())
    try:
        rows = build_rows(coerce_record(item.record))
        if rows is not None:
            check_record(rows)
            check_fields(rows)
    except _UNUSABLE as exc:
        reason = str(exc) if isinstance(exc, RejectedRecord) else f"{exc.__class__.__name__}: {exc}"
        raw = json.dumps(item.record, ensure_ascii=False, default=str)[:2000]
        return Rejected({"file": str(item.path), "where": item.where, "reason": reason, "raw": raw})
    return rows


def write_rejects(path: Path, rejects: list[dict[str, str]]) -> None:
    """The rejects file: one entry per line (JSON Lines), its folder made when missing."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for reject in rejects:
            fh.write(json.dumps(reject, ensure_ascii=False) + "\n")
