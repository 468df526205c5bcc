"""The values redaction is unsure of (surfaced): left as written in a draft
and put before the reviewer (the contract: docs/review.md, "Personal data
surfaced for review").

Redaction returns them per session as ``Surfaced(entity, value)``; the draft
records them in the sidecar's ``provenance.redaction.surfaced`` beside an
empty ``kept`` list. A value is **decided** when ``kept`` lists it (exact
string) or when it no longer occurs in any string of the case's three files
outside the sidecar's ``provenance`` (a placeholder took its place). Every
occurrence of an undecided value is a ``personal-data`` finding.

Everything here is data in, data out: the loader, the draft, promote and the
workbench call these functions and do their own reading and writing.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from miner.redaction.lexicon.wordmatch import WORD_CHARACTER, WORD_START, fold
from miner.redaction.placeholders import PLACEHOLDER

#: Where the sidecar keeps them: ``provenance.redaction.{surfaced,kept}``.
PROVENANCE = "provenance"
REDACTION = "redaction"
SURFACED = "surfaced"
KEPT = "kept"

#: What every placeholder and every surfaced value become before a string's
#: vetted digest is taken, so a string whose value was replaced by any
#: placeholder is still the string the draft vetted.
NORMAL_TOKEN = "<*>"

Verdict = Literal["replace", "keep"]
VERDICTS: tuple[Verdict, ...] = ("replace", "keep")


@dataclass(frozen=True)
class Surfaced:
    """One value redaction was unsure of, as written, and what it may be."""

    entity: str
    value: str
    reason: str = field(default="", compare=False)
    """The rule that surfaced it (``unsure.REASONS``; measured per rule by
    ``tools/redaction_report surfaced-why``). Not written into a sidecar,
    and no part of a value's identity: one decision whatever surfaced it."""
    part_of: str = field(default="", compare=False)
    """The surfaced value this one is a part of, written alone ("Beike" of
    "Karin Beike", "Klášterecká" or "128" of "Klášterecká 128"): the
    reviewer decides it with that value (``decisions``)."""

    def as_json(self) -> dict[str, str]:
        found = {"entity": self.entity, "value": self.value}
        return {**found, PART_OF: self.part_of} if self.part_of else found


#: Where the sidecar says a surfaced value is another's part.
PART_OF = "partOf"


def sidecar_entries(surfaced: Iterable[Surfaced]) -> list[dict[str, str]]:
    """The sidecar's list of ``surfaced`` values, each once, a part's link
    written only to a whole the list holds too: a part of an address or a
    name the case replaced ("Etg Q" of a block now ``<STREET_ADDRESS_1>``)
    is linked to nothing the reviewer decides (``decisions`` ignores such a
    link), and the whole's text, replaced in the case, must not be written
    beside it (the leak guard reads the case before this list is added)."""
    found = list(dict.fromkeys(surfaced))
    listed = {s.value for s in found}
    return [
        (s if s.part_of in listed else Surfaced(s.entity, s.value, s.reason)).as_json()
        for s in found
    ]


def decisions(surfaced: Iterable[Surfaced]) -> dict[str, str]:
    """Each surfaced value of a case -> the decision it is part of, named by
    the value decided, its case folded as the matchers fold it
    (``wordmatch.fold``: "BIÇAKÇI" is "bıçakçı"'s). The reviewer decides together a value
    and its other casings ("Bakhshi", "bakhshi", "BAKHSHI": the same word),
    and a value and its parts written alone that the case surfaced with it
    (``Surfaced.part_of``: "Beike" with "Karin Beike"; else the shortest
    value holding its words, ``values_holding``: "Zwack" with "Zwack
    songwriter", "Elva" with the address block holding it), as the session
    pass gives a replaced value's parts its placeholder. So ``decide``
    decides them at once, and a case counts them as one decision
    (docs/redaction.md, "What a reviewer sees")."""
    found = list(surfaced)
    listed = {s.value for s in found}
    whole = {s.value: s.part_of for s in found if s.part_of in listed and s.part_of != s.value}
    holding = {part: held for part, held in values_holding(listed).items() if part not in whole}
    whole.update((part, held[0]) for part, held in holding.items())

    def root_of(value: str) -> str:
        root, seen = value, {value}
        while root in whole and whole[root] not in seen:
            root = whole[root]
            seen.add(root)
        return root

    for part, held in holding.items():
        if len({fold(root_of(h)) for h in held}) > 1:
            # Held by values of two decisions ("Anna" in "Anna Keller" and
            # "Anna Smith"): replacing it with one would cut the other's
            # text, which then stood whole nowhere (decided unseen, its
            # rest silent). Decided alone.
            del whole[part]
    return {s.value: fold(root_of(s.value)) for s in found}


