"""Make tests/golden/{python,java,go}/: one set of sessions as each ADK plugin writes it.

Real ADK agent runs (google-adk 2.13, the sample's scripted model and tools,
``sample_traces/make_sample_traces.py``) feed the plugins:

- **python**: the real BigQuery Agent Analytics plugin, its network clients
  replaced by in-memory fakes (as the sample traces are made);
- **java**: ``JavaShapedRecorder``, which writes the rows the ADK Java plugin
  writes for the same callbacks, built from google/adk-java
  ``core/src/main/java/com/google/adk/plugins/agentanalytics/`` (the file and
  line of each shape is cited where it is written); fed by the same run;
- **go**: ``GoShapedRecorder``, the same from google/adk-go at ``0a51e153``
  ``plugin/agentanalytics/`` (bigquery_agent_analytics_plugin.go, cited as
  L..., and json_formatter.go), fed by a second run of the same sessions
  that does what the Go runtime does with a raised tool error
  (``GoRuntime``): the error goes back to the model, and the turn goes on.

The sessions cover user text, tool calls with results and with a returned and a
raised failure, a sub-agent, a handoff to a human, an error, a complaint, a
truncated tool result, a two-part user message and a slow invocation (45 s:
the clock the plugins read is moved on, the run does not wait). Each export is
shifted to fixed dates and written as Parquet with JSON columns as strings.

Run: ``make golden-exports`` (needs the dev extra).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
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
#: A slow invocation (the CRM lookup takes SLOW), then a raised tool error.
SLOW_SESSION: dict[str, Any] = {
    "id": "s13-slow-then-raised",
    "start": "2026-11-25T10:05:00",
    "customer": "CUST-30952",
    "turns": [
        (
            "Hi, I am maria.garcia@yahoo.com. Is my account all right?",
            [
                ("call", "lookup_customer", {"email": "maria.garcia@yahoo.com"}),
                ("text", "Thanks for waiting, Maria. Your account is in good order."),
            ],
        ),
        (
            "Then refund ORD-62990 to my card, please.",
            [
                (
                    "call",
                    "issue_refund",
                    {
                        "order_id": "ORD-62990",
                        "amount": 189.99,
                        "reason": "customer request",
                        "idempotency_key": "5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d",
                    },
                ),
            ],
        ),
    ],
}
OUR_SESSIONS = (EXTRA_SESSION, SLOW_SESSION)
STARTS = {s["id"]: s["start"] for s in sample.SESSIONS} | {
    s["id"]: s["start"] for s in OUR_SESSIONS
}

#: How long the slow CRM lookup takes. The run does not wait: the clock the
#: plugins read moves on by this much (``_Clock``).
SLOW = timedelta(seconds=45)
#: (real time, how far the clock moved then), for every slow call so far.
_SKEWS: list[tuple[datetime, timedelta]] = []

#: What the model answers when a raised tool error comes back to it as the
#: tool's response (the Go runtime only; ADK Python and Java end the turn).
AFTER_RAISED = "Sorry, Maria, the refund did not go through. Please try again later."


_lookup_order = sample.lookup_order


def lookup_order(order_id: str) -> dict[str, Any]:
    """Look up an order by id."""
    result = _lookup_order(order_id)
    if order_id == "ORD-70415":
        # A carrier note long enough that every plugin truncates it.
        result["carrier_notes"] = "Left with neighbour at the side door. " * 12
    return result


_lookup_customer = sample.lookup_customer


def lookup_customer(email: str) -> dict[str, Any]:
    """Find a customer by e-mail."""
    _SKEWS.append((datetime.now(UTC), SLOW))  # a CRM that takes SLOW to answer
    return _lookup_customer(email)


def _skew(at: datetime | None = None) -> timedelta:
    """How far the plugins' clock is ahead of the real one (at ``at``: now)."""
    return sum((d for t, d in _SKEWS if at is None or at > t), timedelta())


