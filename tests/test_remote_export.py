"""A trace export on S3, served by a real S3-compatible server (moto's server
mode) on loopback that the test starts itself: the same cases as from disk."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pyarrow.fs as pafs
import pytest

from tests.conftest import FEEDBACK, PIPELINE, TRACES, WINDOW, miner


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def s3_export(tmp_path_factory):
    from moto.server import ThreadedMotoServer

    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port)
    server.start()
    env = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
           "AWS_DEFAULT_REGION": "us-east-1"}  # fmt: skip
    patch = pytest.MonkeyPatch()
    for key, value in env.items():
        patch.setenv(key, value)
    try:
        s3 = pafs.S3FileSystem(
            endpoint_override=f"127.0.0.1:{port}", scheme="http", access_key="testing",
            secret_key="testing", region="us-east-1", allow_bucket_creation=True,
        )  # fmt: skip
        s3.create_dir("exports")
        pafs.copy_files(str(TRACES), "exports/agent_events", destination_filesystem=s3)
        yield f"s3://exports/agent_events?endpoint_override=127.0.0.1:{port}&scheme=http"
    finally:
        patch.undo()
        server.stop()


def _cases(folder: Path) -> dict[str, dict]:
    files = {}
    for path in sorted(folder.glob("draft_*/*.json")):
        data = json.loads(path.read_text())
        if "provenance" in data:
            del data["provenance"]["draftedAt"]
        files[path.name] = data
    return files


def _draft_from(s3_export: str, pipeline: Path, out: Path) -> None:
    result = miner(
        "draft", "--pipeline", pipeline, *WINDOW, "--traces", s3_export, "--feedback", FEEDBACK,
        "--out", out,
    )  # fmt: skip
    assert result.exit_code == 0, result.output


def test_an_s3_export_drafts_the_same_cases_as_a_local_copy(s3_export, drafted, tmp_path):
    out = tmp_path / "out"
    _draft_from(s3_export, PIPELINE, out)
    local, _ = drafted
    assert _cases(out) == _cases(local)
    [run] = (out / "runs").glob("*.json")
    summary = json.loads(run.read_text())
    # The summary names the export without the endpoint query.
    assert summary["traces"] == "s3://exports/agent_events"


def test_a_remote_export_is_fetched_once_for_the_selection(
    s3_export, drafted, scratch_config, tmp_path, monkeypatch
):
    # The window is fetched once into the spill folder and the selection
    # (its query and the refinement) reads that copy: one fetch for the
    # selection, one for the picked sessions.
    from miner import source
    from miner.engine import apart

    # The spy counts in this process: the steps run here, not in a fork.
    monkeypatch.setattr(apart, "FORK", False)
    fetches = []
    scan = source.scan_batches
    monkeypatch.setattr(source, "scan_batches", lambda *a, **k: fetches.append(1) or scan(*a, **k))
    out = tmp_path / "out"
    _draft_from(s3_export, scratch_config("\n[scan]\nthreads = 1\n"), out)
    local, _ = drafted
    assert _cases(out) == _cases(local) and len(_cases(out)) == 27
    assert len(fetches) == 2


def test_a_missing_bucket_is_a_one_line_input_error(s3_export, tmp_path):
    missing = s3_export.replace("exports/agent_events", "no-such-bucket/prefix")
    out = tmp_path / "out"
    result = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--traces", missing, "--out", out)
    assert result.exit_code == 3, result.output
    line = result.stderr.strip()
    assert line.startswith("Error: s3://no-such-bucket/prefix") and "\n" not in line
    assert "endpoint_override" not in line
