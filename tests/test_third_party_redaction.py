"""Redaction measured on text this project did not write: the test split of
tools/third_party_corpus.py (presidio-evaluator's templates and people,
Faker's locales), through the same code as `miner draft`.

The floors below are the figures last measured on the test split, so a change
that loses recall or destroys more non-personal words fails here. They are
not the issue's targets (docs/redaction.md puts both side by side): where a
floor is under its target, the target is not met, and the doc says so."""

from __future__ import annotations

from typing import Any

import pytest

from tools.redaction_report import Report, third_party_report

#: Recall per planted type on the test split: the floor CI holds.
RECALL_FLOOR = {
    "CREDIT_CARD": 0.995,
    "DATE_OF_BIRTH": 0.933,
    "EMAIL_ADDRESS": 0.995,
    "IBAN_CODE": 0.995,
    "IP_ADDRESS": 0.995,
    "NATIONAL_ID": 0.995,
    "PASSPORT": 0.995,
    "PERSON": 0.958,  # 95.87% measured (2026-12-02, names grown in the session)
    "PHONE_NUMBER": 0.995,
    "STREET_ADDRESS": 0.930,
}
#: Share of non-personal look-alikes replaced, at most.
DESTROYED_CEILING = 0.0452  # 48 of 1062: 4.52% (2026-12-03, the second model, ids read)


#: Issue 36 on the test split, through the policy (replace, keep, surface).
#: Targets: 0 silent leaks of any type, at most 1 reviewer decision per case,
#: at most 2% of look-alikes replaced. Where a ceiling is above its target
#: the target is not met (docs/redaction.md, "Measured" says which).
#: 7 of 4600 with PYTHONHASHSEED=0 (96c6807, 2026-12-06); two values of
#: room for another hash seed's wobble.
SILENT_LEAKS_CEILING = 9
#: 0.62 (124 in 201) at a2b3222, 0.67 at 96c6807: room for a hash seed's wobble.
DECISIONS_PER_CASE_CEILING = 0.8
#: 15 of 861 (1.74%) at 96c6807 (a first name only the list reads, spaCy
#: nothing, surfaced); two values of room, and at the target.
LOOKALIKES_REPLACED_CEILING = 0.02


@pytest.fixture(scope="module")
def report() -> Report:
    return third_party_report("test")


def test_silent_leaks_on_the_test_split_stay_under_the_ceiling(report):
    assert report.silent() <= SILENT_LEAKS_CEILING, report.policy_table()


def test_reviewer_decisions_per_case_stay_at_most_one(report):
    assert report.cases >= 200
    assert 0 < report.decisions_per_case() <= DECISIONS_PER_CASE_CEILING, report.policy_table()


def test_look_alikes_replaced_stay_under_the_ceiling(report):
    assert report.lookalikes_replaced() <= LOOKALIKES_REPLACED_CEILING, report.policy_table()


def test_the_test_split_is_big_and_varied_enough_to_mean_something(report):
    assert sum(report.planted.values()) >= 3000
    assert set(RECALL_FLOOR) <= set(report.planted), report.table()
    assert sum(report.negatives.values()) >= 1000
    assert {"user text", "agent reply", "tool args", "tool result"} <= set(report.planted_in)


def test_recall_per_type_holds_its_floor(report):
    low = {
        kind: f"{report.recall(kind):.2%} < {floor:.2%}"
        for kind, floor in RECALL_FLOOR.items()
        if report.recall(kind) < floor
    }
    assert not low, report.table()


def test_non_personal_words_replaced_stay_under_the_ceiling(report):
    assert report.destroyed_share() <= DESTROYED_CEILING, report.table()


def test_the_splits_share_no_template():
    from tools.third_party_corpus import _samples

    dev, _ = _samples("en_US", "dev", 40, seed=3)
    test, _ = _samples("en_US", "test", 40, seed=3)
    assert {s.template_id % 2 for s in dev} == {0}
    assert {s.template_id % 2 for s in test} == {1}


