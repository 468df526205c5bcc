"""The detector's verdict on a name (miner/redaction/verdict.py): replace
what it is sure of, keep what it is sure names a thing, surface the rest;
and the session pass that honours it (nothing kept is replaced, nothing
surfaced is replaced, and a sure name is never hidden by a kept phrase)."""

from __future__ import annotations

import pytest

from miner.redaction.lexicon.firms import firm_by_its_words, in_a_firm_s_slot
from miner.redaction.lexicon.signatures import a_job_s_line
from miner.redaction.verdict import company_form_after, named_like_a_firm, noun_after, verdict_of


@pytest.mark.parametrize(
    "text, name, thing",
    [
        ("the Rosalind reading lamp came today", "Rosalind", "Rosalind reading lamp"),
        ("upgrade me to the Visitor plan please", "Visitor", "Visitor plan"),
        ("my Bartholomew smartphone is dead", "Bartholomew", "Bartholomew smartphone"),
        ("Ottilie wireless earbuds", "Ottilie", "Ottilie wireless earbuds"),
    ],
)
def test_an_ordinary_noun_after_a_name_makes_it_a_product(text, name, thing):
    end = text.index(name) + len(name)
    assert text[text.index(name) : noun_after(text, end)] == thing


@pytest.mark.parametrize(
    "text",
    [
        "Rosalind called yesterday about it",
        "thank you Rosalind for waiting",
        "Rosalind again, the parcel is late",
        "ask Rosalind today",
        "Rosalind, your refund is on its way",
    ],
)
def test_a_verb_an_adverb_or_a_clause_after_a_name_is_no_product(text):
    end = text.index("Rosalind") + len("Rosalind")
    assert noun_after(text, end) == 0


@pytest.mark.parametrize(
    "text, company",
    [
        ("sold by Brandauer Viehweg GmbH & Co. KG last week", "Brandauer Viehweg GmbH & Co. KG"),
        (
            "a refund from Ferrazzi, Lodovici e Gatti s.r.l. is due",
            "Ferrazzi, Lodovici e Gatti s.r.l.",
        ),
        ("Pemberton Ltd never sent it", "Pemberton Ltd"),
        ("the card of Duchamp S.A. was declined", "Duchamp S.A."),
    ],
)
def test_a_legal_form_in_or_after_a_name_makes_it_a_company(text, company):
    start = text.index(company)
    assert text[start : company_form_after(text, start)] == company


@pytest.mark.parametrize(
    "text",
    ["Pemberton as usual", "Pemberton said the company would call", "Pemberton and Ann came"],
)
def test_a_word_that_is_also_a_legal_form_is_none_in_running_text(text):
    assert company_form_after(text, 0) == 0


def test_a_legal_form_opening_a_name_before_an_apostrophe_is_none():
    # "Sa" of "Sa’idu Forge" was read as the form "SA": the street kept as a
    # firm, silent, where a straight apostrophe's was replaced.
    assert company_form_after("I live at Sa’idu Forge since March.", len("I live at ")) == 0
    assert company_form_after("I live at Sa'idu Forge since March.", len("I live at ")) == 0
    # A possessive after a form ends the firm's name still.
    assert company_form_after("Pemberton Ltd's office", 0) == len("Pemberton Ltd")


def verdict(text: str, value: str, recognizers: set[str], labels: set[str]) -> str:
    start = text.index(value)
    return verdict_of(
        text, start, start + len(value), "PERSON", frozenset(recognizers), frozenset(labels)
    )[0]


NER = {"PlaceAwareSpacyRecognizer"}


def test_a_cue_is_sure_even_where_the_words_after_look_like_a_product():
    assert verdict("my name is Rosalind Pike", "Rosalind Pike", {"NameCueRecognizer"}, set()) == (
        "replace"
    )


def test_a_full_name_or_a_known_first_name_tagged_person_is_sure():
    assert verdict("I spoke with Rosalind Pike", "Rosalind Pike", NER, {"PERSON"}) == "replace"
    assert verdict("thank you Rosalind.", "Rosalind", NER, {"PERSON"}) == "replace"


def test_without_a_cue_or_the_words_of_a_thing_a_name_hit_is_replaced_as_before():
    # Surfacing these instead raised silent leaks and decisions on the
    # presidio-evaluator splits (docs/redaction.md): they stay replaced.
    assert verdict("Quaxby escalated it.", "Quaxby", NER, {"PERSON"}) == "replace"
    assert verdict("ask Quaxby Holdings.", "Quaxby", NER, {"ORG"}) == "replace"


@pytest.mark.parametrize(
    "text", ["Escalated to Quaxby.", "please fly me from Wendrup", "at Quaxby"]
)
def test_one_guessed_word_where_a_town_or_a_firm_stands_as_often_is_surfaced(text):
    # After "to", "from", "in", "at": a town, a firm or a person; the
    # reviewer's (the second model replaces the names it is sure of).
    word = text.rstrip(".").split()[-1]
    assert verdict(text, word, NER, {"PERSON"}) == "surface"


@pytest.mark.parametrize(
    "text, word, expected",
    [
        ("Driver says nobody was home.", "Driver", "surface"),
        ("Parcel lost. Courier: left at the door", "Courier", "surface"),
        # Mid-sentence the capital is the word's own: a surname.
        ("please ask Driver about it", "Driver", "replace"),
        # A first name opening a sentence is a person's.
        ("Mark says hi", "Mark", "replace"),
    ],
)
def test_a_common_noun_opening_a_sentence_is_surfaced_not_replaced(text, word, expected):
    assert verdict(text, word, NER, {"PERSON"}) == expected


def test_capitals_with_a_word_no_name_list_knows_are_surfaced_in_mixed_case_text():
    # A ticker's or a firm's name in capitals as often as a surname.
    assert verdict("She holds QXWV TRNZ shares now", "QXWV TRNZ", NER, {"PERSON"}) == "surface"
    # Names the lists know stay replaced; so does a text all in capitals.
    assert verdict("Ask MARIA LOPEZ about it", "MARIA LOPEZ", NER, {"PERSON"}) == "replace"
    assert verdict("ASK QXWV TRNZ ABOUT IT", "QXWV TRNZ", NER, {"PERSON"}) == "replace"


def test_a_full_name_after_a_place_preposition_stays_replaced():
    assert verdict("Escalated to Karin Quaxby.", "Karin Quaxby", NER, {"PERSON"}) == "replace"


def test_a_first_name_and_a_surname_are_sure_whatever_spacy_calls_them():
    assert verdict(
        "directed by Karin Quaxby", "Karin Quaxby", {"FirstNameRecognizer"}, {"ORG"}
    ) == ("replace")


def test_a_three_letter_code_is_kept_on_a_route_and_surfaced_elsewhere():
    assert verdict("Flight TXL-MAD tomorrow", "TXL", {"FirstNameRecognizer"}, set()) == "keep"
    assert verdict("ask TXL about it", "TXL", {"FirstNameRecognizer"}, set()) == "surface"


def test_other_entities_are_decided_by_their_own_recognizer():
    assert verdict_of("0612345678", 0, 10, "PHONE_NUMBER", frozenset(), frozenset())[0] == (
        "replace"
    )


# Through the real policy (Presidio, the pinned spaCy model, the session pass).


@pytest.fixture(scope="module")
def policy():
    from miner.config import load_config
    from miner.redaction.policy import policy_for
    from tests.conftest import PIPELINE

    return policy_for(load_config(PIPELINE))


def redacted(policy, user: str, result: dict[str, str] | None = None, reply: str = "ok"):
    from datetime import UTC, datetime

    from miner.model import Session, ToolCall, Turn

    calls = (ToolCall(name="lookup", agent="a", args={}, result=result),) if result else ()
    turn = Turn(invocation_id="i", user_text=user, reply_text=reply, tool_calls=calls)
    now = datetime(2026, 11, 22, tzinfo=UTC)
    session = Session("s", "support_agent", "u-1", now, now, {}, (turn,))
    [redaction] = policy.redact([session])
    return redaction


def test_a_product_named_like_a_person_is_left_as_written_for_the_reviewer(policy):
    result = redacted(
        policy,
        "the Rosalind reading lamp arrived broken",
        reply="I have asked the courier to collect the Rosalind reading lamp.",
    )
    turn = result.session.turns[0]
    assert "Rosalind reading lamp" in turn.reply_text
    # Not replaced, not kept unseen: a decision ("Maria account locked" has
    # a noun after a name too; and an article before it was measured as no
    # evidence of a thing: docs/redaction.md).
    assert "Rosalind" in {s.value for s in result.surfaced}


@pytest.mark.parametrize("key", ["product", "query"])
def test_a_product_a_field_holds_whole_is_kept_where_it_stands(policy, key):
    # A field holding the name and its noun, and nothing else (a product
    # key, or a search for it), says the session names the product: kept,
    # no decision.
    result = redacted(
        policy,
        "the Rosalind reading lamp arrived broken",
        result={key: "Rosalind reading lamp"},
        reply="I have asked the courier to collect the Rosalind reading lamp.",
    )
    turn = result.session.turns[0]
    assert turn.tool_calls[0].result[key] == "Rosalind reading lamp"
    assert turn.reply_text.endswith("collect the Rosalind reading lamp.")
    assert turn.user_text == "the Rosalind reading lamp arrived broken"
    assert "rosalind reading lamp" in result.not_personal and result.surfaced == ()


def test_a_name_alone_beside_a_product_named_after_it_is_still_read(policy):
    # Only the phrase is the product's: the name written alone in another
    # string is a person's (and then replaced everywhere, product included).
    result = redacted(
        policy,
        "the Rosalind reading lamp arrived broken",
        result={"product": "Rosalind reading lamp"},
        reply="Thank you Rosalind Pike, I will collect it.",
    )
    assert result.session.turns[0].reply_text == "Thank you <PERSON_1>, I will collect it."


