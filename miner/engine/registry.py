"""The engines by name, for ``miner draft --engine``: the one place a name
becomes an engine (``miner.engine.base.Engine``)."""

from __future__ import annotations

from miner.engine.base import Engine
from miner.engine.embedded import EmbeddedEngine
from miner.engine.spark import SparkEngine
from miner.errors import UsageError

#: Each engine by the name ``--engine`` gives it; the first is the default.
ENGINES: dict[str, type[Engine]] = {engine.name: engine for engine in (EmbeddedEngine, SparkEngine)}


def engine_named(name: str) -> Engine:
    """The engine ``--engine name`` asks for."""
    try:
        return ENGINES[name]()
    except KeyError:
        raise UsageError(f"--engine {name!r}: expected {' or '.join(ENGINES)}") from None
