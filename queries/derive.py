"""Cypher recomputing derived relationships for the nodes a load touched (never incremented).

Each statement takes `$ids`, a chunk of internal ids, and is run in its own write transaction;
derived edges are first deleted then rebuilt from loaded data, so rerunning converges. A
COAUTHORED_WITH edge is stored from the smaller id with `pair: "<smaller id> <larger id>"`, so each
`MERGE` of a pair is one seek in the `coauthored_pair` constraint's index (graph/MODEL.md "Pair edges").
"""

from typing import LiteralString


def pair_key(a: LiteralString, b: LiteralString) -> LiteralString:
    """Cypher for the `pair` key of the COAUTHORED_WITH tie between the researcher ids `a` and `b`, given in
    either order: the smaller id, a space, the larger (graph/MODEL.md "Pair edges"); for a seek by that key."""
    return "CASE WHEN " + a + " < " + b + " THEN " + a + " + ' ' + " + b + " ELSE " + b + " + ' ' + " + a + " END"


# Drops the COAUTHORED_WITH edges of the given researchers that BUILD_COAUTHORED would not leave:
# pairs no longer sharing a paper of at most $max_authors authors, and edges stored from the larger id
# to the smaller or keyed with other ids than their ends' (an id changed). The edges that stay are
# updated in place by BUILD_COAUTHORED (a reload rewrites nothing). Returns {partner}: every co-author
# (through a paper of at most $max_authors authors, counted from the degree store) of the given
# researchers who is not one of them.
CLEAR_COAUTHORED: LiteralString = """
UNWIND $ids AS rid
MATCH (a:Researcher {id: rid})
USING INDEX a:Researcher(id)
WITH a, COLLECT { MATCH (a)-[:AUTHORED]->(p:Paper) WHERE COUNT { (p)<-[:AUTHORED]-() } <= $max_authors
                  MATCH (p)<-[:AUTHORED]-(b:Researcher) WHERE b <> a
                  RETURN DISTINCT b.id } AS partners
CALL (a, partners) {
  MATCH (a)-[c:COAUTHORED_WITH]-(b)
  WHERE NOT b.id IN partners OR startNode(c).id >= endNode(c).id
     OR coalesce(c.pair <> startNode(c).id + ' ' + endNode(c).id, true)
  DELETE c
}
UNWIND partners AS partner
WITH DISTINCT partner WHERE NOT partner IN $ids
RETURN partner
"""

# Rebuilds COAUTHORED_WITH {weight: shared papers, first_year, last_year} for every pair with at
# least one given researcher, counting only papers of at most $max_authors authors (graph/MODEL.md
# "Pair edges"), stored from the smaller id to the larger, except pairs with a co-author in $done
# (computed already, by an earlier chunk); a pair of two given researchers is computed once (from its
# smaller id); returns nothing.
BUILD_COAUTHORED: LiteralString = """
UNWIND $ids AS rid
MATCH (a:Researcher {id: rid})-[:AUTHORED]->(p:Paper)
USING INDEX a:Researcher(id)
WHERE COUNT { (p)<-[:AUTHORED]-() } <= $max_authors
MATCH (p)<-[:AUTHORED]-(b:Researcher)
WHERE a <> b AND (a.id < b.id OR NOT b.id IN $ids) AND NOT b.id IN $done
WITH a, b, count(DISTINCT p) AS weight, min(p.year) AS first_year, max(p.year) AS last_year
WITH CASE WHEN a.id < b.id THEN a ELSE b END AS x, CASE WHEN a.id < b.id THEN b ELSE a END AS y,
     weight, first_year, last_year
MERGE (x)-[c:COAUTHORED_WITH {pair: x.id + ' ' + y.id}]->(y)
SET c.weight = weight, c.first_year = first_year, c.last_year = last_year
"""

# Pair-level recounting (a load touching a few papers of many prolific researchers): the authors of
# each given paper, {paper, large, authors: [{id, papers}]} with each author's paper count: `large`
# when it has more than $max_authors authors (then `authors` is empty: such a paper makes no pairs,
# but may have made some before it grew).
PAPER_AUTHOR_LISTS: LiteralString = """
UNWIND $ids AS pid
MATCH (p:Paper {id: pid})
WITH p, COUNT { (p)<-[:AUTHORED]-() } AS authors
RETURN p.id AS paper, authors > $max_authors AS large,
       CASE WHEN authors > $max_authors THEN []
            ELSE COLLECT { MATCH (p)<-[:AUTHORED]-(r:Researcher)
                           RETURN {id: r.id, papers: COUNT { (r)-[:AUTHORED]->() }} } END AS authors
"""