def test_a_name_the_session_shows_to_be_a_place_is_kept_where_it_stands_alone(policy):
    # Alone, "Shannon" is taken for a person; "Shannon Airport" in the same
    # session makes the bare value the place, neither replaced nor surfaced.
    alone = redacted(policy, "please rebook me.", result={"to": "Shannon"})
    assert alone.session.turns[0].tool_calls[0].result == {"to": "<PERSON_1>"}
    result = redacted(
        policy,
        "I am stuck at Shannon Airport, please rebook me.",
        result={"to": "Shannon"},
        reply="You are rebooked to Shannon.",
    )
    turn = result.session.turns[0]
    assert turn.tool_calls[0].result == {"to": "Shannon"}
    assert turn.reply_text == "You are rebooked to Shannon."
    assert "shannon" in result.not_personal and result.surfaced == ()


@pytest.mark.parametrize(
    "user, town",
    [
        ("My name is Quentin Pike. The signal is gone at Lake Quentin.", "Lake Quentin"),
        (
            "My name is Anouk Villiers. My order is at the shop in Villiers-sur-Marne.",
            "Villiers-sur-Marne",
        ),
    ],
)
def test_a_persons_word_found_elsewhere_is_not_replaced_inside_a_towns_name(policy, user, town):
    from miner.redaction.surfaced import normalised

    result = redacted(policy, user)
    text = result.session.turns[0].user_text
    # The person is replaced; the town holding one of their words is not them.
    assert text.startswith("My name is <PERSON_1>.") and town in text
    assert result.towns == (town,)
    # The leak guard reads the town as the draft does (miner/job.py): the
    # person's word in it is not a leak, and it is one outside it.
    originals = result.originals
    assert policy.leaks([normalised(text, result.towns)], originals) == {}
    assert policy.leaks([text], originals)


def test_a_guessed_name_beside_a_sure_one_of_a_person_stays_replaced(policy):
    # The thing a session names does not hide a person the cue is sure of.
    result = redacted(
        policy,
        "my name is Rosalind Pike. the Rosalind reading lamp is broken.",
        reply="Sorry, Rosalind Pike.",
    )
    assert "Pike" not in result.session.turns[0].reply_text
    assert "Rosalind" not in result.session.turns[0].reply_text


def test_a_code_kept_on_a_route_is_kept_where_it_stands_alone(policy):
    alone = redacted(policy, "Please check my booking", result={"origin": "MAN", "to": "SHA"})
    assert alone.session.turns[0].tool_calls[0].result != {"origin": "MAN", "to": "SHA"}
    result = redacted(policy, "Flight MAN-SHA tomorrow", result={"origin": "MAN", "to": "SHA"})
    assert result.session.turns[0].tool_calls[0].result == {"origin": "MAN", "to": "SHA"}
    assert result.surfaced == ()


def test_a_company_with_its_legal_form_is_kept(policy):
    # spaCy tags "Koch Otto KG" a person; its legal form says it is not.
    text = "The refund from Koch Otto KG never came."
    result = redacted(policy, text, result={"seller": "Koch Otto KG"})
    assert result.session.turns[0].user_text == text
    assert result.session.turns[0].tool_calls[0].result["seller"] == "Koch Otto KG"
    assert result.surfaced == ()


def test_a_name_said_by_a_cue_is_replaced_though_a_product_shares_it(policy):
    result = redacted(
        policy,
        "Hello, my name is Rosalind Pike. The Rosalind reading lamp is broken.",
        reply="Sorry, Rosalind.",
    )
    turn = result.session.turns[0]
    assert "Pike" not in turn.user_text
    assert "Rosalind" not in turn.reply_text


def test_an_unsure_name_glued_to_an_escaped_break_is_never_left_unseen(policy):
    # The reviewer's tools find a surfaced value on word boundaries; after a
    # "\\n" written inside a string it must not stand unseen: replaced, or
    # surfaced where the reviewer's tools find each occurrence.
    from miner.redaction.surfaced import occurrences

    result = redacted(policy, "Quintus: hello\\nQuintus: are you there?")
    text = result.session.turns[0].user_text
    if "Quintus" in text:
        assert "Quintus" in {s.value for s in result.surfaced}
        assert len(list(occurrences(text, "Quintus"))) == text.count("Quintus") == 2


@pytest.mark.parametrize(
    "text, hit",
    [
        ("Rosalind the Brave International Airport", "Rosalind"),  # small words inside
        ("Quaxby Air Base", "Quaxby Air"),  # the airfield's word cut in two
        ("Lake Wend (Rosalind Pike Memorial) Airport", "Rosalind Pike Memorial"),
        ("Quaxby State/Rosalind Executive Airport", "Quaxby State/"),
        ("Flight QXA-WND tomorrow", "Flight QXA-WND"),  # a route, not a name
    ],
)
def test_an_airfield_or_a_route_the_hit_is_part_of_keeps_it(text, hit):
    assert verdict(text, hit, NER, {"PERSON"}) == "keep"


def test_a_name_beside_an_airport_in_running_text_stays_a_persons():
    assert verdict("Rosalind the Brave met me at the airport", "Rosalind", NER, set()) == "replace"
    assert verdict("Rosalind QXA-WND", "Rosalind QXA-WND", NER, set()) == "replace"


def test_a_three_letter_code_outside_a_route_is_surfaced_not_replaced(policy):
    text = "Please ask TXL about the transfer."
    result = redacted(policy, text, result={"desk": "TXL"})
    if "TXL" in {s.value for s in result.surfaced}:  # the model took it for a name
        assert result.session.turns[0].user_text == text
    assert "TXL" in result.session.turns[0].tool_calls[0].result["desk"]


@pytest.mark.parametrize(
    "text, name",
    [
        ("Anshan Air Base", "Anshan Air Base"),
        ("Fort Madison Municipal Airport", "Fort Madison Municipal"),
        ("Gary/Chicago International Airport", "Gary"),
        ("You are rebooked from CKM (Fletcher Field) to Pauk.", "Fletcher Field"),
        ("Flight MAN-SHA tomorrow", "MAN"),
    ],
)
def test_a_name_standing_as_an_airfield_a_place_or_a_thing(text, name):
    from miner.redaction.verdict import stands_as_a_thing

    start = text.index(name)
    assert stands_as_a_thing(text, start, start + len(name))


@pytest.mark.parametrize(
    "text, name",
    [
        ("I spoke to Gary about the airport", "Gary"),
        ("Fletcher Field called back", "Fletcher Field"),
        ("ask MAN about it", "MAN"),
        ("Rosalind reading lamp", "Rosalind"),
        # Neither an article nor a place's preposition is evidence enough.
        ("Please ask John A Smith to call", "Smith"),
        ("your branch in Quaxbury will call", "Quaxbury"),
        # A passenger's SURNAME/GIVEN, or a code after "to", is no route
        # the other mentions of a code follow.
        ("SSR CTCM 0612345678 for pax KIM/ANA", "KIM"),
        ("send it to KIM", "KIM"),
    ],
)
def test_a_name_standing_where_a_person_does(text, name):
    from miner.redaction.verdict import stands_as_a_thing

    start = text.index(name)
    assert not stands_as_a_thing(text, start, start + len(name))


def test_a_surfaced_name_of_a_person_the_session_replaced_is_replaced_too(policy):
    from datetime import UTC, datetime

    from miner.model import Session, ToolCall, Turn
    from miner.redaction.session import redact_sessions

    call = ToolCall(name="lookup", agent="a", args={"customer": "Paul Jackson"}, result={})
    turn = Turn(
        invocation_id="i",
        user_text="no signal in Leeds since the 2026-10-09, it's paul from the Guest plan",
        reply_text="Sorry about that.",
        tool_calls=(call,),
    )
    now = datetime(2026, 11, 22, tzinfo=UTC)
    session = Session("s", "support_agent", "u-1", now, now, {}, (turn,))
    [first_pass] = redact_sessions([session], policy)
    assert "paul" in {s.value for s in first_pass.surfaced}  # a decision without the rule
    [result] = policy.redact([session])
    assert "paul" not in result.session.turns[0].user_text
    assert "paul" not in {s.value for s in result.surfaced}


def test_names_joined_into_one_field_name_a_firm(policy):
    # Alone in a sentence, three surnames name a firm as often as people:
    # the reviewer's, neither replaced nor kept unseen...
    line = "I have asked the courier to collect the lamp sold by Carter, Mitchell and Ingram."
    alone = redacted(policy, line)
    assert alone.session.turns[0].user_text == line
    assert {"Carter", "Mitchell", "Ingram"} <= {s.value for s in alone.surfaced}
    # ...but a field holding all three, whole, names one seller.
    result = redacted(policy, line, result={"seller": "Carter, Mitchell and Ingram"})
    assert result.session.turns[0].user_text == line
    assert result.session.turns[0].tool_calls[0].result == {"seller": "Carter, Mitchell and Ingram"}
    assert "carter, mitchell and ingram" in result.not_personal


def test_first_names_joined_into_one_field_stay_people(policy):
    result = redacted(
        policy, "Anna and Paul called about the lamp", result={"guests": "Anna and Paul"}
    )
    assert "Paul" not in result.session.turns[0].tool_calls[0].result["guests"]


@pytest.mark.parametrize("field", ["Jean-Pierre", "Blomqvist, Peter"])
def test_one_person_written_with_a_hyphen_or_a_comma_stays_a_person(policy, field):
    # A double first name, or a surname before its first name, is one
    # person's, not names joined into a firm's.
    result = redacted(policy, f"{field} just has to sign it.", result={"contact": field})
    assert result.session.turns[0].tool_calls[0].result["contact"] != field


