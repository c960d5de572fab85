"""Network analytics the networkx way: one algorithm family per module.

- `communities`: Louvain communities, seeded so the same graph gives the same partition.
- `centrality`: degree, betweenness and PageRank centrality.
- `components`: connected components.
- `structure`: whole-network summary statistics (density, clustering, counts).

Every function takes an undirected `networkx.Graph` whose edges may carry a `weight`, and is pure:
same graph (same node and edge insertion order) in, same answer out. They are generic in the node
type `N` (ids are strings in weft's graphs; the doctests use whatever is shortest).
"""
