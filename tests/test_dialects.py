"""Every ADK plugin's export: the same sessions as the Python, Java and Go plugins
write them (tests/golden/, made by tests/golden/make_golden_exports.py) draft the
same cases, fire the same signals, and score the same."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import orjson
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from miner.dialects import read_event
from miner.sample import session_hash
from miner.traces import build_sessions
from tests.conftest import PIPELINE, miner, scripted_review

GOLDEN = Path(__file__).resolve().parent / "golden"
FEEDBACK = GOLDEN / "feedback.parquet"
WINDOW = ["--since", "2026-11-20", "--until", "2026-11-28"]
DIALECTS = ("python", "java", "go")


def _draft(export: Path, out: Path):
    return miner(
        "draft", "--pipeline", PIPELINE, "--traces", export, "--feedback", FEEDBACK, *WINDOW,
        "--out", out,
    )  # fmt: skip


@pytest.fixture(scope="module")
def drafts(tmp_path_factory) -> dict[str, tuple[Path, dict]]:
    """One real draft run per dialect: (output folder, run summary)."""
    out = {}
    for dialect in DIALECTS:
        folder = tmp_path_factory.mktemp(f"drafts-{dialect}")
        result = _draft(GOLDEN / dialect, folder)
        assert result.exit_code == 0, result.output
        [run] = (folder / "runs").glob("*.json")
        out[dialect] = (folder, json.loads(run.read_text()))
    return out


def _cases(folder: Path) -> dict[str, dict]:
    """Every drafted file by name, without what differs from run to run."""
    files = {}
    for path in sorted(folder.glob("draft_*/*.json")):
        data = json.loads(path.read_text())
        if "provenance" in data:
            del data["provenance"]["draftedAt"], data["provenance"]["sourceFiles"]
        files[path.name] = data
    return files


CUT = "...[TRUNCATED]"


def _cut_alike(value):
    """Truncated strings kept to what every plugin keeps of them: Python and
    Go cut at 300 characters, Java at 300 bytes, marker included."""
    if isinstance(value, str) and value.endswith(CUT):
        return value[:250] + CUT
    if isinstance(value, dict):
        # The redaction's digests are of the strings as each plugin cut them.
        return {k: _cut_alike(v) for k, v in value.items() if k != "vetted"}
    if isinstance(value, list):
        return [_cut_alike(v) for v in value]
    return value


def test_java_rows_draft_exactly_the_cases_python_rows_do(drafts):
    python, java = _cases(drafts["python"][0]), _cases(drafts["java"][0])
    assert len(python) == 18
    assert _cut_alike(java) == _cut_alike(python)


@pytest.mark.parametrize(("dialect", "kept"), [("python", 300), ("java", 286), ("go", 300)])
def test_each_plugin_cuts_a_long_string_where_its_source_does(drafts, dialect, kept):
    # Python and Go (json_formatter.go truncateString) keep max_content_length
    # characters and add the marker; Java (JsonFormatter.truncateAndAddSuffix)
    # keeps max_content_length bytes with the marker ("...[truncated]", 14).
    folder, _ = drafts[dialect]
    case = next(folder.glob(f"draft_{session_hash('s12-long-notes')}"))
    tools = json.loads(next(case.glob("*.tools.json")).read_text())
    notes = tools["calls"][0]["result"]["carrier_notes"]
    assert notes.endswith(CUT) and len(notes) == kept + len(CUT)


#: Sessions where a tool raised. ADK Python and Java end the turn there; the Go
#: runtime hands the error to the model as the tool's response and the turn
#: goes on (base_flow.go L1302-L1304), so Go's turn has an answer.
RAISED = ("s03-tool-raised", "s13-slow-then-raised")


def _as_go_sees_it(files: dict[str, dict]) -> dict[str, dict]:
    """The drafted files without what the Go plugin does not log: the state
    (so the signed-in customer is not known and gets the next fixture id)."""
    text = re.sub(r"CUST-00\d00", "CUST-fixture", json.dumps(_cut_alike(files)))
    files = json.loads(text)
    for data in files.values():
        for case in data.get("eval_cases", []):
            case["session_input"]["state"] = {}
        if "redaction" in data.get("provenance", {}):
            # Digests of the strings above as written, before this helper
            # evened them out: compared through the strings themselves.
            data["provenance"]["redaction"].pop("vetted", None)
        for call in data.get("calls", []):
            # Go's transfer_to_agent returns an empty map (agent_transfer.go
            # Run), Python's nothing.
            if call["tool"] == "transfer_to_agent" and call["result"] == {}:
                call["result"] = None
    for name, data in files.items():
        redaction = data.get("provenance", {}).get("redaction", {})
        if "notPersonal" in redaction:
            # A value kept for its key is listed once per case; one kept
            # only in the state (the customer's tier) is in no Go case.
            stem = name.split(".")[0]
            written = json.dumps(
                [
                    {k: v for k, v in other.items() if k != "provenance"}
                    for other_name, other in files.items()
                    if other_name.startswith(stem + ".")
                ]
            )
            redaction["notPersonal"] = [
                value for value in redaction["notPersonal"] if json.dumps(value)[1:-1] in written
            ]
    return files


def _of(session: str, files: dict[str, dict]) -> dict[str, dict]:
    return {name: data for name, data in files.items() if session_hash(session) in name}


def test_go_rows_draft_the_same_tool_calls_as_python_rows(drafts):
    # Compared as parsed JSON: Go writes 420.0 as 420 and sorts map keys.
    python = _as_go_sees_it(_cases(drafts["python"][0]))
    go = _as_go_sees_it(_cases(drafts["go"][0]))
    assert set(go) == set(python)
    tools = [name for name in python if name.endswith(".tools.json")]
    assert len(tools) == 6
    for name in tools:
        assert go[name]["calls"] == python[name]["calls"], name
    for name in (n for n in python if n.endswith(".evalset.json")):
        [py_case], [go_case] = python[name]["eval_cases"], go[name]["eval_cases"]
        for py_turn, go_turn in zip(py_case["conversation"], go_case["conversation"], strict=True):
            assert go_turn["intermediate_data"] == py_turn["intermediate_data"], name


def test_go_rows_draft_the_same_cases_but_for_the_state_go_does_not_log(drafts):
    python, go = _cases(drafts["python"][0]), _cases(drafts["go"][0])
    assert all(
        case["session_input"]["state"] == {}
        for data in go.values()
        for case in data.get("eval_cases", [])
    )
    raised = {name for session in RAISED for name in _of(session, python)}
    assert len(raised) == 6
    same = [name for name in python if name not in raised]
    assert {n: _as_go_sees_it(go)[n] for n in same} == {n: _as_go_sees_it(python)[n] for n in same}
    assert "empty state" in drafts["go"][1]["warning"]


def test_after_a_raised_tool_error_the_go_turn_goes_on_to_an_answer(drafts):
    def replies(dialect: str) -> list[str]:
        [evalset] = [
            data
            for name, data in _of("s13-slow-then-raised", _cases(drafts[dialect][0])).items()
            if name.endswith(".evalset.json")
        ]
        turns = evalset["eval_cases"][0]["conversation"]
        return [turn["final_response"]["parts"][0]["text"] for turn in turns]

    assert replies("python")[1] == "REVIEW: (no reply: the turn ended without an agent response)"
    assert replies("java") == replies("python")
    assert replies("go")[0] == replies("python")[0]
    assert re.fullmatch(r"REVIEW: Sorry, \S+, the refund did not go through\. .*", replies("go")[1])


def test_the_same_sessions_have_the_same_failure_causes_in_every_dialect(drafts):
    # Go names a tool call only in attributes, which the scan reads on Go's
    # TOOL_START rows alone: its causes name the same tools as the others'.
    # Go's turn goes on after a raised error (no no_answer there, as in the
    # other two): an error's cause leaves the signals out, so the causes agree.
    signatures = {
        d: sorted((s["signature"], s["sessions"]) for s in summary["signatures"])
        for d, (_out, summary) in drafts.items()
    }
    assert signatures["java"] == signatures["python"] == signatures["go"]
    assert sum(" raised: " in s for s, _n in signatures["go"]) == 2
    assert all(" | no tools" not in s for s, _n in signatures["go"])


def test_every_signal_fires_on_every_dialect(drafts):
    flagged = {d: summary["flagged"] for d, (_out, summary) in drafts.items()}
    assert flagged["python"] == flagged["java"]
    assert flagged["go"] == {**flagged["java"], "no_answer": 0}  # see RAISED
    # loop is not in these sessions; tests/test_signals.py covers it.
    exercised = ("error", "thumbs_down", "escalation", "complaint", "slow", "no_answer")
    assert all(flagged["java"][s] > 0 for s in exercised), flagged


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_slow_invocation_is_slow_in_every_dialect(drafts, dialect):
    # The Go plugin writes no latency_ms: its INVOCATION_START / _END stamps say it.
    folder, summary = drafts[dialect]
    assert summary["flagged"]["slow"] == 1
    spec = json.loads(
        next(folder.glob(f"draft_{session_hash('s13-slow-then-raised')}/*.spec.json")).read_text()
    )
    reasons = spec["provenance"]["signalReasons"]
    assert {"signal": "slow", "rule": "an invocation over 30000 ms", "turn": "t1"} in reasons


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_raised_tool_error_is_one_call_with_its_error(drafts, dialect):
    # Go logs TOOL_ERROR and then TOOL_END {} for the same call (base_flow.go
    # L1276-L1300): one call, not a second empty one.
    folder, _ = drafts[dialect]
    case = next(folder.glob(f"draft_{session_hash('s13-slow-then-raised')}"))
    tools = json.loads(next(case.glob("*.tools.json")).read_text())
    calls = [(c["invocationId"], c["tool"], c.get("error")) for c in tools["calls"]]
    assert calls == [
        ("t1", "lookup_customer", None),
        ("t2", "issue_refund", "gateway declined refund to card <CREDIT_CARD_1> for <PERSON_1>"),
    ]
    evalset = json.loads(next(case.glob("*.evalset.json")).read_text())
    uses = evalset["eval_cases"][0]["conversation"][1]["intermediate_data"]["tool_uses"]
    assert [use["name"] for use in uses] == ["issue_refund"]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_handoff_to_a_human_is_an_escalation(drafts, dialect):
    # The Java and Go plugins write no AGENT_TRANSFER row: the handoff is a
    # transfer_to_agent call with args.agent_name.
    folder, _ = drafts[dialect]
    spec = json.loads(
        next(folder.glob(f"draft_{session_hash('s05-handoff')}/*.spec.json")).read_text()
    )
    assert "escalation" in spec["provenance"]["signals"]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_the_summary_counts_rows_by_the_dialect_that_wrote_them(drafts, dialect):
    rows_read = drafts[dialect][1]["rows_read"]
    assert list(rows_read) == [dialect]
    assert sum(rows_read[dialect].values()) > 20


def test_answers_truncation_and_multi_part_messages_read_alike(drafts):
    for dialect in DIALECTS:
        folder, _ = drafts[dialect]
        case = next(folder.glob(f"draft_{session_hash('s12-long-notes')}"))
        evalset = json.loads(next(case.glob("*.evalset.json")).read_text())
        turn = evalset["eval_cases"][0]["conversation"][0]
        assert turn["user_content"]["parts"][0]["text"] == (
            "Where is ORD-10001? | It is a monitor arm, this is terrible."
        ), dialect
        assert turn["final_response"]["parts"][0]["text"].startswith("REVIEW: ORD-10001 was")
        tools = json.loads(next(case.glob("*.tools.json")).read_text())
        assert tools["calls"][0]["result"]["carrier_notes"].endswith("...[TRUNCATED]"), dialect
        spec = json.loads(next(case.glob("*.spec.json")).read_text())
        assert "truncated" in spec["tags"]


def _rows(dialect: str) -> pd.DataFrame:
    return pq.read_table(GOLDEN / dialect / "export.parquet").to_pandas()


def _write(frame: pd.DataFrame, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), folder / "part.parquet")
    return folder


def test_retried_java_writes_are_dropped_without_an_event_id(tmp_path, drafts):
    rows = _rows("java")
    assert "event_id" not in rows.columns
    doubled = _write(pd.concat([rows, rows.sample(20, random_state=1)]), tmp_path / "export")
    result = _draft(doubled, tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert _cases(tmp_path / "out") == _cases(drafts["java"][0])


def test_an_export_in_an_unknown_shape_is_refused(tmp_path):
    rows = _rows("java")
    rows["event_type"] = "page_view"
    export = _write(rows, tmp_path / "export")
    out = tmp_path / "out"
    result = _draft(export, out)
    assert result.exit_code == 3
    line = result.stderr.strip()
    assert "\n" not in line and str(export) in line and "page_view" in line
    assert not out.exists()


def test_answers_that_hold_no_text_stop_the_run_naming_the_key(tmp_path):
    rows = _rows("java")
    answers = rows["event_type"] == "AGENT_RESPONSE"
    rows.loc[answers, "content"] = '{"summary":"moved elsewhere"}'
    result = _draft(_write(rows, tmp_path / "export"), tmp_path / "out")
    assert result.exit_code == 3
    line = result.stderr.strip()
    assert "AGENT_RESPONSE rows and none holds its text" in line
    assert "content.text_summary (Java)" in line
    assert "moved elsewhere" not in result.output


def test_some_answers_without_text_are_a_loud_warning(tmp_path):
    rows = _rows("java")
    first = rows.index[rows["event_type"] == "AGENT_RESPONSE"][0]
    rows.loc[first, "content"] = '{"summary":"x"}'
    out = tmp_path / "out"
    result = _draft(_write(rows, tmp_path / "export"), out)
    assert result.exit_code == 0, result.output
    assert "1 of" in result.stderr and "AGENT_RESPONSE rows hold no text" in result.stderr


def _java_row(kind: str, content: dict) -> dict:
    return {
        "timestamp": pd.Timestamp("2026-11-22T10:00:00", tz="UTC"),
        "event_type": kind,
        "session_id": "s1",
        "invocation_id": "i1",
        "content": orjson.dumps(content).decode(),
        "attributes": None,
        "is_truncated": None,
    }


def test_parts_java_did_not_inline_are_dropped_and_noted():
    # Parser.java: "[BINARY DATA]", "[MEDIA OFFLOADED]", text cut to 200 chars
    # plus "... [OFFLOADED]".
    rows = pd.DataFrame(
        [
            _java_row(
                "USER_MESSAGE_RECEIVED",
                {"text_summary": "Here is the photo | [BINARY DATA] | Long story... [OFFLOADED]"},
            ),
            _java_row("AGENT_RESPONSE", {"text_summary": "Thanks. | [MEDIA OFFLOADED]"}),
        ]
    )
    [session] = build_sessions(rows, "app")
    [turn] = session.turns
    assert turn.user_text == "Here is the photo | Long story"
    assert turn.reply_text == "Thanks."
    assert set(turn.markers) == {"[BINARY DATA]", "[OFFLOADED]", "[MEDIA OFFLOADED]"}


@pytest.mark.parametrize(
    ("kind", "content", "text"),
    [
        # BigQuery's EXPORT DATA: normalised JSON text, keys sorted, no spaces.
        ("AGENT_RESPONSE", '{"response":"text: \'Done.\'"}', "Done."),
        ("AGENT_RESPONSE", '{"text_summary":"Done."}', "Done."),
        (
            "EVENT",
            '{"role":"model","parts":[{"text":"Done."},{"text":"Bye."}]}',
            "Done. Bye.",
        ),
    ],
)
def test_each_plugins_answer_is_read(kind, content, text):
    row = pd.DataFrame([{**_java_row(kind, {}), "content": content}])
    [event] = [read_event(r) for r in row.itertuples(index=False)]
    assert event.kind == "AGENT_RESPONSE" and event.text == text


def test_miner_score_reads_runs_in_every_dialect(tmp_path, drafts):
    # A reviewed case from the Python export, promoted into a suite; each
    # dialect's copy of the session (renamed after the case, as a replay
    # names its sessions) is scored against it.
    folder, _ = drafts["python"]
    case = next(folder.glob(f"draft_{session_hash('s02-refund-returned-error')}"))
    review = tmp_path / "review" / case.name
    shutil.copytree(case, review)
    scripted_review(review, "refund_above_limit_is_not_reported_issued", ["tool_failure", "p0"])
    suite = tmp_path / "suite"
    promoted = miner("promote", review.parent, "--suite", suite, "--pipeline", PIPELINE)
    assert promoted.exit_code == 0, promoted.output

    reports = {}
    for dialect in DIALECTS:
        rows = _rows(dialect)
        rows = rows[rows["session_id"] == "s02-refund-returned-error"].copy()
        rows["session_id"] = "refund_above_limit_is_not_reported_issued"
        run = _write(rows, tmp_path / "runs" / dialect)
        result = miner("score", "--suite", suite, "--traces", run, "--json", "--pipeline", PIPELINE)
        assert result.exit_code == 1, result.output  # the run repeats the bug
        report = json.loads(result.stdout)
        [run_report] = report["runs"]
        reports[dialect] = [
            (t["turn"], c["check"], c["passed"], c["reason"])
            for t in run_report["turns"]
            for c in t["checks"]
        ]
    assert reports["python"] == reports["java"]
    # The same verdicts; Go's reasons quote its arguments as it writes them
    # (keys sorted, 420 for 420.0).
    assert [r[:3] for r in reports["go"]] == [r[:3] for r in reports["python"]]
    assert any(not passed for _turn, _check, passed, _reason in reports["go"])
