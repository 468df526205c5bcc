"""Stage 4, draft: one redacted session -> an ADK eval set, a sidecar spec and
the tool fixtures, as JSON-ready dicts (``io`` writes them).

Everything a person must decide carries ``REVIEW`` (docs/formats.md): the eval id,
every reference answer (``REVIEW: <what the agent said>``, since observed
behaviour may be the bug), and the sidecar's protects, mustNotCall,
requiredFacts, forbiddenClaims and one tag. ``match`` defaults to IN_ORDER and
volatile arguments (ids generated per run, timestamps) are pre-set to IGNORE;
those need no decision, so they carry no marker.

The eval set is checked with google-adk's own pydantic model before it is
returned, so a draft that ADK would refuse is never written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from miner.case import MARKER, SPEC, case_file_names, draft_name
from miner.config import PipelineConfig
from miner.errors import MinerError
from miner.model import Session
from miner.redaction.surfaced import Surfaced

_UUID = re.compile(
    r"^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$"
)
_ISO_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")

FAILURE_CLASSES = (
    "happy_path, disambiguation, out_of_scope, authorisation, tool_failure, "
    "policy, injection, multi_turn"
)


@dataclass(frozen=True)
class DraftedCase:
    """The files of one drafted case, by file name, as JSON-ready values."""

    set_id: str
    eval_id: str
    files: dict[str, Any]


@dataclass(frozen=True)
class Provenance:
    session_hash: str
    signals: frozenset[str]
    since: datetime
    until: datetime
    drafted_at: datetime
    reasons: tuple[tuple[str, str, str | None], ...] = ()
    """(signal, rule, invocation id) of every hit that flagged the session."""


def _volatile(name: str, value: Any, volatile_names: set[str]) -> bool:
    if name.lower() in volatile_names:
        return True
    return isinstance(value, str) and bool(_UUID.match(value) or _ISO_TIME.match(value))


def arg_rules(session: Session, config: PipelineConfig) -> dict[str, dict[str, str]]:
    """argRules with the volatile arguments of every call set to IGNORE."""
    names = {n.lower() for n in config.draft.volatile_args}
    rules: dict[str, dict[str, str]] = {}
    for turn in session.turns:
        for call in turn.tool_calls:
            for arg, value in call.args.items():
                if _volatile(arg, value, names):
                    rules.setdefault(call.name, {})[arg] = "IGNORE"
    return rules


def eval_set(session: Session, set_id: str, eval_id: str, prov: Provenance) -> dict[str, Any]:
    signals = ", ".join(sorted(prov.signals))
    conversation = []
    for index, turn in enumerate(session.turns, start=1):
        observed = turn.reply_text or "(no reply: the turn ended without an agent response)"
        conversation.append(
            {
                "invocation_id": f"t{index}",
                "user_content": {"role": "user", "parts": [{"text": turn.user_text}]},
                "final_response": {
                    "role": "model",
                    "parts": [{"text": f"{MARKER}: {observed}"}],
                },
                "intermediate_data": {
                    "tool_uses": [{"name": c.name, "args": c.args} for c in turn.tool_calls]
                },
            }
        )
    return {
        "eval_set_id": set_id,
        "name": set_id,
        "description": (
            f"Drafted by miner from session {prov.session_hash} (flagged: {signals}). "
            f"{MARKER}: say what behaviour this case protects."
        ),
        "eval_cases": [
            {
                "eval_id": eval_id,
                "session_input": {
                    "app_name": session.app_name,
                    "user_id": session.user_id,
                    "state": session.initial_state,
                },
                "conversation": conversation,
            }
        ],
    }


def sidecar(
    session: Session, eval_id: str, prov: Provenance, config: PipelineConfig, source: list[str]
) -> dict[str, Any]:
    tools = list(dict.fromkeys(c.name for t in session.turns for c in t.tool_calls))
    seen = ", ".join(tools) or "none"
    tags = sorted(prov.signals) + tools
    if any(t.truncated for t in session.turns):
        tags.append("truncated")
    tags.append(f"{MARKER}: add the failure class ({FAILURE_CLASSES}) and a priority (p0, p1, p2)")
    return {
        "evalId": eval_id,
        "protects": f"{MARKER}: one sentence: the behaviour this case protects",
        "match": config.draft.match,
        "argRules": arg_rules(session, config),
        "mustNotCall": [f"{MARKER}: tools that must not be called here (called: {seen})"],
        "requiredFacts": [f"{MARKER}: facts the answer must contain (ids, amounts, dates)"],
        "forbiddenClaims": [f"{MARKER}: claims the answer must never make"],
        "tags": tags,
        "provenance": {
            "signals": sorted(prov.signals),
            "sessionHash": prov.session_hash,
            "window": {"since": prov.since.isoformat(), "until": prov.until.isoformat()},
            "sourceFiles": source,
            "draftedAt": prov.drafted_at.isoformat(),
            "signalReasons": _reasons(session, prov),
            **_not_inlined(session),
            # The flagged session itself (redacted, fixtured), so `miner check`
            # can tell when a reviewed expectation still passes on it.
            "observed": {
                "turns": [
                    {
                        "user": t.user_text,
                        "answer": t.reply_text,
                        "toolUses": [{"name": c.name, "args": c.args} for c in t.tool_calls],
                    }
                    for t in session.turns
                ]
            },
        },
    }


def _reasons(session: Session, prov: Provenance) -> list[dict[str, str]]:
    """Why the session was flagged, each hit with the turn it fired on (t1...),
    by signal and then in turn order (not by the raw invocation ids, which
    are random: the same session would list its hits in any order)."""
    turn = {t.invocation_id: i for i, t in enumerate(session.turns, start=1)}

    def at(inv: str | None) -> int:
        return turn.get(inv, 0) if inv is not None else 0

    ordered = sorted(prov.reasons, key=lambda r: (r[0], at(r[2]), r[1]))
    return [
        {"signal": signal, "rule": rule, **({"turn": f"t{at(inv)}"} if at(inv) else {})}
        for signal, rule, inv in ordered
    ]


def _not_inlined(session: Session) -> dict[str, Any]:
    """Parts the plugin wrote as a stand-in ([BINARY DATA]...), per turn: the
    draft's texts lack them, and a reviewer should know."""
    turns = [
        {"invocationId": f"t{i}", "markers": list(t.markers)}
        for i, t in enumerate(session.turns, start=1)
        if t.markers
    ]
    return {"partsNotInlined": turns} if turns else {}


