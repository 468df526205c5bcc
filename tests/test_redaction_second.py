"""The second model (miner/redaction/second.py): Rampart, asked only about
the values the first pass surfaced, replaces those it is sure are personal;
the rest stay surfaced. The real model, on representative chat lines."""

from __future__ import annotations

import gc
import weakref
from collections import Counter
from datetime import UTC, datetime
from typing import Any

import pytest

from miner.config import load_config
from miner.errors import ModelMissingError
from miner.model import Session, Turn
from miner.redaction import second
from miner.redaction.detector import detector_for
from miner.redaction.policy import RedactionPolicy
from miner.redaction.redacted import Redacted
from miner.redaction.second import Reading, SecondOpinion
from miner.redaction.session import replaced_with_parts
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


def test_a_first_name_spacy_reads_as_no_person_is_not_replaced_unseen(policy, first_pass_only):
    # The first-name list knows "Ascension", spaCy reads it as a firm where
    # it stands: two readers disagree, so the first pass surfaces it; the
    # second model does not read a name there, so it stays the reviewer's.
    line = "The orchestra has grown to a fully professional orchestra serving Ascension"
    for redaction in (first_pass_only, policy):
        [result] = redaction.redact([chat(line)])
        assert result.session.turns[0].user_text == line
        assert result.surfaced == (Surfaced("PERSON", "Ascension"),)


def test_a_product_named_like_a_person_the_model_does_not_confirm_stays_surfaced(policy):
    line = "The Anouk electric toothbrush I bought is broken"
    [result] = policy.redact([chat(line)])
    assert result.session.turns[0].user_text == line
    assert result.surfaced == (Surfaced("PERSON", "Anouk"),)


@pytest.mark.parametrize(
    "line, value",
    [
        ("shall we meet sabato at the shop?", "sabato"),  # a weekday
        ("i am bruneian but i live abroad", "bruneian"),  # a nationality said of someone
        # A job after an article, a town after a person's name and a comma,
        # a known town after "to", surnames named as a firm.
        ("Kofi Mensah, the Vostrane Kellith, said it", "Vostrane Kellith"),
        ("<PERSON_1>, Skärholmen", "Skärholmen"),
        ("please rebook me to Tarragona", "Tarragona"),
        ("the parcel from Okafor, Lindqvist and Brandt", "Lindqvist"),
        # A village GeoNames knows and no name list does, by its value.
        ("Rajgród is lovely this time of year", "Rajgród"),
    ],
)
def test_a_look_alike_named_like_a_person_is_not_asked_and_stays_surfaced(line, value):
    # A weekday or month of the regions' languages that is a name too, or a
    # word the words around it make a place or a nationality: the model
    # reads a name wherever one could stand, so the value stays the
    # reviewer's; other values are asked.
    session = chat(line, "hi, it's derek again")
    surfaced = (Surfaced("PERSON", value), Surfaced("PERSON", "derek"))
    asked = SecondOpinion()._windows(session, Redacted(session, Counter(), {}, (), surfaced))
    assert set(asked) == {"derek"}


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
    with second.SecondModel() as model:
        [decided] = SecondOpinion().decide([original], [first], model)
    assert decided.surfaced == (phone,)
    assert decided.session == cut


def loads_of_the_model(monkeypatch) -> list[weakref.ref[Any]]:
    """Each model loaded from now on, weakly referenced."""
    loaded: list[weakref.ref[Any]] = []
    load = second._Rampart

    def counted() -> Any:
        model = load()
        loaded.append(weakref.ref(model))
        return model

    # The runner's class, whoever imported ``load_model`` by its name.
    monkeypatch.setattr(second, "_Rampart", counted)
    return loaded


def test_the_model_is_loaded_only_when_something_is_surfaced_or_swept(policy, monkeypatch):
    loaded = loads_of_the_model(monkeypatch)
    clean = chat("Refund 45.99 for order 8812 placed on 2026-11-02.")
    unsure = policy.config.redaction.unsure.model_copy(update={"sweep_chars": 0})
    redaction = policy.config.redaction.model_copy(update={"unsure": unsure})
    unswept = RedactionPolicy(
        policy.config.model_copy(update={"redaction": redaction}), policy.detector
    )
    [result] = unswept.redact([clean])
    assert result.surfaced == ()
    assert loaded == []
    # The sweep reads every text within its bound, surfaced or not.
    [result] = policy.redact([clean])
    assert result.surfaced == ()
    assert len(loaded) == 1


