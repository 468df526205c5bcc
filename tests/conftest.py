"""Shared fixtures: the shipped sample export, and one real draft run over it."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


@contextlib.contextmanager
def lock_held(folder: Path, purpose: str) -> Iterator[subprocess.Popen[str]]:
    """Another real process holding ``folder``'s lock (``miner.output.locked``)
    while the block runs; SIGKILLed when it ends, as a crashed run would be."""
    code = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from miner.output import locked\n"
        "with locked(Path(sys.argv[1]), 0, sys.argv[2]):\n"
        "    print('held', flush=True)\n"
        "    time.sleep(600)\n"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code, str(folder), purpose], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        yield holder
    finally:
        holder.kill()
        holder.wait()


def case_files(out: Path, suffix: str) -> list[Path]:
    return sorted(out.glob(f"draft_*/*{suffix}"))


def load_json(path: Path) -> dict:
    return json.loads(path.read_text())


@pytest.fixture
def scratch_config(tmp_path):
    """The sample pipeline config, edited, in a temporary folder."""
    counter = iter(range(100))

    def make(extra: str = "", replace: tuple[str, str] | None = None) -> Path:
        sample = str(PIPELINE.parent.parent / "sample_traces")
        text = PIPELINE.read_text().replace('"../sample_traces', f'"{sample}')
        if replace:
            assert replace[0] in text
            text = text.replace(*replace)
        path = tmp_path / f"pipeline-{next(counter)}.toml"
        path.write_text(text + extra)
        return path

    return make


def copy_drafts(drafted_out: Path, target: Path, count: int | None = None) -> list[Path]:
    """Copies of drafted case folders, so a test may edit or move them."""
    import shutil

    folders = sorted(drafted_out.glob("draft_*"))[:count]
    target.mkdir(parents=True, exist_ok=True)
    return [Path(shutil.copytree(f, target / f.name)) for f in folders]


def scripted_review(folder: Path, eval_id: str, tags: list[str], **spec_fields) -> None:
    """What a reviewer does to a draft: decide every REVIEW field and name the case."""
    evalset_path = next(folder.glob("*.evalset.json"))
    spec_path = next(folder.glob("*.spec.json"))
    tools_path = next(folder.glob("*.tools.json"))
    evalset = load_json(evalset_path)
    evalset["description"] = f"Reviewed: {eval_id.replace('_', ' ')}."
    case = evalset["eval_cases"][0]
    case["eval_id"] = eval_id
    for turn in case["conversation"]:
        part = turn["final_response"]["parts"][0]
        part["text"] = part["text"].removeprefix("REVIEW: ")
    spec = load_json(spec_path)
    spec.update(
        evalId=eval_id,
        protects="the agent reports tool failures instead of claiming success",
        mustNotCall=[],
        requiredFacts=[],
        forbiddenClaims=["has been issued"],
        tags=[t for t in spec["tags"] if not t.startswith("REVIEW")] + tags,
    )
    spec.update(spec_fields)
    tools = load_json(tools_path)
    tools["evalId"] = eval_id
    for path, value in ((evalset_path, evalset), (spec_path, spec), (tools_path, tools)):
        path.write_text(json.dumps(value, indent=2) + "\n")


def start_workbench(drafts: Path, *extra: str | Path) -> tuple[subprocess.Popen, str]:
    """`miner review --serve` as a real process, and the URL it printed."""
    server = subprocess.Popen(
        [sys.executable, "-m", "miner", "review", "--serve", str(drafts),
         "--pipeline", str(PIPELINE), *map(str, extra)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    line = server.stdout.readline()  # type: ignore[union-attr]
    if not line.startswith("miner review: http://127.0.0.1:"):
        server.terminate()
        raise AssertionError(line)
    return server, line.split(": ", 1)[1].strip()


#: What the wrapped redaction surfaces, in every session that holds the word.
SURFACE = {"desk": "PERSON", "Monday": "DATE_OF_BIRTH", "carrier": "PERSON"}


@pytest.fixture(scope="session")
def surfaced_drafts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real draft of the sample whose redaction surfaced ``SURFACE``'s words,
    as the redaction policy returns surfaced values (``Redacted.surfaced``):
    what comes after redaction is miner's own code."""
    from miner.redaction.policy import RedactionPolicy
    from miner.redaction.surfaced import Surfaced

    real = RedactionPolicy.redact

    def redact_and_surface(self: RedactionPolicy, *args: Any, **kwargs: Any) -> list[Any]:
        out = []
        for item in real(self, *args, **kwargs):
            text = json.dumps(dataclasses.asdict(item.session), default=str)
            found = tuple(
                Surfaced(entity, word)
                for word, entity in SURFACE.items()
                if re.search(rf"\b{word}\b", text)
            )
            out.append(dataclasses.replace(item, surfaced=found))
        return out

    drafts = tmp_path_factory.mktemp("surfaced") / "drafts"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(RedactionPolicy, "redact", redact_and_surface)
        result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--out", drafts)
    assert result.exit_code == 0, result.output
    return drafts
