"""Free-text reference matching: each bibliography entry to the paper it cites, with a confidence in [0, 1] and
the evidence, or to none (it abstains below `THRESHOLD` rather than guess).

Evidence: a DOI or arXiv id written in the text (looked up as `resolve` does), else the candidates the paper
full-text index finds for the text's words in titles, each scored by how well its title appears in the text
(rapidfuzz's best partial alignment and the share of its words found, also of the title's first 60% for a
reference that cuts the title short), whether its year, its first author's surname and its venue appear too;
near ties go to the title that accounts for more of the reference, then to the more cited record. Four
queries at most per call (the ids, their papers' authors, the candidates, the papers named).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz, process

from weft.graph.errors import InvalidInput
from weft.graph.identity.ids import normalize_arxiv, normalize_doi
from weft.graph.identity.lookup import _escape_term  # pyright: ignore[reportPrivateUsage] - one Lucene escaping
from weft.graph.reads.page import Row
from weft.graph.reads.papers import papers_by_ids
from weft.graph.reads.reader import GraphReader
from weft.graph.reads.resolve import resolve_ids
from weft.queries import read_references as q

MAX_TEXTS = 25
MAX_TEXT_CHARS = 2000
CANDIDATES = 10
THRESHOLD = 0.87
"""Confidence below which no paper is named (chosen on half of bench/reference_matching.py's set, RESULTS.md)."""

_DOI_IN_TEXT = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>{}]+)", re.IGNORECASE)
_ARXIV_IN_TEXT = re.compile(
    r"(?:arxiv[:\s./]*(?:abs/)?)(\d{4}\.\d{4,5}(?:v\d+)?|[a-z\-]+(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?)", re.IGNORECASE
)
_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d)(?!\d)")
_STOP = frozenset(
    "a an and are as at be by for from in into is of on or the to with vol pp no doi et al journal proceedings "
    "conference arxiv preprint article author title year booktitle volume pages publisher".split()
)


@dataclass(frozen=True)
class Evidence:
    """Why a paper was named: the DOI or arXiv id found in the text (None when none), the title's similarity to
    the text (0..1), the paper's year and whether the text states it, its first author's surname and whether
    the text names it, and whether the text names its venue."""

    doi: str | None
    arxiv_id: str | None
    id_matched: bool
    title_similarity: float
    year: int | None
    year_matches: bool
    first_author: str | None
    first_author_matches: bool
    venue_matches: bool = False


@dataclass(frozen=True)
class ReferenceMatch:
    """One reference: its best candidate (None when it abstains or found none), the confidence and the evidence."""

    text: str
    paper: Row | None
    confidence: float
    evidence: Evidence | None


def check_texts(texts: list[str]) -> None:
    """InvalidInput for more references than one call takes, or one too long."""
    if len(texts) > MAX_TEXTS:
        raise InvalidInput(f"`texts` holds {len(texts)} references; at most {MAX_TEXTS} per call", argument="texts")
    if any(len(t) > MAX_TEXT_CHARS for t in texts):
        raise InvalidInput(f"a reference is longer than {MAX_TEXT_CHARS} characters", argument="texts")


def normalized(text: str) -> str:
    """Lowercase ASCII words separated by single spaces: what titles and references are compared as.

    >>> normalized("  Étude: the `Graph'  (2nd ed.)")
    'etude the graph 2nd ed'
    """
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    return " ".join(re.findall(r"[a-z0-9]+", folded))


def title_similarity(title: str, text: str, prefix: bool = True) -> float:
    """How well `title` appears within `text` (0..1): the mean of the best partial alignment of the whole title
    (characters) and the share of its words the text holds (a word with a typo counting), or of the same for its
    first 60% (at most 0.95) when the reference cut the title short. The word share keeps a title of which only
    some words appear (a reference made up from the halves of two titles) from aligning well on characters alone.

    >>> title_similarity("Computing machinery and human intelligence", "Turing, A. (1950). Computing machinery and ...")
    0.95
    >>> title_similarity("Computing machinery and intelligence", "A. Turing, Computing machinery and intelligence.")
    1.0
    """
    t, s = normalized(title), normalized(text)
    if not t or not s:
        return 0.0
    text_words = list(dict.fromkeys(s.split()))
    whole = fuzz.partial_ratio(t, s) / 100 if len(t) <= len(s) else fuzz.ratio(t, s) / 100
    words = t.split()
    whole = (whole + _word_share(words, text_words)) / 2
    head_words = words[: max(3, round(len(words) * 0.6))]
    head = " ".join(head_words)
    part = 0.0
    if prefix and len(head) >= 15 and len(words) > 3:
        part = 0.95 * (fuzz.partial_ratio(head, s) / 100 + _word_share(head_words, text_words)) / 2
    return round(max(whole, part), 4)


