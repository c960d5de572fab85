"""The Paper type: everything a paper page shows, and `PAPER_PAGE`, the parts of it that `paper(id:)` reads
with the paper in one PAPER_DETAILS query (schema/support/parts.py).
"""

from __future__ import annotations

from typing import Annotated, Any

import strawberry

from weft.graph.identity.ids import KEY_PROPERTIES
from weft.graph.identity.lookup import paper_path
from weft.graph.reads import papers, semantic
from weft.graph.reads.page import Props, Row
from weft.graph.reads.papers import CitedByKey, CitedByPart, PaperDetails, PaperParts, ReferencesKey, ReferencesPart
from weft.graph.sources import SOURCE_KEYS
from weft.schema.context import Info
from weft.schema.support.connection import After, Connection, First, connection
from weft.schema.support.dataloaders import Loaders
from weft.schema.support.enums import PaperSort
from weft.schema.support.paging import Window, check_range, window
from weft.schema.support.parts import Part, by_root_id
from weft.schema.support.prefetch import AskedField, NodeReads, Selection, covers, node_props
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
        versions: list[str] = self.props.get("versions") or []
        return [PaperVersion.from_record(v) for v in versions]

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
        key = cited_by_key(self.id, sort.name, page)
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
        key = references_key(self.id, page)
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


def cited_by_key(pid: str, sort: str, page: Window) -> CitedByKey:
    """The `cited_by` DataLoader key of one `citedBy` page."""
    return (pid, sort, page.skip, page.limit)


def references_key(pid: str, page: Window) -> ReferencesKey:
    """The `references` DataLoader key of one `references` page."""
    return (pid, page.skip, page.limit)


def _fold_authors(sel: Selection) -> dict[str, Any] | None:
    """The authors (with the institutions they state and their metrics, when asked, and the properties their
    researchers are asked)."""
    if sel.first("authors") is None:
        return None
    author_sel = sel.at("authors")
    metrics, paper_counts = metrics_asked(author_sel.at("researcher"))
    return {
        "authors": True,
        "affiliations": author_sel.asks("affiliations"),
        "author_stats": metrics,
        "author_paper_counts": paper_counts,
        "researcher_props": node_props(sel.every("authors", "researcher"), RESEARCHER_READS),  # every alias
    }


def _fold_categories(sel: Selection) -> dict[str, Any] | None:
    """The categories (of one scheme when every `categories` field asks the same)."""
    if not sel.asks("categories"):
        return None
    return {"categories": True, "category_scheme": _one_scheme(sel.all("categories"))}


def _fold_cited_by(sel: Selection) -> dict[str, Any] | None:
    """The first `citedBy` page (the properties its papers are asked)."""
    asked = sel.first("citedBy")
    page = connection_window(asked) if asked is not None else None
    if asked is None or page is None:
        return None
    props = paper_props(sel.every("citedBy", "edges", "node"))
    return {"cited_by": CitedByPart(enum_name(asked.args["sort"]), page.skip, page.limit, props)}


def _fold_references(sel: Selection) -> dict[str, Any] | None:
    """The first `references` page (the properties its papers are asked)."""
    asked = sel.first("references")
    page = connection_window(asked) if asked is not None else None
    if page is None:
        return None
    return {"references": ReferencesPart(page.skip, page.limit, paper_props(sel.every("references", "edges", "node")))}


def _author_props(sel: Selection) -> Props:
    """The properties the researchers of an `authors` field (`sel`: what it asks) read."""
    return node_props(sel.every("researcher"), RESEARCHER_READS)


def _one_scheme(asked: list[AskedField]) -> str | None:
    """The scheme every `categories` field asks, if they all ask the same one: the categories folded and primed
    are then those alone, which is all any of those fields shows (else every category is read)."""
    schemes = {f.args["scheme"] for f in asked}
    return schemes.pop() if len(schemes) == 1 else None


def _authorships(details: PaperDetails) -> list[Row]:
    """The folded authorships as the `authorships` DataLoader returns them."""
    kept = ("paper_id", "researcher", "authorship", "researcher_props")
    return [{k: r[k] for k in kept} for r in details.authorships]


def _authors_more(data: Loaders, parts: PaperParts, details: PaperDetails) -> None:
    """The institutions each authorship states and each author's metrics, under their own ids."""
    for r in details.authorships:
        if parts.affiliations:
            stated: list[Row] = r["institutions"] or []
            found = {i["id"]: i for i in stated}
            authorship: Row = r["authorship"]
            iids: list[str] = authorship.get("institution_ids") or []
            for iid in iids:
                data.institution.prime(iid, found.get(iid))
        if parts.author_stats:
            data.researcher_stats.prime(r["researcher"]["id"], r["metrics"])


def _folded_cited_by_key(pid: str, parts: PaperParts) -> CitedByKey:
    c = parts.cited_by
    assert c is not None
    return cited_by_key(pid, c.sort, Window(c.skip, c.limit))


def _folded_references_key(pid: str, parts: PaperParts) -> ReferencesKey:
    f = parts.references
    assert f is not None
    return references_key(pid, Window(f.skip, f.limit))


PAPER_PAGE: tuple[Part[PaperParts, PaperDetails], ...] = (
    Part(
        "authors",
        _fold_authors,
        lambda d: d.authorships,
        by_root_id,
        _authorships,
        "authors { position affiliations { name } researcher { name hIndex } }",
        _authors_more,
    ),
    Part(
        "categories",
        _fold_categories,
        lambda d: d.categories,
        by_root_id,
        lambda p: p.categories,
        'categories(scheme: "field") { primary }',
    ),
    Part(
        "cited_by",
        _fold_cited_by,
        lambda d: d.cited_by,
        _folded_cited_by_key,
        lambda p: p.cited_by,
        "citedBy(first: 3) { totalCount edges { node { title } } }",
    ),
    Part(
        "references",
        _fold_references,
        lambda d: d.references,
        _folded_references_key,
        lambda p: p.references,
        "references(first: 3) { totalCount edges { node { title } } }",
    ),
)
"""The parts of a paper page PAPER_DETAILS reads with the paper (schema/support/parts.py)."""
