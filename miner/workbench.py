"""The review workbench's model: the drafted cases of a folder as a queue, one
case as the conversation that flagged it, and a reviewer's decisions turned
into the case's three files.

No web code here: ``miner.webapp`` renders what these functions return. The
files on disk are the source of truth: every call reads them again, a hand
edit shows on the next read, and a save is refused when a file changed since
it was read (``output.replace_json_files``). Findings come from the one loader
(``miner.load``), exactly as ``miner check <case folder>`` gives them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from miner import output, score
from miner.case import (
    EVALSET,
    MARKER,
    SPEC,
    TOOLS,
    Flag,
    LoadedCase,
    first_user_message,
    flags,
    provenance_turns,
    signals,
)
from miner.config import PipelineConfig
from miner.errors import ConflictError, InputError
from miner.load import ARG_RULES, MATCH_TYPES, OPT_OUT_TAG, UNREADABLE, Finding, load_cases
from miner.promote import refusal_reason
from miner.redaction.policy import RedactionPolicy
from miner.score import Check
from miner.signals.error import Error, ErrorConfig, result_failed
from miner.summary import RunSummary

#: A case's statuses, in the queue's order.
STATUSES = ("refused", "in review", "drafted", "ready", "promoted")
#: What a draft puts before every reference answer.
ANSWER_MARK = f"{MARKER}: "
PRIORITIES = ("p0", "p1", "p2")


class CaseNotFound(InputError):
    """No drafted case of that name inside the drafts folder."""


class NotEditable(InputError):
    """A case file the form cannot write into (broken JSON, several cases)."""


@dataclass(frozen=True)
class CaseFiles:
    """A draft folder's three files: their paths, JSON values and digests."""

    name: str
    paths: tuple[Path, Path, Path]
    """Eval set, sidecar, tool fixtures."""
    values: tuple[Any, Any, Any]
    digests: tuple[str, str, str]

    @property
    def evalset(self) -> dict[str, Any]:
        return self.values[0] if isinstance(self.values[0], dict) else {}

    @property
    def case(self) -> dict[str, Any]:
        cases = self.evalset.get("eval_cases")
        return cases[0] if isinstance(cases, list) and cases and isinstance(cases[0], dict) else {}

    @property
    def spec(self) -> dict[str, Any]:
        return self.values[1] if isinstance(self.values[1], dict) else {}

    @property
    def tools(self) -> dict[str, Any]:
        return self.values[2] if isinstance(self.values[2], dict) else {}


def case_folder(drafts: Path, name: str) -> Path:
    """The folder of the case ``name``, refused unless it is a folder directly
    inside ``drafts`` (a name that climbs out, ``..`` or a link included)."""
    root = drafts.resolve()
    if not name or "/" in name or "\\" in name or name in (".", "..") or name.startswith("."):
        raise CaseNotFound(f"{name!r}: not a case folder inside {drafts}")
    folder = (drafts / name).resolve()
    if folder.parent != root or not folder.is_dir():
        raise CaseNotFound(f"{name!r}: not a case folder inside {drafts}")
    return folder


def inside(drafts: Path, relative: str) -> Path:
    """A file under ``drafts`` by its relative path, refused if it is elsewhere."""
    root = drafts.resolve()
    target = (root / relative).resolve()
    if not target.is_relative_to(root) or not target.is_file():
        raise CaseNotFound(f"{relative!r}: not a file inside {drafts}")
    return target


def read_case(drafts: Path, name: str) -> CaseFiles:
    folder = case_folder(drafts, name)
    paths = []
    for suffix in (EVALSET, SPEC, TOOLS):
        found = sorted(folder.glob(f"*{suffix}"))
        if len(found) != 1:
            raise CaseNotFound(f"{folder}: expected one *{suffix} file, found {len(found)}")
        paths.append(found[0])
    values, digests = [], []
    for path in paths:
        data = path.read_bytes()
        digests.append(output.digest(data))
        try:
            values.append(json.loads(data))
        except ValueError:
            values.append(None)  # the loader's finding says where
    return CaseFiles(
        name,
        (paths[0], paths[1], paths[2]),
        (values[0], values[1], values[2]),
        (digests[0], digests[1], digests[2]),
    )