def test_the_firm_someone_works_at_is_kept(policy):
    line = "I work as a surveyor at White, Higgins and Shaw. Please call back."
    # Elsewhere, three surnames are a firm's or people's: the reviewer's.
    spoke = redacted(policy, "I spoke to White, Higgins and Shaw.")
    assert "Higgins" in {s.value for s in spoke.surfaced}
    result = redacted(policy, line)
    assert result.session.turns[0].user_text == line
    assert "white, higgins and shaw" in result.not_personal


@pytest.mark.parametrize(
    "text, firm",
    [
        ("the refund from Quaxby Wendler OHG is late", "Quaxby Wendler OHG"),  # ISO 20275
        ("transfer to Orsini, Baldo e Fenzi SPA failed", "Orsini, Baldo e Fenzi SPA"),
        ("bought at Ferrero y asociados S. Coop. today", "Ferrero y asociados S. Coop."),
        ("write to Lina Quaxby, Pemberton Ltd", "Pemberton Ltd"),  # the person stays out
        # Every joiner of lexicon.joiners ends a list of its founders ("és").
        ("invoice from Kiss, Nagy és Varga Bt. arrived", "Kiss, Nagy és Varga Bt."),
    ],
)
def test_a_firm_running_into_its_legal_form_is_found_in_running_text(text, firm):
    from miner.redaction.verdict import companies_in

    assert companies_in(text) == [firm]


@pytest.mark.parametrize(
    "text", ["LINA QUAXBY AS AGREED", "ask Lina Quaxby Auto", "Lina Quaxby is here"]
)
def test_a_word_after_a_name_is_no_legal_form_in_capitals_or_when_english(text):
    from miner.redaction.verdict import companies_in

    assert companies_in(text) == []


def test_a_job_someone_works_as_is_found():
    from miner.redaction.verdict import jobs_in

    assert jobs_in("I work as a Chartered surveyor at Quaxby SPA.") == ["Chartered surveyor"]
    assert jobs_in("I work with Lina") == []


@pytest.mark.parametrize(
    "value, town",
    [
        ("Lake Quaxby", True),
        ("Quaxbyville", True),
        ("Quaxby-sur-Mer", True),
        ("Lina Ville", True),
        ("Quaxdorf am Wendelsee", True),
        ("Miranda do Douro", True),  # GeoNames' town of several words
        ("Dolores Hidalgo", False),  # a town, but written as a person is
        ("Davenport", False),  # a surname the census lists
        ("Lina Quaxby", False),
    ],
)
def test_a_name_written_as_towns_are_is_a_town(value, town):
    from miner.redaction.verdict import town_shaped

    assert town_shaped(value) is town


@pytest.mark.parametrize(
    "text, hit, kept",
    [
        ("the ferry leaves Quaxby-sur-Wend at noon", "Wend", True),
        ("we stayed in Wendel-on-Quax for a week", "Wendel", True),
        ("booked a room in Pellin-la-Vieille", "Pellin", True),
        ("Jean-Quaxby called about the refund", "Quaxby", False),  # a person's compound
        ("Lina Quaxby-Wendel called", "Wendel", False),
    ],
)
def test_a_word_of_a_hyphenated_town_is_kept(text, hit, kept):
    assert (verdict(text, hit, NER, {"PERSON"}) == "keep") is kept


def test_a_first_name_spacy_reads_as_a_place_is_surfaced():
    # The first-name list knows the word, spaCy calls it a place there:
    # two guesses that disagree are the reviewer's, not replaced unseen.
    first_name = {"FirstNameRecognizer"}
    assert verdict("Georgia was lovely in spring", "Georgia", first_name, {"GPE"}) == "surface"
    assert verdict("flew over Of Georgia", "Of Georgia", first_name, {"LOC"}) == "surface"
    # Or as a firm, a people or a day: any reading but a person's disagrees.
    text = "an orchestra serving Ascension"
    assert verdict(text, "Ascension", first_name, {"ORG"}) == "surface"
    assert verdict("We'll meet Petek at Brightscope", "Petek", first_name, {"ORG"}) == "surface"
    assert verdict("serving Sunni towns", "Sunni", first_name, {"NORP"}) == "surface"
    # A cue's word is sure whatever spaCy reads there ("my name is Paris").
    cue = {"NameCueRecognizer"}
    assert verdict("my name is Paris and I", "Paris", cue, {"GPE"}) == "replace"
    assert verdict("my name is Paris and I", "Paris", cue | first_name, {"ORG"}) == "replace"
    # Not where spaCy agrees it is a person, nor where spaCy found it too,
    # nor a first name with a surname.
    assert verdict("Georgia called twice", "Georgia", first_name, {"PERSON"}) == "replace"
    assert verdict("Georgia was lovely", "Georgia", first_name | NER, {"GPE"}) == "replace"
    assert verdict("Georgia Quaxby was here", "Georgia Quaxby", first_name, {"GPE"}) == "replace"


def test_a_first_name_only_the_list_reads_is_asked_not_replaced():
    # One word only the first-name list calls a person, spaCy reading
    # nothing there: a town or a firm as often ("serving Ascension",
    # "we love Lidl"); surfaced, for the second model and the reviewer.
    first_name = {"FirstNameRecognizer"}
    assert verdict("serving Ascension", "Ascension", first_name, set()) == "surface"
    assert verdict("we love Lidl, it is cheap", "Lidl", first_name, set()) == "surface"
    # Sure where another reader agrees: spaCy's person, spaCy's hit, a cue;
    # and a first name with a surname.
    assert verdict("serving Ascension", "Ascension", first_name, {"PERSON"}) == "replace"
    assert verdict("serving Ascension", "Ascension", first_name | NER, set()) == "replace"
    cue = {"NameCueRecognizer"}
    assert verdict("my name is Ascension", "Ascension", first_name | cue, set()) == "replace"
    assert verdict("Georgia Quaxby was here", "Georgia Quaxby", first_name, set()) == "replace"
    # Nor beside a house number, where the word is a street's name.
    assert verdict("my home is Ascension 5, Quaxby", "Ascension", first_name, set()) == "replace"
    assert verdict("my home is 12 Ascension, Quaxby", "Ascension", first_name, set()) == "replace"


def test_a_country_written_with_its_other_name_in_brackets_is_both():
    from miner.redaction.lexicon.names import country_names

    # CLDR writes one country "Myanmar (Burma)": either name alone is it.
    assert {"myanmar", "burma"} <= country_names()


@pytest.mark.parametrize(
    "value, thing",
    [
        ("Robot Vacuum", True),
        ("Coffee Maker", True),
        ("E-Reader", True),
        ("Rose Baker", False),
        ("Baker", False),
    ],
)
def test_ordinary_nouns_in_capitals_name_a_thing_not_a_first_name_or_one_word(value, thing):
    from miner.redaction.verdict import common_nouns

    assert common_nouns(value) is thing


@pytest.mark.parametrize(
    "value, product",
    [
        ("Rosalind reading lamp", True),
        ("Ottilie smartwatch", True),
        ("rosalind reading lamp", False),  # a name in lower case
        ("Dustin green", False),  # a surname in lower case
        ("Rosalind Pike", False),
    ],
)
def test_a_whole_string_of_a_name_and_a_noun_is_a_product(value, product):
    from miner.redaction.verdict import product_named_like_a_person

    assert product_named_like_a_person(value) is product


@pytest.mark.parametrize(
    "key, value, thing",
    [
        ("seller", "Quaxby-Wendler", True),
        ("seller", "Quaxby Wendler SA", True),
        ("seller", "Lina Quaxby", False),  # a marketplace's seller may be a person
        ("branch", "Quaxbury", True),
        ("origin", "TXL", True),
        ("plan", "Visitor plan", True),
        ("seller", "left with Lina Quaxby at the door", False),
        ("note", "Quaxby-Wendler", False),
    ],
)
def test_a_firm_place_or_plan_key_names_a_thing_unless_it_reads_as_a_person(key, value, thing):
    from miner.config import load_config
    from miner.redaction.keys import KeyRules
    from tests.conftest import PIPELINE

    assert KeyRules(load_config(PIPELINE)).names_a_thing(key, value) is thing


def test_a_firm_a_field_names_is_kept_in_the_text_around_it(policy):
    text = "I bought the lamp at Quaxby-Wendler, ask Lina Pike."
    result = redacted(policy, text, result={"seller": "Quaxby-Wendler", "branch": "Quaxbury"})
    turn = result.session.turns[0]
    assert turn.tool_calls[0].result == {"seller": "Quaxby-Wendler", "branch": "Quaxbury"}
    assert turn.user_text.startswith("I bought the lamp at Quaxby-Wendler, ask ")
    assert "Lina" not in turn.user_text


def test_a_sure_name_an_airfield_is_named_after_is_the_airfield():
    text = "I am stuck at Quentin G Quaxby Sr Airport tonight"
    sure = {"PlaceAwareSpacyRecognizer", "NameSuffixRecognizer"}
    assert verdict(text, "Quentin G Quaxby Sr", sure, {"PERSON"}) == "keep"
    # A cue still says a person: "my name is ..." is no airfield's.
    cued = "please ask for Quentin Quaxby Airport staff"
    assert verdict(cued, "Quentin Quaxby", {"NameCueRecognizer"}, set()) == "replace"
    assert verdict(cued, "Quentin Quaxby", sure, set()) == "keep"


@pytest.mark.parametrize(
    "text, name, kept",
    [
        ("your branch in Quaxdorf am Wendelsee will call", "Wendelsee", "keep"),
        ("your branch in Mont- Quaxby will call", "Quaxby", "keep"),
        ("an agency based in Miranda do Douro.", "Miranda", "keep"),  # GeoNames
        ("ask Miranda do it today", "Miranda", "replace"),
        ("Dolores Hidalgo called", "Dolores", "replace"),  # a town, written as a person
        # German writes "bei" and "im" before people and places alike.
        ("Termin bei Quaxby", "Quaxby", "replace"),
        ("Treffen im Quaxby", "Quaxby", "replace"),
    ],
)
def test_the_last_word_of_a_town_after_its_preposition_is_kept(text, name, kept):
    assert verdict(text, name, NER, {"PERSON"}) == kept


