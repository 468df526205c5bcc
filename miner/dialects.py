"""The one reader of plugin rows: what each ADK's analytics plugin writes, mapped
onto miner's event model.

ADK for Python, Java and Go each ship a BigQuery Agent Analytics plugin, and
they disagree on event names and payload shapes. ``read_event`` decides the
dialect of each row from what the row holds (no flag to set), and returns an
``Event`` in one model for the session builder (``miner.traces``). The
selection reads the same shapes in SQL (``miner.engine.events``, its twin).
The shapes, with where each comes from, are written down in
``docs/export-dialects.md``.

- **Python** (google-adk 2.13, ``google/adk/plugins/bigquery_agent_analytics_plugin.py``):
  rows carry ``event_id``; AGENT_RESPONSE is ``{"response": "text: '...' | call: x"}``;
  a transfer is an AGENT_TRANSFER row; truncated strings end ``...[TRUNCATED]``.
- **Java** (google/adk-java ``core/src/main/java/com/google/adk/plugins/agentanalytics/``):
  no ``event_id`` column (BigQuerySchema.java); AGENT_RESPONSE and
  USER_MESSAGE_RECEIVED are ``{"text_summary": "<parts joined by ' | '>"}``
  (Parser.java L238-L261, L320) with ``[BINARY DATA]``, ``[MEDIA OFFLOADED]``
  and ``... [OFFLOADED]`` standing in for parts (Parser.java L59-L61); no
  AGENT_TRANSFER rows, a transfer is a TOOL_STARTING of ``transfer_to_agent``
  (BigQueryAgentAnalyticsPlugin.java L1100, L1217); LLM_RESPONSE is an object
  ``{"response": {"text_summary": ...}, "usage": ...}`` (Parser.java L232-L239);
  truncated strings end ``...[truncated]`` (JsonFormatter.java L39).
- **Go** (google/adk-go ``plugin/agentanalytics/bigquery_agent_analytics_plugin.go``):
  its own event names (USER_MESSAGE, TOOL_START, TOOL_END, MODEL_ERROR...,
  L222-L285); payloads are the Go structs as JSON (a ``genai.Content`` for
  messages, the bare args and result maps for tools, the tool's name in
  ``attributes.tool_name``); no AGENT_RESPONSE: the answer is the last EVENT
  row of the invocation whose content is the model's text (L235); no session
  state; truncated strings end ``...[truncated]`` (json_formatter.go L177).

Payload cells are parsed as JSON (``json.dumps`` text, Jackson's compact UTF-8,
BigQuery's normalised JSON, or a native struct), never string-matched, so key
order and spacing do not matter.
"""

from __future__ import annotations

import math
import re
from collections import namedtuple
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import orjson
import pyarrow as pa

from miner.errors import PayloadError

PYTHON, JAVA, GO = "python", "java", "go"

#: The Go plugin's event names -> the names miner (and the Python and Java plugins) use.
GO_EVENT_TYPES: dict[str, str] = {
    "USER_MESSAGE": "USER_MESSAGE_RECEIVED",
    "INVOCATION_START": "INVOCATION_STARTING",
    "INVOCATION_END": "INVOCATION_COMPLETED",
    "AGENT_START": "AGENT_STARTING",
    "AGENT_END": "AGENT_COMPLETED",
    "MODEL_REQUEST": "LLM_REQUEST",
    "MODEL_RESPONSE": "LLM_RESPONSE",
    "MODEL_ERROR": "LLM_ERROR",
    "TOOL_START": "TOOL_STARTING",
    "TOOL_END": "TOOL_COMPLETED",
    # TOOL_ERROR has the same name; EVENT (every runner event) becomes an
    # AGENT_RESPONSE or a MODEL_CALLS event below.
}
#: Event types whose names only the Go plugin writes.
GO_ONLY: frozenset[str] = frozenset((*GO_EVENT_TYPES, "EVENT"))

ERROR_EVENT_TYPES: tuple[str, ...] = (
    "TOOL_ERROR",
    "LLM_ERROR",
    "AGENT_ERROR",
    "INVOCATION_ERROR",
    "NODE_ERROR",
)

