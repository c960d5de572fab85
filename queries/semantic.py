"""Papers' sentence vectors: writing them (`weft embed`), similar papers and similar researchers.

A vector lives on its own `(:PaperVector {paper_id, vector, model, text_hash})` node linked by
`(:Paper)-[:EMBEDDED_AS]->`, not on the Paper: every read that returns a paper's properties would
otherwise carry 384 floats. The vector index `paper_vector` (queries/admin.py) is cosine; its scores are
(1 + cosine) / 2, turned back into the cosine here (`2 * score - 1`).
"""

from typing import LiteralString

VECTOR_INDEX: LiteralString = "paper_vector"

# One page of papers (keyset by id, after $after) with their text and what their vector was made from:
# [{id, title, abstract, text_hash, model}] (text_hash/model null without a vector).
EMBED_SCAN: LiteralString = """
MATCH (p:Paper) WHERE p.id > $after
WITH p ORDER BY p.id LIMIT $limit
OPTIONAL MATCH (p)-[:EMBEDDED_AS]->(v:PaperVector {paper_id: p.id})
RETURN p.id AS id, p.title AS title, p.abstract AS abstract, v.text_hash AS text_hash, v.model AS model
"""

# Stores $rows = [{id, vector, text_hash}] made by $model: one PaperVector per paper, replaced in place.
WRITE_VECTORS: LiteralString = """
UNWIND $rows AS row
MATCH (p:Paper {id: row.id})
MERGE (v:PaperVector {paper_id: row.id})
MERGE (p)-[:EMBEDDED_AS]->(v)
SET v.model = $model, v.text_hash = row.text_hash
WITH v, row
CALL db.create.setNodeVectorProperty(v, 'vector', row.vector)
"""

# Deletes the vectors of the papers $ids (their text is gone): a paper with no text has no vector.
DROP_VECTORS: LiteralString = """
UNWIND $ids AS id
MATCH (v:PaperVector {paper_id: id})
DETACH DELETE v
"""

# Deletes vectors whose paper is gone or merged into another (the merge moved the link): returns removed.
DROP_ORPHAN_VECTORS: LiteralString = """
MATCH (v:PaperVector)
WHERE NOT EXISTS { MATCH (:Paper {id: v.paper_id})-[:EMBEDDED_AS]->(v) }
DETACH DELETE v
RETURN count(*) AS removed
"""

# How many papers have a vector, of how many: {papers, embedded}.
EMBED_COUNTS: LiteralString = """
MATCH (p:Paper)
RETURN count(p) AS papers, count { MATCH (v:PaperVector) } AS embedded
"""

# The model that made paper $id's vector, or no row when it has none.
PAPER_VECTOR_MODEL: LiteralString = """
MATCH (:Paper {id: $id})-[:EMBEDDED_AS]->(v:PaperVector {paper_id: $id})
RETURN v.model AS model
"""

# Up to $limit papers nearest to paper $id (itself left out), best first: one row {has_vector, similar}
# with similar = [{paper, score}] (score the cosine, recomputed from the stored vectors: the index's scores are
# approximate); no row when no paper has the id.
SIMILAR_PAPERS: LiteralString = """
MATCH (src:Paper {id: $id})
OPTIONAL MATCH (src)-[:EMBEDDED_AS]->(v:PaperVector {paper_id: $id})
CALL (v) {
  WITH v WHERE v IS NOT NULL
  CALL db.index.vector.queryNodes('paper_vector', $k, v.vector) YIELD node
  MATCH (p:Paper {id: node.paper_id})-[:EMBEDDED_AS]->(node)
  WHERE p.id <> $id
  WITH p, 2 * vector.similarity.cosine(node.vector, v.vector) - 1 AS score ORDER BY score DESC, p.id LIMIT $limit
  RETURN collect({paper: properties(p), score: score}) AS similar
}
RETURN v IS NOT NULL AS has_vector, similar
"""

# Researchers whose papers are about what researcher $id's are about, best first: the candidates are the
# (person) authors of the $k papers nearest to the centroid of $id's paper vectors; each is scored by the
# cosine of the two centroids. With $exclude_coauthors, anyone who ever wrote a paper with $id is left
# out. One row {papers, similar}: papers = how many of $id's papers have a vector (0: no centroid),
# similar = [{researcher, score, shared}] where shared = the candidate's papers among the $k nearest.
SIMILAR_RESEARCHERS: LiteralString = """
MATCH (r:Researcher {id: $id})
OPTIONAL MATCH (r)-[:AUTHORED]->(:Paper)-[:EMBEDDED_AS]->(v:PaperVector)
WITH r, [x IN collect(DISTINCT v) | x.vector] AS vectors
WITH r, size(vectors) AS papers,
     reduce(acc = [i IN range(0, 383) | 0.0], x IN vectors | [i IN range(0, 383) | acc[i] + x[i]]) AS centroid
CALL (r, papers, centroid) {
  WITH r, centroid WHERE papers > 0
  CALL db.index.vector.queryNodes('paper_vector', $k, centroid) YIELD node
  MATCH (other:Researcher)-[:AUTHORED]->(:Paper {id: node.paper_id})
  WHERE other <> r AND coalesce(other.is_person, true)
    AND NOT ($exclude_coauthors AND EXISTS { MATCH (r)-[:AUTHORED]->(:Paper)<-[:AUTHORED]-(other) })
  WITH r, centroid, other, count(DISTINCT node) AS shared
  MATCH (other)-[:AUTHORED]->(:Paper)-[:EMBEDDED_AS]->(w:PaperVector)
  WITH centroid, other, shared, [x IN collect(DISTINCT w) | x.vector] AS theirs
  WITH other, shared, vector.similarity.cosine(centroid,
       reduce(acc = [i IN range(0, 383) | 0.0], x IN theirs | [i IN range(0, 383) | acc[i] + x[i]])) AS score
  WITH other, shared, 2 * score - 1 AS score ORDER BY score DESC, other.id LIMIT $limit
  RETURN collect({researcher: properties(other), score: score, shared: shared}) AS similar
}
RETURN papers, similar
"""

# The $k papers nearest to the unit vector $vector: [{id, score}] (score the cosine), best first (bench/semantic.py
# times it beside the query's embedding).
NEAREST_PAPERS: LiteralString = """
CALL db.index.vector.queryNodes('paper_vector', $k, $vector) YIELD node, score
RETURN node.paper_id AS id, 2 * score - 1 AS score
"""

# Every paper with its OpenAlex id, title, abstract, whether it has one, and its primary categories at the subfield
# level (OpenAlex: the primary topic's subfield) or its primary arXiv category:
# [{id, openalex_id, title, abstract, has_abstract, categories}].
EVAL_PAPERS: LiteralString = """
MATCH (p:Paper)
RETURN p.id AS id, p.openalex_id AS openalex_id, p.title AS title, p.abstract AS abstract,
       trim(coalesce(p.abstract, '')) <> '' AS has_abstract,
       [(p)-[r:IN_CATEGORY]->(c:Category) WHERE r.primary AND c.scheme IN ['subfield', 'arxiv'] | c.id] AS categories
ORDER BY id
"""

# Every paper's stored vector: [{id, vector}] (bench/semantic_variants.py compares other embedded texts with it).
STORED_VECTORS: LiteralString = """
MATCH (p:Paper)-[:EMBEDDED_AS]->(v:PaperVector)
RETURN p.id AS id, v.vector AS vector
"""
