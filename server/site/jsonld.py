"""schema.org JSON-LD for each page: ScholarlyArticle (papers), Person (researchers), Organization
(institutions), with the source records in `sameAs`; WebSite with its SearchAction (home), and a WebPage,
SearchResultsPage or CollectionPage with its BreadcrumbList (the other pages). Paths are made absolute by
the template's base."""

from __future__ import annotations

import json
from typing import Any, cast

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
            k: (base + v if k in _PATH_KEYS and isinstance(v, str) and v.startswith("/") else _absolute(v, base))
            for k, v in cast(dict[str, Any], value).items()
        }
    if isinstance(value, list):
        return [_absolute(v, base) for v in cast(list[Any], value)]
    return value


_PATH_KEYS = ("url", "@id", "item", "urlTemplate")
"""The keys whose value, when a path, is made absolute."""
_CC = "https://creativecommons.org/licenses/{}/4.0/"
LICENSES = {
    **{f"cc-{kind}": _CC.format(kind) for kind in ("by", "by-sa", "by-nd", "by-nc", "by-nc-sa", "by-nc-nd")},
    "cc0": "https://creativecommons.org/publicdomain/zero/1.0/",
    "public-domain": "https://creativecommons.org/publicdomain/mark/1.0/",
    "mit": "https://opensource.org/licenses/MIT",
}
"""OpenAlex's licence keys as the URL of the licence (schema.org's `license` is a URL); others have none."""


def license_url(value: Any) -> str | None:
    """The licence's URL: an http(s) URL as the source gave it, a known key's URL, else None."""
    text = str(value or "").strip()
    if text.lower().startswith(("http://", "https://")):
        return text
    return LICENSES.get(text.lower())


def breadcrumbs(*trail: tuple[str, str]) -> dict[str, Any]:
    """A BreadcrumbList from the home page down the (name, path) trail."""
    items = [("Weft", "/"), *trail]
    return {
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "position": n, "name": name, "item": path}
            for n, (name, path) in enumerate(items, start=1)
        ],
    }


def website(description: str) -> dict[str, Any]:
    """The home page: the WebSite with its search (SearchAction), as search engines read a sitelinks box."""
    return {
        "@context": "https://schema.org",
        "@type": "WebSite",
        "@id": "/",
        "url": "/",
        "name": "Weft",
        "description": description,
        "potentialAction": {
            "@type": "SearchAction",
            "target": {"@type": "EntryPoint", "urlTemplate": "/search?q={search_term_string}"},
            "query-input": "required name=search_term_string",
        },
    }


def web_page(kind: str, path: str, name: str, description: str) -> dict[str, Any]:
    """A page that is not an entity's (`kind`: WebPage, SearchResultsPage, CollectionPage) in the site's trail."""
    return {
        "@context": "https://schema.org",
        "@type": kind,
        "@id": path,
        "url": path,
        "name": name,
        "description": description,
        "isPartOf": {"@type": "WebSite", "@id": "/", "name": "Weft"},
        "breadcrumb": breadcrumbs((name, path)),
    }


def collection_page(path: str, name: str, description: str) -> dict[str, Any]:
    """An index page (/papers, /researchers, /institutions)."""
    return web_page("CollectionPage", path, name, description)


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
        "license": license_url(node.get("license")),
        "isPartOf": node.get("venue"),
        "inLanguage": node.get("language"),
    }
    data.update({k: v for k, v in optional.items() if v})
    return data
