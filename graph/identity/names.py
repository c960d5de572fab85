"""Person names: TeX escapes to Unicode, a normalised `name_key`, compatibility, non-person records.

Pure functions shared by every loader (arXiv TeX names, S2 initials, OpenAlex display names) and by
same-name linking. The rule, in one place:

* `name_key(name)` is `"<surname> <first initial>"` (or just `"<surname>"` when no given name), all
  lowercase, accents stripped, every hyphen variant (U+2010 … U+2015, U+2212, ASCII) written `-`,
  particles (`van`, `de`, …) and suffixes (`Jr.`, `III`) dropped, "Last, First" swapped.
  "A. Turing", "Alan Turing" and "Alan M. Turing" all give `"turing a"`.
* `names_compatible(a, b)` is the stricter test: same surname and given names that agree token by
  token where both have one, an initial matching a full name ("A." ~ "Alan"), extra middle names allowed.
* `is_person_name(name)` flags junk author records ("Machine Learning", "Iosr Journals",
  "Downward and Mearman Tony Lawson"); flagged records are kept but not shown as people.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# TeX accent commands -> Unicode combining marks.
_TEX_ACCENTS = {
    "'": "\u0301",  # acute
    "`": "\u0300",  # grave
    "^": "\u0302",  # circumflex
    '"': "\u0308",  # diaeresis
    "~": "\u0303",  # tilde
    "=": "\u0304",  # macron
    ".": "\u0307",  # dot above
    "u": "\u0306",  # breve
    "v": "\u030c",  # caron
    "H": "\u030b",  # double acute
    "r": "\u030a",  # ring above
    "c": "\u0327",  # cedilla
    "k": "\u0328",  # ogonek
    "d": "\u0323",  # dot below
    "b": "\u0331",  # macron below
    "t": "\u0361",  # tie
}
# TeX letter macros -> Unicode letters.
_TEX_LETTERS = {
    "ss": "ß",
    "ae": "æ",
    "AE": "Æ",
    "oe": "œ",
    "OE": "Œ",
    "aa": "å",
    "AA": "Å",
    "o": "ø",
    "O": "Ø",
    "l": "ł",
    "L": "Ł",
    "i": "ı",
    "j": "ȷ",
    "&": "&",
}
# `\'a`, `\'{a}`, `\' a`, `\'\i`, `\'{\i}` (symbol accents take a letter directly).
_SYMBOL_ACCENT = re.compile(r"""\\(['`^"~=.])\s*(?:\{\s*(\\[ij]|[A-Za-z])\s*\}|(\\[ij])(?![A-Za-z])|([A-Za-z]))""")
# `\c{c}`, `\v{s}`, `\v s`, `\H{o}` (letter accents need braces or a space).
_LETTER_ACCENT = re.compile(r"\\([uvHrckdbt])(?:\s*\{\s*(\\[ij]|[A-Za-z]{1,2})\s*\}|\s+([A-Za-z]))")
_LETTER_MACRO = re.compile(r"\\(ss|ae|AE|oe|OE|aa|AA|o|O|l|L|i|j)(?![A-Za-z])(?:\s*\{\})?\s?|\\(&)")

HYPHENS = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_HYPHEN_TABLE = str.maketrans({h: "-" for h in HYPHENS} | {"\u00ad": None})
# Letters NFKD does not decompose into base + mark.
_FOLD_TABLE = str.maketrans(
    {
        "ø": "o",
        "Ø": "o",
        "ł": "l",
        "Ł": "l",
        "đ": "d",
        "Đ": "d",
        "ß": "ss",
        "æ": "ae",
        "Æ": "ae",
        "œ": "oe",
        "Œ": "oe",
        "þ": "th",
        "Þ": "th",
        "ð": "d",
        "Ð": "d",
        "ı": "i",
        "ȷ": "j",
    }
)

_URL = re.compile(r"(?:https?://|www\.)\S*", re.IGNORECASE)

PARTICLES = frozenset(
    {
        "van",
        "von",
        "der",
        "den",
        "de",
        "del",
        "della",
        "di",
        "da",
        "dos",
        "das",
        "du",
        "la",
        "le",
        "ter",
        "ten",
        "bin",
        "ibn",
        "al",
        "el",
        "st",
        "y",
    }
)
SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv", "phd"})


def _accent(base: str, mark: str) -> str:
    """One decoded accented letter; `\\i`/`\\j` under an accent are plain i/j."""
    base = {"\\i": "i", "\\j": "j"}.get(base, base)
    return unicodedata.normalize("NFC", base[0] + mark + base[1:])


def decode_tex(text: str | None) -> str:
    """Unicode from TeX-escaped text: accents, letter macros, `--`/`---`, `~`, braces, spacing.

    >>> decode_tex(r"C. Bal\\'azs and {\\O}bro, Bro\\v{n}a Fran\\c{c}ois Stra\\ss e")
    'C. Balázs and Øbro, Broňa François Straße'
    """
    if not text:
        return ""
    out = _SYMBOL_ACCENT.sub(lambda m: _accent(m.group(2) or m.group(3) or m.group(4), _TEX_ACCENTS[m.group(1)]), text)
    out = _LETTER_ACCENT.sub(lambda m: _accent(m.group(2) or m.group(3), _TEX_ACCENTS[m.group(1)]), out)
    out = _LETTER_MACRO.sub(lambda m: _TEX_LETTERS[m.group(1) or m.group(2)], out)
    out = out.replace("---", "\u2014").replace("--", "\u2013")
    out = re.sub(r"(?<!\\)~", " ", out)
    out = re.sub(r"(?<!\\)[{}]", "", out)
    return clean_whitespace(unicodedata.normalize("NFC", out))


def clean_whitespace(text: str | None) -> str:
    """One line: hard line breaks and runs of spaces become single spaces, ends trimmed (str.split's
    whitespace is the regex `\\s` of str patterns, character for character; it runs on every title and name
    a load reads)."""
    return " ".join(text.split()) if text else ""


@lru_cache(maxsize=1 << 16)
def clean_name(text: str | None) -> str:
    """A display name as shown: TeX decoded, URLs glued to it dropped, one line.

    >>> clean_name("Michal Kosinskihttps://www.semanticscholar.org/me/account")
    'Michal Kosinski'
    """
    text = text or ""
    return clean_whitespace(_URL.sub(" ", decode_tex(text) if "\\" in text else text))


@lru_cache(maxsize=1 << 16)
def fold(text: str) -> str:
    """Lowercase ASCII-ish comparison form: accents stripped, hyphen variants as `-`."""
    if text.isascii():
        return text.lower()
    text = unicodedata.normalize("NFKD", text.translate(_HYPHEN_TABLE).translate(_FOLD_TABLE))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.translate(_FOLD_TABLE).casefold()


def split_name(name: str) -> tuple[list[str], str]:
    """`(given tokens, surname)` in comparison form; initials as single letters.

    "Last, First" is swapped; particles and trailing suffixes are dropped; "C.-P." and "D.A." give two
    initials; a 2–3 letter all-caps token before the surname in a mixed-case name ("CF Tsai") is initials.

    >>> split_name("Alan M. Turing"), split_name("Turing, A.")
    ((['alan', 'm'], 'turing'), (['a'], 'turing'))
    """
    raw = clean_whitespace(_URL.sub(" ", decode_tex(name) if "\\" in name else name)).translate(_HYPHEN_TABLE)
    raw = raw.replace("\u2019", "'").replace("`", "'")
    raw = re.sub(r"(?<![^\W\d_])([^\W\d_])\.(?=[^\W\d_])", r"\1. ", raw)  # "J.P.Hague" -> "J. P. Hague"
    if "," in raw:
        head, _, tail = raw.partition(",")
        tail = tail.strip()
        raw = head if not tail or fold(tail.strip(".")) in SUFFIXES else f"{tail} {head.strip()}"
    tokens = [t for t in raw.split() if t.strip(".-'")]
    while len(tokens) > 1 and fold(tokens[-1].strip(".")) in SUFFIXES:
        tokens.pop()
    all_caps = raw.upper() == raw
    parsed: list[list[tuple[str, bool]]] = []  # per token: [(folded word, is_initial)]
    for at, token in enumerate(tokens):
        bare = token.strip(".")
        if not all_caps and at < len(tokens) - 1 and 2 <= len(bare) <= 3 and bare.isalpha() and bare.isupper():
            parsed.append([(fold(ch), True) for ch in bare])
            continue
        parts = [p for p in re.split(r"[.-]+", token) if p.strip("'")]
        parsed.append([(fold(p), len(p) == 1 or (token.endswith(".") and len(p) <= 3)) for p in parts])
    if not parsed:
        return [], ""
    # The surname is the last token that is not initials, kept whole ("perez-riverol");
    # given names are the other tokens' words, initials as one letter, particles dropped.
    surname_at = max((k for k, words in enumerate(parsed) if not all(i for _, i in words)), default=len(parsed) - 1)
    surname = "-".join(w for w, _ in parsed[surname_at])
    given = [
        w[0] if initial else w
        for k, words in enumerate(parsed)
        if k != surname_at
        for w, initial in words
        if initial or w not in PARTICLES
    ]
    return given, surname


@lru_cache(maxsize=1 << 16)
def name_key(name: str | None) -> str:
    """The same-name key: `"<surname> <first initial>"`, e.g. "A. Turing" -> `"turing a"`; "" if none.

    >>> name_key("Yasset Pérez\u2010Riverol") == name_key("yasset perez-riverol")
    True
    """
    if not name:
        return ""
    given, surname = split_name(name)
    if not surname:
        return ""
    return f"{surname} {given[0][0]}" if given else surname


@lru_cache(maxsize=1 << 18)
def _split_cached(name: str) -> tuple[tuple[str, ...], str]:
    """split_name, remembered: a same-name group of n people compares each name n - 1 times. The bulk
    transform's pairs hold 217,071 distinct names at 1M works, met in no useful order: at 2^16 entries
    nearly every comparison split both names again (the UDF over 743,399 distinct pairs: 10.2 s, at 2^18 5.3 s)."""
    given, surname = split_name(name)
    return tuple(given), surname


def names_compatible(a: str, b: str) -> bool:
    """Whether two names can be one person: same surname, given names agreeing where both have one.

    >>> names_compatible("A. Turing", "Alan Turing"), names_compatible("Alan Turing", "Andrew Turing")
    (True, False)
    """
    given_a, surname_a = _split_cached(a)
    given_b, surname_b = _split_cached(b)
    if not surname_a or surname_a != surname_b:
        return False
    if "".join(given_a) == "".join(given_b):
        return True
    for x, y in zip(given_a, given_b, strict=False):
        if x == y or (len(x) == 1 and y.startswith(x)) or (len(y) == 1 and x.startswith(y)):
            continue
        return False
    return True


# Words that do not occur in personal names but do in junk author records.
_NON_PERSON_WORDS = frozenset(
    {
        "machine",
        "learning",
        "algorithm",
        "algorithms",
        "journal",
        "journals",
        "university",
        "universidad",
        "universite",
        "institute",
        "institut",
        "laboratory",
        "laboratories",
        "department",
        "society",
        "association",
        "consortium",
        "collaboration",
        "committee",
        "group",
        "team",
        "project",
        "network",
        "networks",
        "intelligence",
        "artificial",
        "research",
        "science",
        "sciences",
        "center",
        "centre",
        "foundation",
        "corporation",
        "company",
        "inc",
        "ltd",
        "llc",
        "gmbh",
        "press",
        "editors",
        "editorial",
        "anonymous",
        "unknown",
        "healthcare",
        "data",
        "analysis",
        "systems",
        "technology",
        "engineering",
        "proceedings",
        "conference",
        "workshop",
        "symposium",
        "ministry",
        "office",
        "agency",
        "program",
        "programme",
        "hospital",
        "school",
        "college",
        "council",
        "organization",
        "organisation",
    }
)
# Lowercase function words that join phrases, never a personal name.
_FUNCTION_WORDS = frozenset({"and", "for", "of", "the", "in", "on", "with", "from", "to", "at", "by", "&"})


@lru_cache(maxsize=1 << 16)
def is_person_name(name: str | None) -> bool:
    """False for obvious non-person author records: phrases, organisations, joined names, digits.

    >>> [is_person_name(n) for n in ("Machine Learning", "Downward and Mearman Tony Lawson", "Ünzüle KELEŞ")]
    [False, False, True]
    """
    text = clean_whitespace(_URL.sub(" ", name or ""))  # "Michal Kosinskihttps://…" is Michal Kosinski
    if not text or re.search(r"[0-9@/:;|]", text):
        return False
    words = [fold(w) for w in re.findall(r"[^\s,.()]+", text)]
    if not words or len([w for w in words if w not in PARTICLES]) > 5:
        return False
    if any(w.strip("-'") in _NON_PERSON_WORDS for w in words):
        return False
    if any(w in _FUNCTION_WORDS for w in words):
        return False
    return any(ch.isalpha() for ch in text)


def split_author_list(text: str | None) -> list[str]:
    """Names from a free-text author list ("A, B and C (Affil)"): TeX decoded, affiliations dropped.

    >>> split_author_list(r"Peter Brommer and Franz G\\"ahler (Institut f\\"ur Physik)")
    ['Peter Brommer', 'Franz Gähler']
    """
    decoded = decode_tex(text)
    previous = None
    while previous != decoded:  # innermost parentheses first, so nested groups go too
        previous, decoded = decoded, re.sub(r"\([^()]*\)", " ", decoded)
    decoded = re.sub(r",?\s*\bet\s+al\b\.?", "", decoded)
    parts = re.split(r",|;|\band\b|&", decoded)
    return [clean_whitespace(p) for p in parts if clean_whitespace(p)]
