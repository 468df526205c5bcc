"""How ``miner draft`` runs its job: what was asked (``DraftAsked``) made
a request (the engine named, the config read, the export found, the window
and the sampling's defaults), and one frame (the request built and checked,
then ``out``'s lock, the stale staging removed, the first stage's selection
and the job), whose first stage runs in this process, or, on a large local
export, in a child forked before this process imports the job.

Light to import (the standard library, ``miner.output``, ``miner.errors``,
``miner.engine.apart``, ``miner.engine.registry`` and ``miner.config_paths``):
the point of the fork is a child that starts without the job's imports
(pandas, pyarrow, DuckDB, the config's models: 130 MiB), so this module
must not bring them. The CLI parses and prints; what the job runs where
is decided here."""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from miner import output
from miner.config_paths import read_toml, traces_named_in
from miner.engine import apart
from miner.engine.registry import engine_named
from miner.errors import UsageError

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from miner.engine.base import EngineEntry, Progress
    from miner.first_stage import DraftRequest, Selected
    from miner.summary import RunSummary

#: A local export of at least this many bytes has ``miner draft``'s first
#: stage run in a child forked before the job's imports, if the engine lets
#: it (``EngineEntry.first_stage_apart``): at 20M small-files Java rows
#: (5.2 GB) the process tree's summed RSS is 432-434 MiB with the job's
#: imports after the selection, 524 with them beside it (5M: 403 against
#: 453; docs/performance.md). Not below: the job's imports, made in
#: the child and again in the job, cost CPU (0.1-0.3 s), a fixed cost of
#: each draft.
SELECT_APART_BYTES = 2**30


@dataclass(frozen=True)
class DraftAsked:
    """What ``miner draft`` was asked, its options as typed; None where the
    config's value is the default."""

    since: str
    """A time as ``miner.window.parse_time`` reads it, a relative one
    (``7d``) before ``until``, not before now."""
    until: str
    """A time as ``miner.window.parse_time`` reads it, or ``latest``: the
    export's newest event."""
    traces: Path | str | None
    """The export (a URI kept a string); None: the config's ``[sources] traces``."""
    feedback: Path | None
    out: Path
    per_signal: int | None
    max_cases: int | None
    seed: int | None
    engine: str
    lock_timeout: float


def run_draft(asked: DraftAsked, config_path: Path, progress: Progress) -> RunSummary:
    """``miner draft``'s run of what was ``asked``, with the config at
    ``config_path``: the job of ``run_draft_job`` on the engine asked for.

    The config's TOML is read once, here, before the job's imports: its
    ``[sources] traces`` (when no export was asked for) is the export whose
    size decides where the first stage runs, and the same text, parsed, is
    checked into the request's config where the request is built."""
    engine = engine_named(asked.engine)
    toml = read_toml(config_path)
    traces = asked.traces if asked.traces is not None else traces_named_in(toml, config_path)
    return run_draft_job(
        functools.partial(_request, asked, engine, toml, config_path, traces),
        engine=engine,
        traces=traces,
        out=asked.out,
        lock_timeout=asked.lock_timeout,
        progress=progress,
    )


def _request(
    asked: DraftAsked,
    engine: EngineEntry,
    toml: dict[str, Any],
    config_path: Path,
    traces: Path | str | None,
) -> DraftRequest:
    """The run's ``DraftRequest``: the config ``toml`` checked (read from
    ``config_path``), the window, the engine built, and what was not asked
    for taken from the config. Called where the first stage runs."""
    from miner import source
    from miner.config import config_from_toml
    from miner.first_stage import DraftRequest
    from miner.window import now, parse_time, run_clock

    config = config_from_toml(toml, config_path)
    clock = run_clock()
    if traces is None:
        raise UsageError(f"no trace export: pass --traces or set [sources] traces in {config.path}")
    opened = None
    if asked.until.strip() == "latest":
        opened = source.open_export(traces)
        newest = source.latest_timestamp(opened)
        if newest is None:
            raise UsageError(f"--until latest: {traces} holds no events")
        # The window is half-open: end on the second after the newest event.
        end = newest.replace(microsecond=0) + timedelta(seconds=1)
    else:
        end = parse_time(asked.until, now(clock), "--until")
    return DraftRequest(
        config=config,
        traces=traces,
        feedback=asked.feedback or config.sources.feedback,
        out=asked.out,
        since=parse_time(asked.since, end, "--since"),
        until=end,
        per_signal=asked.per_signal or config.sampling.per_signal,
        max_cases=asked.max_cases or config.sampling.max_cases,
        seed=config.sampling.seed if asked.seed is None else asked.seed,
        engine=engine.build(),
        now=clock,
        opened=opened,
    )


