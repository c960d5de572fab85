"""Reference matching benchmark (issue 50): precision, recall and false matches of `matchReferences`.

    NEO4J_URI=bolt://127.0.0.1:7841 .venv/bin/python -m bench.reference_matching [--seeds 50 51 ...] [--show]

On a graph holding the shared data (all sources). The set, built here from the shared data, nobody tuned on:
  * in the graph: papers the shared works' reference lists cite (`CITES`, so each is a referenced work the
    graph holds), written from the graph's metadata (authors, year, title, venue, DOI);
  * not in the graph: the citing and cited works of the Semantic Scholar Graph API sample (Paper.json), written
    from their own metadata, kept only when neither their ids nor their exact title is in the graph (a few: the
    loaders put most of them in the graph), and as many fabricated references as the in-graph ones, the kind an
    LLM invents: the first half of one graph paper's title joined to the second half of another's, with a third
    paper's authors and venue and a year drawn from 1990..2024 (hard negatives: most of their words are in
    the graph's titles).
Each reference is written in one of three styles (APA, IEEE, BibTeX-like) chosen by a seeded draw, some with the
DOI, some with typos in the title (two words with a character dropped or swapped), some with the title cut to
its first 60%. The set is split in two halves at random: the threshold is chosen on the first (the lowest one
giving precision >= 0.98 and false matches <= 2%), the figures are reported on the second.
Prints a markdown section for bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, LiteralString

from weft.graph.driver import open_async_driver
from weft.graph.reads.reader import GraphReader
from weft.graph.reads.references import MAX_TEXTS, THRESHOLD, match_references, normalized
from weft.graph.settings import load_settings

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"

CITED_PAPERS: LiteralString = """
MATCH (:Paper)-[:CITES]->(p:Paper) WHERE p.title IS NOT NULL AND p.year IS NOT NULL
WITH DISTINCT p
CALL (p) {
  OPTIONAL MATCH (p)<-[a:AUTHORED]-(r:Researcher)
  WITH r, a ORDER BY coalesce(a.rank, 999999), r.id
  RETURN collect(r.name)[0..3] AS authors
}
RETURN p.id AS id, p.title AS title, p.year AS year, p.doi AS doi, p.venue AS venue, authors ORDER BY p.id
"""
GRAPH_KEYS: LiteralString = "MATCH (p:Paper) RETURN p.title AS title, p.doi AS doi, p.s2_id AS s2_id"


@dataclass(frozen=True)
class Work:
    """What a reference is written from; `paper_id` is the graph's paper, None for a work not in the graph."""

    paper_id: str | None
    title: str
    year: int | None
    authors: list[str]
    venue: str | None
    doi: str | None


def _initials_surname(name: str) -> tuple[str, str]:
    words = name.replace(",", " ").split()
    if not words:
        return "", ""
    return " ".join(w[0] + "." for w in words[:-1]), words[-1]


def apa(w: Work, title: str, doi: bool) -> str:
    names = [f"{s}, {i}".strip(", ") for i, s in map(_initials_surname, w.authors)] or ["Anonymous"]
    who = ", & ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]
    text = f"{who} ({w.year or 'n.d.'}). {title}. {w.venue or ''}".strip()
    return text + (f" https://doi.org/{w.doi}" if doi and w.doi else "")


def ieee(w: Work, title: str, doi: bool) -> str:
    names = [f"{i} {s}".strip() for i, s in map(_initials_surname, w.authors)] or ["Anonymous"]
    who = ", ".join(names[:-1]) + (", and " if len(names) > 1 else "") + names[-1]
    text = f'{who}, "{title}," {w.venue + ", " if w.venue else ""}{w.year or ""}.'
    return text + (f" doi: {w.doi}." if doi and w.doi else "")


def bibtex(w: Work, title: str, doi: bool) -> str:
    who = " and ".join(f"{s}, {i}".strip(", ") for i, s in map(_initials_surname, w.authors))
    _, first = _initials_surname(w.authors[0]) if w.authors else ("", "anon")
    fields = [f"author = {{{who}}}", f"title = {{{title}}}", f"year = {{{w.year or ''}}}"]
    if w.venue:
        fields.append(f"journal = {{{w.venue}}}")
    if doi and w.doi:
        fields.append(f"doi = {{{w.doi}}}")
    return f"@article{{{normalized(first).replace(' ', '')}{w.year or ''}, " + ", ".join(fields) + "}"


STYLES = (apa, ieee, bibtex)


