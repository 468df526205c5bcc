"""The command line: thin wrappers that parse options, call one library
function and print its result. ``reported`` is the one place a MinerError
becomes ``Error: <message>`` on stderr and its exit code."""

from __future__ import annotations

import functools
import os
import sys
import traceback
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, TypeVar

import click
import typer

from miner.errors import FindingsError, InputError, MinerError, OutputError, UsageError
from miner.summary import NOT_DRAFTED_REASONS, RunSummary

app = typer.Typer(
    help="Mine the bad sessions of an ADK agent into reviewable eval cases.",
    no_args_is_help=True,
    add_completion=False,
    # Locals may hold unredacted trace text: never print them.
    pretty_exceptions_show_locals=False,
    # Plain help: Rich's renders flags as "--json <bool>" and arguments as "{paths}".
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"miner {version('miner')}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print miner's version and exit."
        ),
    ] = False,
) -> None:
    """Mine the bad sessions of an ADK agent into reviewable eval cases.

    For a new agent, `miner init --traces EXPORT` writes its config. Then
    `miner draft --since 7d`; reviewers use `miner review`, `miner check` and
    `miner promote`; `miner replay` runs the agent on the suite and CI runs
    `miner score`.
    """


F = TypeVar("F", bound=Callable[..., Any])

PipelineOpt = Annotated[
    Path | None,
    typer.Option(
        help="Pipeline config (TOML); default: miner.toml or the one pipelines/*.toml here.",
        dir_okay=False,
    ),
]


def _config(pipeline: Path | None) -> Any:
    """The pipeline config of --pipeline, or the one the working folder holds."""
    from miner.config import load_config

    return load_config(_pipeline_path(pipeline))


def _pipeline_path(pipeline: Path | None) -> Path:
    """--pipeline, or the one config the working folder holds (named on stderr)."""
    from miner.config_paths import find_pipeline

    if pipeline is None:
        pipeline = find_pipeline(Path.cwd())
        typer.echo(f"pipeline          {pipeline} (the one config here)", err=True)
    return pipeline


#: Exit code when stdout's reader closed the pipe: 128 + SIGPIPE, what a shell
#: reports for a tool the signal stopped.
SIGPIPE_EXIT = 141


def reported(command: F) -> F:
    """Turn a MinerError into a one-line message and its exit code.

    Any other exception is a bug in miner. Its message may quote trace data,
    so only its type and where it was raised are printed; set MINER_DEBUG=1
    to get the full traceback.
    """

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except MinerError as exc:
            typer.echo(f"Error: {exc}", err=True)
            raise typer.Exit(code=exc.exit_code) from None
        except (typer.Exit, typer.Abort, click.exceptions.ClickException):
            raise
        except BrokenPipeError:
            # The reader stopped reading (`miner review drafts | head`): stop
            # quietly, as a shell tool killed by SIGPIPE does; stdout goes to
            # /dev/null so the interpreter's final flush cannot fail again.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(code=SIGPIPE_EXIT) from None
        except Exception as exc:
            if os.environ.get("MINER_DEBUG"):
                raise
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            where = f"{Path(frame.filename).name}:{frame.lineno}"
            typer.echo(
                f"Error: internal error ({type(exc).__name__} at {where}); "
                "rerun with MINER_DEBUG=1 for the traceback (it may show trace data)",
                err=True,
            )
            raise typer.Exit(code=1) from None

    return wrapper  # type: ignore[return-value]


def _progress(items: Iterable[Any], total: int, label: str) -> Iterable[Any]:
    from tqdm import tqdm

    # disable=None turns the bar off when stderr is not a terminal (cron, CI).
    return tqdm(items, total=total or None, desc=label, unit="", disable=None, file=sys.stderr)


