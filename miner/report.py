"""The triage page: each run's summary as one self-contained HTML file
(``runs/<name>.html``, beside the JSON), for the person who looks at what the
week's run found. No script, no external resource: it opens from disk or a CI
artifact anywhere. Everything shown comes from the summary, which holds no
personal value (signatures are masked, then redacted); it is escaped anyway.
"""

from __future__ import annotations

from html import escape
from typing import Any

_STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem; color: #1f2328; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 1.6rem; }
table { border-collapse: collapse; margin: .4rem 0; }
th, td { border: 1px solid #d0d7de; padding: .3rem .6rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
code { font-size: 12px; } .warn { color: #9a6700; } .none { color: #656d76; }
"""


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


def triage_html(summary: dict[str, Any]) -> str:
    """The run summary as a page: flagged per signal and rule, the signature
    groups with their sizes, what was drafted, quarantined and skipped."""
    window = summary.get("window", {})
    flagged = summary.get("flagged", {})
    by_rule = summary.get("flagged_by_rule", {})
    signal_rows = [
        [
            f"<code>{escape(signal)}</code>",
            count,
            "<br>".join(f"{escape(rule)} ({n})" for rule, n in by_rule.get(signal, {}).items()),
        ]
        for signal, count in flagged.items()
    ]
    groups = [
        [
            f"<code>{escape(g['signature'])}</code>",
            g["sessions"],
            g["drafted"],
        ]
        for g in summary.get("signatures", [])
    ]
    quarantine = summary.get("quarantined", {})
    quarantined = [[escape(entity), n] for entity, n in quarantine.get("entities", {}).items()]
    cases = [[f"<code>{escape(name)}</code>"] for name in summary.get("cases", [])]
    warning = summary.get("warning")
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>miner triage {escape(str(window.get('since', '')))}</title>",
        f"<style>{_STYLE}</style></head><body>",
        "<h1>miner triage</h1>",
        f"<p>Window {escape(str(window.get('since', '')))} to "
        f"{escape(str(window.get('until', '')))}; "
        f"{summary.get('sessions_in_window', 0)} sessions in the window, "
        f"{summary.get('sampled', 0)} drafted, "
        f"{summary.get('skipped_already_drafted', 0)} skipped as drafted before, "
        f"{quarantine.get('cases', 0)} quarantined.</p>",
        f'<p class="warn" id="warning">{escape(warning)}</p>' if warning else "",
        '<h2 id="signals">Flagged sessions per signal</h2>',
        _table(["signal", "sessions", "rules that fired (sessions)"], signal_rows, "signal"),
        '<h2 id="signatures">Failure signatures</h2>',
        "<p>Sessions grouped by signals, tool path and masked error; the pick goes "
        "round-robin across them.</p>",
        _table(["signature (masked)", "sessions", "drafted"], groups, "signature"),
        '<h2 id="drafted">Drafted cases</h2>',
        _table(["case folder"], cases, "case"),
        '<h2 id="quarantined">Quarantined by the leak guard</h2>',
        _table(["entity type", "hits"], quarantined, "quarantine"),
        "</body></html>",
    ]
    return "\n".join(p for p in parts if p) + "\n"
