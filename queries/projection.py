"""How read statements project a node: every property but the ones only the writers keep.

`n {.*}` returns a node's properties, including each source's load time (`<source>_loaded_at`, a
DateTime: the costliest value the driver decodes, ~60 µs each, 19 of them in a researcher profile),
the writers' rank bookkeeping (`prop_ranks`) and papers' `category_ids` (for filters only). No read
returns them, so read statements pass through `lean`, which sets them to null in every `{.*}`
projection (Cypher's map projection has no way to drop a key). A node held in a map is projected as
`head([one IN [x.node] | one {.*}])`, since a projection needs a variable. The unit tests check that
`UNREAD` names every source of graph/sources.py.
"""

from typing import LiteralString

UNREAD: LiteralString = (
    "openalex_loaded_at: null, s2_loaded_at: null, arxiv_loaded_at: null, prop_ranks: null, category_ids: null"
)


def lean(statement: LiteralString) -> LiteralString:
    """`statement` with each `{.*}` map projection leaving out the properties no read uses."""
    return statement.replace("{.*}", "{.*, " + UNREAD + "}")