@app.command()
@reported
def draft(
    since: Annotated[
        str, typer.Option(help="Window start: 7d, 36h, 90m before --until, or a date / ISO time.")
    ] = "7d",
    until: Annotated[
        str,
        typer.Option(
            help="Window end: 'now', 7d, 36h, 90m before now, 'latest' (the export's newest "
            "event), or a date / ISO time."
        ),
    ] = "now",
    pipeline: PipelineOpt = None,
    traces: Annotated[
        str | None,
        typer.Option(
            help="Trace export: a file, a folder, or s3://bucket/prefix/ or gs://bucket/prefix/; "
            "default from the config."
        ),
    ] = None,
    feedback: Annotated[
        Path | None, typer.Option(help="Feedback export (Parquet); default from the config.")
    ] = None,
    out: Annotated[Path, typer.Option(help="Output folder for drafted cases.")] = Path("drafts"),
    per_signal: Annotated[
        int | None, typer.Option(min=1, help="Most sessions per signal (default: from the config).")
    ] = None,
    max_cases: Annotated[
        int | None, typer.Option(min=1, help="Most cases per run (default: from the config).")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the reproducible pick (default: from the config).")
    ] = None,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict", help="Exit 1 when the leak guard quarantined a case (for cron jobs)."
        ),
    ] = False,
    lock_timeout: Annotated[
        float,
        typer.Option(
            min=0, help="Seconds to wait for another run drafting into --out (default: none)."
        ),
    ] = 0,
    engine: Annotated[
        str,
        typer.Option(
            help="embedded (this process) or spark (scan and redaction as Spark jobs; "
            "needs miner[spark])."
        ),
    ] = "embedded",
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="Print the run summary as JSON (as runs/<name>.json holds it)."
        ),
    ] = False,
) -> None:
    """Draft eval cases from the sessions that went wrong in a time window.

    Picks sessions with a complaint, an escalation, a thumbs-down or an error,
    removes personal data with Presidio, swaps account data for fixtures, and
    writes per case an ADK eval set, a sidecar spec and the tool fixtures,
    every decision marked REVIEW. Sessions drafted before into --out are skipped.

    Example:

        miner draft --since 7d --out drafts/
    """
    from miner.draft_start import DraftAsked, run_draft

    asked = DraftAsked(
        since=since,
        until=until,
        traces=_source(traces) if traces else None,
        feedback=feedback,
        out=out,
        per_signal=per_signal,
        max_cases=max_cases,
        seed=seed,
        engine=engine,
        lock_timeout=lock_timeout,
    )
    summary = run_draft(asked, _pipeline_path(pipeline), _progress)
    if as_json:
        import orjson

        typer.echo(orjson.dumps(summary.as_json(), option=orjson.OPT_INDENT_2).decode())
        _print_warnings(summary)
    else:
        _print_summary(summary, out)
    if strict and summary.quarantined_cases:
        raise FindingsError(
            f"--strict: the leak guard quarantined {summary.quarantined_cases} case(s)"
        )


@app.command("sql")
@reported
def sql_(
    dialect: Annotated[str, typer.Option(help="bigquery, duckdb or spark.")] = "bigquery",
    table: Annotated[
        str, typer.Option(help="The plugin's table, e.g. project.dataset.agent_events.")
    ] = "agent_events",
    plugin: Annotated[
        str, typer.Option(help="Which ADK plugin wrote the table: python, java or go.")
    ] = "python",
    since: Annotated[str, typer.Option(help="Window start, as for miner draft.")] = "7d",
    until: Annotated[
        str, typer.Option(help="Window end: 'now', 7d, 36h, 90m before now, or a date / ISO time.")
    ] = "now",
    pipeline: PipelineOpt = None,
) -> None:
    """Print the selection query for the plugin's own table.

    The same signals `miner draft` runs, as one query in the warehouse's SQL:
    it returns the flags relation (one row per flagged session: its start,
    signals, hits, tool path and first error). Run it where the data lives,
    then export only the flagged sessions' rows (docs/engines.md shows the
    weekly job).

    Example:

        miner sql --dialect bigquery --table myproj.analytics.agent_events --since 7d
    """
    from miner.engine.query import DIALECTS
    from miner.engine.warehouse import PLUGIN_COLUMNS, selection_for_table
    from miner.sample import read_negative_feedback
    from miner.window import now, parse_time

    if dialect not in DIALECTS:
        raise UsageError(f"--dialect {dialect!r}: expected one of {', '.join(DIALECTS)}")
    if plugin not in PLUGIN_COLUMNS:
        raise UsageError(f"--plugin {plugin!r}: expected python, java or go")
    config = _config(pipeline)
    end = parse_time(until, now(), "--until")
    start = parse_time(since, end, "--since")
    negative = read_negative_feedback(config.sources.feedback, config.feedback)
    grace = config.sampling.session_grace
    typer.echo(
        selection_for_table(
            table,
            dialect,
            plugin,
            config.signals,
            negative,
            (start - grace, end + grace),
            (start, end),
        )
    )


