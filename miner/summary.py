"""A draft run's result, as one typed record: ``RunSummary``.

The job (``miner.job``) returns it; the CLI prints it (and ``--json`` prints
``as_json``), the triage pages (``miner.report``) render it, and
``runs/<name>.json`` holds ``as_json`` (its keys are documented in
docs/formats.md). ``RunSummary.from_json`` reads a summary a run wrote,
tolerating older runs' files and hand edits. It holds counts, hashes and
masked, redacted signature texts: never a personal value or a raw session id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

#: Why a flagged session of the window was not drafted, in the order the
#: run decides it, with what each means. A user message not in the export
#: whole makes no case: the case would replay something other than what the
#: user sent.
NOT_DRAFTED_MEANING = {
    "already_drafted": "an earlier run into this folder drafted it (the ledger)",
    "duplicate": "a session of its failure signature was picked instead",
    "over_quota": "the run's quotas (per signal, max cases) ran out before its turn",
    "quarantined": "the leak guard found personal data left in its case, not written",
    "truncated": "a user message of it was cut by the plugin",
    "content_offloaded": "a part of a user message of it was offloaded or not inlined",
}
NOT_DRAFTED_REASONS = tuple(NOT_DRAFTED_MEANING)


@dataclass(frozen=True)
class SignatureGroup:
    """One failure signature of the run: its masked (and redacted) text,
    hash, flagged sessions in the window and how many were drafted."""

    signature: str
    hash: str
    sessions: int
    drafted: int


@dataclass(frozen=True)
class RunSummary:
    """What a draft run found and did."""

    since: datetime | None = None
    until: datetime | None = None
    traces: str = ""
    """The export, as shown (a URI without its query)."""
    seed: int = 0
    sessions_scanned: int = 0
    sessions_in_window: int = 0
    flagged: Mapping[str, int] = field(default_factory=dict)
    """Flagged sessions in the window per signal (a session counts once per signal)."""
    flagged_by_rule: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    signatures: tuple[SignatureGroup, ...] = ()
    """Biggest first."""
    sampled: int = 0
    """Cases drafted."""
    entities_replaced: Mapping[str, int] = field(default_factory=dict)
    quarantined_cases: int = 0
    quarantined_entities: Mapping[str, int] = field(default_factory=dict)
    """Leak guard hits per entity type in the quarantined cases."""
    nlp_model: str = ""
    cases: tuple[str, ...] = ()
    """The drafted cases' folder names, sorted."""
    case_signatures: Mapping[str, str] = field(default_factory=dict)
    """Case folder name -> the hash of its failure signature."""
    rows_read: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """{dialect: {event type as written: rows}}, scanned for signals."""
    not_drafted: Mapping[str, int] = field(default_factory=dict)
    """Flagged sessions in the window not drafted, per reason (``NOT_DRAFTED_REASONS``)."""
    not_drafted_manifest: str = ""
    """The file listing them: a session hash and its reason a line."""
    stale_staging_removed: int = 0
    parts_not_inlined: Mapping[str, int] = field(default_factory=dict)
    warning: str = ""
    case_files_written: int = 0
    triage_page: str = ""

    @property
    def skipped_already_drafted(self) -> int:
        """Flagged sessions an earlier run into the same folder drafted."""
        return self.not_drafted.get("already_drafted", 0)

    def as_json(self) -> dict[str, Any]:
        """The summary as ``runs/<name>.json`` holds it and ``--json`` prints it."""
        value: dict[str, Any] = {
            "window": {
                "since": self.since.isoformat() if self.since else "",
                "until": self.until.isoformat() if self.until else "",
            },
            "traces": self.traces,
            "seed": self.seed,
            "sessions_scanned": self.sessions_scanned,
            "sessions_in_window": self.sessions_in_window,
            "flagged": dict(self.flagged),
            "flagged_by_rule": {s: dict(r) for s, r in self.flagged_by_rule.items()},
            "signatures": [
                {
                    "signature": g.signature,
                    "hash": g.hash,
                    "sessions": g.sessions,
                    "drafted": g.drafted,
                }
                for g in self.signatures
            ],  # fmt: skip
            "skipped_already_drafted": self.skipped_already_drafted,
            "not_drafted": {r: self.not_drafted.get(r, 0) for r in NOT_DRAFTED_REASONS},
            "not_drafted_manifest": self.not_drafted_manifest,
            "sampled": self.sampled,
            "entities_replaced": dict(self.entities_replaced),
            "quarantined": {
                "cases": self.quarantined_cases,
                "entities": dict(self.quarantined_entities),
            },
            "nlp_model": self.nlp_model,
            "cases": list(self.cases),
            "case_signatures": dict(self.case_signatures),
            "rows_read": {d: dict(k) for d, k in self.rows_read.items()},
        }
        if self.stale_staging_removed:
            value["stale_staging_removed"] = self.stale_staging_removed
        if self.parts_not_inlined:
            value["parts_not_inlined"] = dict(self.parts_not_inlined)
        if self.warning:
            value["warning"] = self.warning
        value["case_files_written"] = self.case_files_written
        value["triage_page"] = self.triage_page
        return value

    @classmethod
    def from_json(cls, value: Any) -> RunSummary | None:
        """A summary a run wrote (any version of miner, or edited by hand):
        what has the expected type is read, the rest left at its default;
        None for what is not a JSON object."""
        if not isinstance(value, dict):
            return None
        window = _object(value.get("window"))
        quarantine = _object(value.get("quarantined"))
        not_drafted = dict(_counts(value.get("not_drafted")))
        if "already_drafted" not in not_drafted and _int(value.get("skipped_already_drafted")):
            # Runs before the reasons were recorded counted only this one.
            not_drafted["already_drafted"] = _int(value.get("skipped_already_drafted"))
        return cls(
            since=_time(window.get("since")),
            until=_time(window.get("until")),
            traces=_text(value.get("traces")),
            seed=_int(value.get("seed")),
            sessions_scanned=_int(value.get("sessions_scanned")),
            sessions_in_window=_int(value.get("sessions_in_window")),
            flagged=_counts(value.get("flagged")),
            flagged_by_rule={
                k: _counts(v) for k, v in _object(value.get("flagged_by_rule")).items()
            },
            signatures=tuple(
                SignatureGroup(
                    _text(g.get("signature")),
                    _text(g.get("hash")),
                    _int(g.get("sessions")),
                    _int(g.get("drafted")),
                )
                for g in value.get("signatures") or []
                if isinstance(g, dict)
            ),
            sampled=_int(value.get("sampled")),
            entities_replaced=_counts(value.get("entities_replaced")),
            quarantined_cases=_int(quarantine.get("cases")),
            quarantined_entities=_counts(quarantine.get("entities")),
            nlp_model=_text(value.get("nlp_model")),
            cases=tuple(c for c in value.get("cases") or [] if isinstance(c, str)),
            case_signatures={
                k: v for k, v in _object(value.get("case_signatures")).items() if isinstance(v, str)
            },
            rows_read={k: _counts(v) for k, v in _object(value.get("rows_read")).items()},
            not_drafted=not_drafted,
            not_drafted_manifest=_text(value.get("not_drafted_manifest")),
            stale_staging_removed=_int(value.get("stale_staging_removed")),
            parts_not_inlined=_counts(value.get("parts_not_inlined")),
            warning=_text(value.get("warning")),
            case_files_written=_int(value.get("case_files_written")),
            triage_page=_text(value.get("triage_page")),
        )


def _object(value: Any) -> dict[str, Any]:
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else {}


def _counts(value: Any) -> dict[str, int]:
    return {k: v for k, v in _object(value).items() if type(v) is int}


def _int(value: Any) -> int:
    return value if type(value) is int else 0


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _time(value: Any) -> datetime | None:
    try:
        return datetime.fromisoformat(value) if isinstance(value, str) and value else None
    except ValueError:
        return None
