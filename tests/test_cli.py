"""The command line itself: help, the installed entry point, errors."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from miner.cli import SIGPIPE_EXIT, app
from tests.conftest import PIPELINE, ROOT, WINDOW, copy_drafts, miner


def test_every_command_has_help_with_an_example():
    import typer.main

    group = typer.main.get_command(app)
    assert group.commands, "no commands registered"
    for name in group.commands:
        result = miner(name, "--help")
        assert result.exit_code == 0, name
        assert "Example" in result.output, name


def test_python_dash_m_miner_runs_and_help_skips_the_heavy_imports():
    code = (
        "import sys, runpy; sys.argv = ['miner', '--help'];\n"
        "try:\n runpy.run_module('miner', run_name='__main__')\n"
        "except SystemExit as e: assert e.code == 0\n"
        "assert 'presidio_analyzer' not in sys.modules and 'spacy' not in sys.modules"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "draft" in done.stdout


def test_review_lists_what_is_left_without_the_heavy_imports(drafted, tmp_path):
    # Nothing it lists needs Presidio, spaCy or google-adk (seconds each):
    # ADK's schema findings are check's and promote's, not review's.
    drafts = tmp_path / "drafts"
    copy_drafts(drafted[0], drafts, 2)
    code = (
        "import sys, runpy; sys.argv = ['miner', 'review', sys.argv[1]];\n"
        "try:\n runpy.run_module('miner', run_name='__main__')\n"
        "except SystemExit as e: assert e.code == 1, e.code\n"
        "heavy = {'presidio_analyzer', 'spacy', 'google.adk.evaluation', 'google.genai'}\n"
        "assert not heavy & set(sys.modules), heavy & set(sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(drafts)], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("REVIEW markers and 0 surfaced spans left in 2 cases")


def test_building_the_detector_prints_nothing_of_transformers():
    # The test tools bring transformers without torch; Presidio imports it, and
    # it then printed an advisory on every command that redacts.
    code = (
        "from pathlib import Path; from miner.config import load_config;\n"
        "from miner.redaction.detector import detector_for;\n"
        f"detector_for(load_config(Path({str(PIPELINE)!r})))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "PyTorch was not found" not in done.stderr


def test_installed_console_script_reports_errors_with_exit_codes(tmp_path):
    script = ROOT / ".venv" / "bin" / "miner"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "miner"]
    done = subprocess.run(
        [*command, "draft", "--pipeline", str(tmp_path / "missing.toml")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr.strip().startswith(
        f"Error: {tmp_path / 'missing.toml'}: no such pipeline config"
    )
    assert "--pipeline PATH" in done.stderr


def test_a_bug_is_reported_without_its_message_which_may_hold_trace_data(tmp_path, monkeypatch):
    from miner import job

    def broken(*args, **kwargs):
        raise ValueError("Jane Doe, 4111 1111 1111 1111")

    monkeypatch.setattr(job, "build_sessions", broken)
    monkeypatch.delenv("MINER_DEBUG", raising=False)
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: internal error (ValueError at test_cli.py:")
    assert "Jane" not in result.output and "4111" not in result.output
    assert not (tmp_path / "out").exists()


def test_help_is_plain_short_flags_work_and_the_version_prints():
    from tests.conftest import miner

    top = miner("-h")
    assert top.exit_code == 0 and "Commands:" in top.output and "<bool>" not in top.output
    check = miner("check", "--help")
    assert "--json " in check.output and "<bool>" not in check.output
    version = miner("--version")
    assert version.exit_code == 0 and version.output.startswith("miner ")


def _pipeline_here(folder, monkeypatch, *configs: str):
    """A working folder holding ``configs`` (copies of the sample's), then
    `miner check` run there without --pipeline."""
    for name in configs:
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(PIPELINE.read_text())
    (folder / "cases").mkdir()
    monkeypatch.chdir(folder)
    return miner("check", "cases")


def test_without_pipeline_no_config_here_says_what_to_pass(tmp_path, monkeypatch):
    result = _pipeline_here(tmp_path, monkeypatch)
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "Error: no pipeline config: pass --pipeline PATH, or write one with "
        "`miner init --traces EXPORT` (none of miner.toml or pipelines/*.toml here)"
    )


def test_without_pipeline_several_configs_are_never_guessed_between(tmp_path, monkeypatch):
    result = _pipeline_here(tmp_path, monkeypatch, "pipelines/a.toml", "miner.toml")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "Error: 2 pipeline configs here (miner.toml, pipelines/a.toml): pass one with --pipeline"
    )


@pytest.mark.parametrize("name", ["miner.toml", "pipelines/my_agent.toml"])
def test_without_pipeline_the_one_config_here_is_used_and_named(name, tmp_path, monkeypatch):
    result = _pipeline_here(tmp_path, monkeypatch, name)
    # The config is found and named; then the empty folder is refused (exit 3), not passed.
    assert result.exit_code == 3, result.output
    assert result.stderr.splitlines()[0] == f"pipeline          {name} (the one config here)"
    assert result.stderr.splitlines()[1].startswith("Error: cases: no case file in this folder")


def test_a_reader_that_stops_reading_ends_the_command_quietly(drafted):
    # `miner review drafts | head -3`: head closes the pipe; miner must not
    # report an internal error for it. The read end is closed before miner
    # writes, so its first line already meets a closed pipe.
    out, _result = drafted
    read_end, write_end = os.pipe()
    os.close(read_end)
    done = subprocess.run(
        [sys.executable, "-m", "miner", "review", str(out)],
        stdout=write_end,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    os.close(write_end)
    assert done.returncode == SIGPIPE_EXIT, done.stderr
    assert done.stderr == ""


def test_discard_records_each_session_so_no_later_run_drafts_it_again(drafted, tmp_path):
    import json

    out, _ = drafted
    drafts = tmp_path / "drafts"
    doomed, kept, *_ = copy_drafts(out, drafts)
    not_a_case = tmp_path / "drafts" / "notes"
    not_a_case.mkdir()

    # One folder that is not a drafted case: refused, and nothing removed.
    refused = miner("discard", doomed, not_a_case, "--reason", "a test call")
    assert refused.exit_code != 0 and doomed.is_dir()
    assert "notes" in refused.output and not (drafts / "miner-ledger.json").exists()
    assert miner("discard", doomed, "--reason", " ").exit_code != 0 and doomed.is_dir()

    done = miner("discard", doomed, "--reason", "the user was testing the bot")
    assert done.exit_code == 0, done.output
    assert not doomed.exists() and kept.is_dir()
    session = doomed.name.removeprefix("draft_")
    ledger = json.loads((drafts / "miner-ledger.json").read_text())
    assert ledger["discarded"][session]["reason"] == "the user was testing the bot"

    again = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--out", drafts)
    assert again.exit_code == 0, again.output
    assert not doomed.exists()


def test_until_says_it_takes_a_time_before_now_as_since_does():
    from tests.conftest import miner

    for command in ("draft", "sql"):
        said = " ".join(miner(command, "--help").output.split())
        assert "--until <str> Window end: 'now', 7d, 36h, 90m before now," in said, said