#: Where a value's words may start and end inside another, as the reviewer's
#: tools find a value (``occurrences``: after a line break written ``\\n`` too).
_PART_STARTS = re.compile(WORD_START)
_PART_ENDS = re.compile(r"(?!\w)")


def values_holding(values: Iterable[str]) -> dict[str, list[str]]:
    """Each of ``values`` with a letter that stands, case folded, as whole
    words inside longer ones (``occurrences``' edges) -> those, the shortest
    first: "Zwack" -> ["Zwack songwriter"], "Elva" -> ["806 Toom-Kuninga\\n
    Korter 62\\n Elva"]. Two rules surfaced the same words, alone and with
    their neighbours (a name and the sweep's span running over a word beside
    it, a town and its address block): the reviewer's verdict on the longer
    is the verdict on its words (``decisions``). A number alone is not a part
    ("12" of "Rua Augusta 12" is an amount elsewhere as often): a street's
    own numbers are its parts already (``Surfaced.part_of``). Each longer
    value's spans between word edges are looked up, not each pair of values
    compared (a 1 MiB message surfaces hundreds)."""
    values = list(dict.fromkeys(values))
    by_fold: dict[str, list[str]] = {}
    for value in values:
        if any(c.isalpha() for c in value):
            by_fold.setdefault(fold(value), []).append(value)
    longest = max(map(len, by_fold), default=0)
    holding: dict[str, list[str]] = {}
    for value in sorted(values, key=lambda v: (len(v), v)):
        folded = fold(value)
        ends = [m.start() for m in _PART_ENDS.finditer(folded)]
        parts: set[str] = set()
        for start in (m.start() for m in _PART_STARTS.finditer(folded)):
            # Only as far as the longest part: a long value's edges, paired
            # all, would be read quadratically.
            first = bisect.bisect_right(ends, start)
            for end in ends[first : bisect.bisect_right(ends, start + longest)]:
                if end - start < len(folded):
                    parts.update(by_fold.get(folded[start:end], ()))
        for part in sorted(parts):
            holding.setdefault(part, []).append(value)
    return holding


@functools.lru_cache(maxsize=4096)
def _matcher(value: str) -> re.Pattern[str]:
    # Exact text on word boundaries: "Anna" is not found inside "Annabel";
    # after a line break written ``\n`` too ("...\nRhavi: Remember me"),
    # where the session pass replaces values (lexicon.wordmatch.WORD_START).
    return re.compile(rf"{WORD_START}{re.escape(value)}(?!\w)")


_VALUE_START = re.compile(WORD_START)


def occurrences(text: str, value: str) -> list[tuple[int, int]]:
    """(start, end) of every occurrence of ``value`` in ``text``, exact text
    on word boundaries: the spans ``_matcher(value).finditer`` gives.

    Each place the value's text stands is found by ``str.find``, then its
    edges are tested: the value's text then ``(?!\\w)`` as a regex, searched
    from each place on, took three times the CPU on the bench's 1 MiB
    message (1.03 s against 0.37 over its 1,250 calls)."""
    if not value:
        return []
    found = []
    size, find, word = len(value), text.find, WORD_CHARACTER.match
    at = find(value)
    while at >= 0:
        end = at + size
        if word(text, end) or (
            at and word(text, at - 1) and not _VALUE_START.match(text, at)  # after an escaped \n
        ):
            at = find(value, at + 1)  # not on a word's edge: the next place, as finditer
            continue
        found.append((at, end))
        at = find(value, end)
    return found


def glued_to_a_word(text: str, at: int) -> bool:
    """Whether a value at ``at`` is glued to the word before it, where
    ``occurrences`` finds none ("abc+33 6"; not after a line break written
    ``\\n``): for a caller that found the value's text some other way."""
    return bool(at and WORD_CHARACTER.match(text, at - 1) and not _VALUE_START.match(text, at))


