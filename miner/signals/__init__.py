"""Signals: what makes a session worth a reviewer's hour.

Each signal is one module of this package defining one ``Signal`` subclass:
its name, its place in the quota order, the event types it reads, its config
(a pydantic model, the ``[signals.<name>]`` table of the pipeline config) and
its rule, once, as SQL over the ``events`` view (``miner.engine.events``):
``sql()`` returns a SELECT of ``session_id, invocation_id, rule``, one row
per hit. A rule that is an aggregate of a turn's rows declares that
aggregate in ``turn_columns()`` and reads it from ``turns`` (one row per
session and invocation): the engine computes every signal's turn columns
in one pass over ``events`` instead of one scan per signal.
``miner.engine.query`` joins every enabled signal's SELECT into the
selection query that DuckDB, Spark SQL and BigQuery run alike; nothing else
lists the signals. Adding a signal is adding a module here (and its golden
cases under ``tests/cases/signals/<name>/``).

Every hit is a ``Reason``: the signal, the rule that fired and the invocation
it fired on, which the draft keeps in the sidecar's provenance and the run
summary counts.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, create_model


def as_tuple(value: Any) -> Any:
    """A TOML list as the tuple a config model holds (anything else as it
    is): TOML arrays arrive as lists, the models hold immutable tuples."""
    return tuple(value) if isinstance(value, list) else value


#: A list of strings in TOML, a tuple in the model: every config table's
#: (``miner.config`` builds on the signals' tables, so it is defined here).
Strings = Annotated[tuple[str, ...], BeforeValidator(as_tuple)]


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
    """One signal. Subclasses set the class attributes and write ``sql``."""

    name: ClassVar[str]
    order: ClassVar[int]
    """Quotas are filled in this order (lowest first)."""
    kinds: ClassVar[tuple[str, ...]]
    """Event types read, in miner's names (``miner.dialects`` maps each plugin's)."""
    all_rows: ClassVar[bool] = False
    """Also reads every row with status ERROR, whatever its type."""
    Config: ClassVar[type[SignalConfig]] = SignalConfig

    def __init__(self, config: Any, context: Context) -> None:
        self.config = config
        self.context = context

    def sql(self) -> str:
        """The signal's hits as a SELECT of ``session_id, invocation_id, rule``
        over ``events`` and ``turns``, in DuckDB's dialect (``miner.engine.sql``
        helps), each hit once: the selection does not look for repeats."""
        raise NotImplementedError

    def steps(self) -> list[tuple[str, str]]:
        """Named relations ``sql`` reads, in order, as (name, SELECT): the
        selection computes each once, before the hits, as a step of its own
        (``miner.engine.query.Stepped``: DuckDB holds a common table
        expression read twice in memory it cannot spill, and runs the
        operators of one query side by side, each with its own buffers).
        A relation read more than once, or one with its own window or
        aggregate, is a step. Each name starts with the signal's name and an
        underscore."""
        return []

    def turn_columns(self) -> dict[str, str]:
        """Aggregates of a turn's ``events`` rows (grouped by ``session_id,
        invocation_id``) that ``sql`` reads from ``turns``, by column name;
        each name starts with the signal's name and an underscore."""
        return {}

    def row_columns(self) -> dict[str, str]:
        """Values of each ``events`` row that ``turn_columns`` read, by
        column name, computed once a row before the turn's aggregates (a
        JSON text parsed once, however many of its keys they read); each
        name starts with the signal's name and an underscore."""
        return {}


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


def signals_config_model(module: str) -> type[BaseModel]:
    """The ``[signals]`` table: one sub-table per registered signal; the
    model named ``SignalsConfig`` in ``module``, where it is bound, so that a
    config pickles (``miner draft`` hands its request over from a child)."""
    fields: dict[str, Any] = {s.name: (s.Config, s.Config()) for s in REGISTRY}
    return create_model(  # type: ignore[call-overload, no-any-return]
        "SignalsConfig",
        __module__=module,
        __config__=ConfigDict(extra="forbid", frozen=True, strict=True),
        **fields,
    )
