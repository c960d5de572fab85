"""Parsing the id strings clients send into the node keys to look up (pure, unit-tested).

Each `parse_*_id` returns the candidate keys for one raw id, most specific first, as
`IdKey(property, value)` pairs; `property` is a Paper/Researcher/Institution property name,
`"alias"` (an old internal id kept in `aliases`) or `"name"` (an institution's exact name).
An empty list means the string cannot be an id of that kind.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from weft.graph.identity.ids import (
    node_id,
    normalize_arxiv,
    normalize_doi,
    normalize_openalex,
    normalize_orcid,
    normalize_ror,
)
from weft.graph.identity.names import clean_whitespace, fold


@dataclass(frozen=True)
class IdKey:
    """One way to find a node: `property` equals `value`."""

    property: str
    value: str | int


_INTERNAL = re.compile(r"^([pric][a-z2-7]{11})(?:-[\w\-]*)?$")
_S2_PAPER = re.compile(r"^(?:s2:)?([0-9a-f]{40})$", re.IGNORECASE)
_CORPUS = re.compile(r"^(?:corpusid|corpus|s2corpus)[:_ ]?(\d+)$", re.IGNORECASE)
_MAG = re.compile(r"^mag:(\d+)$", re.IGNORECASE)
_PMID = re.compile(r"^(?:pmid:|https?://pubmed\.ncbi\.nlm\.nih\.gov/)(\d+)/?$", re.IGNORECASE)
_S2_AUTHOR = re.compile(r"^(?:s2:|https?://www\.semanticscholar\.org/author/(?:[^/]+/)?)?(\d{1,12})$", re.IGNORECASE)
_MAX_ID_LENGTH = 300
_PATH_ARXIV_NEW = re.compile(r"^(\d{4}\.\d{4,5})(v\d+)?(?:-[\w\-]*)?$", re.IGNORECASE)
_PATH_ARXIV_OLD = re.compile(r"^([a-z\-]+(?:\.[a-z\-]+)?/\d{7})(v\d+)?(?:-[\w\-]*)?$", re.IGNORECASE)
_PATH_OPENALEX_WORK = re.compile(r"^(W\d+)(?:-[\w\-]*)?$", re.IGNORECASE)


def slugify(text: str | None, max_words: int = 8) -> str:
    """URL words from a title or name: ASCII, lowercase, hyphen-joined, at most `max_words`.

    >>> slugify("Computing Machinery and Intelligence")
    'computing-machinery-and-intelligence'
    """
    folded = unicodedata.normalize("NFKD", re.sub(r"[\u2010-\u2015\u2212]", " ", text or ""))
    ascii_text = folded.encode("ascii", "ignore").decode("ascii").lower()
    words = re.findall(r"[a-z0-9]+", ascii_text)
    return "-".join(words[:max_words])


def with_words(key: str, text: str | None) -> str:
    """`key` followed by the first words of `text` (a title or name), as page paths and slugs spell them."""
    words = slugify(text)
    return f"{key}-{words}" if words else key


def page_key(props: dict[str, Any]) -> str:
    """The id a paper's canonical page path starts with: its arXiv id without version when it has one
    (an old-style id keeps its slash, as arxiv.org/abs/ does), else its OpenAlex W id, else its internal id."""
    return props.get("arxiv_id") or props.get("openalex_id") or props["id"]


def paper_path(props: dict[str, Any]) -> str:
    """A paper's canonical page path, `/papers/<page key>-<title words>` (the site's and `canonicalUrl`)."""
    return "/papers/" + quote(with_words(page_key(props), props.get("title")), safe="/")


def paper_lookup_id(rest: str) -> str:
    """The id to look a paper up by from the path after `/papers/`: an arXiv or OpenAlex key with its
    title words cut off, else the whole text (internal id or slug, DOI, S2 id, …).

    >>> paper_lookup_id("hep-th/9901001v2-some-title")
    'hep-th/9901001'
    >>> paper_lookup_id("2110.15032-attention")
    '2110.15032'
    """
    for pattern in (_PATH_ARXIV_NEW, _PATH_ARXIV_OLD, _PATH_OPENALEX_WORK):
        if m := pattern.match(rest):
            return m.group(1)
    return rest


def fold_name(text: str | None) -> str:
    """Case-, accent- and spacing-insensitive comparison form of a name; the loaders' `name_key` rule
    for institutions (graph.identity.names.fold, whitespace collapsed).

    >>> fold_name("  Université  de Montréal ") == fold_name("universite de montreal")
    True
    """
    return clean_whitespace(fold(text or ""))


def _internal(raw: str, prefix: str) -> list[IdKey]:
    """The internal id (or a slug starting with one) of the given prefix, also tried as an alias."""
    m = _INTERNAL.match(raw)
    if not m or not m.group(1).startswith(prefix):
        return []
    return [IdKey("id", m.group(1)), IdKey("alias", m.group(1))]


def _openalex_keys(label: str, openalex: str) -> list[IdKey]:
    """An OpenAlex id, and the internal id of its key as an alias: the survivor of an OpenAlex merge keeps the
    retired node's ids in `aliases` (graph/MODEL.md, "Sync"), so a retired OpenAlex id still resolves."""
    return [IdKey("openalex_id", openalex), IdKey("alias", node_id(label, {"openalex_id": openalex}))]


