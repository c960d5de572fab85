"""A small OpenAlex snapshot, "before" and "after", made from the real records of ../shared/data (pure and
deterministic: the same files every time), for `weft sync` tests.

`write_snapshots(folder)` writes `folder/before` and `folder/after` in the snapshot layout
(`data/<entity>/manifest`, `data/<entity>/updated_date=…/part_000.gz`, `data/merged_ids/<entity>/<date>.csv.gz`).
"before" holds works of Peter Butcher's first page of works (and three author and one institution records);
"after" is what OpenAlex would publish later: each changed record moved out of its old partition into an
update partition (UPDATE_1 or UPDATE_2), plus the merged_ids files. The changes (CHANGES names them):

* a work that loses an author (Ritsos leaves W2943339944) and one that gains one (Roberts joins W2770361936);
* a changed title and abstract (W3000695681, on the first update day);
* removed and new references (W4210711976 drops two, one of them a loaded work, and cites W2028409050);
* two authors merged into one (Nigel W. John, A5045205518, into Roberts, A5009341822: the works naming him
  are re-issued naming Roberts, Roberts's own record is re-issued);
* a merged institution (University of Chester, I137265193, into Bangor University, I161548249: the works
  and author records naming it are re-issued);
* a new work by an existing researcher (W4402401980);
* a deleted work (W2164467258): OpenAlex has no delete files; a record it withdraws leaves the snapshot and
  its id is listed in merged_ids with an empty `merge_into_id`, which Weft reads as "OpenAlex no longer
  states this entity" (graph/MODEL.md, "Sync").
"""

from __future__ import annotations

import copy
import gzip
import io
import json
from pathlib import Path
from typing import Any

from tests.conftest import shared_path

OA = "https://openalex.org/"
WORKS = (
    "W3000695681", "W2943339944", "W2770361936", "W2936685177", "W4210711976",
    "W2028409050", "W2164467258", "W2034370361",
)  # fmt: skip
NEW_WORK = "W4402401980"
AUTHORS = ("A5032473237", "A5065371627", "A5009341822", "A5025875274")  # the last never changes
INSTITUTIONS = ("I161548249",)
UPDATE_1, UPDATE_2 = "2025-12-01", "2025-12-02"  # after every record's own date
CHANGES = {
    "loses_author": ("W2943339944", "A5065371627"),
    "gains_author": ("W2770361936", "A5009341822"),
    "retitled": "W3000695681",
    "references": ("W4210711976", ["W2943339944", "W2955103500"], "W2028409050"),
    "merged_author": ("A5045205518", "A5009341822"),
    "merged_institution": ("I137265193", "I161548249"),
    "new_work": NEW_WORK,
    "deleted_work": "W2164467258",
}
NEW_TITLE = "Immersive analytics, revised: a changed title"
NEW_ABSTRACT = "A changed abstract that replaces the old one"


def _short(url: str) -> str:
    return url.rsplit("/", 1)[-1]


def _records() -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """The real records the fixture starts from: works, authors, institutions, by short id."""
    page = shared_path("openalex", "works", "author_works", "academic_explorer_author_A5032473237_works.json")
    every = {_short(w["id"]): w for w in json.loads(page.read_text())}
    works = {wid: every[wid] for wid in (*WORKS, NEW_WORK)}
    authors = {a: json.loads(shared_path("openalex", "authors", f"{a}.json").read_text()) for a in AUTHORS}
    institutions = {
        i: json.loads(shared_path("openalex", "institutions", f"{i}.json").read_text()) for i in INSTITUTIONS
    }
    return copy.deepcopy(works), copy.deepcopy(authors), copy.deepcopy(institutions)


def _author_mention(works: dict[str, dict[str, Any]], author: str) -> dict[str, Any]:
    """An authorship of `author` in the fixture's works (the shape a work names him with)."""
    return next(a for w in works.values() for a in w["authorships"] if _short(a["author"]["id"]) == author)


def _institution_mention(institution: dict[str, Any]) -> dict[str, Any]:
    keep = ("id", "display_name", "ror", "country_code", "type", "lineage")
    return {k: institution.get(k) for k in keep}


def _replace_institution(record: dict[str, Any], old: str, new: dict[str, Any]) -> bool:
    """Every mention of institution `old` in `record` becomes `new` (lists keep one of each); True when any did."""
    text = json.dumps(record)
    if OA + old not in text:
        return False

    def walk(value: Any) -> Any:
        if isinstance(value, dict):
            if value.get("id") == OA + old:
                return dict(new)
            return {k: walk(v) for k, v in value.items()}
        if isinstance(value, list):
            out: list[Any] = []
            for item in (walk(v) for v in value):
                if item == OA + old:
                    item = new["id"]
                if item not in out:
                    out.append(item)
            return out
        return value

    record.clear()
    record.update(walk(json.loads(text)))
    return True


