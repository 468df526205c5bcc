"""Redaction measured on the labelled corpus (tools/pii_corpus.py) with the real
Presidio engines and the shipped pipeline config; `make redaction-report`
prints the same table."""

from __future__ import annotations

import pytest

from tools.redaction_report import Report, _score, corpus_report, replaced_spans


@pytest.fixture(scope="module")
def report() -> Report:
    return corpus_report(seed=7)


def test_the_corpus_is_big_and_varied_enough_to_mean_something(report):
    assert sum(report.planted.values()) >= 2000
    assert len(report.planted) >= 12
    assert sum(report.negatives.values()) >= 1000


def test_overall_recall_is_at_least_99_5_percent(report):
    assert report.recall() >= 0.995, report.table()


def test_every_planted_type_has_recall_of_at_least_98_percent(report):
    low = {kind: report.recall(kind) for kind in report.planted if report.recall(kind) < 0.98}
    assert not low, report.table()


def test_at_most_2_percent_of_hard_negatives_are_changed(report):
    assert report.destroyed_share() <= 0.02, report.table()


def test_overall_precision_of_what_was_replaced(report):
    assert report.precision() >= 0.95, report.table()


def test_the_measure_counts_a_leak_a_partial_leak_and_a_destroyed_negative():
    # The report is only as honest as its alignment: check it on known cases.
    text = "Call Alex Morgan at +1 415 555 0199 about the Orion X5 Blender"
    labels = [(5, 16, "PERSON"), (20, 35, "PHONE_NUMBER"), (46, 62, "NEGATIVE")]
    nothing = Report()
    _score(nothing, text, labels, replaced_spans(text, text) or [])
    assert nothing.recall() == 0 and not nothing.destroyed

    partial = "Call <PERSON_1> at +1 415 <PHONE_NUMBER_1> about the <PERSON_2> X5 Blender"
    spans = replaced_spans(text, partial)
    assert spans == [(5, 16, "PERSON"), (27, 35, "PHONE_NUMBER"), (46, 51, "PERSON")]
    scored = Report()
    _score(scored, text, labels, spans)
    assert scored.caught == {"PERSON": 1}  # the phone's "+1 415" survived
    assert sum(scored.destroyed.values()) == 1
    assert scored.destroyed_as == {("other", "PERSON"): 1}  # which detector did it
    assert scored.precision("PERSON") == 0.5
