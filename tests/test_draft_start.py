"""``miner draft``'s one frame (``miner.draft_start``): the request checked
before ``out``'s lock, wherever the first stage runs; where it runs decided
by the engine's entry and by the export the run reads, --traces or the
config's; and the two parts of a child's step (``miner.engine.apart``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

import miner.draft_start as draft_start
from miner import config_paths, first_stage, job, source, window
from miner.config import load_config
from miner.engine import apart
from miner.engine.base import EngineEntry
from miner.engine.embedded import EmbeddedEngine
from miner.engine.registry import engine_named
from miner.errors import InputError, MinerError
from tests.conftest import PIPELINE, TRACES, WINDOW, lock_held, miner

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="steps run apart on Linux only")


def _selected_where(*_args: object) -> None:
    """In place of the first stage's selection: says the process it ran in."""
    raise InputError(f"selected in process {os.getpid()}")


def _selecting_process(output: str) -> int:
    assert "selected in process " in output, output
    return int(output.split("selected in process ")[1].split()[0])


@pytest.mark.parametrize("apart_from", [0, 2**62], ids=["first stage apart", "here"])
def test_a_window_ending_before_it_starts_is_refused_before_the_lock_is_waited_for(
    monkeypatch, tmp_path, apart_from
):
    # Another run holds --out: a request that can never run says so, not
    # that the folder is busy (which would send its user waiting for nothing).
    monkeypatch.setattr(draft_start, "SELECT_APART_BYTES", apart_from)
    out = tmp_path / "out"
    with lock_held(out, "miner draft"):
        done = miner(
            "draft", "--pipeline", PIPELINE, "--traces", TRACES, "--since", "2026-11-28",
            "--until", "2026-11-20", "--out", out,
        )  # fmt: skip
    assert done.exit_code == 2, done.output
    assert "--since 2026-11-28T00:00:00+00:00 is not before --until" in done.output
    assert "held by" not in done.output


def test_a_window_refused_after_the_lock_was_free_leaves_no_output(monkeypatch, tmp_path):
    monkeypatch.setattr(draft_start, "SELECT_APART_BYTES", 0)
    out = tmp_path / "out"
    done = miner(
        "draft", "--pipeline", PIPELINE, "--since", "2026-11-28", "--until", "2026-11-20",
        "--out", out,
    )  # fmt: skip
    assert done.exit_code == 2 and "is not before --until" in done.output, done.output
    assert not out.exists()


@pytest.mark.parametrize("traces", ["config", "--traces"])
def test_the_export_the_run_reads_decides_where_the_first_stage_runs(monkeypatch, tmp_path, traces):
    # The shipped config names the sample in [sources] traces: without
    # --traces that export is the one measured, as --traces would be.
    monkeypatch.setattr(first_stage, "select_sessions", _selected_where)
    given = ["--traces", TRACES] if traces == "--traces" else []
    size = draft_start.export_bytes(TRACES)
    pids = []
    for threshold in (size, size + 1):
        monkeypatch.setattr(draft_start, "SELECT_APART_BYTES", threshold)
        done = miner("draft", "--pipeline", PIPELINE, *given, *WINDOW, "--out", tmp_path / "out")
        assert done.exit_code == 3, done.output
        pids.append(_selecting_process(done.output))
    assert pids[0] != os.getpid() and pids[1] == os.getpid()


@pytest.mark.parametrize("allowed", [True, False])
def test_the_engines_entry_decides_whether_its_first_stage_may_run_apart(
    monkeypatch, tmp_path, allowed
):
    monkeypatch.setattr(draft_start, "SELECT_APART_BYTES", 0)

    def unbuilt() -> None:
        raise AssertionError("the engine is built in the request, not to decide")

    entry = EngineEntry("any", unbuilt, first_stage_apart=allowed)  # type: ignore[arg-type]

    def request_of() -> None:
        _selected_where()

    with pytest.raises(InputError) as raised:
        draft_start.run_draft_job(
            request_of,  # type: ignore[arg-type]
            engine=entry,
            traces=TRACES,
            out=tmp_path / "out",
            lock_timeout=0,
            progress=lambda items, _total, _label: items,
        )
    assert (_selecting_process(str(raised.value)) != os.getpid()) is allowed


