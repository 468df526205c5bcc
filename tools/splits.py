"""The named splits of the redaction corpora, in one table.

Each split is built from one or more parts: a corpus (presidio-evaluator's
templates, the shop's, the hard cases' chats), a template half ("dev", tuned
on, or "test"), the locales that fill it and their generator. A split is a
**tune** split (its misses may be read and printed) or a **report** split
(totals only: no command prints what it missed). ``tools.redaction_report``
and ``tools.silent_why`` take these names; before this table each of their
commands wrote its own mapping from a name to locales (five of them).
"""

from __future__ import annotations

from dataclasses import dataclass

from tools.pii_corpus import Corpus
from tools.third_party_corpus import (
    FAR_TUNE_LOCALES,
    HELD_OUT_LOCALES,
    LOCALES,
    MIMESIS_REPORT_LOCALES,
    MIMESIS_TUNE_LOCALES,
    TUNE_LOCALES,
    UNTOUCHED_LOCALES,
)

#: The corpora a part is built from: presidio-evaluator's templates
#: (``tools.third_party_corpus``), the shop (``tools.commerce_corpus``: no
#: locales), the hard cases (``tools.support_corpus``).
CORPORA = ("templates", "shop", "hard")


@dataclass(frozen=True)
class Part:
    """One corpus built once: ``half`` of its templates (or lists), filled
    from ``locales`` by ``generator``."""

    corpus: str
    half: str
    locales: tuple[str, ...] = LOCALES
    generator: str = "faker"


@dataclass(frozen=True)
class Split:
    parts: tuple[Part, ...]
    tune: bool


def _templates(half: str, locales: tuple[str, ...], generator: str = "faker") -> Part:
    return Part("templates", half, locales, generator)


#: The held-out locales at even positions were tuned on (the addresses
#: round's protocol, fixed before any miss was read), the odd ones not.
_HELD_OUT_EVEN, _HELD_OUT_ODD = HELD_OUT_LOCALES[0::2], HELD_OUT_LOCALES[1::2]

SPLITS: dict[str, Split] = {
    "presidio-dev": Split((_templates("dev", LOCALES),), tune=True),
    "presidio-test": Split((_templates("test", LOCALES),), tune=False),
    "held-out-dev": Split((_templates("dev", HELD_OUT_LOCALES),), tune=False),
    "held-out-test": Split((_templates("test", HELD_OUT_LOCALES),), tune=False),
    "held-out-tune": Split((_templates("dev", _HELD_OUT_EVEN),), tune=True),
    "held-out-report": Split(
        (
            _templates("dev", _HELD_OUT_ODD),
            _templates("test", _HELD_OUT_ODD),
            _templates("test", _HELD_OUT_EVEN),
        ),
        tune=False,
    ),
    "fresh": Split((_templates("dev", TUNE_LOCALES),), tune=True),
    "far": Split((_templates("dev", FAR_TUNE_LOCALES),), tune=True),
    "untouched": Split((_templates("test", UNTOUCHED_LOCALES),), tune=False),
    "mimesis-tune": Split((_templates("dev", MIMESIS_TUNE_LOCALES, "mimesis"),), tune=True),
    "mimesis-report": Split((_templates("test", MIMESIS_REPORT_LOCALES, "mimesis"),), tune=False),
    # The two cells the mimesis tune and report sets leave out: both hold
    # report data (the test templates, the report locales).
    "mimesis-tune-test": Split((_templates("test", MIMESIS_TUNE_LOCALES, "mimesis"),), tune=False),
    "mimesis-report-dev": Split(
        (_templates("dev", MIMESIS_REPORT_LOCALES, "mimesis"),), tune=False
    ),
    "shop-dev": Split((Part("shop", "dev", ()),), tune=True),
    "shop-test": Split((Part("shop", "test", ()),), tune=False),
    "hard-dev": Split((Part("hard", "dev"),), tune=True),
    "hard-test": Split((Part("hard", "test"),), tune=False),
    "hard-held-out": Split((Part("hard", "test", HELD_OUT_LOCALES),), tune=False),
}


def split(name: str) -> Split:
    """The split called ``name``, or a one-line exit naming the known ones."""
    if name not in SPLITS:
        raise SystemExit(f"unknown split {name!r}; one of {', '.join(SPLITS)}")
    return SPLITS[name]


def build(part: Part) -> Corpus:
    """The plugin rows and labels of ``part`` (each builder imported only
    when asked: Faker's and mimesis's data are slow to load)."""
    if part.corpus == "shop":
        from tools.commerce_corpus import build_commerce_corpus

        return build_commerce_corpus(part.half)
    if part.corpus == "hard":
        from tools.support_corpus import build_support_corpus

        return build_support_corpus(part.half, locales=part.locales)
    from tools.third_party_corpus import build_third_party_corpus

    return build_third_party_corpus(part.half, locales=part.locales, generator=part.generator)
