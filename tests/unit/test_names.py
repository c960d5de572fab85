"""Name handling on real strings: TeX decoding, name keys, compatibility, non-person records."""

from __future__ import annotations

import json
import re
import unicodedata

import pytest

from tests.conftest import shared_path
from weft.graph.identity.names import (
    clean_name,
    clean_whitespace,
    decode_tex,
    is_person_name,
    name_key,
    names_compatible,
    split_author_list,
    split_name,
)


def arxiv_records() -> list[dict]:
    with shared_path("arxiv", "arxiv-metadata-oai-snapshot.head200.jsonl").open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def openalex_results(*parts: str) -> list[dict]:
    return json.loads(shared_path("openalex", *parts).read_text(encoding="utf-8"))["results"]


@pytest.mark.parametrize(
    ("tex", "unicode"),
    [
        (r"C. Bal\'azs", "C. Balázs"),
        (r"P\'eter E. Frenkel", "Péter E. Frenkel"),
        (r"R. Tom\`as", "R. Tomàs"),
        (r"Mikkel {\O}bro", "Mikkel Øbro"),
        (
            r"Rastislav \v{S}r\'amek, Bro\v{n}a Brejov\'a, Tom\'a\v{s} Vina\v{r}",
            "Rastislav Šrámek, Broňa Brejová, Tomáš Vinař",
        ),
        (r"Franz G\"ahler", "Franz Gähler"),
        (r"{\"U}nz{\"u}le", "Ünzüle"),
        (r"Fran\c{c}ois", "François"),
        (r"Stra\ss e", "Straße"),
        (r"Stra{\ss}e", "Straße"),
        (r"Erd\H{o}s", "Erdős"),
        (r"\L{}ukasz", "Łukasz"),
        (r"Mu\~noz", "Muñoz"),
        (r"Ag\"uero--Garc\'{\i}a", "Agüero–García"),
        (r"1990---2000", "1990—2000"),
        (r"{Van} der Waals", "Van der Waals"),
        ("A.\n  Dall'Aglio", "A. Dall'Aglio"),
    ],
)
def test_decode_tex(tex: str, unicode: str) -> None:
    assert decode_tex(tex) == unicode


def test_decoded_arxiv_author_strings_hold_every_parsed_surname() -> None:
    """The TeX `authors` string, decoded, contains each surname of the (already decoded) `authors_parsed`."""
    records = arxiv_records()
    checked = escaped = 0
    for record in records:
        decoded = decode_tex(record["authors"])
        for last, *_ in record["authors_parsed"]:
            surname = unicodedata.normalize("NFC", clean_whitespace(last))
            assert surname in decoded, (record["id"], surname, decoded)
            checked += 1
            escaped += surname not in record["authors"]
    assert checked == sum(len(r["authors_parsed"]) for r in records) == 537
    assert escaped > 0  # the raw strings really hold TeX escapes that only decoding resolves


def test_split_author_list_matches_authors_parsed_on_every_arxiv_record() -> None:
    for record in arxiv_records():
        from_text = [split_name(n)[1] for n in split_author_list(record["authors"])]
        from_parsed = [split_name(f"{first} {last}")[1] for last, first, *_ in record["authors_parsed"]]
        assert from_text == from_parsed, record["id"]


def test_split_name_forms() -> None:
    assert split_name("Alan M. Turing") == (["alan", "m"], "turing")
    assert split_name("Turing, Alan") == (["alan"], "turing")
    assert split_name("C.-P. Yuan") == (["c", "p"], "yuan")
    assert split_name("J.P.Hague") == (["j", "p"], "hague")
    assert split_name("CF Tsai") == (["c", "f"], "tsai")
    assert split_name("Floris van der Tak") == (["floris"], "tak")
    assert split_name("John Smith Jr.") == (["john"], "smith")
    assert split_name("Y. Zhang") == (["y"], "zhang")


def test_name_key_case_accents_hyphens_initials() -> None:
    assert name_key("A. Turing") == name_key("Alan Turing") == name_key("Alan M. Turing") == "turing a"
    assert name_key("ROBERT C. MEARMAN") == name_key("R. C. MEARMAN") == "mearman r"
    assert name_key("Yasset Pérez\u2010Riverol") == name_key("Yasset Perez-Riverol") == "perez-riverol y"
    assert name_key("Vincent Larivière") == name_key("vincent lariviere")
    assert name_key("Michael Färber") == "farber m"
    assert name_key(r"C. Bal\'azs") == name_key("C. Balázs") == "balazs c"
    assert name_key("Hong\u2010Wei Wang") == name_key("Hongwei Wang") == "wang h"
    assert name_key("") == name_key(None) == ""