def export_bytes(traces: Path | str | None) -> int:
    """The bytes of the files under ``traces`` if it names a local file or
    folder (0 otherwise: a URI, or no export), from the file system alone:
    nothing imported, no footer read."""
    if traces is None or not os.path.exists(traces):
        return 0
    if os.path.isfile(traces):
        return os.path.getsize(traces)
    total = 0
    for folder, _dirs, files in os.walk(traces):
        for file in files:
            with contextlib.suppress(OSError):
                total += os.path.getsize(os.path.join(folder, file))
    return total


def first_stage_apart(engine: EngineEntry, traces: Path | str | None) -> bool:
    """Whether the job's first stage runs in a child forked before the job's
    imports: if ``engine`` lets it and the export the run reads, ``traces``,
    is a local one of ``SELECT_APART_BYTES`` or more."""
    return engine.first_stage_apart and export_bytes(traces) >= SELECT_APART_BYTES


def run_draft_job(
    request_of: Callable[[], DraftRequest],
    *,
    engine: EngineEntry,
    traces: Path | str | None,
    out: Path,
    lock_timeout: float,
    progress: Progress,
) -> RunSummary:
    """The draft job of the request ``request_of()`` builds (called where
    the job's first stage runs: it checks the config and may open the
    export), on ``engine``, over the export ``traces`` (--traces, or the
    config's), into ``out``.

    One run at a time per output folder: the run holds ``out``'s lock from
    reading the ledger to writing it, so two runs never draft the same
    session or lose each other's ledger entries. A request refused (a window
    that ends before it starts, a bad config) is refused before the lock is
    waited for, and leaves no output."""
    if first_stage_apart(engine, traces):
        stage = _first_stage_in_child(request_of, traces)
    else:
        stage = _first_stage_here(request_of)
    with stage as select, output.locked(out, lock_timeout, "miner draft"):
        removed = output.remove_stale_staging(out)
        # The selection before the job's imports (pandas, pyarrow, the
        # policy's lists: 90 MiB): made while a child selects, they are
        # this process's own pages beside the child's whole selection (the
        # tree's summed RSS at 5M small-files Java rows: 453 MiB, against
        # 403 with them made after it, the job's own peak then the tree's).
        # Handed over as a list's ``pop``: what the stage found is then held
        # by the job alone, and let go once read.
        found = [select()]
        from miner.job import draft_selected

        return draft_selected(found.pop, progress, removed)


@contextlib.contextmanager
def _first_stage_here(
    request_of: Callable[[], DraftRequest],
) -> Iterator[Callable[[], Selected]]:
    """The first stage in this process: the request built and checked on
    entering, the selection when the function given is called."""
    yield functools.partial(_selected, _checked_request(request_of))


def _first_stage_in_child(
    request_of: Callable[[], DraftRequest], traces: Path | str | None
) -> AbstractContextManager[Callable[[], Selected]]:
    """The first stage in a child forked now, before this process imports
    the job: this process waits beside it at 25 MiB, not 140, and the child
    counts none of its pages again. The request is built and checked there
    on entering; the selection runs there too (``run_apart`` in that child)
    once the function given is called, which hands back what it found
    (then held by the job alone, and let go once read)."""
    return apart.checked_apart(
        functools.partial(_checked_request, request_of), _selected, f"{traces}: the selection"
    )


def _checked_request(request_of: Callable[[], DraftRequest]) -> DraftRequest:
    """The request, its window refused if it ends before it starts."""
    from miner.first_stage import check_window

    request = request_of()
    check_window(request)
    return request


def _selected(request: DraftRequest) -> Selected:
    from miner.first_stage import select_sessions

    return select_sessions(request)
