from weft.graph.reads.code_names import country_name, language_name


def test_countries_by_common_name() -> None:
    assert country_name("KR") == "South Korea" and country_name("de") == "Germany"


def test_languages() -> None:
    assert language_name("de") == "German" and language_name("EN") == "English"


def test_unknown_codes_stay_as_given() -> None:
    assert country_name("XX") == "XX" and country_name("") == "" and language_name("zzz") == "zzz"
