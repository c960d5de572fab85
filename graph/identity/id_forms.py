"""Which kind of id a string is, for batch resolution: its form (DOI, arXiv, ORCID, …), the kind of node it
names and the keys to look that node up by (pure; the id parsers of graph/identity/lookup.py do the parsing)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import unquote

from weft.graph.identity.ids import normalize_arxiv, normalize_doi, normalize_openalex, normalize_orcid, normalize_ror
from weft.graph.identity.lookup import (
    IdKey,
    paper_lookup_id,
    parse_institution_id,
    parse_paper_id,
    parse_researcher_id,
)

LABEL_OF_PREFIX = {"p": "Paper", "r": "Researcher", "i": "Institution"}

_INTERNAL = re.compile(r"^([pri])[a-z2-7]{11}(?:-[\w\-]*)?$")
_SITE_URL = re.compile(r"^https?://[^/\s]+/(papers|researchers|institutions)/([^?#\s]+?)/?(?:[?#].*)?$")
_SECTION_LABEL = {"papers": "Paper", "researchers": "Researcher", "institutions": "Institution"}
_S2_PAPER = re.compile(r"^(?:s2:)?[0-9a-f]{40}$", re.IGNORECASE)
_S2_PAPER_URL = re.compile(
    r"^https?://(?:www\.)?semanticscholar\.org/paper/(?:[^/]+/)?([0-9a-f]{40})/?$", re.IGNORECASE
)
_CORPUS = re.compile(r"^(?:corpusid|corpus|s2corpus)[:_ ]?\d+$", re.IGNORECASE)
_MAG = re.compile(r"^mag:\d+$", re.IGNORECASE)
_PMID = re.compile(r"^(?:pmid:|https?://pubmed\.ncbi\.nlm\.nih\.gov/)\d+/?$", re.IGNORECASE)
_S2_AUTHOR = re.compile(r"^(?:s2:|https?://www\.semanticscholar\.org/author/(?:[^/]+/)?)?\d{1,12}$", re.IGNORECASE)


@dataclass(frozen=True)
class IdForm:
    """A recognised id: its form (`DOI`, `ARXIV`, …, `WEFT_ID`, `WEFT_URL`), the label of the node it names,
    and the keys to find that node by, most specific first."""

    kind: str
    label: str
    keys: list[IdKey]


def id_form(raw: str) -> IdForm | None:
    """The form of an id string, or None when it is no id form Weft knows (a name is not an id here).

    >>> id_form("https://doi.org/10.1145/3313831.3376594").kind
    'DOI'
    >>> id_form("arXiv:hep-th/9901001v2").keys
    [IdKey(property='arxiv_id', value='hep-th/9901001')]
    >>> id_form("Peter Butcher") is None
    True
    """
    text = raw.strip()
    if not text:
        return None
    if m := _SITE_URL.match(text):
        return _site_url(m.group(1), unquote(m.group(2)))
    if m := _INTERNAL.match(text):
        label = LABEL_OF_PREFIX[m.group(1)]
        return _form("WEFT_ID", label, text)
    openalex = normalize_openalex(text)
    if openalex and openalex[0] in "WAI":
        return _form("OPENALEX", {"W": "Paper", "A": "Researcher", "I": "Institution"}[openalex[0]], text)
    if m := _S2_PAPER_URL.match(text):
        return _form("S2_PAPER", "Paper", m.group(1))
    for kind, label, recognises in _RULES:
        if recognises(text):
            return _form(kind, label, text)
    return None


# The other forms, tried in this order (an arXiv DOI is an arXiv id): (kind, label, recogniser).
_RULES: tuple[tuple[str, str, Callable[[str], object]], ...] = (
    ("ARXIV", "Paper", normalize_arxiv),
    ("DOI", "Paper", normalize_doi),
    ("S2_PAPER", "Paper", _S2_PAPER.match),
    ("CORPUS_ID", "Paper", _CORPUS.match),
    ("MAG", "Paper", _MAG.match),
    ("PMID", "Paper", _PMID.match),
    ("ORCID", "Researcher", normalize_orcid),
    ("ROR", "Institution", normalize_ror),
    ("S2_AUTHOR", "Researcher", _S2_AUTHOR.match),
)


def _form(kind: str, label: str, text: str) -> IdForm | None:
    keys = _PARSERS[label](text)
    return IdForm(kind, label, keys) if keys else None


def _site_url(section: str, rest: str) -> IdForm | None:
    """A page URL of this site (any host: the path says what it is): `/papers/<key>-<title words>`, …"""
    label = _SECTION_LABEL[section]
    if label == "Paper":
        return _form("WEFT_URL", label, paper_lookup_id(rest))
    if not _INTERNAL.match(rest.lower()):
        return None
    return _form("WEFT_URL", label, rest.lower())


def _institution_keys(text: str) -> list[IdKey]:
    """An institution's keys, never its name (resolve takes ids only)."""
    return [k for k in parse_institution_id(text) if k.property != "name"]


_PARSERS = {"Paper": parse_paper_id, "Researcher": parse_researcher_id, "Institution": _institution_keys}
