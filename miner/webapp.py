"""``miner review --serve``: the review workbench as a local web app.

Starlette routes render Jinja2 templates (``miner/templates/``) from what
``miner.workbench`` reads off disk; the only JavaScript is the keyboard, the
"selection as a required fact" helper and the marking of form fields that
hold a surfaced value. Security, all tested:

- it binds to 127.0.0.1 unless told otherwise, and answers only under
  ``/<token>/``, a random token printed in its URL: anything else is a 404, so
  a page elsewhere in the browser can neither read it nor post to it;
- the Host header must be the address it serves (no DNS rebinding);
- it reads and writes only the case folders directly inside the drafts
  folder, and serves only files inside it; a name that climbs out is a 404;
- templates escape every value (autoescape), and the pages forbid any script
  but their own (a Content-Security-Policy with a per-response nonce);
- its log lines name the route, the case folder (a hash) and the status,
  never a form value or trace text; an unexpected error is logged by type
  and place only, as the CLI does.
"""

from __future__ import annotations

import json
import logging
import secrets
import socket
import threading
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup, escape
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from miner import workbench
from miner.config import PipelineConfig
from miner.errors import ConflictError, MinerError, UsageError
from miner.load import ARG_RULES, MATCH_TYPES
from miner.redaction.policy import RedactionPolicy
from miner.score import rouge_tokens

log = logging.getLogger("miner.review")

LOOPBACK = "127.0.0.1"


@dataclass
class Workbench:
    """What the app serves: the drafts folder, the loader's setup, the suite."""

    drafts: Path
    config: PipelineConfig
    checker: workbench.Checker
    suite: Path | None
    policy: RedactionPolicy | None
    snapshots: workbench.Snapshots = field(default_factory=workbench.Snapshots)
    """The files as pages showed them: a refused save says what changed since."""


#: How long a discard waits for a draft run writing into the same folder.
DISCARD_LOCK_TIMEOUT = 5.0