def typo(title: str, rng: random.Random) -> str:
    """Two words of at least five letters with a letter dropped or two swapped."""
    words = title.split()
    long = [i for i, word in enumerate(words) if len(word) >= 5]
    for i in rng.sample(long, min(2, len(long))):
        word, j = words[i], rng.randrange(1, len(words[i]) - 2)
        words[i] = word[:j] + word[j + 1 :] if rng.random() < 0.5 else word[:j] + word[j + 1] + word[j] + word[j + 2 :]
    return " ".join(words)


def truncated(title: str) -> str:
    words = title.split()
    return " ".join(words[: max(3, round(len(words) * 0.6))]) + " ..."


def written(w: Work, rng: random.Random) -> tuple[str, str]:
    """The reference text of `w` and how it was written."""
    style = rng.choice(STYLES)
    draw = rng.random()
    title, how = w.title, "clean"
    if draw < 0.25:
        title, how = typo(w.title, rng), "typo"
    elif draw < 0.45:
        title, how = truncated(w.title), "truncated"
    with_doi = rng.random() < 0.25
    return style(w, title, with_doi)[:2000], f"{style.__name__}/{how}{'+doi' if with_doi and w.doi else ''}"


async def _graph_works(reader: GraphReader) -> tuple[list[Work], set[str], set[str]]:
    rows = await reader.rows(CITED_PAPERS, {}, "reading cited papers")
    works = [Work(r["id"], r["title"], r["year"], r["authors"] or [], r["venue"], r["doi"]) for r in rows]
    keys = await reader.rows(GRAPH_KEYS, {}, "reading the graph's titles and ids")
    titles = {normalized(k["title"]) for k in keys if k["title"]}
    ids = {k["doi"] for k in keys if k["doi"]} | {k["s2_id"] for k in keys if k["s2_id"]}
    return works, titles, ids


def _outside_works(titles: set[str], ids: set[str]) -> list[Work]:
    paper = json.loads((SHARED / "semanticscholar" / "graph_api" / "Paper.json").read_text(encoding="utf-8"))
    out: dict[str, Work] = {}
    for entry in (paper.get("citations") or []) + (paper.get("references") or []):
        title, doi = entry.get("title"), ((entry.get("externalIds") or {}).get("DOI") or "").lower() or None
        if not title or len(title.split()) < 3 or normalized(title) in titles:
            continue
        if doi in ids or entry.get("paperId") in ids:
            continue
        authors = [a.get("name") for a in entry.get("authors") or [] if a.get("name")][:3]
        venue = entry.get("venue") or None
        out[normalized(title)] = Work(None, title, entry.get("year"), authors, venue, doi)
    return list(out.values())


