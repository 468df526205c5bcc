"""miner.redaction.lexicon.wordmatch finds what the regex alternations it replaced found.

redact.py and leaks.py used to build one alternation of every value,
``(?<!\\w)(?:v1|v2|...)(?!\\w)``; on a long text with thousands of values
that pass was quadratic. The alternations live on here, copied from the code
they were in, as the oracles: a hypothesis property compares them with the
trie on generated value sets and texts (Unicode case corners, values that are
prefixes of others, regex metacharacters), and the third-party corpus's texts
and values are compared whole."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from miner.redaction.guard import _original_patterns
from miner.redaction.lexicon.wordmatch import WORD_START, WholeWords, fold, value_matcher
from miner.redaction.surfaced import occurrences

# -- the oracles: the alternations as they were in miner/ ---------------------
# (with a word start after an escaped line break, WORD_START, as miner has it since)


def redact_alternation(values: list[str]) -> re.Pattern[str]:
    """miner/redact.py's ``occurrence`` before the trie, unchanged."""
    patterns: list[str] = []
    for value in sorted(values, key=len, reverse=True):
        if " " in value.strip() or "@" in value:
            patterns.append(f"(?i:{re.escape(value)})")
        else:
            patterns.append(re.escape(value))
            if value.upper() != value and any(c.isalpha() for c in value):
                patterns.append(re.escape(value.upper()))
    return re.compile(rf"{WORD_START}(?:{'|'.join(patterns)})(?!\w)")


def leaks_alternation(originals: dict[str, str]) -> re.Pattern[str] | None:
    """miner/leaks.py's ``_original_patterns`` regex before the trie, unchanged."""
    patterns: list[str] = []
    for value in originals:
        value = value.strip()
        digits = re.sub(r"\D", "", value)
        if len(digits) >= 6 and len(digits) * 2 >= len(re.sub(r"\W", "", value)):
            continue
        if len(value) >= 3 and any(c.isalpha() for c in value):
            if " " in value or "@" in value or digits:
                patterns.append(f"(?i:{re.escape(value)})")
            else:
                forms = {value, value.upper(), value[:1].upper() + value[1:]}
                patterns.extend(re.escape(f) for f in forms)
    if not patterns:
        return None
    patterns.sort(key=len, reverse=True)
    return re.compile(rf"{WORD_START}(?:{'|'.join(patterns)})(?!\w)")


def leaks_entity_of(text: str, originals: dict[str, str]) -> str:
    """The entity the leak guard gives a hit: that of the first original the
    hit is a form of (as written, in capitals, capitalised) in the matcher's
    case relation. Before, the lookup was by ``str.casefold``, which is not
    that relation: "MİRİ" was found for "miri" and then named no entity."""
    for value, entity in originals.items():
        value = value.strip()
        forms = (value, value.upper(), value[:1].upper() + value[1:])
        if fold(text) in {fold(form) for form in forms}:
            return entity
    return "PERSONAL"


def literal_alternation(exact: list[str], any_case: list[str]) -> re.Pattern[str]:
    """The alternation with each literal placed by its own length, longest first."""
    literals = [(v, re.escape(v)) for v in exact if v] + [
        (v, f"(?i:{re.escape(v)})") for v in any_case if v
    ]
    literals.sort(key=lambda pair: len(pair[0]), reverse=True)
    return re.compile(rf"{WORD_START}(?:{'|'.join(p for _v, p in literals)})(?!\w)")


def spans(pattern: re.Pattern[str] | None, text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text)] if pattern else []


# -- generated value sets and texts --------------------------------------------

#: Case corners (ß -> SS, dotted and dotless i, long s, Kelvin sign, the three
#: sigmas, iota subscript, micro sign, ligatures, titlecase digraphs, n
#: preceded by apostrophe), combining marks, word and non-word punctuation,
#: regex metacharacters, digits and blanks.
ALPHABET = list(
    "aAbBsSſßkKKiIİıσςΣͅιΙᾳµμΜéÉfFﬁﬀǄǅǆŉ\u0301\u0307ʼ12 \u00a0\t\n-.'’@+()[]{}*?\\|^$_#&~,"
)
_text = st.text(alphabet=ALPHABET, min_size=1, max_size=7)


