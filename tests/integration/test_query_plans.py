"""The paper lists read their sort index in order and continue from the cursor's key (issue 9).

A synthetic graph of 3,000 papers with ties (equal counts and dates), missing counts and undated papers:
the sort keys come from the migration's backfill; the plans are the server's own (`PROFILE`), so a
`Sort`/`Top` over every paper or a scan of every paper fails the test whatever the timing; and walking
every page by cursor gives exactly the order of one full sort, for every order and filter.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from neo4j import AsyncDriver, Driver

from tests.integration.test_bulk_path import CATEGORY_KEYS_CHECK
from weft.graph.driver import open_async_driver
from weft.graph.migrate import backfill_category_ids, backfill_in_category_keys, backfill_sort_keys
from weft.graph.reads import papers
from weft.graph.reads.reader import GraphReader
from weft.graph.settings import Settings
from weft.queries import read_facets as qf
from weft.queries import read_institutions as qi
from weft.queries import read_papers as q
from weft.queries import read_researchers as qr

N = 3000
LIMIT = 20
SORTS = ("MOST_CITED", "NEWEST", "OLDEST")
IN_C17 = N // 7 + 1  # papers 0, 7, 14, ...: every 7th of the 3,000 (GRAPH)

# Paper k: a count for 9 in 10 (500 distinct values: ties), a date of its own for most, only a year for
# every 20th (five a year: ties, with equal counts too), neither for every 97th; one category holds every
# 7th paper, one researcher wrote every 50th, through one institution.
GRAPH = """
UNWIND range(0, $n - 1) AS k
CREATE (p:Paper {id: 'p' + right('0000' + toString((k * 7919) % $n), 5),
  cited_by_count: CASE WHEN k % 10 = 0 THEN null ELSE (k * 31) % 500 END,
  year: CASE WHEN k % 97 = 0 THEN null ELSE 1990 + k % 30 END,
  publication_date: CASE WHEN k % 97 = 0 OR k % 20 = 0 THEN null
    ELSE toString(date({year: 1990 + k % 30, month: 1 + (k / 30) % 12, day: 1 + (k / 360) % 28})) END})
WITH p, k
CALL (p, k) {
  WITH p WHERE k % 7 = 0
  MERGE (c:Category {id: 'c17', key: 'field:17', name: 'Computer Science', scheme: 'field'})
  CREATE (p)-[:IN_CATEGORY {primary: true}]->(c)
}
CALL (p, k) {
  WITH p WHERE k % 50 = 0
  MERGE (i:Institution {id: 'i1', name: 'Bangor University'})
  MERGE (r:Researcher {id: 'r1', name: 'Peter Butcher'})
  MERGE (r)-[:AFFILIATED_WITH {first_year: 1990, last_year: 2019}]->(i)
  CREATE (r)-[:AUTHORED {rank: 0, institution_ids: ['i1']}]->(p)
}
"""


@pytest.fixture(scope="module")
def graph(driver: Driver, settings: Settings) -> Driver:
    driver.execute_query(GRAPH, n=N, database_=settings.neo4j_database)
    return driver


@pytest.fixture(scope="module")
def backfilled(graph: Driver, settings: Settings) -> int:
    """Sort keys, category ids and IN_CATEGORY keys set by the migration's backfills (the loaders' own path
    is tested with the real data); returns how many sort keys (papers' and their edges') were written."""
    written = backfill_sort_keys(graph, settings.neo4j_database)
    assert backfill_category_ids(graph, settings.neo4j_database) == IN_C17
    graph.execute_query("CALL db.resampleOutdatedIndexes()", database_=settings.neo4j_database)
    graph.execute_query("CALL db.awaitIndexes(300)", database_=settings.neo4j_database)
    return written


@pytest.fixture
async def reader(settings: Settings) -> AsyncIterator[GraphReader]:
    driver: AsyncDriver = open_async_driver(settings)
    try:
        yield GraphReader(driver, settings.neo4j_database, 60.0)
    finally:
        await driver.close()


def test_backfill_sets_every_sort_key_once(graph: Driver, settings: Settings, backfilled: int) -> None:
    assert backfilled == 2 * N + 3 * IN_C17  # each paper's two, its edge's three (the edges' go with them)
    records, _, _ = graph.execute_query(
        "MATCH (p:Paper) RETURN count(*) AS n, "
        "count(CASE WHEN p.sort_cited = coalesce(p.cited_by_count, 0) THEN 1 END) AS cited, "
        "count(CASE WHEN p.sort_date = coalesce(p.publication_date, toString(p.year), '') THEN 1 END) AS dated, "
        "count(CASE WHEN p.sort_date = '' THEN 1 END) AS undated",
        database_=settings.neo4j_database,
    )
    assert (records[0]["n"], records[0]["cited"], records[0]["dated"]) == (N, N, N)
    assert records[0]["undated"] > 0
    assert backfill_sort_keys(graph, settings.neo4j_database) == 0
    assert backfill_in_category_keys(graph, settings.neo4j_database) == 0


def test_migrate_mends_edges_without_keys_and_follows_changed_counts(
    graph: Driver, settings: Settings, backfilled: int
) -> None:
    """Edges left without keys (a database loaded before them) get them back; a paper whose count changed
    under the sort keys takes its edges' keys along when its own are backfilled."""
    db = settings.neo4j_database
    graph.execute_query(
        "MATCH (p:Paper)-[r:IN_CATEGORY]->() WITH r ORDER BY p.id LIMIT 5 REMOVE r.category, r.sort_date",
        database_=db,
    )
    assert graph.execute_query(CATEGORY_KEYS_CHECK, database_=db).records[0]["stale"] == 5
    assert backfill_in_category_keys(graph, db) == 3 * 5
    graph.execute_query(
        "MATCH (p:Paper)-[:IN_CATEGORY]->() WITH p ORDER BY p.id LIMIT 1 SET p.cited_by_count = 100000", database_=db
    )
    assert backfill_sort_keys(graph, db) == 2 + 3  # the paper's two keys (set together), its edge's three
    found = graph.execute_query(
        "MATCH (p:Paper {sort_cited: 100000})-[r:IN_CATEGORY]->() RETURN r.sort_cited AS cited", database_=db
    ).records
    assert [r["cited"] for r in found] == [100000]
    graph.execute_query("MATCH (p:Paper {sort_cited: 100000}) SET p.cited_by_count = null", database_=db)
    assert backfill_sort_keys(graph, db) == 2 + 3
    assert graph.execute_query(CATEGORY_KEYS_CHECK, database_=db).records[0]["stale"] == 0


