"""The second model (miner/redaction/second.py): Rampart, asked only about
the values the first pass surfaced, replaces those it is sure are personal;
the rest stay surfaced. The real model, on representative chat lines."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import pytest

from miner.config import load_config
from miner.errors import ModelMissingError
from miner.model import Session, Turn
from miner.redaction import second
from miner.redaction.detector import detector_for
from miner.redaction.policy import RedactionPolicy
from miner.redaction.second import Reading, SecondOpinion
from miner.redaction.session import Redacted
from miner.redaction.surfaced import Surfaced
from tests.conftest import PIPELINE

NOW = datetime(2026, 11, 22, tzinfo=UTC)


@pytest.fixture(scope="module")
def config():
    return load_config(PIPELINE)


@pytest.fixture(scope="module")
def policy(config):
    return RedactionPolicy(config, detector_for(config))


@pytest.fixture(scope="module")
def first_pass_only(config):
    off = config.redaction.model_copy(update={"second_model": False})
    without = config.model_copy(update={"redaction": off})
    return RedactionPolicy(without, detector_for(without))


def chat(*lines: str) -> Session:
    return Session(
        session_id="s",
        app_name="support_agent",
        user_id="u-1",
        start=NOW,
        end=NOW,
        initial_state={},
        turns=tuple(Turn(invocation_id="i", user_text=line, reply_text="ok") for line in lines),
    )


def test_a_surfaced_lower_case_name_the_model_confirms_is_replaced(policy, first_pass_only):
    line = "hi, it's derek again. the parcel still has not come"
    [before] = first_pass_only.redact([chat(line)])
    assert before.surfaced == (Surfaced("PERSON", "derek"),)
    [after] = policy.redact([chat(line)])
    replaced = "hi, it's <PERSON_1> again. the parcel still has not come"
    assert after.session.turns[0].user_text == replaced
    assert after.surfaced == ()
    assert after.replaced == Counter({"PERSON": 1})
    # The leak guard reads it as a replaced value from now on.
    assert after.originals["derek"] == "PERSON"


def test_its_placeholder_follows_the_session_s_own(policy):
    [result] = policy.redact(
        [chat("I'm Jane Doe, order 5521.", "the courier says recipient GUILLOT is not known")]
    )
    texts = [t.user_text for t in result.session.turns]
    assert texts == [
        "I'm <PERSON_1>, order 5521.",
        "the courier says recipient <PERSON_2> is not known",
    ]
    assert result.surfaced == ()


def test_a_product_named_like_a_person_the_model_does_not_confirm_stays_surfaced(policy):
    line = "The Anouk electric toothbrush I bought is broken"
    [result] = policy.redact([chat(line)])
    assert result.session.turns[0].user_text == line
    assert result.surfaced == (Surfaced("PERSON", "Anouk"),)


def test_the_switch_turns_the_second_model_off(first_pass_only):
    assert first_pass_only.second is None
    [result] = first_pass_only.redact([chat("please, it's derek: the parcel for derek")])
    assert result.session.turns[0].user_text == "please, it's derek: the parcel for derek"
    assert result.surfaced == (Surfaced("PERSON", "derek"),)


def test_a_value_the_first_pass_cut_into_stays_surfaced():
    # The first pass took part of the phone for a street in one string:
    # replacing the phone elsewhere would leave "+61-" there with nothing
    # telling the reviewer.
    original = chat("call me at +61-2-4768-1843 I'd like", "my number: +61-2-4768-1843")
    cut = chat("call me at +61-<STREET_ADDRESS_1> like", "my number: +61-2-4768-1843")
    phone = Surfaced("PHONE_NUMBER", "+61-2-4768-1843")
    first = Redacted(cut, Counter({"STREET_ADDRESS": 1}), {}, (), (phone,))
    [decided] = SecondOpinion().decide([original], [first])
    assert decided.surfaced == (phone,)
    assert decided.session == cut


def test_the_model_is_loaded_only_when_something_is_surfaced(policy):
    second._rampart.cache_clear()
    [result] = policy.redact([chat("Refund 45.99 for order 8812 placed on 2026-11-02.")])
    assert result.surfaced == ()
    assert second._rampart.cache_info().currsize == 0


def test_every_occurrence_read_must_be_personal():
    opinion = SecondOpinion(replace_score=0.9)
    assert opinion.verdict([Reading(0.99, "PERSON"), Reading(0.95, "PERSON")]) == "PERSON"
    # A company named after a person: personal in one place, not in another.
    assert opinion.verdict([Reading(0.98, "PERSON"), Reading(0.03, "PERSON")]) is None
    assert opinion.verdict([]) is None


def test_a_missing_model_stops_the_run(monkeypatch):
    second._rampart.cache_clear()
    monkeypatch.setattr(second, "DISTRIBUTION", "miner-no-such-model")
    with pytest.raises(ModelMissingError, match="second_model = false"):
        second._rampart()
    second._rampart.cache_clear()
