"""The harness that says where the sweep lost each silent value
(tools/silent_why.py): tune splits only, and what a placeholder left of a value."""

from __future__ import annotations

import pytest

from tools.silent_why import TUNE_SPLITS, _left, _value_and_text, classify


def test_a_report_split_is_refused_before_anything_is_read():
    for split in ("presidio-test", "held-out-report", "untouched", "mimesis-report"):
        with pytest.raises(SystemExit, match="not a tune split"):
            classify(split)
    assert "mimesis-tune" in TUNE_SPLITS and "untouched" not in TUNE_SPLITS


def test_what_a_placeholder_left_of_a_value_is_found_in_the_output():
    original = "ship to Anna Kowalska, Wiśniowa 5 now"
    output = "ship to <PERSON_1> Kowalska, <STREET_ADDRESS_1> 5 now"
    left, cut = _left(original, "Anna Kowalska", output)
    assert "".join(output[i] for i in left) == "Kowalska" and cut
    left, cut = _left(original, "Wiśniowa 5", output)
    assert "".join(output[i] for i in left) == "5" and cut
    left, cut = _left(original, "now", output)
    assert "".join(output[i] for i in left) == "now" and not cut


def test_a_value_holding_the_word_in_is_read_whole():
    assert _value_and_text("'Stay in Place' in 'ship to Stay in Place'") == (
        "Stay in Place",
        "ship to Stay in Place",
    )
