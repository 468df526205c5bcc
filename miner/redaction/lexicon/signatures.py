"""The lines of a signature under its name: an address, whatever its shape.

A message signed off ("Best regards,", "Thx", "--") with a name on the next
line is a signature; the lines under the name, up to a blank line, are the
sender's contact lines: a phone, an e-mail, and an address in the shape of
whatever country it is in ("Cr. 75 # 8-76 Este", "Bodega 901", "687699",
"Cabrera, Santander"). A line there shaped like an address's
(``an_address_line``) is one whether or not a rule of ours knows its
shape: what the sure rules left of it is surfaced, never kept silently.

The lines of a block read by position too: a firm's line between a name's
or job's and one with a number, a job's line under a full name, a job's
apposition after ", the" (``verdict`` and ``unsure`` read them alike)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from miner.redaction.lexicon.names import A_TITLE, a_first_name
from miner.redaction.lexicon.postcode_blocks import an_address_line

#: The words a message is signed off with, as an alternation (lower case:
#: wrap it in ``(?i:...)``).
SIGN_OFF_WORDS = (
    r"(?:(?:kind|best|warm|with kind) )?regards|thx|thanks|thank you|cheers|sincerely"
    r"|best(?: wishes)?|yours(?: truly| sincerely)?"
)
#: A sign-off on a line of its own.
_SIGN_OFF_LINE = re.compile(rf"(?im)^[ \t]*(?:--|{SIGN_OFF_WORDS})[,!.]?[ \t]*$")
#: Lines under the name read at most.
_MOST_LINES = 6
_LINE = re.compile(r"[^\n]*")


def signature_address_lines(
    text: str, replaced: re.Pattern[str] | None = None
) -> Iterator[tuple[int, int]]:
    """(start, end) of each line under a signature's name that is shaped like
    an address's. ``replaced``: what stands for values replaced already (a
    line of those alone, a phone's, is passed over)."""
    for m in _SIGN_OFF_LINE.finditer(text):
        lines = _lines_after(text, m.end())
        if not lines or not lines[0][2].strip():
            continue  # no name under the sign-off
        for start, _end, line in lines[1 : 1 + _MOST_LINES]:
            bare = replaced.sub("", line) if replaced else line
            if not line.strip():
                break  # a blank line ends the signature
            if not any(c.isalnum() for c in bare):
                continue  # a value replaced: a phone, an e-mail
            if not (an_address_line(line) or _parts_with_a_number(line)):
                break  # a sentence: the signature has ended
            lead = len(line) - len(line.lstrip())
            yield start + lead, start + len(line.rstrip())


def signature_name_lines(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of the line under each sign-off, where the sender's
    name stands: "Thx\nS'fiso Khuboni"."""
    for m in _SIGN_OFF_LINE.finditer(text):
        lines = _lines_after(text, m.end())
        if lines and lines[0][2].strip():
            start, _end, line = lines[0]
            lead = len(line) - len(line.lstrip())
            yield start + lead, start + len(line.rstrip())


def _lines_after(text: str, end: int) -> list[tuple[int, int, str]]:
    """The lines after the one ending at ``end``, as (start, end, line)."""
    lines: list[tuple[int, int, str]] = []
    at = end + 1
    while at <= len(text) and len(lines) <= _MOST_LINES:
        m = _LINE.match(text, at)
        assert m is not None
        lines.append((m.start(), m.end(), m.group(0)))
        if m.end() >= len(text):
            break
        at = m.end() + 1
    return lines


_PART_WORD = re.compile(r"[^\W\d_]+\.?")


def _parts_with_a_number(line: str) -> bool:
    """A line of two or more parts apart by commas, each of at most four
    words and none a sentence's (a stop word, but an abbreviation's "No."),
    one of them with a number: "Holding No. 710, HakimAvenue, Rangpur,
    2176", in any country's order."""
    from miner.redaction.lexicon.names import stop_words

    parts = line.split(",")
    if len(parts) < 2 or not any(c.isdigit() for c in line):
        return False
    for part in parts:
        words = _PART_WORD.findall(part)
        if len(words) > 4 or any(
            not w.endswith(".") and w.casefold() in stop_words() for w in words
        ):
            return False
    return True