class _Clock:
    """The ``time`` module as the Python plugin reads it for latencies
    (``time.time_ns``), ahead of the real one by every slow call so far."""

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)

    def time_ns(self) -> int:
        return time.time_ns() + int(_skew().total_seconds() * 1e9)

    def time(self) -> float:
        return time.time() + _skew().total_seconds()


def _raises(step: tuple[Any, ...]) -> bool:
    """The scripted call that makes ``issue_refund`` raise (sample.issue_refund)."""
    return step[:2] == ("call", "issue_refund") and step[2]["order_id"] == "ORD-62990"


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


#: A nil pointer handed to the Go plugin as content: SmartTruncate writes ``null`` (L58-L60).
_NIL = object()


class _GoJSON:
    """The Go plugin's payload text: ``SmartTruncate`` then ``json.Marshal``
    (json_formatter.go L57-L167).

    ``recursiveSmartTruncate`` turns every struct into a map by reflection
    (L111-L136): every exported field is written, under its json tag name,
    zero values included (``omitempty`` is ignored), a nil pointer as null, a
    nil slice as ``[]`` (L138-L145), a nil map as ``{}`` (L82-L89, L147-L156).
    ``json.Marshal`` then sorts map keys, escapes ``<``, ``>``, ``&``, U+2028
    and U+2029, and writes a whole float64 without a fraction (``420``). The
    structs are written here as the maps that reflection makes, field by
    field (google.golang.org/genai v1.63.0, the plugin's go.mod; model/llm.go).
    """

    @staticmethod
    def dumps(value: Any) -> str:
        text = json.dumps(
            _GoJSON._floats(value), separators=(",", ":"), ensure_ascii=False, sort_keys=True
        )
        for char, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
            text = text.replace(char, escaped)
        return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")

    @staticmethod
    def _floats(value: Any) -> Any:
        """float64s as Go writes them: 420.0 is ``420`` (encoding/json floatEncoder)."""
        if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
            return int(value)
        if isinstance(value, dict):
            return {k: _GoJSON._floats(v) for k, v in value.items()}
        if isinstance(value, list):
            return [_GoJSON._floats(v) for v in value]
        return value

    @staticmethod
    def content(content: Any) -> dict[str, Any] | None:
        """A ``*genai.Content`` (types.go ``Content``: parts, role); None for nil."""
        if content is None:
            return None
        return {
            "parts": [_GoJSON._part(p) for p in content.parts or []],
            "role": content.role or "",
        }

    @staticmethod
    def _part(part: Any) -> dict[str, Any]:
        """A ``*genai.Part``, its 14 fields (types.go ``Part``, v1.63.0)."""
        call, response = part.function_call, part.function_response
        return {
            "mediaResolution": None,
            "codeExecutionResult": None,
            "executableCode": None,
            "fileData": None,
            "functionCall": None
            if call is None
            else {
                "id": call.id or "",
                "args": dict(call.args or {}),
                "name": call.name or "",
                "partialArgs": [],
                "willContinue": None,
            },
            "functionResponse": None
            if response is None
            else {
                "willContinue": None,
                "scheduling": "",
                "parts": [],
                "id": response.id or "",
                "name": response.name or "",
                "response": dict(response.response or {}),
            },
            "inlineData": None
            if part.inline_data is None
            else {
                "data": list(part.inline_data.data or b""),
                "displayName": part.inline_data.display_name or "",
                "mimeType": part.inline_data.mime_type or "",
            },
            "text": part.text or "",
            "thought": bool(part.thought),
            "thoughtSignature": list(part.thought_signature or b""),
            "videoMetadata": None,
            "toolCall": None,
            "toolResponse": None,
            "partMetadata": {},
        }

    @staticmethod
    def llm_response(response: Any) -> dict[str, Any]:
        """A ``*model.LLMResponse`` (model/llm.go L42-L68), every field."""
        reason = response.finish_reason
        return {
            "content": _GoJSON.content(response.content),
            "citationMetadata": None,
            "groundingMetadata": None,
            "usageMetadata": None,
            "customMetadata": dict(response.custom_metadata or {}),
            "logprobsResult": None,
            "inputTranscription": None,
            "outputTranscription": None,
            "modelVersion": response.model_version or "",
            "partial": bool(response.partial),
            "turnComplete": bool(response.turn_complete),
            "interrupted": bool(response.interrupted),
            "sessionResumptionHandle": "",
            "errorCode": response.error_code or "",
            "errorMessage": response.error_message or "",
            "finishReason": reason.value if reason is not None else "",
            "avgLogprobs": float(response.avg_logprobs or 0),
        }

    @staticmethod
    def content_parts(content: Any) -> list[dict[str, Any]] | None:
        """FormatContentParts (json_formatter.go L27-L54): one record a part;
        text cut as in SmartTruncate, binary data not inlined."""
        if content is None or content.parts is None:
            return None
        parts = []
        for i, part in enumerate(content.parts):
            record: dict[str, Any] = {"part_index": i, "storage_mode": "INLINE"}
            if part.text:
                record["mime_type"] = "text/plain"
                record["text"], _ = _cut(part.text, GoShapedRecorder.MARKER)
            elif part.inline_data is not None:
                record["mime_type"] = part.inline_data.mime_type
                record["text"] = "[BINARY DATA]"
            elif part.file_data is not None:
                record["mime_type"] = part.file_data.mime_type
                record["uri"] = part.file_data.file_uri
                record["storage_mode"] = "EXTERNAL_URI"
            parts.append(record)
        return parts


