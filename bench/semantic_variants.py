"""What raises semantic recall on the hard set (issue 48): embedded text, query expansion, fusion weights, measured.

    NEO4J_URI=bolt://127.0.0.1:7781 .venv/bin/python -m bench.semantic_variants

On the demo data and the shared data as loaded and embedded (see `bench.semantic --hard`). Each variant is
computed outside Neo4j, in one run, on the hard set (bench/semantic_hard.json) and the easy set (the demo papers'
titles) interleaved: every paper's text is embedded again as the variant says, SEMANTIC is the brute-force cosine
ranking of those vectors (the SEMANTIC_HITS nearest at or above the similarity floor, as the engine's), and HYBRID
fuses KEYWORD's ranking (read from the engine, which no variant changes), its hits with every word and that
semantic ranking by reciprocal rank fusion, after the papers titled as the query, as SEARCH_PAGE does. The
baseline row is checked against the engine's own HYBRID answers first.

Tuning uses the even-numbered hard queries only; the odd-numbered half is held out for the final figure.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from bench.semantic import MODES, easy_sample, hard_queries, load_average, query_text
from weft.graph.driver import open_async_driver, open_driver
from weft.graph.embeddings import Vectors, embedder, paper_text
from weft.graph.reads.reader import GraphReader
from weft.graph.reads.search import KEYWORD_HITS, RRF_K, SEMANTIC_FLOOR, SEMANTIC_HITS, search_page
from weft.graph.settings import Settings, load_settings
from weft.queries import semantic as q

Ranking = list[str]


@dataclass
class Query:
    text: str
    want: str  # internal paper id
    hard: bool
    keyword: Ranking  # KEYWORD's paper ranking (engine)
    every_word: Ranking
    engine: dict[str, Ranking]  # the engine's ranking per mode (first 100)
    vector: np.ndarray


@dataclass(frozen=True)
class Variant:
    name: str
    text: str  # "title+abstract" | "title" | "max(title, title+abstract)"
    weights: tuple[float, float, float] = (1.0, 1.0, 1.0)  # any word, every word, semantic
    expand: float = 0.0  # pseudo-relevance feedback: weight of the mean of the 3 nearest papers' vectors
    floor: float = SEMANTIC_FLOOR


def title_key(title: str | None) -> list[str]:
    return re.findall(r"[^\W_]+", (title or "").lower())


def paper_vectors(papers: list[dict], kind: str) -> Vectors:
    """Unit vectors per paper for one choice of embedded text (papers without that text get zeros)."""
    model = embedder()

    def text(p: dict) -> str | None:
        if kind == "title":
            return paper_text(p["title"], None) or paper_text(None, p["abstract"])
        return paper_text(p["title"], p["abstract"])

    texts = [text(p) or "" for p in papers]
    out = model.embed(texts)
    out[[i for i, t in enumerate(texts) if not t]] = 0.0
    return out


def stored_vectors(settings: Settings, ids: list[str]) -> Vectors:
    """The vectors `weft embed` stored (title + abstract), in the order of `ids` (zeros for a paper without)."""
    with open_driver(settings) as driver:
        records, _, _ = driver.execute_query(q.STORED_VECTORS, database_=settings.neo4j_database, routing_="r")
    stored = {r["id"]: r["vector"] for r in records}
    return np.array([stored.get(i, [0.0] * 384) for i in ids], dtype=np.float32)


def semantic(query: Query, ids: list[str], matrices: list[Vectors], v: Variant) -> Ranking:
    vector = query.vector
    cosines = np.max([m @ vector for m in matrices], axis=0)
    if v.expand:
        top = np.argsort(-cosines)[:3]
        vector = vector + v.expand * np.mean([matrices[0][i] for i in top], axis=0)
        vector = vector / np.linalg.norm(vector)
        cosines = np.max([m @ vector for m in matrices], axis=0)
    order = sorted(range(len(ids)), key=lambda i: (-round(float(cosines[i]), 6), ids[i]))[:SEMANTIC_HITS]
    return [ids[i] for i in order if cosines[i] >= v.floor]


def hybrid(query: Query, sem: Ranking, titles: dict[str, list[str]], v: Variant) -> Ranking:
    fused: dict[str, float] = {}
    for weight, ranking in zip(v.weights, (query.keyword, query.every_word, sem), strict=True):
        for rank, pid in enumerate(ranking, start=1):
            fused[pid] = fused.get(pid, 0.0) + weight / (RRF_K + rank)
    wanted = title_key(query.text)
    return sorted(fused, key=lambda pid: (titles.get(pid) != wanted, -round(fused[pid], 9), pid))


def scores(ranks: list[int | None]) -> str:
    found = sum(1 for r in ranks if r is not None and r <= 10)
    mrr = sum(1 / r for r in ranks if r is not None) / len(ranks)
    return f"{found / len(ranks):.3f} ({found}/{len(ranks)}), {mrr:.3f}"


def rank_of(ranking: Ranking, want: str) -> int | None:
    return ranking.index(want) + 1 if want in ranking[:100] else None


async def engine_rankings(settings: Settings, pairs: list[tuple[str, str, bool]]) -> list[Query]:
    driver = open_async_driver(settings)
    reader = GraphReader(driver, settings.neo4j_database, settings.query_timeout_s)
    vectors = embedder().embed([t for t, _, _ in pairs])
    out = []
    try:
        for (text, want, hard), vector in zip(pairs, vectors, strict=True):
            engine = {}
            for mode in MODES:
                page = await search_page(reader, text, ["PAPER"], 0, 100, mode=mode)
                engine[mode] = [r["node"]["id"] for r in page.rows]
            full = await search_page(reader, text, ["PAPER"], 0, KEYWORD_HITS, mode="KEYWORD")
            keyword = [r["node"]["id"] for r in full.rows]
            every = [r["node"]["id"] for r in full.rows if r["all_terms"]]
            out.append(Query(text, want, hard, keyword, every, engine, vector))
    finally:
        await driver.close()
    return out


VARIANTS = [
    Variant("baseline: title+abstract, RRF 1/1/1", "title+abstract"),
    Variant("title only", "title"),
    Variant("max(title, title+abstract)", "max(title, title+abstract)"),
    Variant("query expansion 0.5 (3 nearest)", "title+abstract", expand=0.5),
    Variant("RRF weights 1/1/2", "title+abstract", weights=(1.0, 1.0, 2.0)),
    Variant("RRF weights 0.5/1/1", "title+abstract", weights=(0.5, 1.0, 1.0)),
    Variant("RRF weights 0.5/1/2", "title+abstract", weights=(0.5, 1.0, 2.0)),
    Variant("RRF weights 0/1/1 (no any-word ranking)", "title+abstract", weights=(0.0, 1.0, 1.0)),
    Variant("no similarity floor", "title+abstract", floor=-1.0),
]


def main(variants: list[Variant] = VARIANTS, pick: Callable[[int], bool] = lambda i: True) -> None:
    settings = load_settings()
    before = load_average()
    with open_driver(settings) as driver:
        records, _, _ = driver.execute_query(q.EVAL_PAPERS, database_=settings.neo4j_database, routing_="r")
    papers = [r.data() for r in records]
    by_openalex = {p["openalex_id"]: p["id"] for p in papers if p["openalex_id"]}
    hard = hard_queries({p["openalex_id"]: p["title"] or "" for p in papers if p["openalex_id"]})
    pairs = [(h.text, by_openalex[h.openalex_id], True) for h in hard]
    pairs += [(query_text(p["title"]), p["id"], False) for p in easy_sample(papers)]
    queries = asyncio.run(engine_rankings(settings, pairs))
    ids = [p["id"] for p in papers]
    titles = {p["id"]: title_key(p["title"]) for p in papers}
    matrices = {"title+abstract": stored_vectors(settings, ids), "title": paper_vectors(papers, "title")}
    matrices["max(title, title+abstract)"] = np.stack([matrices["title+abstract"], matrices["title"]])
    hard_q = [x for x in queries if x.hard]
    easy_q = [x for x in queries if not x.hard]
    tune = [x for i, x in enumerate(hard_q) if i % 2 == 0]
    held = [x for i, x in enumerate(hard_q) if i % 2 == 1]
    print("engine (Neo4j), recall@10 (found) and MRR:")
    for mode in MODES:
        print(
            f"  {mode}: hard {scores([rank_of(x.engine[mode], x.want) for x in hard_q])}; "
            f"titles {scores([rank_of(x.engine[mode], x.want) for x in easy_q])}"
        )
    print("\n| variant | mode | hard, tuning half | hard, held-out half | hard, all | titles (easy) |")
    print("|---|---|---|---|---|---|")
    for v in variants:
        m = matrices[v.text]
        stack = list(m) if m.ndim == 3 else [m]
        cells: dict[str, list[str]] = {"SEMANTIC": [], "HYBRID": []}
        for group in (tune, held, hard_q, easy_q):
            sem = {id(x): semantic(x, ids, stack, v) for x in group}
            cells["SEMANTIC"].append(scores([rank_of(sem[id(x)], x.want) for x in group]))
            cells["HYBRID"].append(scores([rank_of(hybrid(x, sem[id(x)], titles, v), x.want) for x in group]))
            if v is variants[0] and group is hard_q:  # the offline baseline is the engine
                same = sum(hybrid(x, sem[id(x)], titles, v)[:10] == x.engine["HYBRID"][:10] for x in group)
                print(f"offline baseline = engine HYBRID top 10 on {same}/{len(group)} hard queries", file=sys.stderr)
        for mode, row in cells.items():
            print(f"| {v.name} | {mode} | " + " | ".join(row) + " |")
    print(f"\nload average (1, 5, 15 min): before {before}; after {load_average()}")


if __name__ == "__main__":
    main()
