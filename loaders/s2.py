"""Semantic Scholar -> rows (pure; see loaders/rows.py for the row contract).

Graph API JSON (camelCase): a paper with nested `authors`, `citations` and `references`, and an
author with `papers` (`paper_rows`, `author_rows`). Dataset JSON Lines (lowercase, one record a
line; `dataset_rows(kind, row)`): `papers`, `authors`, `citations`, `paper-ids`, `abstracts`,
`tldrs`, `publication-venues`.

* Paper keys come from `paperId` (also read from a dataset `url`), `corpusId`/`corpusid` and
  `externalIds` DOI, ArXiv, MAG, PubMed, CorpusId, so S2 papers merge with OpenAlex and arXiv ones;
  integer and string corpus ids give the same key. DBLP is not a hard key: kept as `dblp_id`.
* Authors: `authorId` -> `s2_id` (an ORCID in `externalIds` also becomes a key); an author with
  no id is paper-scoped (`s2:<paperId>#<rank>`). Counts are S2's own: `works_count_s2`,
  `cited_by_count_s2`, `h_index_s2`; papers: `cited_by_count_s2`, `reference_count_s2`, ...
* Fields of study become Category rows `s2field:<slug>` (scheme `s2field`).
* Dataset rows that only add to a paper (citations, abstracts, tldrs) are ATTACH rows: the writer
  finds the paper by corpus id and never creates it, so the independent samples add no stubs. One
  run loads such files after the others (`loaders.detect.load_order`); across separate runs, load
  `papers` first: an attachment whose paper is not there yet is dropped, not kept for later.
  `paper-ids` and `publication-venues` rows are read, checked and counted but write nothing (see
  `dataset_rows`). None values are left out of every row.
* `build_rows(record)` picks the kind per record, so one file may mix Graph API papers and authors.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from weft.graph.identity.ids import (
    category_key,
    normalize_arxiv,
    normalize_orcid,
    paper_keys,
    scoped_researcher_key,
)
from weft.graph.identity.names import clean_name, clean_whitespace, is_person_name, name_key
from weft.loaders.reader import JSON, JSONObject, is_array, is_object
from weft.loaders.rows import ATTACH, FULL_RECORD, MENTION, NodeRow, RecordRows, RejectedRecord, RelRow

SOURCE = "s2"
DATASET_KINDS = ("papers", "authors", "citations", "paper-ids", "abstracts", "tldrs", "publication-venues")
_S2_URL = re.compile(r"semanticscholar\.org/paper/(?:[^/]+/)?([0-9a-f]{40})", re.IGNORECASE)


def _compact(props: dict[str, Any]) -> dict[str, Any]:
    """Drop unstated values so a partial record never erases what another record said."""
    return {k: v for k, v in props.items() if v is not None and v != "" and v != []}


def _get(record: JSONObject, *names: str) -> JSON:
    """The first present value among camelCase / lowercase spellings of a field."""
    for name in names:
        if record.get(name) is not None:
            return record[name]
    return None


def _int(value: JSON) -> int | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    text = str(value).strip()
    return int(text) if text.isascii() and text.isdigit() else None


def _dict(value: JSON) -> JSONObject:
    """An object field that may be null, absent or of a wrong type."""
    return value if is_object(value) else {}


def _need_object(record: JSON) -> JSONObject:
    if not is_object(record):
        raise RejectedRecord(f"expected a JSON object, got {type(record).__name__}")
    return record


def s2_paper_keys(record: JSONObject) -> dict[str, str]:
    """Paper key properties of an S2 paper (Graph API or dataset spelling)."""
    ext = _dict(_get(record, "externalIds", "externalids"))
    sha = _get(record, "paperId")
    if not sha and isinstance(record.get("url"), str) and (m := _S2_URL.search(record["url"])):
        sha = m.group(1)
    return paper_keys(
        doi=ext.get("DOI"),
        arxiv=normalize_arxiv(ext.get("ArXiv")) if isinstance(ext.get("ArXiv"), str) else None,
        s2=str(sha).lower() if sha else None,
        corpus=corpus_id(_get(record, "corpusId", "corpusid")) or corpus_id(ext.get("CorpusId")),
        mag=ext.get("MAG"),
        pmid=ext.get("PubMed"),
    )


def field_categories(record: JSONObject) -> list[NodeRow]:
    """S2 fields of study as Category rows `s2field:<slug>` (linked not primary, no score), deduplicated."""
    names: list[str] = []
    for entry in _get(record, "s2FieldsOfStudy", "s2fieldsofstudy") or ():
        if is_object(entry) and isinstance(entry.get("category"), str):
            names.append(entry["category"])
    for name in _get(record, "fieldsOfStudy", "fieldsofstudy") or ():
        if isinstance(name, str):
            names.append(name)
    out: list[NodeRow] = []
    for name in dict.fromkeys(clean_whitespace(n) for n in names if clean_whitespace(n)):
        slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
        out.append(
            NodeRow(
                "Category",
                {"key": category_key("s2field", slug)},
                SOURCE,
                props={"name": name, "scheme": "s2field"},
                level=MENTION,
            )
        )
    return out


def researcher_props(author: JSONObject) -> dict[str, Any]:
    """Properties of an S2 author object (nested `{authorId, name}` or full, either spelling)."""
    name = clean_name(_str(author.get("name"))) or None
    aliases = [clean_whitespace(a) for a in author.get("aliases") or () if isinstance(a, str) and clean_whitespace(a)]
    return _compact(
        {
            "name": name,
            "name_key": name_key(name) if name else None,
            "is_person": is_person_name(name) if name else None,
            "alt_names": sorted(set(aliases) - {name}) or None,
            "works_count_s2": _int(_get(author, "paperCount", "papercount")),
            "cited_by_count_s2": _int(_get(author, "citationCount", "citationcount")),
            "h_index_s2": _int(_get(author, "hIndex", "hindex")),
            "homepage": author.get("homepage") if isinstance(author.get("homepage"), str) else None,
            "updated_date": author.get("updated") if isinstance(author.get("updated"), str) else None,
        }
    )


def researcher_keys(author: JSONObject) -> dict[str, str]:
    """Researcher key properties: `s2_id` (string of digits) and an ORCID when S2 states one."""
    keys: dict[str, str] = {}
    author_id = _get(author, "authorId", "authorid")
    if author_id is not None and str(author_id).strip():
        keys["s2_id"] = str(author_id).strip()
    ext = _get(author, "externalIds", "externalids")
    if is_object(ext):
        orcid = ext.get("ORCID")
        orcid = orcid[0] if is_array(orcid) and orcid else orcid
        if isinstance(orcid, str) and (norm := normalize_orcid(orcid)):
            keys["orcid"] = norm
    return keys


def _paper_node(record: JSONObject, level: int) -> NodeRow:
    """The Paper row of an S2 paper (Graph API or `papers` dataset spelling)."""
    keys = s2_paper_keys(record)
    if not keys:
        raise RejectedRecord("S2 paper without a paperId, corpus id or external id")
    ext = _dict(_get(record, "externalIds", "externalids"))
    venue_obj = _dict(record.get("publicationVenue"))
    journal = _dict(record.get("journal"))
    venue = (
        clean_whitespace(_str(_get(record, "venue")))
        or clean_whitespace(_str(venue_obj.get("name")))
        or clean_whitespace(_str(journal.get("name")))
    )
    pdf = _dict(record.get("openAccessPdf"))
    tldr = _dict(record.get("tldr"))
    date = _get(record, "publicationDate", "publicationdate")
    updated = _str(record.get("updated"))
    types = _get(record, "publicationTypes", "publicationtypes")
    return NodeRow(
        "Paper",
        keys,
        SOURCE,
        props=_compact(
            {
                "title": clean_whitespace(_str(_get(record, "title"))) or None,
                "abstract": clean_whitespace(_str(_get(record, "abstract"))) or None,
                "year": _int(_get(record, "year")),
                "publication_date": date if isinstance(date, str) else None,
                "venue": venue or None,
                "pdf_url": _str(pdf.get("url")) or None,
                "dblp_id": _str(ext.get("DBLP")) or None,
                "tldr": clean_whitespace(_str(tldr.get("text"))) or None,
                "updated_date": updated or None,
            }
        ),
        source_props=_compact(
            {
                "cited_by_count_s2": _int(_get(record, "citationCount", "citationcount")),
                "influential_citation_count_s2": _int(
                    _get(record, "influentialCitationCount", "influentialcitationcount")
                ),
                "reference_count_s2": _int(_get(record, "referenceCount", "referencecount")),
                "publication_types_s2": [t for t in types if isinstance(t, str)] if is_array(types) else None,
                "publication_venue_id_s2": _str(venue_obj.get("id"))
                or _str(_get(record, "publicationvenueid"))
                or None,
            }
        ),
        level=level,
        updated=updated,
    )


def _str(value: JSON) -> str:
    return value if isinstance(value, str) else ""


class _Builder:
    """Collects the rows of one raw record, one node row per key (the first, fullest, wins)."""

    def __init__(self) -> None:
        self.rows = RecordRows()
        self.index: dict[tuple[str, str], int] = {}
        self.authored: set[tuple[str, str]] = set()

    def node(self, row: NodeRow) -> tuple[int, bool]:
        """(index of the row with this key, whether it is new)."""
        found = self.index.get((row.label, row.key))
        if found is not None:
            return found, False
        self.rows.nodes.append(row)
        self.index[(row.label, row.key)] = len(self.rows.nodes) - 1
        return len(self.rows.nodes) - 1, True

    def paper(self, record: JSONObject, level: int, owns: tuple[str, ...]) -> NodeRow | None:
        """A paper with its authors and fields of study; None when it was already in this record."""
        paper = _paper_node(record, level)
        paper.owns = owns
        at, new = self.node(paper)
        if not new:
            return None
        people = [a for a in record.get("authors") or () if is_object(a)]
        # Id-less authors are scoped by the S2 paperId when there is one: a DOI added later cannot re-key them.
        scope = f"s2:{paper.keys['s2_id']}" if "s2_id" in paper.keys else paper.key
        for rank, author in enumerate(people):
            row = researcher_row(author, MENTION, scope=scope, rank=rank, updated=paper.updated)
            self.node(row)
            if (row.key, paper.key) in self.authored:
                continue  # one author listed twice on a paper: keep the first slot
            self.authored.add((row.key, paper.key))
            self.rows.rels.append(
                RelRow(
                    "AUTHORED",
                    row.key,
                    paper.key,
                    _compact(
                        {
                            "position": "first" if rank == 0 else "last" if rank == len(people) - 1 else "middle",
                            "rank": rank,
                            "raw_name": clean_whitespace(_str(author.get("name"))) or None,
                        }
                    ),
                    owner=at,
                )
            )
        for category in field_categories(record):
            self.node(category)
            self.rows.rels.append(
                RelRow("IN_CATEGORY", paper.key, category.key, {"primary": False, "score": None}, owner=at)
            )
        return paper


def researcher_row(
    author: JSONObject, level: int, *, scope: str | None = None, rank: int = 0, updated: str = ""
) -> NodeRow:
    """The Researcher row of an S2 author; id-less ones become paper-scoped (`<scope>#<rank>`)."""
    keys = researcher_keys(author)
    props = researcher_props(author)
    if "s2_id" not in keys:
        if scope is None:
            raise RejectedRecord("S2 author without an authorId")
        keys = {"scoped_key": scoped_researcher_key(scope, rank)}
        props["paper_scoped"] = True
    source_props = {k: props.pop(k) for k in ("works_count_s2", "cited_by_count_s2", "h_index_s2") if k in props}
    own_updated = props.get("updated_date")
    return NodeRow(
        "Researcher", keys, SOURCE, props=props, source_props=source_props, level=level, updated=own_updated or updated
    )


def paper_rows(record: JSON) -> RecordRows:
    """A Graph API paper (with nested `citations`/`references`) or a `papers` dataset row.

    nodes[0] is the paper (FULL_RECORD, owns AUTHORED, IN_CATEGORY and, when it lists them,
    REFERENCES); nested papers are MENTION rows owning their AUTHORED/IN_CATEGORY. A reference
    gives the main paper `REFERENCES` its key; a citation gives the citing paper `REFERENCES` the
    main paper's key (owner None: seen from the cited side, only ever added). Nested papers with
    no id at all (6 references of Turing 1950 in the shared data) cannot be nodes and are skipped.
    """
    record = _need_object(record)
    builder = _Builder()
    has_refs = isinstance(record.get("references"), list)
    owns = ("AUTHORED", "IN_CATEGORY", "REFERENCES") if has_refs else ("AUTHORED", "IN_CATEGORY")
    main = _paper_node(record, FULL_RECORD)
    builder.paper(record, FULL_RECORD, owns)
    for entry in record.get("references") or ():
        entry = _unwrap(entry, "citedPaper")
        if not is_object(entry) or not s2_paper_keys(entry):
            continue
        cited = builder.paper(entry, MENTION, ("AUTHORED", "IN_CATEGORY"))
        key = cited.key if cited else _paper_node(entry, MENTION).key
        builder.rows.rels.append(RelRow("REFERENCES", main.key, key, owner=0))
    for entry in record.get("citations") or ():
        entry = _unwrap(entry, "citingPaper")
        if not is_object(entry) or not s2_paper_keys(entry):
            continue
        citing = builder.paper(entry, MENTION, ("AUTHORED", "IN_CATEGORY"))
        key = citing.key if citing else _paper_node(entry, MENTION).key
        builder.rows.rels.append(RelRow("REFERENCES", key, main.key, owner=None))
    return builder.rows


def _unwrap(entry: JSON, field: str) -> JSON:
    """A nested paper, also in the `/citations` and `/references` endpoint shape `{citingPaper: {...}}`."""
    if is_object(entry) and is_object(entry.get(field)) and "paperId" not in entry:
        return entry[field]
    return entry


def page_rows(record: JSON) -> RecordRows | None:
    """A Graph API result page as one record: each entry's rows (`paper_rows` / `author_rows`;
    `{citingPaper}`/`{citedPaper}` entries as papers, their link needs the cited id the page lacks).

    Entries without any id are skipped, like id-less nested papers; None for a page with none left.
    """
    out = RecordRows()
    for entry in _page_entries(_need_object(record)) or ():
        entry = _unwrap(_unwrap(entry, "citingPaper"), "citedPaper")
        try:
            part = paper_rows(entry) if "paperId" in entry else author_rows(entry) if "authorId" in entry else None
        except RejectedRecord:
            continue
        if part is None:
            continue
        base = len(out.nodes)
        out.nodes.extend(part.nodes)
        out.rels.extend(
            RelRow(r.type, r.start, r.end, r.props, None if r.owner is None else r.owner + base) for r in part.rels
        )
    return out if out.nodes else None


def author_rows(record: JSON) -> RecordRows:
    """A Graph API author (with `papers`) or an `authors` dataset row: the researcher first, then
    each listed paper as a MENTION row with its authors."""
    record = _need_object(record)
    builder = _Builder()
    builder.node(researcher_row(record, FULL_RECORD))
    for entry in record.get("papers") or ():
        if is_object(entry) and s2_paper_keys(entry):
            builder.paper(entry, MENTION, ("AUTHORED", "IN_CATEGORY"))
    return builder.rows


def dataset_kind(record: JSON) -> str | None:
    """The S2AG dataset a lowercase-field row comes from (`papers`, `citations`, ...), or None."""
    if not is_object(record):
        return None
    fields = record.keys()
    if "citingcorpusid" in fields:
        return "citations"
    if "corpusid" in fields:
        if "sha" in fields:
            return "paper-ids"
        if "openaccessinfo" in fields or ("abstract" in fields and "title" not in fields):
            return "abstracts"
        if "model" in fields and "text" in fields:
            return "tldrs"
        if "title" in fields:
            return "papers"
    if "authorid" in fields and "name" in fields:
        return "authors"
    if {"id", "name"} <= fields and fields & {"issn", "alternate_names", "alternate_issns"}:
        return "publication-venues"
    return None


_PAGE_FIELDS = frozenset({"total", "offset", "next", "token"})


def _page_entries(record: JSONObject) -> list[JSONObject] | None:
    """The entries of a Graph API result page (`/paper/search`, `/paper/search/bulk`,
    `/author/search`, `/author/{id}/papers`: `{total|offset|next|token, data: [...]}`), else None."""
    data = record.get("data")
    if not is_array(data) or not record.keys() & _PAGE_FIELDS or record.keys() & {"paperId", "authorId"}:
        return None
    entries = [e for e in data if is_object(e)]
    if entries and not any(
        k in _unwrap(_unwrap(e, "citingPaper"), "citedPaper") for e in entries[:5] for k in ("paperId", "authorId")
    ):
        return None
    return entries


def kind(record: JSON) -> str | None:
    """`paper` / `author` / `page` (Graph API) or `dataset:<name>` for an S2 record; None otherwise."""
    if not is_object(record):
        return None
    if "paperId" in record:
        return "paper"
    if "authorId" in record:
        return "author"
    if _page_entries(record) is not None:
        return "page"
    dataset = dataset_kind(record)
    return f"dataset:{dataset}" if dataset else None


def accepts(record: JSON) -> bool:
    """Whether `record` looks like a Semantic Scholar record (Graph API or dataset row)."""
    return kind(record) is not None


def build_rows(record: JSON) -> RecordRows | None:
    """The rows of any S2 record, by its kind (see `paper_rows`, `author_rows`, `dataset_rows`).

    None for a record that is read and counted but writes nothing (`paper-ids`, venues, a
    citation to no paper). RejectedRecord for a record of no S2 kind.
    """
    which = kind(record)
    if which == "paper":
        return paper_rows(record)
    if which == "author":
        return author_rows(record)
    if which == "page":
        return page_rows(record)
    if which is None:
        raise RejectedRecord("not a Semantic Scholar paper, author or dataset row")
    return dataset_rows(which.removeprefix("dataset:"), record)


def corpus_id(value: JSON) -> str | None:
    """A corpus id as the key property holds it (`"14636783"`), from an int or a string of digits."""
    number = _int(value)
    return str(number) if number is not None else None


def corpus_key(value: JSON) -> str | None:
    """`corpus:<n>` from an integer or string corpus id; None when absent or not a number."""
    number = corpus_id(value)
    return f"corpus:{number}" if number is not None else None


def _corpus_keys(row: JSONObject, field: str = "corpusid") -> dict[str, str]:
    keys = paper_keys(corpus=corpus_id(row.get(field)))
    if "corpus_id" not in keys:
        raise RejectedRecord(f"S2 {field} missing or not a number: {row.get(field)!r}")
    return keys


def _attach(
    keys: dict[str, str], props: dict[str, Any] | None = None, source_props: dict[str, Any] | None = None
) -> NodeRow:
    """A row that only adds to a paper already loaded (ATTACH level: never creates the paper)."""
    return NodeRow(
        "Paper", keys, SOURCE, props=_compact(props or {}), source_props=_compact(source_props or {}), level=ATTACH
    )


def dataset_rows(kind: str, row: JSON) -> RecordRows | None:
    """One S2AG dataset row; None for rows that write nothing (`paper-ids`, citations to nothing).

    papers/authors: as the Graph API. citations: the citing paper (found by corpus id, ATTACH)
    `REFERENCES` `corpus:<cited>`, so CITES appears once the cited paper is loaded; a null cited id
    writes nothing. abstracts: `abstract` (fills a missing one); tldrs: `tldr`; on the paper with that corpus id.
    publication-venues: checked and counted, nothing written: papers name their venue by
    `publicationvenueid`, not a key the writer matches on (and null in every sample paper), and the
    `papers` rows already carry the venue name. paper-ids: checked and counted, nothing written: the
    primary sha is the S2 paperId, which the Graph API and `papers` rows already carry with the
    corpus id; adding it to a paper known only by corpus id here would re-key that paper.
    """
    row = _need_object(row)
    build = _DATASET_ROWS.get(kind)
    if build is None:
        raise ValueError(f"unknown S2 dataset kind {kind!r}")
    return build(row)


def _citation_rows(row: JSONObject) -> RecordRows | None:
    """The citing paper (ATTACH) `REFERENCES` `corpus:<cited>`; None when the cited id is null."""
    keys = _corpus_keys(row, "citingcorpusid")
    cited = corpus_key(row.get("citedcorpusid"))
    if cited is None:
        return None
    citing = _attach(keys)
    return RecordRows([citing], [RelRow("REFERENCES", citing.key, cited, owner=None)])


def _abstract_rows(row: JSONObject) -> RecordRows | None:
    """`abstract` attached to the paper with the row's corpus id; None for an empty one."""
    text = clean_whitespace(_str(row.get("abstract")))
    return RecordRows([_attach(_corpus_keys(row), props={"abstract": text})]) if text else None


def _tldr_rows(row: JSONObject) -> RecordRows | None:
    """`tldr` attached to the paper with the row's corpus id; None for an empty one."""
    text = clean_whitespace(_str(row.get("text")))
    return RecordRows([_attach(_corpus_keys(row), props={"tldr": text})]) if text else None


def _check_venue(row: JSONObject) -> None:
    """A `publication-venues` row needs an id and a name; it writes nothing."""
    if not _str(row.get("id")) or not clean_whitespace(_str(row.get("name"))):
        raise RejectedRecord("S2 venue without an id or name")


def _check_paper_ids(row: JSONObject) -> None:
    """A `paper-ids` row needs a corpus id and a sha; it writes nothing."""
    _corpus_keys(row)
    if not _str(row.get("sha")):
        raise RejectedRecord("S2 paper-ids row without a sha")


# The rows of each S2AG dataset (see `dataset_rows`).
_DATASET_ROWS: dict[str, Callable[[JSONObject], RecordRows | None]] = {
    "papers": paper_rows,
    "authors": author_rows,
    "citations": _citation_rows,
    "abstracts": _abstract_rows,
    "tldrs": _tldr_rows,
    "publication-venues": _check_venue,
    "paper-ids": _check_paper_ids,
}
