"""Each source's id of a node with a link to its record there (the same rule as the API's `ids`)."""

from __future__ import annotations

from typing import Any

from weft.graph.identity.ids import KEY_PROPERTIES
from weft.graph.sources import record_url
from weft.server.site.links import web_link

ID_PROPERTIES = {
    "Paper": KEY_PROPERTIES["Paper"],
    "Researcher": (("openalex", "openalex_id"), ("s2", "s2_id"), ("orcid", "orcid")),
    "Institution": KEY_PROPERTIES["Institution"],
}
SOURCE_NAMES = {
    "openalex": "OpenAlex",
    "s2": "Semantic Scholar",
    "arxiv": "arXiv",
    "orcid": "ORCID",
    "ror": "ROR",
    "doi": "DOI",
    "corpus": "S2 Corpus",
    "mag": "MAG",
    "pmid": "PubMed",
}


def identities(label: str, node: dict[str, Any]) -> list[dict[str, Any]]:
    """`[{source, name, id, url}]` for the ids `node` has, in the API's order (`url` only when http(s))."""
    out: list[dict[str, Any]] = []
    for source, prop in ID_PROPERTIES[label]:
        value = node.get(prop)
        if value is None or value == "":
            continue
        out.append(
            {
                "source": source,
                "name": SOURCE_NAMES.get(source, source),
                "id": str(value),
                "url": web_link(record_url(label, source, str(value))),
            }
        )
    return out