def test_a_generator_birth_date_counts_as_one_only_after_a_birth_cue():
    from types import SimpleNamespace

    from tools.third_party_corpus import NEG, _birth_dates_after_a_cue

    def kind(text: str) -> str | None:
        date = "12/03/1980"
        span = SimpleNamespace(start_position=text.index(date))
        return _birth_dates_after_a_cue(text, [span], ["DATE_OF_BIRTH"])[0]

    assert kind("She was born on 12/03/1980. Her maiden name is Roe") == "DATE_OF_BIRTH"
    assert kind("Please tell me your date of birth. It's 12/03/1980") == "DATE_OF_BIRTH"
    assert kind("DOB 12/03/1980") == "DATE_OF_BIRTH"
    # The generator's template with no cue: a date that must stay.
    assert kind("It's like that since 12/03/1980") == f"{NEG}:date"


#: Share of an online shop's products, SKUs, statuses, carriers and tracking
#: numbers replaced on the commerce corpus's test split, at most.
COMMERCE_DESTROYED_CEILING = 0.0025  # 5 of 2430 measured: 0.21%


def test_a_shop_s_products_carriers_and_tracking_numbers_stay_and_its_customers_go():
    from tools.redaction_report import split_report

    shop = split_report("shop-test")
    assert {"product", "carrier", "tracking number", "sku"} <= set(shop.negatives), shop.table()
    assert shop.destroyed_share() <= COMMERCE_DESTROYED_CEILING, shop.table()
    assert {kind: shop.recall(kind) for kind in shop.planted} == dict.fromkeys(shop.planted, 1.0)


def test_the_commerce_splits_share_no_carrier_product_type_or_brand():
    from tools.commerce_corpus import _provider

    dev, test = _provider("dev"), _provider("test")
    for field in ("shipping_carriers", "product_types", "brand_names"):
        assert getattr(dev, field) and getattr(test, field)
        assert not set(getattr(dev, field)) & set(getattr(test, field)), field


def test_the_hard_case_splits_share_no_airport_carrier_product_type_or_tier():
    from tools.support_corpus import _Lists

    dev, test = _Lists("dev"), _Lists("test")
    for field in ("airports", "carriers", "product_types", "tiers"):
        assert getattr(dev, field) and getattr(test, field)
        assert not set(getattr(dev, field)) & set(getattr(test, field)), field


def test_the_hard_case_corpus_plants_the_shapes_issue_36_names():
    import re

    from tools.support_corpus import build_support_corpus

    corpus = build_support_corpus("dev", per_locale=4)
    planted = [
        (text[start:end], kind) for text, labels in corpus.labels.items()
        for start, end, kind in labels
    ]  # fmt: skip
    kinds = {kind for _value, kind in planted}
    assert {"PERSON", "EMAIL_ADDRESS", "PHONE_NUMBER", "NATIONAL_ID", "PASSPORT"} <= kinds
    assert {"NEGATIVE:airport", "NEGATIVE:IATA code", "NEGATIVE:company"} <= kinds
    people = [value for value, kind in planted if kind == "PERSON"]
    assert any(v.islower() for v in people) and any(v.isupper() for v in people)
    assert any("//" in v for v, kind in planted if kind == "EMAIL_ADDRESS")
    assert any(re.fullmatch(r"\d{8,}", v) for v, kind in planted if kind == "PHONE_NUMBER")


def test_a_bare_phone_is_valid_in_every_held_out_locale_even_where_faker_writes_none():
    """Faker's es_AR numbers never pass libphonenumber; the corpus then
    draws one from libphonenumber's example (the held-out run hung here)."""
    import random

    import faker
    import phonenumbers

    from tools.support_corpus import bare_phone
    from tools.third_party_corpus import HELD_OUT_LOCALES

    for locale in HELD_OUT_LOCALES:
        digits = bare_phone(faker.Faker(locale), locale, random.Random(3))
        region = locale.split("_")[1]
        written = "+" + digits[2:] if digits.startswith("00") else digits
        assert phonenumbers.is_valid_number(phonenumbers.parse(written, region)), locale


