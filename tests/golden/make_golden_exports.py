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
    """Strings over MAX_CONTENT characters cut there and marked, recursively:
    the Go plugin's recursiveSmartTruncate and truncateString (json_formatter.go
    L72-L97, L169-L178: runes, the marker after the cut). The Java plugin
    counts bytes instead (``_Java.truncate``)."""
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


class _Recorder(BasePlugin):  # type: ignore[misc]
    """Rows a non-Python plugin would write, from ADK Python's plugin callbacks.
    Every callback returns None, so the run is the same with or without it."""

    def __init__(self, name: str) -> None:
        super().__init__(name=name)
        self.rows: list[dict[str, Any]] = []

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
        }


def _java_string_hash(text: str) -> int:
    """java.lang.String.hashCode, over UTF-16 code units (its 32 bits, unsigned)."""
    units = text.encode("utf-16-be")
    h = 0
    for i in range(0, len(units), 2):
        h = (31 * h + (units[i] << 8 | units[i + 1])) & 0xFFFFFFFF
    return h


def _java_hashmap(copied: dict[str, Any], *added: tuple[str, Any]) -> dict[str, Any]:
    """The entries of ``new HashMap<>(copied)`` after ``put``s of ``added``, in
    the order a java.util.HashMap iterates them (and Jackson writes them):
    by bucket, then by insertion. The table starts at 16, or for a copy at
    tableSizeFor(size / 0.75 + 1), and doubles when the size passes 0.75 of it."""
    entries = list(copied.items()) + list(added)
    capacity = 16 if not copied else 1 << max(0, (int(len(copied) / 0.75 + 1) - 1).bit_length())
    while len(entries) > 0.75 * capacity:
        capacity *= 2

    def bucket(key: str) -> int:
        h = _java_string_hash(key)
        return (h ^ (h >> 16)) & (capacity - 1)

    order = sorted(range(len(entries)), key=lambda i: (bucket(entries[i][0]), i))
    return {entries[i][0]: entries[i][1] for i in order}


class _Java:
    """What the Java plugin's formatters make of a value (google/adk-java
    ``JsonFormatter.java``, ``Parser.java``)."""

    MARKER = "...[truncated]"  # JsonFormatter.java L39
    SENSITIVE = (  # L50-L52
        "client_secret", "access_token", "refresh_token", "id_token", "api_key", "password",
    )  # fmt: skip

    @staticmethod
    def truncate(text: str) -> tuple[str, bool]:
        """truncateAndAddSuffix (L254-L287): over MAX_CONTENT UTF-8 bytes, cut to
        the code points that fit in the budget less the suffix, then the suffix."""
        if len(text.encode()) <= MAX_CONTENT:
            return text, False
        budget, used, end = MAX_CONTENT - len(_Java.MARKER.encode()), 0, 0
        for char in text:
            size = len(char.encode())
            if used + size > budget:
                break
            used, end = used + size, end + 1
        return text[:end] + _Java.MARKER, True

    @staticmethod
    def smart(value: Any) -> tuple[Any, bool]:
        """smartTruncate (L72-L87, L186-L238): strings cut, sensitive keys
        redacted (not marked truncated), containers walked."""
        if isinstance(value, str):
            return _Java.truncate(value)
        if isinstance(value, dict):
            out, cut = {}, False
            for key, item in value.items():
                if key.lower() in _Java.SENSITIVE or key.lower().startswith("temp:"):
                    out[key] = "[REDACTED]"
                    continue
                out[key], c = _Java.smart(item)
                cut = cut or c
            return out, cut
        if isinstance(value, list):
            items = [_Java.smart(v) for v in value]
            return [v for v, _ in items], any(c for _, c in items)
        return value, False

    @staticmethod
    def _part(part: Any, index: int) -> tuple[dict[str, Any], bool]:
        """Parser.processPart (L330-L452), with no GCS offloader configured."""
        record: dict[str, Any] = {
            "part_index": index,
            "mime_type": "text/plain",
            "uri": None,
            "text": None,
            "part_attributes": "{}",
            "storage_mode": "INLINE",
            "object_ref": None,
        }
        if part.file_data is not None:
            record.update(
                storage_mode="EXTERNAL_URI",
                uri=part.file_data.file_uri,
                mime_type=part.file_data.mime_type,
            )
        elif part.inline_data is not None:
            record.update(
                text="[BINARY DATA]",
                mime_type=part.inline_data.mime_type or "application/octet-stream",
            )
        elif part.text is not None:
            text, cut = _Java.truncate(part.text)
            record["text"] = text
            return record, cut
        elif part.function_call is not None:
            name = part.function_call.name or "unknown"
            record.update(
                mime_type="application/json",
                text=f"Function: {name}",
                part_attributes=_compact({"function_name": name}),
            )
        return record, False

    @staticmethod
    def content_object(parts: list[Any]) -> tuple[list[dict[str, Any]], str, bool]:
        """Parser.parseContentObject (L286-L327): the parts' records, their texts
        joined by `` | `` (thoughts included) and cut, and whether anything was."""
        records, cut = [], False
        for i, part in enumerate(parts):
            record, c = _Java._part(part, i)
            records.append(record)
            cut = cut or c
        summary = " | ".join(r["text"] for r in records if r["text"] is not None)
        summary, c = _Java.truncate(summary)
        return records, summary, cut or c