def case_names(drafts: Path) -> list[str]:
    """The draft folders under ``drafts`` (each holding an eval set), sorted."""
    if not drafts.is_dir():
        return []
    return sorted(
        p.name
        for p in drafts.iterdir()
        if p.is_dir() and not p.name.startswith(".") and any(p.glob(f"*{EVALSET}"))
    )


@dataclass
class Checker:
    """The loader with the pipeline config and Presidio, as `miner check` runs it;
    results are kept per content digest, so an unchanged case is not rechecked."""

    config: PipelineConfig
    policy: RedactionPolicy | None
    _seen: dict[tuple[str, ...], tuple[Finding, ...]] = field(default_factory=dict)

    def findings(self, case: CaseFiles) -> tuple[Finding, ...]:
        key = (case.name, *case.digests)
        if key not in self._seen:
            texts = output.read_case_files([case.paths[0].parent])
            self._seen[key] = load_cases(texts, self.config, self.policy).findings
        return self._seen[key]


@dataclass(frozen=True)
class QueueRow:
    name: str
    eval_id: str
    status: str
    """drafted, in review, ready, refused or promoted."""
    reason: str
    signals: tuple[str, ...]
    flags: tuple[Flag, ...]
    signature: str
    first_message: str
    markers: int
    tools: tuple[str, ...]
    tags: tuple[str, ...]


def _status(case: CaseFiles, findings: tuple[Finding, ...]) -> tuple[str, str, int]:
    markers = sum(1 for f in findings if f.kind == "review")
    if not findings:
        return "ready", "", 0
    broken = tuple(f for f in findings if f.kind in UNREADABLE)
    if broken:  # a file that does not read, or three files that do not pair
        return "refused", refusal_reason(broken), markers
    if markers == 0:
        return "refused", refusal_reason(findings), 0
    untouched = (
        MARKER in str(case.case.get("eval_id", ""))
        and MARKER in str(case.spec.get("protects", MARKER))
        and all(t.startswith(MARKER) for t in _answers(case))
    )
    return ("drafted" if untouched else "in review"), "", markers


def _answers(case: CaseFiles) -> list[str]:
    return [a for a, _parts in _answer_parts(case)]


def _answer_parts(case: CaseFiles) -> list[tuple[str, list[Any]]]:
    out = []
    for turn in _list(case.case.get("conversation")):
        parts = _list(_obj(turn.get("final_response")).get("parts"))
        texts = [p["text"] for p in parts if isinstance(p.get("text"), str)]
        out.append(("\n".join(texts), parts))
    return out


def turn_count(case: CaseFiles) -> int:
    return len(_answer_parts(case))


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def signature_texts(drafts: Path) -> dict[str, str]:
    """Each drafted case's failure signature (masked text), from the run summaries."""
    out: dict[str, str] = {}
    for _name, value in reversed(output.read_run_summaries(drafts)):
        summary = RunSummary.from_json(value)
        if summary is None:
            continue
        text_of = {g.hash: g.signature for g in summary.signatures}
        for case, kind in summary.case_signatures.items():
            out[case] = text_of.get(kind, "")
    return out


def queue(drafts: Path, checker: Checker, suite: Path | None = None) -> list[QueueRow]:
    """Every case of the folder with its status, then those already in the suite."""
    signature_of = signature_texts(drafts)
    rows = []
    for name in case_names(drafts):
        try:
            case = read_case(drafts, name)
        except CaseNotFound as exc:
            rows.append(_broken_row(name, str(exc)))
            continue
        findings = checker.findings(case)
        status, reason, markers = _status(case, findings)
        spec = case.spec
        tools = sorted({str(c.get("tool", "")) for c in _list(case.tools.get("calls"))} - {""})
        rows.append(
            QueueRow(
                name=name,
                eval_id=str(case.case.get("eval_id", "")),
                status=status,
                reason=reason,
                signals=tuple(signals(spec)),
                flags=tuple(flags(spec)),
                signature=signature_of.get(name, ""),
                first_message=first_user_message(case.case),
                markers=markers,
                tools=tuple(tools),
                tags=real_tags(spec),
            )
        )
    return rows + promoted_rows(suite, signature_of)