def _word_share(words: list[str], text_words: list[str]) -> float:
    """The share of `words` (of two letters or more) that `text_words` hold (`_words_found`)."""
    counted = [w for w in words if len(w) > 1]
    return _words_found(counted, text_words) / len(counted) if counted else 1.0


def _words_found(words: list[str], text_words: list[str]) -> int:
    """How many of `words` (of two letters or more) `text_words` hold, a word of five letters or more also when
    written with a typo (a text word at least 80% like it)."""
    held = set(text_words)
    return sum(
        1
        for w in words
        if len(w) > 1
        and (w in held or (len(w) >= 5 and process.extractOne(w, text_words, scorer=fuzz.ratio, score_cutoff=80)))
    )


def _beside_title(title: str, text: str) -> str:
    """The normalised text without the part the title aligns with (where a venue is looked for: a venue named
    in a title, `Systematic Reviews`, is no evidence)."""
    t, s = normalized(title), normalized(text)
    if not t or len(t) > len(s):
        return s
    span = fuzz.partial_ratio_alignment(t, s)
    return s if span is None else s[: span.dest_start] + " " + s[span.dest_end :]


def surname(name: str | None) -> str | None:
    """The last word of a name, normalised (`Alan M. Turing` → `turing`)."""
    words = normalized(name or "").split()
    return words[-1] if words else None


def score(
    text: str, node: Row, authors: list[str], id_matched: bool, doi: str | None, arxiv: str | None
) -> tuple[float, Evidence]:
    """The confidence that `text` cites `node`, and its evidence."""
    raw, evidence = _scored(text, node, authors, id_matched, doi, arxiv)
    return round(min(1.0, max(0.0, raw)), 4), evidence


def _scored(
    text: str, node: Row, authors: list[str], id_matched: bool, doi: str | None, arxiv: str | None
) -> tuple[float, Evidence]:
    """The confidence before it is cut to [0, 1] (candidates are ranked by it: two at 1.0 still differ), and the
    evidence."""
    title = node.get("title") or ""
    sim = title_similarity(title, text)
    years = {int(y) for y in _YEAR.findall(text)}
    year: int | None = node.get("year")
    year_matches = year is not None and year in years
    first = surname(authors[0]) if authors else None
    words = set(normalized(text).split())
    author_matches = first is not None and len(first) > 1 and first in words
    venue = normalized(node.get("venue") or "")
    venue_matches = len(venue) >= 3 and f" {venue} " in f" {_beside_title(title, text)} "
    if id_matched:
        confidence = 0.97 + 0.03 * (sim >= 0.8)
    else:
        confidence = sim
        confidence += (
            0.05
            if year_matches
            else (-0.1 if years and year is not None and min(abs(year - y) for y in years) > 1 else -0.03)
        )
        confidence += 0.05 if author_matches else (-0.1 if first else 0.0)
        confidence += 0.03 if venue_matches else 0.0
        both = year_matches and author_matches
        title_words = len(normalized(title).split())
        if title_words < 4 and not both:
            # a title of a few words is found inside many references: only year and first author make it likely
            confidence -= 0.15 if title_words == 3 else 0.3
        if not both and sim > title_similarity(title, text, prefix=False):
            # only the title's first 60% is in the text: as likely another title that begins alike (a reference
            # an LLM made up from two) unless the year and the first author agree too
            confidence -= 0.15
    evidence = Evidence(doi, arxiv, id_matched, sim, year, year_matches, first, author_matches, venue_matches)
    return confidence, evidence


NEAR = 0.05
"""Candidates this close to the best are told apart by how much of the reference their title accounts for."""