# Recounts COAUTHORED_WITH {weight, first_year, last_year} of the pairs of each row {id, partners}
# (partners: researcher ids), walking the papers of at most $max_authors authors of row.id once;
# each pair is stored from the smaller id. Every pair shares a paper, so none loses its edge here.
# Returns nothing.
RECOUNT_PARTNERS: LiteralString = """
UNWIND $rows AS row
MATCH (x:Researcher {id: row.id})-[:AUTHORED]->(p:Paper)
WHERE COUNT { (p)<-[:AUTHORED]-() } <= $max_authors
MATCH (p)<-[:AUTHORED]-(y:Researcher)
WHERE y.id IN row.partners
WITH x, y, count(p) AS weight, min(p.year) AS first_year, max(p.year) AS last_year
WITH CASE WHEN x.id < y.id THEN x ELSE y END AS a, CASE WHEN x.id < y.id THEN y ELSE x END AS b,
     weight, first_year, last_year
MERGE (a)-[c:COAUTHORED_WITH {pair: a.id + ' ' + b.id}]->(b)
SET c.weight = weight, c.first_year = first_year, c.last_year = last_year
"""

# The years of the edge `r` widened to the new papers' `first_year` and `last_year` (nulls ignored),
# ending the SET of ADD_NEW_PAPER_PAIRS and ADD_NEW_PAPER_AFFILIATIONS.
_WIDEN_YEARS: LiteralString = """\
    r.first_year = CASE WHEN first_year IS NULL THEN r.first_year
                        WHEN r.first_year IS NULL OR first_year < r.first_year THEN first_year
                        ELSE r.first_year END,
    r.last_year = CASE WHEN last_year IS NULL THEN r.last_year
                       WHEN r.last_year IS NULL OR last_year > r.last_year THEN last_year
                       ELSE r.last_year END
"""

# Adds the given papers, new in this load, to the COAUTHORED_WITH edges of their author pairs (papers
# of at most $max_authors authors; pairs with a researcher in $skip, a map {id: true}, are recomputed
# whole elsewhere): weight plus the papers the pair shares among them, years widened. A paper new in the load was never
# counted, so this is exact; a rerun after an interruption finds the papers no longer new and recounts
# their pairs whole (RECOUNT_PARTNERS), which undoes any double count. Returns nothing.
ADD_NEW_PAPER_PAIRS: LiteralString = (
    """
UNWIND $ids AS pid
MATCH (p:Paper {id: pid})
WHERE COUNT { (p)<-[:AUTHORED]-() } <= $max_authors
MATCH (p)<-[:AUTHORED]-(a:Researcher)
MATCH (p)<-[:AUTHORED]-(b:Researcher)
WHERE a.id < b.id AND $skip[a.id] IS NULL AND $skip[b.id] IS NULL
WITH a, b, count(p) AS papers, min(p.year) AS first_year, max(p.year) AS last_year
MERGE (a)-[r:COAUTHORED_WITH {pair: a.id + ' ' + b.id}]->(b)
SET r.weight = coalesce(r.weight, 0) + papers,
"""
    + _WIDEN_YEARS
)

# The COAUTHORED_WITH pairs among the authors of each given (large) paper, {a, b}: the pairs it may
# have counted before it grew past $max_authors, whose weight must be recounted without it.
LINKED_AUTHOR_PAIRS: LiteralString = """
UNWIND $ids AS pid
MATCH (p:Paper {id: pid})<-[:AUTHORED]-(a:Researcher)-[:COAUTHORED_WITH]->(b:Researcher)
WHERE EXISTS { (b)-[:AUTHORED]->(p) }
RETURN DISTINCT a.id AS a, b.id AS b
"""

