"""Cypher for whole-graph analytics in Neo4j Graph Data Science (graph/analytics/gds.py runs them).

The co-authorship graph is projected once into GDS's in-memory catalog under a per-run name ($graph),
each algorithm adds its scores to the projection (`mutate`), one read returns every researcher's
scores, and the projection is dropped. Algorithm settings come in as a `$config` map.
"""

from typing import LiteralString

# The GDS library's version; fails (unknown function) when the server has no GDS.
GDS_VERSION: LiteralString = "RETURN gds.version() AS version"

# Projects every researcher and the COAUTHORED_WITH ties, undirected (one tie per pair is stored, so
# each becomes one undirected relationship), weighted by shared papers (1 where a weight is missing).
PROJECT_COAUTHORS: LiteralString = """
CALL gds.graph.project(
  $graph,
  'Researcher',
  {COAUTHORED_WITH: {orientation: 'UNDIRECTED', properties: {weight: {property: 'weight', defaultValue: 1.0}}}},
  {readConcurrency: $concurrency}
)
YIELD nodeCount, relationshipCount
RETURN nodeCount AS researchers, relationshipCount / 2 AS ties
"""

# Adds weighted PageRank to the projection as `page_rank` (scaled to sum to 1, as networkx does).
PAGE_RANK: LiteralString = """
CALL gds.pageRank.mutate($graph, $config)
YIELD ranIterations, didConverge
RETURN ranIterations AS iterations, didConverge AS converged
"""

# Adds weighted Louvain communities as `community` (GDS's own ids; graph/analytics/gds.py renumbers).
LOUVAIN: LiteralString = """
CALL gds.louvain.mutate($graph, $config)
YIELD communityCount, modularity
RETURN communityCount AS communities, modularity
"""

# Adds weakly connected components as `component` (GDS's own ids; renumbered like communities).
COMPONENTS: LiteralString = """
CALL gds.wcc.mutate($graph, $config)
YIELD componentCount
RETURN componentCount AS components
"""

# Adds each researcher's number of co-authors as `degree`.
DEGREE: LiteralString = """
CALL gds.degree.mutate($graph, $config)
YIELD nodePropertiesWritten
RETURN nodePropertiesWritten AS written
"""

# Adds (sampled above a size) betweenness as `betweenness`, unnormalised.
BETWEENNESS: LiteralString = """
CALL gds.betweenness.mutate($graph, $config)
YIELD nodePropertiesWritten
RETURN nodePropertiesWritten AS written
"""

# Every researcher's scores from the projection, one row each, streamed (no aggregation on the server).
SCORES: LiteralString = """
CALL gds.graph.nodeProperty.stream($graph, 'page_rank')
YIELD nodeId, propertyValue
RETURN gds.util.asNode(nodeId).id AS id,
       propertyValue AS page_rank,
       gds.util.nodeProperty($graph, nodeId, 'community') AS community,
       gds.util.nodeProperty($graph, nodeId, 'component') AS component,
       gds.util.nodeProperty($graph, nodeId, 'degree') AS degree,
       gds.util.nodeProperty($graph, nodeId, 'betweenness') AS betweenness
"""

# Drops the projection (no error when it is already gone).
DROP_GRAPH: LiteralString = """
CALL gds.graph.drop($graph, false)
YIELD graphName
RETURN graphName
"""
