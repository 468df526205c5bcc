"""How ``miner draft`` starts its job: in this process, or, on a large
local export, with its first stage (config, export, ledger, selection and
pick) in a child forked before this process imports the job.

Light to import (the standard library, ``miner.output`` and
``miner.engine.apart``): the point of the fork is a child that starts
without the job's imports (pandas, pyarrow, DuckDB, the config's models:
130 MiB), so this module must not bring them. The CLI parses and prints;
what the job runs where is decided here."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from miner.engine.base import Progress
    from miner.first_stage import DraftRequest, Selected
    from miner.summary import RunSummary

#: A local export of at least this many bytes has ``miner draft``'s first
#: stage run in a child forked before the job's imports (``run_draft``): at
#: 20M small-files rows (5.2 GB) the process tree's summed RSS was 474-497
#: MiB against 548-563 (5M rows, 1.5 GB: 395-398 against 448-453). Not
#: below: the job's imports, made in the child and again in the job, cost
#: CPU (0.1-0.3 s), a fixed cost of each draft.
SELECT_APART_BYTES = 2**30


def export_bytes(traces: str | None) -> int:
    """The bytes of the files under ``--traces`` if it names a local file or
    folder (0 otherwise: a URI, or no ``--traces``), from the file system
    alone: nothing imported, no footer read."""
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


def run_draft(
    request_of: Callable[[], DraftRequest],
    *,
    engine: str,
    traces: str | None,
    out: Path,
    lock_timeout: float,
    progress: Progress,
) -> RunSummary:
    """The draft job of the request ``request_of()`` builds (called where
    the job's first stage runs: it reads the config and may open the
    export), for the engine named ``engine`` and the ``--traces`` given."""
    from miner.engine import apart

    if engine != "embedded" or not apart.FORK or export_bytes(traces) < SELECT_APART_BYTES:
        from miner import job

        return job.run_draft(request_of(), progress=progress)
    from miner import output

    # The job's first stage, up to the engine's picks, in a child forked
    # before this process imports the job: this process waits beside it at
    # 25 MiB, not 140, and the child counts none of its pages again. The
    # selection runs in that child itself (``run_apart`` there).
    with output.locked(out, lock_timeout, "miner draft"):
        removed = output.remove_stale_staging(out)

        def first_stage() -> Selected:
            from miner.first_stage import check_window, select_sessions

            request = request_of()
            check_window(request)
            return select_sessions(request)

        # Handed over as a list's ``pop``: what the stage found is then
        # held by the job alone, and let go once read.
        found = [apart.run_apart(first_stage, f"{traces}: the selection")]
        from miner.job import draft_selected

        return draft_selected(found.pop, progress, removed)
