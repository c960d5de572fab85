"""Semantic search benchmark (issue 13): KEYWORD vs SEMANTIC vs HYBRID quality, and speed, on the shared data.

    NEO4J_URI=bolt://127.0.0.1:7851 .venv/bin/python -m bench.semantic --load

`--load` empties the database and loads every shared file (OpenAlex, Semantic Scholar, arXiv), then every paper
is embedded again (`weft embed --force`'s code), which gives the embedding rate. Without `--load` the database
is used as it is (embedded incrementally first).

Quality, on an evaluation set nobody tuned: every paper with a title and an abstract is a query, its title the
query text (cut to the search limits, 32 words / 500 characters, when longer), searched among papers only:
  * recall@10 (self-retrieval): the share of queries whose own paper is among the first 10 hits;
  * precision@10 (category agreement): over the queries whose paper has a primary category (the OpenAlex
    primary topic's subfield or the primary arXiv category), the share of the first 10 hits other than the
    paper itself that share one; a missing hit counts as a disagreeing one (the denominator is always 10).
Speed: query embedding + vector search (k=10) p50/p95 over the first 200 titles, full `search` p50/p95 per mode
over the whole evaluation, and papers embedded per second. Prints a markdown section for bench/RESULTS.md.

Titles as queries are easy (a paper's own title is most of its embedded text and all of its title field), so
`--hard` measures the harder set instead (issue 48): the paraphrased queries of bench/semantic_hard.json, written from
the abstracts of the demo sample's papers without any content word of their titles (checked here), on the demo data
with the shared data beside it as distractors (2,200 papers rather than 185, where 10 hits are 5% of the papers):

    weft load openalex demo/data/openalex --embed
    weft load auto ../shared/data/openalex ../shared/data/semanticscholar ../shared/data/arxiv --embed

    NEO4J_URI=bolt://127.0.0.1:7781 .venv/bin/python -m bench.semantic --hard

It gives recall@10 and MRR (reciprocal rank of the expected paper in the first 100 hits, 0 beyond) per mode for the
hard set, and, in the same run, for a sample of the papers' own titles (the easy set, as above), with the median
`totalCount` of each mode.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from neo4j import Driver

from weft.graph.driver import open_async_driver, open_driver
from weft.graph.embed_papers import embed_counts, embed_papers
from weft.graph.embeddings import embedder
from weft.graph.migrate import migrate, reset
from weft.graph.reads.reader import GraphReader
from weft.graph.reads.search import MAX_CHARS, MAX_WORDS, search_page
from weft.graph.settings import PROJECT_ROOT, Settings, load_settings
from weft.queries import semantic as q

MODES = ("KEYWORD", "SEMANTIC", "HYBRID")
HARD_SET = Path(__file__).with_name("semantic_hard.json")
STOP_WORDS = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their then there these "
    "they this to was will with".split()
)
SHARED = Path(os.environ.get("WEFT_SHARED_DATA", PROJECT_ROOT.parent / "shared" / "data"))


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f}, {five:.2f}, {fifteen:.2f}"


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def query_text(title: str) -> str:
    """The title as a query within the search limits."""
    return " ".join(title.split()[:MAX_WORDS])[:MAX_CHARS]


@dataclass(frozen=True)
class HardQuery:
    """A paraphrased query and the OpenAlex id of the paper it was written from."""

    openalex_id: str
    text: str
    style: str


def content_words(text: str) -> set[str]:
    """Lower-case words of `text` (markup tags dropped) that are no stop word."""
    words = re.findall(r"[^\W_]+", re.sub(r"<[^>]+>", " ", text).lower())
    return {w for w in words if w not in STOP_WORDS}


def hard_queries(titles: dict[str, str] | None = None) -> list[HardQuery]:
    """bench/semantic_hard.json's queries; with `titles` (OpenAlex id -> title) checks that no query has a content
    word of its paper's title (ValueError naming it) and that every paper is there."""
    data = json.loads(HARD_SET.read_text())
    queries = [HardQuery(q["id"], q["query"], q["style"]) for q in data["queries"]]
    for query in queries if titles is not None else []:
        if query.openalex_id not in titles:
            raise ValueError(f"{query.openalex_id} is not in the database: load demo/data/openalex")
        shared = content_words(titles[query.openalex_id]) & content_words(query.text)
        if shared:
            raise ValueError(f"the query for {query.openalex_id} has title words {sorted(shared)}")
    return queries


