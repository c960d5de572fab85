"""The Paper type: everything a paper page shows, and how `paper(id:)` folds it.

`fold_paper` reads which parts of a page a `paper(id:)` query asks, so that one PAPER_DETAILS query reads
them with the paper; `prime_paper` hands what it read to the DataLoaders, under the keys the field
resolvers below load with. See schema/support/prefetch.py.
"""

from __future__ import annotations

from typing import Annotated, Any

import strawberry

from weft.graph.identity.ids import KEY_PROPERTIES
from weft.graph.identity.lookup import paper_path
from weft.graph.reads import papers, semantic
from weft.graph.reads.page import Props
from weft.graph.reads.papers import CitedByPart, PaperDetails, PaperParts, ReferencesPart
from weft.graph.sources import SOURCE_KEYS
from weft.schema.context import Info
from weft.schema.support.connection import After, Connection, First, connection
from weft.schema.support.dataloaders import Loaders
from weft.schema.support.enums import PaperSort
from weft.schema.support.paging import check_range, window
from weft.schema.support.prefetch import AskedField, NodeReads, Selection, covers, node_props, prime
from weft.schema.support.values import Identity, SourceCount, source_counts
from weft.schema.types.authorship import Authorship
from weft.schema.types.entity import Entity, resolve_ids
from weft.schema.types.paper_category import PaperCategory
from weft.schema.types.paper_version import PaperVersion
from weft.schema.types.researcher import RESEARCHER_READS, connection_window, enum_name, metrics_asked
from weft.schema.types.similar_paper import SimilarPaper

PAPER_READS: NodeReads = {
    "id": (),
    "title": ("title",),
    "year": ("year",),
    "publicationDate": ("publication_date",),
    "citedByCount": ("cited_by_count",),
    "doi": ("doi",),
    "ids": tuple(prop for _, prop in KEY_PROPERTIES["Paper"]),
    "slug": ("title",),
    "canonicalUrl": ("arxiv_id", "openalex_id", "title"),
    "arxivId": ("arxiv_id",),
    "abstract": ("abstract",),
    "type": ("type",),
    "language": ("language",),
    "venue": ("venue",),
    "license": ("license",),
    "pdfUrl": ("pdf_url",),
    "versions": ("versions",),
    "citedByCountSources": tuple(f"cited_by_count_{source}" for source in SOURCE_KEYS),
    "referencedWorksCount": ("referenced_works_count",),
    "isAuthorsTruncated": ("is_authors_truncated",),
    "authors": (),
    "categories": (),
    "citedBy": (),
    "references": (),
    "similar": (),
    "vectorModel": (),
}
"""The properties each Paper field reads beside `id` (the fields below that load by id read none): a folded
page of papers reads just what its selection needs (prefetch.node_props). Every field is listed (a unit test
checks), so a new field must say what it reads."""


def paper_props(selections: list[Selection]) -> Props:
    """The properties `selections` of Paper nodes read (None: every property)."""
    return node_props(selections, PAPER_READS)


def connection_props(sel: Selection) -> Props:
    """The properties the papers of a connection of papers (`sel`: what the field asks) read."""
    return paper_props(sel.every("edges", "node"))


