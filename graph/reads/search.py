"""Search (keyword, semantic or both fused) and autocomplete over papers, researchers and institutions."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass

from weft.graph.errors import InvalidInput
from weft.graph.identity.lookup import escape_lucene, prefix_query
from weft.graph.reads.page import Page, Row
from weft.graph.reads.reader import GraphReader
from weft.queries import read_search as q

MAX_WORDS = 32
MAX_CHARS = 500
INDEX_OF = {"PAPER": "paper_text", "RESEARCHER": "researcher_text", "INSTITUTION": "institution_text"}
KIND_OF = {index: kind for kind, index in INDEX_OF.items()}
KEYWORD_HITS = 1000
"""Best full-text hits per index and query kept for ranking (so `total` counts at most this many per kind)."""
FILTERED_KEYWORD_HITS = 10_000
"""As KEYWORD_HITS when a paper filter is set: the filter applies after the full-text index answered."""
SEMANTIC_HITS = 100
"""Papers asked of the vector index (more when paging goes deeper, at most MAX_SEMANTIC_HITS). The semantic
ranking is those of these nearest papers that reach SEMANTIC_FLOOR, so SEMANTIC `total` counts at most this many."""
SEMANTIC_FLOOR = 0.25
"""The cosine a paper's vector must reach to be a semantic hit. Every paper is near a query to some degree: without
a floor SEMANTIC (and so HYBRID) would count and list all the nearest papers asked of the index, related or not
("100 results" where KEYWORD finds 15). With all-MiniLM-L6-v2, text on another subject mostly scores below it
(`chocolate cake recipe` at most 0.16 against the demo papers and below 0.25 against the 2,092 of the shared data;
gibberish like `qwertyuiop zxcvbnm` 0.24 and 0.32), while 83 of the 84 paraphrased queries of
bench/semantic_hard.json score their own paper at 0.27 or more (one in everyday words at 0.19)."""
MAX_SEMANTIC_HITS = 1000
"""Papers asked of the vector index when a paper filter is set (the filter applies to the nearest found)."""
_SURROGATE = re.compile("[\ud800-\udfff]")
"""A UTF-16 surrogate code point: a Python string holds one only when it came from a lone `\\udXXX` escape."""
RRF_K = 60
"""Reciprocal rank fusion's constant: a hit scores sum(1 / (RRF_K + rank)) over the rankings it is in."""
TITLE_CANDIDATES = 100
"""Papers holding the query as a phrase in their title that HYBRID checks for an exact title (known item)."""


def check_text(text: str, argument: str) -> None:
    """InvalidInput naming `argument` when the text is too long to search, or is no Unicode text (a lone
    surrogate, which JSON's `\\udfff` can carry: neither the model nor Neo4j takes it), before any work."""
    if len(text) > MAX_CHARS or len(text.split()) > MAX_WORDS:
        raise InvalidInput(
            f"`{argument}` is too long: at most {MAX_WORDS} words and {MAX_CHARS} characters", argument=argument
        )
    if _SURROGATE.search(text):
        raise InvalidInput(
            f"`{argument}` is not valid Unicode text: it holds a lone surrogate (U+D800 to U+DFFF)", argument=argument
        )


@dataclass(frozen=True)
class PaperFilters:
    """Filters of a search that only papers have (researchers and institutions are left out when set)."""

    year_from: int | None = None
    year_to: int | None = None
    categories: list[str] | None = None

    @property
    def active(self) -> bool:
        return self.year_from is not None or self.year_to is not None or self.categories is not None


STOP_WORDS = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their then there these "
    "they this to was will with".split()
)
"""Lucene's English stop words: they count when every word must match, never as the only word a hit has."""
_WORD = re.compile(r"[^\W_]")
"""A letter or digit in any script: a query word without one (punctuation, operators' symbols, emoji) is no word."""


def _bare(word: str) -> str:
    """The word lowercased without the punctuation around it ("(For)" -> "for")."""
    return "".join(ch for ch in word.lower() if ch.isalnum())


def keyword_queries(text: str) -> tuple[str, str]:
    """(every word, any word) as full-text queries for the words of `text` (Lucene syntax neutralised).

    Words are whitespace-separated and need a letter or digit (InvalidInput when none has). The any-word query
    leaves out stop words, which nearly every abstract has: `malaria and the mosquito` finds what has `malaria`
    or `mosquito`. A query of stop words only (`AND OR NOT`) needs all of them.
    """
    words = [w for w in text.split() if _WORD.search(w)]
    if not words:
        raise InvalidInput("`query` must contain at least one word (letters or digits)", argument="query")
    every = escape_lucene(" ".join(words))
    content = [w for w in words if _bare(w) not in STOP_WORDS]
    return every, " OR ".join(escape_lucene(w) for w in content) if content else every


