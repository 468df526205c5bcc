"""``error``: the session hit an error.

Any ``*_ERROR`` row (a raised tool error, a model error: ``llm_error`` is part
of this signal), any row with status ERROR, or a TOOL_COMPLETED whose result
reports a failure (``{"status": "error"}`` or a non-empty ``error`` key;
configurable): the plugins log a tool that *returned* a failure as a success.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from miner.dialects import (
    ERROR_EVENT_TYPES,
    Event,
    arrow_rows,
    raw_event_types,
    read_event,
    text_column,
)
from miner.signals import Reason, Signal, SignalConfig, Strings, tested_on


class ErrorConfig(SignalConfig):
    result_keys: Strings = ("error",)
    """A tool result (a JSON object) with a non-empty value under one of these keys failed."""
    status_key: str = "status"
    """... and so did one whose value under this key is one of status_values."""
    status_values: Strings = ("error", "failed", "failure")
    """Status values (case-insensitive) that mean a tool call failed."""


def result_failed(result: Any, rules: ErrorConfig) -> bool:
    """A TOOL_COMPLETED result that reports a failure under the configured rule."""
    if not isinstance(result, dict):
        return False
    for key in rules.result_keys:
        if result.get(key) not in _NOTHING:
            return True
    status = result.get(rules.status_key)
    return isinstance(status, str) and status.lower() in _lowered(rules.status_values)


#: Values under an error key that report no error (compared with ==, so 0 too).
_NOTHING: tuple[Any, ...] = (None, "", False, [], {})


@cache
def _lowered(values: tuple[str, ...]) -> frozenset[str]:
    return frozenset(value.lower() for value in values)


class Error(Signal):
    name = "error"
    order = 0
    kinds = (*ERROR_EVENT_TYPES, "TOOL_COMPLETED")
    columns = ("error_message",)
    all_rows = True
    Config = ErrorConfig

    def prefilter(self, batch: Any) -> Any:
        # A completed call can report a failure only if its payload names one
        # of the keys or status values; every other row of this signal counts.
        import pyarrow.compute as pc

        if text_column(batch, "content") is None:
            return None
        words = [*(f'"{k}"' for k in self.config.result_keys), *self.config.status_values]
        completed = pc.fill_null(pc.is_in(batch.column("event_type"), value_set=_COMPLETED), False)
        # The words are looked for in the completed calls' payloads alone.
        named = tested_on(
            completed, lambda rows: self.contains_any(batch.filter(rows), "content", words)
        )
        return pc.or_(pc.invert(completed), named)

    def take(self, batch: Any, scratch_of: Any) -> bool:
        # Most of this signal's rows are decided by their type and status
        # alone, on the columns, by the rules ``row`` applies; only a
        # completed call the prefilter keeps is read whole, by ``row``.
        import numpy as np
        import pyarrow as pa
        import pyarrow.compute as pc

        raw = batch.column("event_type")
        rule = np.full(batch.num_rows, -1)
        if "status" in batch.schema.names:
            errored = pc.fill_null(pc.equal(batch.column("status"), "ERROR"), False)
            rule[errored.to_numpy(zero_copy_only=False)] = _RULES.index(_BY_STATUS)
        # The rules by type, the weakest first, so the strongest is left standing.
        for code, typed in _typed_rules():
            found = pc.fill_null(pc.is_in(raw, value_set=typed), False)
            rule[found.to_numpy(zero_copy_only=False)] = code
        decided = np.flatnonzero(rule >= 0)
        if len(decided):
            where = pa.array(decided)
            sids = batch.column("session_id").take(where).to_pylist()
            turns = batch.column("invocation_id").take(where).to_pylist()
            for sid, invocation, code in zip(sids, turns, rule[decided].tolist(), strict=True):
                self._keep(scratch_of(str(sid)), invocation, _RULES[code])
        kept = self.prefilter(batch)
        worth_reading = (
            np.ones(batch.num_rows, dtype=bool)
            if kept is None
            else kept.to_numpy(zero_copy_only=False)
        )
        unread = np.flatnonzero((rule < 0) & worth_reading)
        for row in arrow_rows(batch, unread):
            self.row(read_event(row), row, scratch_of(str(row.session_id)))
        return True

    def row(self, event: Event, row: Any, scratch: dict[Any, Any]) -> Iterable[Reason]:
        rule = _rule_by_type(event.kind, getattr(row, "status", None))
        completed = event.kind == "TOOL_COMPLETED"
        if rule is None and completed and result_failed(event.result, self.config):
            rule = "a tool returned a failure"
        if rule is not None:
            self._keep(scratch, getattr(row, "invocation_id", None), rule)
        return ()

    @staticmethod
    def _keep(scratch: dict[Any, Any], invocation: Any, rule: str) -> None:
        # One reason per turn, the most telling: the Python plugin logs a raised
        # tool error on four rows, the Java plugin on one.
        best = scratch.get(invocation)
        if best is None or _RULES.index(rule) < _RULES.index(best):
            scratch[invocation] = rule

    def finish(self, session_id: str, scratch: dict[Any, Any]) -> Iterable[Reason]:
        if not scratch:
            return ()
        return [
            Reason(self.name, rule, inv if isinstance(inv, str) else None)
            for inv, rule in sorted(scratch.items(), key=lambda item: str(item[0]))
        ]


_COMPLETED = __import__("pyarrow").array(["TOOL_COMPLETED", "TOOL_END"])

_RULES = (
    "a tool raised an error",
    "a model call failed",
    "a tool returned a failure",
    "the agent run failed",
    "a row with status ERROR",
)


#: The rule a row fires by its type alone, in miner's names.
_BY_TYPE: dict[str, str] = {kind: "the agent run failed" for kind in ERROR_EVENT_TYPES} | {
    "TOOL_ERROR": "a tool raised an error",
    "LLM_ERROR": "a model call failed",
}
#: ... and by its status ERROR, when its type says nothing.
_BY_STATUS = "a row with status ERROR"


@cache
def _typed_rules() -> tuple[tuple[int, Any], ...]:
    """Each rule by type, weakest first: its place in ``_RULES`` and the
    event types that fire it, as every plugin writes them (an Arrow array)."""
    import pyarrow as pa

    return tuple(
        (
            _RULES.index(name),
            pa.array(raw_event_types([k for k, r in _BY_TYPE.items() if r == name], False)),
        )
        for name in sorted(set(_BY_TYPE.values()), key=_RULES.index, reverse=True)
    )


def _rule_by_type(kind: str, status: Any) -> str | None:
    """The rule a row fires by its kind and status alone; None where only a
    completed call's result can tell."""
    return _BY_TYPE.get(kind) or (_BY_STATUS if status == "ERROR" else None)
