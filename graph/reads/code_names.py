"""Display names of the ISO codes sources give: countries (ISO 3166-1 alpha-2) and languages (ISO 639-1)."""

from __future__ import annotations

from functools import cache
from typing import Any, cast

import pycountry


@cache
def country_name(code: str) -> str:
    """The common English name of an ISO 3166-1 alpha-2 code ('KR' -> 'South Korea'); the code itself when unknown."""
    country = pycountry.countries.get(alpha_2=code.upper()) if len(code) == 2 else None
    if country is None:
        return code
    return str(getattr(country, "common_name", None) or country.name)


@cache
def language_name(code: str) -> str:
    """The English name of an ISO 639-1 code ('de' -> 'German'); the code itself when unknown."""
    languages = cast(Any, pycountry.languages)  # typed partly: its records' fields come from the ISO data
    language = languages.get(alpha_2=code.lower()) if len(code) == 2 else None
    return code if language is None else str(language.name)
