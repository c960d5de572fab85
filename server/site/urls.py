"""Canonical page paths and how a requested path splits into the id to look up.

Researchers and institutions: `/researchers/<internal id>-<name words>`, `/institutions/<internal id>-<name
words>`. Papers: `/papers/<key>-<title words>` where the key is the arXiv id without version when there
is one (an old-style id keeps its slash: `/papers/hep-th/9901001-title-words`, as arxiv.org/abs/ does),
else the OpenAlex W id, else the internal id. Any other spelling of a page answers 301 to these.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from weft.graph.identity.lookup import paper_path as paper_path  # one rule for the site and Paper.canonicalUrl
from weft.graph.identity.lookup import with_words

_ARXIV_NEW = re.compile(r"^(\d{4}\.\d{4,5})(v\d+)?(?:-[\w\-]*)?$", re.IGNORECASE)
_ARXIV_OLD = re.compile(r"^([a-z\-]+(?:\.[a-z\-]+)?/\d{7})(v\d+)?(?:-[\w\-]*)?$", re.IGNORECASE)
_OPENALEX_WORK = re.compile(r"^(W\d+)(?:-[\w\-]*)?$", re.IGNORECASE)


def researcher_path(node: dict[str, Any]) -> str:
    """`/researchers/<internal id>-<name words>`."""
    return "/researchers/" + with_words(node["id"], node.get("name"))


def institution_path(node: dict[str, Any]) -> str:
    """`/institutions/<internal id>-<name words>`."""
    return "/institutions/" + with_words(node["id"], node.get("name"))


def paper_lookup_id(rest: str) -> str:
    """The id to look a paper up by from the path after `/papers/`: an arXiv or OpenAlex key with its
    title words cut off, else the whole text (internal id or slug, DOI, S2 id, …).

    >>> paper_lookup_id("hep-th/9901001v2-some-title")
    'hep-th/9901001'
    >>> paper_lookup_id("2110.15032-attention")
    '2110.15032'
    """
    for pattern in (_ARXIV_NEW, _ARXIV_OLD, _OPENALEX_WORK):
        if m := pattern.match(rest):
            return m.group(1)
    return rest


def spellings(key: str) -> list[str]:
    """The forms to look a path's id up by: as written, then lower-cased (internal ids and slugs are
    lower case; a shouted `/researchers/RUFRU6UM2R75-PETER-BUTCHER` still finds its page).

    >>> spellings("R1-Ada")
    ['R1-Ada', 'r1-ada']
    """
    return [key] if key == key.lower() else [key, key.lower()]


def category_feed_path(key: str) -> str:
    """The feed of a category's newest papers."""
    return "/feeds/categories/" + quote(key, safe="") + ".xml"
