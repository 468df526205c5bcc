"""What the unsure rules share: placeholders in a redacted string, read as
blanks or filled with a word no list knows, and a span grown over the
placeholders around it."""

from __future__ import annotations

import re
from collections.abc import Iterator

from miner.redaction.placeholders import PLACEHOLDER

_ESCAPED_BREAK = re.compile(r"\\[nNrt]")


def breaks_unescaped(text: str) -> str:
    """``text`` with its line breaks written ``\\n`` (a JSON string's, as a
    tool wrote it) read as real ones and its written ``\\r``, ``\\t`` as
    blanks, each of the same length (" \\n", "  "): spans found in it index
    ``text``, and the word after a break is a word of its own
    ("...\\nsylvia: you saved my life")."""
    return _ESCAPED_BREAK.sub(lambda m: " \n" if m.group(0)[1] in "nN" else "  ", text)


_LETTERS = re.compile(r"[^\W\d_]{3}")


ALPHANUMERIC = re.compile(r"[^\W_]")


_PIECE_LEAD = re.compile(r"(?:\\[nN]|[\s,;/.\-–])+")


_PIECE_TAIL = re.compile(r"(?:\\[nN]|[\s,;/\-–])+\Z")


def around_placeholders(
    text: str, start: int, end: int, entity: str, least: re.Pattern[str] = _LETTERS
) -> Iterator[tuple[int, int, str]]:
    """The parts of ``text[start:end]`` between its placeholders that hold a
    word, or what ``least`` finds (trimmed of blanks and commas, and for an
    address's parts of line breaks written ``\\n`` and slashes): "90,
    boulevard de" of "90, boulevard de <PERSON_1>"."""
    at = start
    for m in [*PLACEHOLDER.finditer(text, start, end), None]:
        stop = m.start() if m else end
        piece = text[at:stop]
        if least is ALPHANUMERIC:
            lead = _PIECE_LEAD.match(piece)
            left = lead.end() if lead else 0
            piece = _PIECE_TAIL.sub("", piece[left:])
        else:
            left = len(piece) - len(piece.lstrip(" \t\n,;"))
            piece = piece.strip(" \t\n,;")
        if least.search(piece):
            yield at + left, at + left + len(piece), entity
        if m:
            at = m.end()


def joined(
    text: str, spans: Iterator[tuple[int, int, str, str]]
) -> Iterator[tuple[int, int, str, str]]:
    """Name spans (start, end, entity, rule) next to each other (a blank
    between, on one line) as one value, the first one's rule: the reviewer
    decides "Emmanuelle Le Goff" once, not word by word."""
    current: tuple[int, int, str] | None = None
    for start, end, _entity, reason in sorted(spans):
        if current and start <= current[1] + 1 and not text[current[1] : start].strip(" \t"):
            current = (current[0], max(current[1], end), current[2])
            continue
        if current:
            yield current[0], current[1], "PERSON", current[2]
        current = (start, end, reason)
    if current:
        yield current[0], current[1], "PERSON", current[2]


#: What fills a placeholder where address blocks are read: a capitalised
#: word no list knows (``_street_word`` takes it), as long as the placeholder.
FILLED = "Qzx"


FILLED_STREET = re.compile(rf"{FILLED}z+")


FILLED_WORD = re.compile(rf"{FILLED}[zx]+")


FILLED_OTHER = re.compile("¤+")


FILLED_ANY = re.compile(rf"{FILLED}[zx]+|¤+")


def address_fill(m: re.Match[str]) -> str:
    """A placeholder as a word of the same length: a replaced street's ends
    in "z", a person's in "x" (a street may be named after one); any other
    value (a phone, a passport, a date) as signs no address part is made of,
    so the address ends before it ("<PHONE_NUMBER_1>. Passport no.")."""
    if m.group(0).startswith(("<STREET_ADDRESS", "<PERSON")):
        fill = "z" if m.group(0).startswith("<STREET_ADDRESS") else "x"
        return FILLED + fill * (len(m.group(0)) - len(FILLED))
    return "¤" * len(m.group(0))


DATE = re.compile(
    r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}(?:[ T]\d{1,2}:\d{2}.*)?|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}"
)
