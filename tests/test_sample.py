"""Signals and the reproducible pick."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import orjson
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from miner.config import FeedbackConfig, SignalsConfig
from miner.errors import PayloadError
from miner.model import SessionFlags
from miner.sample import (
    NOT_DRAFTED_REASONS,
    NegativeFeedback,
    NotDrafted,
    flag_sessions,
    left_out,
    negative_feedback,
    pick_sessions,
    session_hash,
)
from miner.signals.complaint import phrase_pattern
from miner.signals.error import result_failed

T0 = datetime(2026, 11, 22, tzinfo=UTC)
RULES = SignalsConfig.model_validate(
    {
        "escalation": {"tools": ["escalate"], "handoff_agents": ["human"]},
        # These sessions have no answers on purpose; no_answer has its own test.
        "no_answer": {"enabled": False},
    }
)


def test_complaint_phrases_match_whole_words_case_insensitively():
    texts = ["This is USELESS!", "can I speak to a human please", "a useful answer", "uselessness"]
    pattern = phrase_pattern(["useless", "speak to a human"])
    found = pc.match_substring_regex(pa.array(texts), pattern, ignore_case=True)
    assert found.to_pylist() == [True, True, False, False]


def test_a_returned_failure_counts_as_an_error():
    rules = RULES.error
    assert result_failed({"status": "error", "message": "x"}, rules)
    assert result_failed({"error": "not found"}, rules)
    assert not result_failed({"status": "ok", "error": None}, rules)
    assert not result_failed("error", rules)


def _event(sid, kind, content=None, minutes=0, **extra):
    return {
        "timestamp": pd.Timestamp(T0 + timedelta(minutes=minutes)),
        "event_type": kind,
        "session_id": sid,
        "invocation_id": extra.pop("invocation_id", f"{sid}-i"),
        "content": None if content is None else orjson.dumps(content).decode(),
        "status": extra.pop("status", "OK"),
    }


def test_each_signal_is_flagged_from_its_rows():
    batch = pd.DataFrame(
        [
            _event("calm", "USER_MESSAGE_RECEIVED", {"text_summary": "where is my order?"}),
            _event("angry", "USER_MESSAGE_RECEIVED", {"text_summary": "this is ridiculous"}),
            _event("esc", "TOOL_STARTING", {"tool": "escalate", "args": {}}),
            _event("handoff", "AGENT_TRANSFER", {"from_agent": "root", "to_agent": "human"}),
            _event("raised", "TOOL_ERROR", {"tool": "x"}, status="ERROR"),
            _event("returned", "TOOL_COMPLETED", {"tool": "x", "result": {"status": "error"}}),
            _event(
                "rated", "USER_MESSAGE_RECEIVED", {"text_summary": "ok"}, invocation_id="bad-inv"
            ),
        ]
    )
    flags = flag_sessions(
        [batch.iloc[:3], batch.iloc[3:]],
        NegativeFeedback(frozenset(), frozenset({"bad-inv"})),
        RULES,
    )
    assert {k: set(v.signals) for k, v in flags.items()} == {
        "angry": {"complaint"},
        "esc": {"escalation"},
        "handoff": {"escalation"},
        "raised": {"error"},
        "returned": {"error"},
        "rated": {"thumbs_down"},
    }


def test_each_error_rule_per_turn_and_the_earliest_message_in_the_signature():
    # One session, a turn per rule; Go's names, an EVENT row with status
    # ERROR, and a completed call read for its result all count, and each
    # turn keeps its most telling rule.
    def row(kind, invocation, minutes, content=None, **extra):
        return _event("s", kind, content, minutes=minutes, invocation_id=invocation, **extra)

    failed = {"tool": "x", "result": {"status": "Failed"}}
    fine = {"tool": "x", "result": {"status": "ok"}}
    rows = pd.DataFrame(
        [
            row("TOOL_COMPLETED", "raised", 1, failed),
            row("TOOL_ERROR", "raised", 2, {"tool": "x"}, status="ERROR"),
            row("MODEL_ERROR", "model", 3),  # Go's name for LLM_ERROR
            row("TOOL_END", "returned", 4, {"status": "error"}),  # Go's TOOL_COMPLETED
            row("AGENT_ERROR", "run", 5),
            row("EVENT", "event", 6, {"role": "model"}, status="ERROR"),
            row("TOOL_COMPLETED", "fine", 7, fine),
        ]
    )
    rows["error_message"] = [None, "late: order 1234 declined", None, "", None, "", None]
    rows.loc[0, "error_message"] = None
    rows.loc[4, "error_message"] = "AGENT blew up"
    flags = flag_sessions([rows.iloc[::-1]], NegativeFeedback(frozenset(), frozenset()), RULES)
    assert {(r.invocation, r.rule) for r in flags["s"].reasons} == {
        ("raised", "a tool raised an error"),
        ("model", "a model call failed"),
        ("returned", "a tool returned a failure"),
        ("run", "the agent run failed"),
        ("event", "a row with status ERROR"),
    }
    # The earliest message (minute 2), masked, whatever the order of rows.
    assert flags["s"].signature.endswith("late: order <N> declined")


def test_a_failed_call_whose_payload_does_not_parse_stops_the_scan():
    rows = pd.DataFrame([_event("s", "TOOL_COMPLETED")])
    rows["content"] = ['{"tool": "x", "result": {"status": "error", "error": "Maria']
    with pytest.raises(PayloadError, match=r"column content: malformed JSON") as raised:
        flag_sessions([rows], NegativeFeedback(frozenset(), frozenset()), RULES)
    assert "Maria" not in str(raised.value)


def test_negative_feedback_by_score_or_label():
    # A Parquet column has one type: scores written as text, read as numbers too.
    table = pa.table(
        {
            "session_id": ["a", "b", "c", None, "e"],
            "invocation_id": [None, None, None, "i9", None],
            "score": ["-1", "1", "thumbs_down", "0", None],
        }
    )
    neg = negative_feedback(table, FeedbackConfig(negative_values=("THUMBS_DOWN",)))
    assert neg.sessions == {"a", "c"}
    assert neg.invocations == {"i9"}
    numbers = pa.table({"session_id": ["a", "b", "c"], "score": [-1.0, 0.5, float("nan")]})
    assert negative_feedback(numbers, FeedbackConfig()).sessions == {"a"}


def test_negative_feedback_reads_scores_as_pandas_did():
    # A binary score column is its text (pandas' to_numeric and
    # astype("string") decoded it); a NaN is no rating, not the label "nan".
    binary = pa.table({"session_id": ["a", "b", "c"], "score": [b"-1", b"THUMBS_DOWN", b"5"]})
    neg = negative_feedback(binary, FeedbackConfig(negative_values=("thumbs_down",)))
    assert neg.sessions == {"a", "b"}
    nan = pa.table({"session_id": ["a", "b"], "score": [float("nan"), 3.0]})
    labels = FeedbackConfig(negative_max_score=None, negative_values=("nan",))
    assert negative_feedback(nan, labels).sessions == set()
    # Written as pandas' to_numeric reads text: spaces, exponents, no "_".
    text = pa.table({"session_id": ["a", "b", "c", "d"], "score": [" -1 ", "-1e3", "1e3", "-1_0"]})
    assert negative_feedback(text, FeedbackConfig()).sessions == {"a", "b"}
    # Ints with a null: "-1", not pandas' float "-1.0" (which no label of
    # "-1" matched); an id column of ints with a null: "7", not "7.0".
    ints = pa.table({"session_id": pa.array([7, None, 9]), "score": pa.array([-1, -1, None])})
    assert negative_feedback(ints, FeedbackConfig(negative_values=("-1",))).sessions == {"7"}


def _flags(n: int, signals: set[str]) -> dict[str, SessionFlags]:
    return {
        # Each a kind of its own: one signature takes a fifth of a run at most.
        f"s{i}": SessionFlags(
            f"s{i}", T0 + timedelta(hours=i), frozenset(signals), signature=f"kind {i}"
        )
        for i in range(n)
    }


def test_quotas_per_signal_and_in_all():
    flags = {
        **_flags(6, {"error"}),
        **{
            f"c{i}": SessionFlags(f"c{i}", T0, frozenset({"complaint"}), signature=f"c {i}")
            for i in range(6)
        },
    }
    end = T0 + timedelta(days=1)
    picked = pick_sessions(flags, T0, end, frozenset(), per_signal=2, max_cases=10, seed=1).picked
    assert sorted(p.session_id[0] for p in picked) == ["c", "c", "s", "s"]
    capped = pick_sessions(flags, T0, end, frozenset(), per_signal=5, max_cases=3, seed=1).picked
    assert len(capped) == 3 and all(p.session_id.startswith("s") for p in capped)


def test_the_window_is_half_open_on_the_session_start():
    flags = _flags(5, {"error"})
    selection = pick_sessions(
        flags, T0 + timedelta(hours=1), T0 + timedelta(hours=3), frozenset(), 10, 10, seed=0
    )
    assert sorted(p.session_id for p in selection.picked) == ["s1", "s2"]
    assert selection.in_window == 2


def test_a_session_start_a_nanosecond_either_side_of_the_window():
    # Starts are cut to microseconds on the way to Python: that must decide
    # the half-open window as the nanoseconds would.
    since, until = T0, T0 + timedelta(hours=1)
    rows = pd.DataFrame(
        [
            _event("before", "TOOL_ERROR", minutes=0),
            _event("last", "TOOL_ERROR", minutes=0),
            _event("after", "TOOL_ERROR", minutes=0),
        ]
    )
    rows["timestamp"] = [
        pd.Timestamp(since) - pd.Timedelta(1, "ns"),
        pd.Timestamp(until) - pd.Timedelta(1, "ns"),
        pd.Timestamp(until),
    ]
    flags = flag_sessions([rows], NegativeFeedback(frozenset(), frozenset()), RULES)
    assert flags["last"].start == until - timedelta(microseconds=1)
    assert flags["last"].start.utcoffset() == timedelta(0)
    selection = pick_sessions(flags, since, until, frozenset(), 10, 10, seed=0)
    assert [p.session_id for p in selection.picked] == ["last"]


def test_pick_is_reproducible_and_skips_drafted_sessions():
    flags = _flags(20, {"error"})
    end = T0 + timedelta(days=2)
    one = pick_sessions(flags, T0, end, frozenset(), 3, 10, seed=5).picked
    shuffled = dict(reversed(list(flags.items())))
    two = pick_sessions(shuffled, T0, end, frozenset(), 3, 10, seed=5).picked
    assert one == two
    drafted = frozenset(session_hash(p.session_id) for p in one)
    three = pick_sessions(flags, T0, end, drafted, 3, 10, seed=5)
    assert not {p.session_id for p in three.picked} & {p.session_id for p in one}
    assert three.already_drafted == 3


def test_a_signature_names_the_tools_of_the_50_earliest_calls_in_any_row_order():
    # 130 calls written latest first, over batches, some in the plain payload
    # (named on whole columns) and some not (read row by row): the signature
    # keeps the tools of the 50 earliest calls, in call order.
    early = [f"early_{k:02d}" for k in range(50)]
    calls = [(minute, tool) for minute, tool in enumerate(early)]
    calls += [(100 + k, f"late_{k:02d}") for k in range(80)]
    rows = [_event("busy", "TOOL_ERROR", {"tool": "x"}, minutes=200, status="ERROR")]
    for minute, tool in reversed(calls):
        payload = {"tool": tool, "args": {}} if minute % 2 else {"args": {}, "tool": tool}
        rows.append(_event("busy", "TOOL_STARTING", payload, minutes=minute))
    batch = pd.DataFrame(rows)
    flags = flag_sessions(
        [batch.iloc[:40], batch.iloc[40:90], batch.iloc[90:]],
        NegativeFeedback(frozenset(), frozenset()),
        RULES,
    )
    path = flags["busy"].signature.split(" | ")[1]
    assert path.split(">") == early


def test_a_signature_orders_its_tools_by_first_call_then_by_name():
    # Not alphabetical: the first calls' order; two tools first called at
    # the same time go by name; a tool called again keeps its first place.
    calls = [(1, "zeta"), (2, "alpha"), (3, "zeta"), (4, "mid"), (4, "beta"), (5, "alpha")]
    rows = [_event("busy", "TOOL_ERROR", {"tool": "x"}, minutes=9, status="ERROR")]
    rows += [
        _event("busy", "TOOL_STARTING", {"tool": tool, "args": {}}, minutes=minute)
        for minute, tool in reversed(calls)
    ]
    flags = flag_sessions([pd.DataFrame(rows)], NegativeFeedback(frozenset(), frozenset()), RULES)
    assert flags["busy"].signature.split(" | ")[1] == "zeta>alpha>beta>mid"


def test_a_rated_session_is_flagged_whatever_rows_it_has():
    # thumbs_down fires on a session by its id, whatever rows it has.
    batch = pd.DataFrame(
        [
            _event("rated", "TOOL_COMPLETED", {"tool": "x", "result": {"ok": True}}),
            _event("quiet", "TOOL_COMPLETED", {"tool": "x", "result": {"ok": True}}),
        ]
    )
    flags = flag_sessions([batch], NegativeFeedback(frozenset({"rated"}), frozenset()), RULES)
    assert {k: set(v.signals) for k, v in flags.items()} == {"rated": {"thumbs_down"}}
    [reason] = flags["rated"].reasons
    assert (reason.signal, reason.rule) == ("thumbs_down", "a negative rating of the session")


def test_one_outage_in_400_sessions_of_four_signal_mixes_takes_at_most_4_of_20_picks(tmp_path):
    # A skewed week: the sample's sessions thirty times over (varied ids and
    # strings), beside one outage - the raised-refund session - copied 400
    # times, as four mixes of signals: the whole session (error, complaint,
    # escalation), its first turn alone (error), without the escalation call
    # (error, complaint), without the complaint (error, escalation). Each mix
    # could fill slots of its own signals' quotas; grouped by cause (the
    # failing tool, the masked error, the calls that led to it) the outage is
    # one group, and takes a fifth of the run at most.
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    from tests.conftest import TRACES
    from tests.test_scan_engine import selected
    from tools.bench import replicate_export

    export = tmp_path / "export"
    replicate_export(export, 30)
    # Three agent versions: the same failures, each through its own tools,
    # so the week holds 16 causes besides the outage.
    for i, part in enumerate(sorted(export.glob("*.parquet"))):
        table = pq.read_table(part)
        content = table.column("content")
        for tool in ("lookup_order", "issue_refund", "lookup_invoice", "lookup_customer"):
            content = pc.replace_substring(
                content, f'"tool": "{tool}"', f'"tool": "{tool}_v{i % 3}"'
            )
        pq.write_table(
            table.set_column(table.schema.get_field_index("content"), "content", content), part
        )
    sample = ds.dataset(TRACES, partitioning="hive").to_table().drop_columns(["dt"])
    outage = sample.filter(pc.equal(sample.column("session_id"), "s03-tool-raised"))
    kind, ts = outage.column("event_type"), outage.column("timestamp")
    failed = pc.max(pc.filter(ts, pc.equal(kind, "INVOCATION_ERROR")))
    escalate = pc.match_substring(outage.column("content"), '"tool": "escalate"')
    second_message = pc.and_(pc.equal(kind, "USER_MESSAGE_RECEIVED"), pc.greater(ts, failed))
    mixes = [
        outage,
        outage.filter(pc.less_equal(ts, failed)),
        outage.filter(pc.invert(pc.fill_null(escalate, False))),
        outage.filter(pc.invert(second_message)),
    ]
    copies = []
    for i in range(400):
        mix = mixes[i % 4]
        ids = pc.binary_join_element_wise(mix.column("session_id"), f"-outage-{i}", "")
        copies.append(mix.set_column(mix.schema.get_field_index("session_id"), "session_id", ids))
    pq.write_table(pa.concat_tables(copies), export / "outage.parquet")
    since, until = datetime(2026, 11, 20, tzinfo=UTC), datetime(2026, 11, 28, tzinfo=UTC)
    found = selected(export, since, until)
    outage_flags = [f for sid, f in found.flags.items() if "-outage-" in sid]
    assert len(outage_flags) == 400
    assert len({f.signals for f in outage_flags}) == 4  # four signal mixes...
    assert len({f.signature for f in outage_flags}) == 1  # ...of one cause
    assert len(outage_flags) > len(found.flags) / 2  # most of the week's flagged sessions
    pick = pick_sessions(found.flags, since, until, frozenset(), 20, 20, seed=7)
    assert len(pick.picked) == 20
    assert 1 <= sum("-outage-" in f.session_id for f in pick.picked) <= 4
    assert len({f.signature for f in pick.picked}) >= 10
    # The run's groups show the outage as one line with its count.
    assert pick.signatures[outage_flags[0].signature] >= 400


@pytest.mark.parametrize("export", ["sample", "go", "java", "python"])
def test_a_flags_tables_signatures_and_counts_are_the_per_session_ones(export):
    # FlagTable writes every row's signature and counts the rules fired in
    # Arrow: the same as signature_of and a walk over each session's reasons.
    from miner.sample import rules_fired, signature_of
    from tests.conftest import ROOT, TRACES
    from tests.test_scan_engine import selected

    since, until = datetime(2000, 1, 1, tzinfo=UTC), datetime(2100, 1, 1, tzinfo=UTC)
    path = TRACES if export == "sample" else ROOT / "tests" / "golden" / export
    found = selected(path, since, until)
    rows = found.flags.table.to_pylist()
    assert len({f.signature for f in found.flags.values()}) >= 6
    assert any(row["error"] for row in rows)
    for row in rows:
        flags = found.flags[row["session_id"]]
        assert flags.signature == signature_of(
            flags.signals, row["path"], row["error"], row["error_tool"]
        )
    walked: dict[str, dict[str, int]] = {}
    for f in found.flags.values():
        for signal, rule in {(r.signal, r.rule) for r in f.reasons}:
            walked.setdefault(signal, {}).setdefault(rule, 0)
            walked[signal][rule] += 1
    assert rules_fired(found.flags, since, until) == walked
    assert rules_fired(dict(found.flags), since, until) == walked


def test_a_flags_tables_signature_without_tools_or_error():
    from miner.sample import FlagTable, signature_of

    hit = [{"signal": "error", "rule": "r", "invocation_id": None}]
    table = FlagTable(
        pa.table(
            {
                "session_id": ["a", "b", "c", "d"],
                "start": pa.array([T0] * 4, pa.timestamp("us", "UTC")),
                "signals": ["loop+error", "error", "error", "error"],
                "hits": [hit] * 4,
                "path": [None, "", "x>y", None],
                "error": [None, "", "order 12 of Ann failed", "ORDER 12"],
                "error_tool": [None, None, "y", None],
            }
        )
    )
    for row, f in zip(table.table.to_pylist(), table.values(), strict=True):
        assert f.signature == signature_of(f.signals, row["path"], row["error"], row["error_tool"])
    assert table["a"].signature == "error+loop | no tools"
    # An error's cause: the trajectory up to the failing tool, the tool, the message.
    assert table["c"].signature == "x>y | y raised: order <N> of <W> failed"
    assert table["d"].signature == "no tools | error raised: ORDER <N>"


def test_each_flagged_session_the_pick_left_out_has_its_reason():
    end = T0 + timedelta(days=1)
    flags = {
        # One outage: six sessions of one signature (a run of 5 takes 1 of it).
        **{
            f"o{i}": SessionFlags(f"o{i}", T0, frozenset({"error"}), signature="outage")
            for i in range(6)
        },
        **{
            f"c{i}": SessionFlags(f"c{i}", T0, frozenset({"complaint"}), signature=f"c {i}")
            for i in range(6)
        },
        "later": SessionFlags("later", end, frozenset({"error"}), signature="later"),
    }
    drafted = frozenset({session_hash("c0")})
    selection = pick_sessions(flags, T0, end, drafted, per_signal=3, max_cases=5, seed=1)
    picked = [p.session_id for p in selection.picked]
    reasons = dict(left_out(flags, T0, end, drafted, picked))
    # Every flagged session of the window is picked or has a reason; the one
    # after the window is neither.
    assert len(picked) == 4 and set(reasons) == set(flags) - set(picked) - {"later"}
    assert reasons.pop("c0") == "already_drafted"
    assert sorted(s for s, r in reasons.items() if r == "duplicate") == sorted(
        f"o{i}" for i in range(6) if f"o{i}" not in picked
    )
    assert sorted(s for s, r in reasons.items() if r == "over_quota") == sorted(
        f"c{i}" for i in range(1, 6) if f"c{i}" not in picked
    )
    assert len(reasons) == 7


def test_the_few_sessions_a_run_did_not_write_merge_into_those_the_pick_left_out_in_order():
    # The pick's left-out sessions come ordered; the few the drafting did not
    # write are merged in, to the order of sorting both anew.
    reasons = list(NOT_DRAFTED_REASONS)
    left = [(f"s{n}", reasons[n % 3]) for n in range(500)]
    unwritten = [("s7", "quarantined"), ("x1", reasons[1]), ("x2", reasons[0]), ("s9", reasons[2])]
    merged = NotDrafted.of(left).ordered().plus(NotDrafted.of(unwritten))
    expected = NotDrafted.of(left + unwritten).ordered()
    assert list(merged.lines()) == list(expected.lines())
    assert list(merged.lines()) == sorted(
        expected.lines(), key=lambda line: (reasons.index(line[1]), line[0])
    )
    assert merged.counts() == expected.counts()


def test_a_feedback_folder_reads_each_file_as_the_first_file_s_columns(tmp_path):
    # As a pyarrow dataset of the folder read it before: a score written as
    # text in one file and as a number in the next is text in both, not an
    # error that the scores' types do not merge.
    import pyarrow.parquet as pq

    from miner.sample import read_negative_feedback

    pq.write_table(
        pa.table({"session_id": ["a", "b"], "score": ["-1", "thumbs_down"]}), tmp_path / "1.parquet"
    )
    pq.write_table(pa.table({"session_id": ["c", "d"], "score": [-1, 5]}), tmp_path / "2.parquet")
    pq.write_table(pa.table({"session_id": ["e"]}), tmp_path / "3.parquet")
    rules = FeedbackConfig(negative_values=("thumbs_down",))
    assert read_negative_feedback(tmp_path, rules).sessions == {"a", "b", "c"}
