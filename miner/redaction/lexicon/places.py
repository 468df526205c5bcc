"""A town's name in a place's slot: where the words before a name put a
place ("based in", "I am in", "your branch in", "rebooked to", "moved here
from": ``names.PLACE_BEFORE``) and the words after them are shaped as a
town's name ("Lake Elnur", "New Jane", "east didier", "Corpo Di Cava",
"Oliveira do Hospital") or are one GeoNames knows ("Quito", "Velika
Gorica").

One word after the slot is no place by the slot alone ("in Fulda" kept
persons unseen on the presidio-evaluator test split: docs/redaction.md):
it needs GeoNames. Several words need a town's first word, a small word
between them that joins a town's name, or GeoNames. The recognizers drop
a NER person right after the slot (``names.names_no_person``); this is
what a name guessed inside a longer town's name, the session's other
mentions of a person, and ``unsure``'s name lists ask, so that no word of
the town is replaced or put before the reviewer.
"""

from __future__ import annotations

import re

from miner.redaction.lexicon.names import (
    PLACE_BEFORE,
    PLACE_PREPOSITION,
    a_first_name,
    a_place_name,
    smaller_town_names,
    stop_words,
)
from miner.redaction.placeholders import PLACEHOLDER

#: Words a town's name starts with in the regions' languages, that with a
#: place's slot before them make the words after them a town's ("in New
#: Jane", "i am in east didier"; alone, "New" or "San" start persons'
#: names too: ``unsure.TOWN_START_WORDS`` holds the ones that never do).
_TOWN_FIRST_WORD = (
    r"(?i:new|north|south|east|west|lake|port|mount|fort|saint|st\.?|ste\.?|sankt|san|santa"
    r"|santo|são|sao|bad|villa|borgo|castel|castello|monte|mont|porto|puerto|ciudad|nova|novi"
    r"|novo|nowa|nowy|velika|veliki|velike|stari|stara|staré|staré|upper|lower|great|little)"
)
#: The small words inside a town's name between two of its words
#: ("Oliveira do Hospital", "Corpo Di Cava", "Pettorano Sul Gizio",
#: "Neumarkt am Wallersee", "Kámen u Pacova", "Stratford upon Avon").
_TOWN_PARTICLE = re.compile(
    r"(?i:do|da|dos|das|de|di|del|della|dei|degli|des|du|sul|sulla|sur|sous|lès|les|am|an|im"
    r"|upon|on|y|u|nad|pod|ob|bei|in)"
)
_FIRST_WORD = re.compile(rf"{_TOWN_FIRST_WORD}[ \t]+(?=[^\W\d_])")
#: A word of a town's name, and what may join the next one: blanks, a hyphen.
_WORD = re.compile(r"[^\W\d_]+(?:['’.-][^\W\d_]+)*")
#: The abbreviations of a saint's that a dot goes on ("St. Jakob").
_ABBREVIATED = frozenset(("st", "ste"))
_JOIN = re.compile(r"[ \t]+")
#: Most words a town's name runs over after its slot.
MOST_WORDS = 4


