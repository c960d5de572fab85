"""Read queries for full-text search and autocomplete over the paper, researcher, institution indexes."""

from typing import LiteralString

# One page of hits across the full-text indexes in $indexes for the escaped Lucene $query, best first;
# junk (non-person) researcher records left out: total, page [{kind, score, node}].
SEARCH_PAGE: LiteralString = """
UNWIND $indexes AS index_name
CALL db.index.fulltext.queryNodes(index_name, $query) YIELD node, score
WITH index_name, node, score
WHERE index_name <> 'researcher_text' OR coalesce(node.is_person, true)
WITH index_name, node, score ORDER BY score DESC, node.id
WITH collect({kind: index_name, node: node, score: score}) AS found
RETURN size(found) AS total,
       [x IN found[$skip..$end] | {kind: x.kind, score: x.score, node: properties(x.node)}] AS page
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
