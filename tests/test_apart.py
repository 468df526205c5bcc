"""The embedded engine's steps run in a forked child (``miner.engine.apart``):
the result and the errors come back as in one process, and the memory the
step used does not stay in this one."""

from __future__ import annotations

import errno
import gc
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from miner.engine import apart
from miner.engine.apart import run_apart
from miner.errors import InputError, MinerError

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="steps run apart on Linux only")


def _resident_mib() -> int:
    with open("/proc/self/status", encoding="ascii") as lines:
        for line in lines:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    raise AssertionError("no VmRSS")


def test_the_step_runs_in_another_process_and_its_result_comes_back():
    pid, rows = run_apart(lambda: (os.getpid(), [{"n": n} for n in range(1000)]), "the step")
    assert pid != os.getpid()
    assert rows == [{"n": n} for n in range(1000)]


#: What a step leaves behind when it returns (as DuckDB's threads leave
#: their arenas): in the child's memory, not in this process.
_LEFT_BEHIND: list[str] = []


def test_what_the_step_left_behind_is_not_held_here():
    before = _resident_mib()

    def allocate() -> int:
        _LEFT_BEHIND.extend(str(n) * 20 for n in range(2_000_000))  # 200 MiB
        return len(_LEFT_BEHIND)

    assert run_apart(allocate, "the step") == 2_000_000
    assert not _LEFT_BEHIND
    assert _resident_mib() - before < 30


def test_the_steps_error_is_raised_here_as_it_was_raised():
    def refuse() -> None:
        raise InputError(f"traces/part.parquet: no session_id column (in {os.getpid()})")

    with pytest.raises(InputError, match="no session_id column") as raised:
        run_apart(refuse, "the step")
    assert str(os.getpid()) not in str(raised.value)


def test_a_bug_in_the_step_keeps_its_traceback_from_the_child():
    def broken() -> int:
        found: dict[str, int] = {}
        return found["missing"]

    with pytest.raises(KeyError) as raised:
        run_apart(broken, "the step")
    assert any("in broken" in note for note in raised.value.__notes__)


def test_a_miner_error_that_does_not_pickle_comes_back_as_its_first_line_and_exit_code():
    class Unpicklable(InputError):
        pass  # a local class: pickle cannot find it by name

    def refuse() -> None:
        raise Unpicklable("traces/part.parquet: no session_id column\nsecond line")

    with pytest.raises(MinerError, match=r"^traces/part.parquet: no session_id column$") as raised:
        run_apart(refuse, "the step")
    assert raised.value.exit_code == InputError.exit_code


class _RebuiltFromTwoArguments(Exception):
    """Pickles (its args are its message), but does not unpickle: rebuilt
    from one argument, where its constructor takes two."""

    def __init__(self, column: str, value: str) -> None:
        super().__init__(f"{column}: {value}")


@pytest.mark.parametrize("kind", ["does not pickle", "does not unpickle"])
def test_a_bug_that_does_not_pickle_comes_back_without_its_text(kind):
    # A bug's text may quote trace data: the CLI prints only its type and
    # place (``miner.cli.reported``), and so must what stands in for it.
    class Unpicklable(Exception):
        pass  # a local class: pickle cannot find it by name

    def refuse() -> None:
        if kind == "does not pickle":
            raise Unpicklable("secret trace text\nsecond line")
        raise _RebuiltFromTwoArguments("email", "secret trace text")

    with pytest.raises(MinerError) as raised:
        run_apart(refuse, "the step")
    message = str(raised.value)
    name = "Unpicklable" if kind == "does not pickle" else "_RebuiltFromTwoArguments"
    assert message.startswith(f"the step: internal error ({name} at test_apart.py:"), message
    assert "secret" not in message and "\n" not in message


def test_a_result_that_does_not_pickle_is_the_pickling_error_naming_the_step():
    def unpicklable() -> object:
        return lambda: "secret trace text"  # a lambda does not pickle

    with pytest.raises(MinerError) as raised:
        run_apart(unpicklable, "the step")
    message = str(raised.value)
    assert message.startswith("the step: its result does not pickle (")
    assert "lambda" in message and "secret" not in message and "\n" not in message


def test_a_killed_step_is_one_line_naming_the_step():
    parent = os.getpid()

    def killed() -> None:
        if os.getpid() == parent:  # not apart: never kill the test run
            raise AssertionError("the step ran in this process")
        os.kill(os.getpid(), signal.SIGKILL)

    with pytest.raises(MinerError) as raised:
        run_apart(killed, "traces: the selection")
    message = str(raised.value)
    assert message.startswith("traces: the selection: ") and "out of memory?" in message
    assert "\n" not in message


