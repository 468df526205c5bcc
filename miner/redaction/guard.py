"""The leak guard: the last look at a case before it is written.

Redaction decides what is personal; this module checks that none of it is
left, with rules that do not depend on the detector having been right:

- every original value redaction found anywhere in the session (values of
  several words, e-mails and numbers in any case; a single word as written,
  in capitals or capitalised, so the name "Will" does not flag "will");
  numbers are compared digit by digit with separators stripped, so
  "415-555-0199" is found in "(415) 555 0199";
- anything shaped like an e-mail address;
- a Luhn-valid 13-19 digit run in a card brand's IIN range;
- an IBAN whose mod-97 checksum holds;
- a phone number that libphonenumber validates and that is written as one
  (a leading + or separators: a bare 10-digit run is as often a tracking
  number, and the detector needs a context word for it too).

Fixture values are allowed: they are what miner put there. A hit is reported
by entity type only, never by value.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from miner.redaction.lexicon.formats import (
    find_phones,
    iban_spans,
    is_card_number,
    phone_is_formatted,
)
from miner.redaction.lexicon.wordmatch import WholeWords, fold
from miner.redaction.placeholders import PLACEHOLDER
from miner.redaction.walk import canonical

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
#: Digits with the separators people put between them.
_DIGIT_RUN = re.compile(r"\d(?:[\s\-./()]{0,2}\d)*")


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


class LeakGuard:
    """Scans output strings for personal data; one per run."""

    def __init__(self, phone_regions: tuple[str, ...], allowed: Iterable[str]) -> None:
        self._regions = phone_regions
        allowed_values = sorted({a for a in allowed if a}, key=len, reverse=True)
        self._allowed = (
            re.compile("|".join(re.escape(a) for a in allowed_values)) if allowed_values else None
        )

    def scan(self, strings: Iterable[str], originals: Mapping[str, str] = {}) -> Counter[str]:
        """Entity type -> hits over ``strings``; empty when nothing leaked."""
        words, entities, numbers = _original_patterns(originals)
        sizes = {len(digits) for digits, _entity in numbers}
        found: Counter[str] = Counter()
        for raw in strings:
            # In the draft's form: a value pasted back decomposed, or with a
            # no-break space or a soft hyphen in it, is the same value.
            text = PLACEHOLDER.sub(" ", canonical(raw))
            if self._allowed is not None:
                text = self._allowed.sub(" ", text)
            if not text.strip():
                continue
            for start, end in words.spans(text):
                found[entities.get(fold(text[start:end]), "PERSONAL")] += 1
            if numbers:
                # Every stretch of each digit run as long as an original number,
                # in one set: a lookup per number, not a search of every run.
                runs = [_digits(m.group(0)) for m in _DIGIT_RUN.finditer(text)]
                stretches = {
                    run[i : i + size]
                    for run in runs
                    for size in sizes
                    for i in range(len(run) - size + 1)
                }
                for digits, entity in numbers:
                    if digits in stretches:
                        found[entity] += 1
            found["EMAIL_ADDRESS"] += len(_EMAIL.findall(text))
            found["CREDIT_CARD"] += sum(
                1 for m in _DIGIT_RUN.finditer(text) if is_card_number(m.group(0))
            )
            found["IBAN_CODE"] += sum(1 for _span in iban_spans(text, any_case=False))
            found["PHONE_NUMBER"] += sum(
                1
                for start, end in find_phones(text, self._regions)
                if phone_is_formatted(text[start:end])
            )
        return +found  # drops zero counts


def _original_patterns(
    originals: Mapping[str, str],
) -> tuple[WholeWords, dict[str, str], list[tuple[str, str]]]:
    """The word-like originals as whole words; the entity of a hit by its
    folded text (miner.redaction.lexicon.wordmatch.fold, the matcher's own case relation, with
    the forms an original is looked for in: the first original wins); and
    (digits, entity) of the numbers."""
    exact: list[str] = []
    any_case: list[str] = []
    entities: dict[str, str] = {}
    numbers: list[tuple[str, str]] = []
    for value, entity in originals.items():
        value = value.strip()
        for form in (value, value.upper(), value[:1].upper() + value[1:]):
            entities.setdefault(fold(form), entity)
        digits = _digits(value)
        if len(digits) >= 6 and len(digits) * 2 >= len(re.sub(r"\W", "", value)):
            numbers.append((digits, entity))
        elif len(value) >= 3 and any(c.isalpha() for c in value):
            if " " in value or "@" in value or digits:
                any_case.append(value)
            else:
                exact.extend((value, value.upper(), value[:1].upper() + value[1:]))
    return WholeWords(exact, any_case), entities, numbers


def json_strings(value: Any) -> Iterable[str]:
    """Every string leaf of a JSON value (keys are schema, not data)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from json_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from json_strings(v)