@strawberry.type(description="A scholarly work (one node per real paper, whatever source described it).")
class Paper(Entity):
    label = "Paper"
    site_section = "papers"
    id_props = KEY_PROPERTIES["Paper"]
    title: str | None = strawberry.field(description="Title.")
    year: int | None = strawberry.field(description="Publication year.")
    publication_date: str | None = strawberry.field(description="Publication date (ISO `YYYY-MM-DD`).")
    cited_by_count: int | None = strawberry.field(
        description="Citation count shown by default (OpenAlex's where known, else Semantic Scholar's); "
        "see `citedByCountSources` for each source's."
    )
    doi: str | None = strawberry.field(description="DOI, bare and lowercase.")
    ids: list[Identity] = strawberry.field(
        resolver=resolve_ids, description="Each source's id for this paper, with a link there."
    )

    @classmethod
    def from_record(cls, props: dict[str, Any]) -> Paper:
        """From a Paper node's properties (a `p {.*}` map)."""
        return cls(
            props=props,
            id=props["id"],
            title=props.get("title"),
            year=props.get("year"),
            publication_date=props.get("publication_date"),
            cited_by_count=props.get("cited_by_count"),
            doi=props.get("doi"),
        )

    def slug_text(self) -> str | None:
        return self.title

    @strawberry.field(
        description="This paper's page on the site: `/papers/<arXiv id, else OpenAlex W id, else id>-<title words>`."
    )
    def canonical_url(self) -> str:
        return paper_path(self.props)

    @strawberry.field(description="arXiv id without version, where the paper is on arXiv.")
    def arxiv_id(self) -> str | None:
        return self.props.get("arxiv_id")

    @strawberry.field(description="Abstract text, where a source gives one.")
    def abstract(self) -> str | None:
        return self.props.get("abstract")

    @strawberry.field(description="Work type, e.g. `article`, `preprint`, `review`.")
    def type(self) -> str | None:
        return self.props.get("type")

    @strawberry.field(description="Language code, e.g. `en`.")
    def language(self) -> str | None:
        return self.props.get("language")

    @strawberry.field(description="Venue (journal, conference or repository) name.")
    def venue(self) -> str | None:
        return self.props.get("venue")

    @strawberry.field(description="Licence, where known (e.g. `cc-by`).")
    def license(self) -> str | None:
        return self.props.get("license")

    @strawberry.field(description="Link to a PDF, where known.")
    def pdf_url(self) -> str | None:
        return self.props.get("pdf_url")

    @strawberry.field(description="Versions (arXiv), oldest first.")
    def versions(self) -> list[PaperVersion]:
        return [PaperVersion.from_record(v) for v in self.props.get("versions") or []]

    @strawberry.field(description="Citation count as each source reports it (provenance of `citedByCount`).")
    def cited_by_count_sources(self) -> list[SourceCount]:
        return source_counts(self.props, "cited_by_count")

    @strawberry.field(description="Number of references the source lists (loaded or not).")
    def referenced_works_count(self) -> int | None:
        return self.props.get("referenced_works_count")

    @strawberry.field(description="True when the source cut the author list short (OpenAlex lists at most 100).")
    def is_authors_truncated(self) -> bool:
        return bool(self.props.get("is_authors_truncated"))

    @strawberry.field(
        description="Authors in author-list order, with position, rank and the affiliations stated on this paper."
    )
    async def authors(self, info: Info) -> list[Authorship]:
        rows = await info.context.data.authorships.load(self.id)
        if rows and not covers(rows[0].get("researcher_props"), info, _author_props):
            rows = (await papers.authorships_of(info.context.reader, [self.id]))[self.id]
        return [Authorship.from_record(r) for r in rows]

    @strawberry.field(description="Categories, primary first; optionally only one scheme.")
    async def categories(
        self,
        info: Info,
        scheme: Annotated[
            str | None, strawberry.argument(description="Only this scheme (e.g. `topic`, `field`, `arxiv`).")
        ] = None,
    ) -> list[PaperCategory]:
        rows = await info.context.data.categories.load(self.id)
        return [PaperCategory.from_record(r) for r in rows if scheme is None or r["category"].get("scheme") == scheme]

    @strawberry.field(description="Loaded papers that cite this one.")
    async def cited_by(
        self,
        info: Info,
        first: First = 20,
        after: After = None,
        sort: Annotated[
            PaperSort, strawberry.argument(description="Order of the citing papers.")
        ] = PaperSort.MOST_CITED,
    ) -> Connection[Paper]:
        page = window(first, after)
        key = (self.id, sort.name, page.skip, page.limit)
        found = await info.context.data.cited_by.load(key)
        if not covers(found.props, info, connection_props):
            found = (await papers.cited_by_pages(info.context.reader, [key]))[key]
        return connection(found, page, Paper.from_record)

    @strawberry.field(description="Loaded papers this one cites, most cited first.")
    async def references(
        self,
        info: Info,
        first: First = 20,
        after: After = None,
    ) -> Connection[Paper]:
        page = window(first, after)
        key = (self.id, page.skip, page.limit)
        found = await info.context.data.references.load(key)
        if not covers(found.props, info, connection_props):
            found = (await papers.references_pages(info.context.reader, [key]))[key]
        return connection(found, page, Paper.from_record)

    @strawberry.field(
        description="Papers about much the same thing, by the meaning of title and abstract (cosine of sentence "
        "vectors), best first; empty when this paper has no vector (see `vectorModel`)."
    )
    async def similar(
        self, info: Info, first: Annotated[int, strawberry.argument(description="How many, at most 50.")] = 10
    ) -> list[SimilarPaper]:
        check_range("first", first, 0, 50)
        found = await semantic.similar_papers(info.context.reader, self.id, first)
        return [SimilarPaper.from_record(r) for r in found.rows]

    @strawberry.field(
        description="The model that made this paper's sentence vector (for semantic search and `similar`); null "
        "when it has none: a paper with neither title nor abstract gets none, others get one from `weft embed`."
    )
    async def vector_model(self, info: Info) -> str | None:
        return await semantic.vector_model(info.context.reader, self.id)


