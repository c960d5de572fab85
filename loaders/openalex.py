"""OpenAlex works, authors and institutions -> rows (pure; see loaders/rows.py for the row contract).

The entity kind comes from the id prefix (`W…`, `A…`, `I…`), falling back to telling fields
(`authorships`, `works_count` + `orcid`/`last_known_institutions`, `ror` + `lineage`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from weft.graph.identity.ids import (
    category_key,
    normalize_openalex,
    normalize_orcid,
    normalize_ror,
    paper_keys,
    scoped_researcher_key,
)
from weft.graph.identity.names import clean_whitespace, fold, is_person_name, name_key
from weft.loaders.reader import JSON, JSONObject, is_array, is_object
from weft.loaders.rows import MENTION, NodeRow, RecordRows, RejectedRecord, RelRow

SOURCE = "openalex"


def kind(record: JSON) -> str | None:
    """`work`, `author` or `institution` for an OpenAlex entity; None for anything else."""
    if not is_object(record):
        return None
    oid = normalize_openalex(record.get("id")) if isinstance(record.get("id"), str) else None
    prefix = {"W": "work", "A": "author", "I": "institution"}
    if oid and oid[0] in prefix:
        return prefix[oid[0]]
    if "authorships" in record and "referenced_works" in record:
        return "work"
    if "works_count" in record and ("last_known_institutions" in record or "orcid" in record):
        return "author"
    if "ror" in record and "lineage" in record:
        return "institution"
    return None


def accepts(record: JSON) -> bool:
    """Whether `record` looks like an OpenAlex entity (used to refuse unknown files up front)."""
    return kind(record) is not None


def build_rows(record: JSON) -> RecordRows:
    """The rows one OpenAlex entity states; RejectedRecord when it has no usable id or wrong type."""
    which = _checked_kind(record)
    return {"work": work_rows, "author": author_rows, "institution": institution_rows}[which](record)


def build_rows_without_links(record: JSON) -> RecordRows:
    """A work's Paper row alone (the bulk path stages the rest in SQL: loaders/bulk/links.py); the same
    checks and rejects as build_rows for everything the Paper row comes from."""
    if _checked_kind(record) != "work":
        raise RejectedRecord("not an OpenAlex work")
    return work_rows(record, links=False)


def _checked_kind(record: JSON) -> str:
    """The record's kind, once its id and list fields are usable; RejectedRecord otherwise."""
    which = kind(record)
    if which is None:
        raise RejectedRecord(f"not an OpenAlex work, author or institution ({_shape(record)})")
    if not isinstance(record.get("id"), str) or normalize_openalex(record["id"]) is None:
        raise RejectedRecord(f"OpenAlex {which} without a valid id ({record.get('id')!r})")
    for name in _LIST_FIELDS[which]:
        if record.get(name) is not None and not isinstance(record[name], list):
            raise RejectedRecord(f"OpenAlex {which} field {name!r} is {type(record[name]).__name__}, expected a list")
    return which


# Fields whose wrong type makes a record unusable (they carry its relationships).
_LIST_FIELDS = {
    "work": ("authorships", "referenced_works", "topics", "concepts"),
    "author": ("affiliations", "display_name_alternatives"),
    "institution": ("associated_institutions", "display_name_alternatives"),
}


def _shape(record: JSON) -> str:
    if is_object(record):
        return "object with keys " + ", ".join(sorted(record)[:6])
    return type(record).__name__


def _list(value: JSON) -> list[JSON]:
    """A list field that may be null or absent."""
    return value if is_array(value) else []


def _dict(value: JSON) -> JSONObject:
    """An object field that may be null or absent."""
    return value if is_object(value) else {}


def _int(value: JSON) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def citations_by_year(record: JSONObject) -> dict[str, list[int] | None]:
    """A record's `counts_by_year` citations as two parallel lists, years ascending (none when it states none):
    what `countsByYear` shows for a researcher or institution (graph/reads/facets.py)."""
    stated: dict[int, int] = {}
    for entry in map(_dict, _list(record.get("counts_by_year"))):
        year, cited = _int(entry.get("year")), _int(entry.get("cited_by_count"))
        if year is not None and cited is not None:
            stated[year] = cited
    years = sorted(stated)
    return {
        "citation_years_openalex": years or None,
        "citations_by_year_openalex": [stated[y] for y in years] or None,
    }