def best_candidate(scored: list[tuple[float, Row, Evidence]], text: str) -> tuple[float, Row, Evidence] | None:
    """The candidate a reference most likely cites. Among those within NEAR of the best confidence: the one whose
    title has the most words in the reference (`Colorectal cancer statistics, 2023` over `Cancer statistics,
    2023` for a reference that holds both), then the most confident (a venue that agrees), then the most cited
    (of two records of one work, the one the literature cites)."""
    if not scored:
        return None
    top = max(conf for conf, _, _ in scored)
    near = [c for c in scored if c[0] >= top - NEAR]
    words = list(dict.fromkeys(normalized(text).split()))

    def key(c: tuple[float, Row, Evidence]) -> tuple[int, float, int]:
        found = _words_found(list(dict.fromkeys(normalized(c[1].get("title") or "").split())), words)
        return found, c[0], c[1].get("cited_by_count") or 0

    return max(near, key=key)


def _title_query(text: str) -> str:
    """A Lucene query for the text's words in paper titles, any of them (escaped; stop words and years left out)."""
    words = [w for w in normalized(text).split() if w not in _STOP and not w.isdigit() and len(w) > 1]
    terms = [_escape_term(w) for w in dict.fromkeys(words)][:48]
    return "title:(" + " ".join(terms) + ")" if terms else ""


def _ids_in(text: str) -> tuple[str | None, str | None]:
    """The DOI and arXiv id written in a reference, if any."""
    arxiv = None
    if m := _ARXIV_IN_TEXT.search(text):
        arxiv = normalize_arxiv(m.group(1))
    doi = None
    if m := _DOI_IN_TEXT.search(text):
        doi = normalize_doi(m.group(1).rstrip(".,;)]}"))
        if doi and doi.startswith("10.48550/arxiv."):
            arxiv, doi = arxiv or normalize_arxiv(doi), None
    return doi, arxiv


async def match_references(reader: GraphReader, texts: list[str], threshold: float = THRESHOLD) -> list[ReferenceMatch]:
    """Each reference's best paper (or None below `threshold`), in input order."""
    check_texts(texts)
    ids = [_ids_in(t) for t in texts]
    wanted = [f"10.48550/arXiv.{a}" if a else d for d, a in ids]
    by_id: dict[int, Row] = {}
    asked = [(at, raw) for at, raw in enumerate(wanted) if raw]
    if asked:
        resolved = await resolve_ids(reader, [raw for _, raw in asked])
        by_id = {at: r.node for (at, _), r in zip(asked, resolved, strict=True) if r.node is not None}
    queries = [{"at": at, "query": _title_query(t)} for at, t in enumerate(texts) if at not in by_id]
    queries = [x for x in queries if x["query"]]
    candidates: dict[int, list[dict[str, Any]]] = {}
    if queries:
        rows = await reader.rows(
            q.REFERENCE_CANDIDATES,
            {"texts": queries, "candidates": CANDIDATES},
            "matching references",
            values_only=True,
        )
        candidates = {r["at"]: r["candidates"] for r in rows}
    authors_of: dict[str, list[str]] = {}
    if by_id:
        rows = await reader.rows(
            q.FIRST_AUTHORS, {"ids": [n["id"] for n in by_id.values()]}, "reading authors", values_only=True
        )
        authors_of = {r["id"]: r["authors"] for r in rows}
    picked: list[tuple[str, Row | None, float, Evidence | None]] = []
    for at, text in enumerate(texts):
        doi, arxiv = ids[at]
        if at in by_id:  # the id written in the reference names the paper
            node = by_id[at]
            raw, ev = _scored(text, node, authors_of.get(node["id"], []), True, doi, arxiv)
            best = (raw, node, ev)
        else:
            scored = [
                (conf, cand["node"], ev)
                for cand in candidates.get(at, [])
                for conf, ev in [_scored(text, cand["node"], cand["authors"] or [], False, doi, arxiv)]
            ]
            best = best_candidate(scored, text)
        if best is None:
            picked.append((text, None, 0.0, None))
        else:
            raw, node, ev = best
            conf = round(min(1.0, max(0.0, raw)), 4)
            picked.append((text, node if conf >= threshold else None, conf, ev))
    named = [node["id"] for _, node, _, _ in picked if node is not None]
    whole = await papers_by_ids(reader, named) if named else {}
    return [
        ReferenceMatch(text, whole.get(node["id"], node) if node is not None else None, conf, ev)
        for text, node, conf, ev in picked
    ]