async def query_vector(text: str) -> list[float]:
    """The query's unit vector (the model runs in a worker thread, off the event loop)."""
    from weft.graph.embeddings import embedder

    return await asyncio.to_thread(lambda: embedder().embed_one(text))


def search_params(
    text: str,
    kinds: list[str],
    skip: int,
    limit: int,
    mode: str,
    filters: PaperFilters,
    vector: list[float] | None,
) -> dict[str, object]:
    """The parameters of `SEARCH_PAGE` for one page of `text`'s hits (`vector`: the query's, None without a
    semantic ranking); bench/vector_scale.py times the query with exactly these."""
    every, any_word = keyword_queries(text)
    if filters.active:
        kinds = [k for k in kinds if k == "PAPER"]
    # Known-item search: a user who pastes a title wants that paper. An equal title is categorical evidence, not
    # one more vote: as a fourth RRF ranking it would add at most 1/61, and where the paper lands would still
    # depend on how much the other rankings like other papers; so HYBRID puts such papers first, as a tier.
    known_item = mode == "HYBRID" and "PAPER" in kinds
    return {
        "indexes": [INDEX_OF[k] for k in kinds] if mode != "SEMANTIC" else [],
        "all": every,
        "any": any_word,
        "cap": FILTERED_KEYWORD_HITS if filters.active else KEYWORD_HITS,
        "vector": vector,
        "k": MAX_SEMANTIC_HITS if filters.active else min(max(SEMANTIC_HITS, skip + limit), MAX_SEMANTIC_HITS),
        "floor": SEMANTIC_FLOOR,
        "rrf_k": RRF_K,
        "year_from": filters.year_from,
        "year_to": filters.year_to,
        "categories": filters.categories,
        "title": text if known_item else None,
        "title_phrase": title_phrase(text) if known_item else None,
        "title_cap": TITLE_CANDIDATES,
        "skip": skip,
        "end": skip + limit,
    }


def title_phrase(text: str) -> str:
    """A full-text query for `text` as one phrase in papers' title field (only `\\` and `"` are special in it)."""
    return 'title:"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def wants_vector(kinds: list[str], mode: str) -> bool:
    """Whether a search in `mode` over `kinds` has a semantic ranking (so the query must be embedded)."""
    return mode != "KEYWORD" and "PAPER" in kinds


async def search_page(
    reader: GraphReader,
    text: str,
    kinds: list[str],
    skip: int,
    limit: int,
    mode: str = "HYBRID",
    filters: PaperFilters | None = None,
) -> Page:
    """Hits `{kind, score, keyword_score, semantic_score, all_terms, title_match, node}` for `text`, best first.

    `mode` KEYWORD ranks by full-text relevance (any word matches; hits with every word first), SEMANTIC by
    the cosine of the papers' vectors to the query's (those reaching SEMANTIC_FLOOR), HYBRID fuses both by
    reciprocal rank fusion (`RRF_K`) after the papers whose title is the query (`title_match`, known-item search).
    """
    check_text(text, "query")
    filters = filters or PaperFilters()
    keyword_queries(text)  # InvalidInput before the query is embedded
    if filters.active:
        kinds = [k for k in kinds if k == "PAPER"]
    vector = await query_vector(text) if wants_vector(kinds, mode) else None
    params = search_params(text, kinds, skip, limit, mode, filters, vector)
    try:
        row = await reader.one(q.SEARCH_PAGE, params, "searching")
    except InvalidInput as exc:
        raise InvalidInput(f"`query` could not be searched: {exc}", argument="query") from exc
    if not row:
        return Page([], 0)
    rows = [{**hit, "kind": KIND_OF[hit["kind"]]} for hit in row["page"]]
    return Page(rows=rows, total=row["total"])


async def autocomplete(reader: GraphReader, prefix: str, kinds: list[str], limit: int) -> list[Row]:
    """Completions `{kind, id, label, score}` for the words typed so far, the last one as a prefix."""
    check_text(prefix, "prefix")
    query = prefix_query(prefix)
    if not query:
        return []
    params = {"indexes": [INDEX_OF[k] for k in kinds], "query": query, "limit": limit}
    try:
        rows = await reader.rows(q.AUTOCOMPLETE, params, "completing")
    except InvalidInput as exc:
        raise InvalidInput(f"`prefix` could not be completed: {exc}", argument="prefix") from exc
    return [{**r, "kind": KIND_OF[r["kind"]]} for r in rows]
