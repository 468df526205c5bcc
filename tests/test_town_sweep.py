"""The town sweep's corpus (tools/town_sweep.py): towns and jobs in every carrier."""

from __future__ import annotations

from tools.firm_sweep import build
from tools.pii_corpus import NEG
from tools.town_sweep import JOB_CARRIERS, PERSON_CARRIERS, TOWN_CARRIERS


def test_each_town_stands_in_every_carrier_as_a_town_and_beside_a_person():
    corpus, cases = build(
        {"city: tune": ["Bressanone"]}, ["Greta Lindqvist"], TOWN_CARRIERS, PERSON_CARRIERS
    )
    assert {name for name, *_rest in TOWN_CARRIERS} <= {case[1] for case in cases}
    assert len(cases) == len(TOWN_CARRIERS) + 1
    for case in cases:
        text = case[-1]
        towns = [text[s:e] for s, e, k in corpus.labels[text] if k == f"{NEG}:city"]
        assert towns and towns[0].casefold() == "bressanone"
    [beside] = [c for c in cases if c[3]]
    people = [beside[-1][s:e] for s, e, k in corpus.labels[beside[-1]] if k == "PERSON"]
    assert people == ["Greta Lindqvist"]


def test_a_job_is_labelled_a_job_and_an_unnamed_list_a_firm():
    corpus, cases = build({"job: tune": ["Careers adviser"]}, ["Ann Lee"], JOB_CARRIERS)
    assert {k for labels in corpus.labels.values() for _s, _e, k in labels} == {
        f"{NEG}:job",
        "PERSON",
    }
    corpus, _cases = build({"tune": ["Musco Lighting"]}, ["Ann Lee"])
    assert f"{NEG}:company" in {k for labels in corpus.labels.values() for _s, _e, k in labels}