def _fabricated(works: list[Work], titles: set[str], rng: random.Random) -> Work:
    """A reference to a work that does not exist, from the halves of two real titles (see the module docstring)."""
    while True:
        a, b, c = rng.sample(works, 3)
        left, right = a.title.split(), b.title.split()
        title = " ".join(left[: max(2, len(left) // 2)] + right[len(right) // 2 :])
        if len(title.split()) >= 4 and normalized(title) not in titles:
            return Work(None, title, rng.randint(1990, 2024), c.authors, c.venue, None)


@dataclass
class Case:
    text: str
    how: str
    expected: str | None
    got: str | None = None
    confidence: float = 0.0


def figures(cases: list[Case], threshold: float) -> dict[str, float]:
    inside = [c for c in cases if c.expected is not None]
    outside = [c for c in cases if c.expected is None]
    named = [c for c in inside if c.got is not None and c.confidence >= threshold]
    right = [c for c in named if c.got == c.expected]
    false_out = [c for c in outside if c.got is not None and c.confidence >= threshold]
    return {
        "precision": len(right) / len(named) if named else 1.0,
        "recall": len(right) / len(inside) if inside else 0.0,
        "false_match_rate": len(false_out) / len(outside) if outside else 0.0,
        "in_graph": len(inside),
        "not_in_graph": len(outside),
    }


def choose_threshold(cases: list[Case], middle: bool = False) -> float:
    """The threshold chosen on `cases` (the tuning half): the lowest meeting precision >= 0.98 and false matches
    <= 2%; `middle`: the middle of the thresholds (0.30..0.99 by 0.01) meeting all three targets (precision >=
    0.98, recall >= 0.90, false matches <= 2%). On a half of ~70 references per side, 2% is one false match, so the
    lowest threshold sits just under the half's second-highest false match: on the edge of the negatives, which the
    other half then crosses by chance. The middle keeps the widest margin from every target."""
    feasible: list[float] = []
    for step in range(30, 100):
        t = step / 100
        f = figures(cases, t)
        if f["precision"] >= 0.98 and f["false_match_rate"] <= 0.02:
            if not middle:
                return t
            if f["recall"] >= 0.90:
                feasible.append(t)
    return feasible[len(feasible) // 2] if feasible else 1.0


@dataclass
class SeedRun:
    """One seed's set, matched: its cases in order (the first half tunes the threshold, the second is held out)."""

    seed: int
    inside: int
    outside: int
    cases: list[Case]


async def _seed_run(
    reader: GraphReader, works: list[Work], outside_all: list[Work], titles: set[str], seed: int, per_side: int
) -> SeedRun:
    rng = random.Random(seed)
    inside = rng.sample(works, min(per_side, len(works)))
    outside = rng.sample(outside_all, min(per_side, len(outside_all)))
    outside += [_fabricated(works, titles, rng) for _ in range(len(inside))]
    cases = [Case(*written(w, rng), w.paper_id) for w in inside + outside]
    rng.shuffle(cases)
    for start in range(0, len(cases), MAX_TEXTS):
        batch = cases[start : start + MAX_TEXTS]
        found = await match_references(reader, [c.text for c in batch], threshold=0.0)
        for case, match in zip(batch, found, strict=True):
            case.got = match.paper["id"] if match.paper is not None else None
            case.confidence = match.confidence
    return SeedRun(seed, len(inside), len(outside), cases)


async def run(per_side: int, seeds: list[int], show: bool) -> None:
    settings = load_settings()
    driver = open_async_driver(settings)
    try:
        reader = GraphReader(driver, settings.neo4j_database, 60.0)
        works, titles, ids = await _graph_works(reader)
        outside_all = _outside_works(titles, ids)
        runs = [await _seed_run(reader, works, outside_all, titles, seed, per_side) for seed in seeds]
    finally:
        await driver.close()
    load = subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()
    print("## Reference matching (issue 50)\n")
    print(
        f"`NEO4J_URI=… .venv/bin/python -m bench.reference_matching --per-side {per_side} --seeds "
        f"{' '.join(map(str, seeds))}`; {load}\n"
    )
    print(
        f"Each seed: {runs[0].inside} references to papers in the graph, {runs[0].outside} to works not in it; the "
        f"threshold chosen on the first half, figures on the other (held out); then all at the shipped "
        f"THRESHOLD ({THRESHOLD:.2f}).\n"
    )
    print(
        "| seed | rule | threshold chosen on the tuning half | held-out precision | held-out recall "
        f"| held-out false matches | all {len(runs[0].cases)} at the shipped {THRESHOLD:.2f}: precision / recall / "
        "false matches |"
    )
    print("|---|---|---|---|---|---|---|")
    for r in runs:
        half = len(r.cases) // 2
        tune, test = r.cases[:half], r.cases[half:]
        a = figures(r.cases, THRESHOLD)
        for middle in (False, True):
            threshold = choose_threshold(tune, middle)
            f = figures(test, threshold)
            print(
                f"| {r.seed} | {'middle' if middle else 'lowest'} | {threshold:.2f} | {f['precision']:.3f} "
                f"| {f['recall']:.3f} | {f['false_match_rate']:.3f} "
                f"| {a['precision']:.3f} / {a['recall']:.3f} / {a['false_match_rate']:.3f} |"
            )
    print()
    for r in runs:
        half = len(r.cases) // 2
        threshold = choose_threshold(r.cases[:half], middle=True)
        test = r.cases[half:]
        misses = [c for c in test if c.expected is not None and (c.got != c.expected or c.confidence < threshold)]
        print(f"Seed {r.seed}, held-out misses (middle rule) by how they were written:", _count(c.how for c in misses))
        if show:
            _show(r, threshold)


def _show(r: SeedRun, threshold: float) -> None:
    """Every wrong answer at or above 0.6 of one seed's set, highest confidence first (what the scorer confuses)."""
    wrong = [c for c in r.cases if c.got is not None and c.got != c.expected and c.confidence >= 0.6]
    for c in sorted(wrong, key=lambda c: -c.confidence):
        side = "in graph, named another" if c.expected else "not in graph"
        print(f"  - {c.confidence:.2f} ({side}; {c.how}; chosen {threshold:.2f}): {c.text[:220]}")
    low = [c for c in r.cases if c.expected is not None and c.got == c.expected and c.confidence < THRESHOLD]
    for c in sorted(low, key=lambda c: c.confidence):
        print(f"  - right but low {c.confidence:.2f} ({c.how}): {c.text[:220]}")


def _count(items: Any) -> str:
    counts: dict[str, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "none"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-side", type=int, default=300, help="references in the graph, and as many outside")
    parser.add_argument("--seeds", type=int, nargs="+", default=[50, 51, 52, 53, 54, 55])
    parser.add_argument("--show", action="store_true", help="print each set's wrong answers and low right ones")
    args = parser.parse_args()
    asyncio.run(run(args.per_side, args.seeds, args.show))


if __name__ == "__main__":
    main()