def _changed(works: dict[str, dict[str, Any]], authors: dict[str, dict[str, Any]], insts: dict[str, dict[str, Any]]):
    """The "after" records and the day each changed one moved to."""
    moved: dict[tuple[str, str], str] = {}  # (entity, id) -> update day

    def touch(entity: str, rid: str, day: str = UPDATE_2) -> None:
        moved[(entity, rid)] = max(day, moved.get((entity, rid), day))

    wid, gone = CHANGES["loses_author"]
    works[wid]["authorships"] = [a for a in works[wid]["authorships"] if _short(a["author"]["id"]) != gone]
    works[wid]["authorships"][-1]["author_position"] = "last"
    touch("works", wid)

    wid, joins = CHANGES["gains_author"]
    slot = copy.deepcopy(_author_mention(works, joins))
    slot["author_position"] = "middle"
    works[wid]["authorships"].insert(1, slot)
    touch("works", wid)

    wid = CHANGES["retitled"]
    works[wid]["title"] = works[wid]["display_name"] = NEW_TITLE
    works[wid]["abstract_inverted_index"] = {w: [i] for i, w in enumerate(NEW_ABSTRACT.split())}
    touch("works", wid, UPDATE_1)

    wid, dropped, cited = CHANGES["references"]
    works[wid]["referenced_works"] = [r for r in works[wid]["referenced_works"] if _short(r) not in dropped]
    works[wid]["referenced_works"].append(OA + cited)
    works[wid]["referenced_works_count"] = len(works[wid]["referenced_works"])
    touch("works", wid)

    old, into = CHANGES["merged_author"]
    survivor = _author_mention(works, into)["author"]
    for w in works.values():
        for a in w["authorships"]:
            if _short(a["author"]["id"]) == old:
                a["author"] = dict(survivor)
                touch("works", _short(w["id"]))
    authors[into]["works_count"] += 1
    touch("authors", into)

    old, into = CHANGES["merged_institution"]
    mention = _institution_mention(insts[into])
    for entity, records in (("works", works), ("authors", authors)):
        for rid, record in records.items():
            if _replace_institution(record, old, mention):
                touch(entity, rid)

    touch("works", CHANGES["new_work"], UPDATE_1)
    del works[CHANGES["deleted_work"]]
    for (entity, rid), day in moved.items():
        {"works": works, "authors": authors, "institutions": insts}[entity][rid]["updated_date"] = f"{day}T00:00:00"
    return moved


def _partitioned(records: dict[str, dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    by_day: dict[str, list[dict[str, Any]]] = {}
    for rid in sorted(records):
        by_day.setdefault(records[rid]["updated_date"][:10], []).append(records[rid])
    return by_day


def _gzip(data: bytes) -> bytes:
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as fh:  # mtime 0: the same bytes every time
        fh.write(data)
    return buffer.getvalue()


def write_snapshot(root: Path, entities: dict[str, dict[str, dict[str, Any]]], merges: dict[str, list[str]]) -> Path:
    """Write records (entity -> id -> record) in the snapshot layout under `root`, with merged_ids rows
    (entity -> csv lines); returns `root`."""
    for entity, records in entities.items():
        folder = root / "data" / entity
        entries = []
        for day, day_records in sorted(_partitioned(records).items()):
            part = folder / f"updated_date={day}" / "part_000.gz"
            part.parent.mkdir(parents=True, exist_ok=True)
            body = _gzip(b"".join(json.dumps(r, sort_keys=True).encode() + b"\n" for r in day_records))
            part.write_bytes(body)
            url = f"s3://openalex/data/{entity}/updated_date={day}/part_000.gz"
            entries.append({"url": url, "meta": {"content_length": len(body), "record_count": len(day_records)}})
        total = sum(e["meta"]["record_count"] for e in entries)
        manifest = {"entries": entries, "meta": {"content_length": sum(e["meta"]["content_length"] for e in entries),
                                                 "record_count": total}}  # fmt: skip
        (folder / "manifest").write_text(json.dumps(manifest, indent=1))
    for entity, lines in merges.items():
        path = root / "data" / "merged_ids" / entity / f"{UPDATE_2}.csv.gz"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(_gzip(("merge_date,id,merge_into_id\n" + "".join(f"{x}\n" for x in lines)).encode()))
    return root


def write_snapshots(folder: Path) -> tuple[Path, Path]:
    """(before, after) snapshot roots under `folder`."""
    works, authors, insts = _records()
    before_works = {k: copy.deepcopy(v) for k, v in works.items() if k != NEW_WORK}
    before = write_snapshot(
        folder / "before",
        {"works": before_works, "authors": copy.deepcopy(authors), "institutions": copy.deepcopy(insts)},
        {},
    )
    _changed(works, authors, insts)
    merges = {
        "authors": [f"{UPDATE_2},{CHANGES['merged_author'][0]},{CHANGES['merged_author'][1]}"],
        "institutions": [f"{UPDATE_2},{CHANGES['merged_institution'][0]},{CHANGES['merged_institution'][1]}"],
        "works": [f"{UPDATE_2},{CHANGES['deleted_work']},"],
    }
    after = write_snapshot(folder / "after", {"works": works, "authors": authors, "institutions": insts}, merges)
    return before, after


def killed_after_first_batch(module: str, function: str, batch_size: int) -> str:
    """A `python -c` script that runs `weft.loaders.sync.<module>.<function>(driver, argv[1])` and kills its own
    process (SIGKILL, as kill -9) right after the first write batch is committed."""
    return f"""
import os, signal, sys
from weft.graph.driver import open_driver
from weft.graph.settings import load_settings
from weft.loaders.sync import {module} as s
from weft.loaders.write import GraphWriter

real_write = GraphWriter.write
def write(self, batch):
    real_write(self, batch)
    os.kill(os.getpid(), signal.SIGKILL)
GraphWriter.write = write
settings = load_settings()
with open_driver(settings) as driver:
    s.{function}(driver, sys.argv[1], database=settings.neo4j_database, batch_size={batch_size})
"""
