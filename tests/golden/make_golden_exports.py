"""Make tests/golden/{python,java,go}/: one set of sessions as each ADK plugin writes it.

One real ADK agent run (google-adk 2.13, the sample's scripted model and tools,
``sample_traces/make_sample_traces.py``) feeds three plugins at once:

- **python**: the real BigQuery Agent Analytics plugin, its network clients
  replaced by in-memory fakes (as the sample traces are made);
- **java**: ``JavaShapedRecorder``, which writes the rows the ADK Java plugin
  writes for the same callbacks, built from google/adk-java
  ``core/src/main/java/com/google/adk/plugins/agentanalytics/`` (the file and
  line of each shape is cited where it is written);
- **go**: ``GoShapedRecorder``, the same from google/adk-go
  ``plugin/agentanalytics/bigquery_agent_analytics_plugin.go``.

The sessions cover user text, tool calls with results and with a returned and a
raised failure, a sub-agent, a handoff to a human, an error, a complaint, a
truncated tool result and a two-part user message. Each export is shifted to
fixed dates and written as Parquet with JSON columns as strings.

Run: ``make golden-exports`` (needs the dev extra).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from unittest import mock

import pyarrow as pa
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT / "sample_traces"))

import make_sample_traces as sample  # noqa: E402
from google.adk.plugins.base_plugin import BasePlugin  # noqa: E402

#: Strings longer than this are cut by every plugin (each with its own marker).
MAX_CONTENT = 300

#: The sample's sessions that exercise every signal, and one of our own.
SESSION_IDS = (
    "s02-refund-returned-error",
    "s03-tool-raised",
    "s05-handoff",
    "s07-billing-subagent",
)
EXTRA_SESSION: dict[str, Any] = {
    "id": "s12-long-notes",
    "start": "2026-11-24T15:30:00",
    "customer": "CUST-61544",
    "multipart": ["Where is ORD-70415?", "It is a monitor arm, this is terrible."],
    "turns": [
        (
            "Where is ORD-70415? | It is a monitor arm, this is terrible.",
            [
                ("call", "lookup_order", {"order_id": "ORD-70415"}),
                ("text", "ORD-70415 was delivered on Monday to 5 Harbor Road, Boston."),
            ],
        ),
    ],
}
STARTS = {s["id"]: s["start"] for s in sample.SESSIONS} | {
    EXTRA_SESSION["id"]: EXTRA_SESSION["start"]
}


_lookup_order = sample.lookup_order


def lookup_order(order_id: str) -> dict[str, Any]:
    """Look up an order by id."""
    result = _lookup_order(order_id)
    if order_id == "ORD-70415":
        # A carrier note long enough that every plugin truncates it.
        result["carrier_notes"] = "Left with neighbour at the side door. " * 12
    return result


def _compact(value: Any) -> str:
    """Jackson's output: compact, raw UTF-8, keys in insertion order."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)


def _cut(value: Any, marker: str) -> tuple[Any, bool]:
    """Strings over MAX_CONTENT cut and marked, recursively (JsonFormatter.smartTruncate,
    json_formatter.go recursiveSmartTruncate)."""
    if isinstance(value, str):
        if len(value) > MAX_CONTENT:
            return value[:MAX_CONTENT] + marker, True
        return value, False
    if isinstance(value, dict):
        out, cut = {}, False
        for k, v in value.items():
            out[k], c = _cut(v, marker)
            cut = cut or c
        return out, cut
    if isinstance(value, list):
        items = [_cut(v, marker) for v in value]
        return [v for v, _ in items], any(c for _, c in items)
    return value, False


def _texts(content: Any) -> list[str]:
    parts = getattr(content, "parts", None) or []
    out = []
    for p in parts:
        if p.text and not p.thought:
            out.append(p.text)
        elif p.inline_data is not None:
            out.append("[BINARY DATA]")
    return out


class _Recorder(BasePlugin):  # type: ignore[misc]
    """Rows a non-Python plugin would write, from ADK Python's plugin callbacks.
    Every callback returns None, so the run is the same with or without it."""

    def __init__(self, name: str) -> None:
        super().__init__(name=name)
        self.rows: list[dict[str, Any]] = []
        self._spans: dict[str, str] = {}

    def _base(self, ctx: Any, event_type: str, agent: str | None = None) -> dict[str, Any]:
        invocation = getattr(ctx, "_invocation_context", ctx)
        session = invocation.session
        return {
            "timestamp": datetime.now(UTC),
            "event_type": event_type,
            "agent": agent or invocation.agent.name,
            "session_id": session.id,
            "invocation_id": invocation.invocation_id,
            "user_id": session.user_id,
            "trace_id": invocation.invocation_id.replace("-", "")[:32],
            "span_id": uuid.uuid4().hex[:16],
        }


