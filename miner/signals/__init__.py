"""Signals: what makes a session worth a reviewer's hour.

Each signal is one module of this package defining one ``Signal`` subclass:
its name, its place in the quota order, the event types and columns it reads,
its config (a pydantic model, the ``[signals.<name>]`` table of the pipeline
config) and a detector over rows. The scan reads the union of what the
registered signals declare, pushed down to the Parquet scan; nothing else
lists the signals. Adding a signal is adding a module here (and its tests).

A detector sees each row once, as a ``miner.dialects.Event``, with a scratch
dict of its own per session (for cues that span rows, such as a loop of the
same call); ``finish`` runs once per session after the scan (for the sessions
the signal read, or for all of them when it says so). Every hit is a
``Reason``: the signal, the rule that fired and the invocation it fired on,
which the draft keeps in the sidecar's provenance and the run summary counts.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, create_model

from miner.dialects import Event, raw_event_types, text_column


def _tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


#: A list of strings in TOML, a tuple in the model.
Strings = Annotated[tuple[str, ...], BeforeValidator(_tuple)]


class SignalConfig(BaseModel):
    """Base of every signal's config table."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, strict=True, use_attribute_docstrings=True
    )
    enabled: bool = True
    """Set false to stop flagging sessions for this signal."""


@dataclass(frozen=True, slots=True)
class Reason:
    signal: str
    rule: str
    """What fired, in words (never a value from the trace)."""
    invocation: str | None = None


@dataclass(frozen=True)
class Context:
    """What detectors may need beyond their own config."""

    negative_sessions: frozenset[str] = frozenset()
    negative_invocations: frozenset[str] = frozenset()


class Signal:
    """One signal. Subclasses set the class attributes and override ``row``
    (and ``finish`` when the signal needs the whole session)."""

    name: ClassVar[str]
    order: ClassVar[int]
    """Quotas are filled in this order (lowest first)."""
    kinds: ClassVar[tuple[str, ...]]
    """Event types read, in miner's names (``miner.dialects`` maps each plugin's)."""
    columns: ClassVar[tuple[str, ...]] = ()
    """Columns read besides timestamp, event type, session, invocation, content, status."""
    all_rows: ClassVar[bool] = False
    """Also reads every row with status ERROR, whatever its type."""
    every_session: ClassVar[bool] = False
    """``finish`` runs for every session scanned; otherwise only for the
    sessions the signal kept scratch for (a session it never read cannot fire)."""
    Config: ClassVar[type[SignalConfig]] = SignalConfig

    def __init__(self, config: Any, context: Context) -> None:
        self.config = config
        self.context = context

    def take(self, batch: Any, scratch_of: Any) -> bool:
        """Read the signal's rows of an Arrow batch without ``row``, on whole
        columns (``scratch_of(session_id)`` gives a session's scratch). False
        when the signal has no such path. Go's EVENT rows are not in the
        batch: those of the signal's rows still come through ``row``."""
        return False

    def prefilter(self, batch: Any) -> Any:
        """The rows of an Arrow batch worth a call to ``row``, as a boolean
        array decided on whole columns; None keeps every row of the signal's
        kinds. It may keep too many rows, never too few: it only spares the
        row-by-row loop the rows that cannot fire."""
        return None

    def turn_condition(self) -> str | None:
        """A condition on a whole turn's rows, as a DuckDB aggregate over the
        rows of one (session_id, invocation_id) (``count(*) FILTER (WHERE
        ...) >= 3``), decided inside the engine: the signal never reads the
        rows of a turn where it is false. None: every turn may fire. Like
        ``prefilter``, it may keep too many rows, never too few."""
        return None

    @staticmethod
    def typed(kinds: Iterable[str]) -> str:
        """A SQL test, for a turn condition, that a row is of one of ``kinds``
        by its type alone, in every plugin's names (Go's EVENT rows left out)."""
        written = ", ".join(f"'{kind}'" for kind in raw_event_types(kinds, event_rows=False))
        return f"event_type IN ({written})"

    def row(self, event: Event, row: Any, scratch: dict[Any, Any]) -> Iterable[Reason]:
        return ()

    def finish(self, session_id: str, scratch: dict[Any, Any]) -> Iterable[Reason]:
        return ()

    @staticmethod
    def contains_any(batch: Any, column: str, needles: Iterable[str]) -> Any:
        """Whole-column test: the cell holds one of ``needles`` (any case);
        None when the column is missing or not text (then nothing is skipped)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        values = text_column(batch, column)
        if values is None:
            return None
        wanted = [re.escape(needle) for needle in needles]
        if not wanted:
            return pa.array([False] * len(values), pa.bool_())
        # One RE2 alternation: a single pass over the column, whatever the needles.
        found = pc.match_substring_regex(values, "|".join(wanted), ignore_case=True)
        return pc.fill_null(found, False)

    def reason(self, rule: str, row: Any = None) -> Reason:
        return self.turn_reason(rule, getattr(row, "invocation_id", None))

    def turn_reason(self, rule: str, invocation: Any) -> Reason:
        """A hit on the turn ``invocation`` (None when it is not an id)."""
        return Reason(self.name, rule, invocation if isinstance(invocation, str) else None)


def tested_on(rows: Any, test: Any) -> Any:
    """``rows`` (a boolean array) where ``test(rows)`` - a boolean array over
    those rows alone, or None to keep them all - holds. A text test run this
    way reads only the payloads it is about: a regex costs by the byte."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    where = rows.to_numpy(zero_copy_only=False)
    if not where.any():
        return rows
    found = test(rows)
    if found is None:
        return rows
    kept = np.zeros(len(where), dtype=bool)
    kept[where] = pc.fill_null(found, False).to_numpy(zero_copy_only=False)
    return pa.array(kept)


def _discover() -> tuple[type[Signal], ...]:
    found: list[type[Signal]] = []
    for module in pkgutil.iter_modules(__path__):
        loaded = importlib.import_module(f"{__name__}.{module.name}")
        found.extend(
            value
            for value in vars(loaded).values()
            if isinstance(value, type)
            and issubclass(value, Signal)
            and value is not Signal
            and value.__module__ == loaded.__name__
        )
    return tuple(sorted(found, key=lambda s: (s.order, s.name)))


#: Every signal, in quota order.
REGISTRY: tuple[type[Signal], ...] = _discover()
#: Their names, in quota order.
NAMES: tuple[str, ...] = tuple(s.name for s in REGISTRY)


def signals_config_model() -> type[BaseModel]:
    """The ``[signals]`` table: one sub-table per registered signal."""
    fields: dict[str, Any] = {s.name: (s.Config, s.Config()) for s in REGISTRY}
    return create_model(  # type: ignore[call-overload, no-any-return]
        "SignalsConfig",
        __config__=ConfigDict(extra="forbid", frozen=True, strict=True),
        **fields,
    )
