"""Internal ids and canonical keys: pure functions, shared by every loader and lookup."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Mapping

PREFIX = {"Paper": "p", "Researcher": "r", "Institution": "i", "Category": "c"}


def internal_id(label: str, canonical_key: str) -> str:
    """The stable internal id of a node: prefix + 11 base32 chars of SHA-1(canonical key).

    >>> internal_id("Paper", "openalex:W2741809807")[:1]
    'p'
    """
    digest = hashlib.sha1(canonical_key.encode("utf-8")).digest()  # noqa: S324 - not security
    # 11 characters are 55 bits: the first 10 bytes give the same 16 characters as all 20 for half the work.
    return PREFIX[label] + base64.b32encode(digest[:10]).decode("ascii").lower()[:11]


_DOI = re.compile(r"^(?:doi:|https?://(?:dx\.)?doi\.org/)?(10\.\d{4,9}/\S+)$", re.IGNORECASE)
_OPENALEX = re.compile(r"^(?:https?://openalex\.org/)?([WAISTCFPwaistcfp]\d+)$")
_ROR = re.compile(r"^(?:https?://ror\.org/)?(0[a-z0-9]{6}\d{2})$", re.IGNORECASE)
_ORCID = re.compile(r"^(?:https?://orcid\.org/)?(\d{4}-\d{4}-\d{4}-\d{3}[\dX])$", re.IGNORECASE)
_ARXIV_NEW = re.compile(r"^(?:arxiv:)?(\d{4}\.\d{4,5})(?:v\d+)?$", re.IGNORECASE)
# Old-style: archive, an optional subject class (not part of the id), then YYMMNNN.
_ARXIV_OLD = re.compile(r"^(?:arxiv:)?([a-z\-]+)(?:\.[a-z\-]+)?/(\d{7})(?:v\d+)?$", re.IGNORECASE)


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

    Accepts `arXiv:` prefixes, version suffixes, arXiv URLs and DOIs (`10.48550/arXiv.2110.15032`),
    and drops an old-style subject class: `math.CO/0601001v2` is `math/0601001`.
    """
    if not raw:
        return None
    text = raw.strip()
    doi = normalize_doi(text)
    if doi and doi.startswith("10.48550/arxiv."):
        text = doi.removeprefix("10.48550/arxiv.")
    text = re.sub(r"^https?://arxiv\.org/(?:abs|pdf)/", "", text, flags=re.IGNORECASE)
    if m := _ARXIV_NEW.match(text):
        return m.group(1)
    if m := _ARXIV_OLD.match(text):
        return f"{m.group(1).lower()}/{m.group(2)}"
    return None


# Hard keys per label, best first: (canonical-key scheme, node property). A node's `id` is the
# internal id of its best key; the ids of its other keys are its `aliases`.
KEY_PROPERTIES: dict[str, tuple[tuple[str, str], ...]] = {
    "Paper": (
        ("doi", "doi"),
        ("arxiv", "arxiv_id"),
        ("openalex", "openalex_id"),
        ("s2", "s2_id"),
        ("corpus", "corpus_id"),
        ("mag", "mag_id"),
        ("pmid", "pmid"),
    ),
    "Researcher": (
        ("orcid", "orcid"),
        ("openalex", "openalex_id"),
        ("s2", "s2_id"),
        ("paper", "scoped_key"),
    ),
    "Institution": (("ror", "ror"), ("openalex", "openalex_id")),
    "Category": (("", "key"),),
}
_SCHEME_PROPERTY = {label: dict(pairs) for label, pairs in KEY_PROPERTIES.items()}
# Per label, each key property's scheme, and its rank (0 best): the bulk path's staged key lists.
KEY_SCHEME = {label: {prop: scheme for scheme, prop in pairs} for label, pairs in KEY_PROPERTIES.items()}
KEY_RANK = {label: {prop: i for i, (_, prop) in enumerate(pairs)} for label, pairs in KEY_PROPERTIES.items()}