def real_tags(spec: dict[str, Any]) -> tuple[str, ...]:
    """A sidecar's tags, without the draft's ``REVIEW: add the failure class...``
    placeholder (a sentence for the reviewer, not a tag to filter by)."""
    return tuple(
        t for t in spec.get("tags") or [] if isinstance(t, str) and not t.startswith(MARKER)
    )


def _broken_row(name: str, reason: str) -> QueueRow:
    return QueueRow(name, "", "refused", reason, (), (), "", "", 0, (), ())


def promoted_rows(suite: Path | None, signature_of: dict[str, str]) -> list[QueueRow]:
    """The suite's mined cases, shown as promoted (their drafts are gone)."""
    if suite is None or not suite.is_dir():
        return []
    rows = []
    for path in sorted(suite.glob(f"*{SPEC}")):
        try:
            specs = json.loads(path.read_bytes())
        except ValueError:
            continue
        for spec in specs if isinstance(specs, list) else [specs]:
            if not isinstance(spec, dict) or "provenance" not in spec:
                continue
            name = f"draft_{spec['provenance'].get('sessionHash', '')}"
            rows.append(
                QueueRow(
                    name=name,
                    eval_id=str(spec.get("evalId", "")),
                    status="promoted",
                    reason="",
                    signals=tuple(signals(spec)),
                    flags=tuple(flags(spec)),
                    signature=signature_of.get(name, ""),
                    first_message=_observed_first(spec),
                    markers=0,
                    tools=tuple(sorted({n for n in _observed_tools(spec)})),
                    tags=real_tags(spec),
                )
            )
    return rows


def _observed(spec: dict[str, Any]) -> list[dict[str, Any]]:
    return _list(_obj(_obj(spec.get("provenance")).get("observed")).get("turns"))


def _observed_first(spec: dict[str, Any]) -> str:
    turns = _observed(spec)
    return str(turns[0].get("user", "")) if turns else ""


def _observed_tools(spec: dict[str, Any]) -> list[str]:
    return [str(u.get("name", "")) for t in _observed(spec) for u in _list(t.get("toolUses"))]


# The conversation, as a chat ----------------------------------------------------


@dataclass(frozen=True)
class ChatCall:
    tool: str
    agent: str
    args: str
    """The arguments as indented JSON."""
    outcome: str
    """The result as indented JSON, or the error message."""
    failed: bool
    """The call raised (a TOOL_ERROR row): ``outcome`` is the error message."""
    handoff: str | None
    """The agent this call hands over to (a transfer, or a new agent taking over)."""
    returned_failure: bool = False
    """The call returned a result that reports a failure (``{"status": "error"}``,
    an ``error`` key: the ``error`` signal's rule), logged by ADK as a success."""


@dataclass(frozen=True)
class ChatTurn:
    turn: str
    user: str
    answer: str
    calls: tuple[ChatCall, ...]
    errors: tuple[str, ...]
    flagged_by: tuple[Flag, ...]


def _pretty(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False)


def failure_rules(config: PipelineConfig) -> ErrorConfig:
    """What the ``error`` signal counts as a tool that returned a failure."""
    rules = getattr(config.signals, Error.name, None)
    return rules if isinstance(rules, ErrorConfig) else ErrorConfig()