class JavaShapedRecorder(_Recorder):
    """BigQueryAgentAnalyticsPlugin.java (google/adk-java ``c1bda9c1``),
    callback by callback; each row as ``logEvent`` (L293-L398) builds it.

    Spans are the plugin's own tree (TraceManager.java): one per invocation,
    agent, model call and tool call, pushed and popped as the callbacks run;
    a row carries the current span and its parent. With no OpenTelemetry
    span around, the trace id is the invocation id (TraceManager L160-L172)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        #: (kind, span id, operation id, start, parent id) of the open spans,
        #: innermost last.
        self._stack: list[tuple[str, str, str | None, datetime, str | None]] = []
        self._invocation: str | None = None

    @staticmethod
    def _now() -> datetime:
        return datetime.now(UTC) + _skew()

    def _ensure_invocation_span(self, invocation: Any) -> None:
        """TraceManager.ensureInvocationSpan (L275-L296)."""
        if self._invocation == invocation.invocation_id and self._stack:
            return
        self._invocation = invocation.invocation_id
        self._stack = [("invocation", uuid.uuid4().hex[:16], None, self._now(), None)]

    def _push(self, kind: str, operation: str | None = None) -> tuple[str, str | None]:
        """pushSpanRecord (L225-L234): the new span and its parent (a sibling
        tool with an operation id is not a parent, L241-L256)."""
        parent = next(
            (
                s
                for k, s, op, _t, _p in reversed(self._stack)
                if not (operation and k == kind and op)
            ),
            None,
        )
        span = uuid.uuid4().hex[:16]
        self._stack.append((kind, span, operation, self._now(), parent))
        return span, parent

    def _pop(self, prefix: str, operation: str | None = None) -> tuple[str, int, str | None] | None:
        """popSpan (L329-L380): the span's id, its duration in ms (toMillis)
        and the parent it was pushed under."""
        for i in range(len(self._stack) - 1, -1, -1):
            kind, span, op, start, parent = self._stack[i]
            if kind.startswith(prefix) and (operation is None or op == operation):
                del self._stack[i]
                return span, int((self._now() - start).total_seconds() * 1000), parent
            if operation is None:
                return None  # only the innermost span is popped by kind
        return None

    def _current(self) -> tuple[str | None, str | None]:
        """getCurrentSpanAndParent (L392-L422): the innermost span and the one around it."""
        spans = [s for _k, s, _op, _t, _p in self._stack]
        return (spans[-1] if spans else None), (spans[-2] if len(spans) > 1 else None)

    def _row(
        self,
        ctx: Any,
        event_type: str,
        content: Any = None,
        truncated: bool = False,
        status: str = "OK",
        error: str | None = None,
        extra: dict[str, Any] | None = None,
        span: tuple[str | None, str | None] | None = None,
        latency: dict[str, int] | None = None,
        model: str | None = None,
    ) -> None:
        invocation = getattr(ctx, "_invocation_context", ctx)
        session = invocation.session
        span_id, parent = span if span is not None else self._current()
        # ``agent``: the invocation context's agent (resolveAgentName, L406-L421).
        row = self._base(ctx, event_type)
        row.update(
            trace_id=invocation.invocation_id,
            span_id=span_id,
            parent_span_id=parent,
            status=status,
            error_message=error,
            latency_ms=_compact(latency) if latency else None,  # extractLatency, L494-L501
        )
        # getAttributes (L503-L550): extra attributes, then the root agent, the
        # model, session metadata (state only when there is some).
        meta = [("session_id", session.id), ("app_name", session.app_name)]
        meta.append(("user_id", session.user_id))
        if session.state:
            meta.append(("state", _Java.smart(dict(session.state))[0]))
        metadata = _java_hashmap({}, *meta)
        added: list[tuple[str, Any]] = [("root_agent_name", invocation.agent.root_agent.name)]
        if model is not None:
            added.append(("model", model))
        added.append(("session_metadata", metadata))
        row["attributes"] = _compact(_java_hashmap(extra or {}, *added))
        if content is not None:  # L355-L381: content, content_parts, is_truncated
            payload, parts, cut = self._parsed(content)
            row.update(content=_compact(payload), content_parts=parts)
            row["is_truncated"] = truncated or cut
        self.rows.append(row)

    @staticmethod
    def _parsed(content: Any) -> tuple[Any, list[dict[str, Any]], bool]:
        """Parser.parse (L184-L283): requests, responses and contents as text
        summaries with their parts' records; anything else smart-truncated."""
        kind, value = content
        if kind == "content":
            parts, summary, cut = _Java.content_object(list(value.parts or []))
            return {"text_summary": summary}, parts, cut
        if kind == "response":
            parts, summary, cut = _Java.content_object(
                list(value.content.parts or []) if value.content else []
            )
            payload: dict[str, Any] = {"response": {"text_summary": summary}}
            usage = value.usage_metadata
            if usage is not None:
                payload["usage"] = {
                    k: v
                    for k, v in (
                        ("prompt", usage.prompt_token_count),
                        ("completion", usage.candidates_token_count),
                        ("total", usage.total_token_count),
                    )
                    if v is not None
                }
            return payload, parts, cut
        if kind == "request":
            records: list[dict[str, Any]] = []
            prompt, cut = [], False
            for message in value.contents or []:
                parts, summary, c = _Java.content_object(list(message.parts or []))
                records.extend(parts)
                prompt.append({"role": message.role or "unknown", "content": summary})
                cut = cut or c
            payload = {"prompt": prompt} if prompt else {}
            system = value.config.system_instruction if value.config else None
            if system is not None:
                from google.genai import types

                if isinstance(system, str):
                    system = types.Content(parts=[types.Part(text=system)])
                parts, summary, c = _Java.content_object(list(system.parts or []))
                records.extend(parts)
                payload["system_prompt"] = summary
                cut = cut or c
            return payload, records, cut
        smart, cut = _Java.smart(value)
        return smart, [], cut

    async def on_user_message_callback(self, *, invocation_context: Any, user_message: Any) -> None:
        self._ensure_invocation_span(invocation_context)  # L595-L600
        self._row(invocation_context, "USER_MESSAGE_RECEIVED", ("content", user_message))

    async def before_run_callback(self, *, invocation_context: Any) -> None:
        self._ensure_invocation_span(invocation_context)
        self._row(invocation_context, "INVOCATION_STARTING")  # L852-L859

    async def after_run_callback(self, *, invocation_context: Any) -> None:
        # getCompletedEventData (L566-L590): the popped span, its duration.
        popped = self._pop("invocation")
        span, latency = (popped[0], {"total_ms": popped[1]}) if popped else (None, None)
        self._row(invocation_context, "INVOCATION_COMPLETED", span=(span, None), latency=latency)

    async def before_agent_callback(self, *, agent: Any, callback_context: Any) -> None:
        span = self._push(f"agent:{agent.name}")  # L872-L881
        self._row(callback_context, "AGENT_STARTING", span=span)

    async def after_agent_callback(self, *, agent: Any, callback_context: Any) -> None:
        popped = self._pop("agent:")  # L884-L891
        span = (popped[0] if popped else None, self._current()[0])
        latency = {"total_ms": popped[1]} if popped else None
        self._row(callback_context, "AGENT_COMPLETED", span=span, latency=latency)

    async def on_event_callback(self, *, invocation_context: Any, event: Any) -> None:
        if event.actions and event.actions.state_delta:  # L669-L686
            extra = {"state_delta": dict(event.actions.state_delta), "author": event.author}
            content = ("content", event.content) if event.content else None
            self._row(invocation_context, "STATE_DELTA", content, extra=extra)
        # isFinalAgentResponse, L1234-L1242: no calls, no responses, not partial.
        if (
            event.content
            and event.content.parts
            and event.is_final_response()
            and not event.get_function_calls()
            and not event.get_function_responses()
            and not event.partial
            and not event.long_running_tool_ids
        ):
            from google.genai import types

            # L809-L845: the visible text parts only.
            visible = [p for p in event.content.parts if p.text is not None and not p.thought]
            if visible:
                extra = {"source_event_id": event.id, "source_event_author": event.author}
                if event.branch:
                    extra["source_event_branch"] = event.branch
                shown = types.Content(role=event.content.role or "model", parts=visible)
                self._row(invocation_context, "AGENT_RESPONSE", ("content", shown), extra=extra)

    async def before_model_callback(self, *, callback_context: Any, llm_request: Any) -> None:
        # L902-L968: the request's sampling settings, its tools, the model.
        extra: dict[str, Any] = {}
        config = llm_request.config
        settings = {
            key: getattr(config, attr, None)
            for key, attr in (
                ("temperature", "temperature"),
                ("top_p", "top_p"),
                ("top_k", "top_k"),
                ("candidate_count", "candidate_count"),
                ("max_output_tokens", "max_output_tokens"),
                ("stop_sequences", "stop_sequences"),
                ("presence_penalty", "presence_penalty"),
                ("frequency_penalty", "frequency_penalty"),
                ("response_mime_type", "response_mime_type"),
                ("seed", "seed"),
                ("response_logprobs", "response_logprobs"),
                ("logprobs", "logprobs"),
            )
        }
        settings = {k: v for k, v in settings.items() if v is not None}
        if config is not None and config.labels:
            extra["labels"] = dict(config.labels)
        if settings:
            extra["llm_config"] = settings
        if llm_request.tools_dict:
            extra["tools"] = list(llm_request.tools_dict)
        span = self._push("llm_request")
        self._row(
            callback_context,
            "LLM_REQUEST",
            ("request", llm_request),
            extra=extra,
            span=span,
            model=llm_request.model or "",
        )

    async def after_model_callback(self, *, callback_context: Any, llm_response: Any) -> None:
        # L971-L1060: the model call's span is popped on the final response.
        parent = self._current()[1]
        popped = None if llm_response.partial else self._pop("llm_request")
        span = (popped[0], parent) if popped else self._current()
        # The first token is recorded at this callback (L990-L1010): ttft = total.
        latency = (
            _java_hashmap({}, ("total_ms", popped[1]), ("time_to_first_token_ms", popped[1]))
            if popped
            else None
        )
        self._row(callback_context, "LLM_RESPONSE", ("response", llm_response), span=span,
                  latency=latency)  # fmt: skip

    async def on_model_error_callback(
        self, *, callback_context: Any, llm_request: Any, error: Exception
    ) -> None:
        popped = self._pop("llm_request")  # L1063-L1090
        span = (popped[0] if popped else None, self._current()[0])
        latency = {"total_ms": popped[1]} if popped else None
        self._row(callback_context, "LLM_ERROR", status="ERROR", error=str(error), span=span,
                  latency=latency)  # fmt: skip

    async def before_tool_callback(self, *, tool: Any, tool_args: Any, tool_context: Any) -> None:
        span = self._push("tool", tool_context.function_call_id)  # L1094-L1119
        content = {"tool_origin": _tool_origin(tool), "tool": tool.name, "args": dict(tool_args)}
        self._row(tool_context, "TOOL_STARTING", ("map", content), span=span)

    async def after_tool_callback(
        self, *, tool: Any, tool_args: Any, tool_context: Any, result: Any
    ) -> None:
        popped = self._tool_span(tool_context)  # L1122-L1164
        cut_result, cut = _Java.smart(result)
        content = {"tool": tool.name, "result": cut_result, "tool_origin": _tool_origin(tool)}
        self._row(tool_context, "TOOL_COMPLETED", ("map", content), cut, **popped)

    async def on_tool_error_callback(
        self, *, tool: Any, tool_args: Any, tool_context: Any, error: Exception
    ) -> None:
        popped = self._tool_span(tool_context)  # L1167-L1205
        args, cut = _Java.smart(dict(tool_args))
        content = {"tool": tool.name, "args": args, "tool_origin": _tool_origin(tool)}
        self._row(tool_context, "TOOL_ERROR", ("map", content), cut, "ERROR", str(error), **popped)

    def _tool_span(self, tool_context: Any) -> dict[str, Any]:
        """The tool call's span, popped by its function-call id, and its time."""
        popped = self._pop("tool", tool_context.function_call_id)
        if popped is None:
            return {"span": (None, None)}
        return {"span": (popped[0], popped[2]), "latency": {"total_ms": popped[1]}}


