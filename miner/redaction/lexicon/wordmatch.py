"""Find many literal values in a text as whole words, in time linear in the text.

Redaction replaces every personal value found in a session wherever it
occurs, and the leak guard looks for each of them again in what is about to
be written: on a long message, thousands of values over a megabyte. One regex
alternation of them, ``(?<!\\w)(?:v1|v2|...)(?!\\w)``, makes Python's regex
engine try every alternative at every word start, so that pass grew with
values x text (47 s of CPU on a 1 MiB message with 12,326 values). A regex
compiled from a trie of the values matches in 0.2 s there but takes seconds to
compile (the re module parses a 350 KB pattern in Python). So the values go
into a trie of dicts, and at each place the text could start a value one path
of it is walked, as deep as the longest value that starts there: time grows
with the text and the length of the values met, not with their number.

What matches (the alternation's rules, longest first):

- a whole word: the character before a match is not a word character (or is
  the ``n`` of a line break written as the two characters ``\\n``, in a
  document quoted inside a JSON string: ``WORD_START``), nor is the one after
  it (the re module's Unicode ``\\w``); a value may itself begin or end with
  punctuation;
- leftmost first, then the longest value that is a whole word there; the next
  match starts after it;
- ``exact`` values as written; ``any_case`` values in any case, by the re
  module's own IGNORECASE rules, one character for one ("ſ" matches "s", "ς"
  matches "Σ", "ß" does not match "SS"): callers look the matched text up by
  those rules, and the alternation they replace followed them.

What is a word character and which characters IGNORECASE takes as one are
asked of the re module itself, once per distinct character, so the rules
cannot drift from the regexes elsewhere in miner.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

#: The end-of-value entry of a trie node (branch keys are one character):
#: True when an any-case value ends there, else the exact values that do.
_END = ""

#: One word character, as the re module reads one (every rule's word edge).
WORD_CHARACTER = re.compile(r"\w")
#: A run of word characters: a value's first word, a text's words.
WORD_RUN = re.compile(r"\w+")

#: Where a value may start: after a non-word character, or after a line break
#: or a tab escaped as \\n, \\r or \\t ("\\nDiane: ...", "\\NMAKS: ..." in a text
#: in capitals), which redaction reads as a break.
WORD_START = r"(?:(?<!\w)|(?<=(?<!\\)\\[nNrt]))"


class _CaseClasses(dict[int, str]):
    """Code point -> the character standing for its IGNORECASE class, worked
    out the first time a character is met (a ``str.translate`` table)."""

    def __missing__(self, code: int) -> str:
        found = self[code] = _case_class(chr(code))
        return found


#: Per character met so far: its IGNORECASE class, and whether it is a word
#: character. Shared by every matcher in the process.
_CLASSES = _CaseClasses()
_class_patterns: list[tuple[re.Pattern[str], str]] = []
_is_word: dict[str, bool] = {}


class WholeWords:
    """Whole-word occurrences of a set of values, leftmost then longest.

    ``exact`` values match as written, ``any_case`` values in any case (a
    value given as both matches in any case). Empty values are ignored."""

    def __init__(self, exact: Iterable[str] = (), any_case: Iterable[str] = ()) -> None:
        self._root: dict[str, Any] = {}
        for value in dict.fromkeys(v for v in any_case if v):
            self._node(value)[_END] = True
        for value in dict.fromkeys(v for v in exact if v):
            node = self._node(value)
            if node.get(_END) is not True:
                node.setdefault(_END, set()).add(value)
        # Where a value can start: a character of a first branch's class.
        starts = "".join(re.escape(c) for c in self._root)
        self._start = re.compile(rf"{WORD_START}(?i:[{starts}])") if starts else None

    def __bool__(self) -> bool:
        return self._start is not None

    def _node(self, value: str) -> dict[str, Any]:
        node = self._root
        for char in fold(value):
            node = node.setdefault(char, {})
        return node

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        """(start, end) of each occurrence in ``text``, in order, disjoint."""
        if self._start is None:
            return
        keyed, word = _read(text)
        root, size, find = self._root, len(text), self._start.search
        at = find(text)
        while at is not None:
            start = at.start()
            node, here, end = root, start, -1
            while here < size and keyed[here] in node:
                node = node[keyed[here]]
                here += 1
                ends = node.get(_END)
                if (
                    ends is not None
                    and (here == size or text[here] not in word)
                    and (ends is True or text[start:here] in ends)
                ):
                    end = here
            if end < 0:
                at = find(text, start + 1)
            else:
                yield start, end
                at = find(text, end)

    def every_occurrence(self, text: str) -> Iterator[tuple[int, int]]:
        """(start, end) of every whole-word occurrence of each ``exact``
        value in ``text``, by start, then end: what ``surfaced.occurrences``
        gives for each value in turn (one value's occurrences never overlap,
        each searched for after the one before; two values' may), in one
        pass however many values there are. Only for a matcher of ``exact``
        values: an ``any_case`` value is not told apart from its writings."""
        if self._start is None:
            return
        keyed, word = _read(text)
        root, size, find = self._root, len(text), self._start.search
        #: Per value, where its last occurrence ended: one value's do not overlap.
        free_from: dict[str, int] = {}
        at = find(text)
        while at is not None:
            start = at.start()
            node, here = root, start
            while here < size and keyed[here] in node:
                node = node[keyed[here]]
                here += 1
                ends = node.get(_END)
                if ends is not None and (here == size or text[here] not in word):
                    value = text[start:here]
                    if ends is not True and value in ends and free_from.get(value, 0) <= start:
                        free_from[value] = here
                        yield start, here
            at = find(text, start + 1)

    def sub(self, replacement: Callable[[str], str], text: str) -> str:
        """``text`` with each occurrence ``o`` replaced by ``replacement(o)``."""
        out: list[str] = []
        last = 0
        for start, end in self.spans(text):
            out += (text[last:start], replacement(text[start:end]))
            last = end
        return "".join(out) + text[last:] if out else text


def _read(text: str) -> tuple[str, set[str]]:
    """``text`` folded (one class character per character) and the word
    characters it holds; inside ``long_texts_read_once``, a long text's
    kept for the next matcher that reads it."""
    kept = _kept_reads
    if kept is None or len(text) < _READ_KEPT_FROM:
        return fold(text), {c for c in set(text) if _word_char(c)}
    for seen, read in kept:
        if seen is text:
            return read
    read = fold(text), {c for c in set(text) if _word_char(c)}
    kept.insert(0, (text, read))
    del kept[_READ_KEPT:]
    return read


@contextlib.contextmanager
def long_texts_read_once() -> Iterator[None]:
    """Within the block, the readings of the last ``_READ_KEPT`` texts of
    ``_READ_KEPT_FROM`` characters or more that a matcher read are kept
    (``_read``): the session pass looks for a session's values in each
    string with one matcher after another, and each folded a 1 MiB message
    again (11 times on the bench's, 34 ms each). A kept text is held with
    its reading, so a text met again is known by identity; all is let go
    when the block ends, before what comes after stacks on it (the second
    model: about 10 MiB at 1 MiB)."""
    global _kept_reads
    before, _kept_reads = _kept_reads, []
    try:
        yield
    finally:
        _kept_reads = before


#: Texts at least this long have their reading kept (``_read``), and how
#: many of them.
_READ_KEPT_FROM = 100_000
_READ_KEPT = 2
_kept_reads: list[tuple[str, tuple[str, set[str]]]] | None = None


def fold(text: str) -> str:
    """``text`` with each character replaced by the one standing for its
    IGNORECASE class: two texts fold the same exactly when an ``any_case``
    value written as one matches the other. ``str.casefold`` is not that
    relation ("İ" folds to two characters, the re module matches it with "i"
    one for one), so what a matcher found is looked up by this."""
    return text.translate(_CLASSES)


def grouped_alternation(fragments: Iterable[str], *, fold_case: bool = False) -> str:
    """One regex group ``(?:...)`` of ``fragments`` (regex fragments, each a
    whole alternative), matching what their flat alternation ``(?:a|b|c)``
    does: those that start with a letter are grouped by it,
    ``(?:P(?:ESEL|IN)|N(?:IE|IF)|[Uu]l\\.)``, the others follow.

    The re module has no quick test of a first letter matched ignoring case,
    so flat it enters each of dozens of alternatives at every place it tries
    them; grouped, one per place (the street lines took half the CPU of the
    bench's 1 MiB message, the named ids' pattern three times its grouped
    0.07 s). Two alternatives whose first letters differ never both start at
    one place (``fold_case``: letters that ``fold`` alike are one group, for
    a pattern matched ignoring case), so within the groups the order of trial
    is the flat one; the others are tried after the groups, which only a
    pattern asked where it matches, not whether, could tell."""
    groups: dict[str, list[str]] = {}
    others: list[str] = []
    for fragment in fragments:
        if fragment[:1].isalpha() and fragment[1:2] not in ("?", "*", "+", "{"):
            groups.setdefault(fold(fragment[0]) if fold_case else fragment[0], []).append(fragment)
        else:
            others.append(fragment)
    grouped = [f"{group[0][0]}(?:{'|'.join(f[1:] for f in group)})" for group in groups.values()]
    return "(?:" + "|".join([*grouped, *others]) + ")"


def _word_char(char: str) -> bool:
    found = _is_word.get(char)
    if found is None:
        found = _is_word[char] = WORD_CHARACTER.fullmatch(char) is not None
    return found


def _case_class(char: str) -> str:
    """The character standing for ``char``'s IGNORECASE class: the first one
    met that the re module matches with it, ignoring case. The re module's
    relation is an equivalence (same simple lower case, joined by its table
    of extra cases such as s/ſ), so a character has one class."""
    for pattern, stands_for in _class_patterns:
        if pattern.fullmatch(char):
            return stands_for
    _class_patterns.append((re.compile(re.escape(char), re.IGNORECASE), char))
    return char


def value_matcher(values: Iterable[str]) -> tuple[WholeWords, dict[str, str], dict[str, str]]:
    """Where ``values`` occur in a text, and the value each match is: the
    matcher, the exact lookup (as written, or in capitals: the name "Will"
    leaves "will" alone) and the folded one (values of several words and
    e-mails, in any case: "ALEX MORGAN"). Longer values are looked up first.

    The matcher is not one regex alternation of every value: that is
    quadratic on a long text with thousands of them (``WholeWords``)."""
    exact: dict[str, str] = {}
    folded: dict[str, str] = {}
    in_any_case: list[str] = []
    for value in sorted(values, key=len, reverse=True):
        if " " in value.strip() or "@" in value:
            folded.setdefault(fold(value), value)
            in_any_case.append(value)
        else:
            exact.setdefault(value, value)
            if value.upper() != value and any(c.isalpha() for c in value):
                exact.setdefault(value.upper(), value)
    return WholeWords(exact=exact, any_case=in_any_case), exact, folded