def _source(value: str) -> Path | str:
    """A --traces value: a URI stays a string (Path would fold its //)."""
    from miner.config_paths import is_remote

    return value if is_remote(value) else Path(value)


def _print_summary(summary: RunSummary, out: Path) -> None:
    typer.echo(f"window            {_when(summary.since)} .. {_when(summary.until)}")
    scanned, in_window = summary.sessions_scanned, summary.sessions_in_window
    typer.echo(f"sessions scanned  {scanned} ({in_window} in window)")
    flagged = ", ".join(f"{k} {v}" for k, v in summary.flagged.items())
    typer.echo(f"flagged           {flagged}")
    typer.echo(f"already drafted   {summary.skipped_already_drafted} skipped")
    typer.echo(f"sampled           {summary.sampled}")
    left = ", ".join(
        f"{reason} {summary.not_drafted[reason]}"
        for reason in NOT_DRAFTED_REASONS
        if summary.not_drafted.get(reason)
    )
    if left:
        typer.echo(f"not drafted       {left}")
    rows = ", ".join(f"{d} {sum(k.values())}" for d, k in summary.rows_read.items())
    typer.echo(f"rows read         {rows or 'none'} (by plugin dialect, scanned for signals)")
    replaced = ", ".join(f"{k} {v}" for k, v in summary.entities_replaced.items()) or "none"
    typer.echo(f"entities replaced {replaced} (NER: {summary.nlp_model})")
    typer.echo(f"files written     {summary.case_files_written} case files under {out}")
    _print_warnings(summary)
    if summary.triage_page:
        typer.echo(f"triage page       {summary.triage_page}")
    if summary.sampled:
        typer.echo(f"next              miner review {out}")


def _print_warnings(summary: RunSummary) -> None:
    """The run's warnings, on stderr (also under --json, whose stdout is the record)."""
    if summary.quarantined_cases:
        kinds = ", ".join(f"{k} {v}" for k, v in summary.quarantined_entities.items())
        typer.echo(
            f"Warning: quarantined {summary.quarantined_cases} case(s), not written: personal "
            f"data left after redaction ({kinds}); add a recognizer, identifier or key rule",
            err=True,
        )
    if summary.warning:
        typer.echo(f"Warning: {summary.warning}", err=True)


def _when(moment: datetime | None) -> str:
    return moment.isoformat() if moment else ""


@app.command()
@reported
def init(
    traces: Annotated[
        str,
        typer.Option(
            help="The agent's trace export: a file, a folder, or s3://bucket/prefix/ or "
            "gs://bucket/prefix/."
        ),
    ],
    feedback: Annotated[
        Path | None, typer.Option(help="The app's feedback export (Parquet), if it keeps one.")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Config to write (default: pipelines/<app>.toml); never overwritten."),
    ] = None,
) -> None:
    """Write a starting pipeline config for your agent, learned from its export.

    Reads the export (and the feedback export) and writes a commented config:
    the plugin dialect, the app and its agents, the tools the agent called,
    the state key of the signed-in customer, id-like tool arguments as
    [[identifiers]] patterns, escalation tools and handoff agents, and the
    feedback columns. `miner draft` drafts the export with it as it is; read
    the comments, then edit. Refuses to overwrite an existing file.

    Example:

        miner init --traces exports/agent_events/ --out pipelines/my_agent.toml
    """
    from miner import source
    from miner.init import (
        NO_TOOLS,
        checked,
        default_out,
        discover,
        draft_command,
        render,
        write_new,
    )

    if out is not None and out.exists():
        raise OutputError(f"{out}: already exists; refusing to overwrite it (pass another --out)")
    export = source.open_export(_source(traces))
    found = discover(export, feedback)
    target = out or default_out(found)
    write_new(target, checked(render(found, traces, target), target))
    dialects = ", ".join(found.dialects)
    typer.echo(f"wrote             {target}")
    typer.echo(f"read              {found.rows} rows, {found.sessions} sessions ({dialects})")
    typer.echo(f"app               {found.app_name}; {len(found.tools)} tools")
    shapes = ", ".join(f"{i.entity} ({', '.join(i.keys)})" for i in found.identifiers) or "none"
    typer.echo(f"identifiers       {shapes}")
    signed_in = found.signed_in_key or "none found: set [fixtures] signed_in_key"
    typer.echo(f"signed-in key     {signed_in}")
    if not found.tools:
        typer.echo(f"warning: {NO_TOOLS}", err=True)
    typer.echo(f"next              {draft_command(found, target)}")