# Recounts COAUTHORED_WITH {weight, first_year, last_year} of each pair {a, b} (a.id < b.id) from the
# papers of at most $max_authors authors both wrote, walking the papers of the one with fewer; a pair
# left with none loses its edge (the linked pairs of a paper that grew large). Returns nothing.
RECOUNT_COAUTHORED: LiteralString = """
UNWIND $pairs AS pair
MATCH (a:Researcher {id: pair.a}), (b:Researcher {id: pair.b})
WITH a, b, CASE WHEN COUNT { (a)-[:AUTHORED]->() } <= COUNT { (b)-[:AUTHORED]->() } THEN [a, b] ELSE [b, a] END AS ends
CALL (ends) {
  WITH ends[0] AS x, ends[1] AS y
  MATCH (x)-[:AUTHORED]->(p:Paper)
  WHERE EXISTS { (p)<-[:AUTHORED]-(y) } AND COUNT { (p)<-[:AUTHORED]-() } <= $max_authors
  RETURN count(p) AS weight, min(p.year) AS first_year, max(p.year) AS last_year
}
CALL (a, b, weight) {
  WITH * WHERE weight = 0
  MATCH ()-[c:COAUTHORED_WITH {pair: a.id + ' ' + b.id}]->()
  DELETE c
}
CALL (a, b, weight, first_year, last_year) {
  WITH * WHERE weight > 0
  MERGE (a)-[c:COAUTHORED_WITH {pair: a.id + ' ' + b.id}]->(b)
  SET c.weight = weight, c.first_year = first_year, c.last_year = last_year
}
"""

# TOP_TIE (graph/MODEL.md "Network backbone"): a researcher with more than $k co-authors has an edge to
# each of its $k heaviest (weight descending, then id), copying the tie's weight and years; a network
# reaches past a researcher only through these. Refreshes each row {id, partners}: with `partners` null
# the researcher's ties are all read (some may have lost weight: moved, recounted), else only its TOP_TIE
# edges and its ties to `partners` (its co-authors on papers new in this load: when ties only gain, no
# other tie can enter its heaviest $k; one with fewer than $k TOP_TIE edges is read whole). Old and new
# lists are compared whole first (both in heaviest-first order), so an unchanged researcher writes nothing
# and costs no edge-by-edge comparison; a researcher with at most $k co-authors loses any. The edges read
# are the ones deleted or updated, and an entrant's edge is created: no lookup between the two researchers
# (a walk of their relationships on a large graph). Returns nothing.
REFRESH_TOP_TIES: LiteralString = (
    """
UNWIND $rows AS row
MATCH (r:Researcher {id: row.id})
WITH r, row, COUNT { (r)-[:COAUTHORED_WITH]-() } AS degree,
     COLLECT { MATCH (r)-[t:TOP_TIE]->(n)
               RETURN {n: n, t: t, weight: t.weight, first_year: t.first_year, last_year: t.last_year}
               ORDER BY t.weight DESC, n.id } AS old
WITH r, row, old, degree > $k AND (row.partners IS NULL OR size(old) < $k) AS whole,
     degree > $k AND row.partners IS NOT NULL AND size(old) >= $k AS patched
CALL (r, row, old, whole, patched) {
  CALL (r, row, old, whole, patched) {
    WITH r WHERE whole
    MATCH (r)-[c:COAUTHORED_WITH]-(n:Researcher)
    RETURN n, c.weight AS weight, c.first_year AS first_year, c.last_year AS last_year
  UNION ALL
    WITH old WHERE patched
    UNWIND old AS t
    RETURN t.n AS n, t.weight AS weight, t.first_year AS first_year, t.last_year AS last_year
  UNION ALL
    WITH r, row WHERE patched
    UNWIND row.partners AS pid
    WITH r, """
    + pair_key("r.id", "pid")
    + """ AS key
    MATCH ()-[c:COAUTHORED_WITH {pair: key}]->()
    USING INDEX SEEK c:COAUTHORED_WITH(pair)
    RETURN CASE WHEN startNode(c) = r THEN endNode(c) ELSE startNode(c) END AS n,
           c.weight AS weight, c.first_year AS first_year, c.last_year AS last_year
  }
  WITH n, max(weight) AS weight, min(first_year) AS first_year, max(last_year) AS last_year
  ORDER BY weight DESC, n.id
  LIMIT $k
  RETURN collect({n: n, weight: weight, first_year: first_year, last_year: last_year}) AS top
}
WITH r, top, old, [x IN top | [x.n, x.weight, coalesce(x.first_year, 0), coalesce(x.last_year, 0)]] AS now,
     [o IN old | [o.n, o.weight, coalesce(o.first_year, 0), coalesce(o.last_year, 0)]] AS was
WHERE now <> was
CALL (old, now) {
  WITH old, [x IN now | x[0]] AS kept
  UNWIND [o IN old WHERE NOT o.n IN kept | o.t] AS t
  DELETE t
}
CALL (r, top, now, was, old) {
  UNWIND range(0, size(top) - 1) AS i
  WITH r, top[i] AS x, now[i] AS key, was, old WHERE NOT key IN was
  WITH r, x, x.n AS n, [o IN old WHERE o.n = x.n | o.t][0] AS t
  CALL (x, t) {
    WITH * WHERE t IS NOT NULL
    SET t.weight = x.weight, t.first_year = x.first_year, t.last_year = x.last_year
  }
  CALL (r, n, x, t) {
    WITH * WHERE t IS NULL
    CREATE (r)-[made:TOP_TIE]->(n)
    SET made.weight = x.weight, made.first_year = x.first_year, made.last_year = x.last_year
  }
}
"""
)