class GoShapedRecorder(_Recorder):
    """The Go plugin's callbacks (bigquery_agent_analytics_plugin.go L221-L287),
    each row built as its ``logEvent`` closure builds one (L131-L215)."""

    MARKER = "...[truncated]"  # json_formatter.go L177

    def __init__(self, name: str) -> None:
        super().__init__(name)
        #: Calls whose tool raised: the Go runtime still runs the after-tool
        #: callbacks for them, with a nil response (base_flow.go L1276-L1300).
        self._raised: set[str] = set()

    def _row(
        self,
        ctx: Any,
        event_type: str,
        content: Any = None,
        attrs: dict[str, Any] | None = None,
        parts: list[dict[str, Any]] | None = None,
        agent: str | None = None,
    ) -> None:
        row = self._base(ctx, event_type, agent)
        # No OpenTelemetry span in the context: no trace or span id (L207-L212).
        row["trace_id"] = row["span_id"] = None
        truncated = False
        if parts is not None:
            row["content_parts"] = parts  # L159-L160, a *genai.Content only
        if content is _NIL:
            row["content"] = "null"
        elif content is not None:  # L159-L168: SmartTruncate + json.Marshal
            cut, truncated = _cut(content, self.MARKER)
            row["content"] = _GoJSON.dumps(cut)
        attrs = dict(attrs or {})
        for column in ("error_message", "status"):  # L175-L189: to their own columns
            if column in attrs:
                text = attrs.pop(column)
                # Cut at MaxContentLen bytes, with no marker (L178-L180).
                if len(text.encode()) > MAX_CONTENT:
                    text = text.encode()[:MAX_CONTENT].decode(errors="ignore")
                    truncated = True
                row[column] = text
        if attrs:  # L200-L204
            cut_attrs, cut = _cut(attrs, self.MARKER)
            row["attributes"] = _GoJSON.dumps(cut_attrs)
            truncated = truncated or cut
        row["is_truncated"] = truncated  # L205: on every row
        self.rows.append(row)

    async def on_user_message_callback(self, *, invocation_context: Any, user_message: Any) -> None:
        self._row(
            invocation_context,
            "USER_MESSAGE",
            _GoJSON.content(user_message),
            parts=_GoJSON.content_parts(user_message),
        )  # L221-L224

    async def before_run_callback(self, *, invocation_context: Any) -> None:
        self._row(invocation_context, "INVOCATION_START")  # L225-L228

    async def after_run_callback(self, *, invocation_context: Any) -> None:
        self._row(invocation_context, "INVOCATION_END")  # L229-L232

    async def on_event_callback(self, *, invocation_context: Any, event: Any) -> None:
        # ``agent`` is the invocation's agent (the runner's agent to run,
        # runner.go L244, run_node.go L93), not the event's author, which is
        # in attributes (L233-L237). A nil *genai.Content marshals as null.
        content = _GoJSON.content(event.content)
        self._row(
            invocation_context,
            "EVENT",
            content if content is not None else _NIL,
            {"event_author": event.author},
            parts=_GoJSON.content_parts(event.content),
        )

    async def before_agent_callback(self, *, agent: Any, callback_context: Any) -> None:
        self._row(callback_context, "AGENT_START", agent=agent.name)  # L239-L242

    async def after_agent_callback(self, *, agent: Any, callback_context: Any) -> None:
        self._row(callback_context, "AGENT_END", agent=agent.name)  # L243-L246

    async def after_model_callback(self, *, callback_context: Any, llm_response: Any) -> None:
        # usage_metadata only when the response has some (L256-L263).
        usage = llm_response.usage_metadata
        attrs = {"usage_metadata": usage.model_dump(by_alias=True)} if usage else {}
        self._row(callback_context, "MODEL_RESPONSE", _GoJSON.llm_response(llm_response), attrs)

    async def on_model_error_callback(
        self, *, callback_context: Any, llm_request: Any, error: Exception
    ) -> None:
        self._row(callback_context, "MODEL_ERROR", None, {"error_message": str(error)})  # L264

    async def before_tool_callback(self, *, tool: Any, tool_args: Any, tool_context: Any) -> None:
        self._row(tool_context, "TOOL_START", dict(tool_args), {"tool_name": tool.name})  # L270

    async def after_tool_callback(
        self, *, tool: Any, tool_args: Any, tool_context: Any, result: Any
    ) -> None:
        # After a raised error the callback is given a nil map, which
        # recursiveSmartTruncate makes an empty one: ``{}`` (L82-L89).
        raised = tool_context.function_call_id in self._raised
        content = {} if raised or result is None else dict(result)
        self._row(tool_context, "TOOL_END", content, {"tool_name": tool.name})  # L275-L279

    async def on_tool_error_callback(
        self, *, tool: Any, tool_args: Any, tool_context: Any, error: Exception
    ) -> None:
        self._raised.add(tool_context.function_call_id)
        attrs = {"tool_name": tool.name, "error_message": str(error)}
        self._row(tool_context, "TOOL_ERROR", None, attrs)  # L280-L287


