"""The draft job: read -> sample -> redact -> fixtures -> draft -> write.

This module only wires the stages; each stage lives in its own module, the
exports are read in ``miner.source`` and the output written in
``miner.output``. Everything is computed before anything is written, so bad
input stops the run with no output at all.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from miner import output, source
from miner.case import draft_name
from miner.config import PipelineConfig
from miner.dialects import KNOWN_EVENT_TYPES
from miner.draft import Provenance, draft_case, record_redaction
from miner.engine.base import Progress, no_progress
from miner.errors import InputError
from miner.first_stage import Selected
from miner.fixtures import apply_fixtures
from miner.loading import release_freed_memory
from miner.model import SIGNALS
from miner.redaction.guard import json_strings
from miner.redaction.surfaced import normalised
from miner.report import runs_index_html, triage_html
from miner.sample import (
    NotDrafted,
    session_hash,
    signature_hash,
)
from miner.summary import RunSummary, SignatureGroup
from miner.traces import (
    DRAFT_COLUMNS,
    ReadStats,
    build_sessions,
    incomplete_input,
    readability,
)
from miner.window import Window

if TYPE_CHECKING:
    from miner.redaction.policy import RedactionPolicy


@dataclass(frozen=True)
class DraftContext:
    """What drafting a session needs besides its rows: shipped to the
    engine's workers (Spark's executors) as it is."""

    config: PipelineConfig
    traces: Path | str
    since: datetime
    until: datetime
    now: datetime
    signals_of: dict[str, frozenset[str]]
    reasons_of: dict[str, tuple[tuple[str, str, str | None], ...]]


@dataclass
class Drafted:
    """Drafted cases and what drafting them counted; partial results merge."""

    cases: dict[str, dict[str, Any]] = field(default_factory=dict)
    replaced: Counter[str] = field(default_factory=Counter)
    quarantined: Counter[str] = field(default_factory=Counter)
    quarantined_ids: set[str] = field(default_factory=set)
    declined: dict[str, str] = field(default_factory=dict)
    """Sessions that make no case (``incomplete_input``): id -> why."""
    stats: ReadStats = field(default_factory=ReadStats)

    def merge(self, other: Drafted) -> Drafted:
        self.cases.update(other.cases)
        self.replaced.update(other.replaced)
        self.quarantined.update(other.quarantined)
        self.quarantined_ids |= other.quarantined_ids
        self.declined.update(other.declined)
        self.stats.merge(other.stats)
        return self


def draft_sessions(
    events: pd.DataFrame,
    context: DraftContext,
    policy: RedactionPolicy,
    progress: Progress = no_progress,
) -> Drafted:
    """The picked sessions' rows -> drafted cases: build, redact, fixtures,
    draft, leak guard, all by ``policy``. Pure, so it runs in this process or
    on a Spark executor alike (each executor builds its policy once per
    process: ``policy_for``)."""
    config = context.config
    out = Drafted()
    sessions = []
    for session in build_sessions(events, config.agent.app_name, out.stats):
        cut = incomplete_input(session)
        if cut:
            out.declined[session.session_id] = cut
        else:
            sessions.append(session)

    def redaction_progress(items: Iterable[Any], total: int) -> Iterable[Any]:
        return progress(items, total, "redacting (distinct strings)")

    redacted = policy.redact(sessions, redaction_progress)
    for item in progress(redacted, len(redacted), "drafting (cases)"):
        out.replaced.update(item.replaced)
        session = apply_fixtures(item.session, config.fixtures)
        prov = Provenance(
            session_hash=session_hash(item.session.session_id),
            signals=context.signals_of[item.session.session_id],
            reasons=context.reasons_of[item.session.session_id],
            since=context.since,
            until=context.until,
            drafted_at=context.now,
        )
        source = [_relative(f, context.traces) for f in item.session.source_files]
        case = draft_case(session, prov, config, source)
        # A surfaced value is left as written for the reviewer, and a town's
        # name holding a replaced person's word is not that person: not leaks.
        surfaced = [*(s.value for s in item.surfaced), *item.towns]
        strings = json_strings(case.files)
        checked = (normalised(s, surfaced) for s in strings) if surfaced else strings
        leaks = policy.leaks(checked, item.originals)
        if leaks:
            # Not written: the summary says which types leaked, never the values.
            out.quarantined.update(leaks)
            out.quarantined_ids.add(item.session.session_id)
            continue
        record_redaction(case.files, item.not_personal, item.surfaced)
        out.cases[case.set_id] = case.files
    return out


def _draft_rows(context: DraftContext, events: pd.DataFrame, progress: Progress) -> Drafted:
    """The engine's work: the picked sessions' rows, once read, drafted. The
    heap the read freed goes back first (the model loads next, in
    ``policy_for``: once per process)."""
    release_freed_memory()
    return draft_sessions(events, context, _policy(context.config), progress)


def _policy(config: PipelineConfig) -> RedactionPolicy:
    """``policy_for(config)``, its module imported on the first call, after
    the scan: the detector's word lists (8 MiB) are not in this process
    while the scan's forked child runs beside it, counted in both."""
    from miner.redaction.policy import policy_for

    return policy_for(config)


