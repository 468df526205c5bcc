"""`miner replay`: the loop from a flagged session to a regression test that
fails on the bug and passes on the fix, with every tool served from fixtures."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from miner.sample import session_hash
from tests.conftest import PIPELINE, ROOT, load_json, lock_held, miner, scripted_review

#: s02's reference as the seed advises: short, fact-dense, in the agent's voice.
SEED_REFERENCE = "Refund for ORD-10001 not issued: over 200 needs a human."
#: Its facts: the order and the limit, each with one spelling.
SEED_FACTS = ["ORD-10001", "200"]


@pytest.fixture(scope="module")
def suite(drafted, tmp_path_factory) -> Path:
    """The sample's s02 (a refund over the limit reported as issued), reviewed
    as the seed advises: a short reference, its facts as required facts, and
    the claim it must never make."""
    out, _ = drafted
    work = tmp_path_factory.mktemp("replay")
    case = work / "review" / f"draft_{session_hash('s02-refund-returned-error')}"
    shutil.copytree(out / case.name, case)
    scripted_review(
        case,
        "refund_over_limit_is_not_reported_as_issued",
        ["tool_failure", "p0"],
        requiredFacts=SEED_FACTS,
        forbiddenClaims=["has been issued"],
    )
    evalset_path = next(case.glob("*.evalset.json"))
    evalset = load_json(evalset_path)
    evalset["eval_cases"][0]["conversation"][0]["final_response"]["parts"][0]["text"] = (
        SEED_REFERENCE
    )
    evalset_path.write_text(json.dumps(evalset, indent=2))
    suite = work / "support"
    promoted = miner("promote", case.parent, "--suite", suite, "--pipeline", PIPELINE)
    assert promoted.exit_code == 0, promoted.output
    return suite


def _replay(suite: Path, agent: str, out: Path, *extra: str):
    # The shipped sample agents, or the tests' changed versions of them.
    module = (
        "sample_traces.agent" if agent in ("buggy_agent", "fixed_agent") else "tests.replay_agent"
    )
    return miner(
        "replay", "--agent", f"{module}:{agent}", "--suite", suite, "--out", out,
        "--pipeline", PIPELINE, "--json", *extra,
    )  # fmt: skip


def _score(suite: Path, runs: Path):
    return miner("score", "--suite", suite, "--traces", runs, "--pipeline", PIPELINE, "--json")


def test_the_buggy_agent_fails_the_reviewed_check_and_the_fixed_one_passes(suite, tmp_path):
    buggy = _replay(suite, "buggy_agent", tmp_path / "buggy", "--runs", "2")
    assert buggy.exit_code == 0, buggy.output
    summary = json.loads(buggy.stdout)
    # lookup_order and issue_refund, served from the fixtures, in both runs.
    assert summary["callsServed"] == 4 and summary["callsWithoutFixture"] == []
    assert summary["turnsWithoutAnswer"] == 0
    assert sorted(p.name for p in (tmp_path / "buggy").iterdir()) == ["run-1", "run-2"]

    scored = _score(suite, tmp_path / "buggy")
    assert scored.exit_code == 1
    report = json.loads(scored.stdout)
    assert report["passRate"] == {"passed": 0, "total": 2}
    failed = {
        c["check"]
        for r in report["runs"]
        for t in r["turns"]
        for c in t["checks"]
        if not c["passed"]
    }
    # It fails on what the seed says decides a case: the facts and the claim.
    assert failed == {"required_facts", "forbidden_claims"}

    fixed = _replay(suite, "fixed_agent", tmp_path / "fixed")
    assert fixed.exit_code == 0, fixed.output
    scored = _score(suite, tmp_path / "fixed")
    assert scored.exit_code == 0, scored.output
    report = json.loads(scored.stdout)
    assert report["passRate"] == {"passed": 1, "total": 1}
    # The same facts in more words than the reference: overlap is reported,
    # below ADK's default 0.8, and does not gate.
    [rouge] = [c for c in report["runs"][0]["turns"][0]["checks"] if c["check"] == "rouge1"]
    assert rouge["passed"] and rouge["score"] < 0.8 and rouge["threshold"] is None


def test_a_suite_threshold_makes_overlap_gate_again(suite, tmp_path):
    # The team's choice, per suite: the wordier fixed agent then fails on rouge1.
    config = tmp_path / "pipeline.toml"
    config.write_text(PIPELINE.read_text() + "\n[score]\nresponse_match_threshold = 0.8\n")
    assert _replay(suite, "fixed_agent", tmp_path / "runs").exit_code == 0
    scored = miner("score", "--suite", suite, "--traces", tmp_path / "runs", "--pipeline", config)
    assert scored.exit_code == 1
    assert "turn 1 rouge1: 0.645 < 0.8" in scored.output


def test_a_second_replay_goes_beside_the_first_and_adk_notices_go_to_its_log(
    suite, tmp_path, monkeypatch
):
    from google.adk import runners

    # ADK gives its context-cache notice once per process and app.
    monkeypatch.setattr(runners, "_UNCACHED_TRANSFER_APPS", set())
    runs = tmp_path / "runs"
    first = _replay(suite, "buggy_agent", runs)
    assert first.exit_code == 0, first.output
    [written] = (runs / "run-1").glob("*.parquet")
    before = written.read_bytes()
    second = _replay(suite, "fixed_agent", runs, "--runs", "2")
    assert second.exit_code == 0, second.output
    assert json.loads(second.stdout)["runFolders"] == [str(runs / "run-2"), str(runs / "run-3")]
    assert sorted(p.name for p in runs.iterdir()) == ["run-1", "run-2", "run-3"]
    assert written.read_bytes() == before  # never written over
    # ADK's notices are in each run's log, not on the terminal.
    for result in (first, second):
        assert "Skipping missing token usage metadata" not in result.stderr
        assert "context_cache_config" not in result.stderr
    assert "Skipping missing token usage metadata" in (runs / "run-2" / "_adk.log").read_text()
    assert "context_cache_config" in (runs / "run-1" / "_adk.log").read_text()
    # And score reads the three runs: the buggy one fails, the fixed two pass.
    report = json.loads(_score(suite, runs).stdout)
    assert [(r["run"], r["passed"]) for r in report["runs"]] == [
        ("runs/run-1", False), ("runs/run-2", True), ("runs/run-3", True)
    ]  # fmt: skip


def test_a_replay_into_a_folder_another_replay_holds_waits_its_turn_or_names_it(suite, tmp_path):
    runs = tmp_path / "runs"
    with lock_held(runs, "miner replay") as holder:
        busy = _replay(suite, "fixed_agent", runs)
        assert busy.exit_code == 6
        assert f"held by pid {holder.pid} (miner replay, since " in busy.stderr
        assert not runs.exists() or not any(runs.iterdir())  # no run-1 taken beside it
    # The holder is gone (killed, as a crashed replay would be): the folder is free.
    after = _replay(suite, "fixed_agent", runs)
    assert after.exit_code == 0, after.output
    assert json.loads(after.stdout)["runFolders"] == [str(runs / "run-1")]


def test_replayed_runs_are_plugin_rows_named_after_case_and_run(suite, tmp_path):
    import pyarrow.parquet as pq

    assert _replay(suite, "fixed_agent", tmp_path / "runs").exit_code == 0
    table = pq.read_table(
        tmp_path / "runs" / "run-1" / "refund_over_limit_is_not_reported_as_issued.parquet"
    )
    rows = table.to_pylist()
    assert {r["session_id"] for r in rows} == {"refund_over_limit_is_not_reported_as_issued__run1"}
    kinds = {r["event_type"] for r in rows}
    assert {"USER_MESSAGE_RECEIVED", "TOOL_STARTING", "TOOL_COMPLETED", "AGENT_RESPONSE"} <= kinds
    assert all(r["event_id"] for r in rows)  # the Python plugin's own rows


def _without_fixture(suite: Path, copy: Path, tool: str) -> Path:
    """A copy of the suite whose tool fixtures lack every call of ``tool``."""
    shutil.copytree(suite, copy)
    tools_file = next(copy.glob("*.tools.json"))
    tools = load_json(tools_file)
    tools[0]["calls"] = [c for c in tools[0]["calls"] if c["tool"] != tool]
    tools_file.write_text(json.dumps(tools))
    return copy


def test_a_call_without_a_fixture_is_answered_with_an_error_and_reported(suite, tmp_path):
    # Without issue_refund's fixture the call gets an error result, which the
    # fixed agent reports honestly; the summary names the tool.
    bare = _without_fixture(suite, tmp_path / "bare", "issue_refund")
    result = _replay(bare, "fixed_agent", tmp_path / "runs")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["callsWithoutFixture"] == [
        {
            "evalId": "refund_over_limit_is_not_reported_as_issued",
            "run": 1,
            "tools": ["issue_refund"],
        }
    ]


def test_a_bad_agent_spec_is_a_usage_error(suite, tmp_path):
    result = miner("replay", "--agent", "no_such_module:agent", "--suite", suite, "--out", tmp_path)
    assert result.exit_code == 2 and "--agent" in result.stderr


def test_a_changed_agent_fails_the_right_check_in_the_right_turn(suite, tmp_path):
    # It refunds without looking the order up: the trajectory check of turn 1.
    assert _replay(suite, "skipping_agent", tmp_path / "runs").exit_code == 0
    report = json.loads(_score(suite, tmp_path / "runs").stdout)
    [run] = report["runs"]
    failed = [(t["turn"], c["check"]) for t in run["turns"] for c in t["checks"] if not c["passed"]]
    assert failed == [(1, "trajectory")]
    [reason] = [c["reason"] for t in run["turns"] for c in t["checks"] if not c["passed"]]
    assert "missing lookup_order(" in reason and "got: issue_refund(" in reason


def test_live_tools_run_the_real_tool_when_a_call_has_no_fixture(suite, tmp_path):
    import pyarrow.parquet as pq

    bare = _without_fixture(suite, tmp_path / "bare", "issue_refund")
    served = _replay(bare, "fixed_agent", tmp_path / "served")
    live = _replay(bare, "fixed_agent", tmp_path / "live", "--live-tools")
    assert served.exit_code == 0 and live.exit_code == 0, live.output

    def messages(folder: Path) -> str:
        rows = pq.read_table(next((folder / "run-1").glob("*.parquet"))).to_pylist()
        return json.dumps([r["content"] for r in rows] + [r["error_message"] for r in rows])

    # The test agent's real tools raise: only --live-tools reaches them.
    assert "a live tool ran" not in messages(tmp_path / "served")
    assert "no tool fixture for issue_refund" in messages(tmp_path / "served")
    assert "a live tool ran during a replay" in messages(tmp_path / "live")


def test_five_runs_of_a_nondeterministic_agent_give_the_flaky_report(suite, tmp_path):
    assert _replay(suite, "flaky_agent", tmp_path / "runs", "--runs", "5").exit_code == 0
    scored = miner("score", "--suite", suite, "--traces", tmp_path / "runs", "--pipeline", PIPELINE)
    assert "FLAKY refund_over_limit_is_not_reported_as_issued: passed 2 of 5 runs" in scored.output


def test_replayed_rows_have_the_plugins_columns_and_event_types(suite, tmp_path):
    # The sample traces were written by the same plugin for the same agent
    # shape: a replay's rows have their columns, and its event types are
    # those of the sample's s02 session.
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    from tests.conftest import TRACES

    sample = ds.dataset(TRACES, partitioning="hive").to_table()
    s02 = sample.filter(ds.field("session_id") == "s02-refund-returned-error").to_pylist()
    assert _replay(suite, "buggy_agent", tmp_path / "runs").exit_code == 0
    replayed = pq.read_table(next((tmp_path / "runs" / "run-1").glob("*.parquet")))
    assert set(replayed.column_names) == set(sample.column_names) - {"dt"}
    assert {r["event_type"] for r in replayed.to_pylist()} == {r["event_type"] for r in s02}


def test_the_frozen_bug_guard_still_refuses_a_review_that_keeps_the_bug(drafted, tmp_path):
    # The same session, "reviewed" by keeping what the agent said and no
    # forbidden claim: it passes on the flagged session, so check refuses it.
    out, _ = drafted
    case = tmp_path / f"draft_{session_hash('s02-refund-returned-error')}"
    shutil.copytree(out / case.name, case)
    scripted_review(
        case, "refund_over_limit_kept_as_observed", ["tool_failure"], forbiddenClaims=[]
    )
    result = miner("check", case, "--pipeline", PIPELINE)
    assert result.exit_code == 1
    assert "passes on the very session flagged as bad" in result.output


def test_a_transfer_to_a_sub_agent_runs_and_its_calls_are_served(drafted, tmp_path):
    # s07: the root agent hands over to billing_agent, which looks the invoice
    # up. The transfer runs for real; the sub-agent's call is served and
    # recorded under its own name.
    import pyarrow.parquet as pq

    out, _ = drafted
    case = tmp_path / "cases" / f"draft_{session_hash('s07-billing-subagent')}"
    shutil.copytree(out / case.name, case)
    scripted_review(case, "double_charge_is_explained", ["policy"], forbiddenClaims=["one charge"])
    result = _replay(case.parent, "fixed_agent", tmp_path / "runs")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["callsServed"] == 1 and summary["callsWithoutFixture"] == []
    rows = pq.read_table(next((tmp_path / "runs" / "run-1").glob("*.parquet"))).to_pylist()
    assert any(r["event_type"] == "AGENT_TRANSFER" for r in rows)
    invoice = [
        r for r in rows if r["event_type"] == "TOOL_COMPLETED" and "lookup_invoice" in r["content"]
    ]
    assert invoice and invoice[0]["agent"] == "billing_agent"


def _installed_miner() -> list[str]:
    script = ROOT / ".venv" / "bin" / "miner"
    return [str(script)] if script.exists() else [sys.executable, "-m", "miner"]


def test_agent_modules_are_found_in_the_working_folder_as_adk_finds_them(suite, tmp_path):
    # A team's agent package beside the suite: no install, no PYTHONPATH.
    team = tmp_path / "team"
    (team / "support_bot").mkdir(parents=True)
    (team / "support_bot" / "__init__.py").write_text("")
    shutil.copy(ROOT / "sample_traces" / "agent.py", team / "support_bot" / "agent.py")
    (team / "support_bot" / "broken.py").write_text("import left_pad_for_agents\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}

    def replay(agent: str) -> subprocess.CompletedProcess:
        command = [*_installed_miner(), "replay", "--agent", agent, "--suite", str(suite),
                   "--out", "runs", "--pipeline", str(PIPELINE), "--json"]  # fmt: skip
        return subprocess.run(command, cwd=team, env=env, capture_output=True, text=True)

    found = replay("support_bot.agent:fixed_agent")
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)["cases"] == 1
    assert list((team / "runs" / "run-1").glob("*.parquet"))

    missing = replay("support_bots.agent:root_agent")
    assert missing.returncode == 2
    assert missing.stderr.strip() == (
        "Error: --agent 'support_bots.agent:root_agent': no module support_bots in the "
        f"working folder ({team.resolve()}) or the installed packages"
    )
    dependency = replay("support_bot.broken:root_agent")
    assert dependency.returncode == 2
    assert dependency.stderr.strip() == (
        "Error: --agent 'support_bot.broken:root_agent': support_bot.broken imports "
        "left_pad_for_agents, which is not installed"
    )


def test_the_readmes_replay_and_score_commands_work_as_written(suite, tmp_path):
    # The README's loop, steps 5 and 6, run from a folder laid out as the repo
    # root is (the sample's agent and config) once steps 1-4 have built
    # evals/my_agent: the commands exactly as the README writes them.
    import re
    import shlex

    readme = (ROOT / "README.md").read_text()
    [replay] = re.findall(r"^\s*(miner replay --pipeline .*)$", readme, re.M)
    [score] = re.findall(r"^\s*(miner score --pipeline pipelines/my_agent.toml .*)$", readme, re.M)
    root = tmp_path / "repo"
    (root / "pipelines").mkdir(parents=True)
    (root / "sample_traces").symlink_to(ROOT / "sample_traces")
    # What `miner init --out pipelines/my_agent.toml` writes for the sample.
    shutil.copy(PIPELINE, root / "pipelines" / "my_agent.toml")
    shutil.copytree(suite, root / "evals" / "my_agent")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this tree's miner; the agent is found in cwd

    def run(command: str) -> subprocess.CompletedProcess:
        args = [*_installed_miner(), *shlex.split(command)[1:]]
        return subprocess.run(args, cwd=root, env=env, capture_output=True, text=True)

    replayed = run(replay)
    assert replayed.returncode == 0, replayed.stderr
    # ADK's notices went to the runs' logs, not the terminal.
    assert "Skipping missing token usage" not in replayed.stderr
    assert "context_cache_config" not in replayed.stderr
    assert sorted(p.name for p in (root / "runs").iterdir()) == ["run-1", "run-2", "run-3"]
    scored = run(score)
    assert scored.returncode == 0, scored.stdout + scored.stderr
    assert "pass rate 3/3" in scored.stdout
