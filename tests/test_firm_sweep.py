"""The firm sweep's corpus (tools/firm_sweep.py): each firm in every carrier."""

from __future__ import annotations

from tools.firm_sweep import CARRIERS, build
from tools.pii_corpus import NEG


def test_each_firm_stands_in_every_carrier_and_beside_a_person():
    corpus, cases = build({"tune": ["Musco Lighting"]}, ["Greta Lindqvist"])
    carriers = {case[1] for case in cases}
    assert {name for name, *_rest in CARRIERS} <= carriers
    assert len(cases) == len(CARRIERS) + 1
    for case in cases:
        text = case[-1]
        firms = [text[s:e] for s, e, k in corpus.labels[text] if k == f"{NEG}:company"]
        assert firms and firms[0].casefold() == "musco lighting"
    [beside] = [c for c in cases if c[3]]
    people = [beside[-1][s:e] for s, e, k in corpus.labels[beside[-1]] if k == "PERSON"]
    assert people == ["Greta Lindqvist"]
