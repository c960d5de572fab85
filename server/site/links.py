"""The one rule for a URL taken from data (a source's pdf_url, a homepage, a record link): it becomes a link
(`href`, `src`, JSON-LD `sameAs`, a feed's link) only when it is an absolute http(s) URL. Anything else
(`javascript:`, `data:`, `vbscript:`, scheme-relative `//host`, a relative path, a URL with spaces or control
characters a browser would strip or mend) gives None: the page shows no link."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

WEB_SCHEMES = frozenset({"http", "https"})
_UNSAFE_CHARACTERS = re.compile(r"[\x00-\x20\x7f-\x9f\\]")
"""Whitespace and control characters (browsers strip or ignore them, so `java\\tscript:` runs) and backslashes
(browsers read `https:\\\\evil` as a host); quotes and angle brackets are escaped where the link is written."""


def web_link(raw: object) -> str | None:
    """`raw` when it is an absolute http(s) URL with a host, else None.

    >>> web_link("https://arxiv.org/pdf/2108.04680")
    'https://arxiv.org/pdf/2108.04680'
    >>> web_link(" HTTP://example.org/a.pdf ")
    'HTTP://example.org/a.pdf'
    >>> [web_link(u) for u in ("javascript:alert(1)", "JaVaScRiPt:alert(1)", "java\\tscript:alert(1)")]
    [None, None, None]
    >>> [web_link(u) for u in ("data:text/html,<b>", "//evil.example/x", "/papers/x", "https://", None, 42)]
    [None, None, None, None, None, None]
    """
    if not isinstance(raw, str):
        return None
    url = raw.strip()
    if not url or _UNSAFE_CHARACTERS.search(url):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:  # e.g. an unclosed IPv6 bracket
        return None
    if parts.scheme.lower() not in WEB_SCHEMES or not parts.hostname:
        return None
    return url