def _watched_closely(monkeypatch, stuck: float) -> None:
    """A child taken for stuck after ``stuck`` seconds without CPU, looked at often."""
    monkeypatch.setattr(apart, "STUCK_SECONDS", stuck)
    monkeypatch.setattr(apart, "_LOOK_EVERY", 0.1)


def test_a_child_stuck_on_a_lock_held_at_the_fork_is_killed_naming_the_step(monkeypatch):
    # A lock a thread of this process holds at the fork is copied locked
    # into the child, where no thread will ever release it (as glibc's
    # resolver lock, held by a thread in getaddrinfo): the child waits
    # forever without CPU, and without the watch so would the cron's run.
    _watched_closely(monkeypatch, stuck=1.0)
    held, release = threading.Lock(), threading.Event()
    taken = threading.Event()

    def hold() -> None:
        with held:
            taken.set()
            release.wait()

    holder = threading.Thread(target=hold)
    holder.start()
    taken.wait()
    started = time.monotonic()
    try:
        with pytest.raises(MinerError) as raised:
            run_apart(held.acquire, "traces: the selection")
    finally:
        release.set()
        holder.join()
    assert time.monotonic() - started < 20
    assert str(raised.value) == (
        "traces: the selection: its process was stuck (no CPU used in 1 s) and was killed"
    )


def test_a_busy_step_longer_than_the_stuck_bound_is_left_to_finish(monkeypatch):
    _watched_closely(monkeypatch, stuck=0.5)

    def busy() -> int:
        spins, until = 0, time.monotonic() + 2.0
        while time.monotonic() < until:
            spins += 1
        return spins

    assert run_apart(busy, "the step") > 0


def test_a_childs_cpu_time_is_read_past_a_name_holding_brackets_and_spaces():
    # The watch reads utime and stime after the command's name, which is the
    # process's own to set: one holding ") 1 2 (" shifts a split's fields.
    spin = (
        "import os, sys, time\n"
        "open('/proc/self/comm', 'w').write('x) 1 2 (y')\n"
        "until = time.process_time() + 0.3\n"
        "while time.process_time() < until: pass\n"
        "used = os.times()\n"
        "print(used.user + used.system, flush=True)\n"
        "sys.stdin.read()\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", spin], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        used = float(child.stdout.readline())
        with open(f"/proc/{child.pid}/comm") as comm:
            assert comm.read().strip() == "x) 1 2 (y"
        ticks = apart._cpu_ticks(child.pid)
    finally:
        child.kill()
        child.wait()
    assert ticks is not None
    assert abs(ticks / os.sysconf("SC_CLK_TCK") - used) <= 0.05, (ticks, used)
    assert apart._cpu_ticks(child.pid) is None  # gone: None, as the watch expects


def test_steps_forked_beside_a_thread_resolving_names_end_in_bounded_time(monkeypatch):
    # The deadlock once seen: a child's thread, ending, waited forever on
    # glibc's resolver lock, taken at the fork by a thread of the parent in
    # getaddrinfo. Each step here resolves a name and ends a thread of its
    # own: it finishes, or its child is found stuck and the step refused.
    _watched_closely(monkeypatch, stuck=2.0)
    stop = threading.Event()

    def resolve() -> None:
        while not stop.is_set():
            socket.getaddrinfo("localhost", 80)

    def resolved_in_a_thread() -> int:
        found: list[object] = []
        worker = threading.Thread(target=lambda: found.extend(socket.getaddrinfo("localhost", 80)))
        worker.start()
        worker.join()
        return len(found)

    # Its codec imported first: a fork while the thread imports it left the
    # child a module half made ("unknown encoding: idna"), another lock.
    socket.getaddrinfo("localhost", 80)
    resolver = threading.Thread(target=resolve)
    resolver.start()
    started, outcomes = time.monotonic(), []
    try:
        for _ in range(20):
            try:
                outcomes.append(run_apart(resolved_in_a_thread, "the step") > 0)
            except MinerError as refused:
                assert "its process was stuck" in str(refused)
                outcomes.append(True)
    finally:
        stop.set()
        resolver.join()
    assert outcomes == [True] * 20
    assert time.monotonic() - started < 120


def test_a_fork_refused_is_one_line_naming_the_step_and_leaves_no_pipe_open(monkeypatch):
    opened: list[int] = []
    pipe = os.pipe

    def recorded_pipe() -> tuple[int, int]:
        ends = pipe()
        opened.extend(ends)
        return ends

    def refused() -> int:
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "pipe", recorded_pipe)
    monkeypatch.setattr(os, "fork", refused)
    with pytest.raises(MinerError) as raised:
        run_apart(lambda: "never", "traces: the selection")
    message = str(raised.value)
    assert message == (
        "traces: the selection: its process could not be started (Resource temporarily unavailable)"
    )
    assert len(opened) == 4
    for end in opened:
        with pytest.raises(OSError) as closed:
            os.fstat(end)
        assert closed.value.errno == errno.EBADF


