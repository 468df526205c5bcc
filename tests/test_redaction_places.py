"""A town's name in a place's slot (miner/redaction/lexicon/places.py) and
the places' slots the NER's people are read against (lexicon/names.py):
a name there is a place, kept and never surfaced; a person beside it is not."""

from __future__ import annotations

import pytest

from miner.redaction.lexicon.names import names_no_person
from miner.redaction.lexicon.places import place_around


def around(text: str, word: str) -> str | None:
    start = text.index(word)
    span = place_around(text, start, start + len(word))
    return text[span[0] : span[1]] if span else None


@pytest.mark.parametrize(
    "text, word, town",
    [
        ("I am in New Jane for a business trip", "Jane", "New Jane"),
        ("i am in east didier for a business trip", "didier", "east didier"),
        # A placeholder's capitals are no writer's: the line is in lower case.
        ("send it to <STREET_ADDRESS_1>? i am in new jane for a trip", "jane", "new jane"),
        ("Importio is a design agency based in Lake Elnur.", "Elnur", "Lake Elnur"),
        ("your branch in Corpo Di Cava will call you", "Cava", "Corpo Di Cava"),
        ("I am in Oliveira do Hospital this week", "Oliveira", "Oliveira do Hospital"),
        ("we met in St. Jakob yesterday", "Jakob", "St. Jakob"),
        ("You are rebooked to Quito.", "Quito", "Quito"),
        ("GALLANTT IS BASED IN MIRANDA DO DOURO.", "MIRANDA", "MIRANDA DO DOURO"),
        ("Flights to Florence are cancelled", "Florence", "Florence"),  # a trip's "to"
        # A small word after a small word is the name's: "Sul" joins "Pettorano
        # Sul Gizio", and ends "Fátima do Sul" (mimesis's pt-br towns).
        ("I moved to Fátima do Sul last year", "Fátima", "Fátima do Sul"),
        ("I moved to Santa Rita do Sul last year", "Rita", "Santa Rita do Sul"),
        ("I am in Pettorano Sul Gizio now", "Gizio", "Pettorano Sul Gizio"),
        # Of more words, a town GeoNames or a region CLDR knows (review28).
        ("She is based in São João do Sul now", "João", "São João do Sul"),
        ("I live in Rio Grande do Sul", "Grande", "Rio Grande do Sul"),
    ],
)
def test_a_town_s_name_in_a_place_s_slot_is_found_whole(text, word, town):
    assert around(text, word) == town


@pytest.mark.parametrize(
    "text, word",
    [
        ("I am in Paris with Jane", "Jane"),  # after the town, not in it
        ("i am in new york with jane", "jane"),
        ("it is in Maria Ortiz's file", "Maria"),  # whose, not where
        ("I am in Florence today", "Florence"),  # one word, a first name too
        ("I am in Morel today", "Morel"),  # one word GeoNames does not know
        ("please send it to Quito", "Quito"),  # a bare "to" is no trip
        ("Dear Jane, in Lake Elnur", "Jane"),
        # review27: one word before "do Sul" that GeoNames does not know is a
        # person's name ("Ana Da Sul"), not a town's.
        ("she is from Ana Da Sul", "Ana"),
        ("moved to Joana do Sul team", "Joana"),
        ("came from Bruno de Sul", "Bruno"),
        ("the call went to Maria do Sul", "Maria"),
        # review28: two words before "do Sul" the same ("Pedro Henrique do
        # Sul" was read whole as a town, kept unseen).
        ("I live in Pedro Henrique do Sul", "Pedro"),
        ("a call from Ana Paula do Sul", "Ana"),
    ],
)
def test_no_person_is_read_as_a_town_by_the_slot(text, word):
    assert around(text, word) is None


@pytest.mark.parametrize(
    "text, word",
    [
        ("She is from Kapišová.", "Kapišová"),
        ("Flights to Chlebnice are cancelled", "Chlebnice"),
        ("We drove from Tupá to the coast", "Tupá"),
        ("he hails from Zalužice", "Zalužice"),
        ("The mayor of Slaská resigned", "Slaská"),
        ("City: Kapišová", "Kapišová"),
        ("Chlebnice, Slovakia", "Chlebnice"),
        ("Springfield, Illinois", "Springfield"),
        ("You are rebooked from MHD (Mashhad International Airport) to Andoas.", "Andoas"),
        ("the train from MAN to Tupá", "Tupá"),
    ],
)
def test_travel_origin_a_form_s_city_and_a_country_after_make_a_place(text, word):
    start = text.index(word)
    assert names_no_person(text, start, start + len(word))


