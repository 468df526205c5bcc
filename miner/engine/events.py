"""The ``events`` view: every plugin's row in one shape, written once, in SQL.

Over a relation ``miner_rows`` (the export's rows in the scan's window, the
columns of ``ROW_COLUMNS`` that the export has, missing ones as NULL), the
view gives one row per plugin row with:

- ``session_id``, ``invocation_id``, ``ts`` (the row's timestamp),
  ``raw_type`` (the event type as written) and ``kind`` (in miner's names:
  Go's USER_MESSAGE is USER_MESSAGE_RECEIVED, TOOL_START is TOOL_STARTING...;
  a Go EVENT row with the model's tool calls is MODEL_CALLS, one with the
  model's text is AGENT_RESPONSE);
- ``dialect`` (python, java, go: the rules of ``miner.dialects.dialect_of``);
- ``status``, ``error_message``;
- ``text``: what the user said (USER_MESSAGE_RECEIVED) or the answer's text
  (AGENT_RESPONSE); ``tool``, ``args`` and ``result`` of a tool call (JSON
  text); ``transfer_to``: the agent a transfer hands the session to;
  ``total_ms``: an invocation's latency as the plugin wrote it;
- ``bad_payload``: the payload of a row whose payload miner reads is not JSON.

It is the SQL twin of ``miner.dialects.read_event``, which reads the picked
sessions' rows for drafting; ``tests/test_engine.py`` checks that the two
read the golden exports of the three plugins alike. Where SQL gives a little
more than ``read_event`` (a Python answer's text is its whole summary, calls
included; a Go message keeps its first four parts), a signal may fire on a
superset, never on fewer rows.

Written in DuckDB's dialect; ``miner.engine.query`` transpiles it.
"""

from __future__ import annotations

import json

from miner.dialects import GO_EVENT_TYPES, GO_ONLY
from miner.engine.sql import key_path
from miner.engine.sql import listed as _listed
from miner.engine.sql import text as _text

#: The columns the view reads, when the export has them.
ROW_COLUMNS: tuple[str, ...] = (
    "timestamp",
    "event_id",
    "event_type",
    "session_id",
    "invocation_id",
    "content",
    "attributes",
    "latency_ms",
    "status",
    "error_message",
    "source_file",
)

#: Event types whose payload is read (``miner.dialects._READ_PAYLOAD``).
PAYLOAD_TYPES: tuple[str, ...] = (
    "USER_MESSAGE_RECEIVED", "AGENT_RESPONSE", "AGENT_TRANSFER", "TOOL_STARTING",
    "TOOL_COMPLETED", "TOOL_ERROR", "USER_MESSAGE", "TOOL_START", "TOOL_END", "EVENT",
)  # fmt: skip

_GO_RENAMED = " ".join(
    f"WHEN raw_type = {_text(go)} THEN {_text(kind)}" for go, kind in sorted(GO_EVENT_TYPES.items())
)
#: The Python and Java rows that name a tool (``read_event`` reads no tool
#: from a message, an answer or a transfer: reading it there would parse
#: three quarters of a million payloads more on a large export).
_TOOL_TYPES = ("TOOL_STARTING", "TOOL_COMPLETED", "TOOL_ERROR")
#: The Go rows ``read_event`` reads no tool from (a message, the model's
#: calls or answer): their ``attributes`` are not parsed (0.1 s of CPU on
#: 1M Go rows, whose EVENT rows are a third of those read).
_GO_TOOLLESS = ("USER_MESSAGE", "EVENT")
#: A Go content (``genai.Content``) part list: the texts of its first parts.
_PARTS = 4


def _go_texts(separator: str) -> str:
    """SQL: the texts of a Go content's first parts, joined by ``separator``,
    indexed in its part list as ``parsed_fields`` keeps it (a list of
    ``{text}`` structs, read in the payload's one parse): not parsed again,
    neither from the whole payload (each JSON call DuckDB runs holds its own
    buffers of a batch's parsed payloads, and eight more over payloads of
    50 KB outgrew a 160 MiB ``memory_limit``) nor from the part list as JSON
    text (one parse of it per part read: 1.2 s of CPU on 1M Go rows). An
    index past the list's end is NULL (``_portable`` renders it so where
    the engine is not DuckDB)."""
    parts = ", ".join(f"nullif(fields.parts[{i + 1}].text, '')" for i in range(_PARTS))
    return f"nullif(concat_ws({_text(separator)}, {parts}), '')"