def test_the_embedded_engines_selection_runs_apart(monkeypatch):
    # The selection's DuckDB (and its heap) lives in the child: a failure
    # inside it names the child's process, not this one.
    import miner.engine.embedded as embedded
    from miner.config import load_config
    from miner.sample import PickPlan, negative_feedback
    from miner.source import open_export
    from miner.window import Window

    def where_it_ran(*_args, **_kwargs):
        raise InputError(f"ran in process {os.getpid()}")

    monkeypatch.setattr(embedded, "select_and_pick", where_it_ran)
    root = Path(__file__).resolve().parent.parent
    config = load_config(root / "pipelines" / "support_agent.toml")
    window = Window(datetime(2026, 1, 1, tzinfo=UTC), datetime(2027, 1, 1, tzinfo=UTC))
    plan = PickPlan(frozenset(), frozenset(), per_signal=1, max_cases=1, seed=0)
    export = open_export(root / "tests" / "golden" / "python")
    with pytest.raises(InputError, match="ran in process") as raised:
        embedded.EmbeddedEngine().pick(
            export, config, window, window, negative_feedback(None, config.feedback), plan
        )
    assert str(raised.value) != f"ran in process {os.getpid()}"


def _private_mib() -> int:
    """This process's pages no other process shares, MiB."""
    with open("/proc/self/smaps_rollup", encoding="ascii") as rollup:
        kinds = ("Private_Clean:", "Private_Dirty:")
        return sum(int(line.split()[1]) for line in rollup if line.startswith(kinds)) // 1024


def test_the_childs_collector_leaves_this_processs_objects_shared():
    # 500,000 objects of this process: a full collection in the child would
    # write to each (33 MiB made the child's own); frozen there, it does not.
    held = [[n] for n in range(500_000)]

    def collect() -> int:
        before = _private_mib()
        gc.collect()
        return _private_mib() - before

    frozen = gc.get_freeze_count()  # earlier tests' models may be frozen (miner.loading)
    assert run_apart(collect, "the step") < 8
    # This process's objects not frozen: a freeze here would have taken the
    # 500,000 held; the count may fall by a few as frozen objects are freed.
    assert gc.get_freeze_count() < frozen + len(held)


def test_the_job_does_not_import_the_detector_before_its_scan(tmp_path):
    # The detector's word lists would sit under the scan's child, counted in
    # its RSS too: the job imports them after the scan (miner.job._policy).
    root = Path(__file__).resolve().parent.parent
    spy = (
        "import sys\n"
        "import miner.cli, miner.engine.embedded as embedded\n"
        "from miner.errors import InputError\n"
        "def pick(*args, **kwargs):\n"
        "    loaded = 'miner.redaction.detector' in sys.modules\n"
        "    raise InputError(f'detector at the scan: {loaded}')\n"
        "embedded.EmbeddedEngine.pick = pick\n"
        "sys.argv = ['miner', 'draft', '--pipeline', 'pipelines/support_agent.toml', '--traces',\n"
        "            'tests/golden/python', '--since', '2026-01-01', '--until', 'latest',\n"
        f"            '--out', {str(tmp_path / 'out')!r}]\n"
        "miner.cli.main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", spy], cwd=root, capture_output=True, text=True, check=False
    )
    assert "detector at the scan: False" in done.stderr, done.stderr[-2000:]


def test_a_step_asked_for_in_a_child_runs_in_that_child():
    # A grandchild would count the child's pages again beside it waiting.
    outer, inner = run_apart(lambda: (os.getpid(), run_apart(os.getpid, "inner")), "outer")
    assert outer == inner != os.getpid()


def test_the_config_pickles_as_the_drafts_first_stage_hands_it_over():
    import pickle

    from miner.config import load_config

    root = Path(__file__).resolve().parent.parent
    config = load_config(root / "pipelines" / "support_agent.toml")
    assert pickle.loads(pickle.dumps(config)) == config


def test_the_export_is_measured_by_its_files_alone(tmp_path):
    from miner.draft_start import export_bytes

    (tmp_path / "dt=2026-11-20").mkdir()
    (tmp_path / "dt=2026-11-20" / "a.parquet").write_bytes(b"x" * 1000)
    (tmp_path / "b.parquet").write_bytes(b"x" * 24)
    assert export_bytes(str(tmp_path)) == 1024
    assert export_bytes(str(tmp_path / "b.parquet")) == 24
    assert export_bytes("s3://bucket/prefix/") == 0
    assert export_bytes(None) == 0