class JavaShapedRecorder(_Recorder):
    """BigQueryAgentAnalyticsPlugin.java, callback by callback."""

    MARKER = "...[truncated]"  # JsonFormatter.java L39

    def _row(
        self,
        ctx: Any,
        event_type: str,
        content: Any = None,
        truncated: bool = False,
        status: str = "OK",
        error: str | None = None,
        agent: str | None = None,
        extra: dict[str, Any] | None = None,
        span: str | None = None,
    ) -> None:
        row = self._base(ctx, event_type, agent)
        if span:
            row["span_id"] = span
        invocation = getattr(ctx, "_invocation_context", ctx)
        session = invocation.session
        # getAttributes, L505-L550; Jackson keeps the map's order, which is not Python's.
        attributes = {
            **(extra or {}),
            "session_metadata": {
                "user_id": session.user_id,
                "state": dict(session.state),
                "session_id": session.id,
                "app_name": session.app_name,
            },
            "root_agent_name": invocation.agent.root_agent.name,
        }
        row.update(
            attributes=_compact(attributes),
            status=status,
            error_message=error,
            # content and is_truncated are set only when there is content (L360-L381).
            content=_compact(content) if content is not None else None,
            is_truncated=truncated if content is not None else None,
        )
        self.rows.append(row)

    def _summary(self, content: Any) -> tuple[dict[str, str], bool]:
        # Parser.parseContentObject: part texts joined by " | " (L320).
        summary = " | ".join(_texts(content))
        if len(summary) > MAX_CONTENT:
            return {"text_summary": summary[:MAX_CONTENT] + self.MARKER}, True
        return {"text_summary": summary}, False

    async def on_user_message_callback(self, *, invocation_context: Any, user_message: Any) -> None:
        content, cut = self._summary(user_message)  # L602
        self._row(invocation_context, "USER_MESSAGE_RECEIVED", content, cut)

    async def before_run_callback(self, *, invocation_context: Any) -> None:
        self._row(invocation_context, "INVOCATION_STARTING")  # L857

    async def after_run_callback(self, *, invocation_context: Any) -> None:
        self._row(invocation_context, "INVOCATION_COMPLETED")  # L863

    async def before_agent_callback(self, *, agent: Any, callback_context: Any) -> None:
        self._row(callback_context, "AGENT_STARTING", agent=agent.name)  # L879

    async def after_agent_callback(self, *, agent: Any, callback_context: Any) -> None:
        self._row(callback_context, "AGENT_COMPLETED", agent=agent.name)  # L886

    async def on_event_callback(self, *, invocation_context: Any, event: Any) -> None:
        if event.actions and event.actions.state_delta:  # L669-L686
            self._row(
                invocation_context,
                "STATE_DELTA",
                extra={"state_delta": dict(event.actions.state_delta), "author": event.author},
                agent=event.author,
            )
        # isFinalAgentResponse, L1234-L1242: no calls, no responses, not partial.
        if (
            event.content
            and event.content.parts
            and event.is_final_response()
            and not event.get_function_calls()
            and not event.get_function_responses()
            and not event.partial
        ):
            texts = [p.text for p in event.content.parts if p.text and not p.thought]
            if texts:  # L809-L845: the visible text parts only
                self._row(
                    invocation_context,
                    "AGENT_RESPONSE",
                    {"text_summary": " | ".join(texts)},
                    extra={"source_event_id": event.id, "source_event_author": event.author},
                    agent=event.author,
                )

    async def after_model_callback(self, *, callback_context: Any, llm_response: Any) -> None:
        summary, cut = self._summary(llm_response.content)  # Parser.java L232-L249
        self._row(callback_context, "LLM_RESPONSE", {"response": summary}, cut)

    async def before_tool_callback(self, *, tool: Any, tool_args: Any, tool_context: Any) -> None:
        span = uuid.uuid4().hex[:16]
        self._spans[tool_context.function_call_id or tool.name] = span
        origin = "TRANSFER_AGENT" if tool.name == "transfer_to_agent" else "LOCAL"  # L1205
        content = {"tool_origin": origin, "tool": tool.name, "args": dict(tool_args)}  # L1100
        self._row(tool_context, "TOOL_STARTING", content, span=span)

    async def after_tool_callback(
        self, *, tool: Any, tool_args: Any, tool_context: Any, result: Any
    ) -> None:
        span = self._spans.pop(tool_context.function_call_id or tool.name, None)
        cut_result, cut = _cut(result, self.MARKER)  # L1137
        origin = "TRANSFER_AGENT" if tool.name == "transfer_to_agent" else "LOCAL"
        content = {"tool": tool.name, "result": cut_result, "tool_origin": origin}  # L1139
        self._row(tool_context, "TOOL_COMPLETED", content, cut, span=span)

    async def on_tool_error_callback(
        self, *, tool: Any, tool_args: Any, tool_context: Any, error: Exception
    ) -> None:
        span = self._spans.pop(tool_context.function_call_id or tool.name, None)
        content = {"tool": tool.name, "args": dict(tool_args), "tool_origin": "LOCAL"}  # L1181
        self._row(
            tool_context, "TOOL_ERROR", content, status="ERROR", error=str(error), span=span
        )  # L1189-L1204