def chat(case: CaseFiles, failures: ErrorConfig | None = None) -> list[ChatTurn]:
    """The observed session (``provenance.observed``) turn by turn, with each
    tool call's result or error from the tool fixtures, the turn's errors and
    the agent handoffs; turns that flagged the session carry their flags. A
    call failed when it raised, or when its result reports a failure under
    ``failures`` (the pipeline's ``[signals.error]``, so the chat marks what
    the signal counted)."""
    rules = failures if failures is not None else ErrorConfig()
    calls_of: dict[str, list[dict[str, Any]]] = {}
    for call in _list(case.tools.get("calls")):
        calls_of.setdefault(str(call.get("invocationId", "")), []).append(call)
    errors_of = {
        str(e.get("invocationId", "")): tuple(str(m) for m in e.get("messages") or [])
        for e in _list(case.tools.get("turnErrors"))
    }
    hits = flags(case.spec)
    turns = []
    agent = ""
    for index, observed in enumerate(_observed(case.spec), start=1):
        turn = f"t{index}"
        shown = []
        fixtures = calls_of.get(turn)
        uses = fixtures if fixtures is not None else _list(observed.get("toolUses"))
        for use in uses:
            tool = str(use.get("tool", use.get("name", "")))
            by = str(use.get("agent", "") or "")
            handoff = None
            if tool == "transfer_to_agent":
                handoff = str(_obj(use.get("args")).get("agent_name", "")) or None
            elif by and agent and by != agent:
                handoff = by
            agent = by or agent
            failed = "error" in use
            outcome = str(use["error"]) if failed else _pretty(use.get("result"))
            returned = not failed and result_failed(use.get("result"), rules)
            shown.append(
                ChatCall(
                    tool, by, _pretty(use.get("args") or {}), outcome, failed, handoff, returned
                )
            )
        turns.append(
            ChatTurn(
                turn=turn,
                user=str(observed.get("user", "")),
                answer=str(observed.get("answer", "")),
                calls=tuple(shown),
                errors=errors_of.get(turn, ()),
                flagged_by=tuple(h for h in hits if h.turn == turn),
            )
        )
    return turns


def observed_args(case: CaseFiles) -> dict[tuple[str, str], list[str]]:
    """Each (tool, argument) of the observed calls with the values it took."""
    seen: dict[tuple[str, str], list[str]] = {}
    for turn in _observed(case.spec):
        for use in _list(turn.get("toolUses")):
            for arg, value in _obj(use.get("args")).items():
                shown = seen.setdefault((str(use.get("name", "")), str(arg)), [])
                text = value if isinstance(value, str) else json.dumps(value)
                if text not in shown:
                    shown.append(text)
    return seen


# What the score will check ---------------------------------------------------


@dataclass(frozen=True)
class Phrase:
    """A required fact or forbidden claim, and whether each answer holds it."""

    text: str
    in_reference: bool
    in_observed: bool


@dataclass(frozen=True)
class TurnPreview:
    turn: str
    reference: str
    """The case's reference answer, without the draft's ``REVIEW: `` prefix."""
    observed: str
    """What the agent said in the flagged session."""
    overlap: float
    """ROUGE-1 F-measure of the observed answer against the reference."""
    required: tuple[Phrase, ...]
    """Checked in the last turn only."""
    forbidden: tuple[Phrase, ...]
    checks: tuple[Check, ...]
    """``miner score``'s checks of the observed turn against the case."""


@dataclass(frozen=True)
class Preview:
    """The case as saved, scored against the session that flagged it."""

    turns: tuple[TurnPreview, ...]
    threshold: float | None
    """The ROUGE-1 a turn needs; None: overlap is reported, never gated."""
    passes: bool
    """The flagged session would pass: the case may have frozen the bug."""
    unreviewed: bool = False
    """Some reference answer still carries the draft's ``REVIEW: `` prefix."""