#: What the first stage's child has no use for, whose pages would count in
#: its RSS beside DuckDB's pool (pandas: 33 MiB; the job's modules, the
#: policy's word lists, the report, google-adk).
NOT_IN_THE_FIRST_STAGE = (
    "pandas", "pyarrow.dataset", "miner.job", "miner.redaction.policy", "miner.report",
    "google.adk",
)  # fmt: skip


def _draft_spied(
    out: Path, pipeline: str = "pipelines/support_agent.toml", until: str = "2026-11-28"
) -> str:
    """``miner draft`` of the sample with its first stage apart whatever the
    export's size: its stderr, whose first line names what this process had
    imported when that stage's child was forked, whose second what it had
    imported when it let the child go on to select, and whose third, once
    the stage is done, what of ``NOT_IN_THE_FIRST_STAGE`` the child imported."""
    root = Path(__file__).resolve().parent.parent
    spy = (
        "import contextlib, sys\n"
        "import miner.cli, miner.draft_start, miner.engine.apart as apart\n"
        "miner.draft_start.SELECT_APART_BYTES = 0\n"
        "original, seen = apart.checked_apart, []\n"
        "def spied(check, then, what):\n"
        "    if not seen:\n"
        "        seen.append(what)\n"
        "        heavy = ['pandas', 'pyarrow', 'duckdb', 'miner.job', 'miner.config']\n"
        "        print('imported at the fork:', [m for m in heavy if m in sys.modules],\n"
        "              file=sys.stderr, flush=True)\n"
        "        def watched(checked):\n"
        "            found = then(checked)\n"
        "            print('imported by the first stage:',\n"
        f"                  [m for m in {NOT_IN_THE_FIRST_STAGE!r} if m in sys.modules],\n"
        "                  file=sys.stderr, flush=True)\n"
        "            return found\n"
        "        return told_apart(original(check, watched, what), heavy)\n"
        "    return original(check, then, what)\n"
        "@contextlib.contextmanager\n"
        "def told_apart(stage, heavy):\n"
        "    with stage as go_on:\n"
        "        def told():\n"
        "            print('imported by the job as its first stage goes on:',\n"
        "                  [m for m in heavy if m in sys.modules], file=sys.stderr, flush=True)\n"
        "            return go_on()\n"
        "        yield told\n"
        "apart.checked_apart = spied\n"
        f"sys.argv = ['miner', 'draft', '--pipeline', {pipeline!r}, '--traces',\n"
        f"            'sample_traces/traces', '--since', '2026-11-20', '--until', {until!r},\n"
        f"            '--out', {str(out)!r}]\n"
        "miner.cli.main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", spy], cwd=root, capture_output=True, text=True, check=False
    )
    return done.stderr


def test_a_large_exports_first_stage_runs_before_the_jobs_imports_with_the_same_drafts(
    drafted, tmp_path
):
    out, _result = drafted
    stderr = _draft_spied(tmp_path / "out")
    assert stderr.splitlines()[0] == "imported at the fork: []", stderr[-2000:]
    # The job's imports wait for the selection: made while the child
    # selects, they counted twice in the tree (453 MiB against 403 at 5M
    # small-files Java rows).
    assert stderr.splitlines()[1] == "imported by the job as its first stage goes on: []"
    assert stderr.splitlines()[2] == "imported by the first stage: []", stderr[-2000:]
    assert sorted(p.name for p in (tmp_path / "out").glob("draft_*")) == sorted(
        p.name for p in out.glob("draft_*")
    )
    ledger = "miner-ledger.json"
    assert (tmp_path / "out" / ledger).read_text() == (out / ledger).read_text()


def test_until_latest_reads_the_newest_time_without_pandas_in_the_first_stages_child(tmp_path):
    # --until latest opens the export in the child, before the stage's
    # import block: its newest time read file by file, not through a
    # pyarrow dataset, which brought pandas into the child.
    stderr = _draft_spied(tmp_path / "out", until="latest")
    assert stderr.splitlines()[2] == "imported by the first stage: []", stderr[-2000:]
    assert list((tmp_path / "out").glob("draft_*")), stderr[-2000:]


def test_an_error_in_the_first_stages_child_is_one_line_naming_the_file_and_the_knob(tmp_path):
    root = Path(__file__).resolve().parent.parent
    config = tmp_path / "bad.toml"
    shipped = (root / "pipelines" / "support_agent.toml").read_text()
    config.write_text(shipped + '\n[scan]\nmemory_limit = "lots"\n')
    stderr = _draft_spied(tmp_path / "out", str(config))
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 2 and lines[0].startswith("imported at the fork:"), stderr[-2000:]
    assert str(config) in lines[1] and "memory_limit" in lines[1]
    assert not (tmp_path / "out").exists()  # a refused run leaves no output