#: Every event type some ADK plugin writes that miner knows (others are skipped).
KNOWN_EVENT_TYPES: frozenset[str] = frozenset(
    (
        *GO_ONLY,
        *GO_EVENT_TYPES.values(),
        *ERROR_EVENT_TYPES,
        "AGENT_RESPONSE",
        "AGENT_TRANSFER",
        "STATE_DELTA",
        "TOOL_PAUSED",
        "A2A_INTERACTION",
    )
)

#: Java's stand-ins for parts it did not inline (Parser.java L59-L61).
PART_MARKERS: tuple[str, ...] = ("[BINARY DATA]", "[MEDIA OFFLOADED]")
OFFLOADED_SUFFIX = "... [OFFLOADED]"
#: How each plugin ends a string it cut.
TRUNCATION_MARKERS: tuple[str, ...] = ("...[TRUNCATED]", "...[truncated]")

_SUMMARY_PART = re.compile(
    r" \| (?=text: '|call: |resp: |Executable code \(|Code execution result \(|other(?: \||$))"
)


@dataclass(frozen=True)
class Event:
    """One plugin row in miner's terms."""

    kind: str
    """The event type, in the Python and Java plugins' names (AGENT_RESPONSE...)."""
    dialect: str
    text: str | None = None
    """USER_MESSAGE_RECEIVED: what the user said; AGENT_RESPONSE: the answer.
    None when the row lacked the key the text lives under."""
    tool: str | None = None
    args: dict[str, Any] | None = None
    result: Any = None
    transfer_to: str | None = None
    """The agent a transfer goes to (AGENT_TRANSFER, or a transfer_to_agent call)."""
    calls: tuple[tuple[str, dict[str, Any]], ...] = ()
    """Tool calls the model asked for (Go EVENT rows): name and arguments."""
    markers: tuple[str, ...] = ()
    """Placeholders the plugin wrote for parts it did not inline, dropped from ``text``."""


def raw_event_types(kinds: Iterable[str], event_rows: bool = True) -> list[str]:
    """Every plugin's name for ``kinds``, for a pushed-down filter. Go's
    EVENT rows (which may hold answers and the model's tool calls) are
    included where they may hold one of ``kinds``, unless ``event_rows`` is
    false: then only the rows whose type alone says the kind."""
    wanted = set(kinds)
    raw = wanted | {go for go, kind in GO_EVENT_TYPES.items() if kind in wanted}
    if event_rows and wanted & {"AGENT_RESPONSE", "AGENT_TRANSFER", "TOOL_STARTING"}:
        raw.add("EVENT")  # Go: answers and the model's tool calls live in EVENT rows
    return sorted(raw)


def row_place(row: Any) -> str:
    """Where a row is, for an error message: its file and row number there.

    Never a value from the row (an event id may be anything a team chose).
    Found only when an error is reported: the file is read again for the
    row's time, session and type."""
    source = getattr(row, "source_file", None)
    kind = getattr(row, "event_type", "?")
    number = _row_number(source, row) if isinstance(source, str) else None
    where = f"row {number}" if number is not None else "a row"
    return f"{source or '<export>'}: {where} ({kind})"


def _row_number(source: str, row: Any) -> int | None:
    import pyarrow.parquet as pq

    keys = ("timestamp", "session_id", "event_type", "invocation_id")
    try:
        table = pq.read_table(source, columns=[k for k in keys if hasattr(row, k)])
    except (OSError, ValueError, KeyError):
        return None
    import pandas as pd  # here: the signals import this module, and `miner review` them

    frame = table.to_pandas()
    hit = pd.Series(True, index=frame.index)
    for key in frame.columns:
        value = getattr(row, key)
        if key == "timestamp":
            stamps = pd.to_datetime(frame[key], utc=True)
            hit &= stamps == pd.Timestamp(value).tz_convert("UTC")
        else:
            hit &= frame[key] == value
    found = frame.index[hit]
    return int(found[0]) if len(found) else None


def parse_payload(text: Any, row: Any, column: str) -> Any:
    """Parse one JSON payload cell of ``row``; None and empty stay None."""
    if text is None or (isinstance(text, float) and math.isnan(text)) or text == "":
        return None
    if not isinstance(text, str | bytes):
        return text  # already structured (a JSON-typed column read natively)
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        # orjson's message gives the position; it does not quote the input.
        place = row_place(row)
        raise PayloadError(f"{place}: column {column}: malformed JSON ({exc.args[0]})") from None


