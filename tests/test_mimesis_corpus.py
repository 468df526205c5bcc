"""The presidio-evaluator templates filled from a second generator, mimesis
(tools/third_party_corpus.py, ``generator="mimesis"``): a tune set and a
report set whose names, streets, towns and firms are not Faker's. These
tests build the corpora (no redaction, no NLP model) and check the report
set's misses cannot be printed with stand-in reports."""

from __future__ import annotations

import sys
from collections import Counter

import pytest

from tools import redaction_report
from tools.redaction_report import Report
from tools.splits import Part
from tools.third_party_corpus import (
    MIMESIS_FAKER_LOCALE,
    MIMESIS_LOCALES,
    MIMESIS_REPORT_LOCALES,
    MIMESIS_TUNE_LOCALES,
    NEG,
    _samples,
    build_third_party_corpus,
)


def _kinds(corpus) -> Counter[str]:
    return Counter(kind for labels in corpus.labels.values() for _s, _e, kind in labels)


def test_the_sets_take_mimesis_s_latin_locales_alternately():
    assert list(MIMESIS_LOCALES) == sorted(MIMESIS_LOCALES)
    assert MIMESIS_TUNE_LOCALES[:3] == ("az", "da", "de-at")
    assert MIMESIS_REPORT_LOCALES[:3] == ("cs", "de", "de-ch")
    assert not set(MIMESIS_TUNE_LOCALES) & set(MIMESIS_REPORT_LOCALES)
    assert set(MIMESIS_TUNE_LOCALES) | set(MIMESIS_REPORT_LOCALES) == set(MIMESIS_FAKER_LOCALE)


def test_the_mimesis_corpus_is_one_for_a_seed():
    def build(seed: int):
        corpus = build_third_party_corpus(
            "dev", seed=seed, per_locale=12, locales=("de-at", "tr"), generator="mimesis"
        )
        return corpus.rows, corpus.labels

    assert build(5) == build(5)
    assert build(5) != build(6)
    with pytest.raises(ValueError, match="mimsis"):
        build_third_party_corpus("dev", per_locale=1, locales=("de",), generator="mimsis")


def test_every_planted_value_stands_at_its_labelled_offsets():
    samples, _local = _samples("pl", "test", 60, seed=4, generator="mimesis")
    spans = [(sample.full_text, span) for sample in samples for span in sample.spans]
    assert len(spans) > 60
    for text, span in spans:
        # The generator's lower-case draw lowers its spans' values, not its text.
        at = text[span.start_position : span.end_position]
        assert at.casefold() == str(span.entity_value).casefold(), text
    corpus = build_third_party_corpus("test", per_locale=20, locales=("pl",), generator="mimesis")
    for text, labels in corpus.labels.items():
        for start, end, kind in labels:
            value = text[start:end]
            assert value and value == value.strip(), (kind, value, text)


def test_towns_firms_and_countries_are_mimesis_s_not_faker_s():
    from mimesis import Address, Finance

    corpus = build_third_party_corpus("dev", per_locale=60, locales=("da",), generator="mimesis")
    lists = {
        "city": Address("da")._extract(["city"]),
        "organisation": Finance("da")._extract(["company", "name"]),
        "country": Address("da")._extract(["country", "name"]),
    }
    lists = {kind: {v.casefold() for v in values} for kind, values in lists.items()}
    seen: Counter[str] = Counter()
    for text, labels in corpus.labels.items():
        for start, end, kind in labels:
            look_alike = kind.removeprefix(f"{NEG}:")
            if look_alike in lists:
                assert text[start:end].casefold() in lists[look_alike], (kind, text)
                seen[look_alike] += 1
    assert set(seen) == set(lists), seen


@pytest.mark.parametrize(
    ("split", "locales"), [("dev", MIMESIS_TUNE_LOCALES), ("test", MIMESIS_REPORT_LOCALES)]
)
def test_both_sets_plant_every_kind_the_faker_corpus_plants(split, locales):
    """Counts only: the report set is built, never redacted, here."""
    mimesis = _kinds(build_third_party_corpus(split, locales=locales, generator="mimesis"))
    faker_locales = tuple(MIMESIS_FAKER_LOCALE[locale] for locale in locales)
    faker = _kinds(build_third_party_corpus(split, locales=faker_locales))
    assert set(faker) <= set(mimesis), set(faker) - set(mimesis)
    assert {"PERSON", "STREET_ADDRESS", "PHONE_NUMBER", "EMAIL_ADDRESS", "CREDIT_CARD"} <= set(
        mimesis
    )
    assert {f"{NEG}:{kind}" for kind in ("city", "country", "organisation", "job")} <= set(mimesis)
    assert sum(mimesis.values()) >= 5000, mimesis


def _stand_in(part: Part) -> Report:
    """A report whose every example names the set it stands for."""
    mark = f"MARK-{part.generator}-{part.half}-{(part.locales or ('seven',))[0]}"
    report = Report()
    report.planted["PERSON"] = 1
    report.cases = report.decisions = 1
    report.silent_examples.append(("PERSON", mark))
    report.missed_examples.append(("PERSON", mark))
    report.destroyed_examples.append(mark)
    report.surfaced_negative_examples.append(mark)
    report.decision_examples.append(("PERSON", mark))
    report.why[("a rule", "personal")] += 1
    report.why_examples.append(("a rule", "personal", mark))
    return report


@pytest.mark.parametrize(
    "argv",
    [
        ["figures", "-v"],
        ["mimesis-tune", "-v"],
        ["surfaced-why", "-v"],
        ["surfaced-why", "mimesis-report", "mimesis-tune", "-v"],
    ],
)
def test_the_report_set_s_misses_are_never_printed(argv, monkeypatch, capsys):
    monkeypatch.setattr(redaction_report, "part_report", _stand_in)
    monkeypatch.setattr(redaction_report, "export_report", lambda export: Report())
    monkeypatch.setattr(sys, "argv", ["redaction_report", *argv])
    redaction_report.main()
    out = capsys.readouterr().out
    report_set = f"MARK-mimesis-test-{MIMESIS_REPORT_LOCALES[0]}"
    tune_set = f"MARK-mimesis-dev-{MIMESIS_TUNE_LOCALES[0]}"
    assert report_set not in out
    assert tune_set in out  # the tune set's are: the gate is not closed for all
    if argv[0] == "figures":
        assert "| mimesis locales, test templates | 1 of 1 |" in out


def test_the_cross_cells_print_their_totals_and_no_miss(monkeypatch, capsys):
    monkeypatch.setattr(redaction_report, "part_report", _stand_in)
    monkeypatch.setattr(sys, "argv", ["redaction_report", "mimesis-cross", "-v"])
    redaction_report.main()
    out = capsys.readouterr().out
    assert "| mimesis tune locales, test templates | 1 of 1 |" in out
    assert "| mimesis report locales, dev templates | 1 of 1 |" in out
    assert "MARK-" not in out  # both cells hold report data: totals only


def test_the_held_out_locales_misses_are_never_printed(monkeypatch, capsys):
    # Both template halves of the held-out locales are report splits
    # (tools.splits): their tables print, their misses do not, even with -v.
    monkeypatch.setattr(redaction_report, "part_report", _stand_in)
    monkeypatch.setattr(sys, "argv", ["redaction_report", "held-out", "-v"])
    redaction_report.main()
    out = capsys.readouterr().out
    assert "## held-out locales, test templates" in out
    assert "MARK-" not in out