# --- plans ----------------------------------------------------------------------------------------


def operators(plan: Any) -> Iterator[Any]:
    """Every operator of a plan tree (driver ProfiledPlan dicts), depth first."""
    yield plan
    for child in plan.get("children", []):
        yield from operators(child)


def kind(op: Any) -> str:
    return op["operatorType"].split("@")[0]


def page_subtree(plan: Any) -> Any:
    """The operator aggregating the page (`collect(p{.*}) AS page`): below it, only the page's reads."""
    return next(op for op in operators(plan) if "AS page" in str(op.get("args", {}).get("Details", "")))


def profile(driver: Driver, settings: Settings, query: str, params: dict[str, Any]) -> Any:
    with driver.session(database=settings.neo4j_database) as session:
        result = session.run("PROFILE " + query, params)
        result.consume()
        return result.consume().profile


def every_page_params(sort: str, after: papers.PaperKey | None, narrowed: bool) -> dict[str, Any]:
    params: dict[str, Any] = {
        "year_from": 2000 if narrowed else None,
        "year_to": None,
        "min_citations": None,
        "min_cited": 0,
        "limit": LIMIT + 1,
        "props": list(papers.KEY_PROPS),
    }
    return params | papers._start(sort, after)


def key_at(driver: Driver, settings: Settings, sort: str, position: int, narrowed: bool) -> papers.PaperKey:
    """The sort key of the paper at `position` of the list in `sort` order (one full sort, here only)."""
    order = {
        "MOST_CITED": "p.sort_cited DESC, p.sort_date DESC, p.id",
        "NEWEST": "p.sort_date DESC, p.id",
        "OLDEST": "p.sort_date = '', p.sort_date, p.id",
    }[sort]
    records, _, _ = driver.execute_query(
        f"MATCH (p:Paper) WHERE NOT $narrowed OR p.year >= 2000 RETURN p {{.*}} AS node ORDER BY {order} "
        "SKIP $k LIMIT 1",
        k=position,
        narrowed=narrowed,
        database_=settings.neo4j_database,
    )
    return papers.paper_key(records[0]["node"], sort)


