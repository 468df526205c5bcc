"""``miner replay``: run the agent on a suite, offline, with the mined tool
fixtures, and record each run as an analytics export ``miner score`` reads.

For each case and run: a fresh ADK session from the case's ``session_input``
(app name, user id, starting state), then each user turn in order through
ADK's ``Runner``. Two plugins ride along:

- ``FixturePlugin`` answers every tool call from the case's tool fixtures in
  its ``before_tool_callback`` (ADK's own way to stand in for a tool): the
  first unused fixture of the same tool whose arguments match under the
  case's argRules, so a repeated call gets the recorded results in order. A
  fixture recorded as a raised error is served as ``{"status": "error",
  "error": <message>}``: a plugin cannot raise through ADK's tool-error path.
  A call with no fixture gets an error result saying so and is reported, or
  runs the real tool with ``--live-tools``. ``transfer_to_agent`` always runs
  for real: it is how sub-agents take over, and it has no effect outside.
- ADK's own BigQuery Agent Analytics plugin records the run, its network
  clients replaced by in-memory ones, so the rows are exactly the plugin's;
  nothing reaches the agent's analytics table.

Each finished case is written at once to ``<out>/run-<n>/<eval_id>.parquet``
(atomically), with session id ``<eval_id>__run<n>``: stopping the command
leaves every finished run usable, and ``miner score --traces <out>`` scores
each ``run-<n>`` folder as one run. A replay into an ``--out`` that already
holds runs numbers its own after them (run-4.. after run-1..3), so an earlier
replay is never written over. What ADK logs while the agent runs (its
context-cache notice, "Skipping missing token usage metadata") goes to
``<out>/run-<n>/_adk.log``, not the terminal.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

from miner.case import LoadedCase, expected_turns
from miner.errors import OutputError, UsageError
from miner.score import args_match

#: The suffix naming a replayed session's run: ``<eval_id>__run<n>``.
RUN_SUFFIX = "__run"


def load_agent(spec: str, folder: Path | None = None) -> Any:
    """``package.module:attribute`` -> the agent object it names.

    Modules are found in ``folder`` (default: the working folder) first, then
    among the installed packages, as ADK's own ``adk run`` and ``adk web``
    find agents: a team's ``my_agent/agent.py`` needs no install and no
    PYTHONPATH."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise UsageError(f"--agent {spec!r}: expected package.module:attribute")
    where = str((folder or Path.cwd()).resolve())
    if where not in sys.path:
        sys.path.insert(0, where)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or module_name
        if module_name == missing or module_name.startswith(f"{missing}."):
            raise UsageError(
                f"--agent {spec!r}: no module {missing} in the working folder ({where}) "
                "or the installed packages"
            ) from None
        raise UsageError(
            f"--agent {spec!r}: {module_name} imports {missing}, which is not installed"
        ) from None
    except ImportError as exc:
        raise UsageError(f"--agent {spec!r}: cannot import {module_name} ({exc.name})") from None
    except Exception as exc:  # the agent's own code failed while it was imported
        raise UsageError(
            f"--agent {spec!r}: importing {module_name} raised {type(exc).__name__} "
            "(run `python -c 'import " + module_name + "'` to see it)"
        ) from None
    agent = getattr(module, attribute, None)
    if agent is None:
        raise UsageError(f"--agent {spec!r}: {module_name} has no {attribute}")
    return agent() if callable(agent) and not hasattr(agent, "sub_agents") else agent


@dataclass
class CaseReplay:
    eval_id: str
    run: int
    served: int = 0
    unserved: list[str] = field(default_factory=list)
    """Tools called with no matching fixture (names only)."""
    turns_without_answer: int = 0
    seconds: float = 0.0


class Fixtures:
    """A case's recorded tool calls, handed out once each."""

    def __init__(self, case: LoadedCase) -> None:
        self.calls = [dict(c) for c in (case.tools or {}).get("calls", []) if isinstance(c, dict)]
        self.used = [False] * len(self.calls)
        self.rules = (case.spec or {}).get("argRules") or {}

    def serve(self, tool: str, args: dict[str, Any]) -> dict[str, Any] | None:
        for i, call in enumerate(self.calls):
            if self.used[i] or call.get("tool") != tool:
                continue
            if args_match(call.get("args") or {}, args, self.rules.get(tool, {})):
                self.used[i] = True
                if "error" in call:
                    return {"status": "error", "error": call["error"]}
                result = call.get("result")
                return result if isinstance(result, dict) else {"result": result}
        return None