def institution_name_key(name: str | None) -> str:
    """Case-, accent- and spacing-insensitive form of an institution name (exact-name lookup)."""
    return clean_whitespace(fold(name or ""))


def abstract_text(inverted: JSON) -> str | None:
    """The abstract from OpenAlex's `abstract_inverted_index` ({word: [positions]}); None if absent."""
    if not is_object(inverted) or not inverted:
        return None
    slots: dict[int, str] = {}
    for word, positions in inverted.items():
        for pos in _list(positions):
            if isinstance(pos, int):
                slots[pos] = word
    return " ".join(slots[i] for i in sorted(slots)) or None


# --- institutions ---------------------------------------------------------------------------


def _institution_keys(inst: JSONObject) -> dict[str, str]:
    keys: dict[str, str] = {}
    if ror := normalize_ror(inst.get("ror") if isinstance(inst.get("ror"), str) else None):
        keys["ror"] = ror
    if (oid := normalize_openalex(inst.get("id") if isinstance(inst.get("id"), str) else None)) and oid[0] == "I":
        keys["openalex_id"] = oid
    return keys


def institution_mention(inst: JSONObject, updated: str) -> NodeRow | None:
    """An institution as a work's authorship or an author's affiliation names it (or None if id-less)."""
    keys = _institution_keys(inst)
    if not keys:
        return None
    name = inst.get("display_name")
    return NodeRow(
        "Institution",
        keys,
        SOURCE,
        props={
            "name": name,
            "name_key": institution_name_key(name) or None,
            "country": inst.get("country_code"),
            "type": inst.get("type"),
        },
        level=MENTION,
        updated=updated,
    )


def institution_rows(record: JSONObject) -> RecordRows:
    """An Institution entity: the node, its alternative names, and PART_OF its parents."""
    updated = str(record.get("updated_date") or "")
    keys = _institution_keys(record)
    name = record.get("display_name")
    alt = [n for n in _list(record.get("display_name_alternatives")) if isinstance(n, str)]
    acronyms = [n for n in _list(record.get("display_name_acronyms")) if isinstance(n, str)]
    node = NodeRow(
        "Institution",
        keys,
        SOURCE,
        props={
            "name": name,
            "name_key": institution_name_key(name) or None,
            "alt_names": sorted({*alt, *acronyms}),
            "acronyms": acronyms,
            "country": record.get("country_code"),
            "type": record.get("type"),
            "city": _dict(record.get("geo")).get("city"),
            "updated_date": updated or None,
        },
        source_props={
            "works_count_openalex": _int(record.get("works_count")),
            "cited_by_count_openalex": _int(record.get("cited_by_count")),
            **citations_by_year(record),
        },
        updated=updated,
        owns=("INSTITUTION_PART_OF",),
    )
    rows = RecordRows([node])
    for assoc in _list(record.get("associated_institutions")):
        if not is_object(assoc) or assoc.get("relationship") != "parent":
            continue
        parent = institution_mention(assoc, updated)
        if parent is not None:
            rows.nodes.append(parent)
            rows.rels.append(RelRow("INSTITUTION_PART_OF", node.key, parent.key))
    return rows


# --- authors --------------------------------------------------------------------------------


def _researcher_keys(author: JSONObject) -> dict[str, str]:
    keys: dict[str, str] = {}
    if (oid := normalize_openalex(author.get("id") if isinstance(author.get("id"), str) else None)) and oid[0] == "A":
        keys["openalex_id"] = oid
    if orcid := normalize_orcid(author.get("orcid") if isinstance(author.get("orcid"), str) else None):
        keys["orcid"] = orcid
    return keys


def _person_props(name: JSON) -> dict[str, Any]:
    """A researcher row's name, name_key and is_person (a new dict: callers spread it)."""
    text, key, person = person_facts(name) if isinstance(name, str) else (None, None, is_person_name(None))
    return {"name": text, "name_key": key, "is_person": person}


@lru_cache(maxsize=1 << 18)
def person_facts(name: str) -> tuple[str, str | None, bool]:
    """(cleaned name, name key, is a person) of a name, parsed once per process for the names that recur
    on many works (6% of a bulk build's staging before). A bulk staging worker meets ~55,000 names per
    50,000 works, many again in its later files: 2^18 entries (~100 MB when full) keep them (a third fewer parses
    at 1M than 2^16)."""
    text = clean_whitespace(name)
    return text, name_key(text) or None, is_person_name(text)


