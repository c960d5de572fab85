"""Full-text search and autocomplete over the paper, researcher and institution indexes."""

from __future__ import annotations

from weft.graph.errors import InvalidInput
from weft.graph.identity.lookup import escape_lucene, prefix_query
from weft.graph.reads.page import Page, Row
from weft.graph.reads.reader import GraphReader
from weft.queries import read_search as q

MAX_WORDS = 32
MAX_CHARS = 500
INDEX_OF = {"PAPER": "paper_text", "RESEARCHER": "researcher_text", "INSTITUTION": "institution_text"}
KIND_OF = {index: kind for kind, index in INDEX_OF.items()}


def check_text(text: str, argument: str) -> None:
    """InvalidInput naming `argument` when the text is too long to search (before any database work)."""
    if len(text) > MAX_CHARS or len(text.split()) > MAX_WORDS:
        raise InvalidInput(
            f"`{argument}` is too long: at most {MAX_WORDS} words and {MAX_CHARS} characters", argument=argument
        )


async def search_page(reader: GraphReader, text: str, kinds: list[str], skip: int, limit: int) -> Page:
    """Hits `{kind, score, node}` for the words of `text` (Lucene syntax neutralised), best first."""
    check_text(text, "query")
    query = escape_lucene(text)
    if not query:
        raise InvalidInput("`query` must contain at least one word", argument="query")
    params = {"indexes": [INDEX_OF[k] for k in kinds], "query": query, "skip": skip, "end": skip + limit}
    try:
        row = await reader.one(q.SEARCH_PAGE, params, "searching")
    except InvalidInput as exc:
        raise InvalidInput(f"`query` could not be searched: {exc}", argument="query") from exc
    if not row:
        return Page([], 0)
    rows = [{**hit, "kind": KIND_OF[hit["kind"]]} for hit in row["page"]]
    return Page(rows=rows, total=row["total"])


async def autocomplete(reader: GraphReader, prefix: str, kinds: list[str], limit: int) -> list[Row]:
    """Completions `{kind, id, label, score}` for the words typed so far, the last one as a prefix."""
    check_text(prefix, "prefix")
    query = prefix_query(prefix)
    if not query:
        return []
    params = {"indexes": [INDEX_OF[k] for k in kinds], "query": query, "limit": limit}
    try:
        rows = await reader.rows(q.AUTOCOMPLETE, params, "completing")
    except InvalidInput as exc:
        raise InvalidInput(f"`prefix` could not be completed: {exc}", argument="prefix") from exc
    return [{**r, "kind": KIND_OF[r["kind"]]} for r in rows]
