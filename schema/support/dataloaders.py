"""Per-request DataLoaders: one batched Cypher query per relationship, whatever the page size."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from copy import copy
from typing import Any, cast

from strawberry.dataloader import DataLoader

from weft.graph.reads import institutions, papers, researchers
from weft.graph.reads.page import Page
from weft.graph.reads.reader import GraphReader

Row = dict[str, Any]
EMPTY_PAGE = Page([], 0)


def _keyed(
    fetch: Callable[[GraphReader, list[Any]], Awaitable[dict[Any, Any]]], reader: GraphReader, empty: Any
) -> DataLoader[Any, Any]:
    """A DataLoader answering each key from one `fetch(reader, keys)` call (`empty` when absent)."""

    async def load(keys: list[Any]) -> list[Any]:
        found = await fetch(reader, list(dict.fromkeys(keys)))
        return [found.get(k, empty) for k in keys]

    return DataLoader(load_fn=load)


async def load_each(loader: DataLoader[Any, Any], keys: list[Any]) -> list[Any]:
    """`loader.load_many(keys)`, answered without waiting when a fold primed every key: each key joins the
    pending batch first (one query for all, as load_many), but settled values are read as they are, where
    load_many's gather always waits a turn of the event loop (a tenth of a paper page's Python, per author)."""
    futures = [cast("asyncio.Future[Any]", loader.load(k)) for k in keys]  # what load returns (typed Awaitable)
    if all(f.done() and not f.cancelled() and f.exception() is None for f in futures):
        return [f.result() for f in futures]
    return await asyncio.gather(*futures)


class _Loader:
    """A `Loaders` attribute: its DataLoader is made on first use in the request (most requests use two or
    three of them, and making all of them was a tenth of a folded request's Python)."""

    def __init__(self, fetch: Callable[[GraphReader, list[Any]], Awaitable[dict[Any, Any]]], empty: Any) -> None:
        self.fetch, self.empty = fetch, empty
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, loaders: Loaders, owner: type | None = None) -> DataLoader[Any, Any]:
        made = _keyed(self.fetch, loaders.reader, copy(self.empty))  # a request's own empty list, as before
        loaders.__dict__[self.name] = made  # found there from now on: this descriptor defines no __set__
        return made


class Loaders:
    """The DataLoaders of one request; created fresh for every request (each on first use), never shared."""

    def __init__(self, reader: GraphReader) -> None:
        self.reader = reader

    paper = _Loader(papers.papers_by_ids, None)
    researcher = _Loader(researchers.researchers_by_ids, None)
    institution = _Loader(institutions.institutions_by_ids, None)
    authorships = _Loader(papers.authorships_of, [])
    categories = _Loader(papers.categories_of, [])
    researcher_stats = _Loader(researchers.researcher_stats, None)
    parents = _Loader(institutions.parents_of, [])
    children = _Loader(institutions.children_of, [])
    author_positions = _Loader(researchers.author_positions, None)
    fields = _Loader(researchers.fields, [])
    affiliations = _Loader(researchers.institutions, [])
    same_name = _Loader(researchers.same_name, [])
    most_cited_paper = _Loader(researchers.most_cited_paper, None)
    cited_by = _Loader(papers.cited_by_pages, EMPTY_PAGE)
    references = _Loader(papers.references_pages, EMPTY_PAGE)
    coauthors = _Loader(researchers.coauthor_pages, EMPTY_PAGE)
    researcher_papers = _Loader(papers.researcher_paper_pages, EMPTY_PAGE)
    category_ids = _Loader(papers.category_lookups, [])
    family = _Loader(institutions.families, None)
    roster = _Loader(institutions.roster_pages, EMPTY_PAGE)
    collaborators = _Loader(institutions.collaborator_pages, EMPTY_PAGE)
    institution_papers = _Loader(institutions.paper_pages, EMPTY_PAGE)