@pytest.mark.parametrize(
    "text, name, said",
    [
        ("Quaxby is a design agency based in Acerra.", "Quaxby", True),
        ("In Acerra, Quaxby is a 501(c)3 that invites songwriters", "Quaxby", True),
        ("QUAXBY IS A DESIGN AGENCY BASED IN ACERRA.", "QUAXBY", True),
        ("Lina Quaxby was a family company.", "Lina Quaxby", True),
        ("Quaxby is a law firm, based in Leeds", "Quaxby", True),
        (
            "Quaxby is an Italian multinational investment bank and financial services company",
            "Quaxby",
            True,
        ),
        ("Quaxby is the brainchild of our 3 founders", "Quaxby", True),
        # A person is said to be a job: a firm's noun before another word,
        # after a preposition, or one a person is named as, is none.
        ("Lina Quaxby is a nurse based in Leeds.", "Lina Quaxby", False),
        ("Lina Quaxby is a company director in Leeds.", "Lina Quaxby", False),
        ("Lina Quaxby is a charity worker.", "Lina Quaxby", False),
        ("Lina Quaxby is a nurse at the company.", "Lina Quaxby", False),
        ("Lina Quaxby is a founder of a start-up.", "Lina Quaxby", False),
        ("Lina Quaxby is a brand ambassador.", "Lina Quaxby", False),
        ("Lina Quaxby is a bank clerk.", "Lina Quaxby", False),
        ("Lina Quaxby is a proud brand.", "Lina Quaxby", False),
        ("Lina Quaxby is a retailer.", "Lina Quaxby", False),
        ("Lina Quaxby is a very firm, fair boss.", "Lina Quaxby", False),
        ("Lina Quaxby is a one-man company.", "Lina Quaxby", False),
        ("Lina Quaxby is a company in herself.", "Lina Quaxby", False),
        ("Lina Quaxby works for a design agency based in Leeds.", "Lina Quaxby", False),
        # A comma opening a list of a person's trades, the firm's noun the
        # first (review25: kept, silent, on main e3afd0f).
        ("Anna Smith is a charity, arts and community worker.", "Anna Smith", False),
        ("Tom Baker is a non-profit, education and health consultant.", "Tom Baker", False),
        ("Jan Kowalski is a charity, youth & sports coach.", "Jan Kowalski", False),
        ("Maria Lopez is a start-up, tech, finance advisor.", "Maria Lopez", False),
        # A firm's own comma stays a firm's.
        ("Quaxby is a design agency, founded in 2001.", "Quaxby", True),
    ],
)
def test_a_name_the_sentence_says_is_a_firm(text, name, said):
    from miner.redaction.lexicon.firm_said import said_to_be_a_firm

    assert said_to_be_a_firm(text, text.index(name) + len(name)) is said
    # Kept there only when said so (a keep is final); else as before.
    assert (verdict(text, name, NER, {"PERSON"}) == "keep") is said


@pytest.mark.parametrize(
    "text, name",
    [
        # A clause of the person's after her job, the firm in it hers (the
        # words before the firm's noun are no firm's words): replaced on main.
        ("Anna Berg is a nurse who works through NHS Professionals agency.", "Anna Berg"),
        ("John Smith is a sole trader trading as Smith Consultancy.", "John Smith"),
        ("John Smith is a plumber who runs Smith Plumbing company.", "John Smith"),
        ("John Smith is a plumber running Smith Plumbing company.", "John Smith"),
        ("Kevin Marsh is a freelancer contracted through agency.", "Kevin Marsh"),
        # An object inside the subject, not what "is" is said of.
        ("The sponsor for Maria Lopez was a charity.", "Maria Lopez"),
        ("The charity supporting Anna Berg is a registered charity.", "Anna Berg"),
        ("The company that employs John Smith is a consultancy.", "John Smith"),
        ("The agency that placed Kevin Marsh is a recruitment agency.", "Kevin Marsh"),
        # A one-person firm is a person.
        ("Jane Doe is a one woman agency based in Bath.", "Jane Doe"),
    ],
)
def test_a_person_beside_a_firm_the_sentence_names_is_not_said_to_be_one(text, name):
    # A keep is final: these persons were left silent by the firm's reading
    # (the last three by the name rules' own reading of it, before there was one).
    from miner.redaction.lexicon.firm_said import said_to_be_a_firm
    from miner.redaction.lexicon.names import names_no_person

    start = text.index(name)
    assert not said_to_be_a_firm(text, start + len(name), start)
    assert verdict(text, name, NER, {"PERSON"}) != "keep"
    assert not names_no_person(text, start, start + len(name))


@pytest.mark.parametrize(
    "text",
    [
        "I believe Quaxby is a design agency based in Leeds.",
        "Good morning Quaxby is a small charity based in Leeds.",
        "As Quaxby is a charity, donations are tax-deductible.",
        "Our supplier Quaxby is a design agency based in Leeds.",
        "Quaxby is a privately owned company based in Leeds.",
    ],
)
def test_a_firm_said_to_be_one_after_a_verb_or_a_noun_still_is(text):
    from miner.redaction.lexicon.firm_said import said_to_be_a_firm

    start = text.index("Quaxby")
    assert said_to_be_a_firm(text, start + len("Quaxby"), start)
    assert verdict(text, "Quaxby", NER, {"PERSON"}) == "keep"


def test_a_name_kept_as_a_firm_keeps_none_of_its_other_mentions(policy):
    # A keep is final, so it is narrow: the sentence that says the name is a
    # firm keeps it there only; the same name written elsewhere in the
    # session is judged where it stands ("Lina Quaxby called me": a person's).
    result = redacted(
        policy,
        "Quaxby is a design agency based in Acerra.",
        reply="Thank you, Lina Quaxby called me about it yesterday.",
    )
    assert "Quaxby" not in result.session.turns[0].reply_text


@pytest.mark.parametrize(
    "text, name, asked",
    [
        # Said to be a firm, or where a full name (replaced by now) is from:
        # the second model reads a firm named after a person as a name, so it
        # is not asked; the value stays the reviewer's.
        ("In Leeds, Quaxby is a 501(c)3 that invites songwriters.", "Quaxby", False),
        ("I spoke to <PERSON_1> of Sergio Rossi yesterday", "Sergio Rossi", False),
        ("Lina Quaxby is a nurse based in Leeds.", "Lina Quaxby", True),
        ("Lina Quaxby is a company director in Leeds.", "Lina Quaxby", True),
    ],
)
def test_a_firm_the_sentence_names_is_not_asked_of_the_second_model(text, name, asked):
    from miner.redaction.second import _names_a_thing

    start = text.index(name)
    assert _names_a_thing([(text, start, start + len(name))]) is not asked


@pytest.mark.parametrize(
    "text, name, said",
    [
        ("In Leeds, Quaxby is a 501(c)3 that invites songwriters.", "Quaxby", True),
        ("Sergio Quaxby is an investment firm, based in Leeds.", "Quaxby", True),
        # A person is said to be a job: still the reviewer's.
        ("In Leeds, Quaxby is a nurse based there.", "Quaxby", False),
        ("In Leeds, Quaxby is a company director.", "Quaxby", False),
    ],
)
def test_a_word_the_sentence_says_is_a_firm_is_not_surfaced_there(text, name, said):
    # The verdict keeps a guessed name so said; the rules that surface
    # capitalised words (``unsure``) and the second model's sweep do not put
    # it before the reviewer there either: it was surfaced after the keep,
    # and the second model, not asked there, left it a decision.
    from miner.redaction.sweep import a_firm_s
    from miner.redaction.unsure import Unsure

    start = text.index(name)
    assert (name not in {text[s:e] for s, e, _ in Unsure().spans(text)}) is said
    assert a_firm_s(text, start, start + len(name)) is said


def test_a_firm_the_sentence_says_is_one_is_neither_replaced_nor_surfaced(policy):
    result = redacted(policy, "In Leeds, Quaxby is a 501(c)3 that invites songwriters.")
    assert "Quaxby" in result.session.turns[0].user_text
    assert "Quaxby" not in {s.value for s in result.surfaced}


@pytest.mark.parametrize(
    "text, name, decided",
    [
        # Where someone is from after their full name: a firm named after a
        # person as often as a person; the reviewer's, never kept.
        ("Tom Berg of Quaxby is the CEO of the year.", "Quaxby", "surface"),
        ("Dr. Tom Berg of Lina Quaxby, and others", "Lina Quaxby", "surface"),
        ("Mary Jones of Peter Hughes said hello", "Peter Hughes", "surface"),
        ("Tom Berg of Lina's team called", "Lina", "replace"),  # a person's team
        ("Bank of Lina Quaxby called", "Lina Quaxby", "replace"),  # no full name before
        # A month or a weekday is no first name before "of".
        ("Attached is the June Statement of Anna Berg", "Anna Berg", "replace"),
        ("Attached is the Monday Report of Anna Berg", "Anna Berg", "replace"),
        # Not the apposition's lower-case words before a surname.
        ("your rep, the Senior account manager Smith, on Monday", "Smith", "replace"),
    ],
)
def test_a_name_after_a_full_name_s_of_is_the_reviewer_s(text, name, decided):
    assert verdict(text, name, NER, {"PERSON"}) == decided


def test_a_person_after_a_full_name_s_of_is_never_left_unseen(policy):
    # Surfaced, not kept: the second model is not asked there (it reads a
    # firm named after a person as a name), so the reviewer sees it.
    result = redacted(policy, "Mary Jones of Peter Hughes said hello")
    text = result.session.turns[0].user_text
    assert "Peter Hughes" not in text or "Peter Hughes" in {s.value for s in result.surfaced}
    assert "Mary Jones" not in text
    kept = redacted(policy, "Attached is the June Statement of Anna Berg")
    assert "Anna Berg" not in kept.session.turns[0].user_text
    # A firm named after a person there: the reviewer's, not replaced by the
    # second model, which reads "<PERSON_1> of Sergio Rossi" as a name.
    firm = redacted(policy, "I spoke to Tom Berg of Sergio Rossi yesterday")
    assert firm.session.turns[0].user_text == "I spoke to <PERSON_1> of Sergio Rossi yesterday"
    assert {s.value for s in firm.surfaced} == {"Sergio Rossi"}