#: A JSON type ``json_transform`` reads: ``VARCHAR`` as
#: ``json_extract_string`` (a string as itself, anything else as its JSON
#: text), ``JSON`` as ``json_extract``; ``[{key: "VARCHAR", ...}]`` a list
#: of structs of such strings (NULL where the value is not a list; an item
#: that is not an object has every key NULL).
FieldType = str | list[dict[str, str]]

#: The keys of a payload the view reads, each with its ``FieldType``.
#: ``role`` and ``parts`` are a Go content's (``genai.Content``: of a part,
#: the view reads its ``text``), the others Python's and Java's.
PAYLOAD_FIELDS: tuple[tuple[str, FieldType], ...] = (
    ("text_summary", "VARCHAR"),
    ("response", "VARCHAR"),
    ("tool", "VARCHAR"),
    ("args", "JSON"),
    ("result", "JSON"),
    ("to_agent", "VARCHAR"),
    ("role", "VARCHAR"),
    ("parts", [{"text": "VARCHAR"}]),
)
#: ``PAYLOAD_FIELDS`` but a Go content's: what the view reads of a payload
#: when no row is Go's (``events_ctes``).
_GO_FIELDS = ("role", "parts")
_NOT_GO_FIELDS = tuple((key, kind) for key, kind in PAYLOAD_FIELDS if key not in _GO_FIELDS)


def parsed_fields(column: str, fields: tuple[tuple[str, FieldType], ...] = PAYLOAD_FIELDS) -> str:
    """SQL: ``fields`` of the JSON text in ``column``, parsed once,
    as a struct (NULL where the text is not JSON, or is JSON ``null``). One
    parse per payload, not one per key read plus a validity check: the
    view's JSON work is a third of what it was (``miner.engine.query.render``
    writes it as one extraction per key where the engine is not DuckDB).
    Cast to its type: over rows without a payload column (a constant NULL)
    DuckDB types ``json_transform`` as NULL, and a part list's index in it
    would not bind."""
    schema = json.dumps(dict(fields), separators=(",", ":"))
    typed = ", ".join(f"{key} {_duckdb_type(kind)}" for key, kind in fields)
    return f"CAST(try(json_transform({column}, {_text(schema)})) AS STRUCT({typed}))"


def _duckdb_type(kind: FieldType) -> str:
    """The DuckDB type ``json_transform`` gives a field of ``kind``."""
    if isinstance(kind, list):
        [item] = kind
        return f"STRUCT({', '.join(f'{k} {_duckdb_type(v)}' for k, v in item.items())})[]"
    return kind


def _json_null(key: str) -> str:
    """SQL: the payload's ``key`` as JSON text where ``parsed_fields`` holds
    none: ``null`` for a JSON null, as ``json_extract`` reads it (the struct
    holds NULL); parsed again on those rows only."""
    return f"CAST(json_extract(payload, {key_path(key)}) AS VARCHAR)"


#: A Go EVENT row holds the model's tool calls / function responses.
_GO_CALLS = r"""regexp_matches(payload, '"function_?[cC]all"\s*:\s*\{')"""
_GO_RESPONSES = r"""regexp_matches(payload, '"function_?[rR]esponse"\s*:\s*\{')"""

#: A payload that opens more arrays and objects than Python's JSON reader
#: takes (orjson stops past 1,024 levels; DuckDB reads deeper), as hostile
#: input does: 1,025 openings at its start (RE2 repeats 1,000 at most). A
#: payload that starts ``{"`` is not one (its second opening is not there):
#: the view runs the pattern on the others only.
_DEEP = r"^(?:\s*[\[{]){1000}(?:\s*[\[{]){25}"

