"""``error``: the session hit an error.

Any ``*_ERROR`` row (a raised tool error, a model error: ``llm_error`` is part
of this signal), any row with status ERROR, or a TOOL_COMPLETED whose result
reports a failure (``{"status": "error"}`` or a non-empty ``error`` key;
configurable): the plugins log a tool that *returned* a failure as a success.
One reason per turn, the most telling (the Python plugin logs a raised tool
error on four rows, the Java plugin on one).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator

from miner.dialects import ERROR_EVENT_TYPES
from miner.engine.sql import key_path, listed, one_of, text, unreadable_key
from miner.signals import Signal, SignalConfig, Strings, as_tuple


def _readable(key: str) -> str:
    why = unreadable_key(key)
    if why:
        raise ValueError(f"{key!r}: no engine reads it alike as a key ({why})")
    return key


#: A key of a tool's result, read as a key by every engine (a dot in it
#: no step down; ``miner.engine.sql.key_path``).
ResultKey = Annotated[str, AfterValidator(_readable)]


class ErrorConfig(SignalConfig):
    result_keys: Annotated[tuple[ResultKey, ...], BeforeValidator(as_tuple)] = ("error",)
    """A tool result (a JSON object) with a non-empty value under one of these keys failed
    (a key as it is: "error.code" is that key, not "code" under "error"). Empty: null, false,
    0, "", [] and {}; a string is not, whatever it spells ("0", "false", "null")."""
    status_key: ResultKey = "status"
    """... and so did one whose value under this key is one of status_values."""
    status_values: Strings = ("error", "failed", "failure")
    """Status values (case-insensitive) that mean a tool call failed."""


def result_failed(result: Any, rules: ErrorConfig) -> bool:
    """A TOOL_COMPLETED result that reports a failure under the configured
    rule, for one parsed result (what ``Error.sql`` decides in the engine)."""
    if not isinstance(result, dict):
        return False
    for key in rules.result_keys:
        if result.get(key) not in _NOTHING:
            return True
    status = result.get(rules.status_key)
    return isinstance(status, str) and status.lower() in _lowered(rules.status_values)


#: Values under an error key that report no error (compared with ==, so 0
#: too). A string is a failure, whatever it spells: "0", "false", "null".
_NOTHING: tuple[Any, ...] = (None, "", False, [], {})
#: The same as every engine reads them: as JSON text (a string quoted:
#: ``miner.engine.query`` renders Spark's read so), 0 as JSON writes it.
_NOTHING_AS_TEXT = (*(json.dumps(value) for value in _NOTHING), "0", "0.0", "-0", "-0.0")


@cache
def _lowered(values: tuple[str, ...]) -> frozenset[str]:
    return frozenset(value.lower() for value in values)


#: The rules, the most telling first.
RULES = (
    "a tool raised an error",
    "a model call failed",
    "a tool returned a failure",
    "the agent run failed",
    "a row with status ERROR",
)
_RUN_FAILED = [k for k in ERROR_EVENT_TYPES if k not in ("TOOL_ERROR", "LLM_ERROR")]


class Error(Signal):
    name = "error"
    order = 0
    kinds = (*ERROR_EVENT_TYPES, "TOOL_COMPLETED")
    all_rows = True
    Config = ErrorConfig

    def _error_keys(self) -> tuple[str, ...]:
        """The result keys a non-empty value under which is a failure, each
        once: ``error_result``'s first items."""
        return tuple(dict.fromkeys(self.config.result_keys))

    def _read_keys(self) -> tuple[str, ...]:
        """The keys of a result the rule reads, in ``error_result``'s order:
        each error key, then the status key (if there are status values to
        compare it with)."""
        keys = self._error_keys()
        return (*keys, self.config.status_key) if self.config.status_values else keys

    def row_columns(self) -> dict[str, str]:
        # A completed call's result parsed once for all the keys the rule
        # reads (a JSON path each, in a list), not once a key: 0.25 s of
        # CPU a million results, each key. A list, not a struct named by
        # the keys: DuckDB's names ignore case, JSON's keys do not.
        keys = self._read_keys()
        if not keys:
            return {}
        paths = ", ".join(key_path(key) for key in keys)
        parsed = f"json_extract(result, [{paths}])"
        return {"error_result": f"CASE WHEN kind = 'TOOL_COMPLETED' THEN {parsed} END"}

    def failed(self) -> str:
        """SQL: a completed call's ``result`` (``error_result``, the values
        of the keys the rule reads, as JSON) reports a failure."""
        errors = len(self._error_keys())
        tests = [
            f"coalesce(CAST(error_result[{i}] AS VARCHAR), 'null') "
            f"NOT IN ({listed(_NOTHING_AS_TEXT)})"
            for i in range(1, errors + 1)
        ]
        statuses = sorted(_lowered(self.config.status_values))
        if statuses:
            status = f"lower(json_extract_string(error_result[{errors + 1}], '$'))"
            tests.append(one_of(status, statuses))
        return "(" + " OR ".join(tests or ["false"]) + ")"

    def turn_columns(self) -> dict[str, str]:
        rank = (
            "CASE WHEN kind = 'TOOL_ERROR' THEN 0 WHEN kind = 'LLM_ERROR' THEN 1 "
            f"WHEN {one_of('kind', _RUN_FAILED)} THEN 3 WHEN status = 'ERROR' THEN 4 "
            f"WHEN kind = 'TOOL_COMPLETED' AND {self.failed()} THEN 2 END"
        )
        # The most telling rule among the turn's rows (the lowest rank).
        return {"error_best": f"min({rank})"}

    def sql(self) -> str:
        named = " ".join(f"WHEN {i} THEN {text(rule)}" for i, rule in enumerate(RULES))
        return (
            f"SELECT session_id, invocation_id, CASE error_best {named} END AS rule "
            "FROM turns WHERE error_best IS NOT NULL"
        )