def normalised(text: str, values: Iterable[str]) -> str:
    """``text`` with every placeholder and every one of ``values`` (the case's
    surfaced and kept values) replaced by ``NORMAL_TOKEN``."""
    for value in sorted({v for v in values if v}, key=len, reverse=True):
        text = _matcher(value).sub(NORMAL_TOKEN, text)
    return PLACEHOLDER.sub(NORMAL_TOKEN, text)


def vetted_digest(text: str, values: Iterable[str]) -> str:
    """The digest the draft lists in ``provenance.redaction.vetted`` for a
    string it wrote, and the one the check looks up."""
    return output_digest(normalised(text, values))


def output_digest(text: str) -> str:
    """The digest of a string miner wrote and vetted; ``miner check`` trusts a
    string whose digest the case's provenance lists, and reads any other."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


# Reading a sidecar --------------------------------------------------------------


def _redaction(spec: Any) -> dict[str, Any]:
    provenance = spec.get(PROVENANCE) if isinstance(spec, dict) else None
    made = provenance.get(REDACTION) if isinstance(provenance, dict) else None
    return made if isinstance(made, dict) else {}


def surfaced_in(spec: Any) -> tuple[Surfaced, ...]:
    """The sidecar's surfaced values (entries that are not ``{entity, value}``
    strings are skipped: the check cannot act on them)."""
    found = _redaction(spec).get(SURFACED)
    out = []
    for entry in found if isinstance(found, list) else []:
        if isinstance(entry, dict):
            entity, value = entry.get("entity"), entry.get("value")
            part_of = entry.get(PART_OF)
            if isinstance(entity, str) and isinstance(value, str) and value:
                whole = part_of if isinstance(part_of, str) else ""
                out.append(Surfaced(entity, value, part_of=whole))
    return tuple(dict.fromkeys(out))


def kept_in(spec: Any) -> tuple[str, ...]:
    """The values the reviewer decided to keep as written."""
    found = _redaction(spec).get(KEPT)
    return tuple(v for v in found if isinstance(v, str)) if isinstance(found, list) else ()


def known_values(spec: Any) -> tuple[str, ...]:
    """Surfaced and kept values: what ``normalised`` replaces for this case."""
    return (*(s.value for s in surfaced_in(spec)), *kept_in(spec))


def reviewed_strings(value: Any, in_sidecar: bool = False) -> Iterator[tuple[tuple, str]]:
    """(JSON path, text) of every string value a reviewer decides on: every
    string of the file but a sidecar's ``provenance`` (keys are schema)."""

    def walk(node: Any, path: tuple) -> Iterator[tuple[tuple, str]]:
        if isinstance(node, str):
            yield path, node
        elif isinstance(node, dict):
            for key, child in node.items():
                if not (in_sidecar and not path and key == PROVENANCE):
                    yield from walk(child, (*path, key))
        elif isinstance(node, list):
            for index, child in enumerate(node):
                yield from walk(child, (*path, index))

    yield from walk(value, ())


def not_kept(spec: Any) -> list[Surfaced]:
    """The sidecar's surfaced values no reviewer has kept."""
    kept = set(kept_in(spec))
    return [s for s in surfaced_in(spec) if s.value not in kept]


def undecided(spec: Any, strings: Iterable[str]) -> tuple[Surfaced, ...]:
    """The sidecar's surfaced values that are not kept and still occur in
    ``strings`` (the case's strings outside the sidecar's provenance)."""
    open_ = not_kept(spec)
    if not open_:
        return ()
    texts = list(strings)
    return tuple(s for s in open_ if any(occurrences(t, s.value) for t in texts))


# Deciding one value, across a case's three files --------------------------------


CaseValues = tuple[Any, Any, Any]
"""A draft's eval set, sidecar and tool fixtures, as JSON values."""


def case_strings(files: CaseValues) -> list[str]:
    """Every string of a draft's three files a reviewer decides on."""
    evalset, spec, tools = files
    return [
        *(t for _p, t in reviewed_strings(evalset)),
        *(t for _p, t in reviewed_strings(spec, in_sidecar=True)),
        *(t for _p, t in reviewed_strings(tools)),
    ]