class GoRuntime(BasePlugin):  # type: ignore[misc]
    """What the Go runtime does with a raised tool error, which ADK Python
    does not: the error becomes the tool's response ``{"error": ...}`` and
    the turn goes on to the model (base_flow.go L1302-L1304, L1201-L1215).
    Placed after the Go recorder, so it has logged TOOL_ERROR first."""

    def __init__(self) -> None:
        super().__init__(name="go_runtime")

    async def on_tool_error_callback(
        self, *, tool: Any, tool_args: Any, tool_context: Any, error: Exception
    ) -> dict[str, Any]:
        return {"error": str(error)}


async def _run(spec: dict[str, Any], plugins: list[Any], go_runtime: bool = False) -> None:
    """One session through ADK Python; ``go_runtime``: with a raised tool
    error handed back to the model, which then answers, as in ADK Go."""
    from google.adk.runners import InMemoryRunner
    from google.genai import types

    queue = []
    for _text, steps in spec["turns"]:
        for step in steps:
            queue.append(step)
            if go_runtime and _raises(step):
                queue.append(("text", AFTER_RAISED))
    if go_runtime:
        plugins = [*plugins, GoRuntime()]
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
    """Python and Java from one run, Go from a run with the Go runtime's
    handling of a raised tool error (the only way their runs differ)."""
    from google.adk.plugins import bigquery_agent_analytics_plugin as bq

    from miner.replay import recording_plugin

    java, go = JavaShapedRecorder("java_shaped"), GoShapedRecorder("go_shaped")
    specs = [s for s in sample.SESSIONS if s["id"] in SESSION_IDS] + list(OUR_SESSIONS)
    with (
        recording_plugin(max_content_length=MAX_CONTENT) as (python, rows),
        mock.patch.object(sample, "lookup_order", lookup_order),
        mock.patch.object(sample, "lookup_customer", lookup_customer),
        mock.patch.object(bq, "time", _Clock()),
    ):
        for spec in specs:
            await _run(spec, [python, java])
        await python.flush()
        await python.shutdown()
        for spec in specs:
            await _run(spec, [go], go_runtime=True)
        return {"python": rows(), "java": java.rows, "go": go.rows}