@pytest.mark.parametrize(
    "line, firm",
    [
        ("Your parcel ships with Okabe Transport tomorrow", "Okabe Transport"),
        ("Boulangerie Vasseur called about the order", "Boulangerie Vasseur"),
        ("Your order from Lindqvist Elektro is ready", "Lindqvist Elektro"),
        ("My contract with Okonkwo and Sons ends soon", "Okonkwo and Sons"),
        ("Please transfer me to Ferrandi e figli", "Ferrandi e figli"),
        ("The year after, at Ottokar Wendl & Comp. in Graz", "Ottokar Wendl & Comp."),
    ],
)
def test_a_trade_s_or_family_firm_s_word_keeps_the_firm_whole(policy, line, firm):
    # A shop's, carrier's or trade's word, or a family firm's ending, beside
    # a surname: the firm's name, kept as written and not put before anyone.
    result = redacted(policy, line)
    assert result.session.turns[0].user_text == line
    assert not {s.value for s in result.surfaced} & set(firm.split())


def test_a_trade_word_in_lower_case_makes_no_firm(policy):
    from miner.redaction.lexicon.names import names_no_person

    name = "Greta Lindqvist"
    assert names_no_person(f"{name} Transport is late", 0, len(name))
    assert not names_no_person(f"{name} transport request is late", 0, len(name))
    # A man and his sons, not a family firm.
    assert (
        "Mark Okonkwo"
        not in redacted(policy, "Mark Okonkwo and sons came by").session.turns[0].user_text
    )


@pytest.mark.parametrize(
    "line, firm",
    [
        ("The parcel from Okafor, Lindqvist and Brandt never arrived", "Lindqvist"),
        ("I work for Ndiaye-Okafor", "Ndiaye-Okafor"),
        ("The invoice from Brandvold & Okafor is wrong", "Brandvold"),
    ],
)
def test_surnames_named_as_a_firm_are_the_reviewer_s(policy, line, firm):
    # Firms are named after their founders' surnames, and people are listed
    # by theirs: neither replaced nor kept unseen.
    result = redacted(policy, line)
    assert result.session.turns[0].user_text == line
    assert firm in {s.value for s in result.surfaced}


@pytest.mark.parametrize(
    "line, person",
    [
        ("Mrs Ndiaye-Okafor called again", "Ndiaye-Okafor"),  # a title: a person
        ("Jean-Pierre called again", "Jean-Pierre"),  # a double first name
        ("I spoke to Okafor, Greta and Brandt", "Greta"),  # a first name among them
        ("I spoke to Okafor, Paul and Anna", "Paul"),  # common ones in English
    ],
)
def test_surnames_with_a_title_or_a_first_name_stay_a_person_s(policy, line, person):
    assert person not in redacted(policy, line).session.turns[0].user_text


@pytest.mark.parametrize(
    "text, word, thing",
    [
        ("Kofi Mensah, the Vostrane Kellith Daune, said it", "Kellith", True),  # a job
        ("KOFI MENSAH, THE VOSTRANE KELLITH DAUNE, SAID IT", "KELLITH", True),
        ("Hi Kofi, the Warden Greta Lindqvist, called", "Greta", False),  # a first name
        ("the Vostrane Kellith called", "Kellith", False),  # no apposition
    ],
)
def test_a_hit_inside_an_apposition_after_the_names_a_job(text, word, thing):
    from miner.redaction.verdict import after_determiner

    assert after_determiner(text, text.index(word)) is thing


@pytest.mark.parametrize(
    "line, expiry",
    [
        ("Date of birth 1979-11-05 Expiry 2031-04-30 Passport on file", "2031-04-30"),
        ("DOB 1979-11-05 exp 2031-04-30", "2031-04-30"),
    ],
)
def test_an_iso_expiry_date_after_a_birth_date_is_kept(policy, line, expiry):
    # An ISO date's numbers are no Japanese block ("1-2-3 Shibuya") nor a
    # house number before "exp" (a USPS suffix): the birth date is replaced
    # as one, the expiry date after it stays.
    text = redacted(policy, line).session.turns[0].user_text
    assert "1979-11-05" not in text and "<DATE_OF_BIRTH_" in text
    assert expiry in text


@pytest.mark.parametrize(
    "text, town",
    [
        # A name a list knows with a town's ending glued to it.
        ("Gretchenberg is lovely in spring.", "Gretchenberg"),
        ("Oskarmouth has a nice beach", "Oskarmouth"),
        # A town's first word before a first name; in capitals too.
        ("New Tobias was great fun", "New Tobias"),
        ("St. Hedwig was great fun", "St. Hedwig"),
        ("WEST HILDA WAS GREAT FUN", "WEST HILDA"),
    ],
)
def test_a_name_written_as_a_town_is_kept(text, town):
    assert verdict(text, town, NER, {"PERSON"}) == "keep"


@pytest.mark.parametrize(
    "text, name",
    [
        ("Johnston escalated it.", "Johnston"),  # a listed surname ending so
        ("Tobias Stanford escalated it.", "Tobias Stanford"),
        ("New Tobias Quaxby escalated it.", "New Tobias Quaxby"),  # three words
    ],
)
def test_a_person_whose_name_ends_like_a_town_s_stays_replaced(text, name):
    assert verdict(text, name, NER, {"PERSON"}) == "replace"


def test_a_town_that_is_a_surname_too_is_surfaced_and_a_first_name_stays_replaced():
    # GeoNames' "Toledo", which a surname list knows too: a place as often.
    assert verdict("Toledo is lovely in spring.", "Toledo", NER, {"PERSON"}) == "surface"
    # A first name that is a town too stays a person's.
    assert verdict("Florence is lovely in spring.", "Florence", NER, {"PERSON"}) == "replace"


@pytest.mark.parametrize(
    "text, town", [("Rajgród is lovely this time of year.", "Rajgród"), ("Krk, Split", "Krk")]
)
def test_a_village_no_name_list_knows_is_surfaced_not_replaced(text, town):
    # GeoNames' villages of 1,000 people: spaCy guessed a person.
    assert verdict(text, town, NER, {"PERSON"}) == "surface"


@pytest.mark.parametrize(
    "text, hit",
    [
        ("My job title is Dibujante técnico if that matters", "Dibujante técnico"),
        ("My job title is Dibujante técnico if that matters", "Dibujante"),  # its words
        ("Occupation: Secretar De Emisie (Studii Medii)", "Secretar De Emisie"),
    ],
)
def test_a_job_title_of_several_words_a_job_list_knows_is_kept(text, hit):
    assert verdict(text, hit, NER, {"PERSON"}) == "keep"


def test_one_word_a_job_list_knows_is_surfaced_unless_a_name_list_knows_it():
    # Hungarian "Fordító" (translator): no name list knows it.
    assert verdict("Fordító here, I need a copy.", "Fordító", NER, {"PERSON"}) == "surface"
    # "Szabó" (tailor) is a surname too: a person's, replaced.
    assert verdict("Szabó here, I need a copy.", "Szabó", NER, {"PERSON"}) == "replace"
    # A person's name beside a job is no job.
    assert verdict("Anna Szabó, Fordító", "Anna Szabó", NER, {"PERSON"}) == "replace"


def test_a_word_no_gazetteer_or_name_list_knows_stays_replaced():
    assert verdict("Quaxby escalated it.", "Quaxby", NER, {"PERSON"}) == "replace"
    # A first name that is a village's too stays a person's.
    assert verdict("Martin escalated it.", "Martin", NER, {"PERSON"}) == "replace"


@pytest.mark.parametrize("text", ["I flew Skyrova last week", "We are flying with Skyrova"])
def test_one_guessed_word_an_airline_stands_as_often_as_a_person_is_surfaced(text):
    assert verdict(text, "Skyrova", NER, {"PERSON"}) == "surface"


def test_a_question_s_first_word_and_a_code_are_surfaced_not_replaced(policy):
    # "Is" was read as a name's first word before "LEA", and both replaced.
    result = redacted(policy, "Is LEA open today?")
    assert result.session.turns[0].user_text == "Is LEA open today?"
    assert verdict("Is LEA open today?", "Is LEA", {"FirstNameRecognizer"}, set()) == "surface"


GUESSED = frozenset(("PlaceAwareSpacyRecognizer",))


@pytest.mark.parametrize(
    "text, name",
    [
        # A firm named after its founder where a firm stands: the reviewer's.
        ("I work for Brennan since May", "Brennan"),
        ("Ingrid Solberg\nStaff Nurse\nHalvorsen\n18 Birch Lane", "Halvorsen"),
        ("- Ingrid Solberg\n- Walter Brennan\n- 18 Birch Lane", "Walter Brennan"),
    ],
)
def test_a_name_in_a_firm_s_slot_is_surfaced_not_replaced(text, name):
    start = text.index(name)
    assert verdict_of(text, start, start + len(name), "PERSON", GUESSED, frozenset()) == (
        "surface",
        "",
    )


@pytest.mark.parametrize(
    "text, name",
    [
        # The sender's name under a sign-off or a greeting, or first in its
        # block, is a person's.
        ("Kind regards\nIngrid Solberg\n18 Birch Lane", "Ingrid Solberg"),
        ("Hello\nIngrid Solberg\n18 Birch Lane", "Ingrid Solberg"),
        ("Ingrid Solberg\n18 Birch Lane", "Ingrid Solberg"),
    ],
)
def test_a_sender_s_name_above_an_address_is_replaced(text, name):
    start = text.index(name)
    verdict, _thing = verdict_of(text, start, start + len(name), "PERSON", GUESSED, frozenset())
    assert verdict == "replace"