_templates = Environment(
    loader=PackageLoader("miner", "templates"),
    autoescape=True,
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def _surfaced_marks(text: str, values: list[workbench.ToDecide]) -> Markup:
    """``text``, escaped, with every occurrence of a surfaced value marked."""
    from miner.redaction.surfaced import occurrences

    spans = sorted((a, b, v.entity) for v in values for a, b in occurrences(text, v.value))
    parts, at = [], 0
    for start, end, entity in spans:
        if start < at:
            continue  # inside a longer value already marked
        parts += [
            escape(text[at:start]),
            Markup('<mark class="surfaced" title="surfaced: possible {}">{}</mark>').format(
                entity, text[start:end]
            ),
        ]
        at = end
    return Markup("").join([*parts, escape(text[at:])])


# The surfaced-value panel (templates/surfaced.html) asks for these itself, so
# the case page's own code needs no change for it.
_templates.filters["surfaced"] = _surfaced_marks
_templates.globals["surfaced_to_decide"] = workbench.surfaced_to_decide


def _page(request: Request, template: str, status: int = 200, **values: Any) -> HTMLResponse:
    nonce = secrets.token_urlsafe(16)
    root = str(request.scope.get("root_path", "")).rstrip("/") + "/"
    body = _templates.get_template(template).render(nonce=nonce, root=root, **values)
    return HTMLResponse(
        body,
        status_code=status,
        headers={
            "Content-Security-Policy": (
                f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; "
                "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
            ),
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-store",
        },
    )


def _bench(request: Request) -> Workbench:
    bench: Workbench = request.app.state.bench
    return bench


FILTERS = ("status", "signal", "signature", "tool", "tag")
SORTS = {
    "name": lambda r: r.name,
    "status": lambda r: (workbench.STATUSES.index(r.status), r.name),
    "markers": lambda r: (-r.markers, r.name),
    "signal": lambda r: (r.signals, r.name),
    "signature": lambda r: (r.signature, r.name),
}


def _filtered(rows: list[workbench.QueueRow], query: dict[str, str]) -> list[workbench.QueueRow]:
    def keep(row: workbench.QueueRow) -> bool:
        wanted = {
            "status": (row.status,),
            "signal": row.signals,
            "signature": (row.signature,),
            "tool": row.tools,
            "tag": row.tags,
        }
        return all(query[k] in wanted[k] for k in FILTERS if query.get(k))

    order = SORTS.get(query.get("sort", ""), SORTS["status"])
    return sorted(filter(keep, rows), key=order)  # type: ignore[arg-type]


def _query(request: Request) -> dict[str, str]:
    return {k: request.query_params[k] for k in (*FILTERS, "sort") if request.query_params.get(k)}


async def queue_page(request: Request) -> Response:
    bench = _bench(request)
    rows = workbench.queue(bench.drafts, bench.checker, bench.suite)
    query = _query(request)
    shown = _filtered(rows, query)
    choices = {
        "status": sorted({r.status for r in rows}),
        "signal": sorted({s for r in rows for s in r.signals}),
        "signature": sorted({r.signature for r in rows if r.signature}),
        "tool": sorted({t for r in rows for t in r.tools}),
        "tag": sorted({t for r in rows for t in r.tags}),
    }
    log.info("queue: %d cases, %d shown", len(rows), len(shown))
    return _page(
        request,
        "queue.html",
        rows=shown,
        total=len(rows),
        choices=choices,
        query=query,
        sorts=list(SORTS),
        suffix=("?" + urlencode(query)) if query else "",
        suite=bench.suite,
        ready=sum(r.status == "ready" for r in rows),
        notice=NOTICES.get(request.query_params.get("done", ""), ""),
    )


def _order(request: Request) -> list[str]:
    """The queue's cases still to review, in the page's filter and sort."""
    bench = _bench(request)
    rows = _filtered(workbench.queue(bench.drafts, bench.checker), _query(request))
    return [r.name for r in rows if r.status != "promoted"]


def _after(order: list[str], name: str, left: set[str]) -> str | None:
    """The case to review after ``name``: the next one of ``order`` still in
    ``left``, else the first one left."""
    at = order.index(name) if name in order else -1
    later = [n for n in order[at + 1 :] if n in left]
    anywhere = [n for n in order if n in left and n != name]
    return (later or anywhere)[0] if later or anywhere else None


def _case_page(
    request: Request,
    name: str,
    status: int = 200,
    notice: str = "",
    problem: str = "",
    typed: workbench.Decisions | None = None,
    changes: list[workbench.Change] | None = None,
) -> HTMLResponse:
    bench = _bench(request)
    case = workbench.read_case(bench.drafts, name)
    bench.snapshots.remember(case)
    findings = bench.checker.findings(case)
    query = _query(request)
    order = _order(request)
    at = order.index(name) if name in order else -1
    decided = typed or workbench.decisions(case, bench.config.coverage.classes)
    chat = workbench.chat(case, workbench.failure_rules(bench.config))
    tools = list(
        dict.fromkeys([*bench.config.agent.tools, *(c.tool for t in chat for c in t.calls)])
    )
    return _page(
        request,
        "case.html",
        status=status,
        name=name,
        case=case,
        chat=chat,
        flags=workbench.flags(case.spec),
        findings=findings,
        relative=lambda p: p.relative_to(bench.drafts.resolve()),
        decided=decided,
        rule_keys=[json.dumps(list(k)) for k in decided.arg_rules],
        arg_values=workbench.observed_args(case),
        tools=tools,
        classes=bench.config.coverage.classes,
        priorities=workbench.PRIORITIES,
        match_types=MATCH_TYPES,
        arg_rules=ARG_RULES,
        previous=order[at - 1] if at > 0 else None,
        next=_after(order, name, set(order)),  # a saved case sorts elsewhere: wrap round
        suffix=("?" + urlencode(query)) if query else "",
        notice=notice,
        problem=problem,
        suite=bench.suite,
        marker=workbench.MARKER,
        preview=workbench.preview(case, bench.config.score.response_match_threshold),
        changes=changes,
    )


#: What a page says after a redirect (``?done=...``); never text from the request.
NOTICES = {
    "saved": "Saved the three files.",
    "discarded": (
        "Discarded the draft: its session is recorded in the drafts folder's ledger, "
        "so no later run drafts it again."
    ),
}


async def case_page(request: Request) -> Response:
    name = request.path_params["name"]
    return _case_page(request, name, notice=NOTICES.get(request.query_params.get("done", ""), ""))


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def _rule_key(raw: str, index: int) -> tuple[str, str]:
    """A form's ``rulekey-N``: the JSON pair [tool, argument] the page wrote.
    Anything else is a request the page never sends: refused (400), not a 500."""
    try:
        key = json.loads(raw)
    except ValueError:
        key = None
    if not (isinstance(key, list) and len(key) == 2 and all(isinstance(k, str) for k in key)):
        raise UsageError(f"form field rulekey-{index}: not a [tool, argument] pair")
    return key[0], key[1]


def decisions_from_form(form: Any, turns: int) -> workbench.Decisions:
    """The case form's fields as decisions (missing fields read as empty)."""

    def text(key: str) -> str:
        value = form.get(key, "")
        return value if isinstance(value, str) else ""

    rules: dict[tuple[str, str], str] = {}
    index = 0
    while f"rulekey-{index}" in form:
        rules[_rule_key(text(f"rulekey-{index}"), index)] = text(f"rule-{index}")
        index += 1
    must_not = [v for v in form.getlist("mustnotcall") if isinstance(v, str)]
    return workbench.Decisions(
        eval_id=text("eval_id").strip(),
        description=text("description").strip(),
        protects=text("protects").strip(),
        answers=[
            workbench.Answer(text(f"answer-{i}").replace("\r\n", "\n"), f"reviewed-{i}" in form)
            for i in range(turns)
        ],
        match=text("match"),
        arg_rules=rules,
        must_not_call=must_not,
        must_not_call_decided=bool(must_not) or "mustnotcall_decided" in form,
        required_facts=_lines(text("required_facts")),
        forbidden_claims=_lines(text("forbidden_claims")),
        failure_class=text("failure_class"),
        priority=text("priority"),
        other_tags=[t.strip() for t in text("other_tags").split(",") if t.strip()],
        flagged_but_fine="flagged_but_fine" in form,
        flagged_but_fine_reason=text("flagged_but_fine_reason").strip(),
    )


async def save_case(request: Request) -> Response:
    bench = _bench(request)
    name = request.path_params["name"]
    case = workbench.read_case(bench.drafts, name)
    form = await request.form()
    seen = tuple(str(form.get(f"digest-{i}", "")) for i in range(3))
    decided = decisions_from_form(form, workbench.turn_count(case))
    try:
        workbench.save(bench.drafts, name, decided, seen)
    except ConflictError:
        log.info("save %s: refused, a file changed on disk", name)
        return _conflict_page(request, name, decided, seen)
    except workbench.NotEditable as exc:
        log.info("save %s: refused, a file the form cannot write into", name)
        return _case_page(request, name, status=400, problem=str(exc))
    log.info("save %s: written", name)
    return RedirectResponse(_with_notice(request.url.path, "saved", request), status_code=303)


def _with_notice(path: str, done: str, request: Request) -> str:
    return f"{path}?{urlencode({'done': done, **_query(request)})}"


def _conflict_page(
    request: Request, name: str, typed: workbench.Decisions, seen: tuple[str, ...]
) -> HTMLResponse:
    """The case page again, its form holding what was typed (merged with the
    disk's change to what was not touched), the changes listed, and the
    digests of the files as they are now: saving again writes the form."""
    bench = _bench(request)
    now = workbench.read_case(bench.drafts, name)
    classes = bench.config.coverage.classes
    then = bench.snapshots.recall(now, seen)
    merged, changes = workbench.merge(
        workbench.decisions(then, classes) if then else None,
        workbench.decisions(now, classes),
        typed,
    )
    files = ", ".join(workbench.changed_files(now, seen)) or "a case file"
    problem = (
        f"{files}: changed on disk since the page was loaded; nothing was saved. "
        "The form keeps what you typed; what changed on disk is listed below. "
        "Save again to write the form."
    )
    return _case_page(request, name, 409, problem=problem, typed=merged, changes=changes)


async def discard_case(request: Request) -> Response:
    bench = _bench(request)
    name = request.path_params["name"]
    form = await request.form()
    seen = tuple(str(form.get(f"digest-{i}", "")) for i in range(3))
    reason = form.get("reason", "")
    order = _order(request)
    try:
        workbench.discard(
            bench.drafts, name, reason if isinstance(reason, str) else "", seen,
            DISCARD_LOCK_TIMEOUT,
        )  # fmt: skip
    except (ConflictError, workbench.NotEditable) as exc:
        log.info("discard %s: refused (%s)", name, type(exc).__name__)
        status = 409 if isinstance(exc, ConflictError) else 400
        return _case_page(request, name, status=status, problem=str(exc))
    log.info("discard %s: done", name)
    after = _after(order, name, set(workbench.case_names(bench.drafts)))
    root = str(request.scope.get("root_path", "")).rstrip("/")
    target = f"{root}/case/{quote(after)}" if after else f"{root}/"
    return RedirectResponse(_with_notice(target, "discarded", request), status_code=303)


async def decide_surfaced(request: Request) -> Response:
    """One surfaced value replaced or kept across the case's three files."""
    bench = _bench(request)
    name = request.path_params["name"]
    form = await request.form()
    seen = tuple(str(form.get(f"digest-{i}", "")) for i in range(3))
    value, verdict = form.get("value"), form.get("verdict")
    if not isinstance(value, str) or not isinstance(verdict, str):
        raise UsageError("form fields value and verdict: required")
    try:
        workbench.decide_surfaced(bench.drafts, name, value, verdict, seen)
    except ConflictError as exc:
        log.info("decide %s: refused, a file changed on disk", name)
        return _case_page(request, name, status=409, problem=str(exc))
    except workbench.NotEditable as exc:
        log.info("decide %s: refused, nothing to decide or a file the page cannot write", name)
        return _case_page(request, name, status=400, problem=str(exc))
    log.info("decide %s: %s", name, "replaced" if verdict == "replace" else "kept")
    query = _query(request)
    suffix = "?" + urlencode(query) if query else ""
    return RedirectResponse(request.url.path.removesuffix("/surfaced") + suffix, status_code=303)


async def promote_cases(request: Request) -> Response:
    from miner.promote import promote_drafts, refusal_reason

    bench = _bench(request)
    if bench.suite is None:
        return _page(
            request,
            "promoted.html",
            status=400,
            result=None,
            reasons={},
            problem="no suite: start the workbench with --suite FOLDER to promote",
        )
    form = await request.form()
    only = form.get("case")
    order = _order(request)
    if isinstance(only, str) and only:
        folders = [workbench.case_folder(bench.drafts, only)]
    else:
        folders = [bench.drafts / n for n in workbench.case_names(bench.drafts)]
    if not folders:
        result = None
    else:
        result = promote_drafts(folders, bench.suite, bench.config, bench.policy)
    promoted = len(result.promoted) if result else 0
    refused = len(result.refused) if result else 0
    log.info("promote: %d promoted, %d refused", promoted, refused)
    left = set(workbench.case_names(bench.drafts))
    wanted = form.get("next")  # the case page's next case, in its filter and sort
    if isinstance(wanted, str) and wanted in left:
        after: str | None = wanted
    else:
        after = _after(order, only if isinstance(only, str) else "", left)
    query = _query(request)
    return _page(
        request,
        "promoted.html",
        result=result,
        reasons={k: refusal_reason(v) for k, v in (result.refused if result else {}).items()},
        problem="",
        suite=bench.suite,
        next=after,
        suffix=("?" + urlencode(query)) if query else "",
    )


async def raw_file(request: Request) -> Response:
    bench = _bench(request)
    path = workbench.inside(bench.drafts, request.path_params["path"])
    return PlainTextResponse(
        path.read_text(encoding="utf-8", errors="replace"),
        headers={"X-Content-Type-Options": "nosniff", "Content-Security-Policy": "sandbox"},
    )


async def _not_found(request: Request, exc: Exception) -> Response:
    log.info("%s: not found", request.method)
    return PlainTextResponse("not found", status_code=404)


async def _refused(request: Request, exc: Exception) -> Response:
    # MinerError messages name files and places, never trace text.
    log.info("%s: refused (%s)", request.method, type(exc).__name__)
    return _page(request, "promoted.html", status=400, result=None, reasons={}, problem=str(exc))


class _Contained:
    """Any unexpected error becomes a 500 whose log line names its type and
    place only: the exception's text may quote trace data."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        except Exception as exc:
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            log.error(
                "internal error (%s at %s:%s)",
                type(exc).__name__,
                Path(frame.filename).name,
                frame.lineno,
            )
            await PlainTextResponse("internal error", status_code=500)(scope, receive, send)


def create_app(bench: Workbench, token: str, hosts: list[str]) -> Starlette:
    """The workbench app, answering only under ``/<token>/`` and to ``hosts``."""
    routes = [
        Route("/", queue_page),
        Route("/case/{name}", case_page, methods=["GET"]),
        Route("/case/{name}", save_case, methods=["POST"]),
        Route("/case/{name}/discard", discard_case, methods=["POST"]),
        Route("/case/{name}/surfaced", decide_surfaced, methods=["POST"]),
        Route("/promote", promote_cases, methods=["POST"]),
        Route("/files/{path:path}", raw_file),
    ]
    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        404: _not_found,
        workbench.CaseNotFound: _not_found,
        MinerError: _refused,
    }
    app = Starlette(
        routes=[Mount(f"/{token}", routes=routes)],
        middleware=[
            Middleware(TrustedHostMiddleware, allowed_hosts=hosts),
            Middleware(_Contained),
        ],
        exception_handlers=handlers,
    )
    app.state.bench = bench
    return app


def new_token() -> str:
    return secrets.token_urlsafe(24)


def serve(
    bench: Workbench,
    host: str = LOOPBACK,
    port: int = 0,
    announce: Callable[[str], None] = print,
) -> None:
    """Serve the workbench until interrupted; ``announce`` gets its URL."""
    import uvicorn

    token = new_token()
    # Its own lines (route, case folder hash, outcome) on stderr; nothing else.
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s miner review: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    loopback = host in (LOOPBACK, "localhost", "::1")
    hosts = [LOOPBACK, "localhost", "[::1]", "::1"] if loopback else ["*"]
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    # Listening before the URL is printed: a browser opened on it at once
    # (a test, a script) waits in the backlog instead of being refused.
    sock.listen(128)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    # The case page's "what the score will check" stems words with nltk, whose
    # import takes seconds: done while the reviewer opens the queue.
    threading.Thread(target=rouge_tokens, args=("warming",), daemon=True).start()
    announce(f"http://{shown}:{bound}/{token}/")
    config = uvicorn.Config(
        create_app(bench, token, hosts),
        access_log=False,  # its lines carry the URL: the token, and the filters
        log_level="warning",
        lifespan="off",
    )
    uvicorn.Server(config).run(sockets=[sock])