def test_spark_keeps_its_first_stage_in_the_job_and_the_embedded_engine_lets_it_go(
    monkeypatch,
):
    monkeypatch.setattr(draft_start, "SELECT_APART_BYTES", 1)
    assert draft_start.first_stage_apart(engine_named("embedded"), TRACES)
    assert not draft_start.first_stage_apart(engine_named("spark"), TRACES)
    assert not draft_start.first_stage_apart(
        engine_named("embedded"), "s3://bucket/traces/"
    )  # no size known


def test_until_latest_opens_the_export_once(monkeypatch, tmp_path):
    opened: list[object] = []
    original = source.open_export

    def counted(path: Path | str) -> source.Export:
        opened.append(path)
        return original(path)

    def stop_after_the_selection(select, _progress, _removed):
        found = select()
        raise InputError(f"selected {found.found.selection.in_window} in the window")

    monkeypatch.setattr(source, "open_export", counted)
    monkeypatch.setattr(job, "draft_selected", stop_after_the_selection)
    done = miner(
        "draft", "--pipeline", PIPELINE, "--since", "2026-11-20", "--until", "latest",
        "--out", tmp_path / "out",
    )  # fmt: skip
    assert "in the window" in done.output and "selected 0 " not in done.output, done.output
    assert opened == [TRACES]


def _requested(monkeypatch) -> list[first_stage.DraftRequest]:
    """The requests the first stage is handed (in this process), each run
    then stopped there with an InputError."""
    requests: list[first_stage.DraftRequest] = []

    def stop(request: first_stage.DraftRequest) -> None:
        requests.append(request)
        raise InputError("stopped at the selection")

    monkeypatch.setattr(draft_start, "SELECT_APART_BYTES", 2**62)
    monkeypatch.setattr(first_stage, "select_sessions", stop)
    return requests


def _request_of(monkeypatch, tmp_path: Path, until: str) -> first_stage.DraftRequest:
    """The request ``draft_start.run_draft`` builds for a window of two days
    to ``until``, three cases at the most, seed 0, the embedded engine."""
    requests = _requested(monkeypatch)
    asked = draft_start.DraftAsked(
        since="2d", until=until, traces=None, feedback=None, out=tmp_path / "out",
        per_signal=None, max_cases=3, seed=0, engine="embedded", lock_timeout=0,
    )  # fmt: skip
    with pytest.raises(InputError, match="stopped at the selection"):
        draft_start.run_draft(asked, PIPELINE, lambda items, _total, _label: items)
    [request] = requests
    return request


def test_what_was_asked_is_drafted_without_the_command_line(monkeypatch, tmp_path):
    # The CLI parses and prints; the run of what was asked (the engine, the
    # config, the export, the window, the config's defaults) is draft_start's.
    request = _request_of(monkeypatch, tmp_path, until="2026-11-28")
    config = load_config(PIPELINE)
    assert request.traces == TRACES == config.sources.traces
    assert request.feedback == config.sources.feedback
    assert (request.since, request.until) == (
        datetime(2026, 11, 26, tzinfo=UTC),
        datetime(2026, 11, 28, tzinfo=UTC),
    )
    assert request.per_signal == config.sampling.per_signal
    assert request.max_cases == 3 != config.sampling.max_cases
    assert request.seed == 0 != config.sampling.seed
    assert isinstance(request.engine, EmbeddedEngine)


def test_a_draft_reads_the_clock_once_for_its_window_and_its_drafts(monkeypatch, tmp_path):
    # "--until now" and the drafts' stamp (``DraftRequest.now``: draftedAt,
    # the run's name) are one reading: read again after the selection, the
    # drafts said a time after the window they were drafted for ended.
    readings = [
        datetime(2026, 11, 28, 9, 30, 15, 250000, tzinfo=UTC),
        datetime(2026, 11, 28, 9, 45, tzinfo=UTC),
    ]
    read: list[datetime] = []

    def clock() -> datetime:
        read.append(readings[len(read)])
        return read[-1]

    monkeypatch.setattr(window, "run_clock", clock)
    request = _request_of(monkeypatch, tmp_path, until="now")
    assert read == readings[:1]
    assert request.now == readings[0]
    assert request.until == datetime(2026, 11, 28, 9, 30, 15, tzinfo=UTC)  # whole seconds