def case_undecided(files: CaseValues) -> tuple[Surfaced, ...]:
    """The undecided surfaced values of a draft's three files."""
    return undecided(files[1], case_strings(files))


def next_placeholder(files: Sequence[Any], entity: str) -> str:
    """``<ENTITY_N>`` with N one more than any placeholder of that entity in the
    case (keys and provenance included, so no number is given twice)."""
    used = [
        int(m.group(2))
        for m in PLACEHOLDER.finditer(json.dumps(list(files), ensure_ascii=False))
        if m.group(1) == entity
    ]
    return f"<{entity}_{max(used, default=0) + 1}>"


def _replaced(node: Any, value: str, placeholder: str, skip: tuple | None, path: tuple) -> Any:
    if path == skip:
        return node
    if isinstance(node, str):
        return _matcher(value).sub(lambda _m: placeholder, node)
    if isinstance(node, dict):
        return {k: _replaced(v, value, placeholder, skip, (*path, k)) for k, v in node.items()}
    if isinstance(node, list):
        return [_replaced(v, value, placeholder, skip, (*path, i)) for i, v in enumerate(node)]
    return node


def decide(files: CaseValues, value: str, verdict: Verdict) -> CaseValues:
    """A draft's three files with one surfaced value decided, and with it
    the case's surfaced values that are the same decision (``decisions``:
    its other casings, its parts, the value it is part of). New values; the
    given ones are not changed.

    - ``replace``: one placeholder, the next free number for its entity in the
      case, in place of every occurrence of each in the three files (the
      observed session in the sidecar's provenance too), and the entries
      dropped from ``surfaced``;
    - ``keep``: the values moved from ``surfaced`` to ``kept``.

    A value the sidecar does not list as surfaced is a ValueError."""
    evalset, spec, tools = json.loads(json.dumps(list(files)))
    entry = next((s for s in surfaced_in(spec) if s.value == value), None)
    if entry is None or verdict not in VERDICTS:
        raise ValueError("not a surfaced value of this case, or not a verdict")
    decision = decisions(surfaced_in(spec))
    together = [v for v, d in decision.items() if d == decision[value]]
    redaction = spec[PROVENANCE][REDACTION]
    remaining = [
        e
        for e in redaction.get(SURFACED) or []
        if not (isinstance(e, dict) and e.get("value") in together)
    ]
    if verdict == "keep":
        kept = [v for v in redaction.get(KEPT) or [] if isinstance(v, str)]
        redaction[KEPT] = [*kept, *(v for v in together if v not in kept)]
        redaction[SURFACED] = remaining
        return evalset, spec, tools
    placeholder = next_placeholder((evalset, spec, tools), entry.entity)
    # The redaction record itself keeps its lists (and the digests) as they are.
    skip = (PROVENANCE, REDACTION)
    for same in sorted(together, key=len, reverse=True):
        evalset = _replaced(evalset, same, placeholder, None, ())
        tools = _replaced(tools, same, placeholder, None, ())
        spec = _replaced(spec, same, placeholder, skip, ())
    spec[PROVENANCE][REDACTION][SURFACED] = remaining
    return evalset, spec, tools


def for_suite(spec: Any) -> Any:
    """A sidecar as a suite holds it: without ``provenance.redaction.surfaced``,
    and with every replaced surfaced value (listed, not kept, gone from the
    reviewed strings) also gone from the rest of its provenance. ``kept``
    stays. Call it on a decided case only (promote refuses the others)."""
    if SURFACED not in _redaction(spec):
        return spec
    spec = json.loads(json.dumps(spec))
    kept = set(kept_in(spec))
    for entry in surfaced_in(spec):
        if entry.value in kept:
            continue
        placeholder = next_placeholder([spec], entry.entity)
        provenance = {k: v for k, v in spec[PROVENANCE].items() if k != REDACTION}
        scrubbed = _replaced(provenance, entry.value, placeholder, None, ())
        spec[PROVENANCE] = {**spec[PROVENANCE], **scrubbed}
    spec[PROVENANCE][REDACTION].pop(SURFACED, None)
    return spec
