"""Where redaction looks: every leaf of a session with the key it sits under
(``JsonKey`` carries the object around it), a copy of a session with a
function applied to each leaf, and the one form its texts are read in
(``canonical``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from miner.model import Session, ToolCall


class JsonKey(str):
    """A JSON key with the object it sits in: its parent's key and its sibling
    keys. A plain ``str`` everywhere else; the key rules read the context."""

    parent: str | None
    siblings: frozenset[str]

    def __new__(cls, key: str, parent: str | None, siblings: frozenset[str]) -> JsonKey:
        made = super().__new__(cls, key)
        made.parent = parent
        made.siblings = siblings
        return made


def json_leaves(
    value: Any, key: str | None = None, parent: str | None = None
) -> Iterator[tuple[str | None, Any]]:
    """(nearest key, leaf) for every scalar leaf of a JSON value."""
    if isinstance(value, dict):
        siblings = frozenset(str(k) for k in value)
        for k, v in value.items():
            yield from json_leaves(v, JsonKey(str(k), key, siblings), key)
    elif isinstance(value, list):
        for v in value:
            yield from json_leaves(v, key, parent)
    else:
        yield key, value


def map_json(value: Any, fn: Callable[[str | None, Any], Any], key: str | None = None) -> Any:
    if isinstance(value, dict):
        siblings = frozenset(str(k) for k in value)
        return {k: map_json(v, fn, JsonKey(str(k), key, siblings)) for k, v in value.items()}
    if isinstance(value, list):
        return [map_json(v, fn, key) for v in value]
    return fn(key, value)


def session_texts(session: Session) -> Iterator[tuple[str | None, Any]]:
    """Every (key, leaf) of a session that redaction looks at, in session order."""
    yield from json_leaves(session.initial_state)
    for turn in session.turns:
        yield None, turn.user_text
        for call in turn.tool_calls:
            yield from json_leaves(call.args)
            yield from json_leaves(call.result)
            yield None, call.error
        yield None, turn.reply_text
        for message in turn.errors:
            yield None, message


def map_session(session: Session, fn: Callable[[str | None, Any], Any]) -> Session:
    """A copy of ``session`` with ``fn(key, leaf)`` applied to each leaf of ``session_texts``."""

    def text(value: str | None) -> Any:
        return fn(None, value) if value is not None else None

    turns = tuple(
        replace(
            turn,
            user_text=text(turn.user_text),
            reply_text=text(turn.reply_text),
            errors=tuple(text(m) for m in turn.errors),
            tool_calls=tuple(
                ToolCall(
                    name=c.name,
                    agent=c.agent,
                    args=map_json(c.args, fn),
                    result=map_json(c.result, fn),
                    error=text(c.error),
                )
                for c in turn.tool_calls
            ),
        )
        for turn in session.turns
    )
    return replace(session, initial_state=map_json(session.initial_state, fn), turns=turns)


#: Spaces other than the space, read as one: a phone written with no-break
#: spaces ("+44\u00a07700\u00a0900123", as word processors and web pages
#: write French or British numbers) was no phone to libphonenumber.
_SPACES = dict.fromkeys(
    map(
        ord,
        "\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f",
    ),
    " ",
)
#: Characters that show nothing and only split a word for the matchers: a
#: soft hyphen (PDFs, word processors), a zero-width space, a word joiner, a
#: zero-width no-break space. Not the zero-width (non-)joiners, which join
#: emoji and shape Persian and Indic letters.
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u2060\ufeff"))
_PLAIN = {**_SPACES, **_INVISIBLE}
_NEEDS_PLAIN = re.compile("[" + "".join(map(chr, _PLAIN)) + "]")


def canonical(text: str) -> str:
    """``text`` in the one form redaction reads and the draft holds: Unicode's
    composed form (NFC), every space a space, no invisible character.

    A text written decomposed ("c" and a combining cedilla for "ç", as some
    keyboards, PDFs and file systems write it) looks the same but splits
    its words at every combining mark: the word matchers read "bıc" and
    "akçı", the name lists know neither, and the name went through unseen.
    A soft hyphen inside a surname left its end behind a placeholder, and a
    no-break space inside a phone left it whole. Each form reads the same to
    a person (composed and decomposed text are one text to Unicode), so the
    draft holds this one."""
    if _NEEDS_PLAIN.search(text):
        text = text.translate(_PLAIN)
    return text if unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)


def canonical_session(session: Session) -> Session:
    """``session`` with every text leaf ``canonical``."""
    return map_session(session, lambda _key, leaf: _canonical_leaf(leaf))


def _canonical_leaf(leaf: Any) -> Any:
    return canonical(leaf) if isinstance(leaf, str) else leaf