def draft_selected(
    select: Callable[[], Selected], progress: Progress, stale_removed: int
) -> RunSummary:
    """The job, under ``out``'s lock (``miner.draft_start.run_draft_job``
    holds it): its first stage (``select()``: ``select_sessions`` here or in
    a child), then the picked sessions' rows read, redacted and drafted, and
    the drafts, the ledger and the run's record written; returns the run's
    record (also saved under ``out/runs/``). Called, not given, so that what
    it found is held here alone, and let go once read (the left-out
    sessions: 17 MiB at 20M rows)."""
    selected = select()
    request, export = selected.request, selected.export
    drafted_before, found = selected.drafted_before, selected.found
    del selected
    config = request.config
    grace = config.sampling.session_grace
    scan_start, scan_end = request.since - grace, request.until + grace
    rows_read, sessions_scanned = found.rows_read, found.sessions
    if not any(kind in KNOWN_EVENT_TYPES for _dialect, kind in rows_read):
        _refuse_unknown_shape(export, scan_start, scan_end)
    selection, by_rule, left = found.selection, found.by_rule, found.left
    picked_ids = [f.session_id for f in selection.picked]
    del found
    release_freed_memory()
    signals_of = {f.session_id: f.signals for f in selection.picked}
    reasons_of = {
        f.session_id: tuple((r.signal, r.rule, r.invocation) for r in f.reasons)
        for f in selection.picked
    }

    now = request.now
    context = DraftContext(
        config=config,
        traces=request.traces,
        since=request.since,
        until=request.until,
        now=now,
        signals_of=signals_of,
        reasons_of=reasons_of,
    )
    drafted = Drafted()
    for part in request.engine.map_sessions(
        export,
        config,
        Window(scan_start, scan_end),
        picked_ids,
        DRAFT_COLUMNS,
        functools.partial(_draft_rows, context),
        progress,
    ):
        drafted.merge(part)
    policy = _policy(config)
    cases, stats = drafted.cases, drafted.stats
    # A quarantined or declined session stays out of the ledger: once the
    # config catches what leaked, the next run drafts it; a declined one is
    # not drafted, and the ledger holds the drafted.
    not_written = drafted.quarantined_ids | set(drafted.declined)
    not_drafted = left.plus(NotDrafted.of(_unwritten(picked_ids, drafted)))
    # The left-out sessions, merged into a new copy: the old one let go, not
    # held beside it while the summary and the files are written (17 MiB at
    # 20M rows' million flagged sessions, at the run's peak).
    del left
    warnings = readability(stats, str(export.path)) if picked_ids else []
    if selection.in_window == 0:
        newest = source.latest_timestamp(export)
        warnings.insert(
            0,
            "no sessions start in the window"
            + (f"; the export's newest event is {newest.isoformat()}" if newest else ""),
        )
    run_name = now.strftime("%Y%m%dT%H%M%SZ")
    run_files = request.out / output.RUNS_DIR / output.run_stem(request.out, run_name)
    summary = RunSummary(
        since=request.since,
        until=request.until,
        traces=str(export.path),
        seed=request.seed,
        sessions_scanned=sessions_scanned,
        sessions_in_window=selection.in_window,
        flagged={s: selection.flagged[s] for s in SIGNALS},
        flagged_by_rule=by_rule,
        signatures=_signatures(selection, policy, not_written),
        sampled=len(cases),
        entities_replaced=dict(sorted(drafted.replaced.items())),
        quarantined_cases=len(drafted.quarantined_ids),
        quarantined_entities=dict(sorted(drafted.quarantined.items())),
        nlp_model=policy.model,
        cases=tuple(sorted(cases)),
        # Which failure signature each drafted case is of (hashes only), for
        # the triage page and the review queue.
        case_signatures={
            draft_name(session_hash(f.session_id)): signature_hash(f.signature)
            for f in selection.picked
            if draft_name(session_hash(f.session_id)) in cases
        },
        rows_read=_by_dialect(rows_read),
        not_drafted=not_drafted.counts(),
        not_drafted_manifest=f"{run_files}{output.NOT_DRAFTED_SUFFIX}",
        stale_staging_removed=stale_removed,
        parts_not_inlined=dict(sorted(stats.markers.items())),
        warning="; ".join(warnings),
        case_files_written=sum(len(written) for written in cases.values()),
        triage_page=f"{run_files}.html",
    )
    ledger = drafted_before | {session_hash(s) for s in picked_ids if s not in not_written}
    kinds = {
        signature_hash(f.signature) for f in selection.picked if f.session_id not in not_written
    }
    problem = output.write_run(
        request.out,
        cases,
        frozenset(ledger),
        summary.as_json(),
        run_files.name,
        frozenset(kinds),
        triage_html(summary, cases),
        runs_index_html,
        not_drafted.lines(),
    )
    if problem:
        summary = replace(summary, warning="; ".join(filter(None, [summary.warning, problem])))
    return summary