# Adds the given papers, new in this load, to their authors' AFFILIATED_WITH edges (the institutions
# each authorship states; authors in $skip, a map {id: true}, are rebuilt whole elsewhere): papers plus the new papers
# stating it, years widened. Exact for the reason ADD_NEW_PAPER_PAIRS is. Returns nothing.
ADD_NEW_PAPER_AFFILIATIONS: LiteralString = (
    """
UNWIND $ids AS pid
MATCH (p:Paper {id: pid})<-[au:AUTHORED]-(a:Researcher)
WHERE $skip[a.id] IS NULL
UNWIND coalesce(au.institution_ids, []) AS iid
WITH a, iid, count(DISTINCT p) AS papers, min(p.year) AS first_year, max(p.year) AS last_year
MATCH (i:Institution {id: iid})
MERGE (a)-[r:AFFILIATED_WITH]->(i)
SET r.papers = coalesce(r.papers, 0) + papers,
"""
    + _WIDEN_YEARS
)

# The authors of the given papers: {id}.
PAPER_AUTHORS: LiteralString = """
UNWIND $ids AS pid
MATCH (:Paper {id: pid})<-[:AUTHORED]-(r:Researcher)
RETURN DISTINCT r.id AS id
"""

# Drops every AFFILIATED_WITH edge of the given researchers, for BUILD_AFFILIATED (same transaction) to create
# afresh: a MERGE per affiliation searched the researcher's edges once per institution, affiliations squared
# for a prolific researcher (thousands of institutions); delete and create is linear. Returns nothing.
CLEAR_AFFILIATED: LiteralString = """
UNWIND $ids AS rid
MATCH (a:Researcher {id: rid})-[r:AFFILIATED_WITH]->()
USING INDEX a:Researcher(id)
DELETE r
"""

# Builds AFFILIATED_WITH {first_year, last_year, papers} (after CLEAR_AFFILIATED) from the institutions stated
# on each researcher's authorships (papers, their years) and the affiliations an author profile lists
# (its years); returns nothing.
BUILD_AFFILIATED: LiteralString = """
UNWIND $ids AS rid
MATCH (a:Researcher {id: rid})
CALL (a) {
  MATCH (a)-[au:AUTHORED]->(p:Paper)
  UNWIND coalesce(au.institution_ids, []) AS iid
  RETURN iid, p.year AS year, p.id AS pid
  UNION ALL
  MATCH (a)-[l:LISTED_AFFILIATION]->(i:Institution)
  UNWIND CASE WHEN size(coalesce(l.years, [])) = 0 THEN [null] ELSE l.years END AS year
  RETURN i.id AS iid, year, null AS pid
}
WITH a, iid, min(year) AS first_year, max(year) AS last_year, count(DISTINCT pid) AS papers
MATCH (i:Institution {id: iid})
CREATE (a)-[r:AFFILIATED_WITH]->(i)
SET r.first_year = first_year, r.last_year = last_year, r.papers = papers
"""

