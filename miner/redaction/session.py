"""The session pass: every personal value of a session found (key rules,
identifier patterns, the detector), linked to its parts, numbered, and
replaced everywhere in the session.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any, Protocol

from miner.model import Session
from miner.redaction.detector import NER_TYPES, Detector
from miner.redaction.keys import A_NAME_IN_A_FIRMS_KEY, KeyRules
from miner.redaction.lexicon.addresses import (
    address_parts,
    house_number_values,
    house_numbers_alone,
)
from miner.redaction.lexicon.formats import read_escaped_breaks
from miner.redaction.lexicon.joiners import AND
from miner.redaction.lexicon.letters import LETTER_WORD
from miner.redaction.lexicon.names import (
    A_TITLE,
    an_english_word,
    grown_name,
    name_parts,
    stop_words,
)
from miner.redaction.lexicon.places import place_around
from miner.redaction.lexicon.wordmatch import (
    WORD_CHARACTER,
    WORD_RUN,
    WholeWords,
    fold,
    long_texts_read_once,
    value_matcher,
)
from miner.redaction.placeholders import PLACEHOLDER
from miner.redaction.redacted import Redacted
from miner.redaction.second import new_placeholders, replaced_everywhere
from miner.redaction.surfaced import Surfaced, glued_to_a_word, occurrences, values_holding
from miner.redaction.unsure import (
    BLOCK_PART_ALONE,
    REPLACED_REASONS,
    STREET_NAME_ALONE,
    Unsure,
    street_parts_alone,
    unsure_values,
)
from miner.redaction.unsure.streets import street_names
from miner.redaction.verdict import Detection, stands_as_a_thing, town_around
from miner.redaction.walk import map_session, session_texts


class SessionRules(Protocol):
    """What the session pass reads of the policy (``RedactionPolicy``,
    which calls the pass: named here, so this module does not import it)."""

    detector: Detector
    keys: KeyRules
    unsure: Unsure
    identifier_patterns: tuple[tuple[str, re.Pattern[str]], ...]

    def detections(self, texts: list[str]) -> Iterator[list[Detection]]: ...


def redact_sessions(
    sessions: list[Session],
    policy: SessionRules,
    progress: Callable[[Iterable[Any], int], Iterable[Any]] = lambda it, _n: it,
) -> list[Redacted]:
    """Redact every session by ``policy`` (``RedactionPolicy.redact``).
    Distinct strings are analysed once, in batches."""
    distinct = list(
        dict.fromkeys(
            leaf
            for s in sessions
            for _k, leaf in session_texts(s)
            if isinstance(leaf, str) and leaf.strip()
        )
    )
    found = dict(zip(distinct, progress(policy.detections(distinct), len(distinct)), strict=True))
    with long_texts_read_once():
        return [_redact_one(s, found, policy) for s in sessions]


def _redact_one(
    session: Session, found: dict[str, list[Detection]], policy: SessionRules
) -> Redacted:
    """One session's pass: collect its personal values, link each to the
    values it is part of, number the placeholders, replace every occurrence;
    then what it is unsure of, left as written."""
    leaves = list(session_texts(session))
    entity_of, things, unsure_of, kept_values, firm_slots = _collect(leaves, found, policy)
    for value, entity in unsure_of.items():
        # A name one of whose words is a sure name is the same person's.
        if entity == "PERSON" and any(p in entity_of for p in name_parts(value) if p != value):
            entity_of.setdefault(value, entity)
    parts = _with_parts(leaves, unsure_of)
    for value in _unseen_by_review(leaves, [v for v in unsure_of if v not in entity_of]):
        entity_of[value] = unsure_of[value]
    part_of = _link_parts(entity_of)
    _link_grown_names(leaves, entity_of, part_of)
    placeholder = _numbered(entity_of, part_of)
    kept = tuple(sorted(set(things)))
    redacted, replaced, towns = session, Counter[str](), set[str]()
    if placeholder:
        replacer = _Replacer(entity_of, placeholder, policy.keys, policy.detector)
        redacted = map_session(session, replacer.leaf)
        replaced, towns = replacer.replaced, replacer.towns
    surfaced, places = _surfaced(
        redacted, unsure_of, parts, entity_of, kept, kept_values, firm_slots, policy
    )
    # The values kept whole are recorded too, case-folded as the phrases are,
    # so the check reads an edited string as the draft did.
    kept_values |= places | towns
    if kept_values:
        kept = tuple(sorted({*kept, *(v.casefold() for v in kept_values)}))
    return Redacted(redacted, replaced, dict(entity_of), kept, surfaced, tuple(sorted(towns)))


def with_sure_rules_decided(redacted: Redacted) -> Redacted:
    """``redacted`` with the values that a rule sure enough surfaced
    (``unsure.REPLACED_REASONS``: a street in lower case) replaced, each by
    the next free placeholder of its entity: not a decision."""
    sure = {s.value: s.entity for s in redacted.surfaced if s.reason in REPLACED_REASONS}
    if not sure:
        return redacted
    decided = replaced_everywhere(redacted, sure)
    # A value surfaced inside one replaced ("Ceyhun" of "436 Ceyhun bəy
    # Hacıbəyli Küçəsi") and written nowhere else: nothing left to decide.
    texts = [leaf for _key, leaf in session_texts(decided.session) if isinstance(leaf, str)]
    gone = {
        s.value
        for s in decided.surfaced
        if any(s.value in v for v in sure) and not any(s.value in t for t in texts)
    }
    return replace(decided, surfaced=tuple(s for s in decided.surfaced if s.value not in gone))


def with_rest_surfaced(before: Redacted, after: Redacted, policy: SessionRules) -> Redacted:
    """``after`` (``before`` with values replaced once the unsure rules had
    read it: the sure rules', then the second model's) with what their rules of position
    (``Unsure.reasoned_spans(only_beside=True)``) find beside its
    placeholders surfaced too: "718 August" left before
    "<STREET_ADDRESS_1>" once the model replaced the street's name the rules
    had surfaced alone. Only rules of position, and only values neither
    surfaced nor kept already: the rest was judged in the first pass."""
    if after is before:
        return after
    known = {s.value for s in after.surfaced} | set(after.not_personal)
    new: dict[str, Surfaced] = {}
    # Only the strings the replacement changed, and in them only beside a
    # placeholder, old ones too: the first pass read these strings before
    # the sure rules' placeholders stood in them, and reading beside those
    # surfaces what their rules of position now see (58 planted values or
    # their parts in the 1 MiB bench's message; beside the new placeholders
    # alone, 4 of them).
    pairs = zip(session_texts(before.session), session_texts(after.session), strict=True)
    for (_key, was), (key, leaf) in pairs:
        if not isinstance(leaf, str) or leaf == was:
            continue
        for start, end in _around_placeholders(leaf):
            window = leaf[start:end]
            for s, e, entity, reason in policy.unsure.reasoned_spans(window, key, True):
                value = window[s:e]
                if value not in known:
                    new.setdefault(value, Surfaced(entity, value, reason))
    if not new:
        return after
    return replace(after, surfaced=after.surfaced + tuple(new.values()))


#: How far either side of a placeholder its address or name is read again.
_REREAD_REACH = 300


def _around_placeholders(leaf: str) -> list[tuple[int, int]]:
    """The stretches of ``leaf`` within ``_REREAD_REACH`` of a placeholder,
    merged, cut at a line break or a blank (no word cut in two)."""
    spans: list[tuple[int, int]] = []
    for m in PLACEHOLDER.finditer(leaf):
        start, end = max(0, m.start() - _REREAD_REACH), min(len(leaf), m.end() + _REREAD_REACH)
        if start > 0:
            start = next((i + 1 for i in range(start, m.start()) if leaf[i] in " \t\n"), m.start())
        if end < len(leaf):
            end = next((i for i in range(end, m.end(), -1) if leaf[i - 1] in " \t\n"), m.end())
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], end))
        else:
            spans.append((start, end))
    return spans


#: What stands between two pieces of one address that placeholders cut
#: apart: the placeholders, blanks, commas, semicolons, slashes, line breaks
#: (written ``\n`` too) and a form's "???" bullets.
_BETWEEN_AN_ADDRESS_S_PIECES = re.compile(
    r"(?:[\s,;/]|\\[nNrt]|\?\?\?|" + PLACEHOLDER.pattern + r")*"
)


def with_address_pieces_linked(redacted: Redacted) -> Redacted:
    """``redacted`` with each surfaced address's piece that stands right
    after another's, placeholders and separators alone between them, linked
    to it (``Surfaced.part_of``): "Heh, 1298" and "Cedynia" of "Heh, 1298
    <PERSON_1>, Cedynia", a block's lines around a street replaced. One
    address the rules read whole, cut by what was replaced inside it: the
    reviewer decides its rest once (``surfaced.decisions``), as a block
    surfaced whole, not piece by piece. A piece linked already keeps its link."""
    streets = [s.value for s in redacted.surfaced if s.entity == "STREET_ADDRESS"]
    if len(streets) < 2:
        return redacted
    linked = {s.value: s.part_of for s in redacted.surfaced if s.part_of}
    # A piece another surfaced value holds is decided with that one, or alone
    # (``surfaced.decisions``): replacing it with this address would cut it.
    held = values_holding(s.value for s in redacted.surfaced)
    pieces = WholeWords(exact=streets)
    for _key, leaf in session_texts(redacted.session):
        if not isinstance(leaf, str) or not PLACEHOLDER.search(leaf):
            continue
        found = sorted(pieces.every_occurrence(leaf))
        for (start, end), (after, stop) in itertools.pairwise(found):
            piece, before = leaf[after:stop], leaf[start:end]
            between = leaf[end:after] if after >= end else ""
            if (
                piece != before
                and piece not in linked
                and piece not in held
                and linked.get(before) != piece
                and PLACEHOLDER.search(between)
                and _BETWEEN_AN_ADDRESS_S_PIECES.fullmatch(between)
            ):
                linked[piece] = before
    surfaced = tuple(
        replace(s, part_of=linked[s.value]) if not s.part_of and s.value in linked else s
        for s in redacted.surfaced
    )
    return replace(redacted, surfaced=surfaced)


def with_cut_values_resurfaced(redacted: Redacted) -> Redacted:
    """``redacted`` with each surfaced value that placeholders cut into
    wherever it stood surfaced as what the draft still holds of it:
    "DUBOIS/MARIE MRS", its "DUBOIS" replaced, stands as "<PERSON_1>/MARIE
    MRS", and "MARIE MRS" is surfaced. The reviewer's tools find a value by
    its exact text (``surfaced.undecided``): a value the draft holds nowhere
    is decided, and its rest stood silent. The cut value is dropped (it holds
    a replaced value's text, which the sidecar's list would write); a part
    linked to it is linked to the rest that holds it. (Before
    ``with_people_decided``, a rest that is a replaced person's word would be
    replaced; but that step's replacing cuts values too, so this one runs
    last and such a rest stays a decision: never silent.)"""
    if not redacted.surfaced:
        return redacted
    strings = [leaf for _key, leaf in session_texts(redacted.session) if isinstance(leaf, str)]
    standing = _standing(strings, [s.value for s in redacted.surfaced])
    # Cut: held nowhere, not even inside a word. A value the draft holds that
    # ends on no word's end ("rahul.mehta@" the sweep read before "outlook.com")
    # is no placeholder's doing; its rest would hide an e-mail from the guard.
    cut = {
        s.value
        for s in redacted.surfaced
        if s.value not in standing and not any(s.value in text for text in strings)
    }
    if not cut:
        return redacted
    words = {w.group() for value in cut for w in _A_VALUE_S_WORD.finditer(value)}
    words_standing = _standing(strings, list(words))
    # Each cut value's runs of words the draft still holds, as written in it.
    runs: dict[str, list[list[re.Match[str]]]] = {}
    for value in cut:
        runs[value] = [[]]
        for word in _A_VALUE_S_WORD.finditer(value):
            if word.group() in words_standing:
                runs[value][-1].append(word)
            elif runs[value][-1]:
                runs[value].append([])

    def written(value: str, run: list[re.Match[str]]) -> str:
        return value[run[0].start() : run[-1].end()]

    runs_standing = _standing(
        strings, [written(v, run) for v, found in runs.items() for run in found if run]
    )
    # A run the draft holds as written is one value; else its words are. A
    # rest of titles, stop words and single characters alone ("prof" of
    # "prof <PERSON_1>", "J" of "J. <PERSON_1>") is no one's.
    rests: dict[str, list[str]] = {}
    for value, found in runs.items():
        rests[value] = []
        for run in found:
            someone_s = [w.group() for w in run if _someone_s(w.group())]
            if someone_s:
                whole = written(value, run)
                rests[value] += [whole] if whole in runs_standing else someone_s
    surfaced: list[Surfaced] = []
    for s in redacted.surfaced:
        if s.value in cut:
            surfaced += [Surfaced(s.entity, rest, s.reason) for rest in rests[s.value]]
        elif s.part_of in cut:
            holding = [r for r in rests[s.part_of] if r != s.value and occurrences(r, s.value)]
            surfaced.append(replace(s, part_of=holding[0] if holding else ""))
        else:
            surfaced.append(s)
    return replace(redacted, surfaced=tuple(dict.fromkeys(surfaced)))


def _standing(texts: Iterable[str], values: Iterable[str]) -> set[str]:
    """Those of ``values`` that occur whole in one of ``texts`` (as
    ``WholeWords.every_occurrence`` finds them), in one pass per text for
    every value, not a search of a 1 MiB message per value.

    A value that starts with a word character can only start where a run
    of word characters does (or the run's rest after a line break written
    ``\\n``: ``WORD_START``), and that run is its first word: the text's
    runs are read once and only those that are some value's first word are
    tried. The matcher's trie walked from every word's start instead: 0.26
    s of CPU per pass over the bench's 1 MiB message, six passes a run. A
    value that starts otherwise ("+33 6...", "(555) 123") holds its first
    word after a character that is no word's, so that word is a whole run
    of the text too: it is tried where that run stands, as far into the
    value as the word is (each such value searched for as its text took
    0.36 s of CPU over the bench's 1 MiB message, 0.02 s at 256 KiB). Only a
    value without a word character ("}}") is searched for as its text."""
    by_first: dict[str, list[tuple[str, int]]] = {}
    others: list[str] = []
    for value in dict.fromkeys(values):
        if first := WORD_RUN.search(value):
            by_first.setdefault(first.group(), []).append((value, first.start()))
        elif value:
            others.append(value)
    texts = list(texts)
    found = set[str]()
    for text in texts if by_first else ():
        runs = WORD_RUN.finditer(text)
        after_breaks = _A_RUN_AFTER_AN_ESCAPED_BREAK.finditer(text) if "\\" in text else ()
        for m in itertools.chain(runs, after_breaks):
            for value, into in by_first.get(m.group(m.lastindex or 0), ()):
                start = m.start(m.lastindex or 0) - into
                end = start + len(value)
                if (
                    value not in found
                    and start >= 0
                    and text.startswith(value, start)
                    and not WORD_CHARACTER.match(text, end)
                    and not (into and glued_to_a_word(text, start))
                ):
                    found.add(value)
    found.update(v for v in others if any(v in text and occurrences(text, v) for text in texts))
    return found


#: The rest of a run of word characters after a line break or a tab written
#: escaped (``wordmatch.WORD_START``: its backslash not escaped).
_A_RUN_AFTER_AN_ESCAPED_BREAK = re.compile(r"(?<!\\)\\[nNrt](\w+)")


def _someone_s(word: str) -> bool:
    """Whether ``word``, the rest of a surfaced value, may be someone's: not
    a title, a stop word or a single character."""
    return len(word) > 1 and not A_TITLE.fullmatch(word) and word.casefold() not in stop_words()


#: A word of a surfaced value: a run of letters and digits ("MARIE", "128").
_A_VALUE_S_WORD = re.compile(r"[^\W_]+")


def with_people_decided(redacted: Redacted) -> Redacted:
    """``redacted`` with each surfaced name that is a word of a person the
    session replaced, in another case or without its accents ("paul" beside
    "Paul Jackson", "QUIROGA" beside "Máxima Quiroga"), replaced too: the
    same person, not a decision (the next free placeholder, as the
    reviewer's *replace* writes)."""
    from miner.redaction.lexicon.dates import unaccented

    words = {
        unaccented(word.casefold())
        for value, entity in redacted.originals.items()
        if entity == "PERSON"
        for word in value.split()
        if len(word) > 2
    }
    same = {
        s.value: "PERSON"
        for s in redacted.surfaced
        if s.entity == "PERSON" and unaccented(s.value.casefold()) in words
    }
    return replaced_everywhere(redacted, same) if same else redacted


def replaced_with_parts(redacted: Redacted, replacing: dict[str, str]) -> Redacted:
    """``replaced_everywhere`` (the second model's replacements), with each
    person so replaced linked to its parts and other writings as the session
    pass links a person it found (``_link_parts``, ``_Replacer``): "Cortés"
    and, in a line written in lower case, "ailén" beside "Ailén Cortés"
    take its placeholder; a part English writes as a word ("guy", "rose")
    only in such a line, a part that is a stop word or under three letters
    never (``name_parts``). Without it, only the exact text the model read
    was replaced and the rest stayed silent.

    The linking never cuts into a value still surfaced ("Cortés" of
    "Calle Cortés 12"): the value would stand nowhere, and the rest of it
    ("Calle", "12") would be left with nothing telling the reviewer. A
    surfaced value is dropped only where the placeholders took each of its
    occurrences whole (dropping a value cut into left one more silent leak
    on the untouched locales)."""
    whole = new_placeholders(redacted.session, replacing)
    decided = replaced_everywhere(redacted, replacing, whole)
    people = {value: entity for value, entity in replacing.items() if entity == "PERSON"}
    if not people:
        return decided
    entity_of = dict(people)
    part_of = _link_parts(entity_of)
    placeholder = {v: whole[part_of.get(v, v)] for v in entity_of}
    surfaced = [s.value for s in decided.surfaced]
    replacer = _Replacer(entity_of, placeholder, uncut=surfaced)
    session = map_session(decided.session, replacer.leaf)
    if not replacer.replaced:
        return decided
    gone = _no_longer_standing(decided.session, session, surfaced)
    return replace(
        decided,
        session=session,
        replaced=decided.replaced + replacer.replaced,
        originals={**decided.originals, **entity_of},
        surfaced=tuple(s for s in decided.surfaced if s.value not in gone),
        towns=tuple(sorted({*decided.towns, *replacer.towns})),
    )


def _no_longer_standing(before: Session, after: Session, values: list[str]) -> set[str]:
    """Those of ``values`` written somewhere in ``before`` and nowhere in
    ``after`` (on word boundaries, as the reviewer's tools find them:
    ``occurrences``). Only the strings that changed are searched for what
    went: a 1 MiB message is not searched once per surfaced value."""
    pairs = zip(session_texts(before), session_texts(after), strict=True)
    changed = [was for (_k, was), (_a, now) in pairs if isinstance(now, str) and now != was]
    went = _standing(changed, values)
    if not went:
        return set()
    texts = [leaf for _key, leaf in session_texts(after) if isinstance(leaf, str)]
    return went - _standing(texts, went)


def _with_parts(leaves: list[tuple[str | None, Any]], unsure_of: dict[str, str]) -> dict[str, str]:
    """The parts of an unsure name that stand alone in the session are unsure
    too: "Beike" after "Karin Beike" is left as written only if surfaced.
    Returns each part it added -> the name it is part of."""
    parts = {
        part: value
        for value, entity in unsure_of.items()
        if entity == "PERSON" and " " in value
        for part in name_parts(value)
        if part != value and part not in unsure_of
    }
    if not parts:
        return {}
    added: dict[str, str] = {}
    matcher = WholeWords(exact=parts)
    for _key, leaf in leaves:
        if isinstance(leaf, str):
            for s, e in matcher.spans(leaf):
                if leaf[s:e] not in unsure_of:
                    unsure_of[leaf[s:e]] = "PERSON"
                    added[leaf[s:e]] = parts[leaf[s:e]]
    return added


def _unseen_by_review(leaves: list[tuple[str | None, Any]], values: list[str]) -> set[str]:
    """Unsure values written where a reviewer's tools would not find them
    (``surfaced.occurrences``: on word boundaries, so not glued to an escaped
    ``\\n`` in a string): replaced, since a surfaced value must be seen."""
    if not values:
        return set()
    unseen: set[str] = set()
    matcher = WholeWords(exact=values)
    for _key, leaf in leaves:
        if isinstance(leaf, str):
            # Every value's occurrences found in one pass per string, not one
            # search per value: a 1 MiB message was searched whole for each.
            seen: set[tuple[int, int]] | None = None
            for s, e in matcher.spans(leaf):
                if seen is None:
                    seen = set(matcher.every_occurrence(leaf))
                if (s, e) not in seen:
                    unseen.add(leaf[s:e])
    return unseen


def _surfaced(
    redacted: Session,
    unsure_of: dict[str, str],
    parts: dict[str, str],
    entity_of: dict[str, str],
    things: tuple[str, ...],
    kept_values: set[str],
    firm_slots: set[str],
    policy: SessionRules,
) -> tuple[tuple[Surfaced, ...], set[str]]:
    """What the session's reviewer decides: the detector's unsure values that
    nothing replaced and that still stand in the redacted session, then what
    ``unsure`` finds in it outside the phrases that name things; less the
    values kept whole (as written: "Fulda" kept says nothing of "FULDA")
    and the names the session shows to be things or places
    (``named_as_things``), which are returned."""
    left = [v for v in unsure_of if v not in entity_of]
    strings = [leaf for _key, leaf in session_texts(redacted) if isinstance(leaf, str)]
    standing: set[str] = set()
    if left:
        matcher = WholeWords(exact=left)
        for leaf in strings:
            standing.update(leaf[s:e] for s, e in matcher.spans(leaf))
    # Not standing as itself: a part only inside its whole ("Musco" of "Musco
    # Lighting"), dropped; or a value placeholders cut into wherever it stood
    # ("KOWALSKI/ANNA MS", a sure "ANNA" replaced), kept: the policy's last
    # step surfaces what is left of it (``with_cut_values_resurfaced``).
    not_standing = [v for v in left if v not in standing]
    inside = _standing(strings, not_standing) if not_standing else set()
    cut = {v for v in not_standing if v not in inside}
    surfaced = {
        v: Surfaced(unsure_of[v], v, _PART_OF_A_NAME, parts[v])
        if v in parts
        else Surfaced(unsure_of[v], v, A_NAME_IN_A_FIRMS_KEY if v in firm_slots else _GUESSED_NAME)
        for v in left
        if v in standing or v in cut
    }
    for item in unsure_values(redacted, policy.unsure, things):
        surfaced.setdefault(item.value, item)
    for value, (entity, reason) in _other_casings(redacted, surfaced, entity_of).items():
        surfaced.setdefault(value, Surfaced(entity, value, reason))
    for value, street in _replaced_blocks_parts(redacted, entity_of).items():
        surfaced.setdefault(value, Surfaced("STREET_ADDRESS", value, BLOCK_PART_ALONE, street))
    names = [v for v, s in surfaced.items() if s.entity == "PERSON" and v not in kept_values]
    places = named_as_things(session_texts(redacted), names) if names else set()
    return (
        tuple(s for v, s in surfaced.items() if v not in places and v not in kept_values),
        places,
    )


#: Why the session pass surfaced a value (``Surfaced.reason``): the
#: detector's verdict on a name it only guessed at, a part of such a name
#: written alone, a value's other writing.
_GUESSED_NAME = "a guessed name (verdict)"
_PART_OF_A_NAME = "a surfaced name's part alone"
_OTHER_CASING = "another casing"


def _other_casings(
    redacted: Session, surfaced: dict[str, Surfaced], entity_of: dict[str, str]
) -> dict[str, tuple[str, str]]:
    """A name or street word surfaced or replaced, written elsewhere in the
    session in another casing that nothing replaced ("cihlářova" beside
    "Cihlářova" surfaced, "vašátkova" beside the street "Vašátkova 12"
    replaced): the same value, so surfaced too (the replacer matches one
    word only as written or in capitals, and a word English writes in lower
    case is no value: only words of four letters or more that a name's or
    a street's). A replaced person's word so surfaced is then replaced
    (``with_people_decided``). So is a street's name written alone without
    its number, in any casing (``street_names``). Words are keyed as the
    matcher folds case (``fold``), not by ``str.casefold``: the re module
    matches "BIÇAKÇI" with "bıçakçı", which casefold apart. Value ->
    (entity, reason)."""
    words: dict[str, str] = {}
    streets: set[str] = set()
    values = [*((v, s.entity) for v, s in surfaced.items()), *entity_of.items()]
    for value, entity in values:
        if entity not in ("PERSON", "STREET_ADDRESS"):
            continue
        for word in LETTER_WORD.findall(value):
            if len(word) >= 4 and not an_english_word(word.casefold(), 3.0):
                words.setdefault(fold(word), entity)
        if entity == "STREET_ADDRESS":
            streets.update(fold(name) for name in street_names(value))
        if value in surfaced and " " in value:
            # The value whole in another casing: one decision, not one per word.
            words.setdefault(fold(value), entity)
    if not words and not streets:
        return {}
    written = {w for value in (*surfaced, *entity_of) for w in LETTER_WORD.findall(value)}
    matcher = WholeWords(any_case=[*words, *streets])
    decided = WholeWords(exact=surfaced)
    found: dict[str, tuple[str, str]] = {}
    for _key, leaf in session_texts(redacted):
        if isinstance(leaf, str):
            # Not inside a value surfaced already: the reviewer decides it whole.
            inside = _Spans(decided.spans(leaf))
            for s, e in matcher.spans(leaf):
                if inside.cover(s, e) or place_around(leaf, s, e):
                    # Inside a value surfaced already, or a word of a town's
                    # name in a place's slot ("based in lake elnur").
                    continue
                value = leaf[s:e]
                if fold(value) in streets:
                    # A street's name written alone, in any casing ("I have
                    # noted Diagonal Rivadavia on your file").
                    found.setdefault(value, ("STREET_ADDRESS", STREET_NAME_ALONE))
                elif value not in written and value not in surfaced:
                    found.setdefault(value, (words[fold(value)], _OTHER_CASING))
    return found


def _replaced_blocks_parts(redacted: Session, entity_of: dict[str, str]) -> dict[str, str]:
    """A line of a replaced address with no number ("Sal T", a floor; the
    session pass replaces only its lines that hold one, ``address_parts``)
    or a postcode in no country's real shape ("N4L 3U0"), written alone
    elsewhere in the session (``block_parts``, found as the unsure pass
    finds a surfaced street's: ``street_parts_alone``): left as written, so
    surfaced, fail closed. Part -> the address it is part of."""
    streets = [value for value, entity in entity_of.items() if entity == "STREET_ADDRESS"]
    if not streets:
        return {}
    leaves = [leaf for _key, leaf in session_texts(redacted) if isinstance(leaf, str)]
    found: dict[str, str] = {}
    for street, parts in street_parts_alone(streets, leaves, names=False).items():
        for part, _reason in parts:
            if part not in entity_of:
                found[part] = street
    return found


class _Spans:
    """Spans in order and disjoint (``WholeWords.spans``), asked whether one
    of them covers a stretch: only the last to start at or before it can,
    found by bisection. Each match of a 1 MiB message was tested against
    every value surfaced in it (8 million tests)."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        self._spans = list(spans)
        self._starts = [start for start, _end in self._spans]

    def cover(self, start: int, end: int) -> bool:
        """Whether a span holds the whole of ``[start, end)``."""
        at = bisect.bisect_right(self._starts, start) - 1
        return at >= 0 and end <= self._spans[at][1]


class _Straddling:
    """The occurrences of the values that must stay whole in a string (in
    order of start), asked whether a stretch cuts into one: overlaps it
    without holding it whole. Only those starting less than the longest one's
    length before the stretch can overlap it, found by bisection: each match
    of a 1 MiB message was tested against every occurrence of every value
    surfaced in it."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        self._spans = list(spans)
        self._starts = [start for start, _end in self._spans]
        self._longest = max((end - start for start, end in self._spans), default=0)

    def __bool__(self) -> bool:
        return bool(self._spans)

    def cut_by(self, start: int, end: int) -> bool:
        """Whether ``[start, end)`` overlaps one without holding it whole."""
        first = bisect.bisect_right(self._starts, start - self._longest)
        last = bisect.bisect_left(self._starts, end)
        return any(start < e and not (start <= s and e <= end) for s, e in self._spans[first:last])


def _collect(
    leaves: list[tuple[str | None, Any]],
    found: dict[str, list[Detection]],
    policy: SessionRules,
) -> tuple[dict[str, str], list[str], dict[str, str], set[str], set[str]]:
    """Every personal value of the session -> its entity, first sighting wins,
    key rules and identifier patterns before the detector; the phrases that
    name a thing, case-folded (the values of name keys that name one, and the
    phrases a kept detection named); the values the detector is unsure of
    -> their entity; and the values kept as written (a guessed name the
    session shows to be a thing, ``named_as_things``, or a detection kept
    whole, as a code on a route); and the values of a firm's key that read
    as a person's name ("company": "Eddie Bauer"), surfaced, not replaced:
    a firm named after its founder, or a marketplace's seller who is a
    person, the reviewer tells apart."""
    entity_of: dict[str, str] = {}
    things: list[str] = []
    unsure_of: dict[str, str] = {}
    firm_slots: set[str] = set()
    for key, leaf in leaves:
        if not key or leaf in (None, "", True, False):
            continue
        entity = policy.keys.entity(key)
        if entity:
            entity_of.setdefault(str(leaf).strip(), entity)
        elif isinstance(leaf, str) and policy.keys.names_a_thing(key, leaf):
            things.append(leaf.strip().casefold())
        elif isinstance(leaf, str) and policy.keys.holds_a_named_thing(key):
            firm_slots.add(leaf.strip())
    # What the words around a name make a thing, wherever it stands: a
    # product named like a person filling a string ("Elsa dining chair" as a
    # search's query), a firm running into its legal form ("Bonneau SA"),
    # a job and a firm someone works as and at.
    things += (
        phrase.casefold()
        for _key, leaf in leaves
        if isinstance(leaf, str) and leaf.strip()
        for phrase in things_named_in(leaf)
    )
    for _key, leaf in leaves:
        if isinstance(leaf, str):
            for entity, pattern in policy.identifier_patterns:
                for m in pattern.finditer(leaf):
                    entity_of.setdefault(m.group(0), entity)
    named_things = list(things)
    in_things = _Inside(named_things)
    placed = [
        (leaf, d) for _key, leaf in leaves if isinstance(leaf, str) for d in found.get(leaf, ())
    ]
    detections = [d for _leaf, d in placed]
    things += (
        d.thing.casefold()
        for d in detections
        if d.verdict == "keep" and d.thing and d.thing != d.value
    )
    # A guessed name the session shows to be an airfield or an airport's
    # code where it stands ("Shannon Airport", "MAN-BEG") is that place
    # wherever else it stands ("to": "Shannon"): kept, not replaced or
    # surfaced.
    kept_whole = {d.value for d in detections if d.verdict == "keep" and d.thing == d.value}
    guesses = {d.value for d in detections if d.guessed and d.verdict != "keep"}
    as_things = (guesses & kept_whole) | named_as_things(leaves, guesses - kept_whole)
    # Names joined into one value ("Carter, Mitchell and Ingram", "Guit &
    # Sas"), the whole of a string of the session: one field holding them
    # names one firm, not several people; so does the place someone works at.
    for firm in _joined_names_alone(leaves) | _employers(leaves):
        members = {v for v in guesses - as_things if _a_word_of(v, firm)}
        if members:
            as_things |= members
            things.append(firm.casefold())
    # Kept as written, not as a case-folded phrase: the phrases keep
    # ``unsure`` off every casing of them, and "Fulda" kept as a place
    # says nothing of "FULDA" or "fulda" elsewhere (a person's, maybe).
    kept_values = as_things | kept_whole
    for leaf, d in placed:
        if d.verdict == "keep" or (d.guessed and d.value in as_things):
            continue
        # "Orion" in "I returned the Orion X5 Blender" is the product the tool
        # result names, not a person: a NER hit each of whose occurrences in
        # its string is inside such a phrase. (Only there: "Orion" alone in
        # another string may be a person's. A phrase a kept detection named
        # is not read so.)
        if d.entity in NER_TYPES and in_things.covers(leaf, d.value):
            continue
        if d.verdict == "replace" and not (d.entity == "PERSON" and leaf.strip() in firm_slots):
            entity_of.setdefault(d.value, d.entity)
        else:
            unsure_of.setdefault(d.value, d.entity)
    entity_of.pop("", None)
    return entity_of, things, unsure_of, kept_values, firm_slots & set(unsure_of)


class _Inside:
    """Whether a value stands, everywhere in a string, inside the phrases
    that name things (case-folded, matched in any case)."""

    def __init__(self, phrases: list[str]) -> None:
        self._folded = sorted(set(phrases), key=len, reverse=True)
        alternation = "|".join(re.escape(p) for p in self._folded)
        self._phrases = re.compile(rf"(?i)(?<!\w)(?:{alternation})(?!\w)") if phrases else None
        self._inside: dict[str, list[tuple[int, int]]] = {}

    def covers(self, leaf: str, value: str) -> bool:
        # Read only for a value some phrase holds (a long text's many hits
        # are not each matched over it).
        folded = value.casefold()
        if self._phrases is None or not any(folded in phrase for phrase in self._folded):
            return False
        if leaf not in self._inside:
            self._inside[leaf] = [m.span() for m in self._phrases.finditer(leaf)]
        inside = self._inside[leaf]
        spots = [m.span() for m in re.finditer(rf"(?i)(?<!\w){re.escape(value)}(?!\w)", leaf)]
        return bool(spots) and all(any(s <= a and b <= e for s, e in inside) for a, b in spots)


def things_named_in(text: str) -> list[str]:
    """The phrases of ``text`` that name things by the words in and around
    them: the whole of a short string that is a name and an ordinary noun
    ("Elsa dining chair", a product a tool was asked about: a person is not
    written so, alone in a field); a firm's name running into its legal
    form ("Maillard Klein SA"); the job and the firm after "I work as a ...
    at ...". Long texts are not read for them (kept linear: a thing missed
    is surfaced, not leaked)."""
    if len(text) > _THINGS_READ_UP_TO:
        return []
    from miner.redaction.verdict import companies_in, jobs_in, product_named_like_a_person

    found = [*companies_in(text), *jobs_in(text), *(f for f in _employers([(None, text)]))]
    if product_named_like_a_person(text.strip()):
        found.append(text.strip())
    return found


#: The longest string ``things_named_in`` reads.
_THINGS_READ_UP_TO = 4000


#: Capitalised names (with their particles) joined into one by a
#: conjunction or "&", commas before it ("Carter, Mitchell and Ingram",
#: "van den Berg & Brands"). Not by a comma alone ("Smith, John" is one
#: person), nor a hyphen: "Drake-Martin" alone in a field is a firm's
#: name, but "Jean-Pierre" or "García-López" is a person's (the held-out
#: tune set's "Jean-Pierre" was kept so).
_NAME = r"(?:(?:van|von|de|den|der|del|della|di|da|du|le|la|ter|ten)[ \t]+)*[^\W\d_a-z][\w'’.]*"
_JOINED_NAMES = re.compile(rf"{_NAME}(?:,[ \t]+{_NAME})*,?[ \t]+{AND}[ \t]+{_NAME}")


def _joined_names_alone(leaves: Iterable[tuple[str | None, Any]]) -> set[str]:
    """The strings of the session that are each, whole, names joined into
    one, not all of them common first names ("Mary-Jane", "Anna and Paul")."""
    from miner.redaction.lexicon.names import common_in_english

    return {
        leaf.strip()
        for _key, leaf in leaves
        if isinstance(leaf, str)
        and len(leaf) <= 120
        and _JOINED_NAMES.fullmatch(leaf.strip())
        and not all(
            common_in_english(w) for w in re.findall(r"[^\W\d_]{2,}", leaf) if w[0].isupper()
        )
    }


#: Where a speaker says where they work: "I work as a surveyor at White,
#: Higgins and Shaw", "working at Rutten Groep". (Not "for": "she works for
#: Maria Lopez" names a person as often as a firm.)
_FIRM_WORD = (
    r"(?:(?:van|von|de|den|der|del|della|di|da|du|le|la|ter|ten)[ \t]+)*[^\W\d_a-z][\w'’-]*"
)
_EMPLOYER = re.compile(
    r"(?i:\bwork(?:s|ed|ing)?(?:[ \t]+as[ \t]+an?[ \t]+[^.;:!?\n<>]{1,60}?)?[ \t]+at)[ \t]+"
    rf"({_FIRM_WORD}(?:(?:,[ \t]+|[ \t]+{AND}[ \t]+|[ \t]+){_FIRM_WORD})*)"
)


def _employers(leaves: Iterable[tuple[str | None, Any]]) -> set[str]:
    """The names of the firms the session says someone works at."""
    return {
        m.group(1)
        for _key, leaf in leaves
        if isinstance(leaf, str) and "work" in leaf.casefold()
        for m in _EMPLOYER.finditer(leaf)
    }


def _a_word_of(value: str, phrase: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(value)}(?!\w)", phrase) is not None


def named_as_things(leaves: Iterable[tuple[str | None, Any]], values: Iterable[str]) -> set[str]:
    """Those of ``values`` (names only guessed at) that stand somewhere in
    the session's ``leaves`` where the words around them make an airfield
    or an airport's code of them (``stands_as_a_thing``: "Shannon Airport",
    "MAN-BEG")."""
    values = set(values)
    if not values:
        return set()
    matcher = WholeWords(exact=values)
    found: set[str] = set()
    for _key, leaf in leaves:
        if not isinstance(leaf, str):
            continue
        text = read_escaped_breaks(leaf)
        for start, end in matcher.spans(leaf):
            if leaf[start:end] not in found and stands_as_a_thing(text, start, end):
                found.add(leaf[start:end])
    return found


def _link_parts(entity_of: dict[str, str]) -> dict[str, str]:
    """Part -> the value it is part of, each part added to ``entity_of``.

    A person found by full name is also found by each part of it: "Done,
    Rahul." after "I'm Rahul Mehta" (the small NER model misses a lone first
    name); an address by its numbers of three digits or more, a house number
    or postcode repeated alone ("the parcel for 71210"), and by its street
    line."""
    part_of: dict[str, str] = {}
    for value, entity in list(entity_of.items()):
        for part in _parts(value, entity):
            if part != value and entity_of.get(part, entity) == entity and part not in part_of:
                # Found alone too ("Done, Rahul."): still the whole value's part.
                part_of[part] = value
                entity_of.pop(part, None)
                entity_of[part] = entity
    return part_of


def _parts(value: str, entity: str) -> list[str]:
    """The parts of a value that name what it names when written alone."""
    if entity == "PERSON" and " " in value:
        return name_parts(value)
    if entity == "STREET_ADDRESS":
        return address_parts(value)
    return []


def _link_grown_names(
    leaves: list[tuple[str | None, Any]], entity_of: dict[str, str], part_of: dict[str, str]
) -> None:
    """A name found elsewhere in the session and written here with more of it
    ("Zurita" after "Dear", here "Ramona Sarabia Zurita"; "Tore" and
    "Arvidsson" around a middle initial) grows as a detected name does;
    what it grew to shares its placeholder, and its new words are its parts."""
    for grown, seed in _grown_names(leaves, entity_of).items():
        entity_of[grown] = "PERSON"
        part_of[grown] = seed
        seed_words = {word.casefold() for word in seed.split()}
        for part in name_parts(grown):
            # The seed's own words in another case stay the seed's: linked
            # to the grown name, "Araujo" -> "GABRIELLY ARAUJO" -> "ARAUJO"
            # -> "Araujo" would go round.
            if part not in entity_of and part.casefold() not in seed_words:
                entity_of[part] = "PERSON"
                part_of[part] = grown


def _grown_names(leaves: list[tuple[str | None, Any]], entity_of: dict[str, str]) -> dict[str, str]:
    """Each longer name that a person value of the session grows to where it
    is written (``grown_name``), -> the value it grew from."""
    people = [v for v, entity in entity_of.items() if entity == "PERSON"]
    if not people:
        return {}
    matcher, exact, folded = value_matcher(people)
    grown: dict[str, str] = {}
    for _key, leaf in leaves:
        if not isinstance(leaf, str):
            continue
        text = read_escaped_breaks(leaf)
        for start, end in matcher.spans(leaf):
            s, e = grown_name(text, start, end)
            if (s, e) != (start, end) and leaf[s:e] not in entity_of:
                seed = leaf[start:end]
                grown.setdefault(leaf[s:e], exact.get(seed) or folded[fold(seed)])
    return grown


def _numbered(entity_of: dict[str, str], part_of: dict[str, str]) -> dict[str, str]:
    """Value -> its placeholder, numbered per type in order of first sighting;
    the parts of a name share the placeholder of the whole name. A value in
    capitals found on its own ("ZELDA") shares the placeholder of the same
    value as written elsewhere ("Zelda")."""
    capitals_of = {
        value: value.title()
        for value, entity in entity_of.items()
        if value.isupper() and entity_of.get(value.title()) == entity and value.title() != value
    }
    counters: Counter[str] = Counter()
    placeholder: dict[str, str] = {}
    for value, entity in entity_of.items():
        if value not in part_of and value not in capitals_of:
            counters[entity] += 1
            placeholder[value] = f"<{entity}_{counters[entity]}>"
    for value in [*part_of, *capitals_of]:
        # ZELDA -> Zelda -> Zelda Quux; ANTON -> ANTON VALDEZ -> Anton Valdez.
        same = value
        while same not in placeholder:
            same = part_of.get(same) or capitals_of[same]
        placeholder[value] = placeholder[same]
    return placeholder


class _Replacer:
    """Replaces every occurrence of a session's values in its leaves, the
    longest value at each place so an e-mail address goes before the name
    inside it. Values of several words (and e-mails) match in any case
    ("ALEX MORGAN", "alex morgan"); a single word matches as written or in
    capitals, so the name "Will" leaves "will" alone."""

    def __init__(
        self,
        entity_of: dict[str, str],
        placeholder: dict[str, str],
        keys: KeyRules | None = None,
        detector: Detector | None = None,
        uncut: Iterable[str] = (),
    ) -> None:
        """Without ``keys`` and ``detector``: a session already replaced once
        (no key's value is replaced whole, spans are cut out as found).
        ``uncut``: values no replacement may cut into (the values still
        surfaced), only take whole."""
        self.replaced: Counter[str] = Counter()
        """Occurrences replaced, per entity type."""
        self.towns: set[str] = set()
        """The towns' names a one-word name was left in (``town_around``)."""
        self._entity_of = entity_of
        self._placeholder = placeholder
        self._keys = keys
        self._detector = detector
        self._uncut = WholeWords(exact=uncut)
        self._house_numbers = {
            number: value
            for value, entity in entity_of.items()
            if entity == "STREET_ADDRESS"
            for number in house_number_values(value)
        }
        self._occurrence, self._exact, self._folded = value_matcher(placeholder)
        # In a line written all in lower case ("hi, this is nicola", above a
        # signature in capitals), a one-word name found elsewhere in the session
        # is matched in lower case too.
        lowered = {
            v.lower(): v for v in self._exact.values() if entity_of[v] == "PERSON" and v.isalpha()
        }
        self._in_lower_text = WholeWords(exact=lowered)
        # One that English does not write as a word (under 10 per million words:
        # "valérie", "rivera"; not "mark", "rose", "green") is matched in lower
        # case in any line ("could not verify valérie").
        self._in_any_text = WholeWords(
            exact=[low for low in lowered if not an_english_word(low, 4.0)]
        )
        for low, value in lowered.items():
            self._exact.setdefault(low, value)

    def _canonical(self, text: str) -> str | None:
        return (
            self._exact.get(text) or self._folded.get(fold(text)) or self._house_numbers.get(text)
        )

    def _lookup(self, text: str) -> str:
        value = self._canonical(text.strip())
        if value is not None:
            return self._placeholder[value]
        # Presidio's anonymizer merged adjacent hits ("Zelda" + "Quux") into one
        # span: replace each value inside it, so no detected character survives.
        return self._occurrence.sub(
            lambda found: self._placeholder[self._canonical(found) or ""], text
        )

    def leaf(self, key: str | None, leaf: Any) -> Any:
        """``leaf`` (under ``key``) with its values replaced."""
        entity = self._keys.entity(key) if key and self._keys else None
        if entity and leaf not in (None, "", True, False):
            self.replaced[entity] += 1
            return self._placeholder.get(str(leaf).strip(), f"<{entity}>")
        if not isinstance(leaf, str):
            return leaf
        if leaf.strip() in self._house_numbers:
            self.replaced["STREET_ADDRESS"] += 1
            return self._placeholder[self._house_numbers[leaf.strip()]]
        spans = self._spans(leaf)
        if not spans:
            return leaf
        self.replaced.update(entity for _s, _e, entity in spans)
        if self._detector is None:
            pieces, done = [], 0
            for start, end, _entity in spans:
                pieces += [leaf[done:start], self._lookup(leaf[start:end])]
                done = end
            return "".join([*pieces, leaf[done:]])
        return self._detector.replace(leaf, spans, self._lookup)

    def _spans(self, leaf: str) -> list[tuple[int, int, str]]:
        """(start, end, entity) of the values in ``leaf``, in order, disjoint."""
        matches = list(self._occurrence.spans(leaf))
        if self._in_any_text:
            matches += self._in_any_text.spans(leaf)
        if self._in_lower_text:
            for start, line in _lower_case_lines(leaf):
                matches += ((start + s, start + e) for s, e in self._in_lower_text.spans(line))
        # A short house number where a value stands, not a count or a date
        # ("I have noted 15 on your file"; not "I ordered 15 mugs").
        if self._house_numbers:
            matches += house_numbers_alone(leaf, self._house_numbers)
        spans: list[tuple[int, int, str]] = []
        text = None
        # Found at the first match that could be cut: a replacing of a few
        # values in a 1 MiB message found the uncut ones' 20,000 occurrences
        # for none.
        whole: _Straddling | None = None
        for start, end in sorted(matches, key=lambda span: (span[0], -span[1])):
            value = self._canonical(leaf[start:end])
            if value is None or (spans and start < spans[-1][1]):
                continue
            if whole is None:
                whole = _Straddling(self._uncut.every_occurrence(leaf))
            if whole and whole.cut_by(start, end):
                continue  # inside a value that must stay whole ("Calle Cortés 12")
            entity = self._entity_of[value]
            if entity == "PERSON" and " " not in value:
                # A person's one word found elsewhere, here a word of a
                # town's name ("Miranda do Douro", "Lake Justin"): the
                # town is not that person; left as written.
                text = text or read_escaped_breaks(leaf)
                town = town_around(text, start, end)
                if town:
                    self.towns.add(leaf[town[0] : town[1]])
                    continue
            spans.append((start, end, entity))
        return spans


_LINE = re.compile(r"[^\n]+")


def _lower_case_lines(text: str) -> Iterator[tuple[int, str]]:
    """(offset, line) of the lines of ``text`` written without a capital
    (a break escaped as ``\\n`` ends a line too)."""
    if not any(c.isupper() for c in text):
        yield 0, text
        return
    for m in _LINE.finditer(read_escaped_breaks(text)):
        if not any(c.isupper() for c in m.group(0)):
            yield m.start(), text[m.start() : m.end()]