def test_the_model_is_loaded_once_to_decide_and_sweep_and_released_after(policy, monkeypatch):
    # One load serves the decisions and the sweep (each loaded its own
    # before). Kept for the process, it stacked under google-adk's models,
    # which the first drafted case imports next (docs/performance.md).
    loaded = loads_of_the_model(monkeypatch)
    [result] = policy.redact([chat("please, it's derek: the parcel for derek")])
    assert policy.sweep is not None
    assert "<PERSON_1>" in result.session.turns[0].user_text  # decided by the model
    assert len(loaded) == 1
    gc.collect()
    assert loaded[0]() is None


def test_the_windows_labellings_are_dropped_before_the_replacing(policy, monkeypatch):
    # The replacing needs none of them; held over it, it stacked on them
    # (the bench's 1 MiB message peaked there).
    from dataclasses import replace

    loaded = loads_of_the_model(monkeypatch)
    held: list[int] = []

    def replacing(redacted: Redacted, values: dict[str, str]) -> Redacted:
        held.append(len(loaded[0]()._labelled))
        return replaced_with_parts(redacted, values)

    assert policy.second is not None
    monkeypatch.setattr(policy, "second", replace(policy.second, replaced_with=replacing))
    [result] = policy.redact([chat("please, it's derek: the parcel for derek")])
    assert "<PERSON_1>" in result.session.turns[0].user_text  # decided by the model
    assert held == [0]


def test_every_occurrence_read_must_be_personal():
    opinion = SecondOpinion(replace_score=0.9)
    assert opinion.verdict([Reading(0.99, "PERSON"), Reading(0.95, "PERSON")]) == "PERSON"
    # A company named after a person: personal in one place, not in another.
    assert opinion.verdict([Reading(0.98, "PERSON"), Reading(0.03, "PERSON")]) is None
    assert opinion.verdict([]) is None


def test_a_missing_model_stops_the_run(monkeypatch):
    monkeypatch.setattr(second, "DISTRIBUTION", "miner-no-such-model")
    with pytest.raises(ModelMissingError, match="second_model = false"):
        second.load_model()


def test_rounds_and_batches_give_the_verdicts_of_reading_every_window_alone():
    # decide reads each value's windows in rounds, in padded batches, and
    # stops reading a value one window put under the threshold; the verdicts
    # are those of every window read alone.
    opinion = SecondOpinion()
    leaves = [
        "hi, it's derek again. derek here, the parcel for derek still has not come",
        "The Anouk electric toothbrush is broken; Anouk support said to call Anouk",
        "recipient GUILLOT not known, ring GUILLOT on the intercom, GUILLOT's flat",
        "I bought the Labbé chair. Ms Labbé from the shop never called back about Labbé",
        "ship it to mrs okafor please",
    ]
    values = ["derek", "Anouk", "GUILLOT", "Labbé", "okafor"]
    asked = {value: opinion.windows(value, leaves) for value in values}
    model = second.load_model()
    alone = {}
    for value, windows in asked.items():
        readings = []
        for window, start, end in windows:
            model._labelled.clear()
            reading = model.read(window, start, end)
            if reading is not None:
                readings.append(reading)
        alone[value] = readings
    model._labelled.clear()
    [together] = opinion.readings(model, [asked])
    verdicts = {v: opinion.verdict(r) for v, r in alone.items()}
    assert {v: opinion.verdict(r) for v, r in together.items()} == verdicts
    assert verdicts["derek"] == "PERSON" and verdicts["Anouk"] is None
    for value, readings in together.items():
        # The windows read are the first ones, read as alone up to float sums.
        assert len(readings) == len(alone[value]) or verdicts[value] is None
        for ours, theirs in zip(readings, alone[value], strict=False):
            assert ours.entity == theirs.entity
            assert abs(ours.personal - theirs.personal) < 1e-4
    assert sum(map(len, together.values())) < sum(map(len, alone.values()))