EASY_EVERY = 10
"""The easy set beside the hard one: every 10th paper (by id) with a title, an abstract and an OpenAlex id."""


def easy_sample(papers: list[dict]) -> list[dict]:
    """Papers whose own titles are the easy queries (a sample: the whole set takes minutes per mode)."""
    return [p for p in papers if p["has_abstract"] and p["title"] and p["openalex_id"]][::EASY_EVERY]


@dataclass
class Ranks:
    """Where each query's expected paper came in one mode (None: not in the first 100), and the totals."""

    ranks: list[int | None] = field(default_factory=list[int | None])
    totals: list[int] = field(default_factory=list[int])

    @property
    def recall(self) -> float:
        return sum(1 for r in self.ranks if r is not None and r <= 10) / len(self.ranks)

    @property
    def mrr(self) -> float:
        return sum(1 / r for r in self.ranks if r is not None) / len(self.ranks)


async def rank_queries(settings: Settings, pairs: list[tuple[str, str]]) -> dict[str, Ranks]:
    """Per mode, the rank of each (query text, expected OpenAlex id) pair's paper among papers."""
    out = {mode: Ranks() for mode in MODES}
    driver = open_async_driver(settings)
    reader = GraphReader(driver, settings.neo4j_database, settings.query_timeout_s)
    try:
        for text, want in pairs:
            for mode in MODES:
                page = await search_page(reader, text, ["PAPER"], 0, 100, mode=mode)
                ids = [r["node"].get("openalex_id") for r in page.rows]
                out[mode].ranks.append(ids.index(want) + 1 if want in ids else None)
                out[mode].totals.append(page.total)
    finally:
        await driver.close()
    return out


def hard_main(settings: Settings) -> None:
    """`--hard`: recall@10 and MRR per mode on the hard set and on the demo papers' titles, one run."""
    before = load_average()
    with open_driver(settings) as driver:
        records, _, _ = driver.execute_query(q.EVAL_PAPERS, database_=settings.neo4j_database, routing_="r")
    papers = [r.data() for r in records]
    titles = {p["openalex_id"]: p["title"] or "" for p in papers if p["openalex_id"]}
    hard = hard_queries(titles)
    easy = [(query_text(p["title"]), p["openalex_id"]) for p in easy_sample(papers)]
    results = asyncio.run(rank_queries(settings, [(h.text, h.openalex_id) for h in hard] + easy))
    print("| set | mode | recall@10 | MRR | median totalCount |")
    print("|---|---|---|---|---|")
    for name, part in (("hard", slice(0, len(hard))), ("titles", slice(len(hard), None))):
        for mode in MODES:
            r = Ranks(results[mode].ranks[part], results[mode].totals[part])
            found = sum(1 for x in r.ranks if x is not None and x <= 10)
            print(
                f"| {name} ({len(r.ranks)}) | {mode} | {r.recall:.3f} ({found}/{len(r.ranks)}) | {r.mrr:.3f} | "
                f"{pct([float(t) for t in r.totals], 0.5):.0f} |"
            )
    misses = [h for h, r in zip(hard, results["HYBRID"].ranks, strict=False) if r is None or r > 10]
    for h in misses:
        print(f"HYBRID miss: {h.openalex_id} ({h.style}): {h.text}", file=sys.stderr)
    print(f"\nload average (1, 5, 15 min): before {before}; after {load_average()}")


@dataclass
class Scores:
    found_self: int = 0
    queries: int = 0
    agreeing: int = 0
    categorised: int = 0
    seconds: list[float] = field(default_factory=list[float])

    @property
    def recall(self) -> float:
        return self.found_self / self.queries

    @property
    def precision(self) -> float:
        return self.agreeing / (10 * self.categorised)


def prepare(driver: Driver, settings: Settings, load: bool) -> tuple[int, float, float]:
    """Loads (with `load`) and embeds; returns (papers embedded, papers/s of model time, papers/s overall)."""
    db = settings.neo4j_database
    migrate(driver, db)
    if load:
        from weft.loaders.run import load_paths

        reset(driver, db)
        paths = [SHARED / "openalex", SHARED / "semanticscholar", SHARED / "arxiv"]
        tick = time.perf_counter()
        load_paths(driver, paths, source="auto", database=db)
        print(f"loaded in {time.perf_counter() - tick:.0f}s (load average {load_average()})", file=sys.stderr)
    summary = embed_papers(driver, db, force=load)
    print(f"embedded {summary.embedded} in {summary.seconds:.0f}s (load average {load_average()})", file=sys.stderr)
    overall = summary.embedded / summary.seconds if summary.seconds else 0.0
    return summary.embedded, summary.rate, overall


