"""Per-request DataLoaders: one batched Cypher query per relationship, whatever the page size."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

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


class Loaders:
    """The DataLoaders of one request; created fresh for every request, never shared."""

    def __init__(self, reader: GraphReader) -> None:
        self.paper = _keyed(papers.papers_by_ids, reader, None)
        self.researcher = _keyed(researchers.researchers_by_ids, reader, None)
        self.institution = _keyed(institutions.institutions_by_ids, reader, None)
        self.authorships = _keyed(papers.authorships_of, reader, [])
        self.categories = _keyed(papers.categories_of, reader, [])
        self.researcher_stats = _keyed(researchers.researcher_stats, reader, None)
        self.parents = _keyed(institutions.parents_of, reader, [])
        self.children = _keyed(institutions.children_of, reader, [])
        self.author_positions = _keyed(researchers.author_positions, reader, None)
        self.fields = _keyed(researchers.fields, reader, [])
        self.affiliations = _keyed(researchers.institutions, reader, [])
        self.same_name = _keyed(researchers.same_name, reader, [])
        self.most_cited_paper = _keyed(researchers.most_cited_paper, reader, None)
        self.cited_by = _keyed(papers.cited_by_pages, reader, EMPTY_PAGE)
        self.references = _keyed(papers.references_pages, reader, EMPTY_PAGE)
        self.coauthors = _keyed(researchers.coauthor_pages, reader, EMPTY_PAGE)
        self.researcher_papers = _keyed(papers.researcher_paper_pages, reader, EMPTY_PAGE)
        self.category_ids = _keyed(papers.category_lookups, reader, [])
        self.family = _keyed(institutions.families, reader, None)
        self.roster = _keyed(institutions.roster_pages, reader, EMPTY_PAGE)
        self.collaborators = _keyed(institutions.collaborator_pages, reader, EMPTY_PAGE)
        self.institution_papers = _keyed(institutions.paper_pages, reader, EMPTY_PAGE)