def canonical_keys(label: str, keys: Mapping[str, object]) -> list[str]:
    """The canonical keys (`doi:10.1/x`, `openalex:W1`, `arxiv:cs.LG`…) of a key-property map, best first.

    >>> canonical_keys("Paper", {"openalex_id": "W1", "doi": "10.1/x"})
    ['doi:10.1/x', 'openalex:W1']
    """
    found: list[str] = []
    for scheme, prop in KEY_PROPERTIES[label]:
        value = keys.get(prop)
        if value is None or value == "":
            continue
        found.append(f"{scheme}:{value}" if scheme else str(value))
    return found


def key_property(label: str, canonical_key: str) -> tuple[str, str]:
    """The node property and value a canonical key stands for: `('openalex_id', 'W1')`."""
    if label == "Category":
        return "key", canonical_key
    scheme, _, value = canonical_key.partition(":")
    return _SCHEME_PROPERTY[label][scheme], value


def node_id(label: str, keys: Mapping[str, object]) -> str:
    """The internal id of a node holding `keys`: the id of its best canonical key."""
    ranked = canonical_keys(label, keys)
    if not ranked:
        raise ValueError(f"a {label} needs at least one hard key, got {keys!r}")
    return internal_id(label, ranked[0])


def aliases(label: str, keys: Mapping[str, object]) -> list[str]:
    """Sorted internal ids of every non-best key: old links that must still resolve."""
    ranked = canonical_keys(label, keys)
    best = internal_id(label, ranked[0]) if ranked else None
    return sorted({internal_id(label, k) for k in ranked} - {best})


def paper_keys(
    *,
    doi: str | None = None,
    arxiv: str | None = None,
    openalex: str | None = None,
    s2: str | None = None,
    corpus: int | str | None = None,
    mag: int | str | None = None,
    pmid: int | str | None = None,
) -> dict[str, str]:
    """Normalised Paper key properties from raw source values; an arXiv DOI becomes `arxiv_id`.

    All values are strings; missing or unparsable ones are left out.

    >>> paper_keys(doi="https://doi.org/10.48550/arXiv.2110.15032v2")
    {'arxiv_id': '2110.15032'}
    """
    keys: dict[str, str] = {}
    norm_doi = normalize_doi(doi) if doi else None
    if norm_doi and norm_doi.startswith("10.48550/arxiv."):
        arxiv = arxiv or norm_doi
        norm_doi = None
    if norm_doi:
        keys["doi"] = norm_doi
    if arxiv and (aid := normalize_arxiv(arxiv)):
        keys["arxiv_id"] = aid
    if openalex and (oid := normalize_openalex(openalex)) and oid.startswith("W"):
        keys["openalex_id"] = oid
    if s2 and str(s2).strip():
        keys["s2_id"] = str(s2).strip()
    for prop, raw in (("corpus_id", corpus), ("mag_id", mag), ("pmid", pmid)):
        text = _digits(raw)
        if text:
            keys[prop] = text
    return keys


def _digits(raw: int | str | None) -> str | None:
    """The trailing run of digits of an integer id or id URL (`https://pubmed…/29456894`)."""
    if raw is None or isinstance(raw, bool):
        return None
    m = re.search(r"(\d+)/?$", str(raw).strip())
    return str(int(m.group(1))) if m else None


def paper_ref_key(keys: Mapping[str, object]) -> str | None:
    """The canonical key a reference to a paper is stored under (`Ref.key`): its best key."""
    ranked = canonical_keys("Paper", keys)
    return ranked[0] if ranked else None


def scoped_researcher_key(paper_key: str, rank: int) -> str:
    """The key of an id-less author: `<paper's canonical key>#<0-based rank>` (property `scoped_key`)."""
    return f"{paper_key}#{rank}"


def category_key(scheme: str, code: str) -> str:
    """A Category key `<scheme>:<code>`: `arxiv:cs.LG`, `topic:T10181`, `field:17`, `concept:C41008148`."""
    return f"{scheme}:{code}"
