"""schema.org JSON-LD for each page: ScholarlyArticle (papers), Person (researchers), Organization
(institutions), with the source records in `sameAs`. Paths are made absolute by the template's base."""

from __future__ import annotations

import json
from typing import Any

from markupsafe import Markup

from weft.server.site import urls
from weft.server.site.identities import identities


def script(data: dict[str, Any], base: str) -> Markup:
    """The JSON-LD as the body of a `<script type="application/ld+json">`: `<`, `>` and `&` escaped,
    so no name or title can close the script; paths starting with `/` made absolute on `base`."""
    text = json.dumps(_absolute(data, base.rstrip("/")), ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))  # noqa: S704


def _absolute(value: Any, base: str) -> Any:
    if isinstance(value, dict):
        return {
            k: (base + v if k in ("url", "@id") and isinstance(v, str) and v.startswith("/") else _absolute(v, base))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_absolute(v, base) for v in value]
    return value


def _same_as(label: str, node: dict[str, Any]) -> list[str]:
    return [i["url"] for i in identities(label, node) if i["url"]]


def person(node: dict[str, Any], affiliations: list[dict[str, Any]]) -> dict[str, Any]:
    """A researcher as a schema.org Person."""
    return {
        "@context": "https://schema.org",
        "@type": "Person",
        "@id": urls.researcher_path(node),
        "url": urls.researcher_path(node),
        "name": node.get("name") or node["id"],
        "sameAs": _same_as("Researcher", node),
        "affiliation": [organization_ref(a["institution"]) for a in affiliations],
    }


def organization_ref(node: dict[str, Any]) -> dict[str, Any]:
    """An institution as a short Organization (in another entity's JSON-LD)."""
    return {"@type": "Organization", "name": node.get("name") or node["id"], "url": urls.institution_path(node)}


def organization(node: dict[str, Any], parents: list[dict[str, Any]]) -> dict[str, Any]:
    """An institution as a schema.org Organization (ROR and OpenAlex in sameAs)."""
    data: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "Organization",
        "@id": urls.institution_path(node),
        "url": urls.institution_path(node),
        "name": node.get("name") or node["id"],
        "sameAs": _same_as("Institution", node),
    }
    if node.get("country"):
        data["address"] = {"@type": "PostalAddress", "addressCountry": node["country"]}
    if parents:
        data["parentOrganization"] = [organization_ref(p) for p in parents]
    return data


def article(
    node: dict[str, Any], authorships: list[dict[str, Any]], references: list[dict[str, Any]]
) -> dict[str, Any]:
    """A paper as a schema.org ScholarlyArticle: authors, identifiers, the loaded papers it cites."""
    data: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "ScholarlyArticle",
        "@id": urls.paper_path(node),
        "url": urls.paper_path(node),
        "headline": (node.get("title") or node["id"])[:110],
        "name": node.get("title") or node["id"],
        "author": [
            {"@type": "Person", "name": a["researcher"].get("name") or "", "url": urls.researcher_path(a["researcher"])}
            for a in authorships
        ],
        "identifier": [
            {"@type": "PropertyValue", "propertyID": i["source"], "value": i["id"]} for i in identities("Paper", node)
        ],
        "sameAs": _same_as("Paper", node),
        "citation": [
            {"@type": "ScholarlyArticle", "name": r.get("title") or r["id"], "url": urls.paper_path(r)}
            for r in references
        ],
    }
    optional = {
        "datePublished": node.get("publication_date") or node.get("year"),
        "abstract": node.get("abstract"),
        "license": node.get("license"),
        "isPartOf": node.get("venue"),
        "inLanguage": node.get("language"),
    }
    data.update({k: v for k, v in optional.items() if v})
    return data
