"""What search accepts as its text (pure: no server): a lone surrogate is bad input, not a crash (issue 48)."""

from __future__ import annotations

import json

import pytest

from weft.graph.errors import InvalidInput
from weft.graph.reads.search import check_text


@pytest.mark.parametrize("text", ["\udfff", "malaria \ud800", json.loads('"vaccine \\udfff trial"')])
def test_a_lone_surrogate_is_bad_input_naming_the_argument(text: str) -> None:
    with pytest.raises(InvalidInput, match="lone surrogate") as raised:
        check_text(text, "query")
    assert raised.value.argument == "query"


@pytest.mark.parametrize("text", ["malaria", "疟疾 耐药性", "🦠 malaria 💊", json.loads('"\\ud83e\\udda0 pair"')])
def test_text_in_any_script_passes(text: str) -> None:
    check_text(text, "query")