def _as_checked(case: CaseFiles) -> LoadedCase:
    """The case as ``miner score`` will read it once reviewed: answers without
    their ``REVIEW: `` prefix, no placeholder among the facts, claims or tools."""
    eval_case = json.loads(json.dumps(case.case))
    for turn in _list(eval_case.get("conversation")):
        for part in _list(_obj(turn.get("final_response")).get("parts")):
            if isinstance(part.get("text"), str):
                part["text"] = part["text"].removeprefix(ANSWER_MARK)
    spec = dict(case.spec)
    for key in ("requiredFacts", "forbiddenClaims", "mustNotCall"):
        values = spec.get(key)
        spec[key] = (
            [v for v in values if isinstance(v, str) and MARKER not in v]
            if isinstance(values, list)
            else []
        )
    # A sidecar broken by hand is the loader's to report; the preview reads
    # what it can of it rather than fail the page.
    spec["argRules"] = {
        str(t): rules for t, rules in _obj(spec.get("argRules")).items() if isinstance(rules, dict)
    }
    spec["match"] = spec.get("match") if spec.get("match") in MATCH_TYPES else "IN_ORDER"
    return LoadedCase(
        str(eval_case.get("eval_id", "")),
        eval_case,
        str(case.evalset.get("eval_set_id", "")),
        case.paths[0],
        spec,
        case.paths[1],
        case.tools,
    )


def preview(case: CaseFiles, suite_threshold: float | None) -> Preview | None:
    """What ``miner score`` will check, shown on the flagged session
    (``score.preview``): each turn's reference beside the observed answer, the
    overlap, each required fact and forbidden claim found or not (in the
    observed answer, and here also in the reference), and the score's checks.
    None for a case with no observed session (not mined)."""
    observed = provenance_turns(case.spec)
    if observed is None:
        return None
    checked = _as_checked(case)
    shown = score.preview(checked, observed, suite_threshold)
    turns = []
    for turn in shown.turns:
        facts = dict(score.facts_found(turn.reference, [f for f, _ in turn.required_facts]))
        claims = dict(score.facts_found(turn.reference, [c for c, _ in turn.forbidden_claims]))
        turns.append(
            TurnPreview(
                turn=f"t{turn.index}",
                reference=turn.reference,
                observed=turn.observed or "",
                overlap=turn.overlap or 0.0,
                required=tuple(Phrase(f, facts[f], found) for f, found in turn.required_facts),
                forbidden=tuple(Phrase(c, claims[c], made) for c, made in turn.forbidden_claims),
                checks=turn.checks,
            )
        )
    unreviewed = any(text.startswith(ANSWER_MARK) for text in _answers(case))
    threshold = score.case_threshold(checked, suite_threshold)
    return Preview(tuple(turns), threshold, shown.passed, unreviewed)


# The reviewer's decisions -------------------------------------------------------


@dataclass
class Answer:
    text: str
    reviewed: bool
    """False while the answer still carries the draft's ``REVIEW: `` prefix."""


@dataclass
class Decisions:
    """Everything a reviewer decides about a case, as the form shows it."""

    eval_id: str
    description: str
    protects: str
    answers: list[Answer]
    match: str
    arg_rules: dict[tuple[str, str], str]
    """(tool, argument) -> rule, for every argument observed or ruled."""
    must_not_call: list[str]
    must_not_call_decided: bool
    required_facts: list[str]
    forbidden_claims: list[str]
    failure_class: str
    priority: str
    other_tags: list[str]
    flagged_but_fine: bool
    flagged_but_fine_reason: str


