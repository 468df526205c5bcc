"""The Spark engine (a real Spark, local[2], started by the test) picks the
same sessions and drafts the same cases as the embedded engine."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import PIPELINE, WINDOW, miner


@pytest.fixture(scope="module")
def spark():
    os.environ["MINER_SPARK_MASTER"] = "local[2]"
    from miner.spark import session

    active = session()
    yield active
    active.stop()
    os.environ.pop("MINER_SPARK_MASTER", None)


def _files(folder: Path) -> dict[str, str]:
    """Every drafted file as text, with the one line that differs between any
    two runs (when it was drafted) taken out."""
    out = {}
    for path in sorted(folder.glob("draft_*/*.json")):
        lines = [line for line in path.read_text().splitlines() if '"draftedAt"' not in line]
        out[path.name] = "\n".join(lines)
    return out


def test_spark_and_embedded_engines_draft_the_same_cases(spark, drafted, tmp_path):
    out = tmp_path / "spark"
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--engine", "spark", "--out", out)
    assert result.exit_code == 0, result.output
    embedded, _ = drafted
    assert _files(out) == _files(embedded)
    assert len(_files(out)) == 27
    ledger = json.loads((out / "miner-ledger.json").read_text())
    assert ledger == json.loads((embedded / "miner-ledger.json").read_text())
    [run] = (out / "runs").glob("*.json")
    [other] = (embedded / "runs").glob("*.json")
    summary, expected = json.loads(run.read_text()), json.loads(other.read_text())
    for key in ("flagged", "flagged_by_rule", "signatures", "entities_replaced", "rows_read"):
        assert summary[key] == expected[key], key


def test_an_unknown_engine_is_a_usage_error(tmp_path):
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--engine", "ray", "--out", tmp_path)
    assert result.exit_code == 2 and "--engine 'ray'" in result.stderr
