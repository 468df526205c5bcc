"""The second model's sweep (miner/redaction/sweep.py): what the policy
finished with is read once more by the real model, and what it labels
personal that nothing replaced or surfaced is surfaced, never replaced."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import pytest

from miner.config import load_config
from miner.redaction.detector import detector_for
from miner.redaction.policy import RedactionPolicy
from miner.redaction.redacted import Redacted
from miner.redaction.second import SecondModel
from miner.redaction.surfaced import Surfaced
from miner.redaction.sweep import SWEPT, Sweep, in_a_date_or_time, names_nothing
from tests.conftest import PIPELINE
from tests.test_redaction_second import chat


@pytest.fixture(scope="module")
def policy() -> RedactionPolicy:
    config = load_config(PIPELINE)
    return RedactionPolicy(config, detector_for(config))


def policy_with(policy: RedactionPolicy, sweep_chars: int) -> RedactionPolicy:
    """``policy`` with ``[redaction.unsure] sweep_chars`` set (the same detector)."""
    config = policy.config
    unsure = config.redaction.unsure.model_copy(update={"sweep_chars": sweep_chars})
    redaction = config.redaction.model_copy(update={"unsure": unsure})
    return RedactionPolicy(config.model_copy(update={"redaction": redaction}), policy.detector)


@pytest.fixture(scope="module")
def unswept(policy) -> RedactionPolicy:
    return policy_with(policy, 0)


#: A name the first pass leaves as written and surfaces nothing of: two
#: words English writes ("hope", "baker") in lower case, in a slot no rule reads.
MISSED = "please ask hope baker in accounts"


def test_a_name_the_first_pass_leaves_silent_is_surfaced(policy, unswept):
    [before] = unswept.redact([chat(MISSED)])
    assert before.session.turns[0].user_text == MISSED
    assert before.surfaced == ()
    [after] = policy.redact([chat(MISSED)])
    # Surfaced, never replaced: the text stays as written for the reviewer.
    assert after.session.turns[0].user_text == MISSED
    assert after.surfaced == (Surfaced("PERSON", "hope baker"),)
    assert [s.reason for s in after.surfaced] == [SWEPT]
    assert after.replaced == before.replaced


def test_a_text_over_the_limit_is_not_swept(policy):
    [result] = policy_with(policy, len(MISSED) - 1).redact([chat(MISSED)])
    assert result.surfaced == ()
    [result] = policy_with(policy, len(MISSED)).redact([chat(MISSED)])
    assert [s.value for s in result.surfaced] == ["hope baker"]


def left_as_written(*lines: str) -> list[Redacted]:
    """Sessions as a first pass that found nothing would leave them."""
    return [Redacted(chat(line), Counter(), {}) for line in lines]


def swept(
    *lines: str, allowed: tuple[str, ...] = (), bar: float = Sweep.bar
) -> list[tuple[tuple[str, str], ...]]:
    with SecondModel() as model:
        results = Sweep(10_000, bar).surfaced(
            left_as_written(*lines), lambda v: v in allowed, lambda _text: [], model
        )
    return [tuple((s.entity, s.value) for s in r.surfaced) for r in results]


def test_the_model_reads_names_streets_and_phones_with_their_numbers():
    assert swept(
        "the parcel is for Dorota Wójcik, flat 2",
        "send it to 14 Jabłoniowa Street please",
        "ring me on 0171 2345 678 after six",
    ) == [
        (("PERSON", "Dorota Wójcik"),),
        # The house number joins the street's name; "to" before it is no part.
        (("STREET_ADDRESS", "14 Jabłoniowa Street"),),
        (("PHONE_NUMBER", "0171 2345 678"),),
    ]


def test_an_ordinal_or_a_number_before_a_swept_street_joins_it():
    # The model read "Road Extension" as a street's and left "41st" under
    # the bar: the ordinal was left silent beside the surfaced name.
    assert swept("Please ship it to 41st Road Extension by Friday.") == [
        (("STREET_ADDRESS", "41st Road Extension"),)
    ]
    # Numbers beside no street the model reads are left alone.
    assert swept("The tables are 3 X 4 feet", "I need 3 Main menu items") == [(), ()]


def test_a_house_number_after_a_swept_street_joins_it_where_its_clause_ends():
    # The model read "Lewis-ro" (a Korean road's name, "-ro" its type) as a
    # street's and left "5" under the bar: the number was left silent.
    assert swept("I live at Lewis-ro 5 since March.") == [(("STREET_ADDRESS", "Lewis-ro 5"),)]
    # A count after the street, a noun after it, is not its number.
    [found] = swept("I sent it to Lewis-ro 2 days ago")
    assert not any("2" in value for _entity, value in found)


def test_a_value_after_an_escaped_line_break_is_read_as_after_a_real_one():
    # A tool's argument writes its line breaks as the two characters \\n: the
    # model read "\\nJaśminowa" as the one word "nJaśminowa" and labelled it
    # nothing (0.00), the street left silent. Read as a real break, the
    # street is surfaced as written, without the break's "n".
    escaped = "Kontakt:\\nJaśminowa\\n24-611 Olsztyn"
    assert swept(escaped) == [(("STREET_ADDRESS", "Jaśminowa"),)]
    assert swept(escaped.replace("\\n", "\n")) == [(("STREET_ADDRESS", "Jaśminowa"),)]


def test_a_placeholder_is_never_swept_but_the_name_beside_it_is():
    [found] = swept("Dear <PERSON_1> Kowalczyk, your order shipped")
    assert found == (("PERSON", "Kowalczyk"),)
    assert not any("<" in value or "PERSON_1" in value for _entity, value in found)


def test_what_is_surfaced_or_allowed_already_is_not_swept_again():
    [redacted] = left_as_written("the parcel is for Dorota Wójcik, flat 2")
    surfaced = Redacted(redacted.session, Counter(), {}, surfaced=(Surfaced("PERSON", "Wójcik"),))
    with SecondModel() as model:
        [result] = Sweep(10_000).surfaced([surfaced], lambda _v: False, lambda _t: [], model)
    assert [(s.value, s.reason) for s in result.surfaced] == [("Wójcik", ""), ("Dorota", SWEPT)]
    assert swept("the parcel is for Dorota Wójcik, flat 2", allowed=("Dorota Wójcik",)) == [()]


def test_a_text_several_sessions_hold_is_read_once_and_swept_in_each_apart():
    line = "the parcel is for Dorota Wójcik, flat 2"
    only_placeholders = "<PERSON_1>, <EMAIL_ADDRESS_1>"
    # One letter outside placeholders is no value to sweep; two may be one.
    one_letter, two_letters = "<PERSON_1> J.", "<PERSON_1> Jo"
    read: list[str] = []
    [as_written, *rest] = left_as_written(line, line, only_placeholders, one_letter, two_letters)
    # The same text, a name of it surfaced already in this session alone:
    # what the sweep adds is each session's own, though the text is read once.
    surfaced = Redacted(as_written.session, Counter(), {}, surfaced=(Surfaced("PERSON", "Wójcik"),))
    with SecondModel() as model:
        runner = model()
        label_all = runner.label_all

        def recorded(windows: Iterable[str]) -> None:
            windows = list(windows)
            read.extend(windows)
            label_all(windows)

        runner.label_all = recorded  # type: ignore[method-assign]
        results = Sweep(10_000).surfaced([surfaced, *rest], lambda _v: False, lambda _t: [], model)
    assert [[s.value for s in r.surfaced] for r in results[:3]] == [
        ["Wójcik", "Dorota"],
        ["Dorota Wójcik"],
        [],
    ]
    assert read.count(line) == 1
    # No value can be swept where two letters or digits stand outside placeholders.
    assert only_placeholders not in read
    assert one_letter not in read
    assert two_letters in read


def test_what_a_surfaced_value_leaves_of_a_swept_span_is_surfaced_with_it():
    # "Jabłoniowa" surfaced alone (a street's name written alone) cuts the
    # model's street in two, and neither "14" nor "Street" names anything
    # by itself: the street is surfaced whole, as written, not left silent.
    [redacted] = left_as_written("send it to 14 Jabłoniowa Street please")
    name = Surfaced("STREET_ADDRESS", "Jabłoniowa")
    surfaced = Redacted(redacted.session, Counter(), {}, surfaced=(name,))
    with SecondModel() as model:
        [result] = Sweep(10_000).surfaced([surfaced], lambda _v: False, lambda _t: [], model)
    assert [(s.value, s.reason) for s in result.surfaced] == [
        ("Jabłoniowa", ""),
        ("14 Jabłoniowa Street", SWEPT),
    ]


def swept_as_labelled(text: str, surfaced: Surfaced, span: str) -> list[str]:
    """What the sweep adds to ``text``, ``surfaced`` surfaced already there,
    were the model to label ``span`` of it personal (its entity's): no model
    read, so each rule of the whole span is pinned on a span chosen by hand."""
    [redacted] = left_as_written(text)
    result = Redacted(redacted.session, Counter(), {}, surfaced=(surfaced,))
    start = text.index(span)
    spans = {text: [(start, start + len(span), surfaced.entity)]}
    swept = Sweep(10_000)._swept(result, [text], spans, lambda _v: False, lambda _t: [])
    return [s.value for s in swept.surfaced[1:]]


def test_a_span_is_surfaced_whole_only_where_the_cut_left_a_piece_of_it():
    street, person = Surfaced("STREET_ADDRESS", "Jabłoniowa"), Surfaced("PERSON", "Anna")
    # The span from the text's first character to its last, and the piece
    # left a digit too few to be swept alone: the street whole.
    assert swept_as_labelled("Jabłoniowa 5", street, "Jabłoniowa 5") == ["Jabłoniowa 5"]
    # What the cut left is "to", the function word the model reads before a
    # name (no part of it): "Kowalska" is swept alone, and "Anna Kowalska",
    # whose every letter is surfaced already, is no decision more.
    text = "write to Anna Kowalska today"
    assert swept_as_labelled(text, person, "to Anna Kowalska") == ["Kowalska"]


def test_words_that_name_nothing_by_themselves_are_not_surfaced():
    assert names_nothing("bridge", "PERSON")
    assert names_nothing("Tunisia", "PERSON")
    assert names_nothing("venerdì", "PERSON")
    assert names_nothing("04.07.2026", "PHONE_NUMBER")
    assert not names_nothing("Walker", "PERSON")
    assert not names_nothing("hope baker", "PERSON")
    # A verb English writes very often, in lower case, is no first name
    # ("tell" is in the lists); a rarer one, or a noun, or capitalised, is.
    assert names_nothing("tell butler", "PERSON")
    assert not names_nothing("Tell Butler", "PERSON")
    assert not names_nothing("ask peter", "PERSON")
    assert not names_nothing("Oak Avenue", "STREET_ADDRESS")
    assert not names_nothing("0171 2345 678", "PHONE_NUMBER")


def test_a_surname_no_lexicon_files_names_someone():
    # "li", "wu", "xu" (Zipf 3.3 to 4.3) are census surnames more than English
    # writes them, and no lexicon files them as a noun, verb or adjective.
    for surname in ("Li", "wu", "XU", "Yu"):
        assert not names_nothing(surname, "PERSON"), surname
    assert not names_nothing("tell wu", "PERSON")
    # A surname English files as a noun of a trade stays a word here.
    assert names_nothing("baker", "PERSON")
    assert names_nothing("tell butler", "PERSON")
    # Words no census bears as often as English writes them stay words.
    for word in ("ok", "inc", "tv", "etc", "songwriter"):
        assert names_nothing(word, "PERSON"), word


def test_a_lower_case_name_the_model_is_less_sure_of_is_surfaced_under_the_bar():
    # The model reads "bronagh" (no English word) as a name at under 0.9.
    line = "it's for bronagh, my sister"
    assert swept(line, bar=0.9) == [()]
    assert swept(line, bar=0.7) == [(("PERSON", "bronagh"),)]
    assert Sweep.bar <= 0.7


def test_an_id_s_name_before_its_value_is_not_swept_as_a_person():
    # The model read "NIE" at a text's start as a name (a decision on every
    # such message); an id's own name before its value names no one.
    [found] = swept("NIE <NATIONAL_ID_1>")
    assert ("PERSON", "NIE") not in found


@pytest.mark.parametrize(
    "text, piece, inside",
    [
        ("I ordered it on 05.05.2025", "05", True),  # the model's phone over a date
        ("Date: 1975-01-25 16:06:46.293746\\nName: X", "293746", True),
        ("at 15:01:39.859783, then", "39", True),
        ("call 06.12.34.56.78 now", "34", False),  # a phone written with dots
        ("call 0171-555-0199 now", "555", False),
    ],
)
def test_a_phone_s_piece_inside_a_date_or_a_time_names_nothing(text, piece, inside):
    at = text.index(piece)
    assert in_a_date_or_time(text, at, at + len(piece)) is inside


def test_a_date_s_piece_the_model_labels_a_phone_is_not_swept(policy):
    # Mimesis tune: "05" of the date was a decision naming no one.
    text = "HIS SOCIAL SECURITY NUMBER IS BBTLCU52B04B350L I ordered it on 05.05.2025"
    [result] = policy.redact([chat(text)])
    assert not [s for s in result.surfaced if s.reason == SWEPT]
