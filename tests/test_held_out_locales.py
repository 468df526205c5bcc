"""The held-out locale draw of tools/third_party_corpus.py (Faker locales no
redaction rule was tuned on; docs/redaction.md, "Measured"): it must
keep building. A measurement, so no recall is asserted here."""

from __future__ import annotations

from collections import Counter

import pandas as pd

from miner.traces import build_sessions
from tools import redaction_report
from tools.pii_corpus import NEG
from tools.splits import SPLITS, Part
from tools.third_party_corpus import HELD_OUT_LOCALES, LOCALES, build_third_party_corpus


def test_the_held_out_draw_builds_sessions_of_every_held_out_locale_with_several_types():
    assert not set(HELD_OUT_LOCALES) & set(LOCALES)
    corpus = build_third_party_corpus(split="test", per_locale=3, locales=HELD_OUT_LOCALES)

    sessions = build_sessions(pd.DataFrame(corpus.rows), "support_agent")
    tags = Counter(session.initial_state.get("locale") for session in sessions)
    assert set(tags) == {locale.replace("_", "-") for locale in HELD_OUT_LOCALES}

    kinds = (kind for spans in corpus.labels.values() for _s, _e, kind in spans)
    planted = Counter(kind for kind in kinds if not kind.startswith(NEG))
    assert {"PERSON", "STREET_ADDRESS", "PHONE_NUMBER", "CREDIT_CARD"} <= set(planted), planted
    assert len(planted) >= 6, planted


def test_the_far_tune_set_is_in_no_other_set_builds_and_is_a_tuned_figures_row(monkeypatch):
    from tools import silent_why
    from tools.third_party_corpus import (
        FAR_TUNE_LOCALES,
        MIMESIS_FAKER_LOCALE,
        TUNE_LOCALES,
        UNTOUCHED_LOCALES,
    )

    others = {*LOCALES, *HELD_OUT_LOCALES, *TUNE_LOCALES, *UNTOUCHED_LOCALES}
    assert not set(FAR_TUNE_LOCALES) & (others | set(MIMESIS_FAKER_LOCALE.values()))
    corpus = build_third_party_corpus(split="dev", per_locale=3, locales=FAR_TUNE_LOCALES)
    sessions = build_sessions(pd.DataFrame(corpus.rows), "support_agent")
    tags = {session.initial_state.get("locale") for session in sessions}
    assert tags == {locale.replace("_", "-") for locale in FAR_TUNE_LOCALES}

    # A row of ``figures`` on the dev templates, whose misses ``-v`` may print.
    monkeypatch.setattr(redaction_report, "part_report", lambda part: part)
    monkeypatch.setattr(redaction_report, "export_report", lambda *a: None)
    rows = {(c, split): report for c, split, report in redaction_report.figure_runs()}
    far = ("presidio-evaluator templates", "far tune locales, dev templates (tuned)")
    assert rows[far] == Part("templates", "dev", FAR_TUNE_LOCALES)
    assert far in redaction_report.TUNE_ROWS
    assert "far" in silent_why.TUNE_SPLITS and "far" in redaction_report.WHY_SPLITS


def test_every_split_is_tune_or_report_and_the_report_sets_are_never_tuned_on():
    """The one table of splits: a tune split is built from dev templates
    only, and no report split's locales are all a tune split's (the
    held-out report set's even locales are, on the test templates only)."""
    tune = [s for s in SPLITS.values() if s.tune]
    assert all(part.half == "dev" for s in tune for part in s.parts)
    tuned = {(p.corpus, p.half, p.locales, p.generator) for s in tune for p in s.parts}
    for name, s in SPLITS.items():
        if not s.tune:
            assert all((p.corpus, p.half, p.locales, p.generator) not in tuned for p in s.parts), (
                name
            )
    assert [name for _c, _t, name in redaction_report.FIGURE_ROWS if name not in SPLITS] == []
