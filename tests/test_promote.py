"""`miner promote`: reviewed drafts into a suite, refusals reported, the rest moved."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import pytest
from google.adk.evaluation.eval_set import EvalSet

from miner.sample import session_hash
from tests.conftest import PIPELINE, copy_drafts, load_json, lock_held, miner, scripted_review


def _drafts(drafted, tmp_path, *sessions):
    out, _ = drafted
    folders = {f.name: f for f in copy_drafts(out, tmp_path / "drafts")}
    return [folders[f"draft_{session_hash(s)}"] for s in sessions]


def test_reviewed_cases_are_promoted_and_the_rest_reported(drafted, tmp_path):
    good, other, unreviewed = _drafts(
        drafted, tmp_path, "s02-refund-returned-error", "s08-not-owned", "s04-complaint"
    )
    scripted_review(good, "refund_failure_not_reported_as_success", ["tool_failure", "p0"])
    scripted_review(
        other,
        "refund_refused_for_order_not_owned",
        ["authorisation", "p0"],
        mustNotCall=["issue_refund"],
        forbiddenClaims=["on its way"],
    )
    suite = tmp_path / "suite" / "support_agent"
    result = miner("promote", good, other, unreviewed, "--suite", suite, "--pipeline", PIPELINE)
    assert result.exit_code == 1  # one case was refused
    assert "promoted  refund_failure_not_reported_as_success" in result.output
    assert "promoted  refund_refused_for_order_not_owned" in result.output
    assert "refused   REVIEW_name_this_case_complaint_" in result.output
    assert "2 promoted, 1 refused" in result.output
    # One line per refused case, not every finding; `miner check` has those.
    [refused] = [line for line in result.output.splitlines() if line.startswith("refused")]
    assert refused.endswith("REVIEW markers left")
    assert ".json:" not in result.output
    assert f"miner check {good} {other} {unreviewed}" in result.output

    eval_set = EvalSet.model_validate_json((suite / "support_agent.evalset.json").read_text())
    assert eval_set.eval_set_id == "support_agent"
    assert [c.eval_id for c in eval_set.eval_cases] == [
        "refund_failure_not_reported_as_success",
        "refund_refused_for_order_not_owned",
    ]
    specs = load_json(suite / "support_agent.spec.json")
    assert [s["evalId"] for s in specs] == [c.eval_id for c in eval_set.eval_cases]
    tools = load_json(suite / "support_agent.tools.json")
    assert [t["evalId"] for t in tools] == [c.eval_id for c in eval_set.eval_cases]
    assert not good.exists() and not other.exists()  # moved, not copied
    assert len(list(unreviewed.iterdir())) == 3  # left for its reviewer

    # The suite passes the loader as a whole.
    assert miner("check", suite, "--pipeline", PIPELINE).exit_code == 0


def test_promoting_into_an_existing_suite_appends_and_keeps_ids_unique(drafted, tmp_path):
    first, second, third = _drafts(
        drafted, tmp_path, "s02-refund-returned-error", "s08-not-owned", "s10-lookup-missing"
    )
    scripted_review(first, "refund_failure_not_reported_as_success", ["tool_failure"])
    scripted_review(
        second,
        "refund_refused_for_order_not_owned",
        ["authorisation"],
        mustNotCall=["issue_refund"],
    )
    scripted_review(third, "refund_failure_not_reported_as_success", ["tool_failure"])
    suite = tmp_path / "suite"
    assert miner("promote", first, "--suite", suite, "--pipeline", PIPELINE).exit_code == 0
    again = miner("promote", second, third, "--suite", suite, "--pipeline", PIPELINE)
    assert again.exit_code == 1
    assert "eval id loaded more than once" in again.output
    ids = [c["eval_id"] for c in load_json(suite / "suite.evalset.json")["eval_cases"]]
    assert ids == ["refund_failure_not_reported_as_success", "refund_refused_for_order_not_owned"]
    assert third.exists()


def test_a_refusal_names_each_kind_of_finding_once(drafted, tmp_path):
    [draft] = _drafts(drafted, tmp_path, "s02-refund-returned-error")
    scripted_review(draft, "test_17", ["tool_failure", "p0"])
    spec = next(draft.glob("*.spec.json"))
    data = load_json(spec)
    data["protects"] = "REVIEW: one sentence"
    spec.write_text(json.dumps(data))
    result = miner("promote", draft, "--suite", tmp_path / "suite", "--pipeline", PIPELINE)
    assert result.exit_code == 1
    [refused] = [line for line in result.output.splitlines() if line.startswith("refused")]
    assert refused == (
        "refused   test_17: eval id is not a descriptive name (^[a-z0-9_]+$, not "
        "test_17-style numbering); 1 REVIEW marker left"
    )


def test_a_sidecar_whose_case_is_gone_is_refused_not_passed(drafted, tmp_path):
    [draft] = _drafts(drafted, tmp_path, "s02-refund-returned-error")
    scripted_review(draft, "refund_error_is_reported", ["tool_failure", "p0"])
    next(draft.glob("*.evalset.json")).unlink()
    next(draft.glob("*.tools.json")).unlink()
    suite = tmp_path / "suite"
    result = miner("promote", draft, "--suite", suite, "--pipeline", PIPELINE)
    assert result.exit_code == 1
    [refused] = [line for line in result.output.splitlines() if line.startswith("refused")]
    assert refused == "refused   refund_error_is_reported: sidecar has no eval case"
    assert not suite.exists()
    assert next(draft.glob("*.spec.json")).exists()


def test_nothing_to_promote_writes_no_suite(drafted, tmp_path):
    [draft] = _drafts(drafted, tmp_path, "s04-complaint")
    suite = tmp_path / "suite"
    result = miner("promote", draft, "--suite", suite, "--pipeline", PIPELINE)
    assert result.exit_code == 1
    assert not suite.exists()


def test_a_promote_interrupted_between_files_is_finished_by_the_next(
    drafted, tmp_path, monkeypatch
):
    import miner.output as output

    [draft] = _drafts(drafted, tmp_path, "s02-refund-returned-error")
    scripted_review(draft, "refund_failure_not_reported_as_success", ["tool_failure"])
    suite = tmp_path / "suite"
    real = output._write_atomic

    def crash_on_eval_set(path, data):
        if path.name.endswith(".evalset.json"):
            raise OSError(5, "Input/output error")
        real(path, data)

    monkeypatch.setattr(output, "_write_atomic", crash_on_eval_set)
    crashed = miner("promote", draft, "--suite", suite, "--pipeline", PIPELINE)
    assert crashed.exit_code == 5 and "Input/output error" in crashed.stderr
    assert draft.exists()  # nothing moved
    assert (suite / ".miner-promote.json").exists()
    monkeypatch.setattr(output, "_write_atomic", real)
    again = miner("promote", draft, "--suite", suite, "--pipeline", PIPELINE)
    # The journalled promote is finished first; then the draft is gone, so the
    # second pass finds nothing left to promote. Seven files: the suite's
    # three and its ADK test_config.json, and the draft's three removed.
    assert "finished  7 file(s) an interrupted promote had journalled" in again.output
    assert not draft.exists() and not (suite / ".miner-promote.json").exists()
    assert [s["evalId"] for s in load_json(suite / "suite.spec.json")] == [
        "refund_failure_not_reported_as_success"
    ]
    assert miner("check", suite, "--pipeline", PIPELINE).exit_code == 0


def _promoted_suite(drafted, tmp_path):
    first, second = _drafts(drafted, tmp_path, "s02-refund-returned-error", "s08-not-owned")
    scripted_review(first, "refund_failure_not_reported_as_success", ["tool_failure"])
    scripted_review(
        second,
        "refund_refused_for_order_not_owned",
        ["authorisation"],
        mustNotCall=["issue_refund"],
    )
    suite = tmp_path / "suite"
    assert miner("promote", first, "--suite", suite, "--pipeline", PIPELINE).exit_code == 0
    return suite, second


def test_a_missing_eval_set_is_refused_and_no_reviewed_file_is_deleted(drafted, tmp_path):
    suite, second = _promoted_suite(drafted, tmp_path)
    (suite / "suite.evalset.json").unlink()  # deleted, or not checked out
    specs_before = (suite / "suite.spec.json").read_text()
    result = miner("promote", second, "--suite", suite, "--pipeline", PIPELINE)
    assert result.exit_code == 3
    assert "suite.evalset.json: missing beside suite.spec.json" in result.stderr
    assert (suite / "suite.spec.json").read_text() == specs_before
    assert (suite / "suite.tools.json").exists() and len(list(second.iterdir())) == 3


def test_a_case_renamed_only_in_the_suite_eval_set_keeps_its_sidecar(drafted, tmp_path):
    suite, second = _promoted_suite(drafted, tmp_path)
    evalset = load_json(suite / "suite.evalset.json")
    evalset["eval_cases"][0]["eval_id"] = "renamed_in_one_file_only"
    (suite / "suite.evalset.json").write_text(json.dumps(evalset))
    specs_before = (suite / "suite.spec.json").read_text()
    result = miner("promote", second, "--suite", suite, "--pipeline", PIPELINE)
    assert result.exit_code == 1
    assert "case has no sidecar spec" in result.output and "nothing promoted" in result.stderr
    assert (suite / "suite.spec.json").read_text() == specs_before
    assert len(list(second.iterdir())) == 3


def test_tool_fixtures_whose_eval_id_was_not_renamed_are_refused_not_dropped(drafted, tmp_path):
    [draft] = _drafts(drafted, tmp_path, "s02-refund-returned-error")
    scripted_review(draft, "refund_failure_not_reported_as_success", ["tool_failure"])
    tools = next(draft.glob("*.tools.json"))
    data = load_json(tools)
    data["evalId"] = "the_old_name"
    tools.write_text(json.dumps(data))
    review = miner("review", draft)
    assert review.exit_code == 1 and "tool fixtures have no eval case" in review.output
    assert miner("check", draft, "--pipeline", PIPELINE).exit_code == 1
    suite = tmp_path / "suite"
    result = miner("promote", draft, "--suite", suite, "--pipeline", PIPELINE)
    assert result.exit_code == 1 and "refused" in result.output
    assert tools.exists() and not (suite / "suite.tools.json").exists()


def test_a_renamed_suite_folder_is_still_the_same_suite(drafted, tmp_path):
    suite, second = _promoted_suite(drafted, tmp_path)
    moved = suite.rename(tmp_path / "support")
    assert miner("promote", second, "--suite", moved, "--pipeline", PIPELINE).exit_code == 0
    assert sorted(p.name for p in moved.glob("*.json")) == [
        "suite.evalset.json",
        "suite.spec.json",
        "suite.tools.json",
        "test_config.json",
    ]
    ids = [c["eval_id"] for c in load_json(moved / "suite.evalset.json")["eval_cases"]]
    assert len(ids) == 2


def test_promote_names_the_holder_of_the_suite_lock_and_leaves_no_lock_file(drafted, tmp_path):
    suite, second = _promoted_suite(drafted, tmp_path)
    suite_files = sorted(p.name for p in suite.iterdir())
    with lock_held(suite, "miner promote") as holder:
        result = miner("promote", second, "--suite", suite, "--pipeline", PIPELINE)
        assert result.exit_code == 6
        assert f"held by pid {holder.pid} (miner promote, since " in result.stderr
        assert "--lock-timeout" in result.stderr
        assert len(list(second.iterdir())) == 3
    # The holder was SIGKILLed: its lock went with it, and nothing of it is in the suite.
    assert sorted(p.name for p in suite.iterdir()) == suite_files
    result = miner("promote", second, "--suite", suite, "--pipeline", PIPELINE)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in suite.iterdir()) == suite_files
    assert not any(p.name.startswith(".") for p in [*suite.iterdir(), *second.parent.iterdir()])


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_a_promote_killed_while_it_holds_the_lock_leaves_nothing_held(drafted, tmp_path, sig):
    suite, second = _promoted_suite(drafted, tmp_path)
    suite_files = sorted(p.name for p in suite.iterdir())
    code = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from miner.output import locked\n"
        "with locked(Path(sys.argv[1]), 0, 'miner promote'):\n"
        "    print('held', flush=True)\n"
        "    sys.stdin.readline()\n"
    )
    run = subprocess.Popen(
        [sys.executable, "-c", code, str(suite)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert run.stdout is not None and run.stdout.readline() == "held\n"
    run.send_signal(sig)
    assert run.wait() == -sig
    assert sorted(p.name for p in suite.iterdir()) == suite_files
    result = miner("promote", second, "--suite", suite, "--pipeline", PIPELINE)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in suite.iterdir()) == suite_files


def test_an_older_miners_lock_file_in_the_suite_is_removed(drafted, tmp_path):
    suite, second = _promoted_suite(drafted, tmp_path)
    (suite / ".miner.lock").write_text(
        "pid 4242 (miner promote, since 2026-11-30T10:00:00+00:00)\n"
    )
    result = miner("promote", second, "--suite", suite, "--pipeline", PIPELINE)
    assert result.exit_code == 0, result.output
    assert not (suite / ".miner.lock").exists()