def variants(value: str) -> list[str]:
    return [value, value.upper(), value.lower(), value.swapcase(), value.title(), value.casefold()]


@st.composite
def values_and_text(draw: st.DrawFn) -> tuple[list[str], list[str], str]:
    """(exact values, any-case values, a text made of their variants): some
    values are prefixes or extensions of others."""
    base = draw(st.lists(_text, min_size=1, max_size=8))
    for value in list(base):
        if len(value) > 1 and draw(st.booleans()):
            base.append(value[: draw(st.integers(1, len(value) - 1))])  # a prefix
        if draw(st.booleans()):
            base.append(value + draw(_text))  # an extension
    in_any_case = draw(st.lists(st.booleans(), min_size=len(base), max_size=len(base)))
    exact = [v for v, folded in zip(base, in_any_case, strict=True) if not folded]
    any_case = [v for v, folded in zip(base, in_any_case, strict=True) if folded]
    pieces = draw(
        st.lists(
            st.one_of(st.sampled_from([w for v in base for w in variants(v)]), _text),
            max_size=14,
        )
    )
    return exact, any_case, "".join(pieces)


PROPERTY = settings(
    max_examples=500,
    derandomize=True,  # the same examples on every run: CI is repeatable
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@PROPERTY
@given(values_and_text())
def test_the_trie_finds_what_the_alternation_finds(case):
    exact, any_case, text = case
    found = list(WholeWords(exact, any_case).spans(text))
    assert found == spans(literal_alternation(exact, any_case), text)


@PROPERTY
@given(values_and_text())
def test_redaction_finds_what_its_alternation_found(case):
    exact, any_case, text = case
    values = exact + any_case
    matcher, _exact, _folded = value_matcher(values)
    # The old alternation placed a value's capitals by the value's length; where
    # they are longer ("ß" -> "SS") it could stop at a shorter value inside a
    # longer one and leave the rest. The trie takes the longest: tested below.
    assume(all(len(v.upper()) == len(v) for v in values))
    assert list(matcher.spans(text)) == spans(redact_alternation(values), text)


@PROPERTY
@given(values_and_text(), st.lists(st.sampled_from(["PERSON", "EMAIL_ADDRESS"]), min_size=30))
def test_the_leak_guard_finds_what_its_alternation_found(case, entities):
    exact, any_case, text = case
    originals = dict(zip(exact + any_case, entities, strict=False))
    words, entity_by_text, _numbers = _original_patterns(originals)
    found = list(words.spans(text))
    assert found == spans(leaks_alternation(originals), text)
    assert [entity_by_text.get(fold(text[s:e]), "PERSONAL") for s, e in found] == [
        leaks_entity_of(text[s:e], originals) for s, e in found
    ]


@PROPERTY
@given(values_and_text())
def test_every_occurrence_is_what_occurrences_finds_value_by_value(case):
    # The session pass asks, in one pass, what surfaced.occurrences answered
    # one value at a time: the same spans, overlaps between values included.
    exact, any_case, text = case
    values = exact + any_case
    expected = sorted({o for v in values for o in occurrences(text, v)})
    assert list(WholeWords(exact=values).every_occurrence(text)) == expected


def test_every_occurrence_keeps_one_values_apart_and_lets_two_overlap():
    text = "ab ab ab, Ana Lima Lima"
    matcher = WholeWords(exact=["ab ab", "Ana Lima", "Lima", "Lima Lima"])
    assert [text[s:e] for s, e in matcher.every_occurrence(text)] == [
        "ab ab",  # not again at 3: it would overlap its first occurrence
        "Ana Lima",
        "Lima",
        "Lima Lima",
        "Lima",
    ]


def test_where_the_alternation_stopped_short_the_trie_takes_the_longest_value():
    # "ßßßß-x" is 6 characters, its capitals "SSSSSSSS-X" 10: the old order put
    # them after the 8-character "SSSSSSSS", which matched first and left "-X".
    values = ["SSSSSSSS", "ßßßß-x"]
    text = "see SSSSSSSS-X now"
    assert spans(redact_alternation(values), text) == [(4, 12)]
    assert list(value_matcher(values)[0].spans(text)) == [(4, 14)]


@pytest.mark.parametrize(
    ("exact", "any_case", "text", "found"),
    [
        (["Will"], [], "Will will WILL", ["Will"]),  # exact: as written only
        (["Will", "WILL"], ["will smith"], "WILL SMITH, Will", ["WILL SMITH", "Will"]),
        (["Ann"], ["ann@x.io"], "mail ANN@X.IO or Ann.", ["ANN@X.IO", "Ann"]),
        (["Ann"], [], "Annabel, xAnn, Ann_, Ann", ["Ann"]),  # whole words only
        (["+1 (555) 0100"], [], "call+1 (555) 0100 or +1 (555) 0100", ["+1 (555) 0100"]),
        ([], ["σοφία ς"], "ΣΟΦΊΑ Σ", ["ΣΟΦΊΑ Σ"]),  # the re module's sigmas
        ([], ["straße 5"], "STRASSE 5, Straße 5", ["Straße 5"]),  # one for one
    ],
)
def test_examples(exact, any_case, text, found):
    matcher = WholeWords(exact, any_case)
    assert [text[s:e] for s, e in matcher.spans(text)] == found
    assert matcher.sub(lambda m: "<X>", text).count("<X>") == len(found)


def test_no_values_match_nothing():
    matcher = WholeWords([], [""])
    assert not matcher
    assert list(matcher.spans("anything")) == []
    assert matcher.sub(str.upper, "anything") == "anything"


# -- the third-party corpus ----------------------------------------------------

SEPARATOR = "\n=====\n"


@pytest.mark.parametrize("split", ["dev", "test"])
def test_on_the_third_party_corpus_both_find_the_same(split):
    """Every planted value of a split's texts over all of them joined, as a
    long message's session holds them: the redaction's matcher (and its
    lower-case one), and the leak guard's, against their alternations."""
    from tools.third_party_corpus import build_third_party_corpus

    labels = build_third_party_corpus(split, per_locale=60).labels
    text = SEPARATOR.join(labels)
    planted = {t[s:e]: kind for t, spans_of in labels.items() for s, e, kind in spans_of}
    planted.pop("", None)
    assert len(planted) > 500 and len(text) > 50_000  # big enough to mean something
    values = list(planted)
    matcher, exact, _folded = value_matcher(values)
    found = list(matcher.spans(text))
    assert len(found) > 500
    assert found == spans(redact_alternation(values), text)
    lowered = [v.lower() for v in exact.values() if v.isalpha()]
    assert list(WholeWords(exact=lowered).spans(text.lower())) == spans(
        literal_alternation(lowered, []), text.lower()
    )
    words, _entities, _numbers = _original_patterns(planted)
    assert list(words.spans(text)) == spans(leaks_alternation(planted), text)


def test_a_long_texts_reading_is_kept_inside_the_block_only(monkeypatch):
    # Inside long_texts_read_once a long text is folded once for every
    # matcher that reads it, with the same matches; outside, every time.
    from miner.redaction.lexicon import wordmatch

    folded: list[int] = []
    fold = wordmatch.fold
    monkeypatch.setattr(wordmatch, "fold", lambda text: folded.append(len(text)) or fold(text))
    text = "Call Zelda Quux or ALEX MORGAN at home. " * 4000  # 160,000 characters
    people, caps = WholeWords(exact=["Zelda"]), WholeWords(any_case=["alex morgan"])
    outside = [list(people.spans(text)), list(caps.spans(text))]
    assert folded.count(len(text)) == 2
    folded.clear()
    with wordmatch.long_texts_read_once():
        inside = [list(people.spans(text)), list(caps.spans(text)), list(people.spans(text))]
        short = "Zelda said hi"
        assert list(people.spans(short)) == [(0, 5)]
    assert inside == [*outside, outside[0]]
    assert len(inside[0]) == 4000 and len(inside[1]) == 4000
    assert folded.count(len(text)) == 1  # once for three matchers
    assert wordmatch._kept_reads is None  # let go when the block ends
    folded.clear()
    list(people.spans(text))
    assert folded.count(len(text)) == 1


def test_standing_reads_a_long_text_s_runs_not_the_trie(monkeypatch):
    # session._standing: the values that occur whole, as every_occurrence
    # finds them (after an escaped break, "}}"-led values, a trailing "@",
    # a value cut inside a word), without the trie walked from every word.
    import random

    from miner.redaction import session

    def old(texts: list[str], values: list[str]) -> set[str]:
        matcher = WholeWords(exact=values)
        return {t[s:e] for t in texts for s, e in matcher.every_occurrence(t)}

    cases = [
        (["hi\\nDiane: ok", "\\\\nMarc x"], ["Diane", "Marc", "nMarc", "hi"]),
        (
            ["}} Tallinn\n}} Estonia", "mail rahul.mehta@outlook.com"],
            ["}} Tallinn", "rahul.mehta@"],
        ),
        (["Ana Lima Limas, +33 6 12"], ["Ana Lima", "Lima", "+33 6", "Limas, +33"]),
    ]
    rng = random.Random(36)
    letters = ["a", "b", "n", "N", "t", " ", "_", "-", ".", "é", "\\", "}", "\n"]
    for _ in range(3000):
        texts = ["".join(rng.choice(letters) for _ in range(rng.randint(0, 25))) for _ in "ab"]
        words = [w for t in texts for w in re.findall(r"\S+", t)]
        values = [w[rng.randint(0, len(w)) :] for w in words] + [
            "".join(rng.choice(letters) for _ in range(rng.randint(1, 4))) for _ in range(4)
        ]
        cases.append((texts, values))
    expected = [old(texts, values) for texts, values in cases]

    def no_trie(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the trie was walked")

    monkeypatch.setattr(session, "WholeWords", no_trie)
    for (texts, values), found in zip(cases, expected, strict=True):
        assert session._standing(texts, values) == found, (texts, values)


def test_standing_finds_a_value_led_by_no_word_character_by_its_first_word(monkeypatch):
    # session._standing: a value that starts with no word character ("+33 6",
    # "(555) 12") is tried where its first word stands as a run of the text,
    # not searched for in each text (a 1 MiB message read once per value);
    # glued to a word before it ("x+33") it stands nowhere, after a line
    # break written "\\n" it does. Only a value without a word character is
    # searched for.
    import random

    from miner.redaction import session

    def old(texts: list[str], values: list[str]) -> set[str]:
        matcher = WholeWords(exact=values)
        return {t[s:e] for t in texts for s, e in matcher.every_occurrence(t)}

    cases = [
        (["call +33 6 12 or (555) 12"], ["+33 6", "(555) 12", "+33 6 1", "(55"]),
        (["x+33 6", "hi\\n+33 6"], ["+33 6"]),
        (["x+33 6"], ["+33 6"]),
        (["a}} b", "}}"], ["}}", "}} b"]),
    ]
    rng = random.Random(25)
    letters = ["a", "b", "n", "3", " ", "+", "(", ")", "_", "-", ".", "é", "\\", "}", "\n"]
    for _ in range(3000):
        texts = ["".join(rng.choice(letters) for _ in range(rng.randint(0, 25))) for _ in "ab"]
        values = [
            t[i : i + rng.randint(1, 6)] for t in texts if t for i in (rng.randrange(len(t)),)
        ]
        values += ["".join(rng.choice(letters) for _ in range(rng.randint(1, 4))) for _ in range(3)]
        cases.append((texts, values))
    expected = [old(texts, values) for texts, values in cases]
    assert expected[:3] == [{"+33 6", "(555) 12"}, {"+33 6"}, set()]
    occurrences = session.occurrences

    def searched_for(text: str, value: str) -> list[tuple[int, int]]:
        assert not re.search(r"\w", value), f"{value!r} was searched for"
        return occurrences(text, value)

    monkeypatch.setattr(session, "occurrences", searched_for)
    for (texts, values), found in zip(cases, expected, strict=True):
        assert session._standing(texts, values) == found, (texts, values)
