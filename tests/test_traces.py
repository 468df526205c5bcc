"""Rows -> sessions: payload parsing, retried writes, ordering, sub-agents."""

from __future__ import annotations

import orjson
import pandas as pd
import pytest

from miner.dialects import summary_text
from miner.errors import PayloadError
from miner.traces import build_sessions


@pytest.mark.parametrize(
    ("summary", "text"),
    [
        ("text: 'Sure, checking now.' | call: lookup_order", "Sure, checking now."),
        ("text: 'It's done | really' | call: x", "It's done | really"),
        ("text: 'a' | text: 'b'", "a b"),
        ("call: lookup_order", ""),
        ("None", ""),
        ("text: 'cut short...[TRUNCATED]", "cut short...[TRUNCATED]"),
    ],
)
def test_summary_text_keeps_only_the_visible_text(summary, text):
    assert summary_text(summary) == text


def _row(ts: str, kind: str, content, **extra) -> dict:
    row = {
        "timestamp": pd.Timestamp(ts, tz="UTC"),
        "event_id": extra.pop("event_id", f"{kind}-{ts}"),
        "event_type": kind,
        "session_id": "s1",
        "invocation_id": extra.pop("invocation_id", "inv-1"),
        "content": None if content is None else orjson.dumps(content).decode(),
        "attributes": orjson.dumps(
            {"session_metadata": {"app_name": "app", "user_id": "u", "state": {"k": ts}}}
        ).decode(),
    }
    row.update(extra)
    return row


def test_rows_in_any_order_with_retries_become_ordered_turns():
    rows = [
        _row("2026-11-22T10:00:05", "AGENT_RESPONSE", {"response": "text: 'Done.'"}),
        _row(
            "2026-11-22T10:00:02",
            "TOOL_STARTING",
            {"tool": "lookup_order", "args": {"order_id": "1"}},
            span_id="a",
            agent="root",
        ),
        _row("2026-11-22T10:00:00", "USER_MESSAGE_RECEIVED", {"text_summary": "where is 1?"}),
        _row(
            "2026-11-22T10:00:03",
            "TOOL_COMPLETED",
            {"tool": "lookup_order", "result": {"ok": True}},
            span_id="a",
        ),
        _row(
            "2026-11-22T10:00:03",
            "TOOL_COMPLETED",
            {"tool": "lookup_order", "result": {"ok": True}},
            span_id="a",
        ),
        _row(
            "2026-11-22T10:00:04",
            "TOOL_STARTING",
            {"tool": "refund", "args": {"id": "1"}},
            span_id="b",
            agent="billing",
        ),
        _row(
            "2026-11-22T10:00:04.5",
            "TOOL_ERROR",
            {"tool": "refund", "args": {"id": "1"}},
            span_id="b",
            status="ERROR",
            error_message="boom",
        ),
        _row(
            "2026-11-22T10:01:00",
            "USER_MESSAGE_RECEIVED",
            {"text_summary": "thanks"},
            invocation_id="inv-2",
        ),
        _row("2026-11-22T10:01:01", "SOMETHING_NEW", {"x": 1}, invocation_id="inv-2"),
    ]
    [session] = build_sessions(pd.DataFrame(rows), default_app="fallback")
    assert session.app_name == "app" and session.initial_state == {"k": "2026-11-22T10:00:00"}
    first, second = session.turns
    assert first.user_text == "where is 1?" and first.reply_text == "Done."
    assert [(c.name, c.agent) for c in first.tool_calls] == [
        ("lookup_order", "root"),
        ("refund", "billing"),
    ]
    assert first.tool_calls[0].result == {"ok": True}
    assert first.tool_calls[1].error == "boom" and first.errors == ("boom",)
    assert second.user_text == "thanks" and second.tool_calls == ()


def test_malformed_payload_names_the_row_not_its_text():
    rows = [
        _row("2026-11-22T10:00:00", "USER_MESSAGE_RECEIVED", None, source_file="x/part-1.parquet")
    ]
    rows[0]["content"] = '{"text_summary": "secret name'
    with pytest.raises(PayloadError) as caught:
        build_sessions(pd.DataFrame(rows), default_app="app")
    message = str(caught.value)
    assert "x/part-1.parquet" in message and "USER_MESSAGE_RECEIVED" in message
    assert "secret" not in message


def test_a_truncated_payload_marks_its_turn_and_the_drafts_tags():
    from datetime import UTC, datetime

    from miner.config import load_config
    from miner.draft import Provenance, draft_case
    from tests.conftest import PIPELINE

    rows = [
        _row("2026-11-22T10:00:00", "USER_MESSAGE_RECEIVED", {"text_summary": "hi"}),
        _row(
            "2026-11-22T10:00:01",
            "AGENT_RESPONSE",
            {"response": "text: 'a long answer...[TRUNCATED]"},
            is_truncated=True,
        ),
    ]
    [session] = build_sessions(pd.DataFrame(rows), default_app="app")
    assert session.turns[0].truncated
    assert session.turns[0].reply_text == "a long answer...[TRUNCATED]"
    now = datetime(2026, 11, 29, tzinfo=UTC)
    prov = Provenance("0123456789abcdef", frozenset({"error"}), now, now, now)
    case = draft_case(session, prov, load_config(PIPELINE), [])
    spec = case.files["draft_0123456789abcdef.spec.json"]
    assert "truncated" in spec["tags"]


def _go_row(second: int, kind: str, content, tool: str | None = None, **extra) -> dict:
    """A row as the Go plugin writes it: no event_id, no span ids (no
    OpenTelemetry), the tool's name in attributes."""
    return {
        "timestamp": pd.Timestamp(f"2026-11-22T10:00:{second:02d}", tz="UTC"),
        "event_type": kind,
        "session_id": "s1",
        "invocation_id": "inv-1",
        "span_id": None,
        "content": None if content is None else orjson.dumps(content).decode(),
        "attributes": None if tool is None else orjson.dumps({"tool_name": tool}).decode(),
        "error_message": extra.pop("error_message", None),
    }


def test_a_go_tool_end_after_a_tool_error_closes_the_errored_call():
    # base_flow.go L1276-L1300: the after-tool callbacks run after a raised
    # error too, so Go logs TOOL_ERROR and then TOOL_END {} for one call. Two
    # refunds at once: the second's TOOL_END still pairs with the second.
    rows = [
        _go_row(0, "USER_MESSAGE", {"parts": [{"text": "refund both"}], "role": "user"}),
        _go_row(1, "TOOL_START", {"order_id": "A"}, "issue_refund"),
        _go_row(2, "TOOL_START", {"order_id": "B"}, "issue_refund"),
        _go_row(3, "TOOL_ERROR", None, "issue_refund", error_message="gateway down"),
        _go_row(4, "TOOL_END", {}, "issue_refund"),
        _go_row(5, "TOOL_END", {"status": "ok"}, "issue_refund"),
    ]
    [session] = build_sessions(pd.DataFrame(rows), "app")
    [turn] = session.turns
    calls = [(c.name, c.args, c.result, c.error) for c in turn.tool_calls]
    assert calls == [
        ("issue_refund", {"order_id": "A"}, None, "gateway down"),
        ("issue_refund", {"order_id": "B"}, {"status": "ok"}, None),
    ]