def decisions(case: CaseFiles, classes: tuple[str, ...]) -> Decisions:
    """The decisions as the files hold them now: what the form is filled with."""
    spec = case.spec
    answers = []
    for text, _parts in _answer_parts(case):
        if text.startswith(ANSWER_MARK):
            answers.append(Answer(text[len(ANSWER_MARK) :], False))
        else:
            answers.append(Answer(text, MARKER not in text))
    rules: dict[tuple[str, str], str] = {}
    for turn in _observed(spec):
        for use in _list(turn.get("toolUses")):
            for arg in _obj(use.get("args")):
                rules[(str(use.get("name", "")), str(arg))] = "EXACT"
    for tool, args in _obj(spec.get("argRules")).items():
        for arg, rule in _obj(args).items():
            rules[(str(tool), str(arg))] = str(rule)
    must_not = [str(t) for t in spec.get("mustNotCall") or []]
    tags = [str(t) for t in spec.get("tags") or []]
    failure_class = next((t for t in tags if t in classes), "")
    priority = next((t for t in tags if t in PRIORITIES), "")
    others = [
        t
        for t in tags
        if t not in (failure_class, priority, OPT_OUT_TAG) and not t.startswith(MARKER)
    ]
    return Decisions(
        eval_id=str(case.case.get("eval_id", "")),
        description=str(case.evalset.get("description", "")),
        protects=str(spec.get("protects", "")),
        answers=answers,
        match=str(spec.get("match", "IN_ORDER")),
        arg_rules=rules,
        must_not_call=[t for t in must_not if not t.startswith(MARKER)],
        must_not_call_decided=not any(t.startswith(MARKER) for t in must_not),
        required_facts=[str(t) for t in spec.get("requiredFacts") or []],
        forbidden_claims=[str(t) for t in spec.get("forbiddenClaims") or []],
        failure_class=failure_class,
        priority=priority,
        other_tags=others,
        flagged_but_fine=OPT_OUT_TAG in tags,
        flagged_but_fine_reason=str(spec.get("flaggedButFine", "")),
    )


def _marker_of(values: list[Any]) -> list[str]:
    return [v for v in values if isinstance(v, str) and v.startswith(MARKER)]


def applied(case: CaseFiles, decided: Decisions) -> tuple[Any, Any, Any]:
    """The case's three files with ``decided`` written into them; every other
    key is kept as it is, in its place (the files stay in today's formats)."""
    evalset = json.loads(json.dumps(case.evalset))
    spec = json.loads(json.dumps(case.spec))
    tools = json.loads(json.dumps(case.tools))
    # The eval id, renamed in all three files at once.
    [eval_case, *_] = evalset.get("eval_cases") or [{}]
    eval_case["eval_id"] = decided.eval_id
    spec["evalId"] = decided.eval_id
    tools["evalId"] = decided.eval_id
    evalset["description"] = decided.description
    for turn, answer in zip(_list(eval_case.get("conversation")), decided.answers, strict=False):
        text = answer.text if answer.reviewed else ANSWER_MARK + answer.text
        response = turn.setdefault("final_response", {"role": "model", "parts": []})
        parts = _list(response.get("parts"))
        texts = [p for p in parts if isinstance(p.get("text"), str)]
        if texts:
            texts[0]["text"] = text
            response["parts"] = [p for p in parts if p is texts[0] or p not in texts]
        else:
            response["parts"] = [{"text": text}, *parts]
    spec["protects"] = decided.protects
    spec["match"] = decided.match if decided.match in MATCH_TYPES else spec.get("match")
    rules = _obj(spec.get("argRules"))
    for (tool, arg), rule in decided.arg_rules.items():
        if rule not in ARG_RULES:
            continue
        if rule != "EXACT" or arg in _obj(rules.get(tool)):
            rules.setdefault(tool, {})[arg] = rule
    spec["argRules"] = rules
    undecided = [] if decided.must_not_call_decided else _marker_of(spec.get("mustNotCall") or [])
    spec["mustNotCall"] = list(dict.fromkeys([*decided.must_not_call, *undecided]))
    spec["requiredFacts"] = [f for f in decided.required_facts if f.strip()]
    spec["forbiddenClaims"] = [c for c in decided.forbidden_claims if c.strip()]
    tags = list(dict.fromkeys(t for t in decided.other_tags if t.strip()))
    tags += [t for t in (decided.failure_class, decided.priority) if t and t not in tags]
    if not (decided.failure_class and decided.priority):
        tags += _marker_of(case.spec.get("tags") or []) or [
            f"{MARKER}: add the failure class and a priority (p0, p1, p2)"
        ]
    if decided.flagged_but_fine:
        tags.append(OPT_OUT_TAG)
        spec["flaggedButFine"] = decided.flagged_but_fine_reason
    else:
        spec.pop("flaggedButFine", None)
    spec["tags"] = tags
    return evalset, spec, tools


