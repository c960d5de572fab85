"""Recomputing what a load derives, for the nodes it touched: claims of id-less author slots, CITES,
STATES_AFFILIATION, AFFILIATED_WITH, COAUTHORED_WITH, SAME_NAME_AS, the identity links of the touched
researchers (graph/identity/links.py), and the data_version bump.

Everything is recomputed from what is in the graph (never incremented), in chunks of DERIVE_CHUNK
ids, each its own write transaction (which moves the data version, graph/versions.py), so rerunning
after an interruption converges. The pair edges follow PairLimits (graph/MODEL.md "Pair edges"), so
their number grows linearly with the graph and a load's work with what it touched.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, LiteralString, TypeVar

from neo4j import Driver, ManagedTransaction, Session

from weft.graph.driver import translated_errors
from weft.graph.identity.links import relink
from weft.graph.identity.names import names_compatible
from weft.graph.settings import Settings
from weft.graph.sources import SOURCE_PRIORITY
from weft.graph.versions import bump_data_version, execute_marked
from weft.loaders.claims import plan_claims
from weft.queries import derive, load_claims, sync

DERIVE_CHUNK = 500
# Touched papers whose co-author pairs are gathered at once: a pair met on several is recounted once
# per gathering, and memory holds one gathering's pairs (~20 per paper on real data).
PAIR_PAPERS = 5000
SAME_NAME_BUCKET_LIMIT = Settings.same_name_max_bucket
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class PairLimits:
    """What keeps pair edges linear (graph/MODEL.md "Pair edges"): a paper with more than
    `max_authors` authors makes no COAUTHORED_WITH pairs; a same-name bucket of more than
    `same_name_bucket` people gets no SAME_NAME_AS; a researcher with more than `top_ties` co-authors
    keeps TOP_TIE edges to that many of its heaviest ("Network backbone")."""

    max_authors: int = Settings.pair_edge_max_authors
    same_name_bucket: int = Settings.same_name_max_bucket
    top_ties: int = Settings.network_top_ties

    @classmethod
    def of(cls, settings: Settings) -> PairLimits:
        return cls(settings.pair_edge_max_authors, settings.same_name_max_bucket, settings.network_top_ties)


DEFAULT_LIMITS = PairLimits()


def recompute(
    driver: Driver,
    database: str,
    papers: set[str],
    researchers: set[str],
    progress: Progress | None = None,
    limits: PairLimits = DEFAULT_LIMITS,
    moved: set[str] | None = None,
    created: AbstractSet[str] = frozenset(),
    reaffiliated: set[str] | None = None,
    reauthored: AbstractSet[str] | None = None,
    before: Mapping[str, dict[str, Any]] | None = None,
) -> int:
    """Claims, then CITES, STATES_AFFILIATION, papers' `category_ids` (and their IN_CATEGORY edges' keys),
    AFFILIATED_WITH, COAUTHORED_WITH, TOP_TIE and SAME_NAME_AS for the touched ids; returns the bumped
    data_version.
    `progress(step, done, total)` hears each chunk done.

    Co-author pairs: a paper new in this load (`created`) is added to its pairs' weights; every pair of
    a `moved` researcher (one whose authorships moved: merged, renamed, released, claimed; None means
    all of `researchers`) is recomputed whole; the pairs that meet on another touched paper are
    recounted. So a load adding a paper to a prolific researcher costs that paper's pairs, not the
    researcher's history. TOP_TIE likewise: a new paper's authors weigh their heaviest ties against
    its pairs; moved researchers, their co-authors and the authors of other touched papers are read
    whole. Affiliations likewise: a new paper adds itself to its authors' AFFILIATED_WITH;
    `reaffiliated` researchers (listed affiliations written or released, merged, renamed; None means
    all of `researchers`), moved ones and the authors of other touched papers are rebuilt whole.
    `reauthored` (None: all) narrows "other touched papers" in both to those whose authorships changed: a
    sync that replaced a title or references only leaves its authors' pairs, ties and affiliations alone.
    `before` (a sync's: key -> the state of a paper before its record was written or a merge changed it,
    loaders/sync/authorships.py) narrows further: those works' authors are not recounted, rebuilt or relinked
    whole; only the pairs, affiliations, ties and identity links that the difference with the state after
    reaches are (paper_changes)."""
    researchers = set(researchers)
    moved = set(researchers) if moved is None else set(moved)
    reaffiliated = set(researchers) if reaffiliated is None else set(reaffiliated)
    with translated_errors("claiming id-less authors"), driver.session(database=database) as session:
        claimed = _claim(session, sorted(papers), progress)
    researchers |= claimed
    moved |= claimed
    paper_ids, researcher_ids = sorted(papers), sorted(researchers)
    fresh, known = sorted(set(paper_ids) & created), sorted(set(paper_ids) - created)
    with translated_errors("recomputing derived relationships"), driver.session(database=database) as session:
        for done, chunk in _chunks(paper_ids):
            execute_marked(session, _run_all, _CITES, chunk)
            _report(progress, "citations", done, len(paper_ids))
        for done, chunk in _chunks(paper_ids):
            execute_marked(session, _run_all, _STATED, chunk)
            _report(progress, "stated affiliations", done, len(paper_ids))
        for done, chunk in _chunks(paper_ids):
            execute_marked(session, _run_all, (derive.SET_CATEGORY_IDS,), chunk)
            _report(progress, "category ids", done, len(paper_ids))
        if reauthored is not None:
            known = sorted(set(known) & set(reauthored))
        recounted = _authors(session, known)
        changes = _paper_changes(session, before, limits.max_authors) if before else PaperChanges()
        rebuilt = sorted(reaffiliated | moved | recounted | changes.reaffiliated)
        skip = dict.fromkeys(rebuilt, True)
        for done, chunk in _chunks(fresh):  # first: the rebuilds below are exact whatever they find
            execute_marked(session, _write, derive.ADD_NEW_PAPER_AFFILIATIONS, ids=chunk, skip=skip)
            _report(progress, "affiliations", done, len(fresh))
        for done, chunk in _chunks(rebuilt):
            execute_marked(session, _run_all, _AFFILIATED, chunk)
            _report(progress, "affiliations", done, len(rebuilt))
        skip = dict.fromkeys(moved, True)
        for done, chunk in _chunks(fresh):  # first: the recounts below are exact whatever they find
            execute_marked(
                session, _write, derive.ADD_NEW_PAPER_PAIRS, ids=chunk, skip=skip, max_authors=limits.max_authors
            )
            _report(progress, "co-authorships", done, len(fresh))
        partners = _coauthors(session, sorted(moved), limits.max_authors, progress)
        _paper_pairs(session, known, moved, limits.max_authors, progress)
        _recount_pairs(session, [p for p in sorted(changes.pairs) if not moved & set(p)], limits.max_authors)
        whole = moved | partners | recounted | changes.ties
        _top_ties(session, whole, fresh, limits, progress, [list(pair) for pair in sorted(changes.gained)])
        _same_names(session, researcher_ids, limits.same_name_bucket, progress)
        if before:  # the replaced works' authors whose evidence is as it was keep their links
            quiet = changes.quiet - changes.profiled - moved - reaffiliated - recounted
            researcher_ids = sorted((set(researcher_ids) - quiet) | changes.profiled)
    # last: the candidates are the SAME_NAME_AS links just made, the evidence the ties and affiliations above
    relink(
        driver,
        database,
        researcher_ids,
        max_authors=limits.max_authors,
        same_name_bucket=limits.same_name_bucket,
        progress=progress,
    )
    return bump_data_version(driver, database)


@dataclass
class PaperChanges:
    """What the difference between replaced works' states before and after reaches (paper_changes): the
    co-author pairs (a < b) to recount, of those the ones that only gain a paper (`gained`), the researchers
    whose affiliations to rebuild, whose ties to refresh whole (an end of a pair that may lose weight), whose
    identity evidence changed (`profiled`), and the authors of the works that did not change (`quiet`)."""

    pairs: set[tuple[str, str]] = field(default_factory=set[tuple[str, str]])
    gained: set[tuple[str, str]] = field(default_factory=set[tuple[str, str]])
    reaffiliated: set[str] = field(default_factory=set[str])
    ties: set[str] = field(default_factory=set[str])
    profiled: set[str] = field(default_factory=set[str])
    quiet: set[str] = field(default_factory=set[str])


def paper_changes(
    before: Mapping[str, dict[str, Any]], after: Mapping[str, dict[str, Any]], max_authors: int
) -> PaperChanges:
    """What changed between the states of papers before and after a sync replaced or merged them (key -> {id,
    year, authors: [[researcher id, institution ids, name]], categories, cited}; a paper missing after is gone). A pair
    counts a paper of at most `max_authors` authors with its year: the pairs counted before or after but not
    both (all of both when the year changed) are recounted; an author whose institutions on it changed (all,
    when the year changed) has its affiliations rebuilt; the ends of recounted pairs have their ties refreshed
    (whole, unless every changed pair of theirs only gains a paper: counted after, not before, same year);
    every author of a work whose authors, institutions, year, categories, citations or id changed has new
    identity evidence (graph/identity/links.py reads those), and so has an author whose name changed.

    >>> old = {"W1": {"id": "p1", "year": 2020, "authors": [["r1", [], "A"], ["r2", ["i1"], "B"]], "categories": [],
    ...               "cited": []}}
    >>> new = {"W1": {"id": "p1", "year": 2020, "authors": [["r1", [], "A"], ["r3", [], "C"]], "categories": [],
    ...               "cited": []}}
    >>> c = paper_changes(old, new, 10)
    >>> sorted(c.pairs), sorted(c.gained), sorted(c.reaffiliated), sorted(c.ties), sorted(c.profiled)
    ([('r1', 'r2'), ('r1', 'r3')], [('r1', 'r3')], ['r2', 'r3'], ['r1', 'r2'], ['r1', 'r2', 'r3'])
    >>> c = paper_changes(old, old, 10)
    >>> c.pairs, c.reaffiliated, c.profiled, sorted(c.quiet)
    (set(), set(), set(), ['r1', 'r2'])
    """
    found = PaperChanges()
    lost: set[tuple[str, str]] = set()
    for key, was in before.items():
        now = after.get(key)
        old = {rid: frozenset(insts) for rid, insts, *_ in was["authors"]}
        new = {rid: frozenset(insts) for rid, insts, *_ in now["authors"]} if now else {}
        names = {rid_name(a) for a in was["authors"]}
        renamed: set[str] = {rid_name(a)[0] for a in now["authors"] if rid_name(a) not in names} if now else set()
        everyone = old.keys() | new.keys()
        counted_before = _pairs_of(old, max_authors)
        counted_after = _pairs_of(new, max_authors)
        if now is not None and now["year"] == was["year"]:
            pairs = counted_before ^ counted_after
            found.gained |= counted_after - counted_before
            lost |= counted_before - counted_after
            reaffiliated = {rid for rid in everyone if old.get(rid) != new.get(rid)}
        else:
            pairs = counted_before | counted_after
            lost |= pairs
            reaffiliated = set(everyone)
        found.pairs |= pairs
        found.reaffiliated |= reaffiliated
        found.profiled |= renamed
        same = now is not None and not reaffiliated and old.keys() == new.keys() and now["id"] == was["id"]
        if same and now is not None and (now["categories"], now["cited"]) == (was["categories"], was["cited"]):
            found.quiet |= everyone
        else:
            found.profiled |= everyone
    found.gained -= lost  # a pair one paper adds and another takes away may lose weight
    found.ties = {rid for pair in found.pairs - found.gained for rid in pair}
    return found


def rid_name(author: list[Any]) -> tuple[str, str | None]:
    """(researcher id, name) of a noted author ([id, institution ids, name]; older notes: no name)."""
    return author[0], author[2] if len(author) > 2 else None


def _pairs_of(authors: Mapping[str, object], max_authors: int) -> set[tuple[str, str]]:
    """The pairs (a < b) a paper with these authors counts for: none past `max_authors` authors."""
    if len(authors) > max_authors:
        return set()
    ids = sorted(authors)
    return {(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]}


def _paper_changes(session: Session, before: Mapping[str, dict[str, Any]], max_authors: int) -> PaperChanges:
    """paper_changes of the noted papers against what the graph holds now (after the writes and CITES)."""
    after: dict[str, dict[str, Any]] = {}
    states: tuple[tuple[str, LiteralString], ...] = (("oid", sync.PAPER_STATES), ("id", sync.PAPER_STATES_BY_ID))
    for by, query in states:
        keys = sorted(k.split(":", 1)[1] for k in before if k.startswith(by + ":"))
        for _, chunk in _chunks(keys, PAIR_PAPERS):
            after.update((f"{by}:{row[by]}", row) for row in session.execute_read(_records, query, ids=chunk))
    return paper_changes(before, after, max_authors)


def _recount_pairs(session: Session, pairs: list[tuple[str, str]], max_authors: int) -> None:
    """Recount the given pairs (a < b) from the papers both wrote (RECOUNT_COAUTHORED: dropped at weight 0)."""
    for _, chunk in _chunks(pairs):
        rows = [{"a": a, "b": b} for a, b in chunk]
        execute_marked(session, _write, derive.RECOUNT_COAUTHORED, pairs=rows, max_authors=max_authors)


_CITES = (derive.CLEAR_CITES_OUT, derive.BUILD_CITES_OUT, derive.BUILD_CITES_IN)
_STATED = (derive.CLEAR_STATED, derive.BUILD_STATED)


def restate(tx: ManagedTransaction, paper_ids: list[str]) -> None:
    """Rebuild the STATES_AFFILIATION edges of `paper_ids` within `tx` (after their institution ids changed)."""
    _run_all(tx, _STATED, paper_ids)


_AFFILIATED = (derive.CLEAR_AFFILIATED, derive.BUILD_AFFILIATED)


_Item = TypeVar("_Item")


def _chunks(items: list[_Item], size: int | None = None) -> Iterator[tuple[int, list[_Item]]]:
    """(items done once this chunk is, chunk) for chunks of `size` items (DERIVE_CHUNK, read at the call)."""
    size = size or DERIVE_CHUNK
    for start in range(0, len(items), size):
        chunk = items[start : start + size]
        yield start + len(chunk), chunk


def _report(progress: Progress | None, step: str, done: int, total: int) -> None:
    if progress is not None:
        progress(step, done, total)


def _claim(session: Session, papers: list[str], progress: Progress | None) -> set[str]:
    """Apply the id-less author claiming rule (loaders/claims.py); returns the researchers it moved edges of."""
    touched: set[str] = set()
    for done, chunk in _chunks(papers):
        for move in execute_marked(session, _claim_tx, chunk):
            touched |= {move["from"], move["to"]}
        _report(progress, "claims", done, len(papers))
    return touched


def _authors(session: Session, papers: list[str]) -> set[str]:
    """The authors of the given papers."""
    found: set[str] = set()
    for _, chunk in _chunks(papers):
        found.update(session.execute_read(_column, derive.PAPER_AUTHORS, "id", chunk))
    return found


def _paper_pairs(
    session: Session, papers: list[str], skip: set[str], max_authors: int, progress: Progress | None
) -> None:
    """Recount the co-author pairs that meet on the given papers, all in the graph before this load
    (pairs with a researcher in `skip` were recomputed whole already): all pairs of a paper of at most
    `max_authors` authors, each from the end with fewer papers, and the linked pairs of a larger one
    (it may have counted for them before it grew)."""
    for done, chunk in _chunks(papers, PAIR_PAPERS):
        lists = session.execute_read(_records, derive.PAPER_AUTHOR_LISTS, ids=chunk, max_authors=max_authors)
        rows = partner_rows([row["authors"] for row in lists], skip)
        for start in range(0, len(rows), DERIVE_CHUNK):
            batch = rows[start : start + DERIVE_CHUNK]
            execute_marked(session, _write, derive.RECOUNT_PARTNERS, rows=batch, max_authors=max_authors)
        large = [row["paper"] for row in lists if row["large"]]
        linked = session.execute_read(_records, derive.LINKED_AUTHOR_PAIRS, ids=large) if large else []
        pairs = [p for p in linked if p["a"] not in skip and p["b"] not in skip]
        for start in range(0, len(pairs), DERIVE_CHUNK):
            batch = pairs[start : start + DERIVE_CHUNK]
            execute_marked(session, _write, derive.RECOUNT_COAUTHORED, pairs=batch, max_authors=max_authors)
        _report(progress, "co-authorships", done, len(papers))


def partner_rows(
    author_lists: list[list[dict[str, Any]]], skip: AbstractSet[str] = frozenset()
) -> list[dict[str, Any]]:
    """Rows {id, partners} covering each pair of authors listed together once, from the end with
    fewer papers (ties: the smaller id), so a prolific researcher's history is walked only for pairs
    no lighter co-author can count; pairs with a researcher in `skip` are left out. Sorted.

    >>> lists = [[{"id": "r1", "papers": 900}, {"id": "r2", "papers": 3}, {"id": "r3", "papers": 3}]]
    >>> partner_rows(lists)
    [{'id': 'r2', 'partners': ['r1', 'r3']}, {'id': 'r3', 'partners': ['r1']}]
    >>> partner_rows(lists, skip={"r2"})
    [{'id': 'r3', 'partners': ['r1']}]
    """
    partners: dict[str, set[str]] = {}
    for authors in author_lists:
        team = sorted({(a["papers"], a["id"]) for a in authors if a["id"] not in skip})
        for i, (_, lighter) in enumerate(team):
            for _, heavier in team[i + 1 :]:
                partners.setdefault(lighter, set()).add(heavier)
    return [{"id": rid, "partners": sorted(ids)} for rid, ids in sorted(partners.items())]


def _write(tx: ManagedTransaction, query: LiteralString, **params: Any) -> None:
    tx.run(query, **params).consume()


def _coauthors(session: Session, ids: list[str], max_authors: int, progress: Progress | None) -> set[str]:
    """Rebuild the COAUTHORED_WITH of `ids` whole; returns their co-authors."""
    finished: set[str] = set()  # researchers of the chunks done: their pairs are computed
    partners: set[str] = set()
    for done, chunk in _chunks(ids):
        partners.update(execute_marked(session, _coauthors_tx, chunk, finished, max_authors))
        finished.update(chunk)
        _report(progress, "co-authorships", done, len(ids))
    return partners


def _coauthors_tx(
    tx: ManagedTransaction, ids: list[str], finished: set[str], max_authors: int = Settings.pair_edge_max_authors
) -> list[str]:
    """COAUTHORED_WITH of one chunk of researchers; returns their co-authors. A pair of two touched
    researchers is computed once: within the chunk from its smaller id (BUILD_COAUTHORED), across chunks
    by the chunk that came first, so co-authors in `finished` (earlier chunks) are skipped."""
    partners = [rec["partner"] for rec in tx.run(derive.CLEAR_COAUTHORED, ids=ids, max_authors=max_authors)]
    done = [partner for partner in partners if partner in finished]
    tx.run(derive.BUILD_COAUTHORED, ids=ids, done=done, max_authors=max_authors).consume()
    return partners


def _top_ties(
    session: Session,
    whole: set[str],
    fresh: list[str],
    limits: PairLimits,
    progress: Progress | None,
    gained: list[list[str]] | None = None,
) -> None:
    """Refresh TOP_TIE (graph/MODEL.md "Network backbone") of the researchers in `whole` from all their
    ties, and of the other authors of the `fresh` papers and the ends of `gained` pairs (ties that only
    gained weight) from their heaviest ties and those pairs."""
    lists: list[list[str]] = list(gained or [])
    for _, chunk in _chunks(fresh, PAIR_PAPERS):
        found = session.execute_read(_records, derive.PAPER_AUTHOR_LISTS, ids=chunk, max_authors=limits.max_authors)
        lists += [[author["id"] for author in row["authors"]] for row in found]
    rows = top_tie_rows(whole, lists)
    for done, chunk in _chunks(rows):
        execute_marked(session, _write, derive.REFRESH_TOP_TIES, rows=chunk, k=limits.top_ties)
        _report(progress, "network backbone", done, len(rows))


def top_tie_rows(whole: AbstractSet[str], author_lists: list[list[str]]) -> list[dict[str, Any]]:
    """REFRESH_TOP_TIES rows, sorted by id: {id, partners: None} for each researcher in `whole` (read
    all its ties), {id, partners} for each other author of a listed (new) paper, with its co-authors
    on them.

    >>> top_tie_rows({"r9"}, [["r1", "r2", "r9"], ["r2", "r3"]])
    [{'id': 'r1', 'partners': ['r2', 'r9']}, {'id': 'r2', 'partners': ['r1', 'r3', 'r9']}, \
{'id': 'r3', 'partners': ['r2']}, {'id': 'r9', 'partners': None}]
    """
    partners: dict[str, set[str]] = {}
    for authors in author_lists:
        for author in authors:
            if author not in whole:
                partners.setdefault(author, set()).update(a for a in authors if a != author)
    rows: list[dict[str, Any]] = [{"id": rid, "partners": None} for rid in whole]
    rows += [{"id": rid, "partners": sorted(ids)} for rid, ids in partners.items()]
    return sorted(rows, key=lambda row: row["id"])


def _same_names(session: Session, touched: list[str], cap: int, progress: Progress | None) -> None:
    """Link the same-name buckets of the touched researchers that have no SAME_NAME_AS link (new, renamed
    or merged into: the writes dropped their links): nothing in a bucket over `cap` people, else every
    compatible pair with an unlinked end (same_name_pairs). A link holds nothing that a new paper
    changes (its evidence is counted when read), so a researcher that only gained papers is not
    revisited. Each bucket is read up to cap + 1 people and its linked pairs are never read, so the work
    is linear in what the load touched."""
    keys: set[str] = set()
    for _, chunk in _chunks(touched):
        keys |= set(session.execute_read(_column, derive.UNLINKED_NAME_KEYS, "name_key", chunk))
    ordered = sorted(keys)
    for done, chunk in _chunks(ordered):
        buckets = session.execute_read(_records, derive.NAME_BUCKETS, keys=chunk, cap=cap)
        members = [{"name_key": b["name_key"], "is_person": True} | m for b in buckets for m in b["people"]]
        execute_marked(session, _same_name_tx, sorted(crowded_buckets(members, cap)), same_name_pairs(members, cap))
        _report(progress, "same-name candidates", done, len(ordered))


def crowded_buckets(members: list[dict[str, Any]], bucket_limit: int = SAME_NAME_BUCKET_LIMIT) -> set[str]:
    """The name keys with more than `bucket_limit` people among `members` (never linked)."""
    sizes: dict[str, int] = {}
    for m in members:
        if m["is_person"] and m["name"]:
            sizes[m["name_key"]] = sizes.get(m["name_key"], 0) + 1
    return {key for key, size in sizes.items() if size > bucket_limit}


def same_name_pairs(members: list[dict[str, Any]], bucket_limit: int = SAME_NAME_BUCKET_LIMIT) -> list[dict[str, str]]:
    """Pairs {a, b} (a < b) of people in one name_key bucket whose names are compatible and of whom at
    least one has no SAME_NAME_AS edge (`links`, 0 when absent): the pairs a bucket lacks.

    Non-person records (`is_person` false) are never candidates; a bucket larger than
    `bucket_limit` ("Wang Y" in a full dump) is skipped rather than linked all-to-all, so each
    person has fewer than `bucket_limit` links and the links grow linearly with the researchers.
    Two linked people are never paired again: every compatible pair of a bucket is linked except
    those with an end whose links were dropped (a touched researcher, or everyone in a bucket that
    was crowded), so the pairs checked grow with the unlinked people, not the bucket's square.
    """
    buckets: dict[str, list[dict[str, Any]]] = {}
    for m in members:
        if m["is_person"] and m["name"]:
            buckets.setdefault(m["name_key"], []).append(m)
    pairs: list[dict[str, str]] = []
    for people in buckets.values():
        if len(people) > bucket_limit:
            continue
        for one in (m for m in people if not m.get("links")):
            for other in people:
                # each pair once: from its smaller id when both are unlinked
                if other["id"] == one["id"] or (not other.get("links") and other["id"] < one["id"]):
                    continue
                a, b = (one, other) if one["id"] < other["id"] else (other, one)
                if names_compatible(a["name"], b["name"]):
                    pairs.append({"a": a["id"], "b": b["id"]})
    return sorted(pairs, key=lambda pair: (pair["a"], pair["b"]))


def _column(tx: ManagedTransaction, query: LiteralString, column: str, ids: list[str]) -> list[Any]:
    return [rec[column] for rec in tx.run(query, ids=ids)]


def _records(tx: ManagedTransaction, query: LiteralString, **params: Any) -> list[dict[str, Any]]:
    """The rows as dicts, values as decoded: these statements return ids, names and numbers, never nodes,
    so `Record.data()`'s deep conversion (a third of the same-name step's time on long co-author lists)
    is not needed."""
    return [dict(zip(rec.keys(), rec.values(), strict=True)) for rec in tx.run(query, **params)]


def _same_name_tx(tx: ManagedTransaction, crowded: list[str], rows: list[dict[str, Any]]) -> None:
    if crowded:
        tx.run(derive.CLEAR_SAME_NAME_BUCKETS, keys=crowded).consume()
    for start in range(0, len(rows), 5000):
        tx.run(derive.WRITE_SAME_NAME, rows=rows[start : start + 5000]).consume()


def _claim_tx(tx: ManagedTransaction, papers: list[str]) -> list[dict[str, Any]]:
    slots = [rec.data() for rec in tx.run(load_claims.CLAIM_SLOTS, ids=papers)]
    moves = plan_claims(slots)
    onto: dict[tuple[str, str], set[str]] = {}
    for m in moves:
        onto.setdefault((m["paper"], m["to"]), set()).update(m["sources"])
    if moves:
        tx.run(
            load_claims.CLAIM_ONTO,
            sources=sorted(SOURCE_PRIORITY),
            moves=[{"paper": p, "to": t, "sources": sorted(v)} for (p, t), v in sorted(onto.items())],
        ).consume()
        tx.run(load_claims.CLAIM_FROM, moves=moves).consume()
    return moves


def _run_all(tx: ManagedTransaction, statements: Iterable[LiteralString], ids: list[str]) -> None:
    for statement in statements:
        tx.run(statement, ids=ids).consume()