_NULL = object()


class GoShapedRecorder(_Recorder):
    """bigquery_agent_analytics_plugin.go's callbacks (L220-L287)."""

    MARKER = "...[truncated]"  # json_formatter.go L177

    def _row(
        self,
        ctx: Any,
        event_type: str,
        content: Any = None,
        attrs: dict[str, Any] | None = None,
        agent: str | None = None,
        span: str | None = None,
    ) -> None:
        row = self._base(ctx, event_type, agent)
        if span:
            row["span_id"] = span
        attrs = dict(attrs or {})
        truncated = False
        if content is _NULL:
            row["content"] = "null"
        elif content is not None:  # L158-L168: SmartTruncate + json.Marshal
            content, truncated = _cut(content, self.MARKER)
            row["content"] = json.dumps(content, separators=(",", ":"), ensure_ascii=False)
        if "error_message" in attrs:  # L173-L188: error_message goes to its own column
            row["error_message"] = attrs.pop("error_message")
        if attrs:
            row["attributes"] = json.dumps(attrs, separators=(",", ":"))
        row["is_truncated"] = truncated
        self.rows.append(row)

    @staticmethod
    def _content(content: Any) -> dict[str, Any] | None:
        """genai.Content as Go's encoding/json writes it (camelCase, omitempty)."""
        if content is None:
            return None
        parts = []
        for p in content.parts or []:
            part: dict[str, Any] = {}
            if p.text:
                part["text"] = p.text
            if p.function_call:
                call = {"name": p.function_call.name, "args": dict(p.function_call.args or {})}
                if p.function_call.id:
                    call = {"id": p.function_call.id, **call}
                part["functionCall"] = call
            if p.function_response:
                part["functionResponse"] = {
                    "name": p.function_response.name,
                    "response": dict(p.function_response.response or {}),
                }
            parts.append(part)
        out: dict[str, Any] = {"parts": parts}
        if content.role:
            out["role"] = content.role
        return out

    async def on_user_message_callback(self, *, invocation_context: Any, user_message: Any) -> None:
        self._row(invocation_context, "USER_MESSAGE", self._content(user_message))  # L222

    async def before_run_callback(self, *, invocation_context: Any) -> None:
        self._row(invocation_context, "INVOCATION_START")  # L226

    async def after_run_callback(self, *, invocation_context: Any) -> None:
        self._row(invocation_context, "INVOCATION_END")  # L230

    async def on_event_callback(self, *, invocation_context: Any, event: Any) -> None:
        self._row(
            invocation_context,
            "EVENT",
            self._content(event.content),
            {"event_author": event.author},
            agent=event.author,
        )  # L233-L236

    async def before_agent_callback(self, *, agent: Any, callback_context: Any) -> None:
        self._row(callback_context, "AGENT_START", agent=agent.name)  # L240

    async def after_agent_callback(self, *, agent: Any, callback_context: Any) -> None:
        self._row(callback_context, "AGENT_END", agent=agent.name)  # L244

    async def after_model_callback(self, *, callback_context: Any, llm_response: Any) -> None:
        response = {"Content": self._content(llm_response.content)}
        self._row(callback_context, "MODEL_RESPONSE", response)  # L256-L262

    async def before_tool_callback(self, *, tool: Any, tool_args: Any, tool_context: Any) -> None:
        span = uuid.uuid4().hex[:16]
        self._spans[tool_context.function_call_id or tool.name] = span
        self._row(
            tool_context, "TOOL_START", dict(tool_args), {"tool_name": tool.name}, span=span
        )  # L270-L273

    async def after_tool_callback(
        self, *, tool: Any, tool_args: Any, tool_context: Any, result: Any
    ) -> None:
        span = self._spans.pop(tool_context.function_call_id or tool.name, None)
        # A nil result map still marshals, as JSON null (L163-L166).
        content = dict(result) if result is not None else _NULL
        self._row(tool_context, "TOOL_END", content, {"tool_name": tool.name}, span=span)  # L277

    async def on_tool_error_callback(
        self, *, tool: Any, tool_args: Any, tool_context: Any, error: Exception
    ) -> None:
        span = self._spans.pop(tool_context.function_call_id or tool.name, None)
        attrs = {"tool_name": tool.name, "error_message": str(error)}
        self._row(tool_context, "TOOL_ERROR", None, attrs, span=span)  # L280-L286