def _shifted(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sessions moved to their fixed start, rows after a slow call moved on
    by its time (``_Clock``); JSON columns as strings."""
    from miner.replay import as_export

    rows = [{**row, "timestamp": row["timestamp"] + _skew(row["timestamp"])} for row in rows]
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


_TEXT = pa.string()
#: The Go plugin's table: ArrowSchema (schema.go L73-L125), every column on
#: every row (latency_ms, status and parent_span_id stay NULL).
GO_ARROW_SCHEMA = pa.schema(
    [
        pa.field("timestamp", pa.timestamp("us", tz="UTC"), nullable=False),
        *(
            pa.field(name, _TEXT)
            for name in (
                "event_type", "agent", "session_id", "invocation_id", "user_id",
                "trace_id", "span_id", "parent_span_id", "content",
            )
        ),
        pa.field(
            "content_parts",
            pa.list_(
                pa.struct(
                    [
                        ("mime_type", _TEXT),
                        ("uri", _TEXT),
                        (
                            "object_ref",
                            pa.struct(
                                [("uri", _TEXT), ("version", _TEXT), ("authorizer", _TEXT),
                                 ("details", _TEXT)]
                            ),
                        ),
                        ("text", _TEXT),
                        ("part_index", pa.int64()),
                        ("part_attributes", _TEXT),
                        ("storage_mode", _TEXT),
                    ]
                )
            ),
        ),
        *(
            pa.field(name, _TEXT)
            for name in ("attributes", "latency_ms", "status", "error_message")
        ),
        pa.field("is_truncated", pa.bool_()),
    ]
)  # fmt: skip


#: The app's own thumbs-down (ADK records none): one per dialect's copy of s12.
FEEDBACK = [{"session_id": "s12-long-notes", "invocation_id": None, "score": -1}]


def main() -> None:
    logging.basicConfig(level=logging.CRITICAL)
    pq.write_table(pa.Table.from_pylist(FEEDBACK), HERE / "feedback.parquet")
    for dialect, rows in asyncio.run(_capture()).items():
        rows = _shifted(rows)
        if dialect == "go":
            table = pa.Table.from_pylist(rows, schema=GO_ARROW_SCHEMA)
        else:
            # Every row with every column the plugin has (from_pylist reads the
            # keys of the first row only).
            columns = list(dict.fromkeys(k for row in rows for k in row))
            table = pa.Table.from_pylist([{c: row.get(c) for c in columns} for row in rows])
        folder = HERE / dialect
        folder.mkdir(exist_ok=True)
        pq.write_table(table, folder / "export.parquet")
        kinds = sorted({r["event_type"] for r in rows})
        print(f"{dialect}: {len(rows)} rows; event types: {kinds}")


if __name__ == "__main__":
    main()