def _clean(raw: str | None) -> str:
    return (raw or "").strip()[:_MAX_ID_LENGTH]


def parse_paper_id(raw: str | None) -> list[IdKey]:
    """Keys for a paper id: internal id or slug, DOI, arXiv id, OpenAlex W, S2 paperId, CorpusId, MAG, PMID.

    >>> parse_paper_id("arXiv:2110.15032v6")
    [IdKey(property='arxiv_id', value='2110.15032')]
    """
    text = _clean(raw)
    if not text:
        return []
    keys = _internal(text, "p")
    doi = normalize_doi(text)
    arxiv = normalize_arxiv(text)
    if arxiv:
        keys.append(IdKey("arxiv_id", arxiv))
    if doi:
        keys.append(IdKey("doi", doi))
    openalex = normalize_openalex(text)
    if openalex and openalex.startswith("W"):
        keys += _openalex_keys("Paper", openalex)
    if m := _S2_PAPER.match(text):
        keys.append(IdKey("s2_id", m.group(1).lower()))
    if m := _CORPUS.match(text):
        keys.append(IdKey("corpus_id", int(m.group(1))))
    if m := _MAG.match(text):
        keys.append(IdKey("mag_id", int(m.group(1))))
    if m := _PMID.match(text):
        keys.append(IdKey("pmid", int(m.group(1))))
    return keys


def parse_researcher_id(raw: str | None) -> list[IdKey]:
    """Keys for a researcher id: internal id or slug, OpenAlex A, ORCID (bare or URL), S2 author id.

    >>> parse_researcher_id("https://orcid.org/0000-0002-1825-0097")
    [IdKey(property='orcid', value='0000-0002-1825-0097')]
    """
    text = _clean(raw)
    if not text:
        return []
    keys = _internal(text, "r")
    openalex = normalize_openalex(text)
    if openalex and openalex.startswith("A"):
        keys += _openalex_keys("Researcher", openalex)
    orcid = normalize_orcid(text)
    if orcid:
        keys.append(IdKey("orcid", orcid))
    if m := _S2_AUTHOR.match(text):
        keys.append(IdKey("s2_id", m.group(1)))
    return keys


def parse_institution_id(raw: str | None) -> list[IdKey]:
    """Keys for an institution: internal id or slug, ROR (short or URL), OpenAlex I, else its exact name.

    >>> parse_institution_id("https://ror.org/05dxps055")
    [IdKey(property='ror', value='05dxps055')]
    """
    text = _clean(raw)
    if not text:
        return []
    keys = _internal(text, "i")
    ror = normalize_ror(text)
    if ror:
        keys.append(IdKey("ror", ror))
    openalex = normalize_openalex(text)
    if openalex and openalex.startswith("I"):
        keys += _openalex_keys("Institution", openalex)
    if not keys:
        keys.append(IdKey("name", fold_name(text)))
    return keys


def escape_lucene(text: str) -> str:
    """A full-text query matching the words of `text` (all required) with Lucene syntax neutralised.

    Every special character is backslash-escaped and the operators AND/OR/NOT lose their meaning,
    so hostile input can neither break the query parser nor change what is matched.

    >>> escape_lucene('graph (neural) OR "nets"')
    'graph AND \\\\(neural\\\\) AND or AND \\\\"nets\\\\"'
    """
    terms = [_escape_term(term) for term in text.split()]
    return " AND ".join(t for t in terms if t)


def prefix_query(prefix: str) -> str:
    """A full-text query for completions: every word required, the last one as a prefix.

    >>> prefix_query("deep lea")
    'deep AND lea*'
    """
    terms = [_escape_term(term) for term in prefix.split()]
    terms = [t for t in terms if t]
    if not terms:
        return ""
    if terms[-1][-1:].isalnum():
        terms[-1] += "*"
    return " AND ".join(terms)


_LUCENE_SPECIAL = set('+-&|!(){}[]^"~*?:\\/')


def _escape_term(term: str) -> str:
    """One whitespace-free term, escaped; Lucene operator words lowercased so they match as words."""
    if term in ("AND", "OR", "NOT"):
        return term.lower()
    return "".join("\\" + ch if ch in _LUCENE_SPECIAL else ch for ch in term)