def test_batches_read_at_once_give_the_probabilities_of_one_at_a_time(monkeypatch):
    # Each run on one onnxruntime thread, MODEL_THREADS batches at once (for
    # wall time, second.MODEL_THREADS): the same numbers bit for bit.
    import numpy as np

    model = second.load_model()
    assert model.session.get_session_options().intra_op_num_threads == 1
    assert second.MODEL_THREADS > 1
    lines = [
        f"hi, it's derek again. the parcel for {name} still has not come, ring GUILLOT " * n
        for n in (1, 2, 3)
        for name in ("derek", "Anouk", "Ms Beike", "the Orion X5 Blender", "Zelda", "Ito")
    ]
    assert len(lines) > 2 * model.BATCH
    model.label_all(lines)
    ours = dict(model._labelled)
    model._labelled.clear()
    monkeypatch.setattr(second, "MODEL_THREADS", 1)
    model.label_all(lines)
    assert ours.keys() == model._labelled.keys() == set(lines)
    for line in lines:
        (offsets, probs), (their_offsets, theirs) = ours[line], model._labelled[line]
        assert offsets == their_offsets and np.array_equal(probs, theirs)


def test_a_replaced_value_takes_the_places_the_word_boundary_pattern_finds():
    # _replaced checks the character before a value by hand; the text is
    # that of the pattern with a lookbehind, overlapping candidates and all.
    import random
    import re

    rng = random.Random(36)
    for _ in range(500):
        values = {"".join(rng.choice("ab _-.é") for _ in range(rng.randint(1, 3))) for _ in "xy"}
        text = "".join(rng.choice("ab _-.é") for _ in range(rng.randint(0, 30)))
        replacing = dict.fromkeys(sorted(values), "PERSON")
        found = Redacted(chat(text), Counter(), {}, (), ())
        [turn] = second.replaced_everywhere(found, replacing).session.turns
        numbers = {v: n for n, v in enumerate(replacing, 1)}
        pattern = re.compile(
            "|".join(rf"(?<!\w){re.escape(v)}(?!\w)" for v in sorted(values, key=len, reverse=True))
        )
        expected = pattern.sub(lambda m, n=numbers: f"<PERSON_{n[m.group(0)]}>", text)
        assert turn.user_text == expected, (values, text)


def test_occurrences_from_the_word_index_are_the_word_boundary_pattern_s():
    # _Occurrences finds a value's candidates by its first word; the spans are
    # those surfaced.occurrences finds, leaf by leaf, overlapping values and all.
    import random

    from miner.redaction.surfaced import occurrences

    leaves = ["a a a a", "x ab-ab-ab"]
    assert second._Occurrences(leaves)("a a") == [(leaves[0], 0, 3), (leaves[0], 4, 7)]
    assert second._Occurrences(leaves)("ab-ab") == [(leaves[1], 2, 7)]
    # After a line break written "\\n" (a speaker's "\\nab:"), not "\\\\n".
    leaf = "hi\\nab: ok\\\\nab"
    assert second._Occurrences([leaf])("ab") == [(leaf, 4, 6)]
    rng = random.Random(36)
    letters = ["a", "b", "n", " ", "_", "-", ".", "é", "\\"]
    for _ in range(2000):
        leaves = [
            "".join(rng.choice(letters) for _ in range(rng.randint(0, 30)))
            for _ in range(rng.randint(1, 3))
        ]
        found = second._Occurrences(leaves)
        for _ in range(3):
            value = "".join(rng.choice(letters[:-1]) for _ in range(rng.randint(1, 4)))
            expected = [(leaf, s, e) for leaf in leaves for s, e in occurrences(leaf, value)]
            assert found(value) == expected, (value, leaves)


def test_a_window_is_the_value_and_about_a_sentence_either_side_not_the_whole_string():
    # The model's CPU follows the tokens it reads: in a 1 MiB message each
    # window is 100 characters either side (cut at a word), not its string.
    filler = "the parcel was left at the front desk of the building "
    text = filler * 40 + "ask Dagmar Novotna about it " + filler * 40
    [(window, start, end)] = SecondOpinion().windows("Dagmar Novotna", [text])
    assert window[start:end] == "Dagmar Novotna"
    assert 80 <= start <= 100
    assert 80 <= len(window) - end <= 100


def test_a_window_reads_line_breaks_written_backslash_n_as_breaks():
    # The model read "\\nQzorina:" as one word and the speaker as no name
    # (0.00001, against 0.9999 with a real break): its window breaks there.
    text = "Nela: What a wife.\\nQzorina: You saved my life!\\tHow?"
    [(window, start, end)] = SecondOpinion().windows("Qzorina", [text])
    assert window[start:end] == "Qzorina"
    assert window == "Nela: What a wife. \nQzorina: You saved my life!  How?"
    text = "hi\\nask Qzorina about it\\nbye"
    [(window, _start, _end)] = SecondOpinion().windows("Qzorina", [text])
    assert window == "hi \nask Qzorina about it \nbye"
    # A value alone on its line keeps its escapes: with real breaks the model
    # read a job alone on its line under a name's as a name.
    for text in ("Nela Varg\\n??? Qzorina.\\n12 Birch Lane", "Nela Varg\\nQzorina morski\\n12"):
        [(window, _start, _end)] = SecondOpinion().windows("Qzorina", [text])
        assert window == text