def summary_text(summary: Any) -> str:
    """The user-visible text of a Python ``_format_content`` summary.

    ``"text: 'Sure.' | call: lookup_order"`` -> ``"Sure."``. Non-text parts
    (calls, code) are dropped; several text parts are joined by a space.
    """
    if not isinstance(summary, str) or summary == "None":
        return ""
    texts = []
    for part in _SUMMARY_PART.split(summary):
        if part.startswith("text: '") and part.endswith("'") and len(part) >= 8:
            texts.append(part[len("text: '") : -1])
        elif part.startswith("text: '"):
            texts.append(part[len("text: '") :])
    return " ".join(texts)


def _joined_parts(summary: str) -> tuple[list[str], tuple[str, ...]]:
    """A Java ``text_summary`` split into its parts, markers taken out."""
    parts, markers = [], []
    for part in summary.split(" | "):
        if part in PART_MARKERS:
            markers.append(part)
        elif part.endswith(OFFLOADED_SUFFIX):
            markers.append("[OFFLOADED]")
            parts.append(part[: -len(OFFLOADED_SUFFIX)])
        else:
            parts.append(part)
    return parts, tuple(markers)


def _content_parts(content: Any) -> tuple[list[str], list[tuple[str, dict[str, Any]]], bool]:
    """(texts, function calls, has function responses) of a Go ``genai.Content``."""
    texts: list[str] = []
    calls: list[tuple[str, dict[str, Any]]] = []
    responses = False
    for part in content.get("parts") or []:
        if not isinstance(part, dict):
            continue
        if isinstance(part.get("text"), str) and part["text"] and not part.get("thought"):
            texts.append(part["text"])
        call = part.get("functionCall") or part.get("function_call")
        if isinstance(call, dict):
            args = call.get("args")
            calls.append((str(call.get("name", "")), args if isinstance(args, dict) else {}))
        if part.get("functionResponse") or part.get("function_response"):
            responses = True
    return texts, calls, responses


def _attributes(row: Any) -> dict[str, Any]:
    value = parse_payload(getattr(row, "attributes", None), row, "attributes")
    return value if isinstance(value, dict) else {}


def dialect_of(row: Any, content: Any = None) -> str:
    """Which plugin wrote ``row``, from what it holds."""
    if row.event_type in GO_ONLY:
        return GO
    if isinstance(content, dict) and row.event_type == "AGENT_RESPONSE":
        return JAVA if "text_summary" in content else PYTHON
    if row.event_type == "LLM_RESPONSE" and content is not None:
        return JAVA if isinstance(content, dict) else PYTHON
    event_id = getattr(row, "event_id", None)
    # The Java schema has no event_id column (BigQuerySchema.java L74-L180).
    return PYTHON if isinstance(event_id, str) and event_id else JAVA


#: Event types whose payload miner reads; other rows are read by type alone.
_READ_PAYLOAD = frozenset(
    (
        "USER_MESSAGE_RECEIVED",
        "AGENT_RESPONSE",
        "AGENT_TRANSFER",
        "TOOL_STARTING",
        "TOOL_COMPLETED",
        "TOOL_ERROR",
        "USER_MESSAGE",
        "TOOL_START",
        "TOOL_END",
        "EVENT",
    )
)


def arrow_rows(batch: pa.RecordBatch, positions: Any = None, chunk: int = 4096) -> Iterator[Any]:
    """The rows of an Arrow batch (those at ``positions``, when given) as named
    tuples ``read_event`` reads, a few thousand at a time: columns go to
    Python once per chunk, and only one chunk lives at once."""
    record = namedtuple("Row", batch.schema.names, rename=True)  # type: ignore[misc]
    count = batch.num_rows if positions is None else len(positions)
    for start in range(0, count, chunk):
        if positions is None:
            part = batch.slice(start, chunk)
        else:
            part = batch.take(pa.array(positions[start : start + chunk]))
        columns = [part.column(i).to_pylist() for i in range(part.num_columns)]
        yield from map(record._make, zip(*columns, strict=True))


