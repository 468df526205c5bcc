"""What is left of an address around the part of it a rule found.

A street line replaced or surfaced is rarely the whole address: a unit's
abbreviation or a house number glued before it ("Bl. <STREET_ADDRESS_1>",
"1E-<STREET_ADDRESS_1>"), the last words of its line ("468 ledent" found,
"islands" left) and the parts under it (a town, a country and its postcode:
"\\n tunisia 91918", "\\n Burma (Or Myanmar) 12226") are the same address,
in whatever shape its country writes it. No rule has to know that shape:
what stands beside a found street, up to the next sentence, is surfaced
(the reviewer decides), never left silently. Fail closed, by position, not
by a list of formats: the rules before this one read shapes, this one reads
what they left.

Plain Python over the text once per found street; no word list but the stop
words and the address particles."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from miner.redaction.lexicon.addresses import (
    STREET_SUFFIX_SET,
    UNIT_AFTER_WORDS,
    street_types,
)
from miner.redaction.lexicon.letters import LETTERS
from miner.redaction.lexicon.names import stop_words
from miner.redaction.lexicon.signatures import SIGN_OFF_WORDS
from miner.redaction.placeholders import PLACEHOLDER

_STREET_PLACEHOLDER = re.compile(r"<STREET_ADDRESS_\d+>")

#: Glued before a street (no line break between): a house or unit number
#: joined by a hyphen or a slash ("1E-", "12/"), a number and a blank
#: ("66 "), or with the street's first words ("718 August "), a block's
#: letters joined by a hyphen ("N-"), a number joined
#: to others by hyphens and a blank ("N-65-54 "), or an abbreviation of up
#: to four letters with its full stop ("Bl. ", "Sc. ", "Nr. ").
_RESIDUE_BEFORE = re.compile(
    r"(?:(?<=\\[nN])|(?<![\w.\\-]))"
    # A number's mark before any of them ("No. " of "No. u-", "Nr. 84, ").
    r"(?:(?i:no|nr|n[º°])\.[ \t]*)?"
    r"(?:[^\W_]*\d[^\W_]*[-/][ \t]*|\d{1,5}[A-Za-z]?[ \t]+|[^\W\d_]{1,4}\.[ \t]*"
    # A run of up to three house's, block's or lot's numbers, an ordinal
    # among them ("1955 26th ", "93rd ", "44TH ", "B13 L71 "): each a
    # number with up to two letters before it and an ordinal's ending or a
    # letter after it (not a time's "5pm").
    r"|(?:[^\W\d_]{0,2}\d{1,5}(?i:st|nd|rd|th|[a-z])?[ \t]+){1,3}"
    # An abbreviation joined to the street's name by a hyphen ("St.-" of
    # "St.-Michael-Gasse 988").
    r"|[^\W\d_]{1,4}\.-"
    r"|[^\W\d_]+[ \t]+(?i:no|nr|n[º°])\.[ \t]*"
    r"|[^\W\d_]{1,3}-|[^\W_]+(?:-[^\W_]+)*-\d{1,5}[A-Za-z]?[ \t]+"
    # A house number and the street's first words, which its rule left
    # ("718 August <STREET_ADDRESS_1>"): capitalised, two at most.
    r"|\d{1,5}[A-Za-z]?(?:[ \t]+[A-Z][^\W\d_]*){1,2}[ \t]+"
    # A house number, marked or not, and a comma: the street's name on the
    # part after it ("294, Jalan 2o", "Holding No. 710, HakimAvenue").
    r"|(?:[^\W\d_]+[ \t]+)?(?:(?i:no|nr|n[º°])\.?[ \t]*)?\d{1,5}[A-Za-z]?"
    r"(?:[-/]\d{1,5}[A-Za-z]?)?,[ \t]*"
    # One word right before it, kept only if a particle or a capitalised
    # word English does not write (``_a_street_s_word``): what the street's
    # rule left of its name ("Du <STREET_ADDRESS_1>" of "Du Docteur M
    # Breton street").
    r"|(?P<word>[^\W\d_]+)[ \t])\Z"
)

#: A number's mark and what it marks ("No. 84,", "Nr. u-"): the address's,
#: not a sentence's "no".
_NUMBER_MARK = re.compile(r"(?i:no|nr|n[º°])\.[ \t]*[^\W_]")

#: A house number ending the line right above a street ("to 03\\n<STREET_ADDRESS_1>":
#: a format that writes the number on a line of its own, en_IN's). Not a
#: list's "1." nor part of a date, a time, an amount or a code.
_NUMBER_LINE_ABOVE = re.compile(
    r"(?:(?<=\\[nN])|(?<![\w/.,:#$€£+\\-]))\d{1,5}[a-z]?(?:/\d{1,4}[a-z]?)?"
    r"(?=[ \t]*,?[ \t]*(?:\r?\n|\\[nN])[ \t]*\Z)"
)

#: The last words of a street's line after the part found, up to its end
#: (a comma, a line break, a sentence's end or the text's): at most three.
_REST_OF_LINE = re.compile(
    r"[ \t]+((?:[^\W\d_][\w'’.-]*)(?:[ \t]+[^\W\d_][\w'’.-]*){0,2})"
    r"(?=[ \t]*(?:,|;|\r?\n|\\[nN]|[.!?](?:\s|\Z)|\Z))"
)

#: The next part of an address: after commas, semicolons and line breaks
#: (real, or written ``\n``; blank lines too: some countries' templates
#: leave one) and a line's bullet ("???", "-"), up to the next of them or
#: a sentence's end.
_NEXT_PART = re.compile(
    r"(?:[ \t]*(?:,|;|\r?\n|\\[nN]))+[ \t]*(?:[^\w\s<\\]{1,3}[ \t]+)?"
    r"((?:(?<![^\W\d_])[^\W\d_]{1,4}\.(?=[ \t]+\w)|(?!\\[nN])[^,;\n.!?]"
    r"|\.(?![ \t]|\Z|\\[nN]|\n))*)"
)

#: An address's number: a postcode, a unit's or a house's ("91918", "996",
#: "H-8326", "DK-8190", "R9S2P3", "52/30"). Not a time, an amount or a
#: percentage.
_PART_NUMBER = re.compile(
    r"(?:(?<=\\[nN])|(?<![\w$€£:/\\-]))(?:[A-Za-z]{1,3}-)?[A-Za-z]*\d[\w/-]*(?![\w%:$€£])"
)
#: A date or a number too long for an address (a phone, an id): the
#: address has ended before it.
_NOT_AN_ADDRESS_PART = re.compile(r"\d{9,}|\d{1,4}[-/.]\d{1,2}[-/.]\d{2,4}|\d{1,2}:\d{2}")
#: Words in brackets ("(Or Myanmar)"): read as one token of the part.
_BRACKETED = re.compile(r"\([^()\n]{0,40}\)")
#: A sign-off: the message goes on after the address, no town.
_SIGN_OFF = re.compile(rf"(?i:--|{SIGN_OFF_WORDS})[!.]?")
_BLANK_LINE = re.compile(r"(?:\n|\\[nN])[ \t]*(?:\n|\\[nN])")
_TOKEN = re.compile(r"[^\s,;]+")

#: The particles of a street's or a town's name, in lower case (not stop
#: words here).
ADDRESS_PARTICLES = frozenset((
    "de", "del", "della", "di", "da", "do", "dos", "das", "des", "du", "la", "le", "les", "el",
    "los", "las", "van", "von", "der", "den", "y", "e", "am", "an", "im", "sur", "sous", "en",
    "aan", "op", "bei", "u", "nad", "pod", "při",
))  # fmt: skip

#: Parts read after a street at most, and words of a part with no number.
_MOST_PARTS = 4
_MOST_WORDS = 4


def rest_of_addresses(text: str, streets: Iterable[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """(start, end) of what is left of each address beside ``streets`` (the
    spans of streets surfaced in ``text``) and beside each street
    placeholder in it: the residue glued before it, the rest of its line
    and the numbers of the parts under it."""
    streets = set(streets)
    anchors = {
        *streets,
        *(m.span() for m in _STREET_PLACEHOLDER.finditer(text)),
        *_numbered_persons(text),
    }
    blanked = PLACEHOLDER.sub(lambda m: " " * len(m.group(0)), text)
    # Another kind of value after the line's words ends no line: the words
    # are its label ("<STREET_ADDRESS_1> DOB <DATE_OF_BIRTH_1>").
    labelled = PLACEHOLDER.sub(_fill_other_values, text) if anchors else text
    for start, end in sorted(anchors):
        line_start = max(text.rfind("\n", 0, start), 0)
        before = _RESIDUE_BEFORE.search(blanked, max(line_start, start - 24), start)
        if before and before.group("word") and not _a_street_s_word(before.group("word")):
            before = None
        if before:
            residue = before.group(0).rstrip(" \t-/,")
            head = LETTERS.match(residue)
            if (
                head
                and head.group(0).casefold() in stop_words()
                and " " in residue
                and not _NUMBER_MARK.match(residue)
            ):
                # A sentence's word before the house's ("at No. 12, ..."): not the address's.
                cut = len(residue) - len(residue[head.end() :].lstrip())
                before = _RESIDUE_BEFORE.search(blanked, before.start() + cut, start) or before
                residue = before.group(0).rstrip(" \t-/,")
            numbered = before.group(0).rstrip().endswith(",") and text[start].isdigit()
            # Not a number before a street that has its own ("paid 20, 221B ...").
            if residue and residue.casefold().rstrip(".") not in stop_words() and not numbered:
                run = _address_run_before(blanked, line_start, start)
                if run and run[0] < before.start():
                    yield run
                else:
                    yield before.start(), before.start() + len(residue)
        elif run := _address_run_before(blanked, line_start, start):
            yield run
        elif above := _NUMBER_LINE_ABOVE.search(blanked, max(0, start - 16), start):
            yield above.span()
        rest = _REST_OF_LINE.match(labelled, end)
        if (
            rest
            and _plain_words(rest.group(1))
            # After a street replaced, its rules judged where it ends: only a
            # word English seldom writes is its line's rest ("<STREET_ADDRESS_1>
            # passport number" is not).
            and (
                (start, end) in streets
                or not all(map(_english, rest.group(1).split()))
                or _a_line_s_last_word(text, start, rest)
                or _a_unit_s_word(rest.group(1).split()[0])
            )
        ):
            yield rest.start(1), rest.end(1)
            end = rest.end(1)
        elif (after := _WORD_AFTER.match(labelled, end)) and _a_unit_s_word(after.group(1)):
            # A street's type or a unit's word its rule left after it, the
            # line going on ("<STREET_ADDRESS_1> park for this card").
            yield after.span(1)
            end = after.end(1)
        elif glued := _GLUED_AFTER.match(labelled, end):
            # A number glued to it by a hyphen ("<STREET_ADDRESS_1>-3159" of
            # "DK-3159"): a postcode's or a house's.
            yield glued.span(1)
            end = glued.end(1)
        yield from _parts_under(blanked, text, end)


#: A person replaced right after a house number, the part ending after it
#: ("47 <PERSON_2>, Colbún", "7, <PERSON_1>, PJU74d"): a street a name's
#: rule took, its number left.
_NUMBERED_PERSON = re.compile(
    r"(?<![\w.,:/$€£#+-])\d{1,5}[A-Za-z]?,?[ \t]+(<PERSON_\d+>)(?=[ \t]*(?:,|\r?\n|\\[nN]|\Z))"
)
#: What stands before such a number when it starts an address: a line's or
#: the text's start, a colon, a bracket, a comma, or "at", "to", "is".
_BEFORE_A_HOUSE_NUMBER = re.compile(r"(?:\A|\n|\\[nN]|[:(,]|\b(?i:at|to|is))[ \t]*\Z")


def _numbered_persons(text: str) -> Iterator[tuple[int, int]]:
    """Spans of the persons replaced after a house number that starts an
    address (``_NUMBERED_PERSON``): read as streets replaced."""
    for m in _NUMBERED_PERSON.finditer(text):
        if _BEFORE_A_HOUSE_NUMBER.search(text, max(0, m.start() - 8), m.start()):
            yield m.span(1)


#: The word right after a street (blanks between).
_WORD_AFTER = re.compile(r"[ \t]+([^\W\d_]+)(?![\w'’-])")
#: A number glued after a street by a hyphen or a slash.
_GLUED_AFTER = re.compile(r"[-/]([^\W_]*\d[^\W_]*)(?![\w-])")


#: A token of an address's line before its street: a word (an
#: abbreviation's full stop, an apostrophe or a hyphen in it) or a code
#: holding a number.
_LINE_TOKEN = re.compile(r"[^\W_][\w'’.-]*")
#: A house's, a block's, a lot's or a floor's number: up to two letters
#: before it and an ordinal's ending or one letter after it ("B25", "L98",
#: "9th", "44TH", "3F", "1955"); not a time's "5pm" nor a code's long run.
_LINE_CODE = re.compile(r"[^\W\d_]{0,2}\d{1,5}(?:(?i:st|nd|rd|th)|[^\W\d_])?")
#: Where an address's line before its street ends (a sentence's or a
#: clause's mark, a break), and the comma a line's parts are joined by.
_LINE_STOP = re.compile(r"[:;!?()\"\[\]]|\.(?=\s)|\n|\\[nN]")
#: Tokens read before a street, at most.
_MOST_LINE_TOKENS = 6

#: Words that name a unit, a floor, a block or a lot of an address, of
#: the shapes the lexicon reads (``UNIT_AFTER_WORDS``) and the words
#: Faker's address templates write beside a number ("Block {{}} Lot {{}}",
#: "{{}} Floor", "Etapa"); case-folded.
_UNIT_WORDS = frozenset(
    w.casefold() for w in (*UNIT_AFTER_WORDS, "Block", "Lot", "Etapa", "Phase") if len(w) > 1
)


def _a_unit_s_word(word: str) -> bool:
    """Whether ``word`` names a unit, a floor, a block or a lot ("Unit",
    "Floor", "Block", "Lot", "Torre"), or is a street's type, of any
    language (``STREET_SUFFIX_SET``, pyap's, and ``street_types``,
    Faker's); of three letters or more, no stop word."""
    folded = word.casefold().rstrip(".")
    if len(folded) < 3 or folded in stop_words():
        return False  # "Is" of the suffixes' "Is" (islands), "St", "Dr"
    return (
        folded in _UNIT_WORDS
        or folded.title() in STREET_SUFFIX_SET
        or folded in street_types()
        or f"{folded}." in street_types()
    )


def _address_run_before(text: str, line_start: int, start: int) -> tuple[int, int] | None:
    """(start, end) of the words an address's line holds right before a
    street replaced at ``start`` (``text`` with placeholders blanked), when
    they are an address's and not a sentence's: up to six tokens back to the
    line's start, a sentence's or a clause's mark, each capitalised or in
    capitals (no stop word), a particle, or a code holding a number; kept
    when one of them is a code or names a unit or a street's type ("B25 L98
    <STREET_ADDRESS_1>", "9th <STREET_ADDRESS_1>", "Block <STREET_ADDRESS_1>",
    "B18 L99 Cruz Estates Phase <STREET_ADDRESS_1>"). One comma may stand
    between when the words before it are such a part on their own ("33rd
    Floor Neptune Apartments, <STREET_ADDRESS_1>"). Fail closed by
    position: the street's rule took the rest of the line."""
    floor = max(line_start, start - 80)
    floor = max((m.end() for m in _LINE_STOP.finditer(text, floor, start)), default=floor)
    first = _line_run(text, floor, start)
    if first is None and text[floor:start].rstrip(" \t").endswith(","):
        first = start, False  # the street starts its part: the part before it is read
    if first is None:
        return None
    run_start, marked = first
    comma = text.rfind(",", floor, run_start)
    if comma >= 0 and not text[comma + 1 : run_start].strip() and not first[1]:
        earlier = _line_run(text, floor, comma)
        if earlier and earlier[1] and earlier[0] < comma:
            run_start = earlier[0]
            marked = True
    if not marked or run_start >= start:
        return None
    end = len(text[:start].rstrip(" \t,-/"))
    return (run_start, end) if end > run_start else None


def _line_run(text: str, floor: int, end: int) -> tuple[int, bool] | None:
    """(where it starts, whether a code or a unit's word is in it) of the
    address's tokens ending at ``end`` (blanks and a hyphen or a slash before
    it), back to ``floor``; None when a token of another kind stands right
    before ``end``."""
    tokens = list(_LINE_TOKEN.finditer(text, floor, end))
    if not tokens or text[tokens[-1].end() : end].strip(" \t-/"):
        return None
    at, marked, taken = end, False, 0
    for token in reversed(tokens):
        if text[token.end() : at].strip(" \t") or taken == _MOST_LINE_TOKENS:
            break
        word = token.group(0).rstrip(".-")
        folded = word.casefold()
        if _LINE_CODE.fullmatch(word):
            marked = True
        elif folded in stop_words() and folded not in ADDRESS_PARTICLES:
            break
        elif word[:1].isupper() and not any(c.isdigit() for c in word):
            marked = marked or _a_unit_s_word(word)
        elif folded not in ADDRESS_PARTICLES:
            break
        at, taken = token.start(), taken + 1
    if at == end:
        return None
    # A sentence's word does not start an address's line, nor a particle:
    # "Open" of "Open Mon 9 <STREET_ADDRESS_1>", "Visit", "Hotel".
    while (head := _LINE_TOKEN.match(text, at)) and head.end() < end:
        word = head.group(0).rstrip(".-")
        if _LINE_CODE.fullmatch(word) or _a_unit_s_word(word):
            break
        if word.casefold() not in ADDRESS_PARTICLES and not _english(word):
            break
        at = head.end() + len(text[head.end() : end]) - len(text[head.end() : end].lstrip())
    return at, marked


#: A line's start (a real break, one written ``\\n``, or the text's) and blanks.
_LINE_START_BEFORE = re.compile(r"(?:\n|\\[nN]|\A)[ \t]*\Z")
#: A line break right after a word (real, or written ``\\n``).
_LINE_BREAK_AFTER = re.compile(r"[ \t]*(?:\r?\n|\\[nN])")


def _a_line_s_last_word(text: str, start: int, rest: re.Match[str]) -> bool:
    """Whether ``rest`` is one word in lower case, no stop word, that ends a
    line a street replaced starts ("<STREET_ADDRESS_1> park\\n", of "1297
    Parda park": a street's type its rule left, English writes it or not).
    A line of an address block: the line breaks on both sides."""
    word = rest.group(1)
    return (
        word.islower()
        and " " not in word
        and word.casefold() not in stop_words()
        and _LINE_BREAK_AFTER.match(text, rest.end(1)) is not None
        and _LINE_START_BEFORE.search(text, max(0, start - 8), start) is not None
    )


def _a_street_s_word(word: str) -> bool:
    """Whether a word right before a street replaced is the street's: a
    particle ("Du", "de"), or capitalised and a word English does not write
    (wordfreq Zipf under 3) nor a stop word; not "at", "Deliver", "Hotel"."""
    from miner.redaction.lexicon.names import an_english_word

    folded = word.casefold()
    if folded in ADDRESS_PARTICLES:
        return folded not in stop_words()
    return word[:1].isupper() and folded not in stop_words() and not an_english_word(folded, 3.0)


def _fill_other_values(m: re.Match[str]) -> str:
    """A placeholder blanked if a street's or a person's (a word of the
    address), else as signs no address's words are made of."""
    if m.group(0).startswith(("<STREET_ADDRESS", "<PERSON")):
        return " " * len(m.group(0))
    return "¤" * len(m.group(0))


def _sentence_after_number(part: str) -> int:
    """Where a sentence starts in ``part`` after an address's number in it
    (its first stop word but a particle: "Ghana 04804 my birthday is"), or 0."""
    number = _PART_NUMBER.search(part)
    if not number:
        return 0
    for word in LETTERS.finditer(part, number.end()):
        folded = word.group(0).casefold()
        if folded in stop_words() and folded not in ADDRESS_PARTICLES:
            return word.start()
    return 0


def _plain_words(words: str) -> bool:
    """Whether ``words`` may be an address's: no stop word but particles."""
    return all(
        w.casefold() in ADDRESS_PARTICLES or w.casefold() not in stop_words()
        for w in LETTERS.findall(words)
    )


def _english(word: str) -> bool:
    """A word English writes often (wordfreq Zipf 3.5: "regards", "number"):
    no town's alone."""
    from miner.redaction.lexicon.names import an_english_word

    return word.casefold() in ADDRESS_PARTICLES or an_english_word(word.casefold(), 3.5)


def _parts_under(text: str, written: str, end: int) -> Iterator[tuple[int, int]]:
    """The address parts after ``end`` (placeholders blanked in ``text``,
    ``written`` as it stands),
    as one span: each part up to the next comma or line break, of at most
    six tokens and no stop word but particles (a sentence ends the address),
    a part with no number (a town, a region) of at most four words, one of
    them a word English seldom writes; up to the last number, or a part
    that follows one or a value replaced ("torre
    8 apartamento 80\\n<PHONE_NUMBER_1>\\nla victoria, amazonas"). None
    when no part holds a number: a town after a street ("12 Baker Street,
    London") is no one's."""
    at = end
    first = last = -1
    numbered = False
    for _ in range(_MOST_PARTS):
        m = _NEXT_PART.match(text, at)
        if not m or m.end() == at:
            break
        part, part_end = m.group(1), m.end(1)
        runs_on = _sentence_after_number(part)
        if runs_on:
            # A postcode's part a sentence runs on from, with no full stop
            # between ("Ghana 04804 my birthday is ..."): the part up to the
            # sentence, the last one.
            part, part_end = part[:runs_on].rstrip(), m.start(1) + len(part[:runs_on].rstrip())
        if _NOT_AN_ADDRESS_PART.search(part):
            break
        bare = _BRACKETED.sub(" ", part)
        words = LETTERS.findall(_PART_NUMBER.sub(" ", bare))
        if len(bare.split()) > 6 or not _plain_words(" ".join(words)):
            break
        numbers = list(_PART_NUMBER.finditer(text, m.start(1), part_end))
        if (
            not numbers
            and part.strip()
            and (
                len(words) > _MOST_WORDS
                or _SIGN_OFF.fullmatch(part.strip()) is not None
                or _BLANK_LINE.search(written, at, m.start(1)) is not None
            )
        ):
            # A sentence, a sign-off ("Kind regards"), or words after a blank
            # line (a postscript): no town. A postcode's part goes on over one.
            break
        first = m.start(1) if first < 0 else first
        numbered = numbered or bool(numbers) or not part.strip()
        if numbers:
            # Up to its last number, and the words after it English seldom
            # writes ("12226 Burma": a town; not "135189 passport number").
            last = numbers[-1].end()
            for word in _TOKEN.finditer(text, last, part_end):
                if _english(word.group(0).strip("()")):
                    break
                last = word.end()
        elif numbered and part.strip():
            last = m.start(1) + len(part.rstrip())
        if runs_on:
            break
        at = m.end()
    if numbered and last > first:
        yield first, last
