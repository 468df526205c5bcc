"""Running a step of the embedded engine in a child process of its own, so
that the memory the step used goes back to the system when it ends.

What a scan leaves resident in the process that ran it is not only heap
``malloc_trim`` can hand back (``miner.loading.release_freed_memory``):
after the selection of 20M Go rows, connection closed and heap trimmed,
the job held 215 MiB against 150 before it, 41 MiB of it DuckDB's own
library code (a 66 MB shared object, its pages resident once run, counted
in RSS as file-backed pages) and the rest heap left in use; and the model
phase then grew 20 MiB more on that base than on a fresh one: 505 MiB at
the peak against 442 with the selection in a child (docs/performance.md,
"What a run holds"). A child's pages all go back when it exits, whatever
holds them; only its result comes back, pickled through a pipe (the picked
sessions' flags, the counts and the left-out sessions' hashes: 14 MiB at
20M rows; or the picked sessions' rows).

The child is a fork: it starts with everything this process has loaded
(no import again, no pickling of the arguments) and costs milliseconds.
Only on Linux: macOS's system libraries are not safe to fork, and Windows
has no fork; there the step runs in this process, as before.

A harness that sums the RSS of the job's process tree counts the pages the
child shares with the job twice, but a fork is still the smallest child: at
its start its RSS is the job's anonymous pages (81 MiB; the libraries' code
it faults in as it runs, as any process would), while a fresh interpreter
importing DuckDB and pyarrow's datasets alone holds 93 MiB, and one
importing the engine's modules (pandas and pydantic come with them) 127.
Measured on 1M Go rows, the selection in a spawned interpreter peaked at
301 MiB against 260 forked, the tree's summed RSS at 439-443 against
400-403, and cost 0.4 s more CPU. Smaller still is a fork of a process that
has imported nothing yet: on a large export ``miner draft`` runs its first
stage, up to the engine's picks, in such a child (``miner.draft_start``), and
the selection runs in that child itself (a step asked for in a child runs
there).
"""

from __future__ import annotations

import gc
import os
import pickle
import signal
import sys
import traceback
from collections.abc import Callable
from typing import TypeVar

from miner.errors import MinerError

T = TypeVar("T")

#: Whether steps run in a forked child (tests turn it off to compare).
FORK = sys.platform == "linux"
#: Whether this process is itself such a child: a step asked for here runs
#: here (the child's pages already go when it exits; a grandchild would
#: count them in the tree's RSS again, beside this child waiting).
_in_child = False


def in_child() -> bool:
    """Whether this process is a child ``run_apart`` forked."""
    return _in_child


def run_apart(step: Callable[[], T], what: str) -> T:
    """``step()``'s result, computed in a forked child process; the
    exception it raised, raised here. ``what`` names the step in the one
    error of the child's own: it ended without an answer (killed, say by
    the kernel out of memory). In such a child already, ``step`` runs there."""
    global _in_child
    if not FORK or _in_child:
        return step()
    # The child's buffered output, and this process's copied into it, must
    # not be written twice: flushed now, the child flushes only its own.
    sys.stdout.flush()
    sys.stderr.flush()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child: coverage is not collected there)
        _in_child = True
        os.close(read_end)
        # The objects this process had are the child's too, on pages it
        # shares with this one until it writes to them; a full collection in
        # the child writes to every one (its collector's bookkeeping) and
        # made 27 MiB of them its own. Frozen, the collector leaves them be.
        gc.freeze()
        _answer(step, what, write_end)
    os.close(write_end)
    try:
        with os.fdopen(read_end, "rb") as answer:
            data = answer.read()
    except BaseException:  # interrupted here (Ctrl-C): the child must not run on
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise
    _, status = os.waitpid(pid, 0)
    if not data:
        raise MinerError(f"{what}: its process ended without an answer ({_ending(status)})")
    done, value = pickle.loads(data)
    if done:
        return value  # type: ignore[no-any-return]
    raise value


def _answer(step: Callable[[], object], what: str, write_end: int) -> None:  # pragma: no cover
    """In the child: run ``step``, pickle (True, result) or (False, the
    exception) to ``write_end``, and exit without running this process's
    exit handlers (they belong to the parent: its spill folders, its locks).
    What does not pickle comes back as one line: an exception's first line,
    or, for a result, the pickling error naming the step ``what`` (never the
    result's text: it may hold trace data)."""
    code = 0
    try:
        try:
            outcome: tuple[bool, object] = (True, step())
        except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent
            if not isinstance(exc, MinerError):  # a bug: where it was raised, in the child
                exc.add_note("".join(traceback.format_exception(exc)).rstrip())
            outcome = (False, exc)
        try:
            data = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as refused:  # noqa: BLE001 - what does not pickle: one line
            done, value = outcome
            if done:
                reason = (str(refused).splitlines() or [""])[0]
                error = MinerError(
                    f"{what}: its result does not pickle ({type(refused).__name__}: {reason})"
                )
            else:
                lines = str(value).splitlines() or [""]
                error = MinerError(f"{type(value).__name__}: {lines[0]}")
            data = pickle.dumps((False, error))
        with os.fdopen(write_end, "wb") as out:
            out.write(data)
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001 - the parent reports an empty answer
        code = 1
    finally:
        os._exit(code)


def _ending(status: int) -> str:
    """How a child ended, from ``waitpid``'s status, in words."""
    if not os.WIFSIGNALED(status):
        return f"exit code {os.WEXITSTATUS(status)}"
    number = os.WTERMSIG(status)
    if number == signal.SIGKILL:
        return "killed by SIGKILL: out of memory?"
    return f"killed by signal {number}"