def author_rows(record: JSONObject) -> RecordRows:
    """An Author entity: the researcher with its summary stats and LISTED_AFFILIATION {years}."""
    updated = str(record.get("updated_date") or "")
    stats = _dict(record.get("summary_stats"))
    alt = [clean_whitespace(n) for n in _list(record.get("display_name_alternatives")) if isinstance(n, str)]
    node = NodeRow(
        "Researcher",
        _researcher_keys(record),
        SOURCE,
        props={
            **_person_props(record.get("display_name")),
            "alt_names": sorted(set(alt)),
            "updated_date": updated or None,
        },
        source_props={
            "works_count_openalex": _int(record.get("works_count")),
            "cited_by_count_openalex": _int(record.get("cited_by_count")),
            "h_index_openalex": _int(stats.get("h_index")),
            "i10_index_openalex": _int(stats.get("i10_index")),
            **citations_by_year(record),
        },
        updated=updated,
        owns=("LISTED_AFFILIATION",),
    )
    rows = RecordRows([node])
    seen: set[str] = set()
    for aff in _list(record.get("affiliations")):
        inst = institution_mention(_dict(_dict(aff).get("institution")), updated)
        if inst is None or inst.key in seen:
            continue
        seen.add(inst.key)
        years = sorted({y for y in _list(aff.get("years")) if isinstance(y, int)})
        rows.nodes.append(inst)
        rows.rels.append(RelRow("LISTED_AFFILIATION", node.key, inst.key, {"years": years}))
    return rows


# --- works ----------------------------------------------------------------------------------


def _work_keys(record: JSONObject) -> dict[str, str]:
    ids = _dict(record.get("ids"))
    return paper_keys(
        doi=record.get("doi") or ids.get("doi"),
        openalex=record.get("id"),
        mag=ids.get("mag"),
        pmid=ids.get("pmid"),
    )


def _location_source(record: JSONObject) -> JSONObject:
    return _dict(_dict(record.get("primary_location")).get("source"))


def work_rows(record: JSONObject, *, links: bool = True) -> RecordRows:
    """A Work entity: the paper and (with `links`) its authors and their institutions, its categories and
    its references."""
    updated = str(record.get("updated_date") or "")
    keys = _work_keys(record)
    title = record.get("display_name") or record.get("title")
    primary = _dict(record.get("primary_location"))
    best_oa = _dict(record.get("best_oa_location"))
    authorships = [a for a in _list(record.get("authorships")) if is_object(a)]
    paper = NodeRow(
        "Paper",
        keys,
        SOURCE,
        props={
            "title": clean_whitespace(title) if isinstance(title, str) else None,
            "year": _int(record.get("publication_year")),
            "publication_date": record.get("publication_date"),
            "type": record.get("type"),
            "language": record.get("language"),
            "abstract": abstract_text(record.get("abstract_inverted_index")),
            "license": primary.get("license") or best_oa.get("license"),
            "pdf_url": best_oa.get("pdf_url") or primary.get("pdf_url"),
            "venue": _location_source(record).get("display_name"),
            "referenced_works_count": _int(record.get("referenced_works_count")),
            "is_authors_truncated": bool(record.get("is_authors_truncated")) or None,
            "updated_date": updated or None,
        },
        source_props={"cited_by_count_openalex": _int(record.get("cited_by_count"))},
        updated=updated,
        owns=("AUTHORED", "IN_CATEGORY", "REFERENCES"),
    )
    rows = RecordRows([paper])
    if not links:
        return rows
    _authorship_rows(rows, paper, authorships, updated)
    _category_rows(rows, paper, record, updated)
    refs = sorted(
        {
            oid
            for w in _list(record.get("referenced_works"))
            if isinstance(w, str) and (oid := normalize_openalex(w)) and oid[0] == "W"
        }
    )
    paper_key = paper.key
    rows.rels.extend(RelRow("REFERENCES", paper_key, f"openalex:{oid}") for oid in refs)
    return rows