@pytest.mark.parametrize(
    "text, word",
    [
        ("a message from Kapišová arrived", "Kapišová"),
        ("send it to Chlebnice please", "Chlebnice"),
        ("Chlebnice, please call me", "Chlebnice"),
    ],
)
def test_a_bare_from_or_to_and_a_comma_alone_make_no_place(text, word):
    start = text.index(word)
    assert not names_no_person(text, start, start + len(word))


@pytest.fixture(scope="module")
def policy():
    from miner.config import load_config
    from miner.redaction.policy import policy_for
    from tests.conftest import PIPELINE

    return policy_for(load_config(PIPELINE))


def redact(policy, *texts: str):
    from datetime import UTC, datetime

    from miner.model import Session, Turn

    turns = tuple(
        Turn(invocation_id=f"i{n}", user_text=text, reply_text="ok", tool_calls=())
        for n, text in enumerate(texts)
    )
    now = datetime(2026, 11, 22, tzinfo=UTC)
    [result] = policy.redact([Session("s", "support_agent", "u-1", now, now, {}, turns)])
    return [turn.user_text for turn in result.session.turns], {s.value for s in result.surfaced}


def test_a_town_in_a_place_s_slot_is_neither_replaced_nor_surfaced(policy):
    texts, surfaced = redact(
        policy,
        "i am in east didier for a business trip",
        "Thank you, your branch in Corpo Di Cava will call you.",
        "You are rebooked to Quito.",
    )
    assert texts == [
        "i am in east didier for a business trip",
        "Thank you, your branch in Corpo Di Cava will call you.",
        "You are rebooked to Quito.",
    ]
    assert not surfaced & {"didier", "Di Cava", "Corpo Di Cava", "Quito"}


def test_a_person_s_word_is_not_spread_into_a_town_but_is_replaced_elsewhere(policy):
    texts, surfaced = redact(
        policy,
        "importio is a design agency based in lake elnur.",
        "Elnur Demir wrote to us",
        "I am in New Jane for a business trip",
        "Jane Smith called",
    )
    assert texts[0] == "importio is a design agency based in lake elnur."
    assert "Elnur" not in texts[1] and "<PERSON_" in texts[1]
    assert texts[2] == "I am in New Jane for a business trip"
    assert "Jane" not in texts[3]
    assert "elnur" not in surfaced


@pytest.mark.parametrize(
    "line, person, town",
    [
        ("Greta Lindqvist, Skärholmen", "Greta Lindqvist", "Skärholmen"),
        ("Contact: Kofi Mensah, Skärholmen, IL", "Kofi Mensah", "Skärholmen"),
        ("Welcome to Norrtälje, Greta Lindqvist!", "Greta Lindqvist", "Norrtälje"),
        ("My hometown is Norrtälje, said Kofi Mensah", "Kofi Mensah", "Norrtälje"),
    ],
)
def test_a_town_beside_a_person_is_not_replaced_as_a_second_person(policy, line, person, town):
    # A town after a person's name and a comma, or before one after "to":
    # where that person is, not a second person; the person is replaced.
    [text], _surfaced = redact(policy, line)
    assert person not in text
    assert town in text


def test_people_listed_after_a_name_stay_people(policy):
    [text], _surfaced = redact(policy, "Greta Lindqvist, Kofi Mensah and Ana Ruiz signed it")
    assert not {"Greta", "Kofi", "Ana"} & set(text.split())


@pytest.mark.parametrize(
    "line, place",
    [
        ("Bielorusko was great to visit", "Bielorusko"),  # Slovak
        ("Novi Zeland was great to visit", "Novi Zeland"),  # Croatian
        ("Yeni Zelanda won the match", "Yeni Zelanda"),  # Turkish
        ("Nýja-Sjáland won the match", "Nýja-Sjáland"),  # Icelandic
        ("Repubblica Dominicana was great to visit", "Repubblica Dominicana"),  # a state's word
        ("Skärholmen is a town in Sweden", "Skärholmen"),  # said to be a place
        # a word of a country's name of several words (German's)
        ("from Südgeorgien und die Südlichen Sandwichinseln.", "Südlichen Sandwichinseln"),
    ],
)
def test_a_country_in_europe_s_languages_or_a_place_said_so_is_no_person(line, place):
    from miner.redaction.lexicon.names import names_no_person

    start = line.index(place)
    assert names_no_person(line, start, start + len(place))


def test_a_person_is_not_read_as_a_place_by_a_country_s_word(policy):
    [text], _surfaced = redact(policy, "Greta Lindqvist is a kind person")
    assert "Greta" not in text


