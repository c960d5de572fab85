"""How read statements project a node: every property but the ones only the writers keep.

`n {.*}` returns a node's properties, including each source's load time (`<source>_loaded_at`, a
DateTime: the costliest value the driver decodes, ~60 µs each, 19 of them in a researcher profile),
the writers' rank bookkeeping (`prop_ranks`) and papers' `category_ids` (for filters only). No read
returns them, so read statements pass through `lean`, which sets them to null in every `{.*}`
projection (Cypher's map projection has no way to drop a key). A node held in a map is projected as
`head([one IN [x.node] | one {.*}])`, since a projection needs a variable. The unit tests check that
`UNREAD` names every source of graph/sources.py.

A page of nodes whose selection is known (`picked`) returns only the properties that selection reads, as
the list of their values in the order of a parameter naming them (graph/reads/page.py `unpicked` makes the
map again): a paper's abstract is most of its size, and a list asking titles need not carry it.
"""

from typing import LiteralString

UNREAD: LiteralString = (
    "openalex_loaded_at: null, s2_loaded_at: null, arxiv_loaded_at: null, prop_ranks: null, category_ids: null"
)


def lean(statement: LiteralString) -> LiteralString:
    """`statement` with each `{.*}` map projection leaving out the properties no read uses."""
    return statement.replace("{.*}", "{.*, " + UNREAD + "}")


def picked(node: LiteralString, props: LiteralString, *extras: tuple[LiteralString, LiteralString]) -> LiteralString:
    """`node`'s values of the properties the list `props` names (a parameter such as `$papers.props`), in
    that order, then the value of each (key, expression) of `extras`; its `lean` map of every property, with
    the extras as keys, when `props` is null (a selection the caller cannot read)."""
    keyed: LiteralString = "".join(", " + key + ": " + expression for key, expression in extras)
    listed: LiteralString = "".join(" + [" + expression + "]" for _, expression in extras)
    return (
        "CASE WHEN "
        + props
        + " IS NULL THEN "
        + node
        + " {.*, "
        + UNREAD
        + keyed
        + "} ELSE [k IN "
        + props
        + " | "
        + node
        + "[k]]"
        + listed
        + " END"
    )