def _authorship_rows(rows: RecordRows, paper: NodeRow, authorships: list[JSONObject], updated: str) -> None:
    """One AUTHORED per author; an author listed twice keeps the first slot and every institution."""
    institutions: dict[str, NodeRow] = {}
    authored: dict[str, RelRow] = {}
    paper_key = paper.key  # each `.key` ranks the row's keys again: worked out once per row here
    for rank, authorship in enumerate(authorships):
        author = _dict(authorship.get("author"))
        keys = _researcher_keys(author) or {"scoped_key": scoped_researcher_key(paper_key, rank)}
        raw_name = authorship.get("raw_author_name") or author.get("display_name")
        researcher = NodeRow(
            "Researcher",
            keys,
            SOURCE,
            props={
                **_person_props(author.get("display_name") or raw_name),
                "paper_scoped": True if "scoped_key" in keys else None,
            },
            level=MENTION,
            updated=updated,
        )
        researcher_key = researcher.key
        rel = authored.get(researcher_key)
        if rel is None:
            rows.nodes.append(researcher)
            rel = authored[researcher_key] = RelRow(
                "AUTHORED",
                researcher_key,
                paper_key,
                {
                    "position": authorship.get("author_position"),
                    "rank": rank,
                    "raw_name": clean_whitespace(raw_name) if isinstance(raw_name, str) else None,
                    "is_corresponding": bool(authorship.get("is_corresponding")),
                    "institution_keys": [],
                },
            )
            rows.rels.append(rel)
        for inst in _list(authorship.get("institutions")):
            row = institution_mention(_dict(inst), updated)
            if row is None:
                continue
            institution_key = row.key
            institutions.setdefault(institution_key, row)
            if institution_key not in rel.props["institution_keys"]:
                rel.props["institution_keys"].append(institution_key)
    rows.nodes.extend(institutions.values())


class _Categories:
    """The Category rows and IN_CATEGORY links of one work: one row per key, one link per key that is
    primary when any mention of it is, with the highest score stated."""

    def __init__(self, updated: str) -> None:
        self.updated = updated
        self.rows: dict[str, NodeRow] = {}
        self.links: dict[str, dict[str, Any]] = {}

    def category(self, key: str, name: JSON, scheme: str, level: int | None) -> str:
        """The key of a Category row, added the first time the key is seen."""
        if key not in self.rows:
            self.rows[key] = NodeRow(
                "Category",
                {"key": key},
                SOURCE,
                props={"name": name, "scheme": scheme, "level": level},
                level=MENTION,
                updated=self.updated,
            )
        return key

    def link(self, key: str, primary: bool, score: JSON) -> None:
        """Link the work to a category (again): primary if any link is, the highest score."""
        score = float(score) if isinstance(score, (int, float)) else None
        old = self.links.get(key)
        if old is None:
            self.links[key] = {"primary": primary, "score": score}
        else:
            old["primary"] = old["primary"] or primary
            if score is not None and (old["score"] is None or score > old["score"]):
                old["score"] = score

    def topic_chain(self, tid: str, topic: JSONObject) -> list[str]:
        """A topic and the subfield, field and domain above it, as category keys (narrowest first)."""
        chain = [self.category(category_key("topic", tid), topic.get("display_name"), "topic", 3)]
        for scheme, level in (("subfield", 2), ("field", 1), ("domain", 0)):
            part = _dict(topic.get(scheme))
            code = str(part.get("id") or "").rstrip("/").rsplit("/", 1)[-1]
            if code:
                chain.append(self.category(category_key(scheme, code), part.get("display_name"), scheme, level))
        return chain


def _category_rows(rows: RecordRows, paper: NodeRow, record: JSONObject, updated: str) -> None:
    """Topics (with their subfield, field and domain, linked by CATEGORY_PART_OF) and concepts."""
    primary_topic = normalize_openalex(_dict(record.get("primary_topic")).get("id") or "")
    categories = _Categories(updated)
    for topic in map(_dict, _list(record.get("topics"))):
        tid = normalize_openalex(topic.get("id") or "")
        if not tid:
            continue
        chain = categories.topic_chain(tid, topic)
        for key in chain:
            categories.link(key, tid == primary_topic, topic.get("score"))
        for child, parent in zip(chain, chain[1:], strict=False):
            rows.rels.append(RelRow("CATEGORY_PART_OF", child, parent, owner=None))
    for concept in map(_dict, _list(record.get("concepts"))):
        cid = normalize_openalex(concept.get("id") or "")
        if cid:
            key = categories.category(
                category_key("concept", cid), concept.get("display_name"), "concept", _int(concept.get("level"))
            )
            categories.link(key, False, concept.get("score"))
    rows.nodes.extend(categories.rows.values())
    paper_key = paper.key
    rows.rels.extend(RelRow("IN_CATEGORY", paper_key, key, props) for key, props in categories.links.items())