@pytest.mark.parametrize("narrowed", [False, True], ids=["all", "from-2000"])
@pytest.mark.parametrize("sort", SORTS)
@pytest.mark.parametrize("position", [None, 1000], ids=["first-page", "after-1000"])
def test_every_paper_page_reads_its_index_in_order(
    graph: Driver, settings: Settings, backfilled: int, sort: str, narrowed: bool, position: int | None
) -> None:
    after = None if position is None else key_at(graph, settings, sort, position, narrowed)
    plan = profile(
        graph,
        settings,
        q.EVERY_PAPER_PAGES[(sort, narrowed, after is not None)],
        every_page_params(sort, after, narrowed),
    )
    ops = list(operators(plan))
    assert not [kind(op) for op in ops if kind(op) in ("AllNodesScan", "NodeByLabelScan", "Sort")]
    page = list(operators(page_subtree(plan)))
    leaves = [op for op in page if not op.get("children")]
    assert leaves and all(kind(op).startswith("NodeIndexSeek") for op in leaves), [kind(op) for op in leaves]
    assert all("sort_" in op["args"]["Details"] for op in leaves)
    # The page reads a few rows per branch past the cursor (and the ties of the last one, or the 31 undated
    # papers OLDEST puts last), never the 3,000 papers nor the 1,000 before the cursor: each index seek
    # stops at the limit. A year filter skips the rows outside it as it reads (a third of them here; the
    # 1,000 papers before 2000 when OLDEST starts from the oldest: filtered, never sorted).
    read = {op["args"]["Details"]: op["rows"] for op in leaves}
    if not (narrowed and sort == "OLDEST" and position is None):
        assert 0 < sum(read.values()) and all(
            rows <= (2 if narrowed else 1) * (LIMIT + 1) + 40 for rows in read.values()
        ), read
    # Any full Top sorts the union of the branches' limited outputs, never more.
    for top in (op for op in page if kind(op) == "Top"):
        assert top["children"][0]["rows"] <= 3 * (LIMIT + 1)
    if not narrowed:
        assert any(kind(op) == "NodeCountFromCountStore" for op in ops)


def test_filtered_pages_start_from_the_filter(graph: Driver, settings: Settings, backfilled: int) -> None:
    for where in ({"categories": ["c17"]}, {"researcher": "r1"}, {"institutions": ["i1"]}):
        params = {
            "researcher": None,
            "institutions": None,
            "categories": None,
            "year_from": None,
            "year_to": None,
            "min_citations": None,
            "sort": "MOST_CITED",
            "after": None,
            "limit": LIMIT + 1,
            "props": None,
        } | where
        ops = list(operators(profile(graph, settings, q.PAPER_PAGE, params)))
        assert not [kind(op) for op in ops if kind(op) in ("AllNodesScan", "NodeByLabelScan")], where
        assert max(op["rows"] for op in ops) <= N // 7 + 1, where