def read_event(row: Any) -> Event:
    """The row (a pandas itertuples record) in miner's event model.

    Java's and Go's truncation marker ``...[truncated]`` becomes the Python
    plugin's ``...[TRUNCATED]``, so a case reads the same whoever wrote it."""
    event = _read(row)
    if event.dialect == PYTHON:
        return event
    return replace(
        event,
        text=_marked(event.text),
        args=_marked(event.args),
        result=_marked(event.result),
    )


def _marked(value: Any) -> Any:
    if isinstance(value, str):
        if value.endswith("...[truncated]"):
            return value[: -len("...[truncated]")] + "...[TRUNCATED]"
        return value
    if isinstance(value, dict):
        return {k: _marked(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_marked(v) for v in value]
    return value


def _read(row: Any) -> Event:
    raw = row.event_type
    kind = GO_EVENT_TYPES.get(raw, raw)
    if raw not in _READ_PAYLOAD:
        return Event(kind=kind, dialect=dialect_of(row))
    content = parse_payload(getattr(row, "content", None), row, "content")
    dialect = dialect_of(row, content)
    if raw == "TOOL_ERROR" and content is None and dialect == JAVA:
        # Go's TOOL_ERROR shares the name but has no payload (its tool is in
        # attributes); Java's always holds {tool, args} (L1181).
        dialect = GO
    if dialect == GO:
        return _read_go(row, raw, kind, content)
    payload = content if isinstance(content, dict) else {}
    if kind == "USER_MESSAGE_RECEIVED":
        summary = payload.get("text_summary")
        if isinstance(content, str):  # an old export: the text itself
            summary = content
        if not isinstance(summary, str):
            return Event(kind, dialect)
        parts, markers = _joined_parts(summary)
        return Event(kind, dialect, text=" | ".join(parts), markers=markers)
    if kind == "AGENT_RESPONSE":
        if "text_summary" in payload and isinstance(payload["text_summary"], str):
            parts, markers = _joined_parts(payload["text_summary"])
            return Event(kind, dialect, text=" ".join(p for p in parts if p), markers=markers)
        response = payload.get("response") if isinstance(content, dict) else content
        if response is None and "response" not in payload:
            return Event(kind, dialect)
        return Event(kind, dialect, text=summary_text(response))
    if kind == "AGENT_TRANSFER":
        target = payload.get("to_agent")
        return Event(kind, dialect, transfer_to=target if isinstance(target, str) else None)
    tool = payload.get("tool")
    args = payload.get("args")
    args = args if isinstance(args, dict) else None
    transfer = _transfer_target(tool, args)
    return Event(
        kind,
        dialect,
        tool=str(tool) if tool is not None else None,
        args=args,
        result=payload.get("result"),
        transfer_to=transfer,
    )


def _transfer_target(tool: Any, args: dict[str, Any] | None) -> str | None:
    if tool == "transfer_to_agent" and args and isinstance(args.get("agent_name"), str):
        return str(args["agent_name"])
    return None


def _read_go(row: Any, raw: str, kind: str, content: Any) -> Event:
    if raw == "USER_MESSAGE":
        if not isinstance(content, dict):
            return Event(kind, GO)
        texts, _calls, _responses = _content_parts(content)
        return Event(kind, GO, text=" | ".join(texts))
    if raw == "EVENT":
        if not isinstance(content, dict):
            return Event("EVENT", GO)
        texts, calls, responses = _content_parts(content)
        if calls:
            return Event("MODEL_CALLS", GO, calls=tuple(calls))
        if content.get("role") == "model" and texts and not responses:
            return Event("AGENT_RESPONSE", GO, text=" ".join(texts))
        return Event("EVENT", GO)
    tool = _attributes(row).get("tool_name")
    tool = str(tool) if tool is not None else None
    if raw == "TOOL_START":
        args = content if isinstance(content, dict) else {}
        return Event(kind, GO, tool=tool, args=args, transfer_to=_transfer_target(tool, args))
    if raw == "TOOL_END":
        return Event(kind, GO, tool=tool, result=content)
    return Event(kind, GO, tool=tool)  # TOOL_ERROR: the message is in error_message