# Rebuilds STATES_AFFILIATION {authors} of the given papers: the institutions their authorships state
# (AUTHORED.institution_ids, institutions that exist), with how many authors state each; what the
# paper no longer states goes. Returns nothing.
CLEAR_STATED: LiteralString = """
UNWIND $ids AS pid
MATCH (p:Paper {id: pid})-[s:STATES_AFFILIATION]->()
DELETE s
"""
BUILD_STATED: LiteralString = """
UNWIND $ids AS pid
MATCH (p:Paper {id: pid})<-[au:AUTHORED]-(r:Researcher)
UNWIND coalesce(au.institution_ids, []) AS iid
WITH p, iid, count(DISTINCT r) AS authors
MATCH (i:Institution {id: iid})
CREATE (p)-[:STATES_AFFILIATION {authors: authors}]->(i)
"""

# The `category_ids` of the paper `p` (graph/MODEL.md "Sort keys"): the ids of the categories it is
# IN_CATEGORY of, sorted. An expression: SET_CATEGORY_IDS and admin.BACKFILL_CATEGORY_IDS both use it.
CATEGORY_IDS_OF_P: LiteralString = "COLLECT { MATCH (p)-[:IN_CATEGORY]->(c:Category) RETURN c.id AS id ORDER BY id }"

# The keys an IN_CATEGORY edge `r` from `p` to `c` carries (graph/MODEL.md "Sort keys"): the category's id
# and the paper's sort keys, which the relationship index `in_category_sort_cited` orders one category's
# papers by. A SET clause's items: SET_CATEGORY_IDS, admin.BACKFILL_SORT_KEYS and
# admin.BACKFILL_IN_CATEGORY_KEYS use it.
IN_CATEGORY_KEYS_OF_R: LiteralString = "r.category = c.id, r.sort_cited = p.sort_cited, r.sort_date = p.sort_date"

# Sets `category_ids` of the given papers (removed when a paper has none) and the keys of their
# IN_CATEGORY edges. Returns nothing.
SET_CATEGORY_IDS: LiteralString = (
    """
UNWIND $ids AS pid
MATCH (p:Paper {id: pid})
WITH p, """
    + CATEGORY_IDS_OF_P
    + """ AS ids
SET p.category_ids = CASE WHEN size(ids) = 0 THEN null ELSE ids END
WITH p
MATCH (p)-[r:IN_CATEGORY]->(c:Category)
SET """
    + IN_CATEGORY_KEYS_OF_R
    + "\n"
)

# Drops the CITES edges leaving the given papers that BUILD_CITES_OUT would not make (no reference of
# the paper names the cited one, or a paper citing itself); the others stay; returns nothing.
CLEAR_CITES_OUT: LiteralString = """
UNWIND $ids AS pid
MATCH (p:Paper {id: pid})-[c:CITES]->(q)
USING INDEX p:Paper(id)
WHERE p = q OR NOT q:Paper OR NOT EXISTS {
  MATCH (p)-[:REFERENCES]->(f:Ref)
  WHERE f.doi = q.doi OR f.arxiv_id = q.arxiv_id OR f.openalex_id = q.openalex_id OR f.s2_id = q.s2_id
     OR f.corpus_id = q.corpus_id OR f.mag_id = q.mag_id OR f.pmid = q.pmid }
DELETE c
"""

# CITES from each given paper to every loaded paper one of its references names; returns nothing. A
# paper with no CITES yet (a new one) gets them created: a MERGE would look for each edge among the
# paper's relationships, one walk of them per cited paper. One with some has the missing ones merged.
BUILD_CITES_OUT: LiteralString = """
UNWIND $ids AS pid
MATCH (p:Paper {id: pid})-[:REFERENCES]->(f:Ref)
CALL (f) {
  MATCH (q:Paper {doi: f.doi}) RETURN q
  UNION MATCH (q:Paper {arxiv_id: f.arxiv_id}) RETURN q
  UNION MATCH (q:Paper {openalex_id: f.openalex_id}) RETURN q
  UNION MATCH (q:Paper {s2_id: f.s2_id}) RETURN q
  UNION MATCH (q:Paper {corpus_id: f.corpus_id}) RETURN q
  UNION MATCH (q:Paper {mag_id: f.mag_id}) RETURN q
  UNION MATCH (q:Paper {pmid: f.pmid}) RETURN q
}
WITH DISTINCT p, q WHERE p <> q
WITH p, collect(q) AS cited
WITH p, cited, EXISTS { (p)-[:CITES]->() } AS citing
CALL (p, cited, citing) {
  WITH * WHERE NOT citing
  UNWIND cited AS q
  CREATE (p)-[:CITES]->(q)
}
CALL (p, cited, citing) {
  WITH * WHERE citing
  UNWIND cited AS q
  MERGE (p)-[:CITES]->(q)
}
"""