def _unwritten(picked: list[str], drafted: Drafted) -> Iterable[tuple[str, str]]:
    """The picked sessions that were not written, and why."""
    for session_id in picked:
        if session_id in drafted.quarantined_ids:
            yield session_id, "quarantined"
        elif session_id in drafted.declined:
            yield session_id, drafted.declined[session_id]


def _signatures(
    selection: Any, policy: RedactionPolicy, not_written: set[str]
) -> tuple[SignatureGroup, ...]:
    """Each failure signature with its size and how many were drafted, biggest
    first. The masked text goes through redaction too: masking is a heuristic."""
    drafted: Counter[str] = Counter(
        f.signature for f in selection.picked if f.session_id not in not_written
    )
    kinds = sorted(selection.signatures.items(), key=lambda item: (-item[1], item[0]))
    texts = [k for k, _n in kinds]
    safe = []
    for text, found in zip(texts, policy.detect(texts), strict=True):
        for entity, value in found:
            text = text.replace(value, f"<{entity}>")
        safe.append(text)
    return tuple(
        SignatureGroup(text, signature_hash(kind), n, drafted[kind])
        for text, (kind, n) in zip(safe, kinds, strict=True)
    )


def _by_dialect(rows: Counter[tuple[str, str]]) -> dict[str, dict[str, int]]:
    """{dialect: {event type: rows}} for the run summary."""
    out: dict[str, dict[str, int]] = {}
    for (dialect, kind), count in sorted(rows.items()):
        out.setdefault(dialect, {})[kind] = count
    return out


def _refuse_unknown_shape(export: source.Export, start: datetime, end: datetime) -> None:
    """Rows in the window, but none of an event type any ADK plugin writes:
    an export miner cannot read, not a quiet week."""
    seen = source.event_types(export, start, end)
    if seen and not seen & KNOWN_EVENT_TYPES:
        shown = ", ".join(sorted(seen)[:5])
        raise InputError(
            f"{export.path}: no row has an event type an ADK analytics plugin writes "
            f"(found {shown}); is this an agent_events export?"
        )


def _relative(path: str, root: Path | str) -> str:
    """A source file relative to the export root, for provenance."""
    if isinstance(root, str):  # a URI: the dataset names files "bucket/prefix/..."
        prefix = root.split("://", 1)[-1].split("?", 1)[0].rstrip("/") + "/"
        return path[len(prefix) :] if path.startswith(prefix) else path.rsplit("/", 1)[-1]
    try:
        base = root if root.is_dir() else root.parent
        return str(Path(path).resolve().relative_to(base.resolve()))
    except ValueError:
        return Path(path).name
