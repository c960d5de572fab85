"""A small Semantic Scholar release, "before" and "after", and the diff step between them, made from the real
records of ../shared/data/semanticscholar/datasets_sample (pure and deterministic), for `weft sync s2` tests.

`write_s2(folder)` writes `folder/before` and `folder/after` (each a full release: papers, authors, citations and
abstracts JSON Lines files, as `weft load` reads them) and `folder/diffs/<dataset>/<FROM>_to_<TO>/update_files`
and `delete_files` (gzip JSON Lines). The sample's papers, authors and abstracts are unrelated records, so the
fixture gives five sample papers four sample authors and citations between them. The changes (CHANGES):

* a changed title and abstract (P1);
* a paper that loses an author (P2 loses A3, who stays on P4) and one that gains one (P4 gains A1);
* removed and new citations (P1 no longer cites P3; P2 cites P4; the new paper cites P1);
* a deleted paper (P5, with the citation to it; its only author has no record and goes with it);
* a new paper by an existing author (P6, by A1);
* an author record re-issued (A4's counts);
* a deleted author (A5, whose only paper P3 is re-issued without them).
"""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any

from tests.conftest import shared_path

FROM, TO = "2025-01-07", "2025-01-14"
STEP = f"{FROM}_to_{TO}"
LATER = "2025-02-01T00:00:00.000Z"  # after every sample record's own `updated`
NEW_TITLE = "Optimization of alkaline protease, revised: a changed title"
NEW_ABSTRACT = "A changed abstract that replaces the one Semantic Scholar gave before"


def _sample(dataset: str) -> list[dict[str, Any]]:
    path = shared_path("semanticscholar", "datasets_sample", dataset, f"{dataset}-sample.jsonl.gz")
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def _base() -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str]]:
    """Papers P1..P6 and authors A1..A5 (sample records), and the abstracts' texts."""
    papers = copy.deepcopy(_sample("papers")[:6])
    authors = copy.deepcopy(_sample("authors")[:5])
    texts = [r["abstract"] for r in _sample("abstracts")[:2]]
    return papers, authors, texts


def _ids() -> dict[str, str]:
    papers, authors, _ = _base()
    out = {f"P{i + 1}": str(p["corpusid"]) for i, p in enumerate(papers)}
    out |= {f"A{i + 1}": str(a["authorid"]) for i, a in enumerate(authors)}
    return out


IDS = _ids()
CHANGES = {
    "retitled": "P1",
    "loses_author": ("P2", "A3"),
    "gains_author": ("P4", "A1"),
    "removed_citation": ("P1", "P3"),
    "new_citations": [("P2", "P4"), ("P6", "P1")],
    "deleted": "P5",
    "new_paper": ("P6", "A1"),
    "author_updated": "A4",
    "deleted_author": ("A5", "P3"),
}


def _mention(author: dict[str, Any]) -> dict[str, str]:
    return {"authorId": author["authorid"], "name": author["name"]}


def states() -> dict[str, dict[str, list[dict[str, Any]]]]:
    """The "before" and "after" releases and the step's updates and deletes, per dataset."""
    papers, authors, texts = _base()
    p = {f"P{i + 1}": r for i, r in enumerate(papers)}
    a = {f"A{i + 1}": r for i, r in enumerate(authors)}
    lists = {"P1": ["A1", "A2"], "P2": ["A2", "A3"], "P3": ["A1", "A5"], "P4": ["A3", "A4"]}
    for name, people in lists.items():
        p[name]["authors"] = [_mention(a[x]) for x in people]
    cid = {k: v["corpusid"] for k, v in p.items()}

    def cite(x: str, y: str) -> dict[str, Any]:
        return {"citingcorpusid": str(cid[x]), "citedcorpusid": str(cid[y]), "isinfluential": False,
                "contexts": None, "intents": None, "updated": "2022-01-01T00:00:00.000Z"}  # fmt: skip

    def abstract(x: str, text: str) -> dict[str, Any]:
        return {"corpusid": cid[x], "openaccessinfo": None, "abstract": text, "updated": "2022-01-01T00:00:00.000Z"}

    before_cites = [("P1", "P2"), ("P1", "P3"), ("P2", "P3"), ("P3", "P4"), ("P4", "P5")]
    before = {
        "papers": [p[x] for x in ("P1", "P2", "P3", "P4", "P5")],
        "authors": [a[x] for x in ("A1", "A2", "A3", "A4", "A5")],
        "citations": [cite(x, y) for x, y in before_cites],
        "abstracts": [abstract("P1", texts[0]), abstract("P2", texts[1])],
    }
    p1 = {**copy.deepcopy(p["P1"]), "title": NEW_TITLE, "updated": LATER}
    p2 = {**copy.deepcopy(p["P2"]), "authors": [_mention(a["A2"])], "updated": LATER}
    p3 = {**copy.deepcopy(p["P3"]), "authors": [_mention(a["A1"])], "updated": LATER}
    p4 = {**copy.deepcopy(p["P4"]), "authors": [_mention(a[x]) for x in ("A3", "A4", "A1")], "updated": LATER}
    p6 = {**copy.deepcopy(p["P6"]), "authors": [_mention(a["A1"])], "updated": LATER}
    a4 = {**copy.deepcopy(a["A4"]), "papercount": (a["A4"].get("papercount") or 0) + 1, "updated": LATER}
    new_abstract = abstract("P1", NEW_ABSTRACT)
    after_cites = [c for c in before_cites if c not in (("P1", "P3"), ("P4", "P5"))] + [("P2", "P4"), ("P6", "P1")]
    after = {
        "papers": [p1, p2, p3, p4, p6],
        "authors": [a["A1"], a["A2"], a["A3"], a4],
        "citations": [cite(x, y) for x, y in after_cites],
        "abstracts": [new_abstract, abstract("P2", texts[1])],
    }
    step = {
        "papers": ([p1, p2, p3, p4, p6], [{"corpusid": cid["P5"]}]),
        "authors": ([a4], [{"authorid": a["A5"]["authorid"]}]),
        "abstracts": ([new_abstract], []),
        "citations": ([cite("P2", "P4"), cite("P6", "P1")], [cite("P1", "P3"), cite("P4", "P5")]),
    }
    return {
        "before": before,
        "after": after,
        "updates": {k: v[0] for k, v in step.items()},
        "deletes": {k: v[1] for k, v in step.items()},
    }


def _jsonl(path: Path, records: list[dict[str, Any]], *, gz: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    if gz:
        path.write_bytes(gzip.compress(text.encode(), mtime=0))
    else:
        path.write_text(text, encoding="utf-8")


def write_s2(folder: Path) -> tuple[Path, Path, Path]:
    """`folder/before`, `folder/after` (full releases) and `folder/diffs` (the step between them)."""
    data = states()
    for state in ("before", "after"):
        for dataset, records in data[state].items():
            _jsonl(folder / state / f"{dataset}.jsonl", records)
    for dataset in data["updates"]:
        step = folder / "diffs" / dataset / STEP
        for kind, records in (("update", data["updates"][dataset]), ("delete", data["deletes"][dataset])):
            if records:  # a step with nothing of a kind has no file of it
                _jsonl(step / f"{kind}_files" / "part-0.jsonl.gz", records, gz=True)
    return folder / "before", folder / "after", folder / "diffs"