@pytest.mark.parametrize(
    "text, word, job",
    [
        ("Ingrid Solberg\nSykepleier\nHalvorsen Bygg\n18 Birch Lane", "Sykepleier", True),
        ("<PERSON_1>\\nSykepleier\\nHalvorsen Bygg\\n18 Birch Lane", "Sykepleier", True),
        ("Ingrid Solberg\n\nSykepleier\n\nContact:\nPhone: 555 0100", "Sykepleier", True),
        # A surname on its own line under a first name is the person's.
        ("Kind regards\nIngrid\nVelkorsi\nHalvorsen Bygg\n18 Birch Lane", "Velkorsi", False),
        # Over an address's line it is a firm's line, or a person's.
        ("Ingrid Solberg\nVelkorsi\n18 Birch Lane", "Velkorsi", False),
    ],
)
def test_a_signature_s_job_line_is_found_by_its_position(text, word, job):
    start = text.index(word)
    assert a_job_s_line(text, start, start + len(word)) is job


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("I ordered a pair of boots from Talia Wendrup last week", "Talia Wendrup"),
        ("we bought the sofa at Quaxby", "Quaxby"),
        ("Talia Wendrup ships to Norway now", "Talia Wendrup"),
        ("Quaxby no longer charges for returns", "Quaxby"),
        ("Talia Wendrup's online store is down", "Talia Wendrup"),
        ("Quaxby's customer service never answered", "Quaxby"),
        ("our supplier Talia Wendrup sent the wrong size", "Talia Wendrup"),
        ("the shop later became Quaxby in 1998", "Quaxby"),
        ("Ines spent a year at Quaxby as the assistant to Tom", "Quaxby"),
        ("Quaxby was acquired by a fund", "Quaxby"),
        ("the lamp was sold by Talia Wendrup", "Talia Wendrup"),
        ("I switched to Quaxby last year", "Quaxby"),
        ("I have been a customer of Talia Wendrup for years", "Talia Wendrup"),
        ("is Quaxby back in stock?", "Quaxby"),
        ("the refund from Talia Wendrup never came", "Talia Wendrup"),
        ("do you have Quaxby in grey", "Quaxby"),
    ],
)
def test_a_name_in_a_firm_s_or_shop_s_slot_is_the_reviewer_s(text, name):
    # Firms are named after people ("Eddie Bauer"): where the sentence
    # makes the name a shop, a firm or a brand, it is surfaced, not replaced
    # (nor kept: a person may stand there too).
    start = text.index(name)
    assert in_a_firm_s_slot(text, start, start + len(name))
    assert verdict(text, name, {"FirstNameRecognizer"}, {"ORG"}) == "surface"
    assert verdict(text, name, NER, {"PERSON"}) == "surface"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("please call Talia Wendrup tomorrow", "Talia Wendrup"),
        ("Talia Wendrup's order is late", "Talia Wendrup"),
        ("Talia Wendrup called about her account", "Talia Wendrup"),
        ("I sent the form to Talia Wendrup", "Talia Wendrup"),
        ("I spoke with Talia Wendrup at the desk", "Talia Wendrup"),
        ("Talia Wendrup's flight was cancelled", "Talia Wendrup"),
        ("is Talia Wendrup in today?", "Talia Wendrup"),
    ],
)
def test_a_person_s_own_slots_are_no_firm_s(text, name):
    start = text.index(name)
    assert not in_a_firm_s_slot(text, start, start + len(name))
    assert verdict(text, name, NER, {"PERSON"}) == "replace"


def test_a_name_in_a_shop_s_slot_is_left_for_the_reviewer_not_the_second_model(policy):
    # The second model reads a firm named after a person as a name; in a
    # shop's slot the reviewer decides it.
    result = redacted(policy, "I ordered a jacket from Talia Wendrup, it never came")
    assert "Talia Wendrup" in result.session.turns[0].user_text
    assert "Talia Wendrup" in {s.value for s in result.surfaced}
    # The same name where a person stands is replaced as before.
    result = redacted(policy, "please ask Talia Wendrup to call me back")
    assert "Talia Wendrup" not in result.session.turns[0].user_text


def test_a_firm_named_after_a_person_where_one_works_is_left_for_the_reviewer(policy):
    # The verdict surfaces a name after "I work for"; the second model
    # would read a firm named after its founder there as a name.
    result = redacted(policy, "I work for Talia Wendrup since March")
    assert "Talia Wendrup" in result.session.turns[0].user_text
    assert "Talia Wendrup" in {s.value for s in result.surfaced}


# -- A firm by its own words, in any sentence (issue 36) --------------------


@pytest.mark.parametrize(
    "value, says",
    [
        # A firm's noun no name list knows, beside another word: kept.
        ("Vesterlund Pharmaceutica", "keep"),
        ("Harbin Avtomobil Zavodu", "keep"),
        ("Rannu Keskus", "keep"),
        ("Pelko Air", "keep"),
        ("PT Sinar Wibowo", "keep"),
        # A legal form written out (ISO 20275's local names): a firm's.
        ("Gurktaler Aktiengesellschaft", "keep"),
        ("Nordea Osakeyhtiö", "keep"),
        ("Aktiengesellschaft", "surface"),
        # A firm's noun a surname list knows too, alone, in a compound or
        # a brand's inner capital, an initials' form: the reviewer's.
        ("Tarvo Holding", "surface"),
        ("Pharmaceutica", "surface"),
        ("Lõunapank", "surface"),
        ("Bankorvia", "surface"),
        ("VoxGenix", "surface"),
        ("CV Dewi Lestari", "surface"),
        # A person's name says nothing of a firm.
        ("Anna Keller", ""),
        ("Kevin McDonald", ""),
        ("Petrović", ""),
        ("Fairbanks", ""),
        # Run together with a person before a comma: hers, not a firm's.
        ("Maria Jensen, Vesterlund Pharmaceutica", ""),
        # A person's first name and surname the model ran into the word
        # after them: never kept unseen.
        ("Maria Jensen Finance", "surface"),
        ("Jonas Weber Tech", "surface"),
        # A first name before a surname that is a firm's noun no list knows.
        ("Sofia Banka", "surface"),
        ("Petra Moda Lopez", "surface"),
        ("Maria Stiftung", "surface"),  # a first name first: the reviewer's
        # review28: a person's title first, or a first name after a legal
        # form written out: a person at a firm, the reviewer's.
        ("Mr. Hansen Forening", "surface"),
        ("Sra. Ruiz Corporación", "surface"),
        ("Sparkasse Julia Weber", "surface"),
        ("Asociación Carlos Gómez", "surface"),
        ("Air France", "keep"),  # nameparser's "air" is no person's title
        # A form that opens a firm's name (Spanish, French...) after a word:
        # a person, then her address or branch, as before alike28.
        ("Ramirez Condominio Las Palmas", ""),
        ("Torres Sucursal Centro", ""),
        ("Condominio Las Palmas", "keep"),
    ],
)
def test_a_firm_s_own_words_say_what_it_is(value, says):
    assert firm_by_its_words(value) == says


@pytest.mark.parametrize(
    "text, name",
    [
        ("Ask Mrs. Lindqvist Aktiebolag about it.", "Lindqvist Aktiebolag"),
        ("Please ask Herr Weber Anstalt to call.", "Weber Anstalt"),
    ],
)
def test_a_person_s_title_before_a_firm_s_words_is_left_for_the_reviewer(text, name):
    # review28: a title right before the words (not inside the hit) is a
    # person's too; kept unseen, the surname leaked.
    assert verdict(text, name, NER, {"PERSON"}) == "surface"


@pytest.mark.parametrize(
    "text",
    [
        "Yesterday Vesterlund Pharmaceutica charged me twice.",
        "My contract with Vesterlund Pharmaceutica ends in May.",
        "Please call back Vesterlund Pharmaceutica before noon.",
        "Vesterlund Pharmaceutica",
    ],
)
def test_a_firm_by_its_words_is_kept_whatever_the_sentence(text):
    # The slot differs; the value's own words do not.
    assert verdict(text, "Vesterlund Pharmaceutica", NER, {"PERSON"}) == "keep"


@pytest.mark.parametrize(
    "text, value",
    [
        ("Please ask Maria Jensen Finance to call me back.", "Maria Jensen Finance"),
        ("call Jonas Weber Tech support now", "Jonas Weber Tech"),
    ],
)
def test_a_person_run_into_a_firm_s_noun_is_surfaced_not_kept(text, value):
    # "Finance" after "Maria Jensen" kept her whole name as a firm's: silent.
    assert verdict(text, value, NER, {"PERSON"}) == "surface"


def test_a_sure_name_with_a_firm_s_noun_is_surfaced_not_kept():
    # "A. Enggaard Holding" is a person's name in a firm's: at least
    # surfaced, never kept unseen.
    text = "I spoke with T. Vesterlund Holding about it."
    assert verdict(text, "T. Vesterlund Holding", {"InitialsRecognizer"}, set()) == "surface"
    assert verdict("my name is Anna Keller", "Anna Keller", {"NameCueRecognizer"}, set()) == (
        "replace"
    )


@pytest.mark.parametrize(
    "text, form",
    [
        ("Yesterday Tamsel Gürbüz San. charged me", "San."),
        ("Yesterday Mocanel Suciu CRL charged me", "CRL"),
    ],
)
def test_forms_cleanco_and_iso_lack_make_a_firm(text, form):
    assert text[: company_form_after(text, len("Yesterday "))].endswith(form)