PathsArg = Annotated[
    list[Path],
    typer.Argument(metavar="PATH", help="Eval-set, sidecar and tool-fixture files or folders."),
]


def _load(paths: list[Path], config: Any, personal_data: bool = True) -> Any:
    """The one loader over ``paths``; the personal-data check needs Presidio."""
    from miner import output
    from miner.load import holding_cases, load_cases
    from miner.redaction.policy import policy_for

    files = output.read_case_files(paths)  # before Presidio loads: a typo fails fast
    policy = policy_for(config) if personal_data else None
    return holding_cases(load_cases(files, config, policy), paths)


def _refused(eval_id: str, reasons: Any) -> str:
    """The one-line summary of a refused case, as every command prints it."""
    from miner.promote import refusal_reason

    return f"refused   {eval_id}: {refusal_reason(tuple(reasons))}"


def _reviewed(loaded: Any, paths: list[Path], command: str) -> Any:
    """The loaded cases, when the loader refused none; otherwise one line per
    refused case and a FindingsError: `coverage` and `score` read reviewed
    cases only, as `promote` does."""
    by_case: dict[str, list[Any]] = {}
    for finding in loaded.findings:
        by_case.setdefault(finding.case, []).append(finding)
    if not by_case:
        return loaded
    for eval_id, reasons in by_case.items():
        if eval_id == "-":  # a file no case can be read from
            for finding in reasons:
                typer.echo(str(finding))
        else:
            typer.echo(_refused(eval_id, reasons))
    where = " ".join(str(p) for p in paths)
    raise FindingsError(
        f"{len(by_case)} cases refused: {command} reads reviewed cases only "
        f"(`miner check {where}` lists every reason)"
    )


def _fail(count: int, what: str) -> None:
    from miner.errors import FindingsError

    raise FindingsError(f"{count} {what}")


@app.command()
@reported
def check(
    paths: PathsArg,
    pipeline: PipelineOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print findings as JSON.")] = False,
) -> None:
    """Check reviewed cases: print every reason a case would not load.

    Refuses leftover REVIEW markers, invalid JSON, eval sets ADK rejects,
    bad sidecars, unpaired or duplicate ids, non-descriptive ids, tools the
    agent does not have, and personal data that is not a fixture value.
    Exits 0 only when everything would load.

    Example:

        miner check drafts/ --pipeline pipelines/support_agent.toml
    """
    import orjson

    loaded = _load(paths, _config(pipeline))
    if as_json:
        report = {
            "cases": len(loaded.cases),
            "passing": [c.eval_id for c in loaded.passing],
            "findings": [f.as_dict() for f in loaded.findings],
        }
        typer.echo(orjson.dumps(report, option=orjson.OPT_INDENT_2).decode())
    else:
        for finding in loaded.findings:
            typer.echo(str(finding))
        typer.echo(
            f"{len(loaded.findings)} findings; {len(loaded.passing)} of "
            f"{len(loaded.cases)} cases would load"
        )
    if loaded.findings:
        _fail(len(loaded.findings), "findings")


