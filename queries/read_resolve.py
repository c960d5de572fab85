"""Batch id resolution (`resolve`): one statement per kind of node, each reading every id of that kind at once.

$keys holds one list per key property (`{id: [{at, value}], doi: […], …, alias: […]}`; `at` is the input's
position): each list is an UNWIND of index seeks. The ids no direct key found and that may be aliases (an
internal id, an OpenAlex id's internal id: graph/identity/lookup.py) are then looked up among the nodes'
`aliases` through each label's alias index (queries/aliases.py), only when such ids are left. Returns found
([{at, node}]) and merged ([{at, node}]).
"""

from typing import LiteralString

from weft.queries.aliases import by_alias
from weft.queries.projection import lean


def _aliases(label: LiteralString) -> LiteralString:
    return lean(
        """
WITH collect({at: k.at, property: k.property, node: n {.*}}) AS found
CALL (found) {
  UNWIND [k IN $keys.alias WHERE NOT k.at IN [f IN found | f.at]] AS k
  """
        + by_alias(label, "k.value")
        + """  RETURN collect({at: k.at, node: n {.*}}) AS merged
}
RETURN found, merged
"""
    )


RESOLVE_PAPERS: LiteralString = """
CALL () {
  UNWIND $keys.id AS k MATCH (n:Paper {id: k.value}) RETURN k, n
  UNION ALL UNWIND $keys.doi AS k MATCH (n:Paper {doi: k.value}) RETURN k, n
  UNION ALL UNWIND $keys.arxiv_id AS k MATCH (n:Paper {arxiv_id: k.value}) RETURN k, n
  UNION ALL UNWIND $keys.openalex_id AS k MATCH (n:Paper {openalex_id: k.value}) RETURN k, n
  UNION ALL UNWIND $keys.s2_id AS k MATCH (n:Paper {s2_id: k.value}) RETURN k, n
  UNION ALL UNWIND $keys.corpus_id AS k MATCH (n:Paper) WHERE n.corpus_id IN [k.value, toString(k.value)] RETURN k, n
  UNION ALL UNWIND $keys.mag_id AS k MATCH (n:Paper) WHERE n.mag_id IN [k.value, toString(k.value)] RETURN k, n
  UNION ALL UNWIND $keys.pmid AS k MATCH (n:Paper) WHERE n.pmid IN [k.value, toString(k.value)] RETURN k, n
}""" + _aliases("Paper")

RESOLVE_RESEARCHERS: LiteralString = """
CALL () {
  UNWIND $keys.id AS k MATCH (n:Researcher {id: k.value}) RETURN k, n
  UNION ALL UNWIND $keys.openalex_id AS k MATCH (n:Researcher {openalex_id: k.value}) RETURN k, n
  UNION ALL UNWIND $keys.orcid AS k MATCH (n:Researcher {orcid: k.value}) RETURN k, n
  UNION ALL UNWIND $keys.s2_id AS k MATCH (n:Researcher) WHERE n.s2_id IN [k.value, toInteger(k.value)] RETURN k, n
}""" + _aliases("Researcher")

RESOLVE_INSTITUTIONS: LiteralString = """
CALL () {
  UNWIND $keys.id AS k MATCH (n:Institution {id: k.value}) RETURN k, n
  UNION ALL UNWIND $keys.ror AS k MATCH (n:Institution {ror: k.value}) RETURN k, n
  UNION ALL UNWIND $keys.openalex_id AS k MATCH (n:Institution {openalex_id: k.value}) RETURN k, n
}""" + _aliases("Institution")

# The key properties each statement reads from $keys (every list is passed, empty when unused).
RESOLVE_KEYS: dict[str, tuple[str, ...]] = {
    "Paper": ("id", "doi", "arxiv_id", "openalex_id", "s2_id", "corpus_id", "mag_id", "pmid", "alias"),
    "Researcher": ("id", "openalex_id", "orcid", "s2_id", "alias"),
    "Institution": ("id", "ror", "openalex_id", "alias"),
}
RESOLVE: dict[str, LiteralString] = {
    "Paper": RESOLVE_PAPERS,
    "Researcher": RESOLVE_RESEARCHERS,
    "Institution": RESOLVE_INSTITUTIONS,
}