def tool_fixtures(session: Session, eval_id: str) -> dict[str, Any]:
    """What the tools returned, redacted, for a harness to serve instead of live tools."""
    calls = []
    for index, turn in enumerate(session.turns, start=1):
        for call in turn.tool_calls:
            entry: dict[str, Any] = {"invocationId": f"t{index}", "tool": call.name}
            if call.agent:
                entry["agent"] = call.agent
            entry["args"] = call.args
            if call.error is not None:
                entry["error"] = call.error
            else:
                entry["result"] = call.result
            calls.append(entry)
    errors = [
        {"invocationId": f"t{i}", "messages": list(t.errors)}
        for i, t in enumerate(session.turns, start=1)
        if t.errors
    ]
    return {"evalId": eval_id, "calls": calls, "turnErrors": errors}


def draft_case(
    session: Session, prov: Provenance, config: PipelineConfig, source: list[str]
) -> DraftedCase:
    """A redacted, fixtured session -> the files of its drafted case."""
    set_id = draft_name(prov.session_hash)
    signals = "_".join(sorted(prov.signals)) or "flagged"
    eval_id = f"{MARKER}_name_this_case_{signals}_{prov.session_hash[:8]}"
    evalset = eval_set(session, set_id, eval_id, prov)
    validate_eval_set(evalset, set_id)
    names = case_file_names(set_id)
    return DraftedCase(
        set_id=set_id,
        eval_id=eval_id,
        files={
            names[0]: evalset,
            names[1]: sidecar(session, eval_id, prov, config, source),
            names[2]: tool_fixtures(session, eval_id),
        },
    )


def record_redaction(
    files: dict[str, Any], not_personal: tuple[str, ...], surfaced: tuple[Surfaced, ...] = ()
) -> None:
    """Write the redaction's decisions into the sidecar's provenance: the
    phrases it decided name things, the values it surfaced for the reviewer
    (``kept`` starts empty: the reviewer's to fill), and the digest of every
    string of the case (all vetted by redaction and the leak guard). ``miner
    check`` does not guess again on a string miner wrote; an edited or pasted
    one it reads. The digests are taken with every placeholder and surfaced
    value as one token (``miner.redaction.surfaced.vetted_digest``), so a
    surfaced value the reviewer replaces with a placeholder leaves its string
    vetted."""
    from miner.redaction.guard import json_strings
    from miner.redaction.surfaced import sidecar_entries, vetted_digest

    spec = next(v for k, v in files.items() if k.endswith(SPEC))
    # Provenance is the check's to skip, not to read: its strings (source
    # files, the window) are left out, so the same session drafts the same
    # digests from any export of it.
    read = [v if v is not spec else {k: x for k, x in v.items() if k != "provenance"}
            for v in files.values()]  # fmt: skip
    strings = [s for s in json_strings(read) if s.strip()]
    # A reference answer as the reviewer finds it once the draft's marker is
    # taken off ("REVIEW: <what the agent said>" -> "<what the agent said>"):
    # the same vetted text, so the check does not read it with NER again (the
    # model guessed differently once the marker changed its context). Any
    # edit of it makes another string, which the check reads.
    marker = f"{MARKER}: "
    strings += [s.removeprefix(marker) for s in strings if s.startswith(marker)]
    values = [s.value for s in surfaced]
    vetted = sorted({vetted_digest(s, values) for s in strings if s.strip()})
    spec["provenance"]["redaction"] = {
        "notPersonal": list(not_personal),
        "surfaced": sidecar_entries(surfaced),
        "kept": [],
        "vetted": vetted,
    }


def validate_eval_set(evalset: dict[str, Any], set_id: str) -> None:
    """Refuse, as a bug of miner's, an eval set that ADK's own model rejects."""
    from pydantic import ValidationError

    from miner.loading import adk_eval_set

    try:
        adk_eval_set().model_validate(evalset)
    except ValidationError as exc:
        where = "; ".join(".".join(str(p) for p in e["loc"]) for e in exc.errors()[:3])
        raise MinerError(
            f"{set_id}: drafted eval set fails ADK's EvalSet schema at {where}"
        ) from None


def validate_test_config(config: dict[str, Any]) -> None:
    """Refuse, as a bug of miner's, a test_config.json ADK's own ``EvalConfig``
    rejects or whose trajectory criterion its evaluator cannot read."""
    from google.adk.evaluation.eval_config import EvalConfig, get_eval_metrics_from_config
    from google.adk.evaluation.eval_metrics import ToolTrajectoryCriterion
    from pydantic import ValidationError

    try:
        for metric in get_eval_metrics_from_config(EvalConfig.model_validate(config)):
            if metric.metric_name == "tool_trajectory_avg_score" and metric.criterion:
                ToolTrajectoryCriterion.model_validate(metric.criterion.model_dump())
    except ValidationError as exc:
        where = "; ".join(".".join(str(p) for p in e["loc"]) for e in exc.errors()[:3])
        raise MinerError(f"test_config.json fails ADK's EvalConfig schema at {where}") from None