@app.command()
@reported
def review(
    paths: PathsArg,
    serve: Annotated[
        bool,
        typer.Option(
            "--serve", help="Start the review workbench on the drafts folder and print its URL."
        ),
    ] = False,
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="--serve: port (0: any free one).")
    ] = 0,
    host: Annotated[
        str,
        typer.Option(help="--serve: address to bind (other than loopback: anyone can reach it)."),
    ] = "127.0.0.1",
    suite: Annotated[
        Path | None,
        typer.Option(
            help="--serve: the suite the page's promote button writes to.", file_okay=False
        ),
    ] = None,
    pipeline: PipelineOpt = None,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="JSON Lines, one finding a line (docs/review.md)."),
    ] = False,
) -> None:
    """List what is left to review: one path:line:col line per REVIEW marker
    and per span surfaced as possible personal data (its entity type and
    length, never its text).

    Grouped by case, with a count. A file that is not valid JSON, or case
    files whose ids no longer pair (an eval id renamed in one file of three),
    are listed too: a broken edit is not a finished one. Exits 0 when nothing
    is left, 1 when something is (an unreadable file also prints an Error
    line). With --json, one JSON object a line instead (file, line, col,
    length, kind, case; entity for personal-data). With --serve, a local web
    app instead: the queue of cases, each case's session as a chat beside a
    form for every decision, the findings of `miner check`, saving the three
    files and promoting (docs/review.md).

    Example:

        miner review drafts/

        miner review --json drafts/ > left.jsonl

        miner review --serve drafts/ --suite evals/support
    """
    from miner import output

    if serve:
        # The folder before the config: a mistyped folder is the likelier mistake.
        if len(paths) != 1:
            raise UsageError("--serve: give one drafts folder")
        if not paths[0].is_dir():
            raise InputError(f"{paths[0]}: no such folder")
        _serve(paths[0], host, port, suite, _config(pipeline))
        return
    from miner.load import LEFT_TO_REVIEW, UNREADABLE, holding_cases, load_cases, review_record

    loaded = holding_cases(load_cases(output.read_case_files(paths), schema=False), paths)
    left = [f for f in loaded.findings if f.kind in LEFT_TO_REVIEW]
    broken = [f for f in loaded.findings if f.kind in UNREADABLE]
    if as_json:
        import orjson

        for finding in loaded.findings:
            if finding.kind in LEFT_TO_REVIEW or finding.kind in UNREADABLE:
                typer.echo(orjson.dumps(review_record(finding)).decode())
    else:
        _list_left(left, broken)
    if broken:
        _fail(len(broken), "files or cases that cannot be read as they are")
    if left:
        # Unfinished drafts are the normal state of a drafts folder, not an
        # error: the listing and its count say it all; the exit code gates CI.
        raise typer.Exit(code=1)


def _list_left(left: list[Any], broken: list[Any]) -> None:
    by_case: dict[str, list[Any]] = {}
    for finding in left:
        by_case.setdefault(finding.case, []).append(finding)
    for case, found in by_case.items():
        typer.echo(f"{case} ({len(found)} to review)")
        for f in found:
            place = f"  {f.file}:{f.line}:{f.col}: {f.json_path}"
            if f.kind == "review":
                typer.echo(place)
            else:
                typer.echo(f"{place}: possible {f.entity}, {f.length} characters, surfaced")
    for finding in broken:
        typer.echo(str(finding))
    markers = sum(1 for f in left if f.kind == "review")
    typer.echo(
        f"{markers} REVIEW markers and {len(left) - markers} surfaced spans left "
        f"in {len(by_case)} cases"
    )


def _serve(drafts: Path, host: str, port: int, suite: Path | None, config: Any) -> None:
    from miner.redaction.policy import policy_for
    from miner.webapp import LOOPBACK, Workbench, serve
    from miner.workbench import Checker

    if host != LOOPBACK:
        typer.echo(
            f"Warning: serving on {host}: anyone who can reach it and has the URL can "
            "read and edit these cases",
            err=True,
        )
    policy = policy_for(config)
    bench = Workbench(drafts, config, Checker(config, policy), suite, policy)
    try:
        serve(bench, host, port, announce=lambda url: typer.echo(f"miner review: {url}"))
    except OSError as exc:
        raise UsageError(f"--serve: cannot listen on {host}:{port} ({exc.strerror})") from None