@pytest.mark.parametrize(
    "text",
    [
        "Please call back Maria Jensen, Vesko d.o.o., before noon.",
        "Please call back Maria Jensen, Nagy és Vargane Bt., before noon.",
        "Please call back Maria Jensen, Dellor, Inc., before noon.",
        "Please call back Maria Jensen, PT Sinar Wibowo, before noon.",
    ],
)
def test_a_person_before_a_comma_is_no_part_of_the_firm_after_it(text):
    # The legal form after the comma made "Maria Jensen, Vesko d.o.o." one
    # firm, kept: she went silent.
    assert company_form_after(text, text.index("Maria")) == 0
    assert verdict(text, "Maria Jensen", NER, {"PERSON"}) == "replace"


def test_a_list_of_surnames_ending_with_a_joiner_is_still_one_firm():
    text = "I wrote to Vissani, Barolli e Saurin SPA today."
    assert text[: company_form_after(text, text.index("Vissani"))].endswith("SPA")


def test_two_surnames_joined_after_a_sentence_s_first_word_are_firm_shaped():
    assert named_like_a_firm("Yesterday Grewal-Chandra charged me", 10, 24)
    assert not named_like_a_firm("Call Anna Grewal-Chandra now", 10, 24)


def test_two_common_surnames_joined_alone_are_firm_shaped_though_first_names_too():
    # "Carter" and "Mitchell" are first names too: read as a double first
    # name ("Jean-Pierre"), the firm was replaced as a person.
    assert named_like_a_firm("Carter-Mitchell said the refund was made", 0, 15)
    assert not named_like_a_firm("Jean-Pierre said the refund was made", 0, 11)
    assert not named_like_a_firm("Anne-Marie said the refund was made", 0, 10)


def test_common_surnames_listed_with_and_are_a_firm_though_first_names_too():
    text = "Morgan, Howard and Walton said the refund was processed."
    # "Morgan" and "Howard" are common English first names: the list read
    # as people's, each replaced.
    assert named_like_a_firm(text, 0, 6)
    assert verdict(text, "Howard", NER, {"PERSON"}) == "surface"
    people = "Anna, Paul and Maria said the refund was processed."
    assert not named_like_a_firm(people, 0, 4)
    assert verdict(people, "Paul", NER, {"PERSON"}) == "replace"


@pytest.mark.parametrize(
    "line, person, firm",
    [
        # A region's or country's name opening the firm after the comma.
        ("Greta Lindqvist, Tirol Seilbahn Wartung", "Greta Lindqvist", "Tirol Seilbahn Wartung"),
        ("Mark Okonkwo (Norway Fjordline Shipping)", "Mark Okonkwo", "Norway Fjordline Shipping"),
        ("Contact: Greta Lindqvist, Bayern Kranbau GmbH", "Greta Lindqvist", "Bayern Kranbau GmbH"),
        # The model's person run over a slash into the firm.
        ("Greta Lindqvist/Okabe Kft.", "Greta Lindqvist", "Okabe Kft."),
        ("Mark Okonkwo/Quaxby S.p.A.", "Mark Okonkwo", "Quaxby S.p.A."),
        # A legal form after a comma that opens the next firm's name.
        ("Greta Lindqvist, PT Sinar Pelangi", "Greta Lindqvist", "PT Sinar Pelangi"),
    ],
)
def test_a_person_before_a_firm_is_replaced_and_the_firm_kept(policy, line, person, firm):
    result = redacted(policy, line)
    text = result.session.turns[0].user_text
    assert person not in text
    assert firm.split()[-1] in text


@pytest.mark.parametrize(
    "line, person",
    [
        ("Greta Lindqvist, Tirol", "Greta Lindqvist"),
        ("Mark Okonkwo (Steiermark)", "Mark Okonkwo"),
    ],
)
def test_a_first_name_and_more_before_a_region_is_never_dropped(policy, line, person):
    # A person and where she is as often as a town and its region: at the
    # least the reviewer's, never left silent.
    result = redacted(policy, line)
    surfaced = {s.value for s in result.surfaced}
    assert person not in result.session.turns[0].user_text or person in surfaced


def test_a_region_after_a_comma_still_makes_a_one_word_hit_a_town():
    from miner.redaction.lexicon.names import a_country_after, names_no_person

    assert a_country_after("Quaxby, Tirol", len("Quaxby"))
    assert names_no_person("Quaxby, Tirol", 0, len("Quaxby"))
    # Opening a longer capitalised name, the region's is a firm's.
    assert not a_country_after("Quaxby, Tirol Seilbahn Wartung", len("Quaxby"))


def test_a_form_s_own_comma_ends_the_firm_and_a_degree_ends_the_name():
    from miner.redaction.lexicon.names import complete_name

    assert company_form_after("Brandvold, Inc. called", 0) == len("Brandvold, Inc.")
    assert company_form_after("Greta Lindqvist, PT Sinar Pelangi", 0) == 0
    line = "Greta Lindqvist, MD PhD"
    assert complete_name(line, 0, len("Greta Lindqvist")) == (0, len(line))
    line = "Greta Lindqvist, PT Sinar Pelangi"
    assert complete_name(line, 0, len("Greta Lindqvist")) == (0, len("Greta Lindqvist"))


@pytest.mark.parametrize(
    "text, firm",
    [
        ("Dell, Inc. Austin office", "Dell, Inc."),
        ("Morgan, GmbH Berlin", "Morgan, GmbH"),
        ("Okabe, Kft. Budapest", "Okabe, Kft."),
        ("Pemberton, LLC Dallas branch", "Pemberton, LLC"),
    ],
)
def test_a_form_written_after_a_name_ends_the_firm_whatever_follows(text, firm):
    # Only a form written before a name ("PT Sinar Pelangi") opens the next
    # firm after a comma: a town after "Dell, Inc." left Dell no firm.
    assert company_form_after(text, 0) == len(firm)
    assert company_form_after("Lindqvist, PT Sinar Pelangi", 0) == 0


@pytest.mark.parametrize(
    "line, town",
    [("The store in Helena, Montana is closed", "Helena"), ("I flew to Eugene, Oregon", "Eugene")],
)
def test_a_town_before_its_region_after_a_comma_is_kept(policy, line, town):
    result = redacted(policy, line)
    assert result.session.turns[0].user_text == line
    assert not [s for s in result.surfaced if town in s.value]


@pytest.mark.parametrize(
    "line, names",
    [
        ("Guests: Austin, Virginia and Tom", ("Austin", "Virginia")),
        ("Guests: Austin, Virginia, Tom and Max", ("Austin", "Virginia")),
        ("Helena, Virginia called about the refund", ("Helena", "Virginia")),
    ],
)
def test_first_names_listed_as_a_town_and_its_region_are_not_kept(policy, line, names):
    # A list of names goes on after the "region" (", Lily", "and Tom"), or
    # a caller's deed follows it: people, not "Helena, Montana".
    result = redacted(policy, line)
    text = result.session.turns[0].user_text
    shown = {s.value for s in result.surfaced}
    for name in names:
        assert name not in text or any(name in value for value in shown), text


def test_a_town_its_region_and_its_country_are_kept(policy):
    line = "The store in Helena, Montana, USA is closed"
    assert redacted(policy, line).session.turns[0].user_text == line


def test_a_name_before_a_country_no_town_of_it_bears_stays_the_reviewer_s(policy):
    result = redacted(policy, "Contact Anna Berg, Sweden for details")
    text = result.session.turns[0].user_text
    assert "Anna Berg" not in text or any("Anna Berg" in s.value for s in result.surfaced)


@pytest.mark.parametrize(
    "line, value",
    [("Sophia Antipolis, France", "Sophia Antipolis"), ("Grace Hill, Jamaica", "Grace Hill")],
)
def test_a_name_before_a_country_is_left_to_the_reviewer_not_the_second_model(policy, line, value):
    result = redacted(policy, line)
    assert result.session.turns[0].user_text == line
    assert value in {s.value for s in result.surfaced}


# -- A firm's shape, by its value (issue 36's firm sweep) -------------------


@pytest.mark.parametrize(
    "value, says",
    [
        # A trade's noun, a word in capitals before the rest, names joined
        # by "&": firm-shaped, the reviewer's (never kept unseen: a person
        # may be named beside each).
        ("Musco Lighting", "surface"),
        ("Constantia Packaging", "surface"),
        ("Ridley Bikes", "surface"),
        ("ABU Garcia", "surface"),
        ("AS Pere", "surface"),
        ("Hans & Jørgen Larsen", "surface"),
        # A surname in capitals after a first name is a person's way.
        ("Jean DUPONT", ""),
        ("Rasmus Holbeck", ""),
    ],
)
def test_a_firm_s_shape_says_what_it_is(value, says):
    assert firm_by_its_words(value) == says


@pytest.mark.parametrize(
    "text, name",
    [
        ("Van Damme, De Schrijver en Beckers CV called me", "Van Damme"),
        ("The parcel from Aerts, De Smedt en Theunis BV came", "Aerts"),
        ("Liekens, Van Dyck en Mahieu CV emailed me", "Liekens"),
    ],
)
def test_founders_listed_in_the_regions_languages_are_named_like_a_firm(text, name):
    start = text.index(name)
    assert named_like_a_firm(text, start, start + len(name))


@pytest.mark.parametrize(
    "text, name",
    [
        # In capitals the list ends with "AND", not "and".
        ("MY ORDER FROM ARRIETA, ESCOBAR AND GARCÍA IS LATE AGAIN", "ESCOBAR"),
        ("MY ORDER FROM KAYSER, KRIER UND CLEMENS IS LATE AGAIN", "CLEMENS"),
        # The firm's possessive after its last surname.
        ("I checked Arrieta, Escobar and García's page but found no answer.", "García"),
        ("I checked Arrieta, Escobar and García’s page but found no answer.", "Arrieta"),
        # Both at once: the possessive's "S" in capitals.
        ("I CHECKED ARRIETA, ESCOBAR AND GARCÍA'S PAGE BUT FOUND NO ANSWER.", "ESCOBAR"),
    ],
)
def test_founders_listed_in_capitals_or_before_a_possessive_are_named_like_a_firm(text, name):
    start = text.index(name)
    assert named_like_a_firm(text, start, start + len(name))


