"""The engines by name, for ``miner draft --engine``: the one place a name
becomes an engine (``miner.engine.base.EngineEntry``).

Light to import: an engine's modules are imported when it is built, not
here, as ``miner.draft_start`` asks the chosen entry before the job's
imports where the job's first stage may run."""

from __future__ import annotations

from typing import TYPE_CHECKING

from miner.engine.base import EngineEntry
from miner.errors import UsageError

if TYPE_CHECKING:
    from miner.engine.base import Engine


def _embedded() -> Engine:
    from miner.engine.embedded import EmbeddedEngine

    return EmbeddedEngine()


def _spark() -> Engine:
    from miner.engine.spark import SparkEngine

    return SparkEngine()


#: Each engine by the name ``--engine`` gives it; the first is the default.
ENGINES: dict[str, EngineEntry] = {
    entry.name: entry
    for entry in (
        EngineEntry("embedded", _embedded, first_stage_apart=True),
        EngineEntry("spark", _spark, first_stage_apart=False),
    )
}


def engine_named(name: str) -> EngineEntry:
    """The engine ``--engine name`` asks for, not built yet."""
    try:
        return ENGINES[name]
    except KeyError:
        raise UsageError(f"--engine {name!r}: expected {' or '.join(ENGINES)}") from None
