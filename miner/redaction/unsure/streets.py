"""The unsure policy's street rules (``miner.redaction.unsure``): streets in
lower case, house numbers beside words, address blocks and the streets
after an address cue, read with placeholders filled."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator

from miner.redaction.lexicon.address_rest import ADDRESS_PARTICLES
from miner.redaction.lexicon.addresses import (
    STREET_AFTER,
    STREET_CUE,
    STREET_SUFFIX_SET,
    address_parts,
    find_addresses,
    foreign_street_types,
    street_types,
)
from miner.redaction.lexicon.formats import currency_words
from miner.redaction.lexicon.letters import LETTER_WORD, LETTERS
from miner.redaction.lexicon.names import (
    a_first_name,
    a_place_name,
    an_english_word,
    known_name,
    smaller_town_names,
    stop_words,
)
from miner.redaction.lexicon.signatures import BULLET, SIGN_OFF_WORDS
from miner.redaction.placeholders import PLACEHOLDER
from miner.redaction.unsure.names import WORD, an_unknown_word
from miner.redaction.unsure.text import (
    DATE,
    FILLED,
    FILLED_ANY,
    FILLED_OTHER,
    FILLED_STREET,
    FILLED_WORD,
)

#: What follows a name or street replaced in a street line: its house
#: number, maybe after words or a number's mark ("<PERSON_1> utca 230.",
#: "<PERSON_1> Nr. 15", "<STREET_ADDRESS_1> 6a", "<PERSON_1> # 66-4"; a
#: block's three numbers, "<STREET_ADDRESS_1> 39-19-39", not a date's
#: "2024-05-01"), on the same line.
_AFTER_PLACEHOLDER = re.compile(
    r"<(?P<entity>PERSON|STREET_ADDRESS)_\d+>"
    r"(?P<words>(?:[ \t]+[^\W\d_][^\W\d_.]*\.?){0,2}),?(?:[ \t]+(?P<mark>#|N[º°]))?[ \t]+"
    r"(?P<number>\d{1,3}-\d{1,3}-\d{1,3}(?![\w/:+-]|[.,]\d)"
    r"|\d{1,4}[A-Za-z]?(?:[/-]\d{1,4}[A-Za-z]?)?\.?(?![\w/:+-]|[.,]\d))"
)

#: A unit's word before a street replaced: "suite <STREET_ADDRESS_1>".
UNIT_BEFORE_STREET = re.compile(
    r"(?<![\w.])((?i:suite|ste\.|apt\.?|apartment|flat|unit|level|floor|piso|dto\.?|depto\.?"
    r"|interior|int\.))[ \t]+(?=<STREET_ADDRESS_\d+>)"
)


#: Up to three words before a street's type written out: "hughes shoal
#: street", "Baker Street".
_WORDS_BEFORE_STREET_TYPE = re.compile(
    r"(?<![\w'’-])((?:[^\W\d_]+(?:['’-][^\W\d_]+)*[ \t]+){1,3})"
    r"(?i:street|road|avenue|lane|drive|boulevard)(?!\w)"
)


def a_street_alone(text: str) -> Iterator[tuple[int, int, str]]:
    """A string that is a street's type and up to five words or numbers
    after it, whole ("CALLE 5", "r. do sextante", "Incrocio Gianmarco"): a
    street a tool was asked about."""
    m = _WHOLE_STRING.fullmatch(text)
    if not m or not _a_street_type(m.group("type")) or _AFTER_TYPES.fullmatch(m.group("type")):
        return
    rest = m.group("value")[len(m.group("type")) :].split()
    # Its name: a number or a word a street's is made of ("Plaza Hotel" is none).
    if any(any(c.isdigit() for c in w) or _street_word(w) for w in rest):
        yield m.start("value"), m.end("value"), "STREET_ADDRESS"


#: Street types written after the name: no street's first word.
_AFTER_TYPES = re.compile(r"(?i:street|st\.|road|avenue|lane|drive|boulevard|close|crescent)")


_WHOLE_STRING = re.compile(
    r"[ \t]*(?P<value>(?P<type>[^\W\d_]+\.?)(?:[ \t]+[^\W_][\w'’.°º-]*){1,5})[ \t.]*"
)


def named_streets(text: str) -> Iterator[tuple[int, int, str]]:
    """A street named without its number ("the title refers to hughes shoal
    street"): a street's type written out after up to three words with no
    stop word among them, one of which a street's name is made of
    (``_street_word``: a first name, a place, a word English seldom
    writes); not "the main road"."""
    for m in _WORDS_BEFORE_STREET_TYPE.finditer(text):
        words = list(LETTER_WORD.finditer(text, m.start(1), m.end(1)))
        while words and any(w.group(0).casefold() in stop_words() for w in words):
            words.pop(0)
        if any(_street_word(w.group(0)) for w in words):
            yield words[0].start(), m.end(), "STREET_ADDRESS"
    for m in _CAPITALISED_BEFORE_A_TYPE.finditer(text):
        # Any street's type, capitalised after capitalised words each of a
        # street's name ("Gyamfi Island", "Ihejirika Squares", "Sa'idu
        # Forge"): Faker's en_US streets named without their number; not
        # "Silicon Valley", "Central Park" (words English writes).
        if m.group(2) not in STREET_SUFFIX_SET or m.group(2) in _A_PLACE_S_TYPES:
            continue
        words = list(_CAPITALISED_WORD.finditer(text, m.start(1), m.end(1)))
        while words and not _a_named_street_s_word(words[0].group(0)):
            words.pop(0)
        if (
            words
            and all(_a_named_street_s_word(w.group(0)) for w in words)
            and not (a_first_name(words[0].group(0)) and known_name(m.group(2)))
            and not _a_town_s_name(text[words[0].start() : m.end(2)], words[0].group(0))
        ):
            # Not a first name before a type a name list knows: a
            # person's ("Sophie Park", "Audrey Lane", "Camille Mills").
            yield words[0].start(), m.end(2), "STREET_ADDRESS"


def _a_town_s_name(name: str, first: str) -> bool:
    """Whether ``name`` is a place GeoNames knows ("Clapham Junction", "Bondi
    Junction") or its ``first`` word a town's ("Trafalgar Square", "Shibuya
    Crossing"): a landmark or a suburb, no one's street (review27)."""
    towns = smaller_town_names()
    return name.casefold() in towns or first.casefold() in towns


def _a_named_street_s_word(word: str) -> bool:
    """A first name or a word English seldom writes (no place's name
    English writes: "Central Park")."""
    return _street_word(word) and (a_first_name(word) or not an_english_word(word.casefold(), 3.5))


#: Street types that end a place's name, an airfield's, an island's or a
#: town's, more often than a street's: each ends 10 or more of the names and
#: towns of airportsdata's airports (OurAirports' data; the hard cases' dev
#: half: "Island" 167, "Field" 132, "Lake" 27, "River" 13, "Falls" 12,
#: "Springs", "Park", "Creek", "Beach" 11 each, "Station" 8) and their
#: plurals: "Mettel Field", "Gebe Island", "Cape Verde Islands", "Deerfield
#: Beach", "Wichita Falls" are no named street. (GeoNames' towns end in
#: "Park" 664 times, "Lake" 273, "Creek" 213, "Springs" 199, "Island" 87.)
_A_PLACE_S_TYPES = frozenset(
    ("Field", "Fields", "Station", "Island", "Islands", "Isle", "Isles", "Lake", "Lakes",
     "River", "Falls", "Spring", "Springs", "Park", "Parks", "Creek", "Beach")
)  # fmt: skip

#: Up to two capitalised words before a capitalised word of four letters
#: or more (a street's type, ``named_streets``).
_CAPITALISED_BEFORE_A_TYPE = re.compile(
    r"(?<![\w'’-])((?:[A-Z][^\W\d_]*(?:['’-][^\W\d_]+)*[ \t]+){1,2})"
    r"([A-Z][^\W\d_A-Z]{3,})(?![\w'’-])"
)
_CAPITALISED_WORD = re.compile(r"[A-Z][^\W\d_]*(?:['’-][^\W\d_]+)*")


def house_numbers_after_placeholders(text: str) -> Iterator[tuple[int, int, str]]:
    """The rest of a street line whose name was replaced as a person's or a
    street's: a house number after it ("<STREET_ADDRESS_1> 6a"), or words
    English does not write and a number after a name ("<PERSON_1> utca
    230.", a street named after a person; abbreviations such as "Nr." too).
    Not a year, and not after a name with no word nor mark ("#", "N°")
    between ("<PERSON_1> 25": an age as often) unless the number is none
    an age is written as (``_NO_AGE``: "<PERSON_1> 6b", "<PERSON_1> 1356")
    or the name follows a name and a comma (``_A_NAME_AND_COMMA``); a
    house number before one (``_NUMBER_BEFORE_PERSON``), and an ordinal
    (``_ORDINAL_BEFORE_PERSON``: "45th <PERSON_1>" of "45th Johnson Road")."""
    for m in _AFTER_PLACEHOLDER.finditer(text):
        words = m.group("words").split()
        if _YEAR.fullmatch(m.group("number").rstrip(".")):
            continue
        if (
            m.group("entity") == "PERSON"
            and not words
            and not m.group("mark")
            and not _NO_AGE.fullmatch(m.group("number").rstrip("."))
            and not _after_a_name_and_comma(text, m.start())
            and not _a_house_s_number_after_a_cue(text, m.start(), m.end())
        ):
            continue  # "<PERSON_1> 25": an age as often
        if any(
            not (w.endswith(".") and len(w) <= 4)
            and (an_english_word(w.casefold(), 3.0) or w.casefold() in stop_words())
            for w in words
        ):
            continue
        lead = len(m.group("words")) - len(m.group("words").lstrip())
        yield m.start("words") + lead if words else m.start("number"), m.end(), "STREET_ADDRESS"
    for m in _NUMBER_AFTER_ABBREVIATION.finditer(text):
        # The name rules took an abbreviation up to its full stop ("App. 72",
        # "Nr. 99", "Leil. 3": "<PERSON_1>. 72"): its number is the house's
        # or the unit's.
        if _YEAR.fullmatch(m.group(1)):
            continue
        after = _A_WORD_AFTER.match(text, m.end(1))
        if after and after.group(1).islower() and not _after_a_name_and_comma(text, m.start()):
            continue  # "Hi, this is <PERSON_1>. 2 of my parcels": a sentence's count
        yield m.start(1), m.end(1), "STREET_ADDRESS"
    for m in _NUMBER_BEFORE_PERSON.finditer(text):
        first, _, second = m.group(1).partition("/")
        if second and int(first) <= 31 and second.isdigit() and int(second) <= 12:
            continue  # "on 12/05, <PERSON_1>", "24/7, <PERSON_1>": a date's shape
        yield m.start(1), m.end(1), "STREET_ADDRESS"
    for m in _ORDINAL_BEFORE_PERSON.finditer(text):
        if _A_WORD_RIGHT_BEFORE.search(text, max(0, m.start() - 4), m.start()) and not (
            _a_cue_right_before(text, m.start())
        ):
            continue  # "the 2nd <PERSON_1>", "March 3rd <PERSON_1>"
        yield m.start(1), m.end(1), "STREET_ADDRESS"


def words_after_persons(text: str) -> Iterator[tuple[int, int, str]]:
    """A word in lower case English does not write right after a person
    replaced, where its clause ends (``_LOWER_WORD_AFTER_PERSON``): a street's
    type after a street named after a person ("<PERSON_1> út", "<PERSON_1>
    maantee"), or a surname the name rules left ("<PERSON_1> stadelmann"):
    any language's, no list. Not a stop word, a particle or a first name;
    only in a text written in both cases, where a word in lower case is no
    name's nor a sentence's in capitals (``_in_both_cases``)."""
    both: bool | None = None
    for m in _LOWER_WORD_AFTER_PERSON.finditer(text):
        word = m.group(1)
        folded = word.casefold()
        if not word.islower() or folded in stop_words() or folded in ADDRESS_PARTICLES:
            continue  # "<PERSON_1> Ölmez": a capital outside A-Z is no lower case
        if an_english_word(folded, 3.0) or a_first_name(word):
            continue
        if both is None:
            both = _in_both_cases(text)
        if not both:
            return
        yield m.start(1), m.end(1), "STREET_ADDRESS"


def _in_both_cases(text: str) -> bool:
    """Whether ``text`` outside its placeholders holds a capital and a
    letter in lower case (each asked of the whole text in C, once)."""
    written = PLACEHOLDER.sub("", text)
    return written.lower() != written and written.upper() != written


#: A word in lower case of two letters or more right after a person
#: replaced, where its clause ends: a line's or a sentence's end, a comma,
#: a number, or a word English goes on with ("<PERSON_1> út on your file",
#: "<PERSON_1> maantee\n", "<PERSON_1> carrera 95").
_LOWER_WORD_AFTER_PERSON = re.compile(
    r"<PERSON_\d+>[ \t]+([^\W\d_A-Z]{2,})(?=[ \t]*(?:[,.;:!?)\n]|\\[nN]|\Z)"
    r"|[ \t]+(?:\d|(?i:on|in|at|to|for|and|is|was|please|thanks)\b))"
)


#: A house's or a unit's number right after a placeholder and a full stop:
#: what the name rules left of an abbreviated word and its number ("App.
#: 72" read as a name up to the stop: "<PERSON_1>. 72").
#: Not before a per cent sign, nor before a lower-case word unless a name
#: and a comma stand before it (``_A_WORD_AFTER``, in any script): a sentence's
#: count after a name's full stop ("Hi, this is <PERSON_1>. 2 of my parcels
#: are missing", "Thanks <PERSON_1>. 100% happy"), not an address's number.
_NUMBER_AFTER_ABBREVIATION = re.compile(
    r"<(?:PERSON|STREET_ADDRESS)_\d+>\.[ \t]?(\d{1,4}[A-Za-z]?(?:[/-]\d{1,4}[A-Za-z]?)?)"
    r"(?![\w/:+%-]|[.,]\d)"
)
_A_WORD_AFTER = re.compile(r"[ \t]+([^\W\d_])")


#: A name replaced and a comma before a name replaced: what follows a
#: person's name after a comma is their address as often ("Deliver to
#: <PERSON_1>, <PERSON_2> 78": a street named after a person, its number).
_A_NAME_AND_COMMA = re.compile(r"<PERSON_\d+>,[ \t]+\Z")


def _a_cue_right_before(text: str, at: int) -> bool:
    """Whether an address cue, not "gave", ends right before ``at``."""
    cue = _CUE_RIGHT_BEFORE.search(text, max(0, at - 80), at)
    return cue is not None and not cue.group("gave")


def _a_house_s_number_after_a_cue(text: str, start: int, end: int) -> bool:
    """Whether the name replaced at ``start`` stands right after an address
    cue (``_ADDRESS_CUE``: "ship it to", "I live at", "address:"; not "gave")
    and the number after it, ending at ``end``, ends its clause, no noun
    counted after it: a street named after a person and its house number
    ("ship it to <PERSON_1>, 13 by Friday"; not "sent it to <PERSON_1> 2
    days ago")."""
    if not _a_cue_right_before(text, start):
        return False
    after = _WHOLE_WORD_AFTER.match(text, end)
    if after and after.group(1) in _POLITE and len(text[start:end].split()[-1]) > 1:
        return True  # "ship it to <PERSON_1>, 13 please"; "2 please" counts two
    return not (after and after.group(1).islower() and after.group(1) not in _AFTER_AN_ADDRESS)


_WHOLE_WORD_AFTER = re.compile(r"[ \t]+([^\W\d_]+)")


#: Words in lower case an address's clause ends before ("ship it to
#: <PERSON_1>, 13 by Friday", "... 5 instead of my door", "... 36 since
#: March"): not any stop word, so not "of" after a count; a word of asking
#: (``_POLITE``) only after a number of two digits or more ("ship it to
#: <PERSON_1>, 2 please": two of a thing).
_AFTER_AN_ADDRESS = frozenset(
    (
        "by", "before", "since", "until", "till", "instead", "in", "on", "at", "near",
        "and", "not", "from", "asap", "today", "tomorrow", "tonight", "next", "this",
        "yesterday", "last", "earlier", "again", "but", "so", "because", "when", "while",
    )
)  # fmt: skip
_POLITE = frozenset(("please", "pls", "plz", "thanks", "thx"))
#: What ends the clause of a street named by one word and its number, whatever its digits.
_AFTER_A_NAMED_NUMBER = _AFTER_AN_ADDRESS | _POLITE


#: One capitalised word and a house number right after it, nothing else.
_WORD_AND_NUMBER = re.compile(r"([A-ZÀ-Þ][a-zß-ÿ'’-]+)[ \t]+\d{1,4}[A-Za-z]?")


#: Words English numbers things with, not streets ("meet at Gate 12", "left
#: it at Room 4", "ship it to Unit 5": a unit is the address's, read elsewhere).
_NUMBERED_THINGS = frozenset(
    (
        "gate", "terminal", "platform", "room", "hall", "booth", "bay", "block", "wing",
        "ward", "desk", "counter", "door", "dock", "pier", "berth", "level", "floor",
        "locker", "box", "row", "seat", "table", "window", "stand", "zone", "section",
        "aisle", "track", "screen", "studio", "office", "building", "unit", "suite",
        "flat", "apartment", "channel", "route", "bus", "line", "train", "flight", "page",
        "chapter", "step", "version", "model", "series", "plan", "size", "day", "week",
        "year", "phase", "stage", "round", "store", "shop", "branch", "warehouse", "depot",
        "bin", "slot", "lot", "exit", "pump", "cabin", "cell", "lab", "class", "grade",
        "area", "sector", "bed", "stall", "shelf", "rack", "station", "pod", "hangar",
        "shed", "pitch", "court", "field", "tower", "house", "number", "no", "nr",
    )
)  # fmt: skip


def _a_word_and_its_number(text: str, start: int, stop: int, cue: re.Match[str]) -> bool:
    """Whether the words after an address cue of sending or leaving (not of
    going: "meet you at Hall 4") are one capitalised word and a house
    number right after it, ending their clause: a street named without its
    type ("They left it at Maple 12 please check", "Ship it to Baker 4
    please"); not a thing English numbers (``_NUMBERED_THINGS``: "Gate 12"),
    a street's type ("Plaza 21": ``numbered_words``' rule), nor a count
    before a noun ("sent it to Anna 2 days ago")."""
    if not _WORD_AND_NUMBER.fullmatch(text, start, stop) or _TRAVEL_CUE.match(cue.group(0)):
        return False
    word = text[start:stop].split()[0]
    if word.casefold() in _NUMBERED_THINGS or _a_street_type(word):
        return False
    after = _WHOLE_WORD_AFTER.match(text, stop)
    return not (after and after.group(1).islower() and after.group(1) not in _AFTER_A_NAMED_NUMBER)


def _after_a_name_and_comma(text: str, at: int) -> bool:
    """Whether a name replaced and a comma stand right before ``at``."""
    return _A_NAME_AND_COMMA.search(text, max(0, at - 40), at) is not None


#: A house number with a second number or a letter, and a comma, before a
#: street's name replaced as a person's: "60/550, <PERSON_1>" (a number a
#: count or a year is never written as; not a day and a month's shape).
_NUMBER_BEFORE_PERSON = re.compile(
    r"(?<![\w/.,:#$€£+-])(\d{1,4}[a-z]?/\d{1,4}[a-z]?|\d{1,4}[a-z]),[ \t]+(?=<PERSON_\d+>)"
)


#: An ordinal right before a name replaced as a person's: a numbered street
#: named after a person or a place ("ship to: 45th <PERSON_1>" of "45th
#: Johnson Road", "48th <PERSON_1> street"); not after a word ("the 2nd
#: <PERSON_1>", "March 3rd <PERSON_1>": a date's or a rank's ordinal) unless
#: the word ends an address cue ("send the parcel to 48th <PERSON_1>").
_ORDINAL_BEFORE_PERSON = re.compile(
    r"(?<![\w/.,:#$€£+-])(\d{1,3}(?i:st|nd|rd|th))[ \t]+(?=<PERSON_\d+>)"
)
_A_WORD_RIGHT_BEFORE = re.compile(r"[^\W\d_][ \t]+\Z")


#: A number no age is written as: with a letter in lower case or a second
#: number ("6b", "12/4"; not "4G", "3D": codes), or of three or four digits
#: ("1356"; a year is read above): a house number after a street named
#: after a person ("<PERSON_1> 6b").
_NO_AGE = re.compile(r"\d{1,4}[a-z]|\d{1,4}[a-z]?/\d{1,4}[a-z]?|\d{3,4}")


def lower_case_streets(text: str) -> Iterator[tuple[int, int, str]]:
    """A street typed in lower case ("via roma, 21", "44 norris light"):
    the address rules read a copy of each stretch of the text that has no
    capital and holds a number or a street's type, with every word
    capitalised, and a span they find there is one. Only those stretches: a
    copy of the whole text cost a 1 MiB message seconds."""
    for piece in _LOWER_CASE_STRETCH.finditer(text):
        start, end = piece.span()
        if start and text[start - 1].isalpha():  # a word's tail after its capital
            start = _WORD_TAIL.match(text, start).end()  # type: ignore[union-attr]
        if end < len(text) and text[end - 1].isalpha():  # a word's head before a capital
            end = start + len(_WORD_HEAD.sub("", text[start:end]))
        if not _street_cue().search(text, start, end):
            continue
        titled = text[start:end].title()
        # The lower-case street lines cannot match in a titled text: each starts
        # at a word's start, where title() put a capital (or a titlecase letter,
        # which isupper() denies: then they are read).
        for first, last in find_addresses(titled, lower_case=_TITLECASE.search(titled) is not None):
            if (start and not titled[:first].strip()) or (
                end < len(text) and not titled[last:].strip()
            ):
                continue  # it may run on into the capitalised words beside it
            written = titled[first:last].lower()
            if not any(c.isalpha() for c in written) or DATE.match(written):
                continue  # "2026-11-13, it's": a date, read as a number and a street
            last = first + len(written.rstrip(" \t\n,.;"))
            yield start + first, start + last, "STREET_ADDRESS"


#: A stretch of text with no capital letter (of any script miner reads).
_LOWER_CASE_STRETCH = re.compile(
    "[^" + "".join(re.escape(c) for c in map(chr, range(0x2000)) if c.isupper()) + "]{4,}"
)


_WORD_TAIL = re.compile(r"\w*")


_WORD_HEAD = re.compile(r"\w+\Z")


@functools.cache
def _street_cue() -> re.Pattern[str]:
    """What a street line in lower case holds: a number, or a street's type
    ("rue de boucher", "avenue foucher", "schulstrasse")."""
    return STREET_CUE


#: A house number after a word: "Klášterecká 128", "Kwiatowa 12/4"; after a
#: comma only at a line's or a part's end ("Flores, 12\n"; not "PHYSICA, 8
#: HELLANDGROPA", where the number is the next street's). Narrower than
#: ``verdict._A_NUMBER_AFTER`` on purpose: a match surfaces a street here.
_NUMBER_AFTER = re.compile(
    r"(?:[ \t]+|,[ \t]+(?=\d+\w?(?:/\d+\w?)?(?:[ \t]*(?:[\n,;)]|\\n|$))))"
    r"\d{1,4}[A-Za-z]?(?:/\d{1,4}[A-Za-z]?)?(?![\w/:+-]|[.,]\d)"
)


#: A house number before a word: "146 Kulhavého", "8 HELLANDGROPA".
_NUMBER_BEFORE = re.compile(r"(?<![\w/.,:#+$€£-])(?<!\d )\d{1,4}[A-Za-z]?[ \t]+$")


#: Words before a street's name, capitalised or particles ("Largo de Esteves
#: 12"), each from a word's start: in capitals, "TO PETROVA 3B" lent its "O".
_WORDS_BEFORE = re.compile(
    r"(?:(?<![\w'’.-])(?:[A-ZÀ-Þ][a-zß-ÿ'’.-]*|de|da|do|dos|das|del|la|di)[ \t]+){1,3}$"
)


_YEAR = re.compile(r"(?:19|20)\d\d")


_LOWER_WORD_BEFORE_STREET = re.compile(r"(?<![\w.'’-])([^\W\d_A-Z]{1,4}\.|[^\W\d_A-Z]{2,})[ \t]+\Z")


def numbered_words(text: str) -> Iterator[tuple[int, int, str]]:
    """A street named without a street word ("146 Kulhavého, Strmilov",
    "Klášterecká 128", "8 HELLANDGROPA"), or with one of a language miner
    has no list of ("Travessa Costa, 12"): a number of at most four digits
    beside a word, or after capitalised words, one of which English does
    not write (wordfreq Zipf under 3) and is no town, region or country,
    month or weekday, or after a street's type ("Rua 33"). Surfaced, not
    replaced: a product line or a foreign word and a count look the same."""
    from miner.redaction.lexicon.dates import MONTH_REGEX, WEEKDAY_REGEX

    calendar = re.compile(rf"(?i:{MONTH_REGEX}|{WEEKDAY_REGEX})")

    def foreign(word: str, shortest: int) -> bool:
        folded = word.casefold()
        return not (
            len(word) < shortest
            or folded in stop_words()
            or calendar.fullmatch(word)
            or an_english_word(folded, 3.0)
            or a_place_name(word)
        )

    for m in WORD.finditer(text):
        word = m.group(0)
        after = _NUMBER_AFTER.match(text, m.end())
        # A street's type, capitalised, before a number that names the
        # street ("Rua 33", "Calle 12"): a street in any sentence. Its
        # lists read only before a number: every capitalised word of a
        # long text is not asked of them.
        # Not a type English writes as a word ("Plaza 21", "Avenue 54": a
        # plan's, a product's name as often).
        typed = (
            bool(after)
            and word[:1].isupper()
            and _a_street_type(word)
            and (len(word) < 4 or word.endswith(".") or not an_english_word(word.casefold(), 3.5))
        )
        if not typed and (
            len(word) < 4 or word.casefold() in stop_words() or calendar.fullmatch(word)
        ):
            continue
        before = None if after else _NUMBER_BEFORE.search(text, max(0, m.start() - 8), m.start())
        if not (after or before):
            continue
        number = (after or before).group(0).strip(" \t,")  # type: ignore[union-attr]
        if _YEAR.fullmatch(number):
            continue
        if after:
            start = m.start()
            lead = _WORDS_BEFORE.search(text, max(0, start - 40), start)
            words = lead.group(0).split() if lead else []
            # After a type, a number of two digits or more ("Plaza 2": a cinema's screen).
            typed = typed and sum(c.isdigit() for c in number) >= 2
            if not (typed or foreign(word, 4) or any(foreign(w, 3) for w in words)):
                continue
            start = lead.start() if lead else start
            # Its words in lower case before it, and the street's type
            # abbreviated: "r. josé lopes, 23", "pl. hallera 430".
            while prior := _LOWER_WORD_BEFORE_STREET.search(text, max(0, start - 30), start):
                other = prior.group(1)
                if other.endswith("."):
                    start = prior.start()
                    break
                if not (a_first_name(other) or foreign(other, 3)):
                    break
                start = prior.start()
            yield start, after.end(), "STREET_ADDRESS"
        elif before and (foreign(word, 4) or _a_street_named_by_one_word(text, before, m)):
            yield before.start(), m.end(), "STREET_ADDRESS"


def _a_street_named_by_one_word(text: str, number: re.Match[str], word: re.Match[str]) -> bool:
    """Whether a house number of two digits or more and one capitalised
    word after it, alone between lower-case words or punctuation, are a
    street named without its type ("at 159 Majestic yesterday", "776
    Buckingham, so"; English words and places too: any word names a
    street). Not a count of things ("12 Boxes": a plural), a product's
    model ("iPhone 15 Pro": a capitalised word or a number before it, or
    one of its words), nor a name running on ("12 Main Street": the street
    rules read it)."""
    value = word.group(0)
    digits = sum(c.isdigit() for c in number.group(0))
    if digits < 2 or not value.istitle() or value.endswith("s"):
        return False
    if value.casefold() in _MODEL_WORDS or value.casefold() in currency_words():
        return False  # "45 Euro": a price
    if _CAPITALISED_BEFORE.search(text, max(0, number.start() - 40), number.start()):
        return False
    return not _CAPITALISED_AFTER.match(text, word.end())


#: A product model's words after its number ("Galaxy 21 Ultra").
_MODEL_WORDS = frozenset(("plus", "mini", "lite", "ultra", "edition", "pack", "series", "max"))


#: A word with a capital or a digit right before a number: a thing's name
#: and its model or its count ("iPhone 15", "Flight 2034").
_CAPITALISED_BEFORE = re.compile(r"(?<![\w'’.-])[\w'’.-]*[A-Z\d][\w'’.-]*[ \t]+\Z")


#: A capitalised word or a number after the word: a longer name.
_CAPITALISED_AFTER = re.compile(r"[ \t]+[A-Z\d]")


def street_names(street: str) -> list[str]:
    """The name of the street of an address, without its numbers: the words
    of its first line up to its house number, or from it to the next
    number ("Diagonal Rivadavia" of "Diagonal Rivadavia 1234, Jujuy", "rue
    léa blanc" of "95 rue léa blanc"), and that less a type after it
    ("Diagonal Rivadavia St.", "Av Eduardo Mendes Street"); only one a street's name is made
    of (``_street_word``: not "Main")."""
    line = _FIRST_PART.match(street)
    tokens = (line.group(0) if line else "").split()
    while tokens and _NUMBER_WORD.search(tokens[0]):
        tokens.pop(0)  # "95 rue léa blanc"
    words = list(itertools.takewhile(lambda w: not _NUMBER_WORD.search(w), tokens))
    names = [" ".join(words)]
    if (
        len(words) > 1
        and (
            (words[-1].endswith(".") and len(words[-1]) <= 5)
            or words[-1].title() in STREET_SUFFIX_SET
            or words[-1].casefold() == "street"
        )
        and not (len(words) == 2 and a_first_name(words[0]))
    ):  # "Pamela" of "Pamela Island"
        names.append(" ".join(words[:-1]))  # "Diag. Santa Rosa" of "... street"
    return [
        name
        for name in names
        if sum(c.isalpha() for c in name) >= 4
        and any(_street_word(w) for w in name.split())
        and name != street
    ]


_FIRST_PART = re.compile(r"(?:(?!\\[nN])[^,\n])+")


#: A word of a street line that is no word of its name: a number, "N°", "#".
_NUMBER_WORD = re.compile(r"\d|^(?i:n[º°]\.?|no\.|nr\.|#|s/n)$")


def street_name_parts(street: str) -> list[str]:
    """The words of a surfaced street line without its house number, its
    numbers of three digits or more (a postcode, "4342") and its house
    number with a letter ("8a", "2b/6")."""
    return [
        part
        for part in address_parts(street)
        if part != street
        and (
            _LETTERED_NUMBER.fullmatch(part)
            or (
                len(part) >= (3 if part.isdigit() else 4)
                and (part.isdigit() or not any(c.isdigit() for c in part))
            )
        )
    ]


#: A code of capitals and digits, both, in one or two groups: a postcode in
#: any country's shape, a real one or not ("N4L 3U0", "SW1A 1AA", "DK-8190").
_MIXED_CODE = re.compile(r"(?<![\w-])[A-Z0-9]{1,4}(?:[ -][A-Z0-9]{3,4})?(?![\w-])")


#: A line break of a block, real or escaped, or a comma: what parts its lines.
_BLOCK_BREAK = re.compile(r"[ \t]*(?:\r?\n|\\[nN]|,)[ \t]*")


def block_parts(street: str) -> list[str]:
    """The parts of an address block, surfaced or replaced
    (``session._replaced_blocks_parts``), that ``street_name_parts`` leaves
    and that name it as well when written alone elsewhere in the session:
    its codes of five characters or more, capitals and digits mixed, a
    postcode in any country's shape (``postcodes_in`` knows only real ones:
    not "N4L 3U0"); and, of a block of several lines, each line less its
    bullet that holds three letters or more and is no town's, region's or
    country's name nor a stop word ("Sal T", a Danish floor, of "??? Sal
    T\\n??? Kettinge"). Fail closed: the value was surfaced or
    replaced as an address, so are its lines."""
    parts = [
        m.group()
        for m in _MIXED_CODE.finditer(street)
        if len(m.group()) >= 5
        and any(c.isdigit() for c in m.group())
        and any(c.isalpha() for c in m.group())
    ]
    lines = [BULLET.sub("", line, count=1).strip() for line in _BLOCK_BREAK.split(street)]
    if len(lines) > 1:
        parts += [
            line
            for line in lines
            if sum(c.isalpha() for c in line) >= 3
            and not a_place_name(line)
            and line.casefold() not in stop_words()
        ]
    return [part for part in dict.fromkeys(parts) if part != street]


#: A house number with its letter in lower case: "8a", "2b/6" (not "4G", "3D": codes).
_LETTERED_NUMBER = re.compile(r"\d{1,4}[a-z](?:/\d{1,4}[a-z]?)?")


#: A line break as a text holds one: a real one, or the two characters
#: ``\n`` a JSON or log escape leaves (``\N`` in a text in capitals).
_LINE_BREAK = r"(?:\r?\n|\\[nN])"


_ADDRESS_WORD = r"[^\W\d_](?:[^\W\d_]|['’.-](?=[^\W\d_]))*\.?"


_RUN_NUMBER = r"\d{1,5}[A-Za-z]?(?:/\d{1,4}[A-Za-z]?)?"


#: A street named by its ordinal, its type left out: "39 1st", "12 3rd".
_ORDINAL = r"\d{1,3}(?i:st|nd|rd|th)"


#: A house number: digits with a letter or a second number ("16/1", "86W"),
#: or "S/N" (sin / sem número). Not inside a date, a time, an amount, a
#: phone or a code ("15/05/2024", "10:30", "$15", "15%", "A-12").
_HOUSE_NUMBER_TOKEN = re.compile(
    rf"(?:(?<=\\[nN])|(?<![\w/.,:#$€£+-]))(?:{_RUN_NUMBER}|[Ss]/[Nn])(?![\w/%°º:+'’-]|[.,]\d)"
)


#: What marks a number as a house's: "N° 982", "nº 4", "no. 12", "#45".
#: After a line break written ``\n`` too: "...\\nNr. 216" (its "n" glued to
#: the mark hid it: "nNr." was read as a street's word).
_NUMBER_MARK = re.compile(r"(?:(?:(?<![\w.])|(?<=\\[nN]))(?i:n[º°]\.?|no\.|nr\.)|\#)[ \t]?\Z")


#: A house number marked by a word at its line's start: "...\\nNr. 216\\n"
#: (the street's line above it, or none). Not "#" ("#12": an order, a
#: ticket) nor in a sentence ("my order No. 5 is").
_MARKED_LINE = re.compile(
    r"(?:(?<=\n)|(?<=\\[nN])|(?<![\s\S]))[ \t]*(?i:n[º°]\.?|no\.|nr\.)[ \t]?\d{1,5}[A-Za-z]?"
    r"(?![\w/-])"
)


_NUMBER_AND_WORDS_BEFORE = re.compile(
    rf"(?<![\w/.,:#$€£+-])\d{{1,5}}[A-Za-z]?,?[ \t]+((?:{_ADDRESS_WORD}[ \t]+){{1,2}})\Z"
)


_WORD_BEFORE = re.compile(rf"(?<![\w'’.-])({_ADDRESS_WORD})(,?[ \t]+)\Z")


_TOKEN_AFTER = re.compile(
    rf"[ \t]+(?:(?P<ordinal>{_ORDINAL})(?!\w)|(?P<number>{_RUN_NUMBER})(?![\w/:.-]|[.,]\d)"
    rf"|(?P<word>{_ADDRESS_WORD}))"
)


#: The next part of an address: after a comma, a line break or a slash, up
#: to the next of them.
_NEXT_ADDRESS_PART = re.compile(
    rf"(?:[ \t]*(?:,|;|{_LINE_BREAK}|/))+[ \t]*((?:(?!{_LINE_BREAK})[^,;/\n])+)"
)


#: A number of an address part: a postcode or a unit's number ("4600",
#: "73434-1533", "R9S2P3", "WN9Y 9SE", "al3p 3yt").
_PART_NUMBER = re.compile(r"(?<![\w-])[\w-]*\d[\w-]*(?![\w-])")


#: Words after which an address is written: "the bill goes to", "lives
#: on", "is not known at", "return to", "my address is", "the courier
#: left it at", "dropped off at".
_ADDRESS_CUE = re.compile(
    r"(?i:\b(?:address(?: is|:| to)|(?:lives?|living|lived|located|staying|based|residing)"
    r" (?:on|at)|not known at|(?:goes|go|going|ship|shipped|send|sent|deliver|delivered"
    r"|return|returned|forward|forwarded|post|posted|mail|mailed|moved?|moving)"
    r"(?: (?:it|them|this|that|everything|(?:the|my|our|your) (?:parcel|package|order|letter"
    r"|invoice|bill|card|documents?|item|items|goods|refund|replacement)))? to:?"
    r"|deliver(?:ed|y)? at|meet (?:you|me|us) at"
    r"|(?:left|dropped)(?: (?:it|them|(?:the|my|our|your) (?:parcel|package|order"
    r"|box|letter|item|items|goods)))?(?: off)? at"
    r"|side of|(?:is|it's|it is|are|was|were|live|stay|work) (?:on|at)"
    r"|(?P<gave>gave|give|gives|given|listed|used|uses)))[ \t]+"
)


#: An address cue right before a position (``_a_house_s_number_after_a_cue``).
_CUE_RIGHT_BEFORE = re.compile(rf"{_ADDRESS_CUE.pattern}\Z")


#: Cues of going somewhere, a town as often as a street.
_TRAVEL_CUE = re.compile(r"(?i:return|move|moving|meet|go\b|going)")


#: After the street a "gave" cue reads: "she gave Via Rossi as her address".
_AS_ADDRESS = re.compile(r"(?i:[ \t]+as (?:her|his|my|their|our|your|the|a) (?:new )?address)")


#: Cues after which a street may stand without its number ("lives on the
#: north side of Pamela Island").
_LIVING_CUE = re.compile(r"(?i:address|lives? on|living on|side of)")


#: A token of the words after a cue: a word (an abbreviation with its
#: full stop, "r.", "Av."), a number, or a placeholder's fill.
_CUE_TOKEN = re.compile(
    rf"[ \t]*(?:(?P<number>{_RUN_NUMBER}|[Ss]/[Nn])(?![\w/:%°+'’-]|[.,]\d)"
    r"|(?P<mark>[nN][º°]\.?|#)"
    r"|(?P<word>[^\W\d_]{1,4}\.(?=[ \t])|[^\W\d_]+(?:['’-][^\W\d_]+)*|¤+|\([^()\n]{1,30}\)))"
)


#: Types of street written before the name that the address rules' list
#: (``STREET_CUE``) lacks: "r." (rua), "diagonal", "blv." (bulevar).
_MORE_STREET_TYPES = re.compile(r"(?i:r\.|diagonal|diag\.|blv\.?|blvd\.?)")


def _a_street_type(word: str) -> bool:
    """A street's type before its name, in any case: "Via", "RUA", "r."."""
    return bool(_street_cue().fullmatch(word) or _MORE_STREET_TYPES.fullmatch(word))


#: A number's mark written as a word: "No.", "Nr.".
_NUMBER_MARK_WORD = re.compile(r"(?i:no|nr)\.")


#: A person replaced, as the address cues read it (``address_fill``).
_FILLED_PERSON = re.compile(rf"{FILLED}x+")


_DETERMINERS = frozenset(("the", "a", "an", "my", "your", "our", "his", "her", "their"))


def streets_after_address_cues(text: str) -> Iterator[tuple[int, int, str]]:
    """The words after an address cue ("the bill goes to flat 88 7 david
    circus", "not known at r. de pinto, 42", "lives on the north side of
    Pamela Island") that hold a house number beside a word a street's name
    is made of (``_street_word``: "ke hrázi 1", "5/6 martin access"), or,
    after a cue of where one lives, a street's type or such words alone
    ("Smith Place", "cihlářova"); with the parts of the address after them
    (``_parts_after``). Up to the sentence's end or, once the number is
    read, a stop word ("... Smáratún 31 in case of an issue")."""
    lower = not any(c.isupper() for c in FILLED_WORD.sub("", text))
    shouted = not any(c.islower() for c in FILLED_WORD.sub("", text))
    for cue in _ADDRESS_CUE.finditer(text):
        at = start = cue.end()
        words: list[str] = []
        ends: list[int] = []  # where each of ``words`` ends
        numbered = False
        numbers = 0
        stop = start
        after_person = False
        marked = False
        while len(words) < 8:
            m = _CUE_TOKEN.match(text, at)
            if not m:
                # A comma and a house number after the street's name: "..., 22".
                comma = re.match(r",[ \t]*", text[at:])
                person = len(words) == 1 and _FILLED_PERSON.fullmatch(words[0])
                if comma and not numbered and person:
                    # "Deliver to <PERSON_1>, Mustapha Island please": the
                    # person's address after their name.
                    at = start = stop = at + comma.end()
                    words, ends, after_person = [], [], True
                    continue
                if comma and not numbered and words:
                    after = _CUE_TOKEN.match(text, at + comma.end())
                    if after and after.group("number"):
                        at += comma.end()
                        continue
                break
            if m.group("number"):
                numbered = True
                numbers += 1
                # A number its mark names a house's: "Holding No. 898".
                marked = marked or bool(words and _NUMBER_MARK_WORD.fullmatch(words[-1]))
            elif m.group("mark"):
                pass  # "av. 5 n° 514"
            else:
                word = m.group("word")
                folded = word.casefold().rstrip(".")
                if word.startswith("(") and not words:
                    break
                if not words and folded in _DETERMINERS:
                    at = start = m.end()
                    start = _BLANKS.match(text, start).end()  # type: ignore[union-attr]
                    continue
                if (
                    folded in stop_words()
                    # Not a capitalised word of a name ("Mcdonald Front"; "I" is none).
                    and (lower or shouted or not (word.istitle() and len(word) > 3))
                    and not word.endswith(".")  # an initial: "náměstí i. p. pavlova 582"
                    and not _a_street_type(word)  # "VIA" is a stop word
                    and folded not in ADDRESS_PARTICLES
                    and not (folded == "and" and not numbered)
                ):
                    break
                if word.startswith("¤"):
                    break
                changed = word.islower() != words[-1].islower() if words else False
                if (
                    words
                    and (shouted or not numbered or changed)
                    # Where the case changes ("Nicole Island tomorrow"), any
                    # word English writes; else only very common ones.
                    and an_english_word(folded, 3.5 if changed and not shouted else 5.0)
                    and not word.endswith(".")  # an initial, "j."
                    and not (folded == "and" and not numbered)  # "Wenke and Sørlia 44"
                    and folded not in ADDRESS_PARTICLES
                    and word.title() not in STREET_SUFFIX_SET
                    and not _a_street_type(word)
                ):
                    # "Nicole Island tomorrow", "ROTONDA VOLTERRA LAST YEAR";
                    # not "level 6 94 brown range", nor a word of the name
                    # before its type ("583 Hõbekuuse tee tänav").
                    after = _CUE_TOKEN.match(text, m.end())
                    if not (
                        after and after.group("word") and _a_street_type_word(after.group("word"))
                    ):
                        break
                # A street replaced here stands for its house number: "flat
                # <STREET_ADDRESS_1>".
                numbered = numbered or FILLED_STREET.fullmatch(word) is not None
                words.append(word)
                ends.append(m.end())
            at = stop = m.end()
        if not numbered and len(words) > 1 and words[-1].casefold() == "and":
            # The street's words end before the sentence's "and" ("my address
            # is Gyamfi Island and my phone is ..."); the "and" of a name
            # ("Wenke and Sørlia 44") has its number.
            words.pop()
            ends.pop()
            stop = ends[-1]
        start = _BLANKS.match(text, start).end()  # type: ignore[union-attr]
        if stop <= start:
            continue
        named = [w.rstrip(".") for w in words if not w.startswith((FILLED, "("))]
        if cue.group("gave") and not _AS_ADDRESS.match(text, stop):
            continue  # "gave it a try"
        if numbered:
            # In lower case the words run on past the street's type to a
            # word English writes ("1148 jennings walk thanks"): up to it.
            typed = [i for i in range(1, len(words)) if words[i].title() in STREET_SUFFIX_SET]
            if lower and typed and typed[-1] < len(words) - 1:
                words, stop = words[: typed[-1] + 1], ends[typed[-1]]
            if not (
                marked
                or any(_street_word(w) or w.startswith(FILLED) for w in words)
                or (words and (words[-1].title() in STREET_SUFFIX_SET or _a_street_type(words[0])))
                or numbers >= 2  # a unit's and a house's: "level 6 94 brown range"
                or _a_word_and_its_number(text, start, stop, cue)
            ):
                continue  # "goes to 3 people", "meet you at 10 am"
        elif after_person and not any(_street_word(w) for w in named):
            continue  # "<PERSON_1>, Sales Center": a firm's place, no street's name
        elif not (
            1 <= len(words) <= 4
            and not (len(named) == 1 and a_place_name(named[0]))
            and (
                # A street's type after its name or before it: "Nicole
                # Island", "rotonda piane", "r. do sextante".
                (len(named) > 1 and words[-1].title() in STREET_SUFFIX_SET)
                or _a_street_type(words[0])
                # A word no English nor list writes, alone, where a thing is
                # sent or kept ("deliver it to grangränd"; not "returned to
                # Carlberg", a town's name as often).
                or (
                    len(named) == 1
                    and not _TRAVEL_CUE.match(cue.group(0))
                    and _street_word(named[0])
                    and not a_first_name(named[0])
                )
                or (
                    _LIVING_CUE.search(cue.group(0))
                    and (
                        all(_street_word(w) for w in named)
                        or all(w[:1].isupper() for w in named)  # "Mcdonald Front"
                    )
                )
            )
        ):
            continue
        end = _parts_after(text, stop, lower)
        yield start, end, "STREET_ADDRESS"


def address_blocks(text: str) -> Iterator[tuple[int, int, str, bool]]:
    """A street line in any language's shape, the parts of its address
    after it, and whether the line names its type (``_typed_line``: then
    sure). The line: a house number (or a street replaced already) beside
    words on one line, up to five before it and five after, one of them a
    word a street's name is made of (``_street_word``): "Diagonal Paraná N°
    5872", "625 christina trace", "Vale Fernando Freitas, 823", "8 Aaron
    Gates"; a single word only if English does not write it and it is no
    first name ("Fallkullanpolku 543"). The parts: each after a comma or a
    line break (real, or written ``\\n``) that holds a number or words a
    town's name is made of ("..., San Salvador de Jujuy 4600, Jujuy", "\\n
    2157 Ans"). ``text`` has its placeholders filled with a capitalised word
    (``address_fill``). No list of street words: a street line has this
    shape in each of Faker's per-locale address formats (read for it, no
    value copied)."""
    written = FILLED_WORD.sub("", text)
    lower = not any(c.isupper() for c in written)
    mixed = not lower and any(c.islower() for c in written)
    anchors = [(m.start(), m.end(), False) for m in _HOUSE_NUMBER_TOKEN.finditer(text)]
    anchors += [(m.start(), m.end(), True) for m in FILLED_STREET.finditer(text)]
    end = -1
    for first, last, replaced in sorted(anchors):
        if first < end:
            continue
        if (
            not replaced
            and _YEAR.fullmatch(text, first, last)
            and not _NUMBER_MARK.search(text, max(0, first - 6), first)
        ):
            continue
        start, stop, words, marked = _street_run(text, first, last, lower, replaced)
        firm = _organisation_word().search(text, start, min(len(text), stop + 40))
        if firm and firm.start() < first and "," in text[firm.end() : first]:
            # A firm's name, a comma, then its address ("... Co.Ltd., 3298 rang
            # Frédéric"): the street line starts after the comma.
            start, stop, words, marked = _street_run(text, first, last, lower, replaced, False)
            firm = _organisation_word().search(text, start, min(len(text), stop + 40))
        if firm:
            continue  # "Nikkei 225 Exchange Traded Fund", "WashTec AG"
        after = _parts_after(text, stop, lower)
        named = [w for w in words if not w.startswith(FILLED)]
        if named and all(w.isupper() and len(w) <= 4 for w in named) and mixed:
            continue  # codes in a text with lower case: "SG FTSE 100", "ETN"
        if not words and not replaced and not _MARKED_LINE.match(text, start):
            continue
        if (
            replaced
            or marked
            or _PART_NUMBER.search(text, stop, after)
            or FILLED_STREET.search(text, stop, after)
        ):
            pass  # a street replaced here or in a part after, "N°", or a postcode after
        elif not named:
            # Only a name replaced beside it: a house number before it ("8
            # <PERSON_1>") or of three digits after it, not an age ("<PERSON_1> 25").
            if not (start == first or last - first >= 3 or after > stop):
                continue
        elif (
            last - first <= 2
            and start < first
            and after == stop
            and all(known_name(w) or w.casefold() in ADDRESS_PARTICLES for w in named)
        ):
            continue  # a person and an age or a count: "Alex Morgan 25"
        elif len(words) == 1:
            word = words[0].rstrip(".")
            if a_first_name(word) or not _street_word(word) or a_place_name(word):
                continue
        elif not any(_street_word(w) for w in words):
            continue
        yield from _sure_and_unsure(text, (start, first, last, stop, after), words, replaced)
        end = after


def _sure_and_unsure(
    text: str, at: tuple[int, int, int, int, int], words: list[str], replaced: bool
) -> Iterator[tuple[int, int, str, bool]]:
    """An address block's spans, each with whether it is sure: the street
    line when it names its type (``_typed_line``), and apart from it, the
    reviewer's, the words before its number when the type comes after it
    ("Brightscope, 7 Magistrova ulica": a firm's or a place's as often) and
    the parts under it, a phone's placeholder; a block with words under its
    line (a town, a country: look-alikes as often) is one value, unsure.
    ``at``: where the block starts, its number starts and ends, its line
    and its parts end."""
    start, first, last, stop, after = at
    if LETTERS.search(FILLED_ANY.sub("", text[stop:after])):
        # Parts with words under the line (a town, a country): the block
        # stays one value, the reviewer's. Apart, a town alone is read by
        # the second model as a name or a street, and replaced: a look-alike.
        yield start, after, "STREET_ADDRESS", False
        return
    before = len(LETTERS.findall(text, start, first))
    if _NUMBER_MARK.search(text, max(0, first - 6), first):
        before -= 1  # "N°"
    if not replaced and _typed_line(words[before:], last_only=True):
        # The type last after the number: "245 Şirin Aşurbəyov Küçəsi", "7
        # Magistrova ulica" (first, "12 Rua Augusta Lisboa" may end in a town).
        line_start = first
    elif not replaced and (
        _typed_line(words) or _a_line_from_number_and_type(text, first, stop, words[before:])
    ):
        # The type before the number: from the type when it comes first
        # ("Trevo Cavalcanti, 33"), else from the capitalised word nearest
        # before it ("Rákóczi köz 850", "Szemere bertalan út 109"): a word
        # before that is a town's or a firm's as often ("in Oslo Kongens
        # gate 12").
        line_start = start + _name_start(text[start:first], words[:before])
        if LETTERS.search(text, last, stop) and not _a_line_from_number_and_type(
            text, first, stop, words[before:]
        ):
            # Words after the number: a town's as often ("Calle Mayor 12
            # Madrid"): the block is the reviewer's.
            yield start, after, "STREET_ADDRESS", False
            return
    else:
        yield start, after, "STREET_ADDRESS", False
        return
    if line_start > start:
        yield start, start + len(text[start:line_start].rstrip(" \t,")), "STREET_ADDRESS", False
    yield line_start, stop, "STREET_ADDRESS", True
    if after > stop:
        part = _NEXT_ADDRESS_PART.match(text, stop)
        yield (part.start(1) if part else stop), after, "STREET_ADDRESS", False


def _a_line_from_number_and_type(text: str, first: int, stop: int, words: list[str]) -> bool:
    """Whether a street line is a whole line that starts with its house
    number, then a street's type written before the name ("12 rue des
    Lilas", "1107 Avenida Paulista" alone on their lines): sure, as the
    type last is. No town ends such a line where the next part is on the
    next line; one after it on the same line ("12 Rua Augusta Lisboa") is
    read with it, as the address recognizer reads it."""
    if not words or _AFTER_TYPES.fullmatch(words[0]):
        return False
    # The type, or a capitalised word that a particle follows, then the
    # name: "1107 Place De Belfort", "5 Cours du Roi" (a square, a walk:
    # words English writes too, so no type of the lists).
    if not (
        _a_street_type(words[0])
        or (
            len(words) > 2
            and words[0][:1].isupper()
            and words[1].casefold() in ADDRESS_PARTICLES
            and words[2][:1].isupper()
        )
    ):
        return False
    return bool(_LINE_STARTS_BEFORE.search(text, max(0, first - 4), first)) and bool(
        _LINE_ENDS_AFTER.match(text, stop)
    )


#: A line's start before a house number: a line break (real or written
#: ``\n``), a block line's bullet, or the text's start.
_LINE_STARTS_BEFORE = re.compile(rf"(?:{_LINE_BREAK}|\A)[ \t]*\Z")


#: A line's end after a street line: a line break or the text's end, maybe
#: after a full stop.
_LINE_ENDS_AFTER = re.compile(rf"\.?[ \t]*(?:{_LINE_BREAK}|\Z)")


def _name_start(line: str, words: list[str]) -> int:
    """Where in ``line`` (a street line up to its number, of ``words``) the
    street's name starts: at its type when that comes first, else at the
    capitalised word nearest before the type, over particles and one word
    in lower case ("Rua da Silva", "Mókus bálint köz"), else at the type: a
    sentence's words before it are no name ("La oficina está en Distrito 5")."""
    types = [i for i, w in enumerate(words) if _a_street_type_word(w)]
    first = 0
    if types and types[0] > 0:
        first, lower = types[0] - 1, 0
        while first > 0 and not words[first][:1].isupper():
            lower += len(words[first]) > 3
            first -= 1
        if lower > 1 or not words[first][:1].isupper():
            first = types[0]
    at = 0
    for i, word in enumerate(words):
        found = line.find(word, at)
        if found < 0:
            return 0
        if i == first:
            return found
        at = found + len(word)
    return 0


def _typed_line(words: list[str], last_only: bool = False) -> bool:
    """Whether the words of a street line beside its house number name a
    street's type first or last, beside a name ("245 Şirin Aşurbəyov
    Küçəsi", "Rákóczi köz 850", "155 Ny Toftegårdsvej", "Aleea Pop 12":
    ``street_types``, Faker's of every language it writes addresses in, and
    the address rules' own, "tänav", "utca"), or hold a street replaced
    ("155 <PERSON_1> <STREET_ADDRESS_1>"). No look-alike is shaped so: a
    firm's word makes no block, and a place or a product names no type."""
    if not words:
        return False
    if FILLED_STREET.fullmatch(words[-1]) or (
        not last_only and any(FILLED_STREET.fullmatch(w) for w in words)
    ):
        return True
    named = [w for w in words if not w.startswith(FILLED)]
    if not named:
        return False
    if len(words) == 1:
        return _a_glued_street_type(words[0])  # "73 Hvidkløvervej"
    return _a_street_type_word(named[-1]) or (not last_only and _a_street_type_word(named[0]))


@functools.lru_cache(maxsize=65536)
def _a_street_type_word(word: str) -> bool:
    """A street's type, written apart ("Küçəsi", "köz", "Allé") or glued
    to a name English does not write ("Toftegårdsvej", "Isabellalei")."""
    folded = word.casefold()
    if folded in street_types() or folded.rstrip(".") in street_types():
        return True
    # Its full stop may be the sentence's: "a taxi to 414 Karsti tänav."
    return bool(
        STREET_CUE.fullmatch(word)
        or STREET_AFTER.fullmatch(folded)
        or STREET_AFTER.fullmatch(folded.rstrip("."))
    ) or _a_glued_street_type(word)


@functools.lru_cache(maxsize=65536)
def _a_glued_street_type(word: str) -> bool:
    """A street's type of a language not English glued to a name of three
    letters or more, the whole a word English does not write and no place
    ("Hvidkløvervej", "Isabellalei"; not "Regensburg", "Sandvika": towns)."""
    folded = word.casefold()
    if len(folded) < 6 or not folded.isalpha() or an_english_word(folded, 3.5):
        return False
    if a_place_name(word.rstrip(".")):
        return False
    return any(folded.endswith(t) and len(folded) >= len(t) + 3 for t in _glued_types())


@functools.cache
def _glued_types() -> tuple[str, ...]:
    return tuple(t for t in {*foreign_street_types(), *_DANISH_GLUED_TYPES} if t.isalpha())


#: Danish street types Faker's provider lacks (it writes "vej", "gade",
#: "stræde", "allé"), glued to the name, bare or definite: "gyde" (an alley),
#: "vænge" (a green): "Hæderlighedsgyden". Not "have" (a garden,
#: "Kirkehaven"): English towns end so ("Newhaven"), and Faker's towns.
_DANISH_GLUED_TYPES = ("gyde", "gyden", "vænge", "vænget")


_BLANKS = re.compile(r"[ \t]*")


_LINE_ENDS = re.compile(rf"[ \t]*(?:,|{_LINE_BREAK}|\Z)")


@functools.cache
def _organisation_word() -> re.Pattern[str]:
    """A company's legal form or an organisation's word, capitalised, in or
    after a street line's words: a company's name and a number, no street."""
    from miner.redaction.lexicon.names import ORGANISATION_WORDS

    return re.compile(rf"(?<![\w.])(?=[A-Z]){ORGANISATION_WORDS}")


@functools.lru_cache(maxsize=65536)
def _plain_word(word: str, lower: bool) -> bool:
    """A word no street's name holds: a stop word, a month or weekday, or
    in a text with capitals a word in lower case that English writes often
    ("yesterday", "ordered")."""
    folded = word.casefold().rstrip(".")
    if folded in ADDRESS_PARTICLES:
        return False
    if folded in stop_words() or _CALENDAR.fullmatch(folded):
        return True
    return word.islower() and an_english_word(folded, 4.5) and not (lower and a_first_name(word))


def _joins(word: str, lower: bool) -> bool:
    """Whether ``word`` may be a word of a street line's name: no plain
    word, and capitalised, a particle or a street's word unless the text is
    in lower case."""
    if _plain_word(word, lower):
        return False
    return (
        lower
        or word[0].isupper()
        or word.casefold() in ADDRESS_PARTICLES
        or _street_word(word)
        or _a_street_type_word(word)  # "Szemere bertalan út 109"
    )


def _street_run(
    text: str, start: int, end: int, lower: bool, replaced: bool = False, before: bool = True
) -> tuple[int, int, list[str], bool]:
    """The words and numbers on the line around the house number at [start,
    end), or a street ``replaced`` there already: (start, end, the words,
    whether "N°" or "#" marks the number). Beside a replaced street only
    words a street's name is made of join it ("Diagonal Córdoba N°
    <STREET_ADDRESS_1>"; not "<STREET_ADDRESS_1> Street", "DOB")."""

    def joins(word: str) -> bool:
        if replaced:
            return word.casefold() in ADDRESS_PARTICLES or (
                not _plain_word(word, lower) and _street_word(word)
            )
        return _joins(word, lower)

    words: list[str] = []
    at = start
    mark = _NUMBER_MARK.search(text, max(0, start - 6), start)
    if mark:
        at = mark.start()
    for step in range(5 if before else 0):
        m = _WORD_BEFORE.search(text, max(0, at - 60), at)
        if not m or ((step or replaced) and "," in m.group(2)) or not joins(m.group(1)):
            break
        if not lower and _a_sentence_word_before_a_name(m.group(1), words):
            break  # "invoking Article 50": the sentence's verb, then a thing's name
        words.insert(0, m.group(1))
        at = m.start()
    lead = before and _NUMBER_AND_WORDS_BEFORE.search(text, max(0, at - 40), at)
    # "397 route <STREET_ADDRESS_1>": a house number, then its street's type.
    if lead and not any(w.casefold() in stop_words() for w in lead.group(1).split()):
        words[:0] = lead.group(1).split()
        at = lead.start()
    while words and words[0].casefold() in ADDRESS_PARTICLES:
        at = _BLANKS.match(text, at + len(words.pop(0))).end()  # type: ignore[union-attr]
    run_start, run_end = (at, end)
    numbers = 0
    after_name = False
    for _ in range(5):
        m = _TOKEN_AFTER.match(text, run_end)
        if not m:
            break
        word = m.group("word")
        if m.group("ordinal"):
            if run_end != end or replaced:
                break
            # Its name, right after the house number: "39 1st\n Apt. X".
            words.append(m.group("ordinal"))
        elif m.group("number"):
            if numbers:
                break
            numbers += 1
        elif joins(word) or (replaced and _joins(word, lower) and _LINE_ENDS.match(text, m.end())):
            # After a replaced street, a word that ends its line ("<STREET_ADDRESS_1>
            # MOUNTAIN\n"): a street's type miner has no list of.
            words.append(word)
            after_name = a_first_name(word.rstrip(".")) or known_name(word)
        elif (unit := _TOKEN_AFTER.match(text, m.end())) and unit.group("number"):
            # A unit and its number: "interior 699", "suite 613".
            words.append(word)
            run_end = unit.end()
            continue
        elif (
            (lower or all(w.islower() for w in words))
            and after_name
            and word.casefold() not in stop_words()
        ):
            # A street's type after a name: "9 martin walk", "006 leslie block".
            words.append(word)
            run_end = m.end()
            break
        elif (
            run_end == end
            and not replaced
            and word.islower()
            and word.casefold() not in stop_words()
            and (name := _TOKEN_AFTER.match(text, m.end()))
            and name.group("word")
            and (
                (name.group("word")[0].isupper() and _joins(name.group("word"), lower))
                or (name.group("word").islower() and an_unknown_word(name.group("word").title()))
            )
        ):
            # A street's type in lower case between the number and the
            # name: "3298 rang Frédéric", "071 rue Roger".
            words += [word, name.group("word")]
            run_end = name.end()
            continue
        else:
            break
        run_end = m.end()
    while words and words[-1].casefold() in ADDRESS_PARTICLES:
        run_end = text.rindex(words.pop(), run_start, run_end)
        run_end = run_start + len(text[run_start:run_end].rstrip(" \t"))
    return run_start, run_end, words, mark is not None


def _a_sentence_word_before_a_name(word: str, words: list[str]) -> bool:
    """Whether a lower-case word before a street line's capitalised first
    word, in a text with capitals, is a word of English's lexicon
    (lemminflect's: "invoking Article 50") and no street's type ("via
    Roma", "rue Roger"): the sentence's, not the street's."""
    from miner.redaction.lexicon.wordclass import word_classes

    if not (word.islower() and words and words[0][:1].isupper()):
        return False
    return bool(word_classes(word)) and not _a_street_type(word)


@functools.lru_cache(maxsize=65536)
def _street_word(word: str) -> bool:
    """A word a street's name is made of: a first name, a place, or a word
    English seldom writes (wordfreq Zipf under 3.5: surnames, foreign words)."""
    bare = word.rstrip(".")
    folded = bare.casefold()
    if len(bare) < 3 or folded in stop_words() or folded in ADDRESS_PARTICLES:
        return False
    if _CALENDAR.fullmatch(folded):
        return False
    if bare.islower() and folded.endswith(("'s", "’s")) and an_english_word(folded[:-2], 3.0):
        return False  # a possessive English writes: "my neighbour's", "mum's"
    return a_first_name(bare) or a_place_name(bare) or not an_english_word(folded, 3.5)


def _parts_after(text: str, end: int, lower: bool) -> int:
    """The end of an address's parts after its street line: up to four,
    each after a comma, a line break or a slash, of at most six words that
    are no plain words (``_plain_word``), up to the last that holds a
    number (a postcode, a unit), or a town's capitalised words after a
    comma on the line of one ("4600, Jujuy") or before one; a plain word, a
    date or a long number (an id, a phone: a value of its own) ends them
    ("..., BCS 04220-4844 thanks", "\\nDOB 1984-10-08", "\\nThx")."""
    at = last = end
    numbered_before = True
    for _ in range(4):
        m = _NEXT_ADDRESS_PART.match(text, at)
        if not m or _PARAGRAPH.search(text, at, m.start(1)):
            break
        if DATE.search(m.group(1)) or _LONG_NUMBER.search(m.group(1)):
            break
        if _SIGN_OFF.fullmatch(m.group(1).strip()):
            break  # "...\nThx\n<PERSON_1>": a signature's, not the address's
        stop, numbered, named, whole, headed = m.start(1), False, False, True, False
        # A block line's bullet before the part: "\n??? Flat 53".
        bullet = BULLET.match(m.group(1)).end()  # type: ignore[union-attr]
        for count, token in enumerate(_PART_TOKEN.finditer(m.group(1), bullet)):
            value = token.group(0)
            letters = _NOT_A_LETTER.sub("", value)
            if count == 6:  # at most six words: the rest is a sentence
                whole = False
                break
            head = count == 0 and FILLED_OTHER.fullmatch(value) is not None
            headed = headed or head
            if _PART_NUMBER.search(value) or value.startswith(FILLED) or head:
                # A number, or a value replaced already (a postcode read as
                # a phone heads its part: "<PHONE_NUMBER_1> Casa Grande / BA").
                numbered = True
            elif letters and (
                not _plain_part_word(value, letters, lower)
                or (
                    count > 0
                    and not lower
                    and _A_BUILDING_S_LETTER.fullmatch(value)
                    and not m.group(1)[token.end() :].strip(" \t.")
                )
            ):
                # A building's or entrance's letter ending a part after a word
                # of it ("Maja A", "Blok B"): no sentence's "A" or "I" going on
                # ("Springfield I think", "Springfield A courier left").
                named = named or lower or any(c.isupper() for c in value)
            elif letters or not _PUNCTUATION.fullmatch(value):
                whole = False
                break
            stop = m.start(1) + token.end()
            if _SENTENCE_END.search(value):
                # "..., Cedynia. Passport no.": the sentence's end, the address's too.
                stop, whole = stop - 1, False
                break
        same_line = not re.search(_LINE_BREAK, text[at : m.start(1)])
        if headed and not whole:
            break  # a phone and a sentence after it: "<PHONE_NUMBER_1>. Passport no."
        if numbered or (named and numbered_before and same_line):
            last = stop
        if not whole:
            break
        numbered_before = numbered
        at = stop
    return last


#: A capital letter alone: a building's or an entrance's after the words of
#: its part ("Maja A", Estonian's building; "Blok B"), not a sentence's "A"
#: (the part's first word, or in a text in lower case), nor "I".
_A_BUILDING_S_LETTER = re.compile(r"[A-HJ-Z]")


#: A word of five letters or more and a full stop: a sentence's end, no
#: abbreviation ("Cedynia."; not "Str.", "Apto.").
_SENTENCE_END = re.compile(r"[^\W\d_]{5}\.\Z")


#: A sign-off on its own part ("Thx", "Kind regards,"): the address ended before it.
_SIGN_OFF = re.compile(rf"(?i:{SIGN_OFF_WORDS})[,!.]?")


#: A blank line: an address's parts never run over one.
_PARAGRAPH = re.compile(r"\n[ \t]*\n")


_LONG_NUMBER = re.compile(r"\d{9,}")


_PART_TOKEN = re.compile(r"[^\s,;]+")


_NOT_A_LETTER = re.compile(r"[\W\d_]")


_PUNCTUATION = re.compile(r"[-()/]+")


@functools.lru_cache(maxsize=65536)
def _plain_part_word(value: str, letters: str, lower: bool) -> bool:
    """A word no part of an address holds: a stop word; in lower case a
    word English writes very often (Zipf 5: "thanks", not "port"); else a
    plain word (``_plain_word``)."""
    folded = letters.casefold()
    if folded in stop_words():
        return True
    if lower:
        return an_english_word(folded, 5.0) and not a_first_name(letters)
    return value[0].islower() and _plain_word(letters, lower)


_CALENDAR = re.compile(
    r"(?i:"
    + r"|".join(
        (
            "january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec",
            "monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|wed|thu|fri|sat|sun",
        )
    )
    + r")\.?"
)


#: Letters whose title case is not a capital ("ǅ"): title() gives them in
#: place of one.
_TITLECASE = re.compile(
    "[" + "".join(c for c in map(chr, range(0x2000)) if c.istitle() and not c.isupper()) + "]"
)
