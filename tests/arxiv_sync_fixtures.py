"""A small arXiv metadata dump, "before" and "after", made from the real records of
../shared/data/arxiv (pure and deterministic), for `weft sync arxiv` tests.

`write_arxiv(folder)` writes `folder/before.jsonl` (the dump's first seven records) and `folder/after.jsonl`, a
later dump in the same format, where (CHANGES):

* 0704.0007 has a new version (v3) with a changed title, a changed author list (the second author replaced,
  the third gone) and a category added;
* 0704.0002 has a new version (v3) that drops a category (cs.CG);
* 0704.0008 is new.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from tests.conftest import shared_path

NEW_DATE = "2025-12-01"
CHANGES = {"retitled": "0704.0007", "recategorised": "0704.0002", "new": "0704.0008"}
NEW_TITLE = "Loop quantum cosmology, revised: a changed title"


def _dump() -> list[dict[str, Any]]:
    lines = shared_path("arxiv", "arxiv-metadata-oai-snapshot.head200.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in lines.splitlines()[:8]]


def states() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The records of "before" and "after"."""
    records = _dump()
    before = copy.deepcopy(records[:7])
    after = copy.deepcopy(records)
    by_id = {r["id"]: r for r in after}
    seven = by_id["0704.0007"]
    seven["versions"].append({"version": "v3", "created": "Mon, 1 Dec 2025 10:00:00 GMT"})
    seven["update_date"] = NEW_DATE
    seven["title"] = NEW_TITLE
    seven["authors"] = "Alejandro Corichi and Mary Newcomb"
    seven["authors_parsed"] = [["Corichi", "Alejandro", ""], ["Newcomb", "Mary", ""]]
    seven["categories"] = "gr-qc hep-th"
    two = by_id["0704.0002"]
    two["versions"].append({"version": "v3", "created": "Sat, 15 Nov 2025 09:00:00 GMT"})
    two["update_date"] = "2025-11-15"
    two["categories"] = "math.CO"
    return before, after


def write_arxiv(folder: Path) -> tuple[Path, Path]:
    """`folder/before.jsonl` and `folder/after.jsonl`."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, records in zip(("before", "after"), states(), strict=True):
        path = folder / f"{name}.jsonl"
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
        out.append(path)
    return out[0], out[1]
