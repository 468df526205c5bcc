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

A fork copies only the forking thread: a lock another thread holds at that
moment stays locked in the child for good. ``miner draft`` has no thread
of its own at its forks (its one Python thread is the main one); the
libraries' native ones are there: pyarrow's thread pool and jemalloc's
background thread (idle, and both reset at the fork by handlers of their
own), and, with a remote export, the AWS SDK's event loop, whose HTTP
client resolves names. A test run adds its own threads (Spark's py4j, a
loopback S3 server), and once a child hung for good: closing DuckDB, it
joined a thread that waited on glibc's resolver lock, taken at the fork by
a thread of the parent in ``getaddrinfo``. No Python can free such a lock,
so the parent watches the child while it waits for an answer: one that
uses no CPU for ``STUCK_SECONDS`` is killed, and the step refused in one
line naming it, as a child killed by the kernel is.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import select
import signal
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO, NoReturn, TypeVar

from miner.errors import MinerError

T = TypeVar("T")
C = TypeVar("C")

#: The bytes of an answer's length, before it (``checked_apart``).
_FRAME = 8
#: Whether steps run in a forked child (tests turn it off to compare).
FORK = sys.platform == "linux"
#: Seconds a child may use no CPU at all while this process waits for its
#: answer before it is taken for stuck, killed, and its step refused
#: (``_Child``). A working step uses CPU every second (its scan, its
#: decoding; a remote fetch its client's, each read under a timeout of the
#: client's own); a deadlocked one none: a lock inherited locked at the
#: fork (a thread of this process held it, say glibc's resolver lock in a
#: ``getaddrinfo``) waits forever, and a weekly cron with it.
STUCK_SECONDS = 300.0
#: Seconds between two looks at a silent child's CPU time.
_LOOK_EVERY = 5.0
#: Whether this process is itself such a child: a step asked for here runs
#: here (the child's pages already go when it exits; a grandchild would
#: count them in the tree's RSS again, beside this child waiting).
_in_child = False


def in_child() -> bool:
    """Whether this process is a child ``run_apart`` or ``checked_apart`` forked."""
    return _in_child


def run_apart(step: Callable[[], T], what: str) -> T:
    """``step()``'s result, computed in a forked child process; the
    exception it raised, raised here. ``what`` names the step in the one
    error of the child's own: it ended without an answer (killed, say by
    the kernel out of memory). In such a child already, ``step`` runs there."""
    with checked_apart(_nothing, lambda _none: step(), what) as go_on:
        return go_on()


@contextlib.contextmanager
def checked_apart(
    check: Callable[[], C], then: Callable[[C], T], what: str
) -> Iterator[Callable[[], T]]:
    """A step of two parts in one forked child, this process between them:
    ``check()`` runs in the child first, and entering the block waits for it
    (the exception it raised, raised here; the block not run). The block
    runs here while the child waits, and the function it is given lets the
    child go on with ``then(check())`` and returns its result, as
    ``run_apart`` does. A block left without calling it ends the child.
    In a child already, or with no fork (``FORK``), both parts run here."""
    global _in_child
    if not FORK or _in_child:
        checked = check()
        yield lambda: then(checked)
        return
    # The child's buffered output, and this process's copied into it, must
    # not be written twice: flushed now, the child flushes only its own.
    sys.stdout.flush()
    sys.stderr.flush()
    parent = os.getpid()
    ends: list[int] = []
    try:
        ends += os.pipe()
        ends += os.pipe()
        pid = os.fork()
    except OSError as refused:  # no pipe or no process to be had: none left open
        for end in ends:
            os.close(end)
        reason = refused.strerror or type(refused).__name__
        raise MinerError(f"{what}: its process could not be started ({reason})") from None
    answers_read, answers_write, go_read, go_write = ends
    if pid == 0:  # pragma: no cover (the child: coverage is not collected there)
        _in_child = True
        _end_with(parent)
        os.close(answers_read)
        os.close(go_write)
        # The objects this process had are the child's too, on pages it
        # shares with this one until it writes to them; a full collection in
        # the child writes to every one (its collector's bookkeeping) and
        # made 27 MiB of them its own. Frozen, the collector leaves them be.
        gc.freeze()
        _answer(check, then, what, answers_write, go_read)
    os.close(answers_write)
    os.close(go_read)
    child = _Child(pid, answers_read, go_write, what)
    try:
        child.answer()  # the check's: nothing, or its exception raised
        yield child.go_on
    finally:
        # Interrupted (Ctrl-C), refused between the parts or done: the child
        # must not run on, nor be left unreaped.
        child.end()