def test_a_value_after_a_line_break_written_backslash_n_is_replaced_too():
    # A chat log quoted inside a JSON string: the speaker after "\\n" is a
    # word of its own, as the session pass and surfaced.occurrences read it.
    found = Redacted(chat("Jai: hi\\nBhavini: You saved my life!"), Counter(), {}, (), ())
    [turn] = second.replaced_everywhere(found, {"Bhavini": "PERSON"}).session.turns
    assert turn.user_text == "Jai: hi\\n<PERSON_1>: You saved my life!"
    found = Redacted(chat("xBhavini and Bhavinis"), Counter(), {}, (), ())
    [turn] = second.replaced_everywhere(found, {"Bhavini": "PERSON"}).session.turns
    assert turn.user_text == "xBhavini and Bhavinis"


def test_a_rule_the_model_reads_well_replaces_at_its_lower_bar():
    # REASON_BARS: a lower-case first name ("tell radka the parcel came")
    # is replaced at 0.5; any other rule needs replace_score.
    opinion = SecondOpinion(replace_score=0.9)
    bars = opinion.bars(
        [
            Surfaced("PERSON", "radka", "a lower-case first name"),
            Surfaced("PERSON", "Vandrell", "a capitalised word no list knows"),
        ]
    )
    assert bars == {"radka": 0.5, "Vandrell": 0.9}
    read = [Reading(0.7, "PERSON")]
    assert opinion.verdict(read, bars["radka"]) == "PERSON"
    assert opinion.verdict(read, bars["Vandrell"]) is None
    assert opinion.verdict([Reading(0.4, "PERSON")], bars["radka"]) is None


def test_a_value_two_rules_surfaced_takes_the_higher_bar():
    opinion = SecondOpinion(replace_score=0.9)
    both = [
        Surfaced("PERSON", "trzaska", "a lower-case first name"),
        Surfaced("PERSON", "trzaska", "a guessed name (verdict)"),
    ]
    assert opinion.bars(both) == {"trzaska": 0.9}


def test_a_person_the_model_replaced_takes_its_parts_as_the_first_pass_links_them(
    policy, first_pass_only
):
    # The first pass only surfaced "GRACE OYELARAN" and left "grace" and
    # "oyelaran" as written; once the model replaces the name, its parts
    # take its placeholder as they would beside a name the first pass
    # replaced: "oyelaran" (no English word) anywhere, "grace" in a line
    # written in lower case.
    lines = ("GRACE OYELARAN is the recipient", "yes grace will come by later", "so oyelaran it is")
    [before] = first_pass_only.redact([chat(*lines)])
    assert [t.user_text for t in before.session.turns] == list(lines)
    assert "GRACE OYELARAN" in {s.value for s in before.surfaced}
    assert "grace" not in {s.value for s in before.surfaced}
    [after] = policy.redact([chat(*lines)])
    assert [t.user_text for t in after.session.turns] == [
        "<PERSON_1> is the recipient",
        "yes <PERSON_1> will come by later",
        "so <PERSON_1> it is",
    ]
    assert after.surfaced == ()
    assert after.replaced == Counter({"PERSON": 3})
    assert after.originals["Grace"] == "PERSON"


def test_a_part_english_writes_as_a_word_is_left_in_a_line_with_capitals():
    # "grace" in "Yes, grace will come" is not linked: the first pass
    # matches a one-word part English writes in lower case only in a line
    # written all in lower case (``session._Replacer``).
    session = chat("GRACE OYELARAN is the recipient", "Yes, grace will come by later")
    found = Redacted(session, Counter(), {}, (), (Surfaced("PERSON", "GRACE OYELARAN"),))
    linked = replaced_with_parts(found, {"GRACE OYELARAN": "PERSON"})
    assert [t.user_text for t in linked.session.turns] == [
        "<PERSON_1> is the recipient",
        "Yes, grace will come by later",
    ]


