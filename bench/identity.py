"""Who is who, measured: Weft's researchers against ORCID clusters (issue 51).

Labels: every authorship (a *signature*: source, paper, rank) whose record carries an ORCID is labelled with it;
a signature of another source at the same paper and rank with a compatible name inherits it ("transferred").
The data is then copied with the labels hidden and loaded with the normal loaders into the (emptied!) graph at
NEO4J_URI, and Weft's researchers are compared with the ORCID clusters (graph/identity/scores.py):

* `orcid-kept`: the data as it is: what the hard keys give, and any false merge they make;
* `orcid-hidden`: ORCIDs removed (the issue's setting);
* `ids-hidden`: ORCIDs and author ids removed, so every authorship is its own record and only evidence can
  join them (the S2AND setting, where the linker has something to do).

Signatures are split in two halves by a hash of their name key (whole name blocks, so links and their closure
never cross halves): the model is fitted and its threshold chosen on half A (`--fit`), and every figure is
reported on half B. Run:

    NEO4J_URI=bolt://127.0.0.1:7841 python bench/identity.py [--data ../shared/data] [--fit]

It empties the database first. Prints markdown for bench/RESULTS.md and the fitted model for link_model.py.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from neo4j import Driver

from weft.graph.driver import open_driver
from weft.graph.identity import link_model
from weft.graph.identity.ids import canonical_keys, internal_id
from weft.graph.identity.linking import LinkModel, Profile, choose_threshold, fit_signed, vector
from weft.graph.identity.links import all_researcher_ids, relink, score_candidates
from weft.graph.identity.names import name_key, names_compatible
from weft.graph.identity.scores import ClusterScores, score
from weft.graph.migrate import reset
from weft.graph.settings import load_settings
from weft.graph.writer_lock import writer_lock
from weft.loaders.detect import UNREADABLE, plan
from weft.loaders.reader import read_records
from weft.loaders.records import Rejected, record_rows
from weft.loaders.run import load_paths
from weft.queries import identity_links as q

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
SETTINGS = ("orcid-kept", "orcid-hidden", "ids-hidden")


@dataclass(frozen=True)
class Signature:
    """One authorship as one source states it, with its ORCID label (`how`: `own` or `transferred`)."""

    source: str
    paper_key: str
    pids: tuple[str, ...]
    rank: int
    name: str
    orcid: str | None
    how: str = "own"


def signatures(data: Path) -> list[Signature]:
    """Every authorship in `data`, read with the loaders' own row builders, labelled where an ORCID says who."""
    found: list[Signature] = []
    for path, fmt in plan([data], "auto"):
        if fmt.kind == UNREADABLE:
            continue
        for item in read_records(path):
            rows = record_rows(fmt.build_rows, item)
            if rows is None or isinstance(rows, Rejected):
                continue
            nodes = {n.key: n for n in rows.nodes}
            for rel in rows.rels:
                if rel.type != "AUTHORED" or not isinstance(rel.props.get("rank"), int):
                    continue
                author, paper = nodes[rel.start], nodes[rel.end]
                pids = tuple(internal_id("Paper", k) for k in canonical_keys("Paper", paper.keys))
                name = str(author.props.get("name") or rel.props.get("raw_name") or "")
                found.append(Signature(fmt.source, paper.key, pids, rel.props["rank"], name, author.keys.get("orcid")))
    return transfer_labels(found)


def transfer_labels(found: list[Signature]) -> list[Signature]:
    """An unlabelled signature at the paper key and rank of a labelled one, with a compatible name, takes its
    ORCID (how: `transferred`): the only labels S2 and arXiv records have in the shared data."""
    labelled = {(s.paper_key, s.rank): s for s in found if s.orcid}
    out: list[Signature] = []
    for s in found:
        other = labelled.get((s.paper_key, s.rank))
        if s.orcid is None and other is not None and names_compatible(other.name, s.name):
            s = replace(s, orcid=other.orcid, how="transferred")
        out.append(s)
    return out