def test_real_same_name_pairs_share_a_key() -> None:
    """OpenAlex and S2 records that the README lists as one display name with several ids."""
    mearman = {a["display_name"]: a for a in openalex_results("authors", "search_mearman.json")}
    assert name_key("ROBERT C. MEARMAN") == name_key(mearman["R. C. MEARMAN"]["display_name"])
    for alt in mearman["Joseph Mearman"]["display_name_alternatives"]:
        assert name_key(alt) == "mearman j"
        assert names_compatible(alt, "Joseph Mearman")
    paper = json.loads(shared_path("semanticscholar", "graph_api", "Paper.json").read_text(encoding="utf-8"))
    turings = {
        a["authorId"]: a["name"]
        for p in (paper, *paper["citations"], *paper["references"])
        for a in p.get("authors") or []
        if a["name"] == "A. Turing"
    }
    assert {"2262347", "2079681794"} <= set(turings)
    assert {name_key(n) for n in turings.values()} == {"turing a"}


def test_names_compatible() -> None:
    assert names_compatible("A. Turing", "Alan Turing")
    assert names_compatible("Alan M. Turing", "Alan Turing")
    assert names_compatible("R. C. MEARMAN", "Robert C. Mearman")
    assert names_compatible("C.-P. Yuan", "Chuan-Peng Yuan")
    assert names_compatible("Hong\u2010Wei Wang", "Hongwei Wang")
    assert names_compatible("David H. Mearman", "D Mearman")
    assert not names_compatible("Andrew Mearman", "Joseph Mearman")
    assert not names_compatible("Alan Turing", "Andrew Turing")
    assert not names_compatible("A. Turing", "A. Turner")
    assert not names_compatible("R. C. Mearman", "R. D. Mearman")


def test_non_person_records_on_the_real_search_pages() -> None:
    names = [a["display_name"] for a in openalex_results("authors", "search_machine_learning.json")]
    names += [a["display_name"] for a in openalex_results("authors", "search_mearman.json")]
    flagged = sorted(n for n in names if not is_person_name(n))
    assert flagged == [
        "Downward and Mearman Tony Lawson",
        "Machine Learning",
        "Machine learning algorithms for healthcare",
        "UCI Machine Learning",
    ]


def test_non_person_heuristics() -> None:
    for junk in ("Iosr Journals", "The BABAR Collaboration", "R Core Team", "The Lancet", "", "_ _", "None &NA;"):
        assert not is_person_name(junk), junk
    for person in (
        "Ünzüle KELEŞ",
        "Letícia de Sá Fernandes Vallim da Silva",
        "A Boyle",
        "Quee-Lim Ch'ng",
        "Mikkel Øbro",
    ):
        assert is_person_name(person), person


def test_a_url_glued_to_a_real_s2_name_is_ignored() -> None:
    paper = json.loads(shared_path("semanticscholar", "graph_api", "Paper.json").read_text(encoding="utf-8"))
    glued = next(a["name"] for p in paper["citations"] for a in p["authors"] if "https://" in a["name"])
    assert glued == "Michal Kosinskihttps://www.semanticscholar.org/me/account"
    assert is_person_name(glued) and name_key(glued) == name_key("Michal Kosinski") == "kosinski m"
    assert clean_name(glued) == "Michal Kosinski" and clean_name(r"C. Bal\'azs") == "C. Balázs"


def test_every_arxiv_parsed_author_but_the_collaboration_is_a_person() -> None:
    flagged = [
        last
        for record in arxiv_records()
        for last, first, *_ in record["authors_parsed"]
        if not is_person_name(f"{first} {last}")
    ]
    assert flagged == ["The BABAR Collaboration"]


def test_clean_whitespace_takes_the_whitespace_of_the_regex_it_replaced() -> None:
    """Every code point: between two letters it becomes one space exactly when the regex `\\s` matches it,
    and at the ends it is trimmed exactly when it matches."""
    for point in range(0x110000):
        c = chr(point)
        assert clean_whitespace(f"a{c}{c}b") == re.sub(r"\s+", " ", f"a{c}{c}b").strip(), hex(point)
        assert clean_whitespace(f"{c}a{c}") == re.sub(r"\s+", " ", f"{c}a{c}").strip(), hex(point)