def test_a_planted_value_is_replaced_surfaced_or_a_silent_leak():
    from tools.redaction_report import Report, _score

    text = "ring FARMER or call 0057300123 about the Elsa chair"
    labels = [(5, 11, "PERSON"), (20, 30, "PHONE_NUMBER"), (41, 51, "NEGATIVE:product")]
    report = Report()
    # The phone replaced; FARMER and "Elsa" surfaced (left as written).
    _score(report, text, labels, [(20, 30, "PHONE_NUMBER")], shown=[(5, 11), (41, 45)])
    assert report.caught == {"PHONE_NUMBER": 1}
    assert report.surfaced == {"PERSON": 1}
    assert report.silent() == 0
    assert report.negatives_surfaced == {"product": 1} and not report.destroyed
    silent = Report()
    _score(silent, text, labels, [])
    assert silent.silent() == 2 and silent.silent("PERSON") == 1


def _scored_one_message(text: str, surfaced: tuple[Any, ...], labels: list[Any]) -> Any:
    """The report of one user message whose redaction replaced nothing and
    surfaced ``surfaced``, scored against ``labels``."""
    from datetime import UTC, datetime

    from miner.model import Session, Turn
    from tools.redaction_report import score_sessions

    now = datetime(2026, 12, 5, tzinfo=UTC)
    session = Session("s", "app", "u", now, now, {}, (Turn("i", text, ""),))

    class Redacted:  # what score_sessions reads of miner's Redacted
        def __init__(self) -> None:
            self.session, self.surfaced = session, surfaced

    return score_sessions([session], [Redacted()], {text: labels})


def test_a_decision_counts_a_value_once_in_any_casing_and_by_the_rule_that_surfaced_it():
    from miner.redaction.surfaced import Surfaced

    text = "Ring Okonkwo or OKONKWO about the Elsa chair"
    surfaced = (
        Surfaced("PERSON", "Okonkwo", "a capitalised listed name"),
        Surfaced("PERSON", "OKONKWO", "another casing"),
        Surfaced("PERSON", "Elsa", "a guessed name (verdict)"),
    )
    labels = [(5, 12, "PERSON"), (16, 23, "PERSON"), (34, 44, "NEGATIVE:product")]
    report = _scored_one_message(text, surfaced, labels)
    assert report.decisions == 2 and report.silent() == 0
    assert report.why == {
        ("a capitalised listed name", "personal"): 1,
        ("a guessed name (verdict)", "look-alike"): 1,
    }
    assert "| a capitalised listed name | 1 | 1 | 0 | 0 | 0 | 100% |" in report.why_table()


def test_a_surfaced_value_covers_its_text_where_another_surfaced_value_overlaps_it():
    # "Vila Nova" (a street's name alone) ends inside "Nova Rua 12" (the
    # street) starting after it: each is found where it stands, as the
    # reviewer's tools find each (``surfaced.occurrences``), so the street
    # planted whole is covered; one alternation of both took "Vila Nova"
    # and hid the street's rest ("Rua 12"), a silent leak.
    from miner.redaction.surfaced import Surfaced

    text = "moved from Vila Nova Rua 12 last week"
    surfaced = (
        Surfaced("STREET_ADDRESS", "Vila Nova", "a street's name alone"),
        Surfaced("STREET_ADDRESS", "Nova Rua 12", "a street line with its type"),
    )
    start = text.index("Nova")
    labels = [(start, start + len("Nova Rua 12"), "STREET_ADDRESS")]
    report = _scored_one_message(text, surfaced, labels)
    assert report.surfaced == {"STREET_ADDRESS": 1} and report.silent() == 0