def _fixture_plugin(fixtures: Fixtures, replay: CaseReplay, live_tools: bool) -> Any:
    from google.adk.plugins.base_plugin import BasePlugin

    class FixturePlugin(BasePlugin):  # type: ignore[misc]
        async def before_tool_callback(
            self, *, tool: Any, tool_args: dict[str, Any], tool_context: Any
        ) -> dict[str, Any] | None:
            if tool.name == "transfer_to_agent":
                return None
            served = fixtures.serve(tool.name, dict(tool_args))
            if served is not None:
                replay.served += 1
                return served
            replay.unserved.append(tool.name)
            if live_tools:
                return None
            return {
                "status": "error",
                "error": f"miner replay: no tool fixture for {tool.name} with these arguments",
            }

    return FixturePlugin(name="miner_fixtures")


class _MemoryWriteClient:
    """Stands in for BigQueryWriteAsyncClient: keeps the plugin's record batches."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.transport = mock.AsyncMock()
        self.requests: list[Any] = []
        _MemoryWriteClient.last = self

    async def create_write_stream(self, *args: Any, **kwargs: Any) -> Any:
        return mock.MagicMock(name="stream")

    async def append_rows(self, requests: Any, **kwargs: Any) -> Any:
        if hasattr(requests, "__aiter__"):
            async for r in requests:
                self.requests.append(r)
        else:
            self.requests.extend(requests)

        async def responses() -> Any:
            response = mock.MagicMock()
            response.row_errors = []
            response.error.code = 0
            response.HasField.return_value = False
            yield response

        return responses()

    async def finalize_write_stream(self, *args: Any, **kwargs: Any) -> Any:
        return mock.MagicMock(row_count=0)

    async def batch_commit_write_streams(self, *args: Any, **kwargs: Any) -> Any:
        response = mock.MagicMock()
        response.stream_errors = []
        return response

    last: Any = None


@contextlib.contextmanager
def recording_plugin(
    max_content_length: int | None = None,
) -> Iterator[tuple[Any, Callable[[], list[dict[str, Any]]]]]:
    """ADK's analytics plugin writing to memory; yields it and a function that
    returns (and forgets) the rows written so far. The sample traces and the
    golden exports are made with it too."""
    import google.auth
    from google.adk.plugins import bigquery_agent_analytics_plugin as bq
    from google.auth.credentials import AnonymousCredentials

    with (
        mock.patch.object(google.auth, "default", return_value=(AnonymousCredentials(), "replay")),
        mock.patch.object(bq.bigquery, "Client", autospec=True),
        mock.patch.object(bq, "BigQueryWriteAsyncClient", _MemoryWriteClient),
    ):
        options: dict[str, Any] = {"create_views": False, "batch_size": 1}
        if max_content_length is not None:
            options["max_content_length"] = max_content_length
        plugin = bq.BigQueryAgentAnalyticsPlugin(
            project_id="miner-replay",
            dataset_id="replay",
            config=bq.BigQueryLoggerConfig(**options),
        )

        def rows() -> list[dict[str, Any]]:
            import pyarrow as pa

            client = _MemoryWriteClient.last
            out: list[dict[str, Any]] = []
            for request in client.requests if client else []:
                data = request.arrow_rows.rows.serialized_record_batch
                if not data:
                    continue
                raw = request.arrow_rows.writer_schema.serialized_schema
                schema = pa.ipc.read_schema(pa.py_buffer(raw)) if raw else None
                out.extend(pa.ipc.read_record_batch(pa.py_buffer(data), schema).to_pylist())
            client.requests.clear() if client else None
            return out

        yield plugin, rows


async def _replay_case(
    agent: Any,
    case: LoadedCase,
    run: int,
    recorder: Any,
    live_tools: bool,
) -> CaseReplay:
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    replay = CaseReplay(case.eval_id, run)
    started = time.perf_counter()
    session_input = case.case.get("session_input") or {}
    app_name = str(session_input.get("app_name") or "app")
    user_id = str(session_input.get("user_id") or "eval-user")
    fixtures = Fixtures(case)
    runner = Runner(
        app_name=app_name,
        agent=agent,
        session_service=InMemorySessionService(),
        plugins=[recorder, _fixture_plugin(fixtures, replay, live_tools)],
    )
    session = await runner.session_service.create_session(
        app_name=app_name,
        user_id=user_id,
        session_id=f"{case.eval_id}{RUN_SUFFIX}{run}",
        state=dict(session_input.get("state") or {}),
    )
    for turn in expected_turns(case.case):
        message = types.Content(role="user", parts=[types.Part(text=turn.user)])
        answered = False
        try:
            async for event in runner.run_async(
                user_id=user_id, session_id=session.id, new_message=message
            ):
                if event.is_final_response() and event.content and event.content.parts:
                    answered = answered or any(p.text for p in event.content.parts)
        except Exception:  # noqa: BLE001 - the agent's own failure is part of the run
            answered = False
        replay.turns_without_answer += 0 if answered else 1
    await recorder.flush()
    replay.seconds = time.perf_counter() - started
    return replay


def as_export(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The plugin's rows with their JSON columns as strings, as a BigQuery
    export holds them (the sample traces and golden exports use it too)."""
    out = []
    for row in rows:
        row = dict(row)
        for column in ("content", "attributes", "latency_ms"):
            value = row.get(column)
            if value is not None and not isinstance(value, str):
                row[column] = json.dumps(value)
        out.append(row)
    return out


