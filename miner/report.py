"""The triage pages: each run's record (``miner.summary.RunSummary``) as one
self-contained HTML file (``runs/<name>.html``, beside the JSON), and
``runs/index.html`` listing every run, for the person who looks at what the
week's run found. No script, no external resource: they open from disk or
a CI artifact anywhere.

A run's page links each drafted case to its three files and shows what
flagged it (signals, rules, the turn), its failure signature and its first
user message. That message is redacted (it is in the drafted files too), but
it is user input: everything shown is escaped.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from html import escape
from typing import Any
from urllib.parse import quote

from miner.case import case_file_names, first_user_message, flags, signals
from miner.summary import NOT_DRAFTED_MEANING, NOT_DRAFTED_REASONS, RunSummary

#: The first user message is cut to this many characters on the pages.
MESSAGE_SHOWN = 240

_STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem; color: #1f2328; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 1.6rem; }
table { border-collapse: collapse; margin: .4rem 0; }
th, td { border: 1px solid #d0d7de; padding: .3rem .6rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
code { font-size: 12px; } .warn { color: #9a6700; } .none { color: #656d76; }
td.msg { max-width: 36rem; white-space: pre-wrap; overflow-wrap: anywhere; }
"""


def shorten(text: str, limit: int = MESSAGE_SHOWN) -> str:
    """``text`` on one line, cut to ``limit`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "\u2026"


def _case_rows(
    cases: Mapping[str, Mapping[str, Any]], signature_of: Mapping[str, str]
) -> list[list[Any]]:
    rows = []
    for name in sorted(cases):
        evalset_name, spec_name, tools_name = case_file_names(name)
        files = cases[name]
        evalset, spec = files.get(evalset_name) or {}, files.get(spec_name) or {}
        [case, *_] = evalset.get("eval_cases") or [{}]
        folder = quote(name)
        links = " ".join(
            f'<a href="../{folder}/{quote(file)}">{label}</a>'
            for file, label in (
                (evalset_name, "eval set"),
                (spec_name, "sidecar"),
                (tools_name, "tool fixtures"),
            )
        )
        reasons = "<br>".join(
            escape(f"{f.signal}: {f.rule}" + (f" (turn {f.turn})" if f.turn else ""))
            for f in flags(spec)
        )
        rows.append(
            [
                f'<a id="{escape(name)}" href="../{folder}/"><code>{escape(name)}</code></a>'
                f"<br>{links}",
                escape(", ".join(signals(spec))),
                reasons,
                f"<code>{escape(signature_of.get(name, ''))}</code>",
                f'<span class="msg">{escape(shorten(first_user_message(case)))}</span>',
            ]
        )
    return rows


def _table(headers: list[str], rows: list[list[Any]], css: str = "") -> str:
    if not rows:
        return '<p class="none">none</p>'
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = []
    for row in rows:
        cells = "".join(
            f'<td class="n">{value}</td>' if isinstance(value, int) else f"<td>{value}</td>"
            for value in row
        )
        body.append(f'<tr class="{css}">{cells}</tr>' if css else f"<tr>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def triage_html(summary: RunSummary, cases: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """The run's record as a page: flagged per signal and rule, the signature
    groups with their sizes and drafted cases, why the other flagged sessions
    were not drafted, each drafted case (``cases``: folder name -> {file
    name: JSON value}) with links to its files, what was quarantined."""
    since, until = _when(summary.since), _when(summary.until)
    signal_rows = [
        [
            f"<code>{escape(signal)}</code>",
            count,
            "<br>".join(
                f"{escape(rule)} ({n})"
                for rule, n in summary.flagged_by_rule.get(signal, {}).items()
            ),
        ]
        for signal, count in summary.flagged.items()
    ]
    cases_of: dict[str, list[str]] = {}
    for name, kind in sorted(summary.case_signatures.items()):
        cases_of.setdefault(kind, []).append(name)
    text_of = {g.hash: g.signature for g in summary.signatures}
    groups = [
        [
            f"<code>{escape(g.signature)}</code>",
            g.sessions,
            g.drafted,
            " ".join(
                f'<a href="#{escape(name)}">{escape(name)}</a>' for name in cases_of.get(g.hash, [])
            ),
        ]
        for g in summary.signatures
    ]
    not_drafted = [
        [f"<code>{escape(reason)}</code>", n, escape(NOT_DRAFTED_MEANING[reason])]
        for reason in NOT_DRAFTED_REASONS
        if (n := summary.not_drafted.get(reason, 0))
    ]
    quarantined = [[escape(entity), n] for entity, n in summary.quarantined_entities.items()]
    if cases:
        signature_of = {n: text_of.get(h, "") for n, h in summary.case_signatures.items()}
        case_rows = _case_rows(cases, signature_of)
    else:  # a page rebuilt from the summary alone: the names, with links
        case_rows = [
            [f'<a href="../{quote(name)}/"><code>{escape(name)}</code></a>', "", "", "", ""]
            for name in summary.cases
        ]
    manifest = summary.not_drafted_manifest.rsplit("/", 1)[-1]
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>miner triage {escape(since)}</title>",
        f"<style>{_STYLE}</style></head><body>",
        '<p><a href="index.html">all runs</a></p>',
        "<h1>miner triage</h1>",
        f"<p>Window {escape(since)} to {escape(until)}; "
        f"{summary.sessions_in_window} sessions in the window, "
        f"{summary.sampled} drafted, "
        f"{summary.skipped_already_drafted} skipped as drafted before, "
        f"{summary.quarantined_cases} quarantined.</p>",
        f'<p class="warn" id="warning">{escape(summary.warning)}</p>' if summary.warning else "",
        '<h2 id="signals">Flagged sessions per signal</h2>',
        _table(["signal", "sessions", "rules that fired (sessions)"], signal_rows, "signal"),
        '<h2 id="signatures">Failure signatures</h2>',
        "<p>Sessions grouped by signals, tool path and masked error; the pick goes "
        "round-robin across them.</p>",
        _table(["signature (masked)", "sessions", "drafted", "drafted cases"], groups, "signature"),
        '<h2 id="not-drafted">Flagged, not drafted</h2>',
        "<p>Why each flagged session of the window that is not a case was left out"
        + (
            f'; the sessions, by hash: <a href="{quote(manifest)}"><code>{escape(manifest)}'
            "</code></a>"
            if manifest and not_drafted
            else ""
        )
        + ".</p>",
        _table(["reason", "sessions", "meaning"], not_drafted, "not-drafted"),
        '<h2 id="drafted">Drafted cases</h2>',
        "<p>Review them with <code>miner review --serve</code> (docs/review.md), or edit "
        "the files.</p>",
        _table(
            ["case and files", "signals", "rules that fired", "signature", "first user message"],
            case_rows,
            "case",
        ),
        '<h2 id="quarantined">Quarantined by the leak guard</h2>',
        _table(["entity type", "hits"], quarantined, "quarantine"),
        "</body></html>",
    ]
    return "\n".join(p for p in parts if p) + "\n"


def _when(moment: datetime | None) -> str:
    return moment.isoformat() if moment else ""


def runs_index_html(runs: list[tuple[str, dict[str, Any] | None]]) -> str:
    """``runs/index.html``: every run (name, summary or None if unreadable),
    newest first, with what it drafted, so a run that drafted nothing does not
    hide the one that did."""
    rows = []
    total = 0
    for name, value in runs:
        summary = RunSummary.from_json(value)
        link = f'<a href="{quote(name)}.html"><code>{escape(name)}</code></a>'
        if summary is None:
            rows.append([f"<code>{escape(name)}</code>", "", 0, 0, "unreadable summary", ""])
            continue
        total += len(summary.cases)
        rows.append(
            [
                link,
                escape(f"{_when(summary.since)} to {_when(summary.until)}"),
                summary.sessions_in_window,
                len(summary.cases),
                " ".join(
                    f'<a href="{quote(name)}.html#{escape(case)}">{escape(case)}</a>'
                    for case in summary.cases
                ),
                escape(summary.warning),
            ]
        )
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>miner runs</title>",
        f"<style>{_STYLE}</style></head><body>",
        "<h1>miner runs</h1>",
        f"<p>{len(runs)} runs, {total} cases drafted; newest first.</p>",
        _table(["run", "window", "sessions in window", "drafted", "cases", "warning"], rows, "run"),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"
