"""The held-out locale draw of tools/third_party_corpus.py (Faker locales no
redaction rule was tuned on; docs/redaction.md, "Measured"): it must
keep building. A measurement, so no recall is asserted here."""

from __future__ import annotations

from collections import Counter

import pandas as pd

from miner.traces import build_sessions
from tools.pii_corpus import NEG
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