def half(name: str) -> str:
    """`A` (fitting) or `B` (reporting) for a signature, from a hash of its name key: whole name blocks go to one
    half, so links (made within a block) and their closure never join the halves, and the same split every run."""
    return "A" if hashlib.sha1(name_key(name).encode()).digest()[0] % 2 == 0 else "B"  # noqa: S324 - not security


# --- hiding labels --------------------------------------------------------------------------------------


def hide(value: Any, ids: bool, parent: str = "") -> Any:
    """`value` without ORCIDs (any `orcid`/`ORCID` key); with `ids`, also without the author ids of
    authorships (OpenAlex `authorships[].author.id`, S2 `authors[].authorId`), so each becomes id-less.

    >>> hide({"authorships": [{"author": {"id": "A1", "orcid": "X", "display_name": "N"}}]}, ids=True)
    {'authorships': [{'author': {'display_name': 'N'}}]}
    """
    if isinstance(value, list):
        return [hide(v, ids, parent) for v in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        if key.lower() == "orcid":
            continue
        if ids and ((parent == "author" and key == "id") or (parent == "authors" and key == "authorId")):
            continue
        out[key] = hide(item, ids, key)
    return out


def hidden_copy(data: Path, out: Path, ids: bool) -> Path:
    """A copy of every JSON / JSON Lines (gzipped or not) file of `data` under `out`, labels hidden."""
    for path in sorted(data.rglob("*")):
        if not path.is_file() or not any(path.name.endswith(e) for e in (".json", ".jsonl", ".json.gz", ".jsonl.gz")):
            continue
        target = out / path.relative_to(data)
        target.parent.mkdir(parents=True, exist_ok=True)
        opener: Callable[..., Any] = gzip.open if path.name.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as fh:
            text = fh.read()
        if ".jsonl" in path.name:
            lines = [json.dumps(hide(json.loads(line), ids)) if line.strip() else line for line in text.splitlines()]
            text = "\n".join(lines) + "\n"
        else:
            text = json.dumps(hide(json.loads(text), ids))
        with opener(target, "wt", encoding="utf-8") as fh:
            fh.write(text)
    return out


# --- reading Weft's clustering ----------------------------------------------------------------------------


def researcher_of(driver: Driver, database: str, sigs: list[Signature]) -> dict[int, str]:
    """{signature index: the researcher Weft holds it under}."""
    found: dict[int, str] = {}
    rows = [{"pids": list(s.pids), "rank": s.rank, "source": s.source} for s in sigs]
    for start in range(0, len(rows), 2000):
        records, _, _ = driver.execute_query(
            q.SIGNATURE_RESEARCHERS, signatures=rows[start : start + 2000], database_=database, routing_="r"
        )
        found |= {start + r["i"]: r["researcher"] for r in records}
    return found


def components(driver: Driver, database: str) -> dict[str, str]:
    """{researcher: its person}: the smallest id of what SAME_PERSON links join (a read-time resolution)."""
    records, _, _ = driver.execute_query(q.ALL_LINKS, database_=database, routing_="r")
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for r in records:
        a, b = find(r["a"]), find(r["b"])
        if a != b:
            parent[max(a, b)] = min(a, b)
    return {x: find(x) for x in parent}


def scores_by_source(
    sigs: list[Signature], held: dict[int, str], person: dict[str, str], which: str | None
) -> dict[str, ClusterScores]:
    """Scores over the labelled signatures of half `which` (None: both), per source and across sources."""
    gold = {
        i: s.orcid for i, s in enumerate(sigs) if s.orcid and i in held and (which is None or half(s.name) == which)
    }
    predicted = {i: person.get(held[i], held[i]) for i in gold}
    out = {"all sources": score(gold, predicted)}
    for source in sorted({sigs[i].source for i in gold}):
        mine = {i: g for i, g in gold.items() if sigs[i].source == source}
        out[source] = score(mine, predicted)
    return out


def false_merges(sigs: list[Signature], held: dict[int, str], person: dict[str, str]) -> list[str]:
    """The predicted people holding two or more ORCIDs, each with its ORCIDs and names."""
    members: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for i, s in enumerate(sigs):
        if s.orcid and i in held:
            members[person.get(held[i], held[i])].add((s.orcid, s.name))
    return [
        f"{rid}: " + "; ".join(f"{o} {n}" for o, n in sorted(m))
        for rid, m in sorted(members.items())
        if len({o for o, _ in m}) > 1
    ]


# --- fitting -----------------------------------------------------------------------------------------------


def fit(driver: Driver, database: str, sigs: list[Signature], held: dict[int, str]) -> tuple[LinkModel, dict[str, int]]:
    """The model fitted on half A's labelled candidate pairs, with the closure-aware threshold for 0.995."""
    labels: dict[str, Counter[str]] = defaultdict(Counter)
    train: set[str] = set()
    for i, s in enumerate(sigs):
        if i in held and half(s.name) == "A":
            train.add(held[i])
            if s.orcid:
                labels[held[i]][s.orcid] += 1
    majority = {r: c.most_common(1)[0][0] for r, c in labels.items()}
    ids = all_researcher_ids(driver, database)
    pairs = []
    profiles: dict[str, Profile] = {}
    with driver.session(database=database) as session:
        for start in range(0, len(ids), 500):
            pairs += score_candidates(session, ids[start : start + 500], profiles=profiles)
    records = {p.id: {"name": p.name, "papers": p.papers} for p in profiles.values()}
    pairs = list({(p.a, p.b): p for p in pairs}.values())
    block = [p for p in pairs if p.a in train or p.b in train]
    seen = [p for p in block if p.a in majority and p.b in majority]
    x = [vector(p.found) for p in seen]
    y = [int(majority[p.a] == majority[p.b]) for p in seen]
    weights, bias = fit_signed(x, y)
    unthresholded = LinkModel(tuple(weights), bias, 1.0)
    # the closure runs through unlabelled records too: they join components without items of their own
    scored = [(p.a, p.b, unthresholded.score(p.found)) for p in block]
    everyone = {r: labels.get(r, Counter()) for p in block for r in (p.a, p.b)}
    threshold = choose_threshold(scored, everyone, target=0.995, records=records)
    facts = {"candidate pairs": len(pairs), "half-A pairs": len(block), "labelled": len(seen), "positives": sum(y)}
    return LinkModel(tuple(weights), bias, threshold), facts


# --- the run -----------------------------------------------------------------------------------------------


def load(driver: Driver, database: str, data: Path) -> float:
    """Empty the graph and load `data` with the normal loaders (derived data included); returns seconds."""
    started = time.perf_counter()
    with writer_lock(driver, database, "bench identity"):
        reset(driver, database)
        load_paths(driver, [data], source="auto", database=database)
    return time.perf_counter() - started


def table(title: str, rows: dict[str, ClusterScores]) -> list[str]:
    """A markdown table of scores per source."""
    out = [
        f"**{title}**",
        "",
        "| source | items | people | B³ P | B³ R | B³ F1 | pair P | pair R | pair F1 | split people | false merges |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for source, s in rows.items():
        out.append(
            f"| {source} | {s.items} | {s.people} | {s.b3_precision:.4f} | {s.b3_recall:.4f} | {s.b3_f1:.4f} | "
            f"{s.pair_precision:.4f} | {s.pair_recall:.4f} | {s.pair_f1:.4f} | {s.split_people} | "
            f"{s.false_merges} ({s.wrongly_joined} people) |"
        )
    return [*out, ""]


def run_setting(
    driver: Driver,
    database: str,
    data: Path,
    sigs: list[Signature],
    setting: str,
    model: LinkModel | None,
    do_fit: bool,
) -> tuple[list[str], LinkModel | None]:
    """Load one setting, score it before linking, fit when asked, link everything, score after."""
    lines = [f"### {setting}", ""]
    with tempfile.TemporaryDirectory(prefix="weft-identity-") as tmp:
        source = data if setting == "orcid-kept" else hidden_copy(data, Path(tmp), ids=setting == "ids-hidden")
        seconds = load(driver, database, source)
    held = researcher_of(driver, database, sigs)
    lines.append(f"Loaded in {seconds:.0f} s; {len(held)} of {len(sigs)} signatures found in the graph.")
    lines.append("")
    lines += table("Hard keys only, held-out half B", scores_by_source(sigs, held, {}, "B"))
    merges = false_merges(sigs, held, {})
    lines.append(f"False merges by hard keys (both halves): {len(merges)}")
    lines += [f"- {m}" for m in merges[:20]] + [""]
    if do_fit:
        model, facts = fit(driver, database, sigs, held)
        lines.append(
            f"Fitted on half A: {facts}; weights {[round(w, 3) for w in model.weights]}, "
            f"bias {model.bias:.3f}, threshold {model.threshold:.4f}"
        )
        lines.append("")
    if model is not None and setting != "orcid-kept":
        started = time.perf_counter()
        with writer_lock(driver, database, "bench identity link"):
            linked = relink(driver, database, all_researcher_ids(driver, database), model=model, version="bench")
        lines.append(f"Linked {linked} pairs in {time.perf_counter() - started:.1f} s.")
        lines.append("")
        person = components(driver, database)
        lines += table("After evidence linking, held-out half B", scores_by_source(sigs, held, person, "B"))
        after = false_merges(sigs, held, person)
        lines.append(f"False merges after linking (both halves): {len(after)}")
        lines += [f"- {m}" for m in after[:20]] + [""]
    return lines, model


def label_summary(sigs: Iterable[Signature]) -> list[str]:
    """How many signatures each source has, labelled (own / transferred) and people per half."""
    counts: Counter[tuple[str, str]] = Counter()
    halves: dict[str, set[str]] = defaultdict(set)
    for s in sigs:
        counts[(s.source, s.how if s.orcid else "unlabelled")] += 1
        if s.orcid:
            halves[half(s.name)].add(s.orcid)
    lines = ["| source | own ORCID | transferred | unlabelled |", "|---|---|---|---|"]
    for source in sorted({k[0] for k in counts}):
        lines.append(
            f"| {source} | {counts[(source, 'own')]} | {counts[(source, 'transferred')]} | "
            f"{counts[(source, 'unlabelled')]} |"
        )
    return [*lines, "", f"People: {len(halves['A'])} in half A (fitting), {len(halves['B'])} in half B (reported).", ""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--fit", action="store_true", help="fit the model on half A of ids-hidden first")
    parser.add_argument("--settings", default=",".join(SETTINGS))
    args = parser.parse_args()
    settings = load_settings()
    sigs = signatures(args.data)
    lines = [f"`{' '.join(['python bench/identity.py', *sys.argv[1:]])}`; load average {os.getloadavg()}", ""]
    lines += label_summary(sigs)
    model: LinkModel | None = None if args.fit else link_model.MODEL
    with open_driver(settings) as driver:
        chosen = args.settings.split(",")
        for setting in sorted(chosen, key=lambda s: s != "ids-hidden"):  # fit first, then use it everywhere
            out, model = run_setting(
                driver, settings.neo4j_database, args.data, sigs, setting, model, args.fit and setting == "ids-hidden"
            )
            lines += out
    print("\n".join(lines))
    if model is not None:
        print(
            f"\nMODEL = LinkModel(weights={tuple(round(w, 4) for w in model.weights)}, "
            f"bias={model.bias:.4f}, threshold={model.threshold:.4f})"
        )


if __name__ == "__main__":
    main()
