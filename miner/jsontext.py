"""JSON text with the line and column of every value, so a finding can say
``file:line:col`` and an editor can jump to it.

``json.loads`` validates first (its error carries line and column); then a
small scanner walks the same text and records, for every value and key, its
JSON path and its offset. Strings are decoded with the standard library's own
``scanstring``, so escapes are handled exactly as ``json`` does.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Any

Path = tuple[str | int, ...]

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")


class InvalidJson(ValueError):
    def __init__(self, message: str, line: int, col: int) -> None:
        super().__init__(message)
        self.line, self.col = line, col


@dataclass(frozen=True)
class StringAt:
    """A string value or key: its JSON path, text and raw span in the file."""

    path: Path
    value: str
    start: int
    end: int
    is_key: bool = False


@dataclass(frozen=True)
class Document:
    text: str
    data: Any
    strings: tuple[StringAt, ...]
    offsets: dict[Path, int]
    """Offset of every value, by JSON path."""

    def line_col(self, offset: int) -> tuple[int, int]:
        line = self.text.count("\n", 0, offset) + 1
        col = offset - (self.text.rfind("\n", 0, offset) + 1) + 1
        return line, col

    def raw_span(self, s: StringAt, start: int, end: int) -> tuple[int, int]:
        """The file offsets of ``s.value[start:end]``: the decoded string's
        offsets counted through the escapes it is written with on disk
        (``\\n`` is two characters there, ``\\u00e9`` six)."""
        raw, at, decoded = self.text, s.start + 1, 0
        found_start = at if start == 0 else -1
        while decoded < end and at < s.end - 1:
            if raw[at] != "\\":
                at += 1
            elif raw[at + 1] != "u":
                at += 2
            elif 0xD800 <= int(raw[at + 2 : at + 6], 16) < 0xDC00 and raw.startswith("\\u", at + 6):
                at += 12  # a surrogate pair: one character of the decoded string
            else:
                at += 6
            decoded += 1
            if decoded == start:
                found_start = at
        return found_start, at

    def where(self, path: Path) -> tuple[int, int]:
        """Line and column of the value at ``path``, or of its nearest parent."""
        while path not in self.offsets and path:
            path = path[:-1]
        return self.line_col(self.offsets.get(path, 0))


_SURROGATE = re.compile("[\ud800-\udfff]")


def parse(text: str) -> Document:
    try:
        data = json.loads(text)
        strings: list[StringAt] = []
        offsets: dict[Path, int] = {}
        _Scanner(text, strings, offsets).value(_skip(text, 0), ())
    except json.JSONDecodeError as exc:
        raise InvalidJson(exc.msg, exc.lineno, exc.colno) from None
    except RecursionError:
        raise InvalidJson("nested too deeply to read", 1, 1) from None
    document = Document(text=text, data=data, strings=tuple(strings), offsets=offsets)
    for s in strings:
        # "\ud800" alone is valid JSON text but no Unicode string: it cannot
        # be written back out as UTF-8.
        if _SURROGATE.search(s.value):
            line, col = document.line_col(s.start)
            raise InvalidJson("a lone surrogate escape (\\ud800-\\udfff) in a string", line, col)
    return document


def _skip(text: str, pos: int) -> int:
    match = _WS.match(text, pos)
    return match.end() if match else pos


class _Scanner:
    def __init__(self, text: str, strings: list[StringAt], offsets: dict[Path, int]) -> None:
        self.text, self.strings, self.offsets = text, strings, offsets

    def value(self, pos: int, path: Path) -> int:
        """Scan the value at ``pos``; return the offset after it."""
        self.offsets[path] = pos
        char = self.text[pos]
        if char == '"':
            value, end = scanstring(self.text, pos + 1)
            self.strings.append(StringAt(path, value, pos, end))
            return end
        if char == "{":
            return self._object(pos + 1, path)
        if char == "[":
            return self._array(pos + 1, path)
        for literal in ("true", "false", "null"):
            if self.text.startswith(literal, pos):
                return pos + len(literal)
        match = _NUMBER.match(self.text, pos)
        assert match, "json.loads accepted the text, so this is a number"
        return match.end()

    def _object(self, pos: int, path: Path) -> int:
        pos = _skip(self.text, pos)
        if self.text[pos] == "}":
            return pos + 1
        while True:
            key, end = scanstring(self.text, pos + 1)
            self.strings.append(StringAt((*path, key), key, pos, end, is_key=True))
            pos = _skip(self.text, end)
            pos = _skip(self.text, pos + 1)  # the colon
            pos = _skip(self.text, self.value(pos, (*path, key)))
            if self.text[pos] == "}":
                return pos + 1
            pos = _skip(self.text, pos + 1)  # the comma

    def _array(self, pos: int, path: Path) -> int:
        pos = _skip(self.text, pos)
        if self.text[pos] == "]":
            return pos + 1
        index = 0
        while True:
            pos = _skip(self.text, self.value(pos, (*path, index)))
            index += 1
            if self.text[pos] == "]":
                return pos + 1
            pos = _skip(self.text, pos + 1)


def path_text(path: Path) -> str:
    """``("eval_cases", 0, "eval_id")`` -> ``$.eval_cases[0].eval_id``."""
    out = "$"
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out
