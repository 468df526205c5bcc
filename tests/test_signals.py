"""The signals: the frustration detector measured on labelled turns, the
session-level cues, slow / loop / no_answer, and the registry itself."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from datetime import UTC, datetime, timedelta
from pathlib import Path

import orjson
import pandas as pd
import pytest

from miner.config import SignalsConfig
from miner.model import SessionFlags
from miner.sample import NegativeFeedback, flag_sessions
from miner.signals import NAMES
from miner.signals.complaint import ComplaintConfig, Scorer
from tools.signals_report import measure, third_party_turns

ROOT = Path(__file__).resolve().parent.parent
T0 = datetime(2026, 11, 22, tzinfo=UTC)


def test_complaint_precision_and_recall_on_third_party_turns():
    # The reported split: turns neither written for miner nor tuned on.
    report = measure(third_party_turns("test"))
    assert report.true_pos + report.false_neg >= 500
    assert report.precision >= 0.90, [t.text for t in report.false_alarms[:20]]
    assert report.recall >= 0.90, [t.text for t in report.misses[:20]]


def test_complaint_precision_and_recall_on_the_projects_own_turns():
    report = measure()
    assert report.true_pos + report.false_neg >= 200  # half of 400+ are complaints
    assert report.precision >= 0.90, report.false_alarms
    assert report.recall >= 0.90, report.misses


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("I already told you that - #55120. This is the third time.", True),
        ("Get me a manager. Now.", True),
        ("hello??", True),
        ("this is great, thanks!!", False),
        ("OMG it's gorgeous, thank you!!!", False),  # "!!!" and "!!" do not add up
        ("can I talk about my order again?", False),
        ('Is the "Terrible Twos" book in stock?', False),  # a quoted product name
        # Polite requests and fraud reports are not frustration (issue 22).
        ("The Lumen 400 headlamp from order #3251 is defective. Can I get my money back?", False),
        ("I'd like a refund", False),
        ("someone used my card on your site, there is a charge I don't recognise", False),
        # Asking whether the agent is there after it crashed: the error signal has it.
        ("hello? did you crash?", False),
        ("you're not helping, I want to speak with a person", True),
    ],
)
def test_what_is_and_is_not_frustration(text, complaint):
    scorer = Scorer(ComplaintConfig())
    score, rules = scorer.score(text)
    assert (score >= scorer.config.threshold) is complaint, (score, rules)


def test_a_column_of_messages_scores_as_each_message_alone():
    texts = [turn.text for turn in third_party_turns("test")[::7]]
    scorer = Scorer(ComplaintConfig())
    together = scorer.score_many(texts)
    assert together == [scorer.score(text) for text in texts]
    assert 50 <= sum(score >= scorer.config.threshold for score, _rules in together) < len(texts)


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("can someone help me", False),
        ("I want to talk to someone", True),
        ("Just let me talk to someone please", True),
        ("Can I speak to someone about a bulk order for my school?", False),
        ("someone used my card", False),
        ("could you ask an agent how to open an account?", False),  # Bitext's indirect speech
        ("is there any human agent available?", True),
    ],
)
def test_asking_for_a_person_is_asking_to_be_put_through(text, asks):
    _score, rules = Scorer(ComplaintConfig()).score(text)
    assert ("asks for a person" in rules) is asks, rules


@pytest.mark.parametrize(
    ("text", "capitals"),
    [
        ("WHERE IS MY PARCEL", True),
        ("WHY IS MY REFUND NOT HERE YET", True),
        ("where is my PARCEL, I NEED it", False),
        ("my UK order via DHL", False),  # acronyms in a sentence
        ("ORD-44812", False),  # too few letters to shout
    ],
)
def test_a_message_in_capitals(text, capitals):
    _score, rules = Scorer(ComplaintConfig()).score(text)
    assert ("a message in capitals" in rules) is capitals, rules


def _row(sid: str, kind: str, content=None, minutes: int = 0, **extra) -> dict:
    return {
        "timestamp": pd.Timestamp(T0 + timedelta(minutes=minutes)),
        "event_type": kind,
        "session_id": sid,
        "invocation_id": extra.pop("invocation_id", f"{sid}-i"),
        "content": None if content is None else orjson.dumps(content).decode(),
        "status": extra.pop("status", "OK"),
        "latency_ms": extra.pop("latency_ms", None),
    }


class _Flagged(dict):
    """The flagged sessions; any other reads as flagged by nothing."""

    def __missing__(self, sid: str) -> SessionFlags:
        return SessionFlags(sid, T0)


def _flags(rows: list[dict], **config) -> dict:
    return _Flagged(
        flag_sessions(
            [pd.DataFrame(rows)],
            NegativeFeedback(frozenset(), frozenset()),
            SignalsConfig.model_validate(config),
        )
    )


def _user(sid, text, inv, minutes=0):
    return _row(sid, "USER_MESSAGE_RECEIVED", {"text_summary": text}, minutes, invocation_id=inv)


def _answer(sid, text, inv, minutes=0):
    return _row(sid, "AGENT_RESPONSE", {"response": f"text: '{text}'"}, minutes, invocation_id=inv)


@pytest.mark.parametrize("given", ["ORD-55120", "ann.lee@example.com"])
def test_session_cues_make_a_complaint_no_single_message_shows(given):
    # Each message alone is mild; the user restating the order id (or e-mail)
    # in a later turn and the agent apologising twice make the session a complaint.
    rows = [
        _user("s", f"where is {given}?", "i1", 0),
        _answer("s", "Sorry, I cannot find it. Could you give me your order number?", "i1", 1),
        _user("s", f"It is {given}, as before", "i2", 2),
        _answer("s", "Sorry, could you give me your order number?", "i2", 3),
        _user("s", f"{given} again", "i3", 4),
        _answer("s", "Let me check.", "i3", 5),
        _user("calm", "where is ORD-10001?", "c1", 0),
        _answer("calm", "It arrives tomorrow.", "c1", 1),
    ]
    flags = _flags(rows)
    assert "complaint" in flags["s"].signals
    [reason] = [r for r in flags["s"].reasons if r.signal == "complaint"]
    assert "restates an id from another turn" in reason.rule
    assert "the agent apologised twice" in reason.rule
    assert "complaint" not in flags["calm"].signals


def test_a_restated_id_tips_a_session_only_with_a_message_that_leans_that_way():
    # A restated id adds 0.5: with "again" (0.3) it reaches 0.8, alone it
    # does not. Ids are looked for only where the cue could tip the session.
    rows = [
        _user("leaning", "where is ORD-55120?", "i1", 0),
        _user("leaning", "ORD-55120, again", "i2", 1),
        _user("plain", "where is ORD-55120?", "j1", 0),
        _user("plain", "it is ORD-55120", "j2", 1),
    ]
    flags = _flags(rows, no_answer={"enabled": False})
    [reason] = flags["leaning"].reasons
    assert reason.rule == "again / already, restates an id from another turn"
    assert reason.invocation == "i2"
    assert "complaint" not in flags["plain"].signals


def _tool(sid: str, inv: str, order_id: str, minutes: int = 0) -> dict:
    call = {"tool": "lookup_order", "args": {"order_id": order_id}}
    return _row(sid, "TOOL_STARTING", call, minutes, invocation_id=inv)


def _done(sid: str, inv: str, total_ms: int) -> dict:
    latency = f'{{"total_ms": {total_ms}}}'
    return _row(sid, "INVOCATION_COMPLETED", None, invocation_id=inv, latency_ms=latency)


def test_slow_loop_and_no_answer():
    rows = [
        _user("slow", "hi", "a1"),
        _answer("slow", "hello", "a1"),
        _done("slow", "a1", 45000),
        _user("quick", "hi", "b1"),
        _answer("quick", "hello", "b1"),
        _done("quick", "b1", 900),
        *[_tool("loop", "c1", "1", n) for n in range(3)],
        # The same call twice with another in between is not a loop of three.
        _tool("two", "d1", "1"),
        _tool("two", "d1", "2"),
        _tool("two", "d1", "1"),
        _user("crash", "refund please", "e1"),
        _row("crash", "TOOL_ERROR", {"tool": "x", "args": {}}, invocation_id="e1", status="ERROR"),
    ]
    flags = _flags(rows, slow={"threshold_ms": 30000}, loop={"repeats": 3})
    assert flags["slow"].signals == {"slow"}
    assert flags["quick"].signals == set()
    assert flags["loop"].signals == {"loop"}
    assert flags["two"].signals == set()  # the same call twice, another in between
    assert flags["crash"].signals == {"error", "no_answer"}
    assert _flags(rows, no_answer={"enabled": False})["crash"].signals == {"error"}


def test_an_unknown_signal_table_or_key_is_refused(tmp_path, scratch_config):
    from tests.conftest import miner

    for config, needle in (
        (scratch_config(extra="\n[signals.sentiment]\nenabled = true\n"), "signals.sentiment"),
        (scratch_config(replace=("repeats = 3", "repeat = 3")), "signals.loop.repeat"),
    ):
        result = miner("draft", "--pipeline", config, "--out", tmp_path / "out")
        assert result.exit_code == 2, result.output
        assert needle in result.stderr


def test_a_signal_is_added_by_one_file(tmp_path):
    # A new module in miner/signals/ is found, configured and run, with no
    # change anywhere else; it is removed again whatever happens.
    module = ROOT / "miner" / "signals" / "zz_apology_test_signal.py"
    module.write_text(
        textwrap.dedent(
            """
            from miner.signals import Reason, Signal, SignalConfig


            class ApologyConfig(SignalConfig):
                word: str = "sorry"


            class Apology(Signal):
                name = "apology"
                order = 99
                kinds = ("AGENT_RESPONSE",)
                Config = ApologyConfig

                def sql(self):
                    word = self.config.word.replace("'", "''")
                    return (
                        "SELECT session_id, invocation_id, 'the agent apologised' AS rule "
                        "FROM events WHERE kind = 'AGENT_RESPONSE' "
                        f"AND contains(lower(text), '{word}')"
                    )
            """
        )
    )
    check = textwrap.dedent(
        """
        import pandas as pd, orjson
        from miner.config import SignalsConfig
        from miner.sample import NegativeFeedback, flag_sessions, SCAN_EVENT_TYPES
        from miner.signals import NAMES
        assert NAMES[-1] == "apology", NAMES
        assert "AGENT_RESPONSE" in SCAN_EVENT_TYPES
        row = {"timestamp": pd.Timestamp("2026-11-22", tz="UTC"), "event_type": "AGENT_RESPONSE",
               "session_id": "s", "invocation_id": "i", "status": "OK",
               "content": orjson.dumps({"response": "text: 'Oops, my mistake.'"}).decode()}
        config = SignalsConfig.model_validate({"apology": {"word": "oops"}})
        nobody = NegativeFeedback(frozenset(), frozenset())
        flags = flag_sessions([pd.DataFrame([row])], nobody, config)
        assert "apology" in flags["s"].signals, flags
        print("ok")
        """
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True, timeout=120
        )
    finally:
        module.unlink()
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
    assert "apology" not in NAMES  # this process never saw it


def _outage_export() -> list[dict]:
    """One error kind with 100x the sessions of eleven others."""
    rows = []
    kinds = [("lookup_order", "TimeoutError: upstream timed out after {n}s")] * 1100
    for k in range(1, 12):
        kinds += [(f"tool_{k}", f"Error{k}: failure number {k} for order {{n}}")] * 11
    for i, (tool, message) in enumerate(kinds):
        sid, inv = f"s{i}", f"s{i}-i"
        call = {"tool": tool, "args": {"id": str(i)}}
        rows.append(_row(sid, "TOOL_STARTING", call, 0, invocation_id=inv))
        error = _row(sid, "TOOL_ERROR", call, 1, invocation_id=inv, status="ERROR")
        error["error_message"] = message.format(n=i)
        rows.append(error)
    return rows


def test_one_outage_does_not_fill_the_week():
    from miner.sample import pick_sessions, signature_hash

    flags = _flags(_outage_export(), no_answer={"enabled": False})
    signatures = {f.signature for f in flags.values()}
    assert len(signatures) == 12  # the masked messages group the outage into one
    pick = pick_sessions(
        flags, T0, T0 + timedelta(days=1), frozenset(), per_signal=20, max_cases=20, seed=3
    )
    assert len(pick.picked) == 20
    assert {f.signature for f in pick.picked} == signatures
    assert pick.signatures[next(s for s in signatures if "TimeoutError" in s)] == 1100

    # Next week, the kinds drafted before come last: with room for 11, the
    # outage (drafted last week) gives way to the other eleven.
    outage = next(s for s in signatures if "TimeoutError" in s)
    again = pick_sessions(
        flags, T0, T0 + timedelta(days=1), frozenset(), per_signal=11, max_cases=11, seed=3,
        drafted_signatures=frozenset({signature_hash(outage)}),
    )  # fmt: skip
    assert outage not in {f.signature for f in again.picked}
    assert len({f.signature for f in again.picked}) == 11


def test_escalation_fires_on_calls_by_name_and_on_transfers_by_target():
    # A call by its tool's name; a transfer (a row, or a transfer_to_agent
    # call) by its target, whatever else the payload holds.
    def call(sid, tool, args, java=False):
        payload = {"tool_origin": "LOCAL", "tool": tool} if java else {"tool": tool}
        return _row(sid, "TOOL_STARTING", payload | {"args": args}, invocation_id=f"{sid}-t")

    def moved(sid, payload):
        return _row(sid, "AGENT_TRANSFER", payload, invocation_id=f"{sid}-t")

    rows = [
        call("tool", "escalate", {"summary": "refund"}),
        call("java", "escalate", {"summary": "refund"}, java=True),
        call("handoff", "transfer_to_agent", {"agent_name": "human_desk"}),
        call("elsewhere", "transfer_to_agent", {"agent_name": "billing"}),
        call("other", "lookup_order", {"order_id": "escalate"}),
        call("handoff_more", "transfer_to_agent", {"agent_name": "human_desk", "why": "x"}),
        call("handoff_java", "transfer_to_agent", {"agent_name": "human_desk"}, java=True),
        moved("moved", {"to_agent": "human_desk"}),
        moved("moved_plain", {"from_agent": "root", "to_agent": "human_desk"}),
        moved("moved_away", {"from_agent": "root", "to_agent": "billing"}),
    ]
    flags = _flags(rows, escalation={"tools": ["escalate"], "handoff_agents": ["human_desk"]})
    sessions = ["tool", "java", "handoff", "elsewhere", "other", "handoff_more", "handoff_java",
                "moved", "moved_plain", "moved_away"]  # fmt: skip
    fired = {
        sid: [(r.rule, r.invocation) for r in flags[sid].reasons if r.signal == "escalation"]
        for sid in sessions
    }
    assert fired == {
        "tool": [("a call to an escalation tool", "tool-t")],
        "java": [("a call to an escalation tool", "java-t")],
        "handoff": [("a transfer to a handoff agent", "handoff-t")],
        "elsewhere": [],
        "other": [],
        "moved": [("a transfer to a handoff agent", "moved-t")],
        "handoff_more": [("a transfer to a handoff agent", "handoff_more-t")],
        "handoff_java": [("a transfer to a handoff agent", "handoff_java-t")],
        "moved_plain": [("a transfer to a handoff agent", "moved_plain-t")],
        "moved_away": [],
    }
    # A transfer call to a handoff agent, where transfer_to_agent is itself an
    # escalation tool, fires the stronger rule alone (as row() decides).
    both = _flags(
        [call("both", "transfer_to_agent", {"agent_name": "human_desk"})],
        escalation={"tools": ["transfer_to_agent"], "handoff_agents": ["human_desk"]},
    )
    assert [r.rule for r in both["both"].reasons] == ["a call to an escalation tool"]


def _stamped(sid: str, kind: str, second: float, latency: int | None = None) -> dict:
    row = _row(sid, kind, None, invocation_id=f"{sid}-1", latency_ms=None)
    row["timestamp"] = pd.Timestamp(T0 + timedelta(seconds=second))
    if latency is not None:
        row["latency_ms"] = f'{{"total_ms": {latency}}}'
    return row


def test_slow_reads_the_invocation_stamps_where_the_plugin_writes_no_latency():
    # The Go plugin never writes latency_ms; its INVOCATION_START / _END rows
    # are stamped. Where latency_ms is written it decides, whatever the stamps.
    rows = [
        _stamped("go-slow", "INVOCATION_START", 0),
        _stamped("go-slow", "INVOCATION_END", 96),
        _stamped("go-quick", "INVOCATION_START", 0),
        _stamped("go-quick", "INVOCATION_END", 2),
        _stamped("go-no-end", "INVOCATION_START", 0),
        _stamped("written", "INVOCATION_STARTING", 0),
        _stamped("written", "INVOCATION_COMPLETED", 96, latency=900),
    ]
    flags = _flags(rows, slow={"threshold_ms": 30000}, no_answer={"enabled": False})
    assert flags["go-slow"].signals == {"slow"}
    [reason] = flags["go-slow"].reasons
    assert reason.invocation == "go-slow-1"
    assert flags["go-quick"].signals == set()
    assert flags["go-no-end"].signals == set()
    assert flags["written"].signals == set()


def test_the_turn_aggregates_are_one_pass_and_each_signal_names_its_own():
    # The signals that aggregate a turn read ``turns`` only (one scan of
    # ``events`` for all of them); a turn column outside a signal's own
    # names is refused rather than silently shadowing another's.
    from miner.config import load_config
    from miner.engine.query import selection_sql, turns_sql
    from miner.sample import NegativeFeedback, _signals

    config = load_config(ROOT / "pipelines" / "support_agent.toml")
    signals = _signals(NegativeFeedback(frozenset({"s"}), frozenset({"i"})), config.signals)
    by_name = {s.name: s for s in signals}
    for name in ("error", "escalation", "slow", "no_answer", "thumbs_down"):
        assert by_name[name].turn_columns(), name
        assert "FROM events" not in by_name[name].sql(), name
    turns = turns_sql(signals)
    assert turns.count("FROM events") == 1 and "GROUP BY session_id, invocation_id" in turns
    assert selection_sql(None, signals, T0, T0).count(turns) == 1

    class Clash(type(by_name["slow"])):  # type: ignore[misc]
        def turn_columns(self) -> dict[str, str]:
            return {"error_best": "min(1)"}

    with pytest.raises(ValueError, match="error_best"):
        turns_sql([Clash(by_name["slow"].config, by_name["slow"].context)])


def test_each_hit_is_in_the_flags_once():
    # Two messages of a turn firing the same rules, and two tools each called
    # three times in a turn, are one hit each: the selection keeps every row
    # the signals give (it does not look for repeats), so each signal gives a
    # hit once.
    from miner.config import ScanConfig
    from miner.engine import duck
    from miner.sample import SCAN_EVENT_TYPES, select

    rows = [
        _user("s", "this is useless", "i1", 0),
        _user("s", "this is useless", "i1", 1),
        *[_tool("s", "i2", "1", n) for n in range(3)],
        *[
            _row("s", "TOOL_STARTING", {"tool": "refund", "args": {"id": 1}}, n, invocation_id="i2")
            for n in range(3)
        ],
    ]
    config = SignalsConfig.model_validate({"loop": {"repeats": 3}})
    nobody = NegativeFeedback(frozenset(), frozenset())
    with duck.connect(ScanConfig()) as con:
        duck.frame_rows(con, [pd.DataFrame(rows)], SCAN_EVENT_TYPES)
        found = select(con.table, nobody, config, duck.EARLIEST, duck.LATEST)
    [hits] = found.table.column("hits").to_pylist()
    pairs = sorted((h["signal"], h["invocation_id"]) for h in hits)
    assert pairs == [("complaint", "i1"), ("loop", "i2"), ("no_answer", "i1")], hits


def test_a_completed_calls_result_is_parsed_once_for_every_key_the_error_rule_reads():
    # One parse of the result a row (a list of paths), before the turn's
    # aggregates (each key's ``json_extract`` parsed it again), and the
    # engine's rule still reads a result as the Python one does: keys that
    # differ in case only are two keys, a dot is part of a key.
    import duckdb

    from miner.engine.query import turns_sql
    from miner.signals import Context
    from miner.signals.error import Error, ErrorConfig, result_failed

    config = ErrorConfig.model_validate(
        {"result_keys": ["error", "Error", "a b", "x.y"], "status_key": "state of it"}
    )
    turns = turns_sql([Error(config, Context())])
    assert turns.count("json_extract(result") == 1 and "json_transform" not in turns
    results = [
        {"error": None}, {"error": ""}, {"error": "null"}, {"error": 0}, {"error": "0"},
        {"error": False}, {"error": []}, {"error": {}}, {"error": {"code": 7}}, {"Error": "x"},
        {"a b": "x"}, {"x.y": 1}, {"x": {"y": 1}}, {"state of it": "FAILED"},
        {"state of it": "ok"}, {"state of it": 3}, [1], "error", 5, None, {"ERROR": "x"},
    ]  # fmt: skip
    rows = ", ".join(
        f"('s', 'i{n}', 'TOOL_COMPLETED', NULL, TIMESTAMP '2026-11-22', "
        f"'{orjson.dumps(r).decode()}')"
        for n, r in enumerate(results)
    )
    events = f"(VALUES {rows}) AS events(session_id, invocation_id, kind, status, ts, result)"
    found = duckdb.sql(turns.replace("FROM events", f"FROM {events}")).fetchall()
    failed = {row[1] for row in found if row[3] is not None}
    assert failed == {f"i{n}" for n, r in enumerate(results) if result_failed(r, config)}
    assert failed == {"i2", "i4", "i8", "i9", "i10", "i11", "i13"}