_RUN_FOLDER = re.compile(r"run-(\d+)")

#: ADK's loggers, whose notices go to the run's log file during a replay.
ADK_LOGGERS = ("google_adk", "google_genai")
#: The log file in each run folder. The leading underscore: Parquet dataset
#: readers (pyarrow, Spark) skip such files, so the folder stays an export.
ADK_LOG = "_adk.log"


def first_free_run(out: Path) -> int:
    """The number after the last ``run-<n>`` folder in ``out`` (1 if none)."""
    taken = [
        int(m.group(1))
        for p in (out.iterdir() if out.is_dir() else [])
        if p.is_dir() and (m := _RUN_FOLDER.fullmatch(p.name))
    ]
    return max(taken, default=0) + 1


class _Held(logging.Handler):
    """Keeps log lines until the case they belong to is written."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))

    def take(self) -> list[str]:
        lines, self.lines = self.lines, []
        return lines


@contextlib.contextmanager
def _adk_logs_held() -> Iterator[_Held]:
    """ADK's log records go to a held list instead of the terminal."""
    held = _Held()
    loggers = [logging.getLogger(name) for name in ADK_LOGGERS]
    saved = [(lg.propagate, lg.level) for lg in loggers]
    for lg in loggers:
        lg.addHandler(held)
        lg.propagate = False
        if lg.level == logging.NOTSET:
            lg.setLevel(logging.INFO)
    try:
        yield held
    finally:
        for lg, (propagate, level) in zip(loggers, saved, strict=True):
            lg.removeHandler(held)
            lg.propagate, lg.level = propagate, level


def _append_log(path: Path, lines: list[str]) -> None:
    if not lines:
        return
    try:
        with path.open("a", encoding="utf-8") as log:
            log.write("".join(f"{line}\n" for line in lines))
    except OSError as exc:
        raise OutputError(f"{path}: cannot write ({exc.strerror})") from None


def replay_suite(
    agent: Any,
    cases: Iterable[LoadedCase],
    runs: int,
    out: Path,
    live_tools: bool = False,
    write: Callable[[Path, list[dict[str, Any]]], None] | None = None,
    progress: Callable[[Iterable[Any], int, str], Iterable[Any]] = lambda it, _n, _l: it,
    lock_timeout: float = 0,
) -> list[CaseReplay]:
    """Replay every case ``runs`` times into the run folders after those
    ``out`` already holds; each finished case is written at once, then the
    ADK log lines of its run are appended to that run's ``_adk.log``.

    ``out`` is locked while the replay runs (``output.locked``): two replays
    into one folder would otherwise both take the first free run number and
    write into each other's runs."""
    from miner import output

    write = write or output.write_rows
    cases = list(cases)
    with output.locked(out, lock_timeout, "miner replay"):
        return _replay_into(agent, cases, runs, out, live_tools, write, progress)


def _replay_into(
    agent: Any,
    cases: list[LoadedCase],
    runs: int,
    out: Path,
    live_tools: bool,
    write: Callable[[Path, list[dict[str, Any]]], None],
    progress: Callable[[Iterable[Any], int, str], Iterable[Any]],
) -> list[CaseReplay]:
    first = first_free_run(out)
    work = [(run, case) for run in range(first, first + runs) for case in cases]

    async def replay_all() -> list[CaseReplay]:
        done: list[CaseReplay] = []
        with _adk_logs_held() as logs, recording_plugin() as (recorder, rows):
            for run, case in progress(work, len(work), "replaying (cases)"):
                replay = await _replay_case(agent, case, run, recorder, live_tools)
                folder = out / f"run-{run}"
                write(folder / f"{case.eval_id}.parquet", as_export(rows()))
                _append_log(folder / ADK_LOG, logs.take())
                done.append(replay)
            await recorder.shutdown()
            if done:
                _append_log(out / f"run-{done[-1].run}" / ADK_LOG, logs.take())
        return done

    return asyncio.run(replay_all())