def test_facets_gather_the_anchors_papers_once(graph: Driver, settings: Settings, backfilled: int) -> None:
    """The narrowest filter's papers are gathered and not tested against that filter again paper by paper
    (read_facets.FILTERED_PAPERS): at 1M works the re-test was 90% of a field's facets."""
    anchors = (
        (papers.PaperFilter(categories=["c17"]), "IN_CATEGORY", IN_C17),
        (papers.PaperFilter(researcher="r1"), "AUTHORED", N // 50),
    )
    for where, relationship, expected in anchors:
        want = {dimension: dimension == "year" for dimension in qf.DIMENSIONS}
        params = papers.filter_params(where) | {"want": want, "order": "COUNT", "first": 10}
        ops = list(operators(profile(graph, settings, qf.FACETS, params)))
        expanded = [op["rows"] for op in ops if kind(op).startswith("Expand") and relationship in str(op["args"])]
        assert sum(expanded) == expected, (where, expanded)


def test_institution_page_starts_from_the_institution(graph: Driver, settings: Settings, backfilled: int) -> None:
    params = {
        "keys": [{"property": "id", "value": "i1"}],
        "parents": True,
        "children": True,
        "roster": {"year_from": None, "year_to": None, "skip": 0, "end": 10},
        "most_cited": {"end": 3},
        "collaborators": {"skip": 0, "end": 5},
    }
    ops = list(operators(profile(graph, settings, qi.INSTITUTION_DETAILS, params)))
    assert not [kind(op) for op in ops if kind(op) in ("AllNodesScan", "NodeByLabelScan")]
    assert max(op["rows"] for op in ops) <= N // 50 + 1


def test_a_roster_of_one_institution_reads_the_stored_counts(graph: Driver, settings: Settings) -> None:
    """One institution and no years: each researcher's count is AFFILIATED_WITH's stored `papers`, no
    AUTHORED edge is read; a year window (or several institutions) counts the papers instead."""
    graph.execute_query(
        "MATCH (:Researcher {id: 'r1'})-[af:AFFILIATED_WITH]->(:Institution {id: 'i1'}) SET af.papers = $n",
        n=N // 50,
        database_=settings.neo4j_database,
    )

    def roster(year_from: int | None) -> tuple[list[Any], int]:
        key = {"ids": ["i1"], "year_from": year_from, "year_to": None, "skip": 0, "end": 10}
        with graph.session(database=settings.neo4j_database) as session:
            result = session.run("PROFILE " + qi.ROSTER_PAGES, {"keys": [key]})
            page = result.single(strict=True)["page"]
            plan = result.consume().profile
        authored = sum(op["rows"] for op in operators(plan) if "AUTHORED" in str(op.get("args", {}).get("Details")))
        return [(row["researcher"]["id"], row["paper_count"]) for row in page], authored

    assert roster(None) == ([("r1", N // 50)], 0)
    counted, authored = roster(2000)
    dated_since_2000 = sum(1 for k in range(0, N, 50) if k % 97 != 0 and 1990 + k % 30 >= 2000)
    assert counted == [("r1", dated_since_2000)]
    assert authored >= dated_since_2000


# --- answers --------------------------------------------------------------------------------------


def full_sort(driver: Driver, settings: Settings, sort: str, where: str) -> list[str]:
    """The ids in `sort` order by one full sort of the matching papers, as the lists were read before."""
    order = {
        "MOST_CITED": "coalesce(p.cited_by_count, 0) DESC, coalesce(p.publication_date, toString(p.year), '') DESC",
        "NEWEST": "coalesce(p.publication_date, toString(p.year), '') DESC",
        "OLDEST": "coalesce(p.publication_date, toString(p.year), '9999') ASC",
    }[sort]
    records, _, _ = driver.execute_query(
        f"MATCH (p:Paper) WHERE {where} RETURN p.id AS id ORDER BY {order}, p.id",
        database_=settings.neo4j_database,
    )
    return [r["id"] for r in records]


FILTERS = {
    "all": (papers.PaperFilter(), "true"),
    "years": (papers.PaperFilter(year_from=2000, year_to=2009), "p.year >= 2000 AND p.year <= 2009"),
    "min-citations": (papers.PaperFilter(min_citations=250), "coalesce(p.cited_by_count, 0) >= 250"),
    "category": (papers.PaperFilter(categories=["c17"]), "EXISTS { (p)-[:IN_CATEGORY]->(:Category {id: 'c17'}) }"),
    "researcher": (papers.PaperFilter(researcher="r1"), "EXISTS { (:Researcher {id: 'r1'})-[:AUTHORED]->(p) }"),
}


@pytest.mark.parametrize("name", list(FILTERS))
@pytest.mark.parametrize("sort", SORTS)
async def test_pages_by_cursor_walk_the_full_order(
    graph: Driver, settings: Settings, backfilled: int, reader: GraphReader, sort: str, name: str
) -> None:
    where, cypher = FILTERS[name]
    want = full_sort(graph, settings, sort, cypher)
    seen: list[str] = []
    after: papers.PaperKey | None = None
    while True:
        page = await papers.paper_page(reader, where, sort, after, 97)
        assert page.total == len(want)
        seen += [row["id"] for row in page.rows]
        if not page.has_more:
            break
        assert len(page.rows) == 97
        after = papers.paper_key(page.rows[-1], sort)
    assert seen == want


# --- one category ---------------------------------------------------------------------------------


@pytest.mark.parametrize("sort", SORTS)
async def test_a_large_categorys_pages_walk_the_sort_index(
    graph: Driver, settings: Settings, backfilled: int, reader: GraphReader, sort: str
) -> None:
    """One category and nothing else: with pages of 7, c17 is large enough (429^2 > 0.6 x 8 x 3,000) that its
    papers are found by walking the sort index from the cursor (q.CATEGORY_PAPER_PAGES), and walking
    every page gives exactly the category's full order."""
    where, cypher = FILTERS["category"]
    want = full_sort(graph, settings, sort, cypher)
    assert len(want) == IN_C17
    seen: list[str] = []
    after: papers.PaperKey | None = None
    while True:
        page = await papers.paper_page(reader, where, sort, after, 7)
        assert page.total == IN_C17
        seen += [row["id"] for row in page.rows]
        if not page.has_more:
            break
        after = papers.paper_key(page.rows[-1], sort)
    assert seen == want


@pytest.mark.parametrize("sort", ["NEWEST", "OLDEST"])
@pytest.mark.parametrize(("page_size", "walks"), [(7, True), (150, False)], ids=["walk", "gather"])
def test_a_category_page_reads_its_papers_one_way(
    graph: Driver, settings: Settings, backfilled: int, sort: str, page_size: int, walks: bool
) -> None:
    """The walk never gathers the category (no operator holds its 429 papers), reads a few rows past each
    page from the index, tests membership on the paper's `category_ids` and counts from the category's
    degree; a page too large for the walk to pay (0.6 x 151 x 3,000 > 429^2) gathers and sorts instead."""
    params = every_page_params(sort, None, False) | {
        "category": "c17",
        "sort": sort,
        "after": None,
        "limit": page_size + 1,
    }
    ops = list(operators(profile(graph, settings, q.CATEGORY_PAPER_PAGES[sort], params)))
    assert not [kind(op) for op in ops if kind(op) in ("AllNodesScan", "NodeByLabelScan")]
    gathered = max(op["rows"] for op in ops if "IN_CATEGORY" in str(op.get("args", {}).get("Details")))
    if walks:
        assert gathered < IN_C17 and max(op["rows"] for op in ops) < IN_C17
        assert any("$category IN p.category_ids" in str(op["args"].get("Details")) for op in ops)
    else:
        assert gathered == IN_C17


@pytest.mark.parametrize("page_size", [7, 150])
@pytest.mark.parametrize("after", [None, 40], ids=["first", "later"])
def test_a_categorys_most_cited_page_reads_its_edges_in_index_order(
    graph: Driver, settings: Settings, backfilled: int, page_size: int, after: int | None
) -> None:
    """Most cited in one category reads the category's IN_CATEGORY edges from their relationship index in
    order: no sort of the category or of every paper (no operator holds its 429 papers), at most two
    ranges (the cursor's ties, then lower counts) of a page and one row each."""
    key = None
    if after is not None:
        records, _, _ = graph.execute_query(
            "MATCH (p:Paper)-[:IN_CATEGORY]->(:Category {id: 'c17'}) RETURN p {.*} AS p "
            "ORDER BY p.sort_cited DESC, p.sort_date DESC, p.id SKIP $after LIMIT 1",
            after=after,
            database_=settings.neo4j_database,
        )
        key = papers.paper_key(records[0]["p"], "MOST_CITED")
    params = every_page_params("MOST_CITED", key, False) | {"category": "c17", "limit": page_size + 1}
    ops = list(operators(profile(graph, settings, q.CATEGORY_PAPER_PAGES["MOST_CITED"], params)))
    seeks = [op for op in ops if "RelationshipIndexSeek" in kind(op)]
    index = "IN_CATEGORY(category, sort_cited, sort_date)"
    assert seeks and all(index in str(op["args"].get("Details")) for op in seeks)
    assert not [kind(op) for op in ops if kind(op) in ("AllNodesScan", "NodeByLabelScan", "Sort")]
    assert max(op["rows"] for op in ops) <= 2 * (page_size + 1) < IN_C17


@pytest.mark.parametrize("key", sorted(q.PAPER_DETAILS_BY_KEY))
def test_a_paper_looked_up_by_one_key_is_one_index_seek(graph: Driver, settings: Settings, key: str) -> None:
    params = {"keys": [{"property": key, "value": "1"}], "want": {}, "cited_by": None, "references": None}
    ops = [kind(op) for op in operators(profile(graph, settings, q.PAPER_DETAILS_BY_KEY[key], params))]
    assert not [op for op in ops if "Scan" in op and op != "NodeCountFromCountStore"], ops
    assert any("IndexSeek" in op for op in ops), ops


@pytest.mark.parametrize("key", ["id", "openalex_id", "orcid", "s2_id"])
def test_a_profile_looked_up_by_one_key_is_one_index_seek(graph: Driver, settings: Settings, key: str) -> None:
    query = qr.researcher_profile(qr.PROFILE_PARTS, key)
    assert query != qr.RESEARCHER_PROFILE
    params = {"keys": [{"property": key, "value": "1"}], "want": {}, "fields": None, "papers": None, "coauthors": None}
    ops = [kind(op) for op in operators(profile(graph, settings, query, params))]
    assert not [op for op in ops if "Scan" in op], ops
    assert any("IndexSeek" in op for op in ops), ops