#: What a block's line may start with before its value: blanks and a
#: bullet ("??? ", "- ", "* ", "• ").
BULLET_BEFORE = r"[ \t]*(?:[?*•·>-]+[ \t]+)?"
BULLET = re.compile(BULLET_BEFORE)
#: A line of a name or a job above a firm's: one to six words, no digit, no
#: sentence's or label's punctuation at its end.
_NAME_OR_JOB_LINE = re.compile(rf"{BULLET_BEFORE}[^\W\d_][^\d\n:;!?]{{0,60}}?[ \t]*")
#: A greeting's or a sign-off's line above a name: the name's, not a firm's.
_GREETING_OR_SIGN_OFF = re.compile(
    rf"(?i:{BULLET_BEFORE}(?:hi|hello|hey|dear|good (?:morning|afternoon|evening)"
    rf"|{SIGN_OFF_WORDS})\b.*)"
)


def a_firm_s_line(text: str, start: int, end: int) -> bool:
    """Whether the hit ``text[start:end]`` fills a block's line (but for a
    bullet) that stands under a line of a name or a job and over a line
    with a number (an address's, a phone's): where a signature or an
    address block writes the firm ("Lane Shaffer\nTerra\n630 Meadowbrook
    Square", "Anthony Moss\nStaff Nurse\nDaiya\n210 Carriere Street"). The
    sender's own name is the first line, or stands under a greeting or a
    sign-off ("Kind regards\nAnna Keller\n12 Main Street")."""
    lines = _block_lines_around(text, start, end)
    if lines is None:
        return False
    above, below = lines
    return (
        bool(above)
        and _a_name_or_job_line(above[0])
        and bool(below)
        and any(c.isdigit() for c in below[0])
    )


