"""Internal ids and canonical keys: pure functions, shared by every loader and lookup."""

from __future__ import annotations

import base64
import hashlib
import re

PREFIX = {"Paper": "p", "Researcher": "r", "Institution": "i", "Category": "c"}


def internal_id(label: str, canonical_key: str) -> str:
    """The stable internal id of a node: prefix + 11 base32 chars of SHA-1(canonical key).

    >>> internal_id("Paper", "openalex:W2741809807")[:1]
    'p'
    """
    digest = hashlib.sha1(canonical_key.encode("utf-8")).digest()  # noqa: S324 - not security
    return PREFIX[label] + base64.b32encode(digest).decode("ascii").lower()[:11]


_DOI = re.compile(r"^(?:doi:|https?://(?:dx\.)?doi\.org/)?(10\.\d{4,9}/\S+)$", re.IGNORECASE)
_OPENALEX = re.compile(r"^(?:https?://openalex\.org/)?([WAISTCFPwaistcfp]\d+)$")
_ROR = re.compile(r"^(?:https?://ror\.org/)?(0[a-z0-9]{6}\d{2})$", re.IGNORECASE)
_ORCID = re.compile(r"^(?:https?://orcid\.org/)?(\d{4}-\d{4}-\d{4}-\d{3}[\dX])$", re.IGNORECASE)
_ARXIV_NEW = re.compile(r"^(?:arxiv:)?(\d{4}\.\d{4,5})(?:v\d+)?$", re.IGNORECASE)
_ARXIV_OLD = re.compile(r"^(?:arxiv:)?([a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?$", re.IGNORECASE)


def normalize_doi(raw: str | None) -> str | None:
    """Bare lowercase DOI from `10.x/y`, `doi:10.x/y` or a doi.org URL; None when not a DOI."""
    if not raw:
        return None
    m = _DOI.match(raw.strip())
    return m.group(1).lower() if m else None


def normalize_openalex(raw: str | None) -> str | None:
    """Short OpenAlex id (`W123`, `A5…`, `I…`) from the short form or the URL."""
    if not raw:
        return None
    m = _OPENALEX.match(raw.strip())
    return m.group(1).upper() if m else None


def normalize_ror(raw: str | None) -> str | None:
    """Short ROR id (`05dxps055`) from the short form or the URL."""
    if not raw:
        return None
    m = _ROR.match(raw.strip())
    return m.group(1).lower() if m else None


def normalize_orcid(raw: str | None) -> str | None:
    """Bare ORCID (`0000-0002-1825-0097`) from the bare form or the URL."""
    if not raw:
        return None
    m = _ORCID.match(raw.strip())
    return m.group(1).upper() if m else None


def normalize_arxiv(raw: str | None) -> str | None:
    """Canonical arXiv id without version: `2110.15032`, `hep-th/9901001`; None otherwise.

    Accepts `arXiv:` prefixes, version suffixes and arXiv DOIs (`10.48550/arXiv.2110.15032`).
    """
    if not raw:
        return None
    text = raw.strip()
    doi = normalize_doi(text)
    if doi and doi.startswith("10.48550/arxiv."):
        text = doi.removeprefix("10.48550/arxiv.")
    text = re.sub(r"^https?://arxiv\.org/(?:abs|pdf)/", "", text, flags=re.IGNORECASE)
    m = _ARXIV_NEW.match(text) or _ARXIV_OLD.match(text)
    if not m:
        return None
    ident = m.group(1)
    return ident if "/" not in ident else ident.split("/")[0].lower() + "/" + ident.split("/")[1]
