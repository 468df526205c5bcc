"""The Makefile's promises to a newcomer: `make demo` installs only what the
main job needs, `make test` says what it installs and hides nothing."""

from __future__ import annotations

import subprocess

from tests.conftest import ROOT


def _dry_run(target: str, tmp_path) -> str:
    # A venv that does not exist yet: make prints every step a fresh clone runs.
    # (--no-print-directory: under `make test` this make is nested, and would
    # frame its steps in "Entering directory" lines.)
    done = subprocess.run(
        ["make", "-n", "--no-print-directory", target, f"VENV={tmp_path / 'venv'}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def test_demo_installs_the_runtime_only(tmp_path):
    steps = _dry_run("demo", tmp_path)
    assert "pip install --quiet -e .\n" in steps
    assert "[dev]" not in steps and "pyspark" not in steps.replace("(the Spark test)", "")
    assert "miner draft --pipeline pipelines/support_agent.toml" in steps
    # The redaction rules' word lists are derived at setup, not by the first run.
    assert steps.index("python -m miner.redaction.lexicon") < steps.index("miner draft")
    # The demo's drafts have a folder of their own, as `miner init`'s next command gives.
    assert steps.rstrip().endswith("--out drafts/support_agent")


def test_test_says_what_it_installs_and_hides_no_apt_output(tmp_path):
    steps = _dry_run("test", tmp_path)
    assert "installing the test tools" in steps and "pip install --quiet -e '.[dev]'" in steps
    assert "/dev/null 2>&1" not in steps and "apt-get update -q >/dev/null" not in steps
    installs = [line for line in steps.splitlines() if "apt-get install" in line]
    assert installs and all("--no-upgrade" in line for line in installs)
    assert "chromium" in steps and "openjdk-17" in steps
    # --no-upgrade keeps the named packages as they are, not their dependencies:
    # apt may upgrade installed libraries, and the message must not say otherwise.
    assert "not upgraded" not in steps and steps.count("may also upgrade") == 2
    assert "(about 1.5 GB more)" in steps


def test_every_target_states_what_it_needs():
    done = subprocess.run(["make", "help"], cwd=ROOT, capture_output=True, text=True, check=True)
    lines = {line.split()[0]: line for line in done.stdout.splitlines()}
    assert "root and apt" in lines["browser"] and "Java 17" in lines["test"]
    assert "Python 3.11" in lines["demo"]
