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


def test_a_person_stands_beside_a_town_in_the_firm_sweep_s_sentences_but_in_it():
    from tools.firm_sweep import PERSON_CARRIERS as BESIDE_A_FIRM

    for (name, before, between, after), firm in zip(PERSON_CARRIERS, BESIDE_A_FIRM, strict=True):
        assert name == firm[0].replace("firm", "town").replace(" at ", " in ")
        assert (before, between, after) == (firm[1], firm[2].replace(" at ", " in "), firm[3])
    spoke = tuple(c for c in PERSON_CARRIERS if c[0] == "spoke to person in town")
    _corpus, [case] = build({"city: tune": ["Bressanone"]}, ["Greta Lindqvist"], (), spoke)
    assert case[-1] == "I spoke to Greta Lindqvist in Bressanone yesterday."
