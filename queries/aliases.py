r"""Finding a node by a retired id kept in its `aliases` list (a merged or re-keyed node's old ids) through a
full-text index per label over that list, not a label scan.

The indexes (queries/admin.py, ALIAS_INDEXES) use Lucene's `keyword` analyzer: each alias is one term, as
written. A value is asked as one quoted phrase with `\` and `"` escaped (so no id, however spelled, is read as
query syntax), and each node found is kept only when the value is exactly among its aliases.
"""

from typing import LiteralString

INDEX: dict[LiteralString, LiteralString] = {
    "Paper": "paper_aliases",
    "Researcher": "researcher_aliases",
    "Institution": "institution_aliases",
}
"""Each label's alias index."""


def term(value: LiteralString) -> LiteralString:
    """The Lucene query for exactly the string `value` (a Cypher expression): one escaped, quoted phrase."""
    return r"""'"' + replace(replace(""" + value + r""", '\\', '\\\\'), '"', '\\"') + '"'"""


def by_alias(label: LiteralString, value: LiteralString, node: LiteralString = "n") -> LiteralString:
    """Cypher binding `node` to each `label` node that holds the string `value` (an expression) among its
    aliases: an index query, then the exact test."""
    return (
        "CALL db.index.fulltext.queryNodes('"
        + INDEX[label]
        + "', "
        + term(value)
        + ") YIELD node AS "
        + node
        + "\nWITH * WHERE "
        + value
        + " IN "
        + node
        + ".aliases\n"
    )