def a_job_s_line(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` fills a block's line (but for a bullet)
    under a line of a full name (two to four words, or a person's
    placeholder; no greeting or sign-off) and over a line of words with no
    number, with a number on one of the two lines under those: where a
    signature writes its sender's job, between the name's line and the
    firm's or the contact lines ("Zeynəb İbrahimli\nİdarəçi\nCaspian Marine
    Services Limited\n24 Zabrat Prospekti", blank lines between them too).
    A person's one word under their first name ("Zeynəb\nİbrahimli") is
    not: its line above holds one word. The job may run on after the value
    to its line's end, in words with no number ("Chercheur en sciences et
    en industries")."""
    end = _to_the_line_s_end(text, end)
    lines = _block_lines_around(text, start, end)
    if lines is None:
        return False
    above, below = lines
    return (
        bool(above)
        and _a_full_name_s_line(above[0])
        and len(below) >= 2
        and not any(c.isdigit() for c in below[0])
        and any(c.isdigit() for line in below[1:3] for c in line)
    )


#: A line break, real or written ``\n`` (a JSON string's, as a tool wrote it).
_BREAK = re.compile(r"\\[nN]|\n")
_A_PERSON_S_PLACEHOLDER = re.compile(r"<PERSON_\d+>")


def _a_name_or_job_line(line: str) -> bool:
    return (
        _NAME_OR_JOB_LINE.fullmatch(line) is not None
        and len(line.split()) <= 6
        and _GREETING_OR_SIGN_OFF.fullmatch(line) is None
    )


def a_firm_s_line_under_a_name(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]``, run on to its line's end in words with
    no number ("Kihnu Veeteed", "Mutoh Europe nv"), fills a block's line
    over a line with a number (an address's, a phone's) and under a full
    name's line (two to four words each capitalised, or a person's
    placeholder: the name replaced already), right under it or with a job's line between
    ("Lane Shaffer\nGimv\n61 Molenvondelweg", "Hedhindis
    Jeppsson\nReceptarie\nOrexo\nLumavägen 909"). A one-word line above
    is no full name: "Zeynəb\nİbrahimli\n24 Zabrat Prospekti" is one
    person's name on two lines."""
    end = _to_the_line_s_end(text, end)
    line_start = _LINE_S_WORDS_BEFORE.search(text, max(0, start - 80), start)
    if line_start:
        start = line_start.start("words")
    lines = _block_lines_around(text, start, end)
    if lines is None or any(a_first_name(w) for w in _PART_WORD.findall(text[start:end])):
        return False  # a second person's name ("Anna Keller\nJon Velkorsi\n...")
    above, below = lines
    return (
        bool(above)
        and (
            _a_written_name_s_line(above[0])
            or (
                len(above) > 1
                and _a_name_or_job_line(above[0])
                and _a_written_name_s_line(above[1])
            )
        )
        and bool(below)
        and any(c.isdigit() for c in below[0])
    )


#: The words of a firm's name before its word at hand, from the line's start
#: (after a bullet): "Kihnu " of "Kihnu Veeteed".
_LINE_S_WORDS_BEFORE = re.compile(
    rf"(?:\\[nN]|\n){BULLET_BEFORE}(?P<words>(?:[^\W\d_][\w'’&.-]*[ \t]+){{1,3}})$"
)


def _a_written_name_s_line(line: str) -> bool:
    """A full name's line (``_a_full_name_s_line``) whose words are each
    capitalised or a name's particle ("Viveque de Albernas"): not a
    sentence's ("Please update my address\nZbyrowska Nowak\n12 Main St")."""
    from miner.redaction.lexicon.names import a_particle

    bare = line[BULLET.match(line).end() :]  # type: ignore[union-attr]
    return _a_full_name_s_line(line) and all(
        w[:1].isupper() or w.startswith("<") or a_particle(w)
        for w in bare.rsplit(": ", 1)[-1].split()
    )


def _a_full_name_s_line(line: str) -> bool:
    """A line of two to four words (``_a_name_or_job_line``), or of a
    person's placeholder, alone or after a colon: a reply quotes the block
    ("I have checked this for you: <PERSON_1>\\nTarixçi\\n...")."""
    bare = line[BULLET.match(line).end() :]  # type: ignore[union-attr]
    return _A_PERSON_S_PLACEHOLDER.fullmatch(bare.rsplit(": ", 1)[-1].strip()) is not None or (
        _a_name_or_job_line(line) and 2 <= len(bare.split()) <= 4
    )


def _to_the_line_s_end(text: str, end: int) -> int:
    """``end`` run on to its line's end when what is left of the line is
    five words or fewer with no number (the rest of a job's or a firm's
    name), else ``end``."""
    rest = _BREAK.split(text[end : end + 200], maxsplit=1)[0]
    if len(rest.split()) <= 5 and not any(c.isdigit() for c in rest):
        return end + len(rest.rstrip())
    return end


def a_job_or_a_thing_by_position(text: str, start: int, end: int) -> bool:
    """Whether a capitalised word no list knows stands where a job or a
    firm does, not a person: in an apposition after ", the" ("Elçin
    Umudlu, the Sürücü, said"; ``in_an_apposition``), on a signature's job
    line (``a_job_s_line``), or on its firm's line under a full name's
    (``a_firm_s_line_under_a_name``). (After any article too, as
    ``after_determiner`` reads the model's hits, it left a person silent
    on a held-out split.)"""
    return (
        in_an_apposition(text, start)
        or a_job_s_line(text, start, end)
        or a_firm_s_line_under_a_name(text, start, end)
    )


def _block_lines_around(text: str, start: int, end: int) -> tuple[list[str], list[str]] | None:
    """The non-blank lines above and below the line ``text[start:end]``
    fills (but for a bullet and a closing dot or comma), nearest first,
    three each at most; None when the value does not fill its line. Read
    400 characters either way: a block's lines are short, a text may not be."""
    before = _BREAK.split(text[max(0, start - 400) : start])
    after = _BREAK.split(text[end : end + 400])
    if len(before) < 2 or len(after) < 2:
        return None
    bullet = BULLET.fullmatch(before[-1])
    if bullet is None or after[0].strip(" \t.,"):
        return None
    above = [line for line in before[:-1] if line.strip()]
    below = [line for line in after[1:] if line.strip()]
    return above[-3:][::-1], below[:3]


def in_an_apposition(text: str, start: int) -> bool:
    """Whether ``start`` is in an apposition's capitalised phrase after ",
    the" that holds no title nor first name (", the Evaluator Tehnic
    Daune, said": a job's title)."""
    phrase = _THE_AND_WORDS.search(text, max(0, start - 60), start)
    rest = _TO_A_COMMA.match(text, start) if phrase else None
    if phrase is None or rest is None:
        return False
    words = (phrase.group("words") + rest.group(0)).split()
    return not any(A_TITLE.fullmatch(w.strip(".,")) or a_first_name(w.strip(".,")) for w in words)


#: An apposition's "the" and capitalised words up to a hit, after a comma:
#: ", the Evaluator ", ", THE CHIEF ".
_THE_AND_WORDS = re.compile(r",[ \t]*(?i:the)[ \t]+(?P<words>(?:[A-ZÀ-Þ][\w'’.-]*[ \t]+){0,3})$")
#: The rest of the apposition: words to its closing comma.
_TO_A_COMMA = re.compile(r"(?:[^\s,]+[ \t]+){0,5}[^\s,]+,")
