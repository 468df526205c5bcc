"""The draft job's first stage: the request, and what it finds up to the
engine's picks (the export opened, the feedback and the ledger read, the
selection and the pick).

A module of its own, apart from ``miner.job``, for what it imports: on a
large local export the stage runs in a child forked before the job's
imports (``miner.draft_start``), and that child's RSS counts every page it
imports (pandas alone: 33 MiB, beside DuckDB's pool at the selection's
peak). So this module, and those it imports, import only what the
selection and the pick need: the config's models, pyarrow's Parquet
reader, DuckDB, numpy; pandas where a frame is built, not here; the
redaction's word lists, the report and google-adk not at all
(``tests/test_imports.py`` and ``tests/test_apart.py`` hold them to it).
"""

from __future__ import annotations

import importlib.abc
import sys
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from miner import output, source
from miner.config import PipelineConfig
from miner.engine import apart
from miner.engine.base import Engine
from miner.errors import UsageError
from miner.loading import release_freed_memory
from miner.redaction.runtime import require_model
from miner.sample import Picked, PickPlan, read_negative_feedback
from miner.window import Window


@dataclass(frozen=True)
class DraftRequest:
    config: PipelineConfig
    traces: Path | str
    """A local path, or an s3:// or gs:// URI."""
    feedback: Path | None
    out: Path
    since: datetime
    until: datetime
    per_signal: int
    max_cases: int
    seed: int
    engine: Engine
    """Where the selection and the drafting run (``miner.engine.registry``);
    the drafts, ledger and summary are written here whatever the engine."""
    now: datetime
    """The run's clock (``window.run_clock``), read once as the run starts:
    the ``now`` of its window, its drafts' ``draftedAt`` and its name."""
    opened: source.Export | None = None
    """``traces`` opened, when building the request opened it already
    (``--until latest`` reads its newest time): not opened again, its
    footers not read twice (10,009 small files: seconds)."""


def check_window(request: DraftRequest) -> None:
    """Refuse a window that ends before it starts."""
    if request.since >= request.until:
        raise UsageError(
            f"--since {request.since.isoformat()} is not before --until {request.until.isoformat()}"
        )


@dataclass(frozen=True)
class Selected:
    """The job's first stage, what ``select_sessions`` found: the export
    opened, the ledger read and the engine's picks, for ``request``. Pickled
    whole when the stage runs in a child of its own (``miner.draft_start``)."""

    request: DraftRequest
    export: source.Export
    drafted_before: frozenset[str]
    found: Picked


def select_sessions(request: DraftRequest) -> Selected:
    """The job's first stage, under ``out``'s lock: the export opened, the
    feedback and the ledger read, and the engine's selection and pick."""
    config = request.config
    # Checked first, so a missing NLP model stops the run before any scanning;
    # loaded after the scan, so the scan's peak memory and the model's do not add up.
    require_model(config)
    export = request.opened or source.open_export(request.traces)
    _without_pandas(export)

    negative = read_negative_feedback(request.feedback, config.feedback)
    grace = config.sampling.session_grace
    scan_start, scan_end = request.since - grace, request.until + grace
    drafted_before = output.read_ledger(request.out)
    plan = PickPlan(
        drafted_before,
        output.read_ledger_signatures(request.out),
        per_signal=request.per_signal,
        max_cases=request.max_cases,
        seed=request.seed,
    )
    # The engine holds the flags of every flagged session (a million, in a
    # big week) and picks over them: this process gets the picked sessions'
    # flags, the counts and the left-out sessions' hashes, and hands the heap
    # the engine's results used back before the picked sessions' rows are
    # read and the model loads (``_draft_rows``).
    # Opening the export reads every file's footer: 10,009 small files took
    # the job from 150 to 264 MiB, 174 once handed back. Handed back before
    # the embedded engine's child starts, with all of it counted in its RSS.
    release_freed_memory()
    found = request.engine.pick(
        export,
        config,
        Window(scan_start, scan_end),
        Window(request.since, request.until),
        negative,
        plan,
    )
    # A copy without what the export cached (its pyarrow dataset), which
    # would be pickled too; and the request without a second copy of it.
    return Selected(replace(request, opened=None), replace(export), drafted_before, found)


class _NoPandas(importlib.abc.MetaPathFinder):
    """An import finder for which pandas is not installed."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> None:
        if name == "pandas" or name.startswith("pandas."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)


def _without_pandas(export: source.Export) -> None:
    """In a child forked before pandas was imported (the first stage's, on
    a large export), pandas made unimportable for the child's life.

    The stage builds no frame, but pyarrow imports pandas, if it can, on
    its first conversion of a Python value (``pa.array``, ``pa.scalar``,
    ``to_pylist``): 33 MiB of its pages counted in the child's RSS beside
    DuckDB's pool. Told there is none, pyarrow does without. Not in the job
    (it drafts with pandas next), nor in a child forked from it (pandas is
    imported there already), nor for an export of nanosecond times: pyarrow
    hands those to Python as pandas Timestamps (the sessions' starts)."""
    timestamp = export.schema.field("timestamp").type
    if apart.in_child() and "pandas" not in sys.modules and timestamp.unit != "ns":
        sys.meta_path.insert(0, _NoPandas())