# CITES to each given paper from every loaded paper whose references name one of its keys
# (a cited paper arriving after the citing one); returns nothing.
BUILD_CITES_IN: LiteralString = """
UNWIND $ids AS qid
MATCH (q:Paper {id: qid})
CALL (q) {
  MATCH (f:Ref {doi: q.doi}) RETURN f
  UNION MATCH (f:Ref {arxiv_id: q.arxiv_id}) RETURN f
  UNION MATCH (f:Ref {openalex_id: q.openalex_id}) RETURN f
  UNION MATCH (f:Ref {s2_id: q.s2_id}) RETURN f
  UNION MATCH (f:Ref {corpus_id: q.corpus_id}) RETURN f
  UNION MATCH (f:Ref {mag_id: q.mag_id}) RETURN f
  UNION MATCH (f:Ref {pmid: q.pmid}) RETURN f
}
MATCH (p:Paper)-[:REFERENCES]->(f)
WITH DISTINCT p, q WHERE p <> q
MERGE (p)-[:CITES]->(q)
"""

# Marks that the graph changed (analytics caches key on it); returns the new data_version.
BUMP_DATA_VERSION: LiteralString = """
MERGE (m:Meta {key: 'graph'})
SET m.data_version = coalesce(m.data_version, 0) + 1, m.loaded_at = datetime()
RETURN m.data_version AS data_version
"""

# The name keys of the given researchers that have no SAME_NAME_AS link: new, renamed (the upsert drops a
# renamed researcher's links, load_nodes.UPSERT_RESEARCHERS), merged into (MERGE_RESEARCHERS), or with no
# compatible namesake yet; their buckets are the ones a load may change. Returns {name_key}.
UNLINKED_NAME_KEYS: LiteralString = """
UNWIND $ids AS rid
MATCH (r:Researcher {id: rid})
WHERE r.name_key IS NOT NULL AND r.name_key <> '' AND NOT EXISTS { (r)-[:SAME_NAME_AS]-() }
RETURN DISTINCT r.name_key AS name_key
"""

# The people (is_person, a name) in each given same-name bucket, at most $cap + 1 per bucket (one
# more than a linked bucket may hold, so a bucket too large to link is never read whole), each with
# its number of SAME_NAME_AS edges (the degree store answers it); one row per bucket:
# {name_key, people: [{id, name, links}]}.
NAME_BUCKETS: LiteralString = """
UNWIND $keys AS key
CALL (key) {
  MATCH (r:Researcher {name_key: key})
  WHERE coalesce(r.is_person, true) AND r.name IS NOT NULL AND r.name <> ''
  RETURN r LIMIT $cap + 1
}
WITH key, collect({id: r.id, name: r.name, links: COUNT { (r)-[:SAME_NAME_AS]-() }}) AS people
RETURN key AS name_key, people
"""

# Drops every SAME_NAME_AS edge in the given buckets (grown past the limit, so no longer linked); it
# reads each bucket's members from the name_key index; returns nothing.
CLEAR_SAME_NAME_BUCKETS: LiteralString = """
UNWIND $keys AS key
MATCH (:Researcher {name_key: key})-[s:SAME_NAME_AS]-()
DELETE s
"""

# Links each row {a, b} (a < b) as same-name candidates; the link holds nothing: what supports it is
# counted when it is read (read_researchers.SAME_NAME_EVIDENCE). Returns nothing.
WRITE_SAME_NAME: LiteralString = """
UNWIND $rows AS row
MATCH (a:Researcher {id: row.a}), (b:Researcher {id: row.b})
MERGE (a)-[:SAME_NAME_AS]->(b)
"""
