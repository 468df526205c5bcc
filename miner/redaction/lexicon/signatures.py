"""The lines of a signature under its name: an address, whatever its shape.

A message signed off ("Best regards,", "Thx", "--") with a name on the next
line is a signature; the lines under the name, up to a blank line, are the
sender's contact lines: a phone, an e-mail, and an address in the shape of
whatever country it is in ("Cr. 75 # 8-76 Este", "Bodega 901", "687699",
"Cabrera, Santander"). A line there shaped like an address's
(``an_address_line``) is one whether or not a rule of ours knows its
shape: what the sure rules left of it is surfaced, never kept silently."""

from __future__ import annotations

import re
from collections.abc import Iterator

from miner.redaction.lexicon.postcode_blocks import an_address_line

#: A sign-off on a line of its own.
_SIGN_OFF_LINE = re.compile(
    r"(?im)^[ \t]*(?:--|(?:(?:kind|best|warm|with kind) )?regards|thx|thanks|thank you|cheers"
    r"|sincerely|best(?: wishes)?|yours(?: truly| sincerely)?)[,!.]?[ \t]*$"
)
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