#: A Go row of a type the other plugins write too: a payload-less
#: TOOL_ERROR. As its own condition (not ``GO_ROW`` under ``event_type =
#: 'TOOL_ERROR'``), each of its terms is a filter the Parquet reader takes,
#: so a row group whose ``event_id`` has no nulls (every Python row has one)
#: is skipped on its statistics.
GO_TOOL_ERROR = "event_type = 'TOOL_ERROR' AND event_id IS NULL AND content IS NULL"

#: A row the Go plugin wrote, over the export's own columns. ``attributes``
#: is read on these rows only (where Go writes a tool's name): an export with
#: none in the window is read without it (``miner.engine.duck``), and it is
#: most of an export's bytes.
GO_ROW = f"(event_type IN ({_listed(sorted(GO_ONLY))}) OR ({GO_TOOL_ERROR}))"


def events_ctes(go_rows: bool = True) -> tuple[tuple[str, str], ...]:
    """The view, as named common table expressions in order (the last is
    ``events``). ``source_file`` is kept only where an error names it (a row
    without a session, a bad payload): a file's path on every row would be a
    fifth of the table.

    ``go_rows`` False: the rows hold none the Go plugin wrote (the scan
    checked the window, ``miner.engine.duck.selection_rows``), and the view
    is written without Go's terms: no row is a Go row, renamed, a model's
    calls or a Go answer, and no payload's Go ``role`` and ``parts`` are
    read. The same rows and values as with them, where each term was
    computed on every row to come out false (the renames' chain alone is ten
    comparisons a row)."""
    fields = PAYLOAD_FIELDS if go_rows else _NOT_GO_FIELDS
    go = f",\n    {GO_ROW} AS go" if go_rows else ""
    steps: list[tuple[str, str]] = [
        (
            "miner_typed",
            f"""
  SELECT
    session_id,
    invocation_id,
    "timestamp" AS ts,
    event_type AS raw_type,
    status,
    error_message,
    source_file,
    latency_ms,
    attributes,
    event_id,
    CASE WHEN event_type IN ({_listed(PAYLOAD_TYPES)}) AND content IS NOT NULL
         AND content <> '' THEN content END AS raw_payload{go}
  FROM miner_rows""",
        ),
        (
            "miner_parsed",
            f"""
  SELECT *, {parsed_fields("raw_payload", fields)} AS fields
  FROM miner_typed""",
        ),
        (
            "miner_checked",
            f"""
  SELECT *,
    CASE WHEN fields IS NOT NULL THEN raw_payload
         WHEN json_valid(raw_payload) THEN raw_payload END AS payload,
    raw_payload IS NOT NULL AND (
      CASE WHEN fields IS NOT NULL THEN false ELSE NOT json_valid(raw_payload) END
      OR CASE WHEN raw_payload LIKE '{{"%' THEN false
              ELSE regexp_matches(raw_payload, {_text(_DEEP)}) END
    ) AS bad_payload
  FROM miner_parsed""",
        ),
    ]
    if go_rows:
        steps += [
            (
                # Whether a Go EVENT row holds the model's tool calls, once: the
                # answer's text and the kind both read it (a search of the whole
                # payload each time). A CASE, not an AND: DuckDB computes both
                # sides of an AND in a select list, and searched every payload
                # (0.12-0.14 s of the view's CPU over 5M Python rows, none of them
                # EVENT rows); a CASE branch runs on the rows that take it only.
                "miner_called",
                f"""
  SELECT *, CASE WHEN raw_type = 'EVENT' THEN coalesce({_GO_CALLS}, false) ELSE false END
    AS model_calls
  FROM miner_checked""",
            ),
            (
                # A Go model answer's text, once: the kind and the text both read
                # it (computed in each, every answer's part list was parsed eight
                # times, 0.3 s of the 2.6 s CPU of the events table from 1M Go
                # rows). Not on the rows of tool calls, which are MODEL_CALLS
                # before any answer.
                "miner_answered",
                f"""
  SELECT *,
    CASE WHEN raw_type = 'EVENT' AND fields.role = 'model'
      AND NOT model_calls THEN {_go_texts(" ")} END AS model_text
  FROM miner_called""",
            ),
            (
                "miner_kinded",
                f"""
  SELECT *,
    CASE
      WHEN model_calls THEN 'MODEL_CALLS'
      WHEN model_text IS NOT NULL AND NOT {_GO_RESPONSES} THEN 'AGENT_RESPONSE'
      {_GO_RENAMED}
      ELSE raw_type
    END AS kind,
    CASE WHEN go AND raw_type NOT IN ({_listed(_GO_TOOLLESS)})
           THEN json_extract_string(attributes, '$.tool_name')
         WHEN go THEN NULL
         WHEN raw_type IN ({_listed(_TOOL_TYPES)}) THEN fields.tool
    END AS tool
  FROM miner_answered""",
            ),
        ]
    else:
        steps.append(
            (
                "miner_kinded",
                f"""
  SELECT *, raw_type AS kind,
    CASE WHEN raw_type IN ({_listed(_TOOL_TYPES)}) THEN fields.tool END AS tool
  FROM miner_checked""",
            )
        )

    def of_go(when: str, then: str) -> str:
        """A CASE branch taken by Go rows only: none without them."""
        return f"WHEN {when} AND go THEN {then}\n    " if go_rows else ""

    summary = """raw_payload LIKE '%"text_summary"%'"""
    python = (
        f"WHEN (event_id IS NOT NULL AND NOT (raw_type = 'AGENT_RESPONSE' AND {summary}))\n"
        f"      OR (raw_type = 'AGENT_RESPONSE' AND raw_payload IS NOT NULL AND NOT {summary})"
    )
    go_message = of_go("kind = 'USER_MESSAGE_RECEIVED'", _go_texts(" | "))
    go_answer = of_go("kind = 'AGENT_RESPONSE'", "model_text")
    go_args = of_go("kind = 'TOOL_STARTING'", "payload")
    go_result = of_go("kind = 'TOOL_COMPLETED'", "payload")
    go_transfer = of_go(
        "kind = 'TOOL_STARTING' AND tool = 'transfer_to_agent'",
        "json_extract_string(payload, '$.agent_name')",
    )
    steps.append(
        (
            "events",
            f"""SELECT
  session_id,
  invocation_id,
  ts,
  raw_type,
  kind,
  CASE
    {"WHEN go THEN 'go'" if go_rows else ""}
    {python} THEN 'python'
    ELSE 'java'
  END AS dialect,
  status,
  error_message,
  CASE WHEN session_id IS NULL OR bad_payload THEN source_file END AS source_file,
  bad_payload,
  CASE WHEN bad_payload THEN raw_payload END AS bad_text,
  CASE
    {go_message}WHEN kind = 'USER_MESSAGE_RECEIVED' THEN coalesce(
      fields.text_summary,
      CASE WHEN payload LIKE '"%' THEN json_extract_string(payload, '$') END)
    {go_answer}WHEN kind = 'AGENT_RESPONSE' THEN coalesce(fields.text_summary, fields.response)
  END AS text,
  tool,
  CASE {go_args}WHEN kind = 'TOOL_STARTING' THEN coalesce(fields.args, {_json_null("args")})
  END AS args,
  CASE {go_result}WHEN kind = 'TOOL_COMPLETED' THEN coalesce(fields.result, {_json_null("result")})
  END AS result,
  CASE
    WHEN kind = 'AGENT_TRANSFER' THEN fields.to_agent
    {go_transfer}WHEN kind = 'TOOL_STARTING' AND tool = 'transfer_to_agent'
      THEN json_extract_string(payload, '$.args.agent_name')
  END AS transfer_to,
  CASE WHEN kind IN ('INVOCATION_COMPLETED', 'INVOCATION_ERROR')
    THEN TRY_CAST(json_extract_string(latency_ms, '$.total_ms') AS DOUBLE) END AS total_ms
FROM miner_kinded""",
        )
    )
    return tuple(steps)


#: The view over rows of every plugin (``events_ctes``).
EVENTS_CTES: tuple[tuple[str, str], ...] = events_ctes()