def save(drafts: Path, name: str, decided: Decisions, seen: tuple[str, ...]) -> None:
    """Write the decisions into the case's three files, unless one of them
    changed on disk since the page showing them was loaded (``seen``: the
    digests it was loaded with): then ConflictError, and nothing is written."""
    case = read_case(drafts, name)
    for path, value in zip(case.paths, case.values, strict=True):
        if not isinstance(value, dict):
            raise NotEditable(
                f"{path}: not a JSON object; fix it in an editor (miner check says where)"
            )
    cases = case.evalset.get("eval_cases")
    if not isinstance(cases, list) or len(cases) != 1 or not isinstance(cases[0], dict):
        raise NotEditable(f"{case.paths[0]}: the page edits an eval set of one case")
    values = applied(case, decided)
    expected = dict(zip(case.paths, seen, strict=True))
    output.replace_json_files(dict(zip(case.paths, values, strict=True)), expected)


# A save refused because the files changed -----------------------------------


class Snapshots:
    """The case files as pages showed them, by digest (the last few hundred),
    so a save refused for a change on disk can say what changed since."""

    def __init__(self, keep: int = 512) -> None:
        self._values: dict[str, Any] = {}
        self._keep = keep

    def remember(self, case: CaseFiles) -> None:
        for key, value in zip(case.digests, case.values, strict=True):
            self._values.pop(key, None)
            self._values[key] = value
        while len(self._values) > self._keep:
            del self._values[next(iter(self._values))]

    def recall(self, case: CaseFiles, digests: tuple[str, ...]) -> CaseFiles | None:
        """``case`` as it was when its files had ``digests``, if remembered."""
        if not all(d in self._values for d in digests) or len(digests) != 3:
            return None
        values = tuple(json.loads(json.dumps(self._values[d])) for d in digests)
        return CaseFiles(case.name, case.paths, (values[0], values[1], values[2]), case.digests)


@dataclass(frozen=True)
class Change:
    """A decision that changed on disk since the page was loaded."""

    decision: str
    loaded: str
    """As the page showed it (empty when no longer known)."""
    on_disk: str
    typed: str
    kept: str
    """What the form now holds: "disk" (you had not touched it), "yours"
    (both changed it: yours is kept, save again to write it) or "same"."""


def changed_files(case: CaseFiles, seen: tuple[str, ...]) -> list[str]:
    """The names of the case's files whose content is no longer what was seen."""
    return [p.name for p, d, s in zip(case.paths, case.digests, seen, strict=False) if d != s]


def _flat(decided: Decisions) -> dict[str, Any]:
    out: dict[str, Any] = {
        f.name.replace("_", " "): getattr(decided, f.name)
        for f in fields(decided)
        if f.name != "answers"
    }
    for index, answer in enumerate(decided.answers, start=1):
        out[f"reference answer t{index}"] = answer
    return out


def _shown(value: Any) -> str:
    if isinstance(value, Answer):
        return value.text + ("" if value.reviewed else f" ({MARKER}: not ticked reviewed)")
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return "\n".join(f"{tool}.{arg}: {rule}" for (tool, arg), rule in value.items())
    if isinstance(value, list):
        return "\n".join(str(v) for v in value)
    return str(value)


def merge(
    loaded: Decisions | None, on_disk: Decisions, typed: Decisions
) -> tuple[Decisions, list[Change]]:
    """The form after a save refused for a change on disk: what the reviewer
    typed, plus the disk's change to every decision the reviewer had not
    touched, and each decision the disk changed. Without the loaded version
    (the workbench restarted), every decision the form and the disk disagree
    on is listed and the form's is kept."""
    before = _flat(loaded) if loaded is not None else None
    disk, form = _flat(on_disk), _flat(typed)
    merged, changes = dict(form), []
    for key in dict.fromkeys([*disk, *form]):
        now, mine = disk.get(key), form.get(key)
        was = before.get(key) if before is not None else None
        if before is not None and now == was:
            continue  # not changed on disk
        if before is None and now == mine:
            continue
        if now == mine:
            kept = "same"
        elif before is not None and mine == was and key in disk:
            merged[key], kept = now, "disk"
        else:
            kept = "yours"
        changes.append(
            Change(key, _shown(was) if was is not None else "", _shown(now), _shown(mine), kept)
        )
    answers = [merged[k] for k in merged if k.startswith("reference answer t")]
    values: dict[str, Any] = {f.name: merged.get(f.name.replace("_", " ")) for f in fields(typed)}
    values["answers"] = answers
    return Decisions(**values), changes


