"""Why a flagged session was not drafted: the run's counts per reason and
its manifest of session hashes beside the summary (real runs over the
sample; real Presidio for the sessions the draft declines)."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime

import orjson
import pandas as pd
import pyarrow.parquet as pq

from miner import output
from miner.summary import NOT_DRAFTED_REASONS, RunSummary
from tests.conftest import PIPELINE, TRACES, WINDOW, miner


def _manifest(out, summary: dict) -> list[dict]:
    path = summary["not_drafted_manifest"]
    assert path.startswith(str(out / "runs")) and path.endswith(".not-drafted.jsonl")
    return [json.loads(line) for line in open(path, encoding="utf-8")]


def test_a_run_counts_and_lists_each_flagged_session_it_left_out(tmp_path):
    out = tmp_path / "out"
    first = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--max-cases", "5", "--out", out)
    assert first.exit_code == 0, first.output
    [run] = (out / "runs").glob("*Z-*[0-9].json")
    summary = json.loads(run.read_text())
    listed = _manifest(out, summary)
    counts = summary["not_drafted"]
    assert list(counts) == list(NOT_DRAFTED_REASONS)
    assert {r: sum(e["reason"] == r for e in listed) for r in NOT_DRAFTED_REASONS} == counts
    assert summary["sampled"] == 5 and counts["over_quota"] + counts["duplicate"] == len(listed)
    assert len(listed) > 0 and "not drafted" in first.output
    # Hashes only, never a session id or any trace text.
    drafted = set(json.loads((out / "miner-ledger.json").read_text())["sessions"])
    ids = set(pq.read_table(TRACES, columns=["session_id"]).column(0).to_pylist())
    text = "\n".join(json.dumps(e) for e in listed)
    assert all(set(e) == {"session", "reason"} and len(e["session"]) == 16 for e in listed)
    assert not any(session_id in text for session_id in ids)
    assert not {e["session"] for e in listed} & drafted

    # Again, every case wanted: the five drafted are skipped, the rest drafted;
    # --json prints the record the summary file holds.
    # Both runs share the pid and may share the second: output.run_stem
    # gives the second its own name all the same.
    again = miner("draft", "--pipeline", PIPELINE, *WINDOW, "--json", "--out", out)
    assert again.exit_code == 0, again.output
    printed = json.loads(again.stdout)
    [second] = [p for p in (out / "runs").glob("*Z-*[0-9].json") if p != run]
    assert printed == json.loads(second.read_text())
    assert printed["not_drafted"]["already_drafted"] == printed["skipped_already_drafted"] == 5
    assert printed["sampled"] == len(listed)
    assert sorted(e["session"] for e in _manifest(out, printed)) == sorted(drafted)
    # The triage page shows the counts.
    page = (out / "runs" / f"{second.stem}.html").read_text()
    assert '<tr class="not-drafted"><td><code>already_drafted</code></td><td class="n">5</td>' in (
        page
    )


def test_the_summary_file_reads_back_as_the_record_and_an_old_one_still_reads():
    record = RunSummary(
        since=datetime(2026, 11, 20, tzinfo=UTC),
        until=datetime(2026, 11, 28, tzinfo=UTC),
        flagged={"error": 2},
        not_drafted={"over_quota": 1, "truncated": 1},
        cases=("draft_0123456789abcdef",),
        warning="w",
    )
    assert RunSummary.from_json(orjson.loads(orjson.dumps(record.as_json()))) == RunSummary(
        **{
            **record.__dict__,
            "not_drafted": {r: record.not_drafted.get(r, 0) for r in NOT_DRAFTED_REASONS},
        }  # fmt: skip
    )
    # A summary written before the reasons were recorded, and one edited badly.
    old = RunSummary.from_json({"skipped_already_drafted": 3, "sampled": "x", "cases": [1, "a"]})
    assert old is not None and old.skipped_already_drafted == 3
    assert old.sampled == 0 and old.cases == ("a",)
    assert RunSummary.from_json([]) is None


def _row(session: str, second: int, kind: str, content: dict, **extra) -> dict:
    return {
        "timestamp": pd.Timestamp(f"2026-11-22T10:00:{second:02d}", tz="UTC"),
        "event_id": f"{session}-{second}",
        "event_type": kind,
        "session_id": session,
        "invocation_id": f"{session}-t1",
        "content": orjson.dumps(content).decode(),
        "attributes": None,
        "is_truncated": False,
        "source_file": "x.parquet",
        **extra,
    }


def test_a_session_whose_user_message_is_not_whole_makes_no_case():
    from miner.config import load_config
    from miner.job import DraftContext, draft_sessions
    from miner.redaction.policy import policy_for

    answer = {"response": "text: 'Checking ORD-1 now.'"}
    rows = pd.DataFrame(
        [
            _row("whole", 0, "USER_MESSAGE_RECEIVED", {"text_summary": "Where is ORD-1?"}),
            # A cut answer is still a case: the reviewer rewrites the answer.
            _row("whole", 1, "AGENT_RESPONSE", {"response": "text: 'ORD-1 is...[TRUNCATED]"}),
            _row("cut", 0, "USER_MESSAGE_RECEIVED", {"text_summary": "My order...[TRUNCATED]"}),
            _row("cut", 1, "AGENT_RESPONSE", answer),
            # The Java plugin's stand-in for a part it offloaded (no event_id: Java).
            _row(
                "photo", 0, "USER_MESSAGE_RECEIVED",
                {"text_summary": "Here is the parcel | [MEDIA OFFLOADED]"}, event_id=None,
            ),
            _row("photo", 1, "AGENT_RESPONSE", {"text_summary": "Thanks."}, event_id=None),
        ]
    )  # fmt: skip
    now = datetime(2026, 11, 29, tzinfo=UTC)
    ids = ("whole", "cut", "photo")
    context = DraftContext(
        config=load_config(PIPELINE),
        traces=TRACES,
        since=now,
        until=now,
        now=now,
        signals_of=dict.fromkeys(ids, frozenset({"error"})),
        reasons_of=dict.fromkeys(ids, ()),
    )
    drafted = draft_sessions(rows, context, policy_for(context.config))
    assert drafted.declined == {"cut": "truncated", "photo": "content_offloaded"}
    [case] = drafted.cases.values()
    [spec] = [v for k, v in case.items() if k.endswith(".spec.json")]
    assert "truncated" in spec["tags"]


def test_a_run_that_drafts_every_flagged_session_lists_none(drafted):
    out, _ = drafted
    [run] = (out / "runs").glob("*Z-*[0-9].json")
    summary = json.loads(run.read_text())
    assert summary["sampled"] > 0 and sum(summary["not_drafted"].values()) == 0
    assert _manifest(out, summary) == []
    page = run.with_suffix(".html").read_text()
    section = page.split('id="not-drafted"', 1)[1].split("<h2", 1)[0]
    assert '<p class="none">none</p>' in section


def test_a_second_run_in_the_same_second_and_process_gets_its_own_files(tmp_path):
    out = tmp_path / "out"
    first = output.run_stem(out, "20261203T101010Z")
    (out / output.RUNS_DIR).mkdir(parents=True)
    (out / output.RUNS_DIR / f"{first}.json").write_text("{}")
    second = output.run_stem(out, "20261203T101010Z")
    (out / output.RUNS_DIR / f"{second}.json").write_text("{}")
    third = output.run_stem(out, "20261203T101010Z")
    assert first.endswith(f"-{os.getpid()}")
    assert (second, third) == (f"{first}-2", f"{first}-3")
