"""Read queries for full-text search and autocomplete over the paper, researcher, institution indexes."""

from typing import LiteralString

# One page of hits, best first, fusing rankings by reciprocal rank fusion (RRF): each hit scores
# sum(1 / ($rrf_k + rank)) over the rankings it is in (rank from 1).
#  * keyword: the full-text indexes in $indexes (empty: no keyword ranking) queried with $any (any word;
#    the best $cap per index) and $all (every word); hits with every word first, then by Lucene score;
#    junk (non-person) researcher records left out.
#  * every word (only when there is a semantic ranking): the keyword hits that have every word, in keyword
#    order. A hit with all the query's words is the strongest lexical evidence there is; counted once, it
#    loses to papers that both other rankings place mid-list (a title search would miss its own paper).
#  * semantic: of the $k papers whose vectors are nearest to $vector (null: no semantic ranking), those whose
#    cosine reaches $floor, by cosine recomputed from the stored vectors (the index's own scores are approximate:
#    it quantises the vectors).
# Known item (only when $title is not null): papers whose title equals the query $title once both are
# normalised (lower case, every character but a letter or digit a space, words compared) come before all
# others, in fused order among themselves (title_match; they add nothing to the score). Candidates are the
# best $title_cap hits of the paper index for the phrase $title_phrase in the title field: an exact title
# is the shortest that holds the phrase, so it scores at the top.
# Papers in any ranking must pass the filter ($year_from, $year_to, $categories; null: no filter).
# total counts every hit of the fused list: the keyword hits and the semantic hits above $floor, each once.
# Returns total, page [{kind, score, keyword_score, semantic_score, all_terms, title_match, node}].
SEARCH_PAGE: LiteralString = """
CALL () {
  UNWIND $indexes AS index_name
  CALL db.index.fulltext.queryNodes(index_name, $any, {limit: $cap}) YIELD node, score
  RETURN index_name, node, score, 0 AS tier
  UNION ALL
  UNWIND $indexes AS index_name
  CALL db.index.fulltext.queryNodes(index_name, $all, {limit: $cap}) YIELD node, score
  RETURN index_name, node, score, 1 AS tier
}
WITH index_name, node, max(score) AS score, max(tier) AS tier
WHERE CASE index_name
  WHEN 'researcher_text' THEN coalesce(node.is_person, true)
  WHEN 'paper_text' THEN ($year_from IS NULL OR node.year >= $year_from) AND ($year_to IS NULL OR node.year <= $year_to)
    AND ($categories IS NULL OR EXISTS { MATCH (node)-[:IN_CATEGORY]->(c:Category) WHERE c.id IN $categories })
  ELSE true END
WITH index_name, node, score, tier ORDER BY tier DESC, score DESC, node.id
WITH collect({kind: index_name, node: node, score: score, all_terms: tier = 1}) AS keyword
CALL () {
  WITH $vector AS vector WHERE vector IS NOT NULL
  CALL db.index.vector.queryNodes('paper_vector', $k, vector) YIELD node
  MATCH (p:Paper {id: node.paper_id})-[:EMBEDDED_AS]->(node)
  WHERE ($year_from IS NULL OR p.year >= $year_from) AND ($year_to IS NULL OR p.year <= $year_to)
    AND ($categories IS NULL OR EXISTS { MATCH (p)-[:IN_CATEGORY]->(c:Category) WHERE c.id IN $categories })
  WITH p, max(2 * vector.similarity.cosine(node.vector, vector) - 1) AS cosine
  WHERE cosine >= $floor
  WITH p, cosine ORDER BY cosine DESC, p.id
  RETURN collect({node: p, cosine: cosine}) AS semantic
}
CALL () {
  WITH $title AS title WHERE title IS NOT NULL
  WITH [w IN split(reduce(s = '', c IN split(toLower(title), '') |
         s + CASE WHEN c =~ '[\\p{L}\\p{N}]' THEN c ELSE ' ' END), ' ') WHERE w <> ''] AS wanted
  CALL db.index.fulltext.queryNodes('paper_text', $title_phrase, {limit: $title_cap}) YIELD node
  WITH node, wanted
  WHERE [w IN split(reduce(s = '', c IN split(toLower(node.title), '') |
          s + CASE WHEN c =~ '[\\p{L}\\p{N}]' THEN c ELSE ' ' END), ' ') WHERE w <> ''] = wanted
    AND ($year_from IS NULL OR node.year >= $year_from) AND ($year_to IS NULL OR node.year <= $year_to)
    AND ($categories IS NULL OR EXISTS { MATCH (node)-[:IN_CATEGORY]->(c:Category) WHERE c.id IN $categories })
  RETURN collect(node) AS titled
}
WITH keyword, semantic, titled,
     CASE WHEN $vector IS NULL THEN [] ELSE [x IN keyword WHERE x.all_terms] END AS every_word
UNWIND [i IN range(0, size(keyword) - 1) | {kind: keyword[i].kind, node: keyword[i].node, rank: i + 1,
          keyword_score: keyword[i].score, all_terms: keyword[i].all_terms}]
     + [i IN range(0, size(every_word) - 1) | {kind: every_word[i].kind, node: every_word[i].node, rank: i + 1}]
     + [i IN range(0, size(semantic) - 1) | {kind: 'paper_text', node: semantic[i].node, rank: i + 1,
          semantic_score: semantic[i].cosine}]
     + [t IN titled | {kind: 'paper_text', node: t, title_match: true}] AS hit
WITH hit.kind AS kind, hit.node AS node, sum(1.0 / ($rrf_k + hit.rank)) AS score,
     max(hit.keyword_score) AS keyword_score, max(hit.semantic_score) AS semantic_score,
     collect(hit.all_terms)[0] AS all_terms, coalesce(max(hit.title_match), false) AS title_match
ORDER BY title_match DESC, score DESC, node.id
WITH collect({kind: kind, node: node, score: score, keyword_score: keyword_score, semantic_score: semantic_score,
              all_terms: all_terms, title_match: title_match}) AS found
RETURN size(found) AS total,
       [x IN found[$skip..$end] | {kind: x.kind, score: x.score, keyword_score: x.keyword_score,
        semantic_score: x.semantic_score, all_terms: x.all_terms,
        title_match: CASE WHEN $title IS NOT NULL AND x.kind = 'paper_text' THEN x.title_match END,
        node: properties(x.node)}] AS page
"""

# Up to $limit completions for the escaped prefix query $query across $indexes: kind, id, label, score.
AUTOCOMPLETE: LiteralString = """
UNWIND $indexes AS index_name
CALL db.index.fulltext.queryNodes(index_name, $query, {limit: $limit}) YIELD node, score
WITH index_name, node, score
WHERE index_name <> 'researcher_text' OR coalesce(node.is_person, true)
RETURN index_name AS kind, node.id AS id, coalesce(node.title, node.name) AS label, score
ORDER BY score DESC, label LIMIT $limit
"""
