"""The values redaction is unsure of: left as written and put before the
reviewer (the surfaced-span contract, docs/redaction.md)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Surfaced:
    """One distinct value, exactly as written, that may be personal."""

    entity: str
    value: str
