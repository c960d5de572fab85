"""Per-field checks at load: types, ranges and lengths, in one table both load paths can read.

The rule (README, "Limits and failure behaviour"): obvious cases are coerced before a record is built
(`"2020"` in a number field becomes 2020, a number in a text field becomes its text); any other value of
a wrong type, a number out of its field's range, or a text longer than its cap rejects the whole record,
with file:line, field and value in the rejects. Nothing is truncated, so nothing stored is silently cut.
The byte limits bound the reader's memory (loaders/reader.py).
"""

from __future__ import annotations

import math
import re
from typing import Any, Final

from weft.loaders.rows import RecordRows, RejectedRecord

# The reader's bounds: a longer line is skipped unread, a larger single JSON document is not read.
MAX_LINE_BYTES: Final = 16 * 2**20
MAX_DOCUMENT_BYTES: Final = 256 * 2**20

# Numbers: a year, and every count, rank or position (GraphQL's Int is 32 bits).
YEAR_MIN: Final = 1000
YEAR_MAX: Final = 2100
MAX_INT: Final = 2**31 - 1

# Texts, in characters; lists, in items.
MAX_TITLE_CHARS: Final = 4_000
MAX_ABSTRACT_CHARS: Final = 100_000
MAX_NAME_CHARS: Final = 1_000
MAX_KEY_CHARS: Final = 1_000
MAX_TEXT_CHARS: Final = 4_000
MAX_LIST_ITEMS: Final = 10_000

# Caps of stored text properties by name; any other text property gets MAX_TEXT_CHARS.
TEXT_CAPS: Final[dict[str, int]] = {
    "title": MAX_TITLE_CHARS,
    "abstract": MAX_ABSTRACT_CHARS,
    "tldr": MAX_ABSTRACT_CHARS,
    "name": MAX_NAME_CHARS,
    "raw_name": MAX_NAME_CHARS,
    "name_key": MAX_NAME_CHARS,
    "alt_names": MAX_NAME_CHARS,
    "acronyms": MAX_NAME_CHARS,
}
_SHORTEST_CAP: Final = min(MAX_TEXT_CHARS, *TEXT_CAPS.values())
# Ranges of stored integer properties by name; any other integer property gets 0..MAX_INT.
INT_RANGES: Final[dict[str, tuple[int, int]]] = {"year": (YEAR_MIN, YEAR_MAX), "years": (YEAR_MIN, YEAR_MAX)}

# Top-level fields of raw records (all three sources) coerced before a record is built.
RAW_INT_FIELDS: Final = frozenset(
    "publication_year year cited_by_count citationCount citationcount works_count paperCount papercount "
    "hIndex hindex referenceCount referencecount influentialCitationCount influentialcitationcount "
    "referenced_works_count".split()
)
RAW_TEXT_FIELDS: Final = frozenset("title display_name name abstract".split())
_WHOLE_NUMBER = re.compile(r"\s*[+-]?[0-9]{1,18}\s*")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:60]}… ({len(text)} characters)"


def _as_int(name: str, value: Any) -> Any:
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and _WHOLE_NUMBER.fullmatch(value):
        return int(value)
    raise RejectedRecord(f"field {name} = {_shown(value)} is not a whole number")


def _as_text(name: str, value: Any) -> Any:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise RejectedRecord(f"field {name} = {_shown(value)} is not a text")


def coerce_record(record: Any) -> Any:
    """The raw record with its top-level number and text fields coerced (a copy when anything changed);
    RejectedRecord for a value that is neither its type nor an obvious form of it."""
    if not isinstance(record, dict):
        return record
    changed: dict[str, Any] = {}
    for name, value in record.items():  # pyright: ignore[reportUnknownVariableType]
        if name in RAW_INT_FIELDS:
            fixed = _as_int(name, value)
        elif name in RAW_TEXT_FIELDS:
            fixed = _as_text(name, value)
        else:
            continue
        if fixed is not value:
            changed[name] = fixed
    return {**record, **changed} if changed else record  # pyright: ignore[reportUnknownVariableType]


def _check_value(name: str, value: Any) -> None:
    """RejectedRecord when a stored value is out of its field's range or longer than its cap."""
    if isinstance(value, int) and not isinstance(value, bool):
        low, high = INT_RANGES.get(name, (0, MAX_INT))
        if not low <= value <= high:
            raise RejectedRecord(f"field {name} = {_shown(value)} is out of range ({low}..{high})")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise RejectedRecord(f"field {name} = {_shown(value)} is not a finite number")
    elif isinstance(value, str):
        cap = TEXT_CAPS.get(name, MAX_TEXT_CHARS)
        if len(value) > cap:
            raise RejectedRecord(f"field {name} = {_shown(value)} is longer than {cap} characters")
    elif isinstance(value, (list, tuple)):
        _check_list(name, list(value))  # pyright: ignore[reportUnknownArgumentType]


def _check_list(name: str, values: list[Any]) -> None:
    if len(values) > MAX_LIST_ITEMS:
        raise RejectedRecord(f"field {name} has {len(values)} items, more than {MAX_LIST_ITEMS}")
    for item in values:
        _check_value(name, item)


def check_fields(rows: RecordRows) -> None:
    """RejectedRecord unless every key, property and relationship property of the rows is within its limits."""
    for node in rows.nodes:
        for key, value in node.keys.items():
            if len(value) > MAX_KEY_CHARS:
                raise RejectedRecord(f"{node.label} id {key} = {_shown(value)} is longer than {MAX_KEY_CHARS}")
        for props in (node.props, node.source_props):
            for name, value in props.items():
                if not _plainly_fine(value):
                    _check_value(name, value)
    for rel in rows.rels:
        for name, value in rel.props.items():
            if not _plainly_fine(value):
                _check_value(name, value)


def _plainly_fine(value: Any) -> bool:
    """True for the values most properties hold and no field's limit can refuse: None, a bool, a text
    within the smallest cap (a load checks a few dozen values per record)."""
    return value is None or (type(value) is str and len(value) <= _SHORTEST_CAP) or type(value) is bool
