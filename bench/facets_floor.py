"""Issue 49 at scale: how far FACETS is from the floor. The three target shapes through Weft's own FACETS
statement against the least a database can do for each (hand-written single-purpose Cypher: one category's
papers, or its IN_CATEGORY edges from the `in_category_sort_cited` index, grouped at once), driver-side,
interleaved and shuffled per round; round 0 warms. The largest field and the institution with most papers.

    .venv/bin/python -u -m bench.facets_floor bolt://127.0.0.1:7901 2
"""

import random
import statistics
import sys
import time

import neo4j

from weft.graph.reads.facets import DIMENSIONS
from weft.graph.reads.papers import PaperFilter, filter_params
from weft.queries import read_facets as q

uri = sys.argv[1]
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
d = neo4j.GraphDatabase.driver(uri, auth=None)


def run(cy, **p):
    t = time.perf_counter()
    with d.session() as s:
        rows = [r.values() for r in s.run(cy, p)]
    return (time.perf_counter() - t) * 1000, rows


with d.session() as s:
    fields = [
        r["id"]
        for r in s.run(
            "MATCH (c:Category {scheme:'field'}) RETURN c.id AS id, COUNT { (c)<-[:IN_CATEGORY]-() } AS n "
            "ORDER BY n DESC LIMIT 3"
        )
    ]
    insts = [
        r["id"]
        for r in s.run(
            "MATCH (i:Institution) RETURN i.id AS id, COUNT { (i)<-[:STATES_AFFILIATION]-() } AS n "
            "ORDER BY n DESC LIMIT 3"
        )
    ]
    sizes = [
        r.values()
        for r in s.run("UNWIND $f AS f MATCH (c:Category {id:f}) RETURN f, COUNT { (c)<-[:IN_CATEGORY]-() }", f=fields)
    ]
    isizes = [
        r.values()
        for r in s.run(
            "UNWIND $f AS f MATCH (c:Institution {id:f}) RETURN f, COUNT { (c)<-[:STATES_AFFILIATION]-() }", f=insts
        )
    ]
print("fields", sizes, "insts", isizes)


def cur(where, dims, first=10):
    p = {**filter_params(where), "want": {x: x in dims for x in DIMENSIONS}, "order": "COUNT", "first": first}
    return run(q.FACETS, **p)


YEAR_REL = """
MATCH ()-[r:IN_CATEGORY]->() WHERE r.category = $c AND r.sort_cited IS NOT NULL AND r.sort_date IS NOT NULL
WITH CASE r.sort_date WHEN '' THEN null ELSE left(r.sort_date, 4) END AS key, count(*) AS n, sum(r.sort_cited) AS cited
RETURN key, n, cited ORDER BY n DESC"""
YEAR_NODE = """
MATCH (:Category {id: $c})<-[:IN_CATEGORY]-(p:Paper)
WITH p.year AS key, count(*) AS n, sum(p.sort_cited) AS cited
RETURN key, n, cited ORDER BY n DESC"""
INST_NODE = """
MATCH (:Category {id: $c})<-[:IN_CATEGORY]-(p:Paper)-[:STATES_AFFILIATION]->(i:Institution)
WITH i, count(*) AS n, sum(p.sort_cited) AS cited ORDER BY n DESC
WITH collect({i: i, n: n, cited: cited}) AS g
RETURN size(g) AS distinct, [x IN g[0..20] | {key: x.i.id, name: x.i.name, n: x.n, c: x.cited}] AS top"""
INST_REL = """
MATCH ()-[r:IN_CATEGORY]->() WHERE r.category = $c AND r.sort_cited IS NOT NULL AND r.sort_date IS NOT NULL
WITH startNode(r) AS p, r.sort_cited AS sc
MATCH (p)-[:STATES_AFFILIATION]->(i:Institution)
WITH i, count(*) AS n, sum(sc) AS cited ORDER BY n DESC
WITH collect({i: i, n: n, cited: cited}) AS g
RETURN size(g) AS distinct, [x IN g[0..20] | {key: x.i.id, name: x.i.name, n: x.n, c: x.cited}] AS top"""
COUNTRY_NODE = """
MATCH (:Institution {id: $i})<-[:STATES_AFFILIATION]-(p:Paper)-[:STATES_AFFILIATION]->(j:Institution)
WHERE j.country IS NOT NULL
WITH DISTINCT p, j.country AS key
WITH key, count(*) AS n, sum(p.sort_cited) AS cited
RETURN key, n, cited ORDER BY n DESC"""

shapes = []
for f in fields[:1]:
    shapes += [
        ("year·field cur", lambda f=f: cur(PaperFilter(categories=[f]), ["year"])),
        ("year·field node", lambda f=f: run(YEAR_NODE, c=f)),
        ("year·field rel", lambda f=f: run(YEAR_REL, c=f)),
        ("inst·field cur", lambda f=f: cur(PaperFilter(categories=[f]), ["institution"], 20)),
        ("inst·field node", lambda f=f: run(INST_NODE, c=f)),
        ("inst·field rel", lambda f=f: run(INST_REL, c=f)),
    ]
for i in insts[:1]:
    shapes += [
        ("country·inst cur", lambda i=i: cur(PaperFilter(institutions=[i]), ["country"])),
        ("country·inst node", lambda i=i: run(COUNTRY_NODE, i=i)),
    ]
times = {}
for r in range(rounds + 1):
    random.shuffle(shapes)
    for name, fn in shapes:
        ms, _ = fn()
        print(r, name, round(ms, 1), flush=True)
        if r:
            times.setdefault(name, []).append(ms)
for name in sorted(times):
    t = sorted(times[name])
    print(f"{name:20s} p50 {statistics.median(t):8.1f}  p95 {t[int(0.95 * (len(t) - 1))]:8.1f}  n {len(t)}")
