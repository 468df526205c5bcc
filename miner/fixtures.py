"""Stage 3, fixtures: turn redaction placeholders into fixture values.

The signed-in customer (the placeholder found at ``state[signed_in_key]``)
becomes ``eval_customer``. Every other placeholder takes the next value of its
type's list in ``[fixtures.values]``, in order of first appearance in the
session; a type without a list, or past its end, keeps its ``<TYPE_n>``
placeholder (a typed stand-in). One mapping per session, applied to every
string of it, so the order id the user typed is still the one the tool got.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from miner.config import FixturesConfig
from miner.model import Session
from miner.redaction.placeholders import PLACEHOLDER
from miner.redaction.walk import map_session, session_texts


def fixture_mapping(session: Session, rules: FixturesConfig) -> dict[str, str]:
    """Placeholder -> fixture value for one redacted session."""
    mapping: dict[str, str] = {}
    signed_in = session.initial_state.get(rules.signed_in_key)
    if isinstance(signed_in, str) and PLACEHOLDER.fullmatch(signed_in):
        mapping[signed_in] = rules.eval_customer
    used: dict[str, int] = {}
    for _key, leaf in session_texts(session):
        if not isinstance(leaf, str):
            continue
        for match in PLACEHOLDER.finditer(leaf):
            token, entity = match.group(0), match.group(1)
            if token in mapping:
                continue
            pool = [v for v in rules.values.get(entity, ()) if v != rules.eval_customer]
            index = used.get(entity, 0)
            if index < len(pool):
                mapping[token] = pool[index]
                used[entity] = index + 1
    return mapping


def apply_fixtures(session: Session, rules: FixturesConfig) -> Session:
    """A copy of a redacted session with fixture values in place of placeholders."""
    mapping = fixture_mapping(session, rules)

    def swap(_key: str | None, leaf: Any) -> Any:
        if not isinstance(leaf, str) or not mapping:
            return leaf
        return PLACEHOLDER.sub(lambda m: mapping.get(m.group(0), m.group(0)), leaf)

    return replace(map_session(session, swap), user_id=rules.eval_user)


def fixture_values(rules: FixturesConfig) -> frozenset[str]:
    """Every value the fixtures stage can write (the loader allows these)."""
    return frozenset({rules.eval_customer, *(v for vs in rules.values.values() for v in vs)})
