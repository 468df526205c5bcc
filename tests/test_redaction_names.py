"""Names in a person's slot that the NER misses, replaced by the policy
(issue 36, branch names7): a title or a degree written with the name, a
particle before a surname in lower case, a word a clause addresses, the
line after a signature's delimiter, a name in lower case after a cue whose
first name no list knows. Through the real policy; each shape beside the
near miss that must stay."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from miner.model import Session, ToolCall, Turn
from miner.redaction.lexicon.names import RELATIVES


@pytest.fixture(scope="module")
def policy():
    from miner.config import load_config
    from miner.redaction.policy import policy_for
    from tests.conftest import PIPELINE

    return policy_for(load_config(PIPELINE))


def redacted(policy, *users: str, args: dict[str, str] | None = None):
    now = datetime(2026, 11, 22, tzinfo=UTC)
    call = ToolCall(name="lookup", agent="a", args=args, result={"status": "ok"}) if args else None
    calls = (call,) if call else ()
    turns = tuple(
        Turn(invocation_id=f"i{n}", user_text=user, reply_text="ok", tool_calls=calls if n else ())
        for n, user in enumerate(users)
    )
    [redaction] = policy.redact([Session("s", "support_agent", "u-1", now, now, {}, turns)])
    return redaction


def user_texts(redaction) -> list[str]:
    return [turn.user_text for turn in redaction.session.turns]


def assert_not_silent(policy, text: str, name: str) -> None:
    """``name`` in ``text`` is replaced, or surfaced whole."""
    redaction = redacted(policy, text)
    [out] = user_texts(redaction)
    assert name not in out or name in {s.value for s in redaction.surfaced}, out


@pytest.mark.parametrize(
    "text, name",
    [
        ("Maybe it's under Dian Widodo, M.Farm", "Dian Widodo, M.Farm"),
        ("Tell Septi Firgantoro, M.TI. that it shipped", "Septi Firgantoro, M.TI."),
        ("Name: R.A. Lestari Tampubolon, S.E.I\nPhone: unknown", "R.A. Lestari Tampubolon, S.E.I"),
        ("It's under my partner's name drg. Natalia Permadi", "drg. Natalia Permadi"),
        ("as RR commenter Kristína Jakúbeková Ph.D. points out", "Kristína Jakúbeková Ph.D."),
    ],
)
def test_a_title_or_a_degree_is_replaced_with_the_name(policy, text, name):
    [out] = user_texts(redacted(policy, text))
    assert "<PERSON_1>" in out, out
    for word in name.replace(",", " ").split():
        assert word not in out, out


def test_an_english_abbreviation_before_a_name_is_no_title(policy):
    [out] = user_texts(redacted(policy, "Pens, pads etc. Natalia Permadi ordered them"))
    assert "etc." in out and "Natalia" not in out, out


def test_a_particle_s_surname_is_replaced_in_lower_case_too(policy):
    [out] = user_texts(redacted(policy, "as regular commenter John Da silva points out"))
    assert "silva" not in out and "Da" not in out, out


def test_a_vowel_without_its_dot_after_a_first_name_is_the_name_s_initial(policy):
    [out] = user_texts(redacted(policy, "Please ask Leonor A Fernandes about it."))
    assert "Leonor" not in out and " A " not in out and "Fernandes" not in out, out


@pytest.mark.parametrize(
    "text, name",
    [
        ("Don't go to town, Kaniya!", "Kaniya"),
        ("Remember me, Niharika? It was years ago", "Niharika"),
        ("don't go to town, zikmund!. I ordered it on Monday", "zikmund"),
    ],
)
def test_a_name_a_clause_addresses_is_replaced(policy, text, name):
    [out] = user_texts(redacted(policy, text))
    assert name not in out and "<PERSON_1>" in out, out


@pytest.mark.parametrize(
    "text, word",
    [
        ("We visited Rome, Paris.", "Paris"),  # a list: a capital before the comma
        ("It arrived broken, though.", "though"),  # English writes it
        ("Thanks for nothing, Boss!", "Boss"),
    ],
)
def test_a_list_s_place_or_an_english_word_at_a_clause_s_end_is_not_replaced(policy, text, word):
    [out] = user_texts(redacted(policy, text))
    assert word in out, out


@pytest.mark.parametrize(
    "text, name",
    [
        ("Please call me back.\n--\nTercan Aksu\nIstanbul", "Tercan Aksu"),
        ("Will it arrive?\nThx\nTercan Aksu", "Tercan Aksu"),
        ("it still does not work.\nkind regards\ndovydas grinius\n", "dovydas grinius"),
    ],
)
def test_the_line_after_a_sign_off_or_a_signature_s_delimiter_is_a_name(policy, text, name):
    [out] = user_texts(redacted(policy, text))
    assert name not in out and "<PERSON_1>" in out, out


def test_a_dash_inside_a_line_is_no_signature(policy):
    [out] = user_texts(redacted(policy, "prices -- Tuesday is fine"))
    assert "<PERSON" not in out, out


@pytest.mark.parametrize(
    "text, name",
    [
        ("name: qabil ramachandran, order: 55123", "qabil ramachandran"),
        ("dear putri rajasa,\nyour parcel is on its way.", "putri rajasa"),
        ("ms yudy vargasova called about her refund", "yudy vargasova"),
        ("my name is i̇brahim passport number unknown", "i̇brahim"),
    ],
)
def test_a_lower_case_name_after_a_cue_is_replaced_though_no_list_knows_it(policy, text, name):
    [out] = user_texts(redacted(policy, text))
    assert name not in out and "<PERSON_1>" in out, out


@pytest.mark.parametrize("first", ["i̇brahim", "ibrahim", "maria"])
def test_an_english_word_after_a_lower_case_first_name_is_not_its_surname(policy, first):
    # Whether a list knows the first name or not: "passport" is English's.
    [out] = user_texts(redacted(policy, f"my name is {first} passport number unknown"))
    assert out == "my name is <PERSON_1> passport number unknown", out


def test_a_listed_surname_that_english_writes_stays_with_its_first_name(policy):
    [out] = user_texts(redacted(policy, "my name is maria brown, order 55123"))
    assert "brown" not in out and "maria" not in out, out


def test_a_lower_case_name_after_a_cue_stays_whole_beside_its_first_name_alone(policy):
    # "brian" alone after "Dear" in another string: "brian price" after
    # "under" is still a name whole, not "brian" and a surname left.
    out = user_texts(redacted(policy, "maybe it's under brian price", "Dear brian. Anything else?"))
    assert "price" not in out[0] and "brian" not in out[0], out


def test_a_lower_case_word_after_a_capitalised_name_is_not_its_surname(policy):
    # "said" is a listed name too; in lower case after a capitalised name in
    # a person's slot it is the sentence's verb, not the name's rest.
    [out] = user_texts(redacted(policy, "the agent Sophie said my refund was coming"))
    assert out == "the agent <PERSON_1> said my refund was coming", out


def test_an_escaped_line_break_before_a_replaced_name_is_a_word_s_start(policy):
    # A speaker's name the second model confirms is replaced after "\\n" too.
    chat = "Aahana: What a wife.\\nJai: Remember me?\\nBhavini: You saved my life!"
    out = user_texts(redacted(policy, chat, "ok", args={"query": "Bhavini"}))
    assert "Bhavini" not in out[0], out


@pytest.mark.parametrize(
    "text, hit, left",
    [
        ("I AM DRIVING TO NORWAY TOMORROW", "AM DRIVING TO NORWAY TOMORROW", "NORWAY"),
        ("IS QUAXBY OPEN NOW", "IS QUAXBY OPEN", "QUAXBY"),
        # A word a name list knows stays, English or not.
        ("CALL MARK GREEN TODAY", "CALL MARK GREEN TODAY", "MARK GREEN"),
        ("THE AND OF", "THE AND OF", ""),
    ],
)
def test_english_words_at_the_ends_of_a_name_in_capitals_are_cut_off(text, hit, left):
    from miner.redaction.lexicon.names import without_english_words

    start = text.index(hit)
    cut = without_english_words(text, start, start + len(hit))
    assert text[cut[0] : cut[1]] == left


def test_a_country_a_cue_ran_into_in_capitals_is_no_person_but_a_name_is(policy):
    # "I AM ..." is a name's cue; in capitals it ran over "DRIVING TO".
    texts = user_texts(redacted(policy, "I AM DRIVING TO NORWAY TOMORROW"))
    assert texts == ["I AM DRIVING TO NORWAY TOMORROW"]
    texts = user_texts(redacted(policy, "MY NAME IS TOBIAS QUAXBY AND I NEED HELP"))
    assert "TOBIAS" not in texts[0] and "QUAXBY" not in texts[0]
    assert texts[0].endswith(" AND I NEED HELP")


@pytest.mark.parametrize(
    "text, name",
    [
        ("call petronela back when you can", "petronela"),  # a lower-case first name
        ("ring WOJTASZEK on the intercom", "WOJTASZEK"),  # a surname in capitals
        ("recipient BRZECZEK not known at this address", "BRZECZEK"),
    ],
)
def test_the_outside_corpus_s_silent_shapes_are_replaced_or_surfaced(policy, text, name):
    # Lower-case first names and surnames in capitals were left silent by
    # the hidden outside corpus (issue 36): each is at least surfaced.
    assert_not_silent(policy, text, name)


@pytest.mark.parametrize(
    "text, name",
    [
        ("it was a Mr. wojtaszek at the door", "wojtaszek"),
        ("leave it with neighbour quaxby at no. 12", "quaxby"),
        ("ask frau brzeczek please", "brzeczek"),
        # A listed surname English writes often.
        ("leave it with neighbour baker please", "baker"),
        # A listed surname that calls or writes, capitalised.
        ("Wood called about the invoice", "Wood"),
        ("Price emailed twice about it", "Price"),
    ],
)
def test_a_lower_case_surname_after_a_title_or_a_relative_is_not_silent(policy, text, name):
    redaction = redacted(policy, text)
    [out] = user_texts(redaction)
    assert name not in out or any(name in s.value for s in redaction.surfaced), out


@pytest.mark.parametrize("relative", RELATIVES.split("|"))
def test_a_lower_case_surname_after_any_relative_is_not_silent(policy, relative):
    # One list of relatives (lexicon.names.RELATIVES) for the cue and the
    # unsure rule: with "son" and "partner" missing from the unsure one,
    # "leave it with her son quaxby" was silent.
    text = f"leave it with her {relative} quaxby"
    redaction = redacted(policy, text)
    [out] = user_texts(redaction)
    assert "quaxby" not in out or any("quaxby" in s.value for s in redaction.surfaced), out


@pytest.mark.parametrize(
    "text",
    [
        "my sister said so",
        "my wife called yesterday about it",
        "my boss wants a refund",
        "my wife works there",
        "Support called me yesterday",
        "The courier called twice",
    ],
)
def test_what_a_relative_did_is_no_name(policy, text):
    # "Said" is a first name; after "my sister" the verb's form is the deed.
    redaction = redacted(policy, text)
    assert user_texts(redaction) == [text] and redaction.surfaced == ()


def test_a_first_name_after_a_relative_is_still_replaced(policy):
    [out] = user_texts(redacted(policy, "my brother mark will pick it up"))
    assert out == "my brother <PERSON_1> will pick it up"


@pytest.mark.parametrize("surname", ["SCHNEIDER", "WEBER", "WAGNER"])
def test_a_common_surname_english_writes_in_capitals_is_not_silent(policy, surname):
    # Zipf 3.5 to 3.7 in English: the commonest German surnames.
    assert_not_silent(policy, f"the parcel is for {surname}, 3rd floor", surname)


# Names from lists the rules were not built from (branch names12): a sweep
# of mimesis's and other Faker locales' names in carrier sentences left these
# shapes silent. The examples here are written for the tests.


@pytest.mark.parametrize(
    "text, name",
    [
        # A census surname English writes as a name only, told something.
        ("please remind ramirez about the invoice", "ramirez"),
        # The same, capitalised (Zipf 3 to 4, no English lexicon's word).
        ("Hernandez will collect it", "Hernandez"),
        # A word no list knows, told or written to.
        ("please remind obiageli about the invoice", "obiageli"),
        ("let zanthulo know it shipped", "zanthulo"),
    ],
)
def test_a_name_no_first_name_list_knows_is_not_silent(policy, text, name):
    assert_not_silent(policy, text, name)


@pytest.mark.parametrize(
    "text",
    [
        "we stayed at the Hilton last year",  # a listed surname after a determiner
        "tell butler the refund went through",  # a surname that is an English word
        "please remind everyone about the invoice",
        "let support know it shipped",
        # A census surname lemminflect lacks, English's word elsewhere.
        "she employs corporate lingo in the letter",
        "we stayed at the Hilton in Carleton",
        # A listed surname inside a town's name of another language.
        "my parcel is stuck in Taman Desa since Monday",
    ],
)
def test_a_word_english_writes_or_a_firm_after_a_determiner_stays(policy, text):
    redaction = redacted(policy, text)
    assert user_texts(redaction) == [text] and redaction.surfaced == ()


def test_a_surname_in_capitals_after_a_person_replaced_is_the_name_s_part():
    from miner.redaction.unsure.names import names_beside_persons

    text = "please ring <PERSON_1> MAKUBETSO on the intercom"
    found = [text[s:e] for s, e, _entity in names_beside_persons(text)]
    assert found == ["MAKUBETSO"]
    # English after the person, or a word in capitals before it, is not.
    text = "ZUKO <PERSON_1> PLEASE CALL <PERSON_2> DOB"
    assert [text[s:e] for s, e, _entity in names_beside_persons(text)] == []


def test_a_surname_english_writes_capitalised_after_a_person_replaced_is_the_name_s_part():
    """ "Julia May": the first name replaced, the surname an English word that
    English writes in lower case there; silent before (the street sweep's
    "Julia May", "Karen Just")."""
    from miner.redaction.unsure.names import names_beside_persons

    for text, part in [
        ("Customer <PERSON_1> May wants a refund", "May"),
        ("Deliver to <PERSON_1> Just, <STREET_ADDRESS_1> please", "Just"),
        ("<PERSON_1> Young", "Young"),
    ]:
        assert [text[s:e] for s, e, _entity in names_beside_persons(text)] == [part]
    # Title case or another capitalised word after it: a heading, not a name.
    for text in ("Thanks <PERSON_1> Will Call Back", "Meeting With <PERSON_1> May Go Ahead"):
        assert [text[s:e] for s, e, _entity in names_beside_persons(text)] == []
    # Lower case: the sentence going on ("<PERSON_1> may call").
    text = "tell <PERSON_1> may call back tomorrow"
    assert [text[s:e] for s, e, _entity in names_beside_persons(text)] == []
    # After a greeting, a thanks or an apology a sentence starts (review21);
    # a line escaped as \\n is a line, its next word no lower-case word.
    for text in (
        "thanks <PERSON_1> Just checking in on my order",
        "hi <PERSON_1> Still waiting on the refund",
        "sorry <PERSON_1> May i ask a question",
        "Thanks <PERSON_1> Will\\nRegards\\nSupport",
    ):
        assert [text[s:e] for s, e, _entity in names_beside_persons(text)] == [], text


def test_how_a_text_writes_is_read_once_however_many_candidates(monkeypatch):
    """A long text with a candidate on every line is read once, not once per
    candidate (review21: quadratic on a 1 MiB message)."""
    from miner.redaction.unsure import names

    calls = []
    words = names._PROSE_WORD

    class Counting:
        def findall(self, text):
            calls.append(len(text))
            return words.findall(text)

    monkeypatch.setattr(names, "_PROSE_WORD", Counting())
    text = "Customer <PERSON_1> May wants a refund\n" * 50
    assert len(list(names.names_beside_persons(text))) == 50
    assert calls == [len(text)]


def test_a_surname_english_writes_after_a_first_name_is_not_silent(policy):
    redaction = redacted(policy, "Customer Julia May wants a refund for the blender")
    [text] = user_texts(redaction)
    assert "Julia" not in text
    assert "May" not in text or "May" in {s.value for s in redaction.surfaced}


# A first name no list knows, typed in lower case where a person stands in a
# chat (branch lowercase12): after a preposition of a person, a verb of
# speech or contact, or before one. The names here are made up for the test.


@pytest.mark.parametrize(
    "text, name",
    [
        ("the parcel is for ozvaniel, not me", "ozvaniel"),
        ("i spoke with tadewunmi yesterday", "tadewunmi"),
        ("got a mail from ilvaneth about the return", "ilvaneth"),
        ("zarvunka is waiting downstairs", "zarvunka"),
        ("odakemi called about the refund", "odakemi"),
    ],
)
def test_a_lower_case_name_no_list_knows_in_a_person_s_slot_is_not_silent(policy, text, name):
    redaction = redacted(policy, text)
    [out] = user_texts(redaction)
    assert name not in out or name in {s.value for s in redaction.surfaced}, out


@pytest.mark.parametrize(
    "text",
    [
        # Words English coins from its own: a compound, a suffix, a prefix.
        "the issue is with the backend",
        "the app is slow for rebooking",
        "the button is glitchy for me too",
        # A unit, no vowel in it.
        "is the limit for kbps or for mbps?",
        # An English word in the slot.
        "the parcel is for pickup, not delivery",
    ],
)
def test_an_english_coinage_or_a_unit_in_a_person_s_slot_stays(policy, text):
    redaction = redacted(policy, text)
    assert user_texts(redaction) == [text] and redaction.surfaced == ()


@pytest.mark.parametrize(
    "text, name",
    [
        ("Hola Suzuki, gracias por tu mensaje", "Suzuki"),  # silent on main
        ("hola burova, gracias por tu mensaje", "burova"),  # silent on main
        ("Hallo Anna, wie geht es?", "Anna"),
        ("Bonjour Marie, merci pour votre commande", "Marie"),
    ],
)
def test_the_word_after_another_language_s_greeting_is_the_person_greeted(policy, text, name):
    assert_not_silent(policy, text, name)


@pytest.mark.parametrize(
    "text, greeting",
    [
        ("Hallo Anna, wie geht es?", "Hallo"),  # "Hallo Anna" was replaced whole
        ("Servus Anna, danke", "Servus"),
        ("Bonjour à tous", "Bonjour"),  # surfaced as a listed name on main
        ("Hallo zusammen, danke", "Hallo"),
    ],
)
def test_another_language_s_greeting_is_no_one(policy, text, greeting):
    redaction = redacted(policy, text)
    [out] = user_texts(redaction)
    assert out.startswith(greeting + " ")
    assert not any(greeting in s.value for s in redaction.surfaced)


@pytest.mark.parametrize("text", ["Servus Anna, danke", "Bonjour Marie, merci"])
def test_the_thanks_after_a_greeted_person_replaced_is_not_surfaced(policy, text):
    # With the person replaced, the greeting's rule read "danke" as greeted
    # (the second model's sweep may still surface it: not this rule's).
    from miner.redaction.unsure.names import GREETED

    assert GREETED not in [s.reason for s in redacted(policy, text).surfaced]