@app.command()
@reported
def discard(
    cases: Annotated[
        list[Path],
        typer.Argument(
            metavar="CASE", help="Drafted case folders: <drafts>/draft_<16 hex digits>."
        ),
    ],
    reason: Annotated[
        str, typer.Option(help="Why no case is worth making of it; the ledger keeps it.")
    ],
    lock_timeout: Annotated[
        float,
        typer.Option(min=0, help="Seconds to wait for a draft run writing into the same folder."),
    ] = 0,
) -> None:
    """Remove drafts not worth a case, so no later draft run brings them back.

    Each session is recorded in its drafts folder's ledger (miner-ledger.json,
    under "discarded", with the reason and the time), which `miner draft`
    reads; then the case folder is removed. The workbench's discard button
    does the same. A folder that is not a drafted case is refused before
    anything is removed.

    Example:

        miner discard drafts/support/draft_2c3f11a5ae385b64 --reason "the user was testing"
    """
    from miner import workbench

    for case in cases:
        workbench.drafted_session(case.parent, case.name)  # all checked before any goes
    for case in cases:
        workbench.discard(case.parent, case.name, reason, None, lock_timeout, "miner discard")
        typer.echo(f"discarded  {case}")


@app.command()
@reported
def promote(
    drafts: PathsArg,
    suite: Annotated[Path, typer.Option(help="Suite folder to promote into.", file_okay=False)],
    pipeline: PipelineOpt = None,
    lock_timeout: Annotated[
        float,
        typer.Option(min=0, help="Seconds to wait for another promote into --suite."),
    ] = 0,
) -> None:
    """Move reviewed drafts that pass `miner check` into a suite.

    Cases that pass are appended to <suite>/<name>.evalset.json, .spec.json
    and .tools.json (name = the suite's eval set's, or the folder's for a new
    suite) and their draft files removed; a case that does not pass stays
    where it is and its reasons are printed. Crash-safe: an interrupted
    promote is finished by the next one.

    Example:

        miner promote drafts/ --suite evals/support
    """
    from miner.promote import promote_drafts
    from miner.redaction.policy import policy_for

    config = _config(pipeline)
    result = promote_drafts(drafts, suite, config, policy_for(config), lock_timeout)
    if result.finished:
        typer.echo(f"finished  {result.finished} file(s) an interrupted promote had journalled")
    if result.suite_problems:
        for finding in result.suite_problems:
            typer.echo(str(finding))
        _fail(len(result.suite_problems), f"problems in the suite {suite}; nothing promoted")
    for eval_id in result.promoted:
        typer.echo(f"promoted  {eval_id}")
    for eval_id, reasons in result.refused.items():
        typer.echo(_refused(eval_id, reasons))
    typer.echo(f"{len(result.promoted)} promoted, {len(result.refused)} refused into {suite}")
    if result.refused:
        shown = " ".join(str(d) for d in drafts)
        typer.echo(f"every finding, with its file:line:col: miner check {shown}")
        _fail(len(result.refused), "cases refused")


@app.command()
@reported
def coverage(
    suite: Annotated[Path, typer.Argument(help="Suite folder (or files).")],
    pipeline: PipelineOpt = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Folder to write coverage.csv and coverage.html into, outside the suite "
            "(default: print only).",
            file_okay=False,
        ),
    ] = None,
    results: Annotated[
        Path | None, typer.Option(help="A `miner score --json` report: adds pass rates by tag.")
    ] = None,
) -> None:
    """The coverage matrix: the agent's tools against the failure classes.

    Counts cases per cell from their tags and the tools they use or must not
    call; lists the empty cells first, as the next cases to write. With --out,
    also writes coverage.csv and coverage.html there (never into the suite it
    reads); with --results, adds pass rates by tag.

    Example:

        miner coverage evals/support --out reports/
    """
    from miner import output
    from miner.coverage import coverage_matrix, render_csv, render_html, render_table

    # A suite folder and everything under it; beside a suite file, its folder.
    read = (suite if suite.is_dir() else suite.parent).resolve()
    if out is not None and (
        out.resolve() == read or (suite.is_dir() and out.resolve().is_relative_to(read))
    ):
        raise UsageError(
            f"--out {out}: inside the suite folder {read}; coverage never writes into "
            "the folder it reads (pick another, e.g. reports/)"
        )
    config = _config(pipeline)
    loaded = _reviewed(_load([suite], config, personal_data=False), [suite], "coverage")
    cov = coverage_matrix(list(loaded.cases), list(config.agent.tools), config.coverage.classes)
    empty = cov.empty_cells
    typer.echo(f"Next cases to write ({len(empty)} empty cells):")
    for tool, cls in empty:
        typer.echo(f"  {tool} x {cls}")
    typer.echo("")
    typer.echo(render_table(cov))
    if cov.unclassified:
        typer.echo(
            f"{len(cov.unclassified)} cases have no class tag: {', '.join(cov.unclassified)}"
        )
    rates = output.read_score_rates(results) if results else {}
    if rates:
        typer.echo("pass rates by tag:")
        for tag, (passed, total) in rates.items():
            typer.echo(f"  {tag:<24} {passed}/{total}")
    if out is not None:
        output.write_text_atomic(out / "coverage.csv", render_csv(cov))
        output.write_text_atomic(out / "coverage.html", render_html(cov, rates))
        typer.echo(f"wrote {out / 'coverage.csv'} and {out / 'coverage.html'}")


