"""A session's redaction: the session with placeholders, what was replaced
and surfaced (``miner.redaction.session`` makes it; the second model and
the policy read it)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from miner.model import Session
from miner.redaction.surfaced import Surfaced


@dataclass(frozen=True)
class Redacted:
    """A session with placeholders instead of personal data."""

    session: Session
    replaced: Counter[str]
    """Occurrences replaced, per entity type."""
    originals: dict[str, str]
    """Every personal value found in the session -> its entity type, for the
    leak guard. Held in memory only: never logged, never written."""
    not_personal: tuple[str, ...] = ()
    """What the draft decided names a thing (product names under ``items``,
    a ``product_name``): NER hits inside them are not people or places. Written
    into the case's provenance, so ``miner check`` reads the same decision."""
    surfaced: tuple[Surfaced, ...] = ()
    """Values the policy is unsure of, left as written for the reviewer."""
    towns: tuple[str, ...] = ()
    """Towns' names left as written that hold a one-word name the session
    replaced elsewhere ("Miranda do Douro" beside "Caetana Miranda"): the
    town is not that person, so the leak guard does not read them."""