def a_town_after_a_preposition(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is a town's, a region's or a country's
    name GeoNames, ISO 3166-2 or CLDR knows (``a_place_name``,
    ``smaller_town_names``) and stands after a place's preposition
    (``PLACE_PREPOSITION``): "rebook me to Tarragona", "I live in Bergamo".
    A person named like a town stands there too ("transfer to Florence"),
    so this is no place's slot: it only keeps the value before the reviewer
    (the second model reads a town there as a name)."""
    value = text[start:end].casefold()
    return (value in smaller_town_names() or a_place_name(value)) and bool(
        PLACE_PREPOSITION.search(text, max(0, start - 8), start)
    )


#: A person's name before a comma: two capitalised words or more ("Anna
#: Keller, "), or the placeholder that replaced one ("<PERSON_1>, ").
_A_NAME_AND_COMMA = re.compile(
    r"(?:(?<![\w.])(?:[A-ZÀ-Þ][\w'’.-]*[ \t]+)+[A-ZÀ-Þ][\w'’.-]*|<PERSON_\d+>)"
    r"(?P<joint>,[ \t]*|[ \t]*\(|[ \t]+of[ \t]+)$"
)
#: What ends the place after a name: the text, line or sentence, or a
#: state's code after a comma ("Springfield, IL").
_END_OF_A_PLACE = re.compile(r"[ \t]*(?:$|\n|\\n|[.!?;:)]|,[ \t]*[A-Z]{2}\b)")


def where_after_a_name(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]``, with no first name nor title, stands
    after a person's name and a comma or a bracket, ending its clause, or
    after a name and "of": where that person is ("Anna Keller, Taimotu",
    "<PERSON_1>, Schwäbisch Gmünd", "Kevin Hart, Springfield, IL", "Adele
    Rossi (Tenna)", "Hellmuth Jähn of Seelow") or works, as often as a
    second name. Not sure of either: the reviewer's."""
    from miner.redaction.lexicon.names import A_TITLE, a_first_name

    words = text[start:end].split()
    if not words or any(a_first_name(w) or A_TITLE.fullmatch(w) for w in words):
        return False
    before = _A_NAME_AND_COMMA.search(text, max(0, start - 60), start)
    if before is None:
        return False
    # "Hellmuth Jähn of Seelow wrote": after "of", whatever follows.
    return "of" in before.group("joint") or _END_OF_A_PLACE.match(text, end) is not None


def place_around(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The span of the town's name ``text[start:end]`` is a word of, or is,
    when that name stands right after a place's slot (``PLACE_BEFORE``) and
    is written as a town's (see the module); else None."""
    slot_end = _slot_end_before(text, start)
    if slot_end is None:
        return None
    span = _town_after(
        text, slot_end, _A_TRIP.search(text, max(0, slot_end - 6), slot_end) is not None
    )
    if span is None or not (span[0] <= start and end <= span[1]):
        return None
    return span


def _slot_end_before(text: str, start: int) -> int | None:
    """Where the place's slot ends before the name that ``start`` is in:
    the slot stands at most ``MOST_WORDS`` words before ``start``."""
    at = start
    for _ in range(MOST_WORDS):
        if PLACE_BEFORE.search(text, max(0, at - 40), at):
            return at
        before = _WORD_BEFORE.search(text, max(0, at - 40), at)
        if not before:
            return None
        at = before.start()
    return None


_WORD_BEFORE = re.compile(r"[^\W\d_]+(?:['’.-][^\W\d_]+)*\.?[ \t]+\Z")


#: A slot that ends with a trip's "to" or "from" ("rebooked to", "she is
#: from"): a person does not stand there, not even one named like a town.
_A_TRIP = re.compile(r"(?i:\b(?:to|from))[ \t]+$")


def _town_after(text: str, at: int, trip: bool = False) -> tuple[int, int] | None:
    """The town's name written from ``at``: the longest run of its words
    (capitalised ones in a text with lower case; any in a line without a
    capital) that is shaped as a town's, or None."""
    words: list[tuple[int, int]] = []
    joins: list[bool] = []  # whether each word is a small word joining two
    # A placeholder's capitals are no writer's: "...one to <STREET_ADDRESS_1>?
    # i am in new jane for a business trip" is a line in lower case.
    lower = not any(c.isupper() for c in PLACEHOLDER.sub("", _line_around(text, at)))
    pos = at
    while len(words) < MOST_WORDS:
        m = _WORD.match(text, pos)
        if not m:
            break
        word = m.group(0)
        folded = word.casefold()
        dot = text.startswith(".", m.end())
        if dot and folded in _ABBREVIATED:
            gap = _JOIN.match(text, m.end() + 1)
        else:
            # A full stop ends the name: "in Quito. Jane called".
            gap = None if dot else _JOIN.match(text, m.end())
        # After a small word, the next is the name's even if it is one too
        # ("Fátima do Sul", "Bandeira do Sul"; "Sul" joins "Pettorano Sul
        # Gizio").
        if words and not joins[-1] and _TOWN_PARTICLE.fullmatch(folded):
            # A small word joins a town's name only before another word of
            # it ("Oliveira do Hospital"; not "in Lisbon do you").
            after = _WORD.match(text, gap.end()) if gap else None
            if not after or not _town_word(after.group(0), lower):
                break
            joins.append(True)
        elif _town_word(word, lower):
            joins.append(False)
        else:
            break
        words.append((m.start(), m.end() + (1 if dot and folded in _ABBREVIATED else 0)))
        if not gap:
            break
        pos = gap.end()
    if text.startswith(("'s", "’s"), words[-1][1] if words else at):
        return None  # "in Maria Ortiz's file": whose, not where
    for last in range(len(words), 0, -1):
        span = (words[0][0], words[last - 1][1])
        if joins[last - 1]:
            continue  # no town's name ends on a joining word: "Santa Rita do"
        if (
            last >= 3
            and joins[last - 2]
            and _TOWN_PARTICLE.fullmatch(text[words[last - 1][0] : words[last - 1][1]])
            and text[span[0] : span[1]].casefold() not in smaller_town_names()
            and (
                last == 3
                or not (a_place_name(text[span[0] : span[1]]) or _FIRST_WORD.match(text, span[0]))
            )
        ):
            # Words, then two small words ("Ana Da Sul", "Joana do Sul",
            # "Pedro Henrique do Sul"): a person's name unless GeoNames
            # knows the whole ("Fátima do Sul"); of more words, a region's
            # too ("Rio Grande do Sul"), or a town's first word opens them
            # ("Santa Rita do Sul", "Nova Prata do Sul").
            continue
        if _shaped_as_a_town(text, words[:last], trip):
            return span
    return None


def _town_word(word: str, lower: bool) -> bool:
    """Whether ``word`` may be a word of a town's name: capitalised, or in
    a line without a capital any word but English's function words ("i am
    in east didier for a business trip")."""
    if word[:1].isupper():
        return True
    return lower and word.casefold() not in stop_words()


def _shaped_as_a_town(text: str, words: list[tuple[int, int]], trip: bool) -> bool:
    name = text[words[0][0] : words[-1][1]]
    if len(words) < 2:
        # One word: a town GeoNames knows, no first name but after a trip's
        # "to" or "from" ("based in Ebikon", "rebooked to Amol"; not "in
        # Florence", a person's too).
        return name.casefold() in smaller_town_names() and (trip or not a_first_name(name))
    if name.casefold() in smaller_town_names():
        return True
    if _FIRST_WORD.match(name):
        return True
    return any(_TOWN_PARTICLE.fullmatch(text[s:e]) is not None for s, e in words[1:-1])


def _line_around(text: str, at: int) -> str:
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return text[start : end if end >= 0 else len(text)]