@app.command()
@reported
def score(
    suite: Annotated[Path, typer.Option(help="Suite folder (or eval-set and sidecar files).")],
    traces: Annotated[
        list[Path],
        typer.Option(
            help="A run of the suite, exported like production traces; repeat it, "
            "or give a folder of runs (one sub-folder each)."
        ),
    ],
    pipeline: PipelineOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print results as JSON.")] = False,
    allow_missing: Annotated[
        bool,
        typer.Option(
            "--allow-missing", help="A case no run exercised is not a failure (say so anyway)."
        ),
    ] = False,
) -> None:
    """Score runs of the agent against the suite: per case, turn and check.

    A run's session belongs to a case when its session id is the case's eval
    id (or session_input.session_id), else when its first user message is the
    case's. Prints pass rates overall and by tag, and, over several runs, the
    flaky cases with their differing trajectories side by side. Exits 1 when
    any run of any case failed.

    Example:

        miner score --suite evals/support --traces runs/
    """
    from miner import source
    from miner.score import score_suite
    from miner.traces import DRAFT_COLUMNS, ReadStats, build_sessions, readability

    config = _config(pipeline)
    loaded = _reviewed(_load([suite], config, personal_data=False), [suite], "score")
    cases = [c for c in loaded.cases if c.spec is not None]
    if not cases:
        raise InputError(f"{suite}: the suite has no cases with a sidecar spec; nothing to score")
    runs = []
    for label, path in source.run_exports(traces):
        events = source.read_all_events(source.open_export(path), DRAFT_COLUMNS)
        stats = ReadStats()
        runs.append((label, build_sessions(events, config.agent.app_name, stats)))
        for warning in readability(stats, str(path)):
            typer.echo(f"Warning: {path}: {warning}", err=True)
    report = score_suite(cases, runs, config.score.response_match_threshold)
    if as_json:
        import orjson

        typer.echo(orjson.dumps(report.as_dict(), option=orjson.OPT_INDENT_2).decode())
    else:
        _print_score(report)
    failed = [r for r in report.runs if not r.passed]
    missing = [] if allow_missing else list(report.missing)
    if failed or missing:
        what = [f"{len(failed)} case runs failed"] if failed else []
        what += [f"{len(missing)} cases had no run"] if missing else []
        raise FindingsError("; ".join(what))


