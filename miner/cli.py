"""The command line: thin wrappers that parse options, call one library
function and print its result. ``reported`` is the one place a MinerError
becomes ``Error: <message>`` on stderr and its exit code."""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Iterable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from miner.errors import MinerError, UsageError

app = typer.Typer(
    help="Mine the bad sessions of an ADK agent into reviewable eval cases.",
    no_args_is_help=True,
    add_completion=False,
    # Locals may hold unredacted trace text: never print them.
    pretty_exceptions_show_locals=False,
)

F = TypeVar("F", bound=Callable[..., Any])

DEFAULT_PIPELINE = Path("pipelines/support_agent.toml")


def reported(command: F) -> F:
    """Turn a MinerError into a one-line message and its exit code."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except MinerError as exc:
            typer.echo(f"Error: {exc}", err=True)
            raise typer.Exit(code=exc.exit_code) from None

    return wrapper  # type: ignore[return-value]


_RELATIVE = re.compile(r"^(\d+)([dhm])$")


def parse_time(text: str, now: datetime, option: str) -> datetime:
    """``7d``/``36h``/``90m`` before ``now``, ``now``, or an ISO date or date-time (UTC)."""
    value = text.strip()
    if value == "now":
        return now
    relative = _RELATIVE.match(value)
    if relative:
        amount, unit = int(relative.group(1)), relative.group(2)
        delta = {"d": timedelta(days=amount), "h": timedelta(hours=amount)}.get(
            unit, timedelta(minutes=amount)
        )
        return now - delta
    try:
        if len(value) == 10:
            day = date.fromisoformat(value)
            return datetime(day.year, day.month, day.day, tzinfo=UTC)
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise UsageError(
            f"{option} {value!r}: expected 7d, 36h, 90m, a date (2026-11-22) or an ISO date-time"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _progress(items: Iterable[Any], total: int, label: str) -> Iterable[Any]:
    from tqdm import tqdm

    # disable=None turns the bar off when stderr is not a terminal (cron, CI).
    return tqdm(items, total=total or None, desc=label, unit="", disable=None, file=sys.stderr)


@app.callback()
def _root() -> None:
    """Mine the bad sessions of an ADK agent into reviewable eval cases."""


@app.command()
@reported
def draft(
    since: Annotated[
        str, typer.Option(help="Window start: 7d, 36h, 90m before --until, or a date / ISO time.")
    ] = "7d",
    until: Annotated[
        str,
        typer.Option(
            help="Window end: 'now', 'latest' (the export's newest event), or a date / ISO time."
        ),
    ] = "now",
    pipeline: Annotated[
        Path, typer.Option(help="Pipeline config (TOML).", dir_okay=False)
    ] = DEFAULT_PIPELINE,
    traces: Annotated[
        Path | None, typer.Option(help="Trace export (file or folder); default from the config.")
    ] = None,
    feedback: Annotated[
        Path | None, typer.Option(help="Feedback export (Parquet); default from the config.")
    ] = None,
    out: Annotated[Path, typer.Option(help="Output folder for drafted cases.")] = Path("drafts"),
    per_signal: Annotated[
        int | None, typer.Option(min=1, help="Most sessions per signal [config: 5].")
    ] = None,
    max_cases: Annotated[
        int | None, typer.Option(min=1, help="Most cases per run [config: 20].")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the reproducible pick [config].")
    ] = None,
) -> None:
    """Draft eval cases from the sessions that went wrong in a time window.

    Picks sessions with a complaint, an escalation, a thumbs-down or an error,
    removes personal data with Presidio, swaps account data for fixtures, and
    writes per case an ADK eval set, a sidecar spec and the tool fixtures,
    every decision marked REVIEW. Sessions drafted before into --out are skipped.

    Example:

        miner draft --since 7d --pipeline pipelines/support_agent.toml --out drafts/
    """
    from miner import io
    from miner.job import DraftRequest, run_draft

    config = io.load_config(pipeline)
    trace_path = traces or config.sources.traces
    if trace_path is None:
        raise UsageError(f"no trace export: pass --traces or set [sources] traces in {pipeline}")
    now = datetime.now(UTC)
    if until.strip() == "latest":
        newest = io.latest_timestamp(io.open_export(trace_path))
        if newest is None:
            raise UsageError(f"--until latest: {trace_path} holds no events")
        end = newest + timedelta(microseconds=1)  # the window is half-open
    else:
        end = parse_time(until, now, "--until")
    request = DraftRequest(
        config=config,
        traces=trace_path,
        feedback=feedback or config.sources.feedback,
        out=out,
        since=parse_time(since, end, "--since"),
        until=end,
        per_signal=per_signal or config.sampling.per_signal,
        max_cases=max_cases or config.sampling.max_cases,
        seed=config.sampling.seed if seed is None else seed,
    )
    summary = run_draft(request, progress=_progress)
    _print_summary(summary, out)


def _print_summary(summary: dict[str, Any], out: Path) -> None:
    window = summary["window"]
    typer.echo(f"window            {window['since']} .. {window['until']}")
    scanned, in_window = summary["sessions_scanned"], summary["sessions_in_window"]
    typer.echo(f"sessions scanned  {scanned} ({in_window} in window)")
    flagged = ", ".join(f"{k} {v}" for k, v in summary["flagged"].items())
    typer.echo(f"flagged           {flagged}")
    typer.echo(f"already drafted   {summary['skipped_already_drafted']} skipped")
    typer.echo(f"sampled           {summary['sampled']}")
    replaced = ", ".join(f"{k} {v}" for k, v in summary["entities_replaced"].items()) or "none"
    typer.echo(f"entities replaced {replaced}")
    typer.echo(f"files written     {summary['case_files_written']} case files under {out}")
    if "warning" in summary:
        typer.echo(f"Warning: {summary['warning']}", err=True)


def main() -> None:
    app()