def _tool_origin(tool: Any) -> str:
    """getToolOrigin (L1208-L1225), for the tools these sessions use."""
    return "TRANSFER_AGENT" if tool.name == "transfer_to_agent" else "LOCAL"


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

    #: GenerateContentConfig's fields (types.go, v1.63.0) as reflection writes
    #: them when unset: nil pointers and interfaces null, nil slices [], nil
    #: maps {}, strings "", numbers 0, bools false.
    _CONFIG_UNSET: dict[str, Any] = {
        "httpOptions": None, "systemInstruction": None, "temperature": None, "topP": None,
        "topK": None, "candidateCount": 0, "maxOutputTokens": 0, "stopSequences": [],
        "responseLogprobs": False, "logprobs": None, "presencePenalty": None,
        "frequencyPenalty": None, "seed": None, "responseMimeType": "", "responseSchema": None,
        "responseJsonSchema": None, "routingConfig": None, "modelSelectionConfig": None,
        "safetySettings": [], "tools": [], "toolConfig": None, "labels": {}, "cachedContent": "",
        "responseModalities": [], "mediaResolution": "", "speechConfig": None,
        "audioTimestamp": False, "thinkingConfig": None, "imageConfig": None,
        "enableEnhancedCivicAnswers": None, "modelArmorConfig": None, "serviceTier": "",
    }  # fmt: skip
    _TOOL_UNSET: dict[str, Any] = {
        "retrieval": None, "computerUse": None, "fileSearch": None, "googleSearch": None,
        "googleMaps": None, "codeExecution": None, "enterpriseWebSearch": None,
        "functionDeclarations": [], "googleSearchRetrieval": None, "parallelAiSearch": None,
        "urlContext": None, "mcpServers": [], "exaAiSearch": None,
    }  # fmt: skip

    @staticmethod
    def llm_request(request: Any) -> dict[str, Any]:
        """A ``*model.LLMRequest`` (model/llm.go L31-L38): no json tags, so
        its keys are the Go field names; ``Tools`` is ``json:"-"``. The
        values are ADK Python's request (its instruction, its declarations:
        ADK Go builds a ``*jsonschema.Schema`` where Python has a dict)."""
        config = request.config
        out = dict(_GoJSON._CONFIG_UNSET)
        if config is not None:
            system = config.system_instruction
            if isinstance(system, str):
                from google.genai import types

                system = types.Content(parts=[types.Part(text=system)])
            out["systemInstruction"] = _GoJSON.content(system)
            out["tools"] = [
                {
                    **_GoJSON._TOOL_UNSET,
                    "functionDeclarations": [
                        {
                            "description": d.description or "",
                            "name": d.name or "",
                            "parameters": None,
                            "parametersJsonSchema": d.parameters_json_schema,
                            "response": None,
                            "responseJsonSchema": d.response_json_schema,
                            "behavior": d.behavior.value if d.behavior else "",
                        }
                        for d in tool.function_declarations or []
                    ],
                }
                for tool in config.tools or []
            ]
        return {
            "Model": request.model or "",
            "Contents": [_GoJSON.content(c) for c in request.contents or []],
            "Config": out if config is not None else None,
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

    async def before_model_callback(self, *, callback_context: Any, llm_request: Any) -> None:
        attrs = {"model": llm_request.model or "unknown"}  # L248-L255
        self._row(callback_context, "MODEL_REQUEST", _GoJSON.llm_request(llm_request), attrs)

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
#: The Java and Go plugins' table: the same columns in the same order
#: (BigQuerySchema.java L74-L180, schema.go ArrowSchema L73-L125), every column
#: on every row (Go leaves latency_ms, status and parent_span_id NULL).
PLUGIN_ARROW_SCHEMA = pa.schema(
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
        if dialect in ("java", "go"):
            table = pa.Table.from_pylist(rows, schema=PLUGIN_ARROW_SCHEMA)
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