@app.command()
@reported
def replay(
    agent: Annotated[
        str, typer.Option(help="The agent to run, as package.module:attribute (importable).")
    ],
    suite: Annotated[Path, typer.Option(help="Suite folder (or case files) to replay.")],
    out: Annotated[Path, typer.Option(help="Folder for the runs (run-1/, run-2/...).")] = Path(
        "runs"
    ),
    runs: Annotated[int, typer.Option(min=1, help="Runs of every case.")] = 1,
    pipeline: PipelineOpt = None,
    live_tools: Annotated[
        bool,
        typer.Option("--live-tools", help="Run the real tool when a call has no fixture."),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    lock_timeout: Annotated[
        float,
        typer.Option(min=0, help="Seconds to wait for another replay into --out."),
    ] = 0,
) -> None:
    """Run the agent on the suite offline, tools served from the mined fixtures.

    Each case starts a fresh ADK session from its session_input and sends its
    user turns in order; every tool call is answered from the case's tool
    fixtures (argRules decide what matches), and each run is recorded by
    ADK's own analytics plugin into <out>/run-<n>/<case>.parquet, ready for
    `miner score --suite <suite> --traces <out>`. Runs already in <out> are
    kept: new ones are numbered after them. ADK's log lines go to
    <out>/run-<n>/_adk.log. The model is whatever the agent is configured with.

    Example (the sample's agents: sample_traces/agent.py):

        miner replay --agent sample_traces.agent:fixed_agent --suite evals/support --runs 5
    """
    from miner.replay import ADK_LOG, load_agent, replay_suite

    config = _config(pipeline)
    loaded = _load([suite], config, personal_data=False)
    cases = [c for c in loaded.passing if c.spec is not None]
    if not cases:
        raise InputError(f"{suite}: no case that loads cleanly to replay (see miner check)")
    results = replay_suite(
        load_agent(agent),
        cases,
        runs,
        out,
        live_tools,
        progress=_progress,
        lock_timeout=lock_timeout,
    )
    numbers = sorted({r.run for r in results})
    summary = {
        "cases": len(cases),
        "runs": runs,
        "runFolders": [str(out / f"run-{n}") for n in numbers],
        "callsServed": sum(r.served for r in results),
        "callsWithoutFixture": [
            {"evalId": r.eval_id, "run": r.run, "tools": r.unserved} for r in results if r.unserved
        ],
        "turnsWithoutAnswer": sum(r.turns_without_answer for r in results),
        "secondsPerCase": round(sum(r.seconds for r in results) / max(len(results), 1), 3),
        "out": str(out),
    }
    if as_json:
        import orjson

        typer.echo(orjson.dumps(summary, option=orjson.OPT_INDENT_2).decode())
        return
    folders = f"run-{numbers[0]}" + (f"..run-{numbers[-1]}" if len(numbers) > 1 else "")
    typer.echo(f"replayed          {len(cases)} cases x {runs} runs into {out} ({folders})")
    typer.echo(f"calls served      {summary['callsServed']} from fixtures")
    missing = sum(len(r.unserved) for r in results)
    typer.echo(f"without fixture   {missing}" + (" (ran live)" if live_tools and missing else ""))
    for r in results:
        if r.unserved:
            typer.echo(f"  {r.eval_id} [run {r.run}]: {', '.join(r.unserved)}")
    typer.echo(f"turns unanswered  {summary['turnsWithoutAnswer']}")
    typer.echo(f"time per case     {summary['secondsPerCase']} s")
    typer.echo(f"ADK's log lines   {out}/run-<n>/{ADK_LOG}")


def _print_score(report: Any) -> None:
    for eval_id, runs in report.per_case().items():
        for run in runs:
            overlap = [c.score for t in run.turns for c in t.checks if c.name == "rouge1"]
            shown = ", ".join(f"{o:.3f}" for o in overlap if o is not None)
            typer.echo(
                f"{'PASS' if run.passed else 'FAIL'}  {eval_id}  [{run.run}]"
                + (f"  rouge1 {shown}" if shown else "")
            )
            for turn in run.turns:
                for check in turn.checks:
                    if not check.passed:
                        typer.echo(f"      turn {turn.index} {check.name}: {check.reason}")
    passed, total = report.pass_rate()
    typer.echo(f"pass rate {passed}/{total}")
    for tag, (p, n) in report.by_tag().items():
        typer.echo(f"  {tag:<24} {p}/{n}")
    flaky = report.flaky()
    for eval_id, runs in flaky.items():
        good = sum(r.passed for r in runs)
        typer.echo(f"FLAKY {eval_id}: passed {good} of {len(runs)} runs; trajectories:")
        seen: dict[tuple, list[str]] = {}
        for run in runs:
            seen.setdefault(run.trajectory, []).append(
                f"{run.run}:{'pass' if run.passed else 'fail'}"
            )
        for trajectory, labels in seen.items():
            calls = " | ".join(", ".join(t) or "-" for t in trajectory)
            typer.echo(f"    {', '.join(labels):<40} {calls}")
    for eval_id in report.missing:
        typer.echo(f"MISSING {eval_id}: no run exercised it")
    if report.unmatched:
        typer.echo(f"{report.unmatched} sessions matched no case")
    if report.ambiguous:
        typer.echo(
            f"{report.ambiguous} sessions not scored: their first message is the first message "
            "of several cases (name each run's session after its eval id)"
        )


def main() -> None:
    app()
