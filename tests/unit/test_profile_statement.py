"""A researcher profile's statement holds the subqueries of the parts a request asks, and only those."""

from __future__ import annotations

from weft.graph.reads.researchers import CoauthorsPart, PapersPart, ProfileParts
from weft.queries.read_researchers import PROFILE_PARTS, RESEARCHER_PROFILE, researcher_profile

EVERY_PART = ProfileParts(
    stats=True,
    positions=True,
    most_cited=True,
    institutions=True,
    same_name=True,
    fields=("field", 3),
    papers=PapersPart("NEWEST", 0, 5),
    coauthors=CoauthorsPart(1, "WEIGHT", 0, 5),
)


def test_every_part_is_named_as_the_statement_names_it() -> None:
    assert EVERY_PART.names() == PROFILE_PARTS
    assert researcher_profile(EVERY_PART.names()) == RESEARCHER_PROFILE
    assert ProfileParts().names() == frozenset()


def test_a_part_not_asked_is_not_in_the_statement() -> None:
    parts = ProfileParts(papers=PapersPart("NEWEST", 0, 24), coauthors=CoauthorsPart(1, "WEIGHT", 0, 10))
    text = researcher_profile(parts.names())
    assert "$papers IS NOT NULL" in text and "$coauthors IS NOT NULL" in text
    for absent in ("$want.stats", "$want.positions", "$fields", "$want.most_cited", "$want.institutions"):
        assert absent not in text, absent
    assert text.count("OPTIONAL CALL (r)") == 2
    returned = text[text.rindex("RETURN r {") :]
    assert "null AS stats" in returned and "null AS same_name" in returned and returned.endswith("papers, coauthors\n")
    bare = researcher_profile(frozenset())
    assert "OPTIONAL CALL" not in bare and researcher_profile(frozenset()) is bare  # kept once made
