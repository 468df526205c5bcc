"""The second model's sweep: what the policy finished with, read whole once
more, so that no personal value is left silent.

The first pass (Presidio, spaCy's small NER, miner's recognizers and
``unsure``) replaces what it is sure of and surfaces the rest, and the
second model (``second.py``) decides some of what it surfaced, reading only
windows around it. A value no rule took and no rule surfaced stays as
written, and nothing tells the reviewer: a *silent leak*. Rule rounds no
longer find them (each miss left on the report splits is in a shape no tune
sweep showed), but the second model generalises where rules don't.

So after those, the same model (Rampart: the one ``decide`` loaded, or
loaded now if ``decide`` read nothing; ``second.SecondModel``) reads every
text of each session the policy finished with, and every span it labels
personal (``PERSONAL_LABELS``: a given name, a surname, a street's name, an
e-mail, a phone; a street's house number and unit beside a street's name
join it) with a probability of at least ``Sweep.bar`` on each of its tokens
is **surfaced**, with the reason ``SWEPT`` and the entity of its labels,
unless it is

- part of a placeholder (placeholders are never part of a swept value: the
  span is cut at them, and what stands beside one is swept alone),
- covered by an occurrence of a value already surfaced,
- a value miner writes itself (a fixture value, the eval user) or inside a
  phrase of the allow list (carriers, payment services), or
- inside a phrase the first pass kept as a thing or a town
  (``Redacted.not_personal``, ``Redacted.towns``),
- a name the firm's own words around it make a firm's, as the first pass
  keeps it whole (``a_firm_s``: "Okonkwo and Sons", "Okabe Transport"), or
- a value that names nothing personal by itself, wherever it stands
  (``names_nothing``): words English writes often that no name list knows
  ("at", "noted", "bridge", "songwriter": the model labels the words
  beside a placeholder and a place's common noun as the name's), a country
  or a region, a month or a weekday ("Samstag", "venerdì"), a number
  shaped as a date or a time of day ("04.07.2026"), or a number's piece
  inside one (``in_a_date_or_time``: "05" of "05.05.2025", "293746" of
  "16:06:46.293746").

A span that a surfaced value's occurrence cuts, and whose pieces beside it
one of these drops or that hold a letter or digit too few to be swept
alone ("Jabłoniowa" surfaced alone in "14 Jabłoniowa Street": neither "14"
nor "Street" names anything by itself; "5" of "Jabłoniowa 5"), is surfaced
whole, as written, fail closed: those pieces were the value's, and nothing
else told the reviewer of them. Not for a function word the model reads at
the span's edge ("to" of "to Anna Kowalska"): no part of the value.

The first pass's rules of position (a name before "bridge", after "in",
in a firm's slot) are not applied: the silent leaks left are the values
those rules kept, and a swept look-alike costs a decision, not a leak.

The sweep never replaces and never keeps: the reviewer decides what it
surfaced, as any surfaced value. A swept name that is a word of a person
the session replaced is then that person's (``with_people_decided``).

**Its bar** (``Sweep.bar``, 0.6): the highest that surfaced a silent leak
a bar of 0.9 left on a tune split (0.7 surfaced none); 0.5 surfaced no
more, for more decisions. Under 0.9 the model reads a verb English writes often as a
first name ("tell butler the refund went through"), so ``names_nothing``
takes no such lower-case verb (``VERB_NAMES_NO_ONE_ZIPF``) for a name.

**Its bound.** A text longer than ``[redaction.unsure] sweep_chars``
characters is not swept (nor is any text when it is 0): the model costs 3-6
times spaCy's CPU per character, and a pasted document or a 1 MiB message
would spend most of a run on it. Such a text keeps only the first pass's and
the second model's verdicts; its silent leaks are the first pass's. A text
within the bound is read in windows of ``WINDOW`` characters with
``CONTEXT`` either side, in the batches of the second model's runner
(``_Rampart.label_all``: one definition of how the model is read), once per
redaction however many sessions hold it, and not at all with fewer than two
letters or digits outside its placeholders (``Sweep._texts``): the model's
reading is most of the sweep's cost.

The model reads a text with its escaped line breaks as real ones
(``breaks_unescaped``: "\\n" as a tool's JSON in a string writes them; of
the same length, so its spans index the text as written): it read
"\\nAlzacka" as the one word "nAlzacka", and the street alone on its line
after it as no one's (0.00; 1.00 after a real break).

Its figures: ``python -m tools.redaction_report figures`` (docs/redaction.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import islice
from typing import Any

from miner.redaction.lexicon.formats import names_a_person_s_id
from miner.redaction.lexicon.letters import LETTERS
from miner.redaction.lexicon.wordmatch import WORD_CHARACTER
from miner.redaction.placeholders import PLACEHOLDER
from miner.redaction.redacted import Redacted
from miner.redaction.second import PERSONAL_LABELS, SecondModel
from miner.redaction.surfaced import Surfaced
from miner.redaction.unsure.text import ALPHANUMERIC, breaks_unescaped
from miner.redaction.walk import session_texts

#: Why the sweep surfaced a value (``Surfaced.reason``).
SWEPT = "the second model's sweep"

#: The model's labels (without B-/I-) of the rest of an address, which join
#: a street's name they stand beside (a house number alone is no one's).
ADDRESS_REST_LABELS = ("BUILDING_NUMBER", "SECONDARY_ADDRESS")

#: Characters of a text the model labels at once (its core), and read on
#: each side of it so that a span cut by the core's edge is read whole.
WINDOW = 1000
CONTEXT = 100

#: What may stand between two tokens of one swept span: spaces; between a
#: street's name and its house number, a comma too ("Rua Augusta, 21").
_NAME_GAP = re.compile(r"[ \t]*")
_ADDRESS_GAP = re.compile(r"[ \t]*,?[ \t]*")
#: A house number or an ordinal right before a swept street's name ("41st
#: Road Extension", "12 Shari Reyes"), a word of its own.
_NUMBER_BEFORE = re.compile(r"(?<![\w.,/'’-])\d{1,5}(?:st|nd|rd|th|[A-Za-z])?[ \t]+\Z")
#: A house number right after a swept street's name, a comma before it or
#: none ("Lewis-ro 5", "Kucheh Browning, 13"), where its clause ends: no
#: word in lower case after it but a stop word ("... 5 since March"; not
#: "Main Street 2 days ago").
_NUMBER_AFTER = re.compile(r",?[ \t]+\d{1,5}[A-Za-z]?(?![\w/:%°+'’-]|[.,]\d)(?![ \t]+[^\W\d_A-Z])")
#: What a swept value does not start or end with.
_EDGE = " \t\r\n.,;:!?\"'`()[]{}<>/\\|*-_"


@dataclass(frozen=True)
class _Token:
    start: int
    end: int
    personal: float
    """Probability the token is personal (a ``PERSONAL_LABELS`` label)."""
    address_rest: float
    """Probability it is a house number or a unit (``ADDRESS_REST_LABELS``)."""
    entities: dict[str, float]
    """Entity type -> the probability its labels add up to on the token."""


@dataclass(frozen=True)
class Sweep:
    """How the sweep reads a session (see the module's docstring)."""

    text_chars: int
    """Longest text swept, in characters (``[redaction.unsure] sweep_chars``)."""
    bar: float = 0.6
    """Least probability, on each token, of a personal label for the span
    to be surfaced."""

    def surfaced(
        self,
        redacted: Sequence[Redacted],
        allowed: Callable[[str], bool],
        allowed_spans: Callable[[str], list[tuple[int, int]]],
        second_model: SecondModel,
    ) -> list[Redacted]:
        """Each of ``redacted`` with what the model (``second_model``'s) finds
        personal in its texts and nothing replaced, surfaced or kept
        surfaced too. ``allowed``: a value miner writes itself;
        ``allowed_spans``: the allow list's phrases in a text."""
        texts = [self._texts(r) for r in redacted]
        # A text is read once per redaction, however many sessions hold it
        # (a status, a greeting, a tool's answer): its spans depend on the
        # text alone. Read with each group of sessions that held it, the
        # bench's 100 sessions had the model label 465 windows where 332
        # were distinct.
        distinct = list(dict.fromkeys(text for found in texts for text in found))
        if not distinct:
            return list(redacted)
        model = second_model()
        labels = model.labels
        spans: dict[str, list[tuple[int, int, str]]] = {}  # only texts with a span
        for group in _groups(distinct):
            # The model reads each text with its escaped line breaks as real
            # ones (``breaks_unescaped``, of the same length: its spans index
            # the text as written): "\\nAlzacka" was one word "nAlzacka" to
            # it, and the street after the break personal at 0.00, not 1.00.
            read = {text: breaks_unescaped(text) for text in group}
            model.label_all(w for text in group for w in _windows(read[text]))
            for text in group:
                if found := list(self._spans(model, labels, read[text])):
                    spans[text] = found
            # The windows read are not kept past their group: a corpus of
            # thousands of sessions would hold every window's labelling.
            model.forget()
        return [
            self._swept(result, found, spans, allowed, allowed_spans)
            for result, found in zip(redacted, texts, strict=True)
        ]

    def _swept(
        self,
        result: Redacted,
        texts: list[str],
        spans: dict[str, list[tuple[int, int, str]]],
        allowed: Callable[[str], bool],
        allowed_spans: Callable[[str], list[tuple[int, int]]],
    ) -> Redacted:
        """``result`` with what the sweep surfaces in ``texts``, its texts
        (``spans``: the spans the model labels personal, of each text that has one)."""
        surfacing: dict[str, str] = {}

        def surfaces(text: str, at: int, value: str, entity: str) -> bool:
            return (
                not allowed(value)
                and not names_nothing(value, entity)
                and not (entity == "PHONE_NUMBER" and in_a_date_or_time(text, at, at + len(value)))
                and not (entity == "PERSON" and a_firm_s(text, at, at + len(value)))
                # "NIE" of "NIE <NATIONAL_ID_1>": an id's name before its value, no
                # one's; before a phone, a name ("NIK <PHONE_NUMBER_1>": Nik's).
                and not (
                    entity == "PERSON"
                    and names_a_person_s_id(text, at, at + len(value), phones=False)
                )
            )

        for text in texts:
            if text not in spans:
                continue
            kept = _kept_spans(text, result, allowed_spans)
            covered = _covered(len(text), kept + _surfaced_spans(text, result))
            bare: list[bool] | None = None  # covered but by the surfaced values
            for start, end, entity in spans[text]:
                taken = list(covered[start:end])
                for at, value in _uncovered(text, start, end, covered):
                    if surfaces(text, at, value, entity):
                        surfacing.setdefault(value, entity)
                        taken[at - start : at - start + len(value)] = [True] * len(value)
                left = {i for i in range(start, end) if text[i].isalnum() and not taken[i - start]}
                if not left:
                    continue
                # A piece left beside a surfaced value's occurrence that cut
                # the span ("Augusta" surfaced alone, "Street 5" naming
                # nothing by itself): the span whole as written, fail closed.
                if bare is None:
                    bare = _covered(len(text), kept)
                for at, value in _uncovered(text, start, end, bare):
                    stop = at + len(value)
                    if (
                        any(covered[at:stop])
                        and any(at <= i < stop for i in left)
                        and surfaces(text, at, value, entity)
                    ):
                        surfacing.setdefault(value, entity)
        already = {s.value for s in result.surfaced}
        new = tuple(Surfaced(e, v, SWEPT) for v, e in surfacing.items() if v not in already)
        return replace(result, surfaced=result.surfaced + new) if new else result

    def _texts(self, redacted: Redacted) -> list[str]:
        """The distinct texts of a session the sweep reads: not one with
        fewer than two letters or digits outside its placeholders
        ("<PERSON_1>", a whole id or e-mail replaced), where ``_uncovered``
        finds no value to surface whatever the model reads."""
        return list(
            dict.fromkeys(
                leaf
                for _key, leaf in session_texts(redacted.session)
                if isinstance(leaf, str)
                and 0 < len(leaf) <= self.text_chars
                and _two_letters_or_digits(PLACEHOLDER.sub("", leaf))
            )
        )

    def _spans(self, model: Any, labels: list[str], text: str) -> Iterator[tuple[int, int, str]]:
        """(start, end, entity) of each span of ``text`` the model labels
        personal, on word boundaries."""
        tokens = list(_tokens(model, labels, text))
        at = 0
        while at < len(tokens):
            if tokens[at].personal < self.bar:
                at += 1
                continue
            first = last = at
            while last + 1 < len(tokens) and (
                tokens[last + 1].personal >= self.bar
                and _NAME_GAP.fullmatch(text, tokens[last].end, tokens[last + 1].start)
            ):
                last += 1
            entities: dict[str, float] = {}
            for token in tokens[first : last + 1]:
                for entity, p in token.entities.items():
                    entities[entity] = entities.get(entity, 0.0) + p
            entity = max(entities, key=entities.__getitem__)
            at = last + 1
            if entity == "STREET_ADDRESS":
                while first > 0 and self._joins(text, tokens[first - 1], tokens[first]):
                    first -= 1
                while last + 1 < len(tokens) and self._joins(text, tokens[last], tokens[last + 1]):
                    last += 1
                at = last + 1
            start, end = tokens[first].start, tokens[last].end
            while start > 0 and WORD_CHARACTER.match(text, start - 1):
                start -= 1
            while end < len(text) and WORD_CHARACTER.match(text, end):
                end += 1
            if entity == "STREET_ADDRESS" and (number := _NUMBER_BEFORE.search(text, 0, start)):
                # "41st Road Extension": the model reads the street's name and
                # leaves its ordinal or number under the bar; the number
                # names the street with it, and alone nothing.
                start = number.start()
            if entity == "STREET_ADDRESS" and (after := _number_after(text, end)):
                # "Lewis-ro 5": the model reads the street's name and leaves
                # its house number under the bar.
                end = after
            yield start, end, entity

    def _joins(self, text: str, before: _Token, after: _Token) -> bool:
        """Whether two tokens of an address stand together, one of them a
        house number or a unit."""
        rest = max(before.address_rest, after.address_rest)
        return rest >= self.bar and bool(_ADDRESS_GAP.fullmatch(text, before.end, after.start))


def _two_letters_or_digits(text: str) -> bool:
    """Whether ``text`` holds two letters or digits: the least a swept
    value holds (``_uncovered``), and so the least a text the sweep reads
    holds outside its placeholders (``Sweep._texts``). One definition for
    both: skipping a text loses nothing only while the two agree."""
    return next(islice(ALPHANUMERIC.finditer(text), 1, None), None) is not None


#: Windows labelled at once, over as many texts as it takes: the runner
#: batches windows of similar length, and a session alone has few.
GROUP_WINDOWS = 256


def _groups(texts: list[str]) -> Iterator[list[str]]:
    """The texts whose windows are labelled together."""
    group: list[str] = []
    windows = 0
    for text in texts:
        group.append(text)
        windows += len(_cut(text))
        if windows >= GROUP_WINDOWS:
            yield group
            group, windows = [], 0
    if group:
        yield group


#: A date: "05.05.2025", "2025-05-05", "5/5/25".
_DATE = r"\d{1,4}([./-])\d{1,2}\1\d{1,4}"
#: A number the model reads as a phone that is written as a date or a time.
_DATE_OR_TIME = re.compile(rf"{_DATE}|\d*[:.]\d+(?:[:.]\d+)*")


def in_a_date_or_time(text: str, start: int, end: int) -> bool:
    """Whether [start, end) lies inside a word of ``text`` shaped as a date
    or a time of day: the model labels a date's or a timestamp's digits
    as a phone's, and the piece it leaves uncovered ("05" of "05.05.2025",
    "293746" of "16:06:46.293746") was a decision naming no one."""
    before = _TOKEN_BEFORE.search(text, 0, start)
    after = _TOKEN_AFTER.match(text, end)
    token = text[before.start() if before else start : after.end() if after else end]
    return bool(_DATE_OR_TIME_WORD.fullmatch(token.rstrip(".,;:!?)")))


#: A date, or a time of day with its seconds' fraction: stricter than
#: ``_DATE_OR_TIME`` (which reads a value alone), so that no phone written
#: with dots ("06.12.34.56.78") is taken for one around its piece.
_DATE_OR_TIME_WORD = re.compile(rf"{_DATE}|\d{{1,2}}:\d{{2}}(?::\d{{2}})?(?:\.\d{{1,9}})?")
_TOKEN_BEFORE = re.compile(r"[\d.:/-]{1,32}\Z")
_TOKEN_AFTER = re.compile(r"[\d.:/-]{1,32}")


def names_nothing(value: str, entity: str) -> bool:
    """Whether a swept ``value`` names nothing personal by itself (see the
    module's docstring)."""
    from miner.redaction.lexicon.names import (
        a_first_name,
        a_surname_no_lexicon_files,
        an_english_word,
        country_names,
        region_names,
        stop_words,
    )
    from miner.redaction.second import _a_calendar_word

    if entity == "PHONE_NUMBER":
        return bool(_DATE_OR_TIME.fullmatch(value))
    folded = value.casefold()
    if folded in country_names() or folded in region_names() or _a_calendar_word(value):
        return True
    words = LETTERS.findall(value)
    if entity == "STREET_ADDRESS" and len(words) > 1:
        # A street's name is English words often ("Oak Avenue").
        return all(w.casefold() in stop_words() for w in words)
    # "Islands", "bridge", "songwriter" (Zipf 3.0 to 4.6): the model's
    # common nouns ("Bridge" and "Wood" are surnames too: a first pass
    # rule reads those). A first name is a name here ("Walker", "Hope"),
    # unless it is a verb English writes very often, in lower case; so is a
    # surname no lexicon files ("Li", "wu": ``a_surname_no_lexicon_files``).
    return all(
        w.casefold() in stop_words()
        or (
            an_english_word(w.casefold(), 3.0)
            and not a_first_name(w)
            and not a_surname_no_lexicon_files(w)
        )
        or _a_lower_case_verb(w)
        for w in words
    )


#: How often English writes a lower-case verb's form for it to name no one
#: though a first-name list knows it: "tell" 5.5, "come" 5.8, "said" 6.0,
#: "won" 5.2 go; "peter" 4.9, "harry" 4.7, "drew" 4.5 stay names. The bar a
#: listed first name that is an English word passes elsewhere
#: (``unsure.names``: a word addressed first, a lower-case first name).
VERB_NAMES_NO_ONE_ZIPF = 5.0


def _a_lower_case_verb(word: str) -> bool:
    """Whether ``word`` is in lower case and a verb's form English writes
    very often (``VERB_NAMES_NO_ONE_ZIPF``): "tell butler the refund went
    through", read by the model under the bar as a first name and a surname.
    Only a verb: a noun is a first name in lower case as often ("hope",
    "mark")."""
    from miner.redaction.lexicon.names import an_english_word
    from miner.redaction.unsure.names import a_verb_s_form

    return word.islower() and an_english_word(word, VERB_NAMES_NO_ONE_ZIPF) and a_verb_s_form(word)


def _windows(text: str) -> list[str]:
    """The windows the model reads ``text`` in: the whole of it when short,
    else cores of ``WINDOW`` characters with ``CONTEXT`` either side."""
    return [text[begin:stop] for begin, stop, _core in _cut(text)]


def _cut(text: str) -> list[tuple[int, int, tuple[int, int]]]:
    """(begin, end, (core start, core end)) of each window of ``text``."""
    if len(text) <= WINDOW + 2 * CONTEXT:
        return [(0, len(text), (0, len(text)))]
    cut = []
    for core in range(0, len(text), WINDOW):
        core_end = min(len(text), core + WINDOW)
        begin, stop = max(0, core - CONTEXT), min(len(text), core_end + CONTEXT)
        cut.append((begin, stop, (core, core_end)))
    return cut


def _tokens(model: Any, labels: list[str], text: str) -> Iterator[_Token]:
    """The model's tokens of ``text`` with their probabilities, each read in
    the window whose core holds its start."""
    personal = [i for i, label in enumerate(labels) if label[2:] in PERSONAL_LABELS]
    rest = [i for i, label in enumerate(labels) if label[2:] in ADDRESS_REST_LABELS]
    last_end = 0
    for begin, stop, (core, core_end) in _cut(text):
        labelled = model.labelling(text[begin:stop])
        if labelled is None:  # more tokens than the model reads: not swept
            continue
        offsets, probs = labelled
        for (s, e), p in zip(offsets, probs, strict=True):
            if e <= s or not core <= begin + s < core_end or begin + s < last_end:
                continue
            entities: dict[str, float] = {}
            for i in personal:
                entity = PERSONAL_LABELS[labels[i][2:]]
                entities[entity] = entities.get(entity, 0.0) + float(p[i])
            yield _Token(
                begin + s,
                begin + e,
                sum(entities.values()),
                float(sum(p[i] for i in rest)),
                entities,
            )
            last_end = begin + e


def _kept_spans(
    text: str, redacted: Redacted, allowed_spans: Callable[[str], list[tuple[int, int]]]
) -> list[tuple[int, int]]:
    """The spans of ``text`` that a placeholder, an allowed phrase or a
    phrase kept as a thing or a town covers (what the sweep does not
    surface, nor count as a surfaced value's piece)."""
    spans = [m.span() for m in PLACEHOLDER.finditer(text)]
    spans += allowed_spans(text)
    folded = text.casefold()
    kept = [*redacted.not_personal, *(t.casefold() for t in redacted.towns)]
    if len(folded) == len(text):  # a casefold that changed lengths ("ß") is not aligned
        for phrase in kept:
            if phrase and phrase in folded:
                spans += [(m.start(), m.end()) for m in re.finditer(re.escape(phrase), folded)]
    return spans


def _surfaced_spans(text: str, redacted: Redacted) -> list[tuple[int, int]]:
    """The spans of ``text`` that an occurrence of a value ``redacted``
    surfaced covers (``surfaced.occurrences``)."""
    from miner.redaction.surfaced import occurrences

    return [
        span for s in redacted.surfaced if s.value in text for span in occurrences(text, s.value)
    ]


def _covered(length: int, spans: list[tuple[int, int]]) -> list[bool]:
    """Per character of a text of ``length``: whether one of ``spans`` covers it."""
    covered = [False] * length
    for start, end in spans:
        covered[start:end] = [True] * (end - start)
    return covered


def a_firm_s(text: str, start: int, end: int) -> bool:
    """Whether the firm's own words around a swept name make it a firm's, as
    the first pass keeps it whole ("Okonkwo and Sons", "Okabe Transport",
    "Hering is a design agency"): a sure keep rule, so the firm is not put
    before anyone. Not a firm's slot ("ordered it from Eddie Bauer"): a
    person stands there too, and the first pass surfaces it."""
    from miner.redaction.lexicon.names import a_firm_by_its_words, a_firm_s_words_after

    # (said to be one: ``a_firm_by_its_words`` reads ``firm_said.said_to_be_a_firm``)
    return a_firm_s_words_after(text, end) or a_firm_by_its_words(text, start, end)


def _uncovered(text: str, start: int, end: int, covered: list[bool]) -> Iterator[tuple[int, str]]:
    """(start, piece) of each piece of ``text[start:end]`` nothing covers,
    trimmed of punctuation, that holds a letter or a digit."""
    at = start
    while at < end:
        if covered[at]:
            at += 1
            continue
        piece_end = at
        while piece_end < end and not covered[piece_end]:
            piece_end += 1
        piece = _without_edge_words(text[at:piece_end].strip(_EDGE))
        if _two_letters_or_digits(piece):
            yield text.index(piece, at), piece
        at = piece_end


def _without_edge_words(piece: str) -> str:
    """``piece`` without the function words at its ends ("to 14 Jabłoniowa
    Street", "at Ashgrove Rise": the model labels the word before an
    address or a placeholder as part of it)."""
    from miner.redaction.lexicon.names import stop_words

    words = piece.split(" ")
    while words and words[0] in stop_words():
        words.pop(0)
    while words and words[-1] in stop_words():
        words.pop()
    return " ".join(words).strip(_EDGE)


def _number_after(text: str, end: int) -> int | None:
    """Where a house number right after a swept street ending at ``end``
    ends (``_NUMBER_AFTER``), or None; a stop word may follow it ("Lewis-ro
    5 since March")."""
    from miner.redaction.lexicon.names import stop_words

    m = _NUMBER_AFTER.match(text, end)
    if m is None:
        word = _NUMBER_AFTER_THEN_WORD.match(text, end)
        if word is None or word.group("word").casefold() not in stop_words():
            return None
        return word.end("number")
    return m.end()


_NUMBER_AFTER_THEN_WORD = re.compile(
    r",?[ \t]+(?P<number>\d{1,5}[A-Za-z]?)[ \t]+(?P<word>[^\W\d_A-Z][^\W\d_]*)"
)
