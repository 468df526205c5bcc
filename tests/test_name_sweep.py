"""The person rules' tune harness (tools/name_sweep.py): it reads every tune
locale's lists, and only theirs, into carriers with one name slot each."""

from __future__ import annotations

from tools.name_sweep import CARRIERS, tune_names
from tools.third_party_corpus import (
    MIMESIS_REPORT_LOCALES,
    MIMESIS_TUNE_LOCALES,
    TUNE_LOCALES,
)


def test_every_tune_locale_and_no_report_locale_gives_names():
    pairs = list(tune_names(limit=2))
    sources = {source for source, _first, _last in pairs}
    assert sources == {f"mimesis {loc}" for loc in MIMESIS_TUNE_LOCALES} | {
        f"faker {loc}" for loc in TUNE_LOCALES
    }
    assert not sources & {f"mimesis {loc}" for loc in MIMESIS_REPORT_LOCALES}
    assert all(first and last for _source, first, last in pairs)
    assert len(pairs) == 2 * len(sources)


def test_every_carrier_has_one_slot_and_there_are_at_least_twelve():
    assert len(CARRIERS) >= 12
    assert all(c == "JSON" or c.count("{}") == 1 for c in CARRIERS)


def test_the_private_source_is_no_split_s_and_writes_latin_letters():
    # ``--private``: Faker locales no split fills, its names romanized or
    # transliterated, in carriers none of ``CARRIERS`` is.
    from tools.name_sweep import PRIVATE_CARRIERS, PRIVATE_SOURCES, private_names, transliterated
    from tools.third_party_corpus import (
        FAR_TUNE_LOCALES,
        HELD_OUT_LOCALES,
        LOCALES,
        UNTOUCHED_LOCALES,
    )

    split_locales = {*LOCALES, *HELD_OUT_LOCALES, *TUNE_LOCALES, *UNTOUCHED_LOCALES,
                     *FAR_TUNE_LOCALES}  # fmt: skip
    assert not {locale for _source, locale, _lists in PRIVATE_SOURCES} & split_locales
    pairs = list(private_names(3))
    assert len(pairs) == 3 * len(PRIVATE_SOURCES)
    assert all(
        (first + last).replace("-", "").replace("ʼ", "").isalpha()
        and all(ord(c) < 0x370 for c in first + last)
        for _source, first, last in pairs
    )
    assert transliterated("Наталія") == "Nataliya" and transliterated("Κωνσταντίνος") == (
        "Konstantinos"
    )
    assert not set(PRIVATE_CARRIERS) & set(CARRIERS)
    assert all(c == "JSON args" or c.count("{}") == 1 for c in PRIVATE_CARRIERS)
