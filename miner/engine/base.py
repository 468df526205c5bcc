"""What the draft job needs from an engine, and nothing else: ``Engine``;
and what it knows of one before importing it: ``EngineEntry``.

An engine runs the selection over an opened export (``flag``: the flags
relation and the run's counts; ``pick``: the selection and the pick over
the flags it holds, only the picked sessions' flags coming back) and hands
the picked sessions' rows to a piece of work where the rows are
(``map_sessions``: in this process, or on Spark's executors). The job
(``miner.job``) talks to this protocol only; the CLI picks the entry by
name from ``miner.engine.registry``.

Light to import (the standard library alone; the types the protocol names
are imported for the type checker only): ``miner.draft_start`` asks an
engine's entry, before the job's imports, where the job's first stage may
run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    import pandas as pd

    from miner.config import PipelineConfig
    from miner.sample import Flagged, NegativeFeedback, Picked, PickPlan
    from miner.source import Export
    from miner.window import Window

#: A progress wrapper: (iterable, total or 0, label) -> iterable.
Progress = Callable[[Iterable[Any], int, str], Iterable[Any]]


def no_progress(items: Iterable[Any], _total: int, _label: str) -> Iterable[Any]:
    return items


T = TypeVar("T")

#: Work over some picked sessions' rows (each session's rows all in one call,
#: ``source_file`` included, UTC timestamps): it must be picklable, as Spark
#: ships it to its executors.
SessionWork = Callable[["pd.DataFrame", Progress], T]


class Engine(Protocol):
    """An engine the draft job runs on."""

    def flag(
        self,
        export: Export,
        config: PipelineConfig,
        scan: Window,
        window: Window,
        negative: NegativeFeedback,
    ) -> Flagged:
        """The selection over ``export``'s rows in ``scan`` (the window and
        the sessions' grace): the flags of the sessions that start in
        ``window`` and the run's counts."""
        ...

    def pick(
        self,
        export: Export,
        config: PipelineConfig,
        scan: Window,
        window: Window,
        negative: NegativeFeedback,
        plan: PickPlan,
    ) -> Picked:
        """The selection as ``flag`` runs it, and the pick by ``plan`` over
        the flags the engine holds (``miner.sample.select_and_pick``): what
        the draft job reads."""
        ...

    def map_sessions(
        self,
        export: Export,
        config: PipelineConfig,
        scan: Window,
        session_ids: Sequence[str],
        columns: Sequence[str],
        work: SessionWork[T],
        progress: Progress = no_progress,
    ) -> list[T]:
        """``work`` over the rows in ``scan`` of ``session_ids`` (``columns``
        the export has, plus ``source_file``), where they are read; one
        result per call. ``progress`` is shown where this process runs the
        work."""
        ...


@dataclass(frozen=True)
class EngineEntry:
    """An engine as ``--engine`` names it, before its modules (pyarrow,
    DuckDB or Spark, the config's models) are imported: what it is called,
    how it is built, and where the job's first stage may run on it."""

    name: str
    """What ``--engine`` calls it."""
    build: Callable[[], Engine]
    """The engine, its modules imported by the call."""
    first_stage_apart: bool
    """Whether the draft job's first stage (the config, the export, the
    ledger, the selection and the pick) may run, on a large local export,
    in a child forked before the job's imports (``miner.draft_start``):
    only what the stage found comes back, pickled. The embedded engine's
    selection runs in such a child anyway (``miner.engine.apart``); Spark's
    session, started for the selection, must live on in the job, which
    reads and drafts the picked sessions on it next."""