async def _run(spec: dict[str, Any], plugins: list[Any]) -> None:
    from google.adk.runners import InMemoryRunner
    from google.genai import types

    queue = [step for _text, steps in spec["turns"] for step in steps]
    runner = InMemoryRunner(
        agent=sample._agents(sample._scripted_model(queue)), app_name=sample.APP, plugins=plugins
    )
    customer = sample.CUSTOMERS[spec["customer"]]
    user_id = "u-" + spec["customer"].split("-")[1]
    session = await runner.session_service.create_session(
        app_name=sample.APP,
        user_id=user_id,
        session_id=spec["id"],
        state={
            "customer_id": spec["customer"],
            "customer_name": customer["name"],
            "customer_email": customer["email"],
            "tier": "gold",
        },
    )
    for text, _steps in spec["turns"]:
        parts = [types.Part(text=t) for t in spec.get("multipart", [text])]
        message = types.Content(role="user", parts=parts)
        try:
            async for _event in runner.run_async(
                user_id=user_id, session_id=session.id, new_message=message
            ):
                pass
        except sample.PaymentGatewayError:
            pass
    assert not queue, f"{spec['id']}: unused scripted steps {queue}"


async def _capture() -> dict[str, list[dict[str, Any]]]:
    from miner.replay import recording_plugin

    java, go = JavaShapedRecorder("java_shaped"), GoShapedRecorder("go_shaped")
    specs = [s for s in sample.SESSIONS if s["id"] in SESSION_IDS] + [EXTRA_SESSION]
    with (
        recording_plugin(max_content_length=MAX_CONTENT) as (python, rows),
        mock.patch.object(sample, "lookup_order", lookup_order),
    ):
        for spec in specs:
            await _run(spec, [python, java, go])
        await python.flush()
        await python.shutdown()
        return {"python": rows(), "java": java.rows, "go": go.rows}


def _shifted(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sessions moved to their fixed start; JSON columns as strings."""
    from miner.replay import as_export

    first: dict[str, datetime] = {}
    for row in rows:
        first[row["session_id"]] = min(
            first.get(row["session_id"], row["timestamp"]), row["timestamp"]
        )
    out = []
    for row in rows:
        row = dict(row)
        start = datetime.fromisoformat(STARTS[row["session_id"]]).replace(tzinfo=UTC)
        row["timestamp"] = start + (row["timestamp"] - first[row["session_id"]])
        out.append(row)
    return as_export(out)


#: The app's own thumbs-down (ADK records none): one per dialect's copy of s12.
FEEDBACK = [{"session_id": "s12-long-notes", "invocation_id": None, "score": -1}]


def main() -> None:
    logging.basicConfig(level=logging.CRITICAL)
    pq.write_table(pa.Table.from_pylist(FEEDBACK), HERE / "feedback.parquet")
    for dialect, rows in asyncio.run(_capture()).items():
        rows = _shifted(rows)
        # Every row with every column the plugin has (from_pylist reads the keys
        # of the first row only).
        columns = list(dict.fromkeys(k for row in rows for k in row))
        rows = [{c: row.get(c) for c in columns} for row in rows]
        folder = HERE / dialect
        folder.mkdir(exist_ok=True)
        pq.write_table(pa.Table.from_pylist(rows), folder / "export.parquet")
        kinds = sorted({r["event_type"] for r in rows})
        print(f"{dialect}: {len(rows)} rows; event types: {kinds}")


if __name__ == "__main__":
    main()
