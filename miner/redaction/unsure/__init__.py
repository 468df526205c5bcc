"""What the redaction policy is unsure of: spans it neither replaces nor
keeps, but leaves as written and puts before the reviewer (a *surface*
verdict; docs/redaction.md, "How the policy decides").

Read on a string after replacement (placeholders in it are skipped), so a
span here is something no sure rule took. Its kinds, each a shape that
leaked silently before (issue 36); the name rules are in ``unsure.names``,
the street rules in ``unsure.streets``:

- a word a name list knows, in lower case or in capitals ("ring FARMER on
  the intercom", "it's teófila again"): gender-guesser's first names and
  the US census's surnames, the lists the project already reads, less the
  words English writes often (wordfreq) unless a naming cue stands before;
- a word no list knows: capitalised (``unknown_capitalised``), or in lower
  case in a person's slot of a chat ("i spoke with adaeze");
- a number of 8 or more digits that no known format or thing cue explains
  (the real agent's bare phone "00573…" in an escalation summary);
- an e-mail address in another shape: an airline's GDS form
  (``NAME//DOMAIN.TLD``) or ``name (at) domain.tld``;
- a street typed in lower case, read by the address rules as if capitalised;
- what is left of an address, or of a name, beside one found or replaced
  (``lexicon/address_rest.py``; a title, a glued part, a listed name):
  fail closed by position, whatever the shape;
- a line of an address block with no number ("Sal T", a Danish floor) or a
  postcode in no country's real shape ("N4L 3U0"), written alone elsewhere
  in the session (``block_parts``): the session pass replaces an address's
  parts only when they hold a number, and a surfaced block covers only its
  whole text, so these stood silent (issue 36's mimesis sets).

Every threshold is a key of ``[redaction.unsure]`` in the pipeline config
(``miner.config.UnsureConfig``), so a deployment can tune it.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator

from miner.config import DEFAULT_ALLOW, UnsureConfig
from miner.model import Session
from miner.redaction.lexicon.address_rest import rest_of_addresses
from miner.redaction.lexicon.addresses import (
    SHORT_NUMBER,
    house_number_values,
    house_numbers_alone,
)
from miner.redaction.lexicon.dates import dates_near_birth_cues
from miner.redaction.lexicon.formats import AFTER_A_GDS_STATUS, unchecked_named_ids
from miner.redaction.lexicon.names import stop_words
from miner.redaction.lexicon.places import place_around
from miner.redaction.lexicon.postcode_blocks import blocks_above_postcodes
from miner.redaction.lexicon.signatures import signature_address_lines, signature_name_lines
from miner.redaction.lexicon.wordmatch import WholeWords
from miner.redaction.placeholders import PLACEHOLDER
from miner.redaction.surfaced import Surfaced
from miner.redaction.unsure.names import (
    A_HYPHENATED_GIVEN_NAME,
    A_NAME_AFTER_A_SIGNATURE_DASH,
    A_NAME_FIELD,
    A_POSSESSIVE_IN_CAPITALS,
    A_RANK_BEFORE_A_NAME,
    GREETED,
    HONORIFICS,
    RARE_NAME_IN_SLOT,
    TITLE_BESIDE_PERSON,
    NameWords,
    a_name_alone,
    a_sentence_s_last_word,
    grown_over_short_words,
    hyphenated_given_names,
    name_fields,
    names_after_signature_dashes,
    names_beside_persons,
    possessives_in_capitals,
    ranks_before_names,
)
from miner.redaction.unsure.streets import (
    UNIT_BEFORE_STREET,
    a_street_alone,
    address_blocks,
    block_parts,
    house_numbers_after_placeholders,
    lower_case_streets,
    named_streets,
    numbered_words,
    street_name_parts,
    streets_after_address_cues,
    words_after_persons,
)
from miner.redaction.unsure.text import (
    ALPHANUMERIC,
    DATE,
    FILLED_ANY,
    FILLED_WORD,
    address_fill,
    around_placeholders,
    breaks_unescaped,
    joined,
)
from miner.redaction.walk import session_texts

#: With its country's code in brackets before it: "(+358) 845173291"; a
#: slash may group them too, as a birth number's ("625229/0000").
_DIGITS = re.compile(
    r"(?:(?<![\w.,/:+-])"
    + AFTER_A_GDS_STATUS
    + r")(?:\(\+?\d{1,4}\)[ .-]?)?(?:\+|00)?\d(?:[ ./-]?\d){7,}(?![\w/:-]|[.,]\d)"
)


#: Three or more groups of two to four digits apart by one blank, dot or
#: hyphen, as a phone's digits are grouped ("34 86 15", "74-99-52").
_GROUPED_DIGITS = re.compile(
    r"(?:(?<![\w.,/:+-])"
    + AFTER_A_GDS_STATUS
    + r")(?:\(\+?\d{1,4}\)[ .-]?)?\d{2,4}(?:([ .-])\d{2,4})(?:\1\d{2,4})+"
    r"(?![\w/:-]|[.,]\d)"
)


#: "S/N" (sin / sem número) with no serial number after it, or a whole
#: string that is a marked house number ("Nr. 216", "N° 12").
_MARKED_HOUSE_NUMBER = re.compile(
    r"(?<![\w/])([Ss]/[Nn])(?![\w/]|[ \t]*[:#]|[ \t]*\d)"
    r"|\A[ \t]*((?:Nr|No|N[º°])\.?[ \t]?\d{1,5}[A-Za-z]?)[ \t.]*\Z"
)


#: A person's id named in English, then a code with a digit that no id's
#: check took ("social security number is 6z26jx6"): whatever its country's
#: shape, the value the name announces.
_ID_AFTER_ITS_NAME = re.compile(
    r"(?i:\b(?:social security|social insurance|national id(?:entity|entification)?"
    r"|identity card|id card|personal (?:id|code|number|identity)|birth number|citizen number"
    r"|tax id|ssn)(?:[ \t]+(?:number|no\.?|code))?[ \t]*(?:is|:|#|=)?[ \t]*)"
    r"((?=[A-Za-z0-9/.-]*\d)[A-Za-z0-9][A-Za-z0-9/.-]{3,18}[A-Za-z0-9])(?![\w/-])"
)


#: A clock or a currency just before digits: a time or an amount.
_CLOCK = re.compile(r"(?:\d:\d\d|[$€£¥]|(?i:eur|usd|gbp))[ \t]*\Z")


_EMAIL_SHAPE = re.compile(
    # "./" is a GDS record's hyphen (``formats._SPELT_OUT``). Never started
    # inside a run a match could start earlier in ("a./a./...", "A%A%..."):
    # each such start scanned on to the text's end (quadratic).
    r"(?<![\w.%+-])(?<!\./)[A-Za-z0-9](?:[A-Za-z0-9._%+-]|\./)*"
    r"(?://|[ \t]?(?:\(at\)|\[at\]|@)[ \t]?)"
    r"[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w.-]*\w)"
)


_DIALLING_CODE = re.compile(r"(?<![\w+(])\(?(?:\+|00)\d{1,4}\)?[ .-]?(?=<PHONE_NUMBER_\d+>)")


#: Words before a number that say what thing it numbers: not a person's.
_THING_NUMBER_CUE = re.compile(
    r"(?i)\b(?:tracking|track|orders?|sku|ticket|invoice|ref|reference|booking|case|parcel"
    r"|shipment|awb|waybill|serial|flight|receipt|transaction|batch|lot|model|version|build)"
    r"\W{0,3}(?:no\.?|nr\.?|number|#|id|code)?\W{0,3}$"
)


#: Keys whose string values number things.
_THING_KEY = re.compile(
    r"(?i)track|sku|order|ticket|invoice|ref|serial|transaction|receipt|batch|version|build|"
    r"time|date|trace|span|event|session|request|amount|price|total"
)


#: A street in lower case that the address rules read as one when capitalised.
LOWER_CASE_STREET = "a lower-case street"

#: An address block whose street line names its type beside its name and
#: house number ("245 Şirin Aşurbəyov Küçəsi", "Rákóczi köz 850").
TYPED_STREET_LINE = "a street line with its type"

#: A postcode or a line of a surfaced address block written alone elsewhere.
BLOCK_PART_ALONE = "an address block's part alone"

#: A street's name written alone elsewhere, without its number.
STREET_NAME_ALONE = "a street's name alone"

#: The rules whose values are replaced, not put before the reviewer: at
#: least 97% of their decisions on the tune splits were planted personal
#: values, over 30 decisions or more (``redaction_report surfaced-why``:
#: lower-case streets 38 of 38, names English writes less than often in a
#: person's slot 34 of 34, no look-alike; a street line that names its
#: type, read off the mimesis tune split: street decisions 280 to 220,
#: silent streets 22 to 10, look-alikes replaced unchanged on every split).
REPLACED_REASONS = frozenset((LOWER_CASE_STREET, RARE_NAME_IN_SLOT, TYPED_STREET_LINE))

#: A span of ``Unsure``: (start, end, entity it may be, the rule that found it).
Reasoned = tuple[int, int, str, str]

#: A word in lower case English does not write after a person replaced, a
#: street's type or a surname (``streets.words_after_persons``). Where a name
#: rule took the same word as a person's it is that rule's: read as a
#: street's, a surname of a person the session replaced stayed surfaced
#: ("Dmitri Sokolov" ... "<PERSON_2> sokolov": ``with_people_decided`` reads
#: persons), and a firm's word went to the second model, which is not asked
#: about a person's ("<PERSON_1> sarl," replaced).
A_WORD_AFTER_A_PERSON = "a word after a person"


def _within_one(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    """Whether one of ``spans`` (a pattern's matches: in order, apart) holds
    [start, end): by bisection, asked of each span found (a 1 MiB message
    in capitals of 19,200 names and 6,400 phrases of the allow list: 122.9
    million pairs read one by one, 15.8 s of CPU in ``reasoned_spans``; by
    bisection 7.4 s)."""
    i = bisect.bisect_right(spans, (start, _NO_END)) - 1
    return i >= 0 and spans[i][0] <= start and end <= spans[i][1]


#: Past every span's end, so that a span starting at ``start`` sorts before it.
_NO_END = 1 << 62


def _because(reason: str, spans: Iterable[tuple[int, int, str]]) -> Iterator[Reasoned]:
    """``spans`` with the rule that found them."""
    for start, end, entity in spans:
        yield start, end, entity, reason


_NAME_LINE_WORD = re.compile(r"[^\W\d_]+(?:['’‘ʼ-][^\W\d_]+)*['’‘ʼ]?")


def _a_name_line(line: str) -> bool:
    """A line that may be a signature's name: at most four words, none a
    stop word, each capitalised, one of them a word English writes less
    than often (Zipf 4) or a name list's: not "The Support Team", "Sent
    from my phone"."""
    from miner.redaction.lexicon.names import an_english_word, known_name

    words = _NAME_LINE_WORD.findall(line)
    if not words or len(words) > 4 or any(c.isdigit() for c in line):
        return False
    if any(w.casefold() in stop_words() or not w[0].isupper() for w in words):
        return False
    return any(known_name(w) or not an_english_word(w.casefold(), 4.0) for w in words)


class Unsure:
    """What is surfaced, and how eagerly: ``[redaction.unsure]`` of the
    pipeline config (``UnsureConfig``; each default measured on the dev
    splits: docs/redaction.md, "How to tune it")."""

    def __init__(
        self, config: UnsureConfig | None = None, allow: Iterable[str] = DEFAULT_ALLOW
    ) -> None:
        self.config = config or UnsureConfig()
        self._name_words = NameWords(self.config)
        words = sorted({a.strip() for a in allow if a.strip()}, key=len, reverse=True)
        #: The allow list's phrases (carriers, payment services...): kept, so
        #: never surfaced ("paid with Klarna").
        self._allowed = (
            re.compile(rf"(?i)(?<!\w)(?:{'|'.join(map(re.escape, words))})(?!\w)")
            if words
            else None
        )

    def allowed_spans(self, text: str) -> list[tuple[int, int]]:
        """(start, end) of each phrase of the allow list in ``text``."""
        return [m.span() for m in self._allowed.finditer(text)] if self._allowed else []

    def spans(self, text: str, key: str | None = None) -> Iterator[tuple[int, int, str]]:
        """(start, end, entity it may be) of each unsure span of ``text``
        (``reasoned_spans`` without the rule)."""
        for start, end, entity, _reason in self.reasoned_spans(text, key):
            yield start, end, entity

    def reasoned_spans(
        self, text: str, key: str | None = None, only_beside: bool = False
    ) -> Iterator[Reasoned]:
        """(start, end, entity it may be, rule) of each unsure span of ``text``, a
        string as redaction wrote it (placeholders are never part of one),
        none inside a phrase of the allow list, and no name inside a town's
        name in a place's slot ("based in Lake Elnur", "rebooked to Quito":
        ``place_around``). ``only_beside``: the rules of position alone (the
        rest of an address, a house number, a unit, a title or a name's word
        beside a placeholder), for a value replaced after the first reading."""
        allowed = self.allowed_spans(text)
        found = list(self._spans(text, key, only_beside))
        if self.config.streets:
            # What the street rules left of an address beside a street they
            # found or one replaced: surfaced whatever its country's shape.
            streets = [(s, e) for s, e, entity, _reason in found if entity == "STREET_ADDRESS"]
            for start, end in rest_of_addresses(text, streets):
                found += _because(
                    "rest of an address",
                    around_placeholders(text, start, end, "STREET_ADDRESS", ALPHANUMERIC),
                )
        kept = [
            (start, end, entity, reason)
            for start, end, entity, reason in found
            # A span without a letter or a digit (a stop a rule ran on to,
            # "." after a street or a title replaced) holds nothing personal:
            # surfaced, it was a reviewer's decision on nothing.
            if ALPHANUMERIC.search(text, start, end)
            and not _within_one(allowed, start, end)
            and not (entity == "PERSON" and place_around(text, start, end))
        ]
        people = {(start, end) for start, end, entity, _reason in kept if entity == "PERSON"}
        for start, end, entity, reason in kept:
            if reason == A_WORD_AFTER_A_PERSON and (start, end) in people:
                continue  # a name rule's: a person's word
            yield start, end, entity, reason

    def _spans(self, text: str, key: str | None, only_beside: bool) -> Iterator[Reasoned]:
        if only_beside:
            yield from self._streets_beside(text)
            yield from self._names_beside(text)
            return
        seen = PLACEHOLDER.sub(lambda m: " " * len(m.group(0)), text)
        if self.config.emails:
            for m in _EMAIL_SHAPE.finditer(seen):
                yield m.start(), m.end(), "EMAIL_ADDRESS", "an e-mail's other shape"
        if self.config.numbers and not (key and _THING_KEY.search(key)):
            yield from self._numbers(seen)
            for m in _ID_AFTER_ITS_NAME.finditer(seen):
                yield m.start(1), m.end(1), "NATIONAL_ID", "a code after an id's name"
            for start, end in unchecked_named_ids(seen):
                yield start, end, "NATIONAL_ID", "a code after an id's name"
            for m in _DIALLING_CODE.finditer(text):
                # A country's code left before a phone replaced: "(+358) <PHONE_NUMBER_1>".
                end = m.start() + len(m.group(0).rstrip(" .-"))
                yield m.start(), end, "PHONE_NUMBER", "a dialling code"
        if "<DATE_OF_BIRTH_" not in text:
            # A date beside a birth cue that the cue rules did not take (a
            # birth date replaced in the string answers its cue).
            for start, end in dates_near_birth_cues(seen):
                yield start, end, "DATE_OF_BIRTH", "a date near a birth cue"
        if self.config.streets:
            # A street's name replaced already ("90, boulevard de <PERSON_1>"):
            # the street is read with a word in its place, and its words
            # around the placeholder are surfaced.
            filled = PLACEHOLDER.sub(lambda m: "q" * len(m.group(0)), text)
            for start, end, entity in lower_case_streets(filled):
                yield from _because(
                    LOWER_CASE_STREET, around_placeholders(text, start, end, entity)
                )
            for start, end, entity in numbered_words(seen):
                yield from _because(
                    "a number beside a word", around_placeholders(text, start, end, entity)
                )
            # Placeholders as words of an address's (``address_fill``), once
            # for every rule that reads a whole address, those of position too.
            address_filled = PLACEHOLDER.sub(address_fill, text)
            yield from self._streets_beside(text, address_filled)
            for m in _MARKED_HOUSE_NUMBER.finditer(seen):
                # A house with no number ("S/N"), or a string that is a marked
                # house number alone ("Nr. 216", a tool's argument).
                group = m.lastindex or 0
                yield m.start(group), m.end(group), "STREET_ADDRESS", "a marked house number"
            yield from _because("a named street", named_streets(seen))
            yield from _because("a street alone", a_street_alone(seen))
            # An address read upwards from its postcode and town whose
            # parts the sure rules left ("Intrarea Pop\nVoluntari, 220928",
            # "<PERSON_1>\nValu lui Traian, 391043"), a name replaced in it too.
            for start, end, _sure in blocks_above_postcodes(address_filled, FILLED_WORD):
                yield from _because(
                    "a block above a postcode",
                    around_placeholders(text, start, end, "STREET_ADDRESS", ALPHANUMERIC),
                )
            # A signature's lines under its name shaped like an address's.
            for start, end in signature_address_lines(address_filled, FILLED_ANY):
                yield from _because(
                    "a signature's address",
                    around_placeholders(text, start, end, "STREET_ADDRESS", ALPHANUMERIC),
                )
            for start, end, entity in streets_after_address_cues(address_filled):
                yield from _because(
                    "after an address cue",
                    around_placeholders(text, start, end, entity, ALPHANUMERIC),
                )
        if self.config.names:
            yield from self._names_beside(text)
            if not (key and _THING_KEY.search(key)):
                yield from _because("a lower-case word alone", a_name_alone(seen))
            for start, end in signature_name_lines(seen):
                # What the name rules left of a signature's name line: its
                # words, unless English writes each often ("The Support Team").
                if _a_name_line(seen[start:end]):
                    yield from _because(
                        "a signature's name line",
                        around_placeholders(text, start, end, "PERSON", ALPHANUMERIC),
                    )
            yield from _because(A_NAME_FIELD, name_fields(seen))
            yield from _because(A_HYPHENATED_GIVEN_NAME, hyphenated_given_names(seen))
            yield from _because(A_RANK_BEFORE_A_NAME, ranks_before_names(seen))
            yield from _because(A_POSSESSIVE_IN_CAPITALS, possessives_in_capitals(seen))
            yield from _because(A_NAME_AFTER_A_SIGNATURE_DASH, names_after_signature_dashes(seen))
            unescaped = breaks_unescaped(seen)
            name_words = joined(text, self._name_words.spans(unescaped, text))
            for start, end, entity, reason in name_words:
                if not PLACEHOLDER.search(text, start, end):
                    start, end = grown_over_short_words(unescaped, start, end)
                pieces = (
                    around_placeholders(text, start, end, entity, ALPHANUMERIC)
                    if reason == GREETED  # of two letters too: "Sorry sá,"
                    else around_placeholders(text, start, end, entity)
                )
                yield from _because(reason, pieces)

    def _streets_beside(self, text: str, address_filled: str | None = None) -> Iterator[Reasoned]:
        """The street rules of position: an address's parts beside a
        placeholder (``address_filled``: ``text`` with its placeholders
        filled as an address's words, when the caller has it)."""
        if self.config.streets:
            # An address's parts around those replaced: its house number and
            # "N°" too ("8 <PERSON_1>", "<PERSON_1> N° <STREET_ADDRESS_1>, Jujuy").
            if address_filled is None:
                address_filled = PLACEHOLDER.sub(address_fill, text)
            for start, end, entity, typed in address_blocks(address_filled):
                yield from _because(
                    TYPED_STREET_LINE if typed else "an address block",
                    around_placeholders(text, start, end, entity, ALPHANUMERIC),
                )
            yield from _because(
                "a house number by a placeholder", house_numbers_after_placeholders(text)
            )
            yield from _because(A_WORD_AFTER_A_PERSON, words_after_persons(text))
            for m in UNIT_BEFORE_STREET.finditer(text):
                # A unit's word left before its number replaced: "suite
                # <STREET_ADDRESS_1>".
                end = m.start() + len(m.group(1))
                yield m.start(), end, "STREET_ADDRESS", "a unit before a street"

    def _names_beside(self, text: str) -> Iterator[Reasoned]:
        """The name rules of position: a name's part beside a person replaced."""
        if self.config.names:
            for m in TITLE_BESIDE_PERSON.finditer(text):
                if m.group(m.lastindex or 0).casefold() in HONORIFICS:
                    continue  # "Ms. <PERSON_1>": English's, said of anyone
                if m.lastindex == 1 and a_sentence_s_last_word(m.group(1)):
                    continue  # "a huge <PERSON_1> fan.": the sentence's end
                # A person's title or degree beside the name replaced, in the
                # shape any language abbreviates one ("<PERSON_1> th.d.",
                # "Ing. <PERSON_1>"): the name's part, so the reviewer's.
                group = m.lastindex or 0
                yield m.start(group), m.end(group), "PERSON", "a title beside a person"
            yield from _because("a word beside a person", names_beside_persons(text))

    def _numbers(self, text: str) -> Iterator[Reasoned]:
        for m in _DIGITS.finditer(text):
            number = m.group(0)
            digits = sum(c.isdigit() for c in number)
            if digits < self.config.digits_min or DATE.fullmatch(number):
                continue
            if _THING_NUMBER_CUE.search(text, max(0, m.start() - 30), m.start()):
                continue
            entity = "PHONE_NUMBER" if digits <= 15 else "NATIONAL_ID"
            yield m.start(), m.end(), entity, "8 or more digits"
        for m in _GROUPED_DIGITS.finditer(text):
            # Fewer digits, but grouped as a phone's are ("34 86 15"): no
            # count, amount or code is written so.
            number = m.group(0)
            if sum(c.isdigit() for c in number) >= self.config.digits_min:
                continue  # read above
            if DATE.fullmatch(number) or _CLOCK.search(text, max(0, m.start() - 8), m.start()):
                continue
            if _THING_NUMBER_CUE.search(text, max(0, m.start() - 30), m.start()):
                continue
            yield m.start(), m.end(), "PHONE_NUMBER", "digits grouped as a phone's"


#: What stands between an address's parts: blanks, commas, line breaks.
_REST_START = re.compile(r"(?:[\s,;]|\\[nN])*")


def unsure_values(
    session: Session, unsure: Unsure, things: tuple[str, ...] = ()
) -> tuple[Surfaced, ...]:
    """The values ``unsure`` surfaces in a redacted ``session``: one per
    distinct value as written (the first sighting's entity), the longest
    span first where two overlap; none inside an occurrence of ``things``
    (phrases the policy decided name things, case-folded)."""
    found: dict[str, tuple[str, str, str]] = {}  # value -> (entity, reason, part of)
    leaves = [
        (key, leaf)
        for key, leaf in session_texts(session)
        if isinstance(leaf, str) and leaf.strip()
    ]
    named = (
        re.compile("|".join(re.escape(t) for t in sorted(things, key=len, reverse=True)), re.I)
        if things
        else None
    )
    for key, leaf in leaves:
        inside = [m.span() for m in named.finditer(leaf)] if named else []
        end, sure = -1, False
        # Of two rules that found spans starting at one place, the one sure
        # enough to replace its span (what the other found after it is
        # surfaced by its own rules: an address's parts).
        spans = sorted(
            unsure.reasoned_spans(leaf, key),
            key=lambda s: (s[0], s[3] not in REPLACED_REASONS, -s[1]),
        )
        for start, stop, entity, reason in spans:
            if any(s <= start and stop <= e for s, e in inside):
                continue
            if start >= end:
                found.setdefault(leaf[start:stop], (entity, reason, ""))
                end, sure = stop, reason in REPLACED_REASONS
            elif stop > end and (sure or entity == "STREET_ADDRESS"):
                # A longer span than the sure one taken here, or a street
                # running on past a name taken here ("Rzayeva Küçəsi 1356"
                # after "Həqiqət Rzayeva Küçəsi" read as one): its rest is
                # surfaced, as the whole would have been ("..., Sorø").
                rest = _REST_START.match(leaf, end).end()  # type: ignore[union-attr]
                if rest < stop and ALPHANUMERIC.search(leaf, rest, stop):
                    found.setdefault(leaf[rest:stop], (entity, reason, ""))
                end, sure = stop, False
    streets = [value for value, (entity, *_why) in found.items() if entity == "STREET_ADDRESS"]
    alone = street_parts_alone(streets, [leaf for _key, leaf in leaves])
    # Each street's short house numbers standing alone, from one scan of each
    # string for every street's numbers: a scan per street read a 1 MiB
    # message once per surfaced street (1 s of its CPU). A span's number is
    # its text: per string, number -> its spans, in order.
    numbers_of = {street: set(SHORT_NUMBER.findall(street)) for street in streets}
    every_number = set().union(*numbers_of.values())
    numbers_alone: list[dict[str, list[tuple[int, int]]]] = []
    for _key, leaf in leaves:
        spans_of: dict[str, list[tuple[int, int]]] = {}
        for s, e in house_numbers_alone(leaf, every_number) if every_number else ():
            spans_of.setdefault(leaf[s:e], []).append((s, e))
        numbers_alone.append(spans_of)
    for street in streets:
        for part, reason in alone[street]:
            if reason == STREET_NAME_ALONE:
                # A street's, even where it was read as a name no list knows.
                found[part] = ("STREET_ADDRESS", reason, street)
            else:
                found.setdefault(part, ("STREET_ADDRESS", reason, street))
        # Its house number standing alone where a value does ("I have noted
        # 26 on your file"), as a replaced address's is replaced; or a whole
        # string ("Nr. 216", a tool's argument). Outside the street's own
        # text, as its other parts (``_inside``).
        numbers = numbers_of[street]
        whole = set(house_number_values(street))
        for (_key, leaf), spans_of in zip(leaves, numbers_alone, strict=True):
            if leaf.strip() in whole:
                found.setdefault(leaf.strip(), ("STREET_ADDRESS", "a house number alone", street))
            if numbers:
                for s, e in sorted(span for n in numbers for span in spans_of.get(n, ())):
                    if not _inside(leaf, street, s, e):
                        found.setdefault(
                            leaf[s:e], ("STREET_ADDRESS", "a house number alone", street)
                        )
    return tuple(Surfaced(entity, value, *why) for value, (entity, *why) in found.items())


def street_parts_alone(
    streets: list[str], leaves: list[str], *, names: bool = True
) -> dict[str, list[tuple[str, str]]]:
    """Per street surfaced or replaced, in its order: (part, reason) of each
    of its parts written alone in the session, outside that street's own
    text: its name without its number ("could not verify Klášterecká",
    ``street_name_parts``; only with ``names``: ``session._other_casings``
    finds the session pass's replaced streets' names), then its postcode or a
    line of its block ("could not verify Sal T", "I have noted N4L 3U0",
    ``block_parts``). The same address, the reviewer's with it, one
    decision (``surfaced.decisions``: a value's parts). Found where the
    reviewer's tools find a value (``WholeWords``: after a line break
    escaped ``\\n`` too) and in the street's own string beside it; every
    part in one pass per string (a pattern per part read a 1 MiB text
    hundreds of times). One search for the unsure pass's surfaced streets
    and the session pass's replaced ones (``session._replaced_blocks_parts``).

    Each part is the street's own: a string that holds another street is
    searched whole (blanking every street's text, and taking the parts of
    all streets before any street's house numbers, left silent leaks that
    this order does not)."""
    parts_of: dict[str, list[tuple[str, str]]] = {}
    owners: dict[str, list[str]] = {}
    for street in streets:
        mine = [(n, STREET_NAME_ALONE) for n in street_name_parts(street)] if names else []
        mine += [(p, BLOCK_PART_ALONE) for p in block_parts(street)]
        parts_of[street] = mine
        for part, _reason in mine:
            owners.setdefault(part, []).append(street)
    alone = WholeWords(exact=owners)
    found: set[tuple[str, str]] = set()  # (part, street)
    if alone:
        for leaf in leaves:
            for start, end in alone.every_occurrence(leaf):
                part = leaf[start:end]
                for street in owners[part]:
                    if (part, street) not in found and not _inside(leaf, street, start, end):
                        found.add((part, street))
    return {s: [(p, r) for p, r in parts_of[s] if (p, s) in found] for s in streets}


def _inside(text: str, value: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` lies inside an occurrence of ``value``:
    one starting at most ``len(value)`` before it, looked for only there (a
    search to the end of a 1 MiB text per part met would read it again)."""
    return text.find(value, max(0, end - len(value)), start + len(value)) != -1