def fold_paper(sel: Selection) -> PaperParts:
    """The parts of a paper page the selection of `paper(id:)` asks that PAPER_DETAILS reads with it.

    Folded: authors (with the institutions they state and their metrics, when asked, and the properties their
    researchers are asked), the categories (of one scheme when every `categories` field asks the same), and
    the first `citedBy` and `references` pages (the properties their papers are asked).
    """
    authors = sel.first("authors")
    author_sel = authors.selection if authors is not None else Selection()
    cited_by = sel.first("citedBy")
    cited_window = connection_window(cited_by) if cited_by is not None else None
    references = sel.first("references")
    references_window = connection_window(references) if references is not None else None
    metrics, paper_counts = metrics_asked(author_sel.at("researcher"))
    return PaperParts(
        authors=authors is not None,
        affiliations=author_sel.asks("affiliations"),
        author_stats=metrics,
        author_paper_counts=paper_counts,
        categories=sel.asks("categories"),
        category_scheme=_one_scheme(sel.all("categories")),
        researcher_props=node_props(sel.every("authors", "researcher"), RESEARCHER_READS)  # every alias
        if authors is not None
        else None,
        cited_by=CitedByPart(
            enum_name(cited_by.args["sort"]),
            cited_window.skip,
            cited_window.limit,
            paper_props(sel.every("citedBy", "edges", "node")),
        )
        if cited_by is not None and cited_window is not None
        else None,
        references=ReferencesPart(
            references_window.skip, references_window.limit, paper_props(sel.every("references", "edges", "node"))
        )
        if references_window is not None
        else None,
    )


def _author_props(sel: Selection) -> Props:
    """The properties the researchers of an `authors` field (`sel`: what it asks) read."""
    return node_props(sel.every("researcher"), RESEARCHER_READS)


def _one_scheme(asked: list[AskedField]) -> str | None:
    """The scheme every `categories` field asks, if they all ask the same one: the categories folded and primed
    are then those alone, which is all any of those fields shows (else every category is read)."""
    schemes = {f.args["scheme"] for f in asked}
    return schemes.pop() if len(schemes) == 1 else None


def prime_paper(data: Loaders, parts: PaperParts, details: PaperDetails) -> None:
    """Each part `details` read for `parts`, put in the DataLoader its field resolver loads from."""
    pid = details.node["id"]
    if parts.authors:
        rows = details.authorships
        kept = ("paper_id", "researcher", "authorship", "researcher_props")
        prime(data.authorships, pid, [{k: r[k] for k in kept} for r in rows])
        for r in rows:
            if parts.affiliations:
                found = {i["id"]: i for i in r["institutions"] or []}
                for iid in r["authorship"].get("institution_ids") or []:
                    prime(data.institution, iid, found.get(iid))
            if parts.author_stats:
                prime(data.researcher_stats, r["researcher"]["id"], r["metrics"])
    if parts.categories:
        prime(data.categories, pid, details.categories)
    if (c := parts.cited_by) is not None:
        prime(data.cited_by, (pid, c.sort, c.skip, c.limit), details.cited_by)
    if (f := parts.references) is not None:
        prime(data.references, (pid, f.skip, f.limit), details.references)