@pytest.mark.parametrize(
    "text, name",
    [
        # First names common in English make the list people's in capitals
        # as in mixed case (the name dictionary writes "Amy", not "AMY");
        # not those the census's people bear often as surnames ("Lee").
        ("MY ORDER FROM AMY, LEE AND GRACE IS LATE AGAIN", "LEE"),
        ("I met Anna, Paul and Maria's dog yesterday.", "Paul"),
        # "'" then more than a possessive's "s" is no list's end.
        ("I wrote to Arrieta, Escobar and García'sche Werke today.", "Escobar"),
    ],
)
def test_people_listed_in_capitals_or_before_a_possessive_are_not_named_like_a_firm(text, name):
    start = text.index(name)
    assert not named_like_a_firm(text, start, start + len(name))


def test_a_surname_found_after_a_hyphen_is_read_with_the_one_before_it():
    # The first-name list found "Powell" of "McDowall-Powell" alone.
    text = "I checked McDowall-Powell's page but found no answer."
    assert verdict(text, "Powell", {"FirstNameRecognizer"}, {"ORG"}) == "surface"


@pytest.mark.parametrize(
    "line, firm",
    [
        ("Musco Lighting called me twice about the delivery.", "Musco Lighting"),
        ("The order was handled by ERGO Kindlustus and never arrived.", "ERGO Kindlustus"),
        ("ACCO Brands said the refund was processed on Monday.", "ACCO Brands"),
    ],
)
def test_a_firm_by_its_shape_is_not_replaced(policy, line, firm):
    assert firm in redacted(policy, line).session.turns[0].user_text


@pytest.mark.parametrize(
    "line, person, firm",
    [
        ("Contact: Greta Lindqvist, Musco Lighting", "Greta Lindqvist", "Musco Lighting"),
        ("Kind regards\nGreta Lindqvist\nMusco Lighting\n", "Greta Lindqvist", "Musco Lighting"),
        ("Greta Lindqvist from ERGO Kindlustus called me.", "Greta Lindqvist", "ERGO Kindlustus"),
    ],
)
def test_a_person_beside_a_firm_by_its_shape_is_still_replaced(policy, line, person, firm):
    text = redacted(policy, line).session.turns[0].user_text
    assert person not in text
    assert firm in text


def test_the_towns_by_country_are_read_only_after_a_place_s_name(monkeypatch):
    # 66,000 towns: most names before a comma have no place after it.
    from miner.redaction.lexicon import names

    asked: list[str] = []
    real = names.towns_by_country
    monkeypatch.setattr(names, "towns_by_country", lambda: asked.append("read") or real())
    assert not names.a_town_in_the_place_after("Hi Anna, thanks for the help", 3, 7)
    assert asked == []
    assert names.a_town_in_the_place_after("Helena, Montana", 0, 6)
    assert asked


@pytest.mark.parametrize(
    "text, name, said",
    [
        # A work is said to be one as a firm is: no one is a film or a novel.
        ("Zoolander is a 1972 kuwaiti action-comedy film directed by Todd", "Zoolander", True),
        ("ZOOLANDER IS A 1973 <PERSON_1> ACTION-COMEDY FILM DIRECTED BY", "ZOOLANDER", True),
        ("Quaxby is a 1997 film.", "Quaxby", True),
        ("Quaxby was a bestselling novel set in Leeds", "Quaxby", True),
        # A person is said to be a job the work's noun names, or is in one.
        ("Mary Jones is a film director based in Leeds.", "Mary Jones", False),
        ("Anna Berg is a film critic.", "Anna Berg", False),
        ("Anna Berg is a song writer.", "Anna Berg", False),
        ("Anna Berg is a character in the film.", "Anna Berg", False),
        ("Anna Berg is a journalist reviewing this film.", "Anna Berg", False),
        ("Anna Berg is an actress whose latest film, Quaxby, flopped.", "Anna Berg", False),
        # A work's comma, "set" and "by" go on as a work's (review25).
        ("Quaxby is a 2001 film, directed by Ben Stiller.", "Quaxby", True),
        ("Quaxby is a 1965 song by the Beatles", "Quaxby", True),
        # Not a list of a person's trades, a film's set she builds, a trade
        # learnt (review25: kept, silent, on 1ff0931; replaced on main).
        ("Anna Smith is a film, TV and theatre actress based in Leeds.", "Anna Smith", False),
        ("Giulia Rossi was a film, stage and radio actress.", "Giulia Rossi", False),
        ("Maria Lopez is a novel, short story and poetry writer.", "Maria Lopez", False),
        ("Yuki Tanaka is a film, anime, manga translator.", "Yuki Tanaka", False),
        ("Hans Müller is a movie, music & gaming fan.", "Hans Müller", False),
        ("Sarah Jenkins is a film set designer based in Bristol.", "Sarah Jenkins", False),
        ("Mark Evans is a movie set carpenter.", "Mark Evans", False),
        ("Claire Dubois is a documentary by training.", "Claire Dubois", False),
        # Nor a preposition or a verb of hers before the work's noun.
        ("Anna Smith is a student studying film.", "Anna Smith", False),
        ("Anna Smith is a lecturer teaching film.", "Anna Smith", False),
        ("Tom Baker is a researcher writing about film.", "Tom Baker", False),
        ("Maria Lopez is a freelancer making documentary.", "Maria Lopez", False),
        ("Quaxby is a gripping coming-of-age film directed by Anna Berg.", "Quaxby", True),
    ],
)
def test_a_name_the_sentence_says_is_a_work(text, name, said):
    from miner.redaction.lexicon.firm_said import said_to_be_a_firm

    start = text.index(name)
    assert said_to_be_a_firm(text, start + len(name), start) is said
    assert (verdict(text, name, NER, {"PERSON"}) == "keep") is said


def test_a_film_said_to_be_one_is_not_put_before_the_reviewer(policy):
    # The sweep surfaced "Zoolander" (7 decisions on the mimesis tune split,
    # 8 on the held-out tune split); the persons around it stay replaced.
    result = redacted(
        policy, "Zoolander is a 1972 kuwaiti action-comedy film directed by Todd Sanchez."
    )
    assert "Zoolander" in result.session.turns[0].user_text
    assert "Todd Sanchez" not in result.session.turns[0].user_text
    assert not [s for s in result.surfaced if "Zoolander" in s.value]


@pytest.mark.parametrize(
    "text, name, imperative",
    [
        ('an earlier song, "Carry Me Back To Oman," which was', "Carry", True),
        ("Bill me later please.", "Bill", True),
        ("Thanks. Mark me down for Friday.", "Mark", True),
        ("Hello\\nCarry us home", "Carry", True),
        # Not a verb, not where a sentence opens, or a comma before "me".
        ("Anna me and Tom are coming.", "Anna", False),
        ("Ask Carry me about it.", "Carry", False),
        ("Carry, me and Tom are coming.", "Carry", False),
        ("Carry called me today.", "Carry", False),
        # A name opening a sentence before "me" in Spanish, French, Portuguese.
        ("Mark me llamó ayer para cambiar la dirección", "Mark", False),
        ("Rose me dijo que el pedido llegaba hoy", "Rose", False),
        ("Will me ha escrito", "Will", False),
        ("Sue me a dit que le colis est perdu", "Sue", False),
        ("Bill me disse que o pedido chegou", "Bill", False),
        # A name opening a list of persons with "me", Italian's and Spanish's
        # words after "me", French verbs English spells (review25: kept,
        # silent, on 1ff0931; surfaced on main).
        ("Carol me and Tom are waiting.", "Carol", False),
        ("Carol us and the kids are waiting.", "Carol", False),
        ("Carol me too.", "Carol", False),
        ("Carol me la ha regalata.", "Carol", False),
        ("Sue me la ha mandata ieri.", "Sue", False),
        ("Carol me en ha hablado.", "Carol", False),
        ("Carol me suit.", "Carol", False),
        ("Carol me tend la main.", "Carol", False),
    ],
)
def test_a_verb_s_imperative_names_no_one(text, name, imperative):
    from miner.redaction.verdict import a_verb_s_imperative

    start = text.index(name)
    assert a_verb_s_imperative(text, start, start + len(name)) is imperative
    # Kept only where only the first-name list read a name; spaCy's person stays replaced.
    kept = verdict(text, name, {"FirstNameRecognizer"}, {"WORK_OF_ART"}) == "keep"
    assert kept is imperative
    assert verdict(text, name, NER, {"PERSON"}) != "keep"


def test_a_song_s_title_opening_with_a_verb_is_not_put_before_the_reviewer(policy):
    # "Carry" (a first name too) surfaced 15 times on the mimesis tune split.
    result = redacted(
        policy,
        'Larsen was influenced by an earlier song, "Carry Me Back To Oman," which was '
        "arranged and sung by Gerd Aas in 1999.",
    )
    text = result.session.turns[0].user_text
    assert '"Carry Me Back To Oman,"' in text and "Gerd Aas" not in text
    assert not [s for s in result.surfaced if s.value == "Carry"]


@pytest.mark.parametrize(
    "text, name, kept",
    [
        ("BUT RICHARD JUST HAS TO GET LAID. DON'T GO TO TOWN, MATTHEW!", "DON", True),
        ("I WON’T PAY AGAIN", "WON", True),
        ("DON SAID IT WAS LATE", "DON", False),
        ("Don's parcel is late", "Don", False),
    ],
)
def test_a_word_cut_off_its_negation_s_contraction_names_no_one(text, name, kept):
    # "DON" of "DON'T" surfaced on the presidio dev and held-out tune splits.
    assert (verdict(text, name, {"FirstNameRecognizer"}, set()) == "keep") is kept