def _nothing() -> None:
    return None


#: ``prctl``'s option: the signal the kernel sends this process when the
#: thread that forked it ends (linux/prctl.h).
_PR_SET_PDEATHSIG = 1


def _end_with(parent: int) -> None:  # pragma: no cover (in the child)
    """In the child: be killed when ``parent`` ends, however it ends. Its
    ``finally`` ends the child on every exit it runs, but not when it is
    killed (SIGKILL, the kernel out of memory, SIGTERM's default): the child
    would run its step on, a selection's minutes of CPU and memory, for no
    one to read. The kernel's signal goes when the forking thread ends: the
    main thread, where miner forks."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # it ended before the signal was asked for
        os._exit(1)


class _Child:
    """This process's side of ``checked_apart``'s child: its answers, one
    pickled message each, ``_FRAME`` bytes of length first, read as they
    come while the child is watched: one that uses no CPU for
    ``STUCK_SECONDS`` is killed, the step refused in one line."""

    def __init__(self, pid: int, answers: int, go: int, what: str) -> None:
        self.pid, self.answers, self.go, self.what = pid, answers, go, what
        self.reaped = False

    def answer(self) -> object:
        """The child's next answer; its exception raised here."""
        head = self._read(_FRAME)
        size = int.from_bytes(head, "big") if len(head) == _FRAME else 0
        data = self._read(size) if size else b""
        if not size or len(data) != size:  # the child ended before it answered whole
            raise MinerError(f"{self.what}: its process ended without an answer ({self._reap()})")
        done, value = pickle.loads(data)
        if done:
            return value
        raise value

    def _read(self, size: int) -> bytes:
        """``size`` bytes of the answers, fewer if the child closed them
        first; the child killed and the step refused if it is stuck."""
        got = bytearray()
        watch = select.poll()
        watch.register(self.answers, select.POLLIN)
        busy, since = _cpu_ticks(self.pid), time.monotonic()
        while len(got) < size:
            if watch.poll(_LOOK_EVERY * 1000):
                chunk = os.read(self.answers, min(size - len(got), 2**20))
                if not chunk:
                    break
                got += chunk
                since = time.monotonic()
                continue
            now_busy = _cpu_ticks(self.pid)
            if now_busy != busy:
                busy, since = now_busy, time.monotonic()
            elif time.monotonic() - since >= STUCK_SECONDS:
                os.kill(self.pid, signal.SIGKILL)
                self._reap()
                raise MinerError(
                    f"{self.what}: its process was stuck (no CPU used in "
                    f"{STUCK_SECONDS:g} s) and was killed"
                )
        return bytes(got)

    def go_on(self) -> Any:
        """The second part's result, the child let go on to compute it."""
        # A child that ended before (killed) closed its end: what it was
        # is the answer's error, not a broken pipe (which the CLI takes for
        # its stdout's reader gone).
        with contextlib.suppress(BrokenPipeError):
            os.write(self.go, b"1")
        os.close(self.go)
        self.go = -1
        value = self.answer()
        self._reap()
        return value

    def end(self) -> None:
        if self.go >= 0:
            os.close(self.go)
        os.close(self.answers)
        if not self.reaped:
            os.kill(self.pid, signal.SIGKILL)
            self._reap()

    def _reap(self) -> str:
        """How the child ended, once it did, in words."""
        _, status = os.waitpid(self.pid, 0)
        self.reaped = True
        return _ending(status)


