"""Coverage: the agent's tools against the failure classes, as the article asks.

A case counts in a cell (tool, class) when one of its tags names the class
(aliases such as ``authz`` are understood) and it touches the tool: the tool
is in its expected tool uses, its argRules or its mustNotCall (a negative case
covers a tool as much as a positive one). Cases touching no tool count in the
``(no tool)`` row. Empty cells come first in the list of next cases to write.
"""

from __future__ import annotations

import csv
import html
import io
from dataclasses import dataclass

from miner.case import LoadedCase, case_tools, spec_tools
from miner.config import CoverageConfig

DEFAULT_CLASSES: tuple[str, ...] = CoverageConfig().classes
ALIASES = {
    "happy": "happy_path",
    "authz": "authorisation",
    "authorization": "authorisation",
    "auth": "authorisation",
    "multi_turn_memory": "multi_turn",
    "memory": "multi_turn",
    "prompt_injection": "injection",
    "out_of_domain": "out_of_scope",
}
NO_TOOL = "(no tool)"


@dataclass(frozen=True)
class Coverage:
    tools: tuple[str, ...]
    classes: tuple[str, ...]
    counts: dict[tuple[str, str], int]
    unclassified: tuple[str, ...]
    """Eval ids with no class tag."""

    @property
    def empty_cells(self) -> list[tuple[str, str]]:
        return [
            (t, c)
            for t in self.tools
            if t != NO_TOOL
            for c in self.classes
            if not self.counts.get((t, c))
        ]


def coverage_matrix(
    cases: list[LoadedCase], tools: list[str], classes: tuple[str, ...] = DEFAULT_CLASSES
) -> Coverage:
    seen_tools = list(tools)
    counts: dict[tuple[str, str], int] = {}
    unclassified = []
    for case in cases:
        tags = {ALIASES.get(t.lower(), t.lower()) for t in (case.spec or {}).get("tags", [])}
        case_classes = [c for c in classes if c in tags]
        if not case_classes:
            unclassified.append(case.eval_id)
        touched = set(case_tools(case.case)) | spec_tools(case.spec or {})
        for name in sorted(touched):
            if name not in seen_tools:
                seen_tools.append(name)
        for cls in case_classes:
            for name in touched or {NO_TOOL}:
                counts[(name, cls)] = counts.get((name, cls), 0) + 1
    rows = tuple([*seen_tools, NO_TOOL])
    return Coverage(rows, tuple(classes), counts, tuple(unclassified))


def render_table(cov: Coverage) -> str:
    width = max(len(t) for t in cov.tools)
    cols = [c[:14] for c in cov.classes]
    lines = [" " * width + " | " + " | ".join(f"{c:>14}" for c in cols)]
    lines.append("-" * len(lines[0]))
    for tool in cov.tools:
        cells = [cov.counts.get((tool, c), 0) for c in cov.classes]
        lines.append(f"{tool:<{width}} | " + " | ".join(f"{n or '.':>14}" for n in cells))
    return "\n".join(lines)


def render_csv(cov: Coverage) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["tool", *cov.classes])
    for tool in cov.tools:
        writer.writerow([tool, *(cov.counts.get((tool, c), 0) for c in cov.classes)])
    return buffer.getvalue()


def render_html(cov: Coverage, rates: dict[str, tuple[int, int]] | None = None) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in cov.classes)
    rows = []
    for tool in cov.tools:
        cells = "".join(
            f'<td class="{"empty" if not cov.counts.get((tool, c)) else "covered"}">'
            f"{cov.counts.get((tool, c), 0)}</td>"
            for c in cov.classes
        )
        rows.append(f"<tr><th>{html.escape(tool)}</th>{cells}</tr>")
    todo = "".join(
        f"<li>{html.escape(t)} &times; {html.escape(c)}</li>" for t, c in cov.empty_cells
    )
    return (
        "<!doctype html><meta charset=utf-8><title>miner coverage</title>"
        "<style>body{font-family:sans-serif}td,th{border:1px solid #ccc;padding:4px 8px}"
        "td{text-align:right}.empty{background:#fde2e1}.covered{background:#e3f6e3}"
        "table{border-collapse:collapse}</style>"
        f"<h1>Coverage: tools &times; failure classes</h1><table><tr><th></th>{head}</tr>"
        f"{''.join(rows)}</table><h2>Next cases to write (empty cells)</h2><ul>{todo}</ul>"
        f"{_rates_html(rates or {})}\n"
    )


def _rates_html(rates: dict[str, tuple[int, int]]) -> str:
    if not rates:
        return ""
    rows = "".join(
        f"<tr><th>{html.escape(tag)}</th><td>{passed}/{total}</td></tr>"
        for tag, (passed, total) in rates.items()
    )
    return f"<h2>Pass rates by tag</h2><table>{rows}</table>"
