"""The recognizers' bounded searches find what the unbounded ones they
replaced found (the old searches are kept here as oracles): the bounds are
for long texts' sake and must change no result."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from miner.redaction.lexicon.dates import dates_before_birth_cues, dob_cue_regexes
from miner.redaction.lexicon.names import _LIST_BEFORE, _list_member_before

#: Pieces a list of names is made of, and what breaks one.
_PIECES = st.sampled_from(
    ["Ann", "Lee", "O'Neil", "Barth-Rosenow", "Šebková", "ARAUJO", "and", "&", ",", " ", " ",
     "  ", "\n", "Dr", ".", "x", "Inc", "'s", "’"]
)  # fmt: skip


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(_PIECES, max_size=40))
def test_list_member_before_is_the_unbounded_search(pieces: list[str]) -> None:
    text = "".join(pieces)
    for position in range(len(text) + 1):
        old = _LIST_BEFORE.search(text[:position])
        new = _list_member_before(text, position)
        assert (old and (old.span(), old.span(1))) == (new and (new.span(), new.span(1)))


def test_list_member_before_on_a_list_of_three() -> None:
    text = "call Ann Lee, Bo Stone and Cy Brown"
    member = _list_member_before(text, text.index("Cy"))
    assert member is not None and member.group(1) == "Bo Stone"
    member = _list_member_before(text, text.index("Bo"))
    assert member is not None and member.group(1) == "Ann Lee"
    assert _list_member_before(text, text.index("Ann")) is None


#: Pieces of a text with birth cues and dates, and what stands between them.
_BIRTH_PIECES = st.sampled_from(
    ["born", "birthday", "date of birth", "D.O.B.", "geboren", "3 May 1970", "12/03/1980",
     "Wednesday, ", "1er mai 1970", "March the 3rd, 1999", "is my", " ", " ", "\n", "   ",
     "\t", ".", "!", "x", "I was", "on", "12", "1970", "de", "of", ","]
)  # fmt: skip


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(_BIRTH_PIECES, max_size=30))
def test_dates_before_birth_cues_are_the_unbounded_search(pieces: list[str]) -> None:
    text = "".join(pieces)
    old = [m.span() for m in re.finditer(dob_cue_regexes()[1], text)]
    assert [m.span() for m in dates_before_birth_cues(text)] == old


def test_dates_before_birth_cues_far_apart() -> None:
    text = (" filler words" * 300 + " ").join(
        ["3 May 1970 is my birthday", "on 4 June 1980, born", ""]
    )
    found = [m.group("value") for m in dates_before_birth_cues(text)]
    assert found == ["3 May 1970", "4 June 1980"]
    assert found == [m.group("value") for m in re.finditer(dob_cue_regexes()[1], text)]


#: Street endings and the words around them, in any case, to glue into words.
_STREET_PIECES = st.sampled_from(
    ["stra", "ße", "sse", "str.", "ring", "en", "gat", "an", "a", "e", "vä", "g", "ská", "ní",
     "SKÁ", "Ring", "Allee", "weg", "laan", "Schul", "Kirke", "bakk", "-", " ", "12", " 4", "\n",
     "ſ", "K"]
)  # fmt: skip


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(_STREET_PIECES, max_size=12))
def test_street_endings_grouped_by_first_letter_match_as_the_flat_alternation(
    pieces: list[str],
) -> None:
    from miner.redaction.lexicon.wordmatch import grouped_alternation

    endings = r"stra(?:ß|ss)e str\. ring ringen gatan gata gate väg ská vägen ní allee weg laan"
    flat = re.compile(rf"(?i:[\w'’-]{{2,}}?(?:{'|'.join(endings.split())})(?:[ \t]\d+|\b))")
    grouped = re.compile(
        rf"(?i:[\w'’-]{{2,}}?{grouped_alternation(endings.split())}(?:[ \t]\d+|\b))"
    )
    text = "".join(pieces)
    assert [m.span() for m in flat.finditer(text)] == [m.span() for m in grouped.finditer(text)]


def test_street_endings_grouped_by_first_letter() -> None:
    from miner.redaction.lexicon.wordmatch import grouped_alternation

    grouped = grouped_alternation(["ring", "weg", "ringen", r"str\."])
    assert grouped == r"(?:r(?:ing|ingen)|w(?:eg)|s(?:tr\.))"


def test_street_types_grouped_by_first_character() -> None:
    # The street cue's hundred alternatives entered one group per place:
    # half its CPU on a 1 MiB message's stretches in lower case.
    from miner.redaction.lexicon.wordmatch import grouped_alternation

    alternatives = [
        "Via",
        "Viale",
        r"C\.(?=[ \t]+del?\b)",
        r"[Uu]l\.",
        "a?b",
        "(?i:rue|x)",
        "C/",
    ]
    grouped = grouped_alternation(alternatives)
    assert grouped == r"(?:V(?:ia|iale)|C(?:\.(?=[ \t]+del?\b)|/)|[Uu]l\.|a?b|(?i:rue|x))"


#: Street types and the words around them, in any case and glued, to ask
#: the street cue of.
_STREET_CUE_PIECES = st.sampled_from(
    ["Via", "via", "VIALE", "C.", "C/", " del", "Av", " Paulista", "ul.", "Ul.", "al.", " Jana",
     "Λεωφ.", "ул.", "rue", "Place", " de", "street", "St.", "st", ".", "crescent", "Schul",
     "straße", "STRASSE", "weg", "Veien", "x", " ", "-", "\n", "1", "ſ", "K", "é"]
)  # fmt: skip


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(_STREET_CUE_PIECES, max_size=10), st.integers(0, 3), st.integers(0, 3))
def test_the_street_cue_matches_as_its_flat_alternation(
    pieces: list[str], cut_start: int, cut_end: int
) -> None:
    from miner.redaction.lexicon.addresses import _STREET_TYPES_BEFORE, STREET_CUE

    flat = re.compile(
        r"(?i:\d|(?<!\w)(?:"
        + _STREET_TYPES_BEFORE
        + r"|street|st\.|road|avenue|lane|drive|boulevard|close|crescent)(?!\w)"
        + r"|(?:stra(?:ß|ss)e|str\.|allee|gasse|platz|chaussee|weg|laan|straat|steeg|gracht"
        + r"|singel|dreef|gatan|vägen|veien|baan|stræti|vegur)(?!\w))"
    )
    text = "".join(pieces)
    end = max(0, len(text) - cut_end)
    start = min(cut_start, end)
    assert (flat.search(text, start, end) is None) == (STREET_CUE.search(text, start, end) is None)
    assert (flat.fullmatch(text) is None) == (STREET_CUE.fullmatch(text) is None)


#: Literals whose order of trial matters ("ab" before "abc") and first
#: characters the re module matches with others ignoring case ("K" and the
#: Kelvin sign, "s" and "ſ", "İ"), and pieces of text around them.
_LITERALS = ["ab", "abc", "Abd", "Kelvin", "kilo", "Kw", "ſtop", "stand", "İz", "iz", "DNI", "dni"]
_TEXT_PIECES = st.sampled_from([*_LITERALS, "a", "b", "c", "d", "K", "k", "S", "s", "ı", " ", "-"])


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    st.lists(st.sampled_from(_LITERALS), min_size=1, max_size=8, unique=True),
    st.lists(_TEXT_PIECES, max_size=20),
    st.booleans(),
)
def test_literals_grouped_by_first_character_match_as_the_flat_alternation(
    literals: list[str], pieces: list[str], ignore_case: bool
) -> None:
    from miner.redaction.lexicon.wordmatch import grouped_alternation

    flags = re.IGNORECASE if ignore_case else 0
    flat = re.compile(rf"(?<![\w-])(?P<name>{'|'.join(map(re.escape, literals))})", flags)
    alternation = grouped_alternation(map(re.escape, literals), fold_case=ignore_case)
    grouped = re.compile(rf"(?<![\w-])(?P<name>{alternation})", flags)
    text = "".join(pieces)
    assert [(m.span(), m.group("name")) for m in flat.finditer(text)] == [
        (m.span(), m.group("name")) for m in grouped.finditer(text)
    ]


def test_literals_grouped_by_first_character() -> None:
    from miner.redaction.lexicon.wordmatch import grouped_alternation

    assert grouped_alternation(["NIE", "PIN", "NIF"]) == "(?:N(?:IE|IF)|P(?:IN))"
    # The Kelvin sign is "k" ignoring case: one group, in the order given.
    assert (
        grouped_alternation(["kilo", "Kw", "\u212aelvin"], fold_case=True) == "(?:k(?:ilo|w|elvin))"
    )