def _cpu_ticks(pid: int) -> int | None:
    """The CPU time process ``pid``'s threads have used, in clock ticks
    (``/proc/<pid>/stat``'s utime and stime); None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            # After the command's name (in parentheses, which may hold
            # spaces), the state is the first field, utime the 12th.
            fields = stat.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    return int(fields[11]) + int(fields[12])


def _answer(
    check: Callable[[], C], then: Callable[[C], object], what: str, answers: int, go: int
) -> NoReturn:  # pragma: no cover
    """In the child: run ``check``, answer (True, None) or (False, its
    exception) to ``answers``; once ``go`` says so, run ``then`` and answer
    (True, its result) or (False, its exception). Then exit without running
    this process's exit handlers (they belong to the parent: its spill
    folders, its locks)."""
    code = 0
    try:
        with os.fdopen(answers, "wb") as out, os.fdopen(go, "rb") as told:
            done, checked = _outcome(check)
            _send((True, None) if done else (False, checked), what, out)
            if done and told.read(1):  # nothing read: the parent let the child go
                _send(_outcome(lambda: then(checked)), what, out)  # type: ignore[arg-type]
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001 - the parent reports an empty answer
        code = 1
    finally:
        os._exit(code)


def _outcome(step: Callable[[], object]) -> tuple[bool, object]:  # pragma: no cover
    """(True, ``step()``) or (False, the exception it raised)."""
    try:
        return True, step()
    except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent
        if not isinstance(exc, MinerError):  # a bug: where it was raised, in the child
            exc.add_note("".join(traceback.format_exception(exc)).rstrip())
        return False, exc


def _send(outcome: tuple[bool, object], what: str, out: BinaryIO) -> None:  # pragma: no cover
    """``outcome`` pickled to ``out``, its length first. What does not
    pickle goes as one line: an exception as ``_one_line`` says, or, for a
    result, the pickling error naming the step ``what`` (never the result's
    text: it may hold trace data)."""
    done, value = outcome
    try:
        data = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
        if not done:
            # An exception pickles as its class and its args, and a class
            # whose constructor takes other arguments fails to unpickle:
            # here, where it can still go as one line, not in the parent.
            pickle.loads(data)
    except Exception as refused:  # noqa: BLE001 - what does not pickle: one line
        if done:
            reason = (str(refused).splitlines() or [""])[0]
            error = MinerError(
                f"{what}: its result does not pickle ({type(refused).__name__}: {reason})"
            )
        else:
            error = _one_line(value, what)  # type: ignore[arg-type]
        data = pickle.dumps((False, error))
    out.write(len(data).to_bytes(_FRAME, "big") + data)
    out.flush()


def _one_line(error: BaseException, what: str) -> MinerError:  # pragma: no cover
    """An exception that does not pickle, as a MinerError of one line: a
    MinerError's first line (its messages never quote trace text) and exit
    code; for any other, a bug, its type and where it was raised in the step
    ``what``, never its text (it may quote trace data, as ``miner.cli``
    says), which MINER_DEBUG=1 writes to stderr with its traceback."""
    if isinstance(error, MinerError):
        one = MinerError((str(error).splitlines() or [""])[0])
        one.exit_code = error.exit_code
        return one
    if os.environ.get("MINER_DEBUG"):
        sys.stderr.write("".join(traceback.format_exception(error)))
    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno}" if frames else ""
    return MinerError(
        f"{what}: internal error ({type(error).__name__}{where}); "
        "rerun with MINER_DEBUG=1 for the traceback (it may show trace data)"
    )


def _ending(status: int) -> str:
    """How a child ended, from ``waitpid``'s status, in words."""
    if not os.WIFSIGNALED(status):
        return f"exit code {os.WEXITSTATUS(status)}"
    number = os.WTERMSIG(status)
    if number == signal.SIGKILL:
        return "killed by SIGKILL: out of memory?"
    return f"killed by signal {number}"