# Discarding a draft -------------------------------------------------------------


def drafted_session(drafts: Path, name: str) -> str:
    """The session hash of the drafted case ``name`` in ``drafts``, refused
    (CaseNotFound, NotEditable) unless it is a ``draft_<hash>`` folder of three
    case files."""
    case = read_case(drafts, name)
    session = name.removeprefix("draft_")
    if not name.startswith("draft_") or len(session) != 16:
        raise NotEditable(f"{case.paths[0].parent}: not a drafted case folder (draft_<hash>)")
    return session


def discard(
    drafts: Path,
    name: str,
    reason: str,
    seen: tuple[str, ...] | None,
    lock_timeout: float,
    purpose: str = "miner review --serve (discard)",
) -> None:
    """Remove a draft not worth a case, its session recorded as discarded (with
    ``reason``) in the drafts folder's ledger, which ``miner draft`` reads: no
    later run drafts it again. Refused without a reason, and when a file
    changed since the page was loaded (``seen``, its files' digests;
    ConflictError); ``miner discard`` has seen no page and passes None."""
    if not reason.strip():
        raise NotEditable("say why the draft is discarded: the ledger keeps the reason")
    session = drafted_session(drafts, name)
    with output.locked(drafts, lock_timeout, purpose):
        changed = [] if seen is None else changed_files(read_case(drafts, name), seen)
        if changed:
            raise ConflictError(
                f"{', '.join(changed)}: changed on disk since the page was loaded; "
                "nothing was discarded"
            )
        output.discard_draft(drafts, case_folder(drafts, name), session, reason.strip())


# Surfaced values: the spans redaction put before the reviewer -------------------


@dataclass(frozen=True)
class ToDecide:
    """A surfaced value no reviewer has decided yet, as the page offers it."""

    entity: str
    value: str
    occurrences: int
    """In the case's three files, outside the sidecar's provenance."""
    placeholder: str
    """What *replace* would put in its place."""


def surfaced_to_decide(case: CaseFiles) -> list[ToDecide]:
    """The case's undecided surfaced values, with what replacing each would write."""
    from miner.redaction import surfaced as surfacing

    values = case.values
    strings = surfacing.case_strings(values)
    return [
        ToDecide(
            s.entity,
            s.value,
            sum(len(surfacing.occurrences(t, s.value)) for t in strings),
            surfacing.next_placeholder(values, s.entity),
        )
        for s in surfacing.case_undecided(values)
    ]


def decide_surfaced(
    drafts: Path, name: str, value: str, verdict: str, seen: tuple[str, ...]
) -> None:
    """Replace or keep one surfaced value across the case's three files
    (``miner.redaction.surfaced.decide``), unless a file changed on disk since
    the page was loaded (``seen``): then ConflictError, and nothing is written."""
    from miner.redaction import surfaced as surfacing

    case = read_case(drafts, name)
    if not all(isinstance(v, dict) for v in case.values):
        raise NotEditable(f"{case.paths[0].parent}: a case file is not a JSON object; fix it first")
    open_values = {s.value for s in surfaced_to_decide(case)}
    if verdict not in surfacing.VERDICTS or value not in open_values:
        raise NotEditable(f"{case.paths[1]}: no such surfaced value left to decide")
    values = surfacing.decide(case.values, value, verdict)  # type: ignore[arg-type]
    expected = dict(zip(case.paths, seen, strict=True))
    output.replace_json_files(dict(zip(case.paths, values, strict=True)), expected)
