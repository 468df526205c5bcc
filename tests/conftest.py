"""Shared fixtures: the shipped sample export, and one real draft run over it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

os.environ.setdefault("TERMINAL_WIDTH", "120")
os.environ.setdefault("_TYPER_FORCE_DISABLE_TERMINAL", "1")

ROOT = Path(__file__).resolve().parent.parent
PIPELINE = ROOT / "pipelines" / "support_agent.toml"
TRACES = ROOT / "sample_traces" / "traces"
FEEDBACK = ROOT / "sample_traces" / "feedback.parquet"
PLANTED: list[str] = json.loads((ROOT / "sample_traces" / "planted.json").read_text())

#: The sample's window: every session but the old one (s11, 2026-11-10).
WINDOW = ["--since", "2026-11-20", "--until", "2026-11-28"]


def miner(*args: str | Path) -> Result:
    """Run the CLI in-process, as a user would type it."""
    from miner.cli import app

    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.fixture(scope="session")
def drafted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result]:
    """One real draft run over the sample: real Parquet, real Presidio, real ADK."""
    out = tmp_path_factory.mktemp("drafts")
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--out", out)
    assert result.exit_code == 0, result.output
    return out, result


def case_files(out: Path, suffix: str) -> list[Path]:
    return sorted(out.glob(f"draft_*/*{suffix}"))


def load_json(path: Path) -> dict:
    return json.loads(path.read_text())