def test_a_surfaced_value_a_placeholder_cut_into_covers_nothing_and_is_no_decision():
    # The draft holds "<PERSON_1>/MARIE MRS": the reviewer's tools look for
    # "DUBOIS/MARIE MRS" and find nothing, so "MARIE" stands silent.
    from dataclasses import dataclass
    from datetime import UTC, datetime

    from miner.model import Session, Turn
    from miner.redaction.surfaced import Surfaced
    from tools.redaction_report import score_sessions

    text = "passenger DUBOIS/MARIE MRS booked"
    now = datetime(2026, 12, 6, tzinfo=UTC)
    before = Session("s", "app", "u", now, now, {}, (Turn("i", text, ""),))
    output = text.replace("DUBOIS", "<PERSON_1>")
    after = Session("s", "app", "u", now, now, {}, (Turn("i", output, ""),))

    @dataclass
    class Redacted:  # what score_sessions reads of miner's Redacted
        session: Session
        surfaced: tuple[Surfaced, ...]

    labels = [(10, 16, "PERSON"), (17, 22, "PERSON")]
    cut = Redacted(after, (Surfaced("PERSON", "DUBOIS/MARIE MRS"),))
    report = score_sessions([before], [cut], {text: labels})
    assert report.silent() == 1 and report.decisions == 0
    rest = Redacted(after, (Surfaced("PERSON", "MARIE MRS"),))
    report = score_sessions([before], [rest], {text: labels})
    assert report.silent() == 0 and report.decisions == 1


#: Issue 36's hard cases (tools/support_corpus.py), test lists: a shop's,
#: bank's, airline's and telecom's firms, towns, airports, plans and
#: products named like people. Measured 2026-12-03 (the key and word
#: evidence of lookalike3): silent 3 of 1110, 0.88 decisions per case (98
#: in 112), 32 of 2046 look-alikes replaced (1.56%); the ceilings leave
#: room for the second model's run-to-run wobble (a few values either way).
HARD_SILENT_LEAKS_CEILING = 3
#: 0.88 on main at 7bfc7bd, 0.94 on lookalike4 (look-alikes surfaced, not
#: replaced, are decisions), 0.79 on lookalike5 (places' slots, PYTHONHASHSEED=0):
#: room for a few values of wobble either way; 0.67 (75 in 112) at a2b3222
#: (a value's words decided with it: decide30).
HARD_DECISIONS_PER_CASE_CEILING = 0.8
#: 18 of 2046 (0.88%) on lookalike4 with PYTHONHASHSEED=0, 21 (1.03%) in a CI
#: run (another hash seed); 14 (0.68%) on lookalike5: room for that wobble.
HARD_LOOKALIKES_REPLACED_CEILING = 0.01


def test_hard_cases_test_lists_hold_their_ceilings():
    from tools.redaction_report import support_report

    hard = support_report("test")
    assert hard.cases >= 100 and sum(hard.negatives.values()) >= 2000, hard.policy_table()
    assert hard.silent() <= HARD_SILENT_LEAKS_CEILING, hard.policy_table()
    assert hard.decisions_per_case() <= HARD_DECISIONS_PER_CASE_CEILING, hard.policy_table()
    assert hard.lookalikes_replaced() <= HARD_LOOKALIKES_REPLACED_CEILING, hard.policy_table()


def test_replaced_why_names_the_pass_that_replaced_a_look_alike():
    # A firm no name list knows as a sentence's subject: spaCy's person
    # alone, replaced by the detector's verdict on main.
    from tools.firm_sweep import build
    from tools.redaction_report import replaced_why

    corpus, _cases = build({"tune": ["Koolibri"]}, ["Greta Lindqvist"])
    counts, lines = replaced_why(corpus.rows, corpus.labels)
    spacy_alone = "verdict replace: PERSON by PlaceAwareSpacy, spaCy PERSON, no listed name"
    assert counts[spacy_alone, "company"] >= 1
    assert all(kind == "company" for _why, kind in counts)
    assert any(line.startswith(spacy_alone) and "'Koolibri'" in line for line in lines)