@pytest.mark.parametrize("traces", ["config", "--traces"])
def test_a_draft_reads_its_config_once(monkeypatch, tmp_path, traces):
    # Before the job's imports the config's [sources] traces decides where
    # the first stage runs; the request's config is checked from that read.
    requests = _requested(monkeypatch)
    parsed: list[str] = []
    parse = config_paths.tomllib.loads

    def counted(text: str) -> dict[str, object]:
        parsed.append(text)
        return parse(text)

    monkeypatch.setattr(config_paths.tomllib, "loads", counted)
    given = ["--traces", TRACES] if traces == "--traces" else []
    done = miner("draft", "--pipeline", PIPELINE, *given, *WINDOW, "--out", tmp_path / "out")
    assert done.exit_code == 3 and "stopped at the selection" in done.output, done.output
    assert len(requests) == 1
    assert parsed == [PIPELINE.read_text(encoding="utf-8")]


def test_a_two_part_steps_check_runs_in_the_child_and_its_error_stops_the_block():
    entered = []

    def refused() -> None:
        raise InputError(f"checked in process {os.getpid()}")

    with (
        pytest.raises(InputError) as raised,
        apart.checked_apart(refused, lambda _none: None, "the step"),
    ):
        entered.append(True)  # not run: the check refused
    assert entered == []
    assert str(raised.value) != f"checked in process {os.getpid()}"


def test_the_second_part_runs_in_the_same_child_once_the_block_lets_it_go(tmp_path):
    order = tmp_path / "order"

    def check() -> int:
        with order.open("a") as lines:
            lines.write("check\n")
        return os.getpid()

    def then(checked: int) -> tuple[int, int]:
        with order.open("a") as lines:
            lines.write("then\n")
        return checked, os.getpid()

    with apart.checked_apart(check, then, "the step") as go_on:
        with order.open("a") as lines:
            lines.write("block\n")
        checked_in, done_in = go_on()
    assert order.read_text().split() == ["check", "block", "then"]
    assert checked_in == done_in != os.getpid()


def test_a_block_left_without_letting_the_child_go_ends_it(tmp_path):
    child = tmp_path / "child"

    def check() -> None:
        child.write_text(str(os.getpid()))

    # Left by an error, as a busy lock leaves it.
    with pytest.raises(KeyError), apart.checked_apart(check, lambda _none: None, "the step"):
        raise KeyError("out")
    with pytest.raises(ProcessLookupError):
        os.kill(int(child.read_text()), 0)  # gone, and reaped


def _state(pid: int) -> str | None:
    """A process's state letter ("S", "R", "Z"...), None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return None


def test_a_child_does_not_outlive_its_parent_killed(tmp_path):
    # The parent killed (SIGKILL, the kernel out of memory, SIGTERM): its
    # child, mid-step, must not run on with no one to read its answer (a
    # selection holds its memory and CPU for minutes).
    child = tmp_path / "child"
    script = (
        "import os, time\n"
        "from miner.engine import apart\n"
        "def check():\n"
        f"    open({str(child)!r}, 'w').write(str(os.getpid()))\n"
        "    time.sleep(60)\n"
        "with apart.checked_apart(check, lambda _none: None, 'the step') as go_on:\n"
        "    go_on()\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", script], env={**os.environ, "PYTHONPATH": "."})
    try:
        for _ in range(200):
            if child.exists() and child.read_text():
                break
            time.sleep(0.05)
        pid = int(child.read_text())
        assert _state(pid) not in (None, "Z")
    finally:
        parent.kill()
        parent.wait()
    for _ in range(100):
        if _state(pid) in (None, "Z"):  # gone, or ended and left to its new parent to reap
            break
        time.sleep(0.05)
    assert _state(pid) in (None, "Z")


def test_a_child_that_ended_before_it_was_let_go_is_one_line_naming_the_step(tmp_path):
    # Killed between the parts (out of memory, say): the parent's "go on"
    # meets a closed pipe, and says how the child ended, not BrokenPipeError
    # (which the CLI reads as its stdout's reader gone, and exits quietly).
    child = tmp_path / "child"

    def check() -> None:
        child.write_text(str(os.getpid()))

    with (
        pytest.raises(MinerError) as raised,
        apart.checked_apart(check, lambda _none: None, "traces: the selection") as go_on,
    ):
        pid = int(child.read_text())
        os.kill(pid, signal.SIGKILL)
        for _ in range(200):  # ended (its side of the pipe closed), not reaped yet
            if _state(pid) == "Z":
                break
            time.sleep(0.05)
        assert _state(pid) == "Z"
        go_on()
    assert str(raised.value) == (
        "traces: the selection: its process ended without an answer "
        "(killed by SIGKILL: out of memory?)"
    )
