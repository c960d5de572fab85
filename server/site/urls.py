"""Canonical page paths and how a requested path splits into the id to look up.

Researchers and institutions: `/researchers/<internal id>-<name words>`, `/institutions/<internal id>-<name
words>`. Papers: `/papers/<key>-<title words>` where the key is the arXiv id without version when there
is one (an old-style id keeps its slash: `/papers/hep-th/9901001-title-words`, as arxiv.org/abs/ does),
else the OpenAlex W id, else the internal id. Any other spelling of a page answers 301 to these.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from weft.graph.identity.lookup import paper_lookup_id as paper_lookup_id  # also what `resolve` reads URLs by
from weft.graph.identity.lookup import paper_path as paper_path  # one rule for the site and Paper.canonicalUrl
from weft.graph.identity.lookup import with_words


def researcher_path(node: dict[str, Any]) -> str:
    """`/researchers/<internal id>-<name words>`."""
    return "/researchers/" + with_words(node["id"], node.get("name"))


def institution_path(node: dict[str, Any]) -> str:
    """`/institutions/<internal id>-<name words>`."""
    return "/institutions/" + with_words(node["id"], node.get("name"))


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