def vector_index_bytes(settings: Settings) -> int | None:
    """Bytes on disk of the database's vector indexes, when the local server (`weft neo4j start`) runs it."""
    home = settings.neo4j_home / "instances" / str(settings.bolt_port) / "data" / "databases"
    folder = home / settings.neo4j_database / "schema" / "index" / "vector-2.0"
    if not folder.is_dir():
        return None
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def vector_search_times(driver: Driver, settings: Settings, titles: list[str]) -> list[float]:
    """Seconds per query embedding + vector search (k=10), one title at a time."""
    model = embedder()
    model.embed_one("warm up")
    times = []
    for title in titles:
        tick = time.perf_counter()
        vector = model.embed_one(title)
        driver.execute_query(q.NEAREST_PAPERS, k=10, vector=vector, database_=settings.neo4j_database, routing_="r")
        times.append(time.perf_counter() - tick)
    return times


async def evaluate(settings: Settings, papers: list[dict]) -> dict[str, Scores]:
    categories = {p["id"]: set(p["categories"]) for p in papers}
    queries = [p for p in papers if p["has_abstract"] and p["title"] and p["title"].strip()]
    scores = {mode: Scores() for mode in MODES}
    driver = open_async_driver(settings)
    reader = GraphReader(driver, settings.neo4j_database, settings.query_timeout_s)
    try:
        for paper in queries:
            mine = categories[paper["id"]]
            for mode in MODES:
                tick = time.perf_counter()
                page = await search_page(reader, query_text(paper["title"]), ["PAPER"], 0, 11, mode=mode)
                s = scores[mode]
                s.seconds.append(time.perf_counter() - tick)
                ids = [r["node"]["id"] for r in page.rows]
                s.queries += 1
                s.found_self += paper["id"] in ids[:10]
                if mine:
                    s.categorised += 1
                    others = [i for i in ids if i != paper["id"]][:10]
                    s.agreeing += sum(1 for i in others if categories.get(i, set()) & mine)
    finally:
        await driver.close()
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--load", action="store_true", help="empty the database and load the shared data first")
    parser.add_argument("--hard", action="store_true", help="the paraphrased set on the demo data (as it is loaded)")
    args = parser.parse_args()
    settings = load_settings()
    if args.hard:
        hard_main(settings)
        return
    before = load_average()
    with open_driver(settings) as driver:
        embedded, model_rate, overall_rate = prepare(driver, settings, args.load)
        total, with_vector = embed_counts(driver, settings.neo4j_database)
        records, _, _ = driver.execute_query(q.EVAL_PAPERS, database_=settings.neo4j_database, routing_="r")
        papers = [r.data() for r in records]
        titles = [query_text(p["title"]) for p in papers if p["has_abstract"] and p["title"]][:200]
        vector_times = vector_search_times(driver, settings, titles)
    scores = asyncio.run(evaluate(settings, papers))
    after = load_average()
    s = scores["KEYWORD"]
    print(
        f"papers {total}, with a vector {with_vector}; evaluation queries {s.queries}, with a primary category "
        f"{s.categorised}"
    )
    print(
        f"embedding: {embedded} papers at {model_rate:.1f} papers/s of model time, {overall_rate:.1f} papers/s "
        "overall (reads and writes included)"
    )
    ms = [t * 1000 for t in vector_times]
    print(
        f"query embedding + vector search (k=10), {len(ms)} titles: p50 {pct(ms, 0.5):.1f} ms, "
        f"p95 {pct(ms, 0.95):.1f} ms"
    )
    print("\n| mode | recall@10 (self) | precision@10 (category) | search p50 | search p95 |")
    print("|---|---|---|---|---|")
    for mode in MODES:
        s = scores[mode]
        ms = [t * 1000 for t in s.seconds]
        print(
            f"| {mode} | {s.recall:.3f} ({s.found_self}/{s.queries}) | {s.precision:.3f} | "
            f"{pct(ms, 0.5):.1f} ms | {pct(ms, 0.95):.1f} ms |"
        )
    print(f"\nload average (1, 5, 15 min): before {before}; after {after}")


if __name__ == "__main__":
    main()