def test_a_person_s_surname_is_not_spread_into_the_town_it_names(policy):
    # Tobias Harlow's surname names the town where a place's slot, a place's
    # word or a country stands around it; elsewhere it is still him.
    texts, _surfaced = redact(
        policy,
        "Tobias Harlow called about his card",
        "I am in Harlow for a business trip",
        "Harlow's mayor resigned",
        "I spoke to Harlow yesterday",
    )
    assert "Harlow" not in texts[0]
    assert texts[1] == "I am in Harlow for a business trip"
    assert texts[2] == "Harlow's mayor resigned"
    assert "Harlow" not in texts[3]


def test_a_place_one_visits_is_no_person_but_a_person_visited_still_is(policy):
    # "fun to visit" after a word that starts its clause and is no first
    # name makes it a place; a first name, or a relation before the name,
    # leaves it a person's (replaced or surfaced, never kept unseen).
    texts, surfaced = redact(
        policy,
        "Kvarnholt was super fun to visit!",
        "I have checked this for you: Kvarnholt is well worth a visit",
        "Helga Brandt was super fun to visit!",
        "My aunt Helga was always fun to visit",
    )
    assert texts[0] == "Kvarnholt was super fun to visit!"
    assert texts[1] == "I have checked this for you: Kvarnholt is well worth a visit"
    assert "Kvarnholt" not in surfaced
    assert "Helga" not in texts[2] and "Brandt" not in texts[2]
    assert "Helga" not in texts[3] or "Helga" in surfaced


def test_a_firm_said_so_or_worked_for_is_no_person_but_a_person_worked_for_still_is(policy):
    texts, surfaced = redact(
        policy,
        "Brennholt is a design agency based in Kvarnholt.",
        "I work for Vantorp",
        "I work for Helga Brandt",
        "Kowalczyk is a brand ambassador for us",
    )
    assert texts[0] == "Brennholt is a design agency based in Kvarnholt."
    assert texts[1] == "I work for Vantorp"
    assert not surfaced & {"Brennholt", "Vantorp"}
    # Firms are named after people ("Eddie Bauer"): a listed name there is
    # the reviewer's (the second model is not asked: lexicon/firms.py),
    # never kept unseen.
    assert "Helga Brandt" in surfaced or ("Helga" not in texts[2] and "Brandt" not in texts[2])
    assert "Kowalczyk" not in texts[3] or "Kowalczyk" in surfaced


def test_a_person_beside_a_country_of_several_words_is_still_one():
    from miner.redaction.lexicon.names import in_a_country_s_name

    line = "Anna Keller from Sierra Leone called"
    assert not in_a_country_s_name(line, 0, len("Anna Keller"))
    assert in_a_country_s_name(line, line.index("Leone"), line.index("Leone") + 5)


@pytest.mark.parametrize(
    "text, word",
    [
        # A nationality written as its language's name, in the writer's own.
        ("I am Norueguês but I live in Porto.", "Norueguês"),
        ("she is Olasz, she told me", "Olasz"),
        # A country, or a day, in a language of few customers.
        ("We moved here from Olaszország last year", "Olaszország"),
        ("See you Czwartek then", "Czwartek"),
        ("Kolmapäev works for me", "Kolmapäev"),
    ],
)
def test_cldr_s_languages_countries_and_days_in_every_latin_script_language_are_no_person(
    text, word
):
    start = text.index(word)
    assert names_no_person(text, start, start + len(word))


@pytest.mark.parametrize(
    "text, word",
    [
        # Languages' names that are surnames or first names too stay persons'.
        ("I am Moore, calling about my order", "Moore"),
        ("I am Roman and I need help", "Roman"),
        ("Domingo called twice", "Domingo"),
        # A language's name with no form of "be" before it is no nationality.
        ("Olasz called twice", "Olasz"),
    ],
)
def test_a_language_s_name_that_is_a_person_s_or_said_without_be_is_not_read_so(text, word):
    start = text.index(word)
    assert not names_no_person(text, start, start + len(word))


def test_a_person_s_word_is_not_spread_into_a_town_in_lower_case_beside_a_placeholder(policy):
    # The fresh split's "...send a new one to 3315 jane courts\nport johntown,
    # nc 57611? i am in new jane for a business trip" (a person named Jane in
    # the session): a placeholder's capitals on the line made it read as
    # capitalised, and the town's "jane" took a person's placeholder.
    texts, _ = redact(policy, "my name is Jane Doe. i am in new jane for a business trip")
    assert texts == ["my name is <PERSON_1>. i am in new jane for a business trip"]