def test_a_part_inside_a_value_still_surfaced_is_left_whole_and_surfaced():
    # "Oyelaran Close 4" is surfaced as a street: replacing its "Oyelaran"
    # would leave "Close 4" as written with nothing surfaced over it (the
    # surfaced text stands nowhere any more). "oyelaran" alone still takes
    # the placeholder.
    session = chat(
        "GRACE OYELARAN is the recipient",
        "send it to Oyelaran Close 4 please",
        "so oyelaran it is",
    )
    street = Surfaced("STREET_ADDRESS", "Oyelaran Close 4")
    found = Redacted(session, Counter(), {}, (), (Surfaced("PERSON", "GRACE OYELARAN"), street))
    linked = replaced_with_parts(found, {"GRACE OYELARAN": "PERSON"})
    assert [t.user_text for t in linked.session.turns] == [
        "<PERSON_1> is the recipient",
        "send it to Oyelaran Close 4 please",
        "so <PERSON_1> it is",
    ]
    assert linked.surfaced == (street,)


def test_a_surfaced_value_the_linking_took_whole_everywhere_is_no_longer_surfaced():
    # "oyelaran" surfaced (another casing), and each of its occurrences now
    # the person's placeholder: nothing left for the reviewer to decide.
    session = chat("GRACE OYELARAN is the recipient", "so oyelaran it is")
    found = Redacted(
        session,
        Counter(),
        {},
        (),
        (Surfaced("PERSON", "GRACE OYELARAN"), Surfaced("PERSON", "oyelaran", "another casing")),
    )
    linked = replaced_with_parts(found, {"GRACE OYELARAN": "PERSON"})
    assert [t.user_text for t in linked.session.turns] == [
        "<PERSON_1> is the recipient",
        "so <PERSON_1> it is",
    ]
    assert linked.surfaced == ()


def test_occurrences_index_only_the_first_words_they_are_told_of():
    # The windows' index holds the surfaced values' first words only (a 1 MiB
    # message's every word was 200,000 places, built twice), and finds what
    # the full index finds for those values, after an escaped break too.
    leaves = ["hi\\nAna Lima and Ana, Lima Ana Lima", "x Bo Ana Lima-x"]
    values = ["Ana Lima", "Lima", "Bo"]
    firsts = {"Ana", "Lima", "Bo"}
    told = second._Occurrences(leaves, firsts)
    for value in values:
        assert told(value) == second._Occurrences(leaves)(value), value
    assert set(told._index()) == {"Ana", "Lima", "Bo"}


def test_occurrences_of_a_value_led_by_no_word_character_come_from_the_word_index(monkeypatch):
    # _Occurrences: a value that starts with no word character ("+33 6",
    # "(555) 12") is looked up by its first word in the index (glued to a
    # word before it, "x+33 6", it is not there), not searched for in every
    # leaf: the spans are surfaced.occurrences'. Only a value without a word
    # character is searched for.
    import random
    import re

    from miner.redaction.surfaced import occurrences

    leaves = ["call +33 6 or +33 6, x+33 6", "hi\\n+33 6 and (555) 12(555) 12"]
    cases = [(leaves, ["+33 6", "(555) 12", "}}"])]
    rng = random.Random(25)
    letters = ["a", "b", "n", "3", " ", "+", "(", ")", "_", "-", ".", "é", "\\", "}"]
    for _ in range(2000):
        texts = ["".join(rng.choice(letters) for _ in range(rng.randint(0, 30))) for _ in "ab"]
        values = [
            t[i : i + rng.randint(1, 6)] for t in texts if t for i in (rng.randrange(len(t)),)
        ]
        values += ["".join(rng.choice(letters[:-1]) for _ in range(rng.randint(1, 4)))]
        cases.append((texts, values))
    expected = [
        [[(leaf, s, e) for leaf in texts for s, e in occurrences(leaf, v)] for v in values]
        for texts, values in cases
    ]
    assert [len(found) for found in expected[0]] == [3, 1, 0]  # "12(555) 12" is glued

    def searched_for(text: str, value: str) -> list[tuple[int, int]]:
        assert not re.search(r"\w", value), f"{value!r} was searched for"
        return occurrences(text, value)

    monkeypatch.setattr(second, "occurrences", searched_for)
    for (texts, values), found in zip(cases, expected, strict=True):
        firsts = {m.group() for v in values if (m := re.search(r"\w+", v))}
        for told in (second._Occurrences(texts), second._Occurrences(texts, firsts)):
            assert [told(v) for v in values] == found, (texts, values)
