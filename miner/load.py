"""Stage 5, load: the one loader every command that reads cases uses.

It reads eval-set files (``*.evalset.json``) and sidecar specs
(``*.spec.json``: one object, or a list of them in a suite) and refuses,
listing every reason at once, each with ``file:line:col``:

- ``review``: the marker ``REVIEW`` anywhere (ids, texts, tool args, state,
  any sidecar field, JSON keys too);
- ``json``: text that is not JSON;
- ``schema``: an eval set that google-adk's own ``EvalSet`` model rejects;
- ``sidecar``: a sidecar with a missing or mistyped field, an unknown match
  type or arg rule;
- ``pairing``: a case without a sidecar, or a sidecar without a case;
- ``duplicate``: an eval id loaded twice;
- ``id``: an eval id that is not a descriptive name (``^[a-z0-9_]+$``, and not
  ``test_17``-style numbering);
- ``rot``: a tool named in tool uses, argRules or mustNotCall that the agent
  does not have (per ``[agent] tools`` in the pipeline config);
- ``pii``: personal data that is not a fixture value, found by the same
  Presidio setup as the redact stage (a reviewer may paste real data back).
  The message names the entity type, never the value;
- ``personal-data``: every occurrence of a value the draft surfaced for the
  reviewer (``provenance.redaction.surfaced``) and the reviewer has not
  decided yet (``miner.redaction.surfaced``), with its length and entity type,
  never its text. Needs no config: ``miner review`` lists them too.

Numbers are normalised on load (a float with no fraction becomes an int), so
3 and 3.0 compare equal everywhere later.

A marker outside any case (an eval set's description, say) refuses every
case of that file.
"""

from __future__ import annotations

import difflib
import json
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from miner.case import (
    EVALSET,
    MARKER,
    SPEC,
    TOOLS,
    LoadedCase,
    beside,
    spec_tool_places,
    tool_places,
)
from miner.errors import InputError
from miner.jsontext import Document, InvalidJson, StringAt, parse, path_text
from miner.redaction import surfaced as surfacing
from miner.redaction.placeholders import PLACEHOLDER

if TYPE_CHECKING:  # typing only: `miner review` reads case files without the
    # config's signals (pandas) or the policy's word lists, seconds of imports.
    from miner.config import PipelineConfig
    from miner.redaction.policy import RedactionPolicy

MATCH_TYPES = ("EXACT", "IN_ORDER", "ANY_ORDER")
STILL_MARKED = "still marked REVIEW"
NOT_DESCRIPTIVE = "eval id is not a descriptive name (^[a-z0-9_]+$, not test_17-style numbering)"
ARG_RULES = ("EXACT", "IGNORE", "CASE_INSENSITIVE", "PRESENT")
DESCRIPTIVE_ID = re.compile(r"^[a-z0-9_]+$")
NUMBERED_ID = re.compile(r"^(?:test|case|eval|t|c)?_*\d+$")


@dataclass(frozen=True)
class Finding:
    file: Path
    line: int
    col: int
    case: str
    json_path: str
    kind: str
    message: str
    length: int = 0
    """Characters on disk the finding spans (a marker, a surfaced value); 0: a place."""
    entity: str = ""
    """A ``personal-data`` finding's possible entity type."""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.case} {self.json_path}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "file": str(self.file),
            "line": self.line,
            "col": self.col,
            "case": self.case,
            "jsonPath": self.json_path,
            "kind": self.kind,
            "message": self.message,
            **({"length": self.length} if self.length else {}),
            **({"entity": self.entity} if self.entity else {}),
        }


@dataclass(frozen=True)
class Loaded:
    cases: tuple[LoadedCase, ...]
    """Every case that parsed, findings or not."""
    findings: tuple[Finding, ...]

    @property
    def refused(self) -> frozenset[str]:
        return frozenset(f.case for f in self.findings)

    @property
    def passing(self) -> tuple[LoadedCase, ...]:
        refused = self.refused
        return tuple(c for c in self.cases if c.eval_id not in refused)


def holding_cases(loaded: Loaded, paths: Iterable[Path]) -> Loaded:
    """``loaded``, when its files held a case or something to report about
    one. Case files with no case in them (``"eval_cases": []``) are refused
    like an empty folder (``output.read_case_files``): a gate that read
    nothing must not pass."""
    if loaded.cases or loaded.findings:
        return loaded
    raise no_cases(paths)


def no_cases(paths: Iterable[Path]) -> InputError:
    """The error for case files that hold no case."""
    shown = " ".join(str(p) for p in paths)
    return InputError(f"{shown}: no case in these case files (every eval set is empty)")


def normalise_numbers(value: Any) -> Any:
    """Floats without a fraction become ints, recursively (3.0 -> 3)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: normalise_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalise_numbers(v) for v in value]
    return value


@dataclass
class _Collector:
    findings: list[Finding] = field(default_factory=list)

    def add(
        self,
        doc_file: Path,
        doc: Document | None,
        path: tuple,
        case: str,
        kind: str,
        message: str,
        offset: int | None = None,
        length: int = 0,
        entity: str = "",
    ) -> None:
        if doc is None:
            line, col = 1, 1
        elif offset is not None:
            line, col = doc.line_col(offset)
        else:
            line, col = doc.where(path)
        self.findings.append(
            Finding(doc_file, line, col, case, path_text(path), kind, message, length, entity)
        )


def _marker_offset(doc: Document, s: StringAt) -> int:
    raw = doc.text[s.start : s.end]
    index = raw.find(MARKER)
    return s.start + index if index >= 0 else s.start


def _case_of(path: tuple, ids: dict[int, str], fallback: str) -> str:
    if len(path) >= 2 and path[0] == "eval_cases" and isinstance(path[1], int):
        return ids.get(path[1], fallback)
    return fallback


def _adk_schema_errors(data: Any) -> list[tuple[tuple, str]]:
    from pydantic import ValidationError

    from miner.loading import adk_eval_set

    EvalSet = adk_eval_set()  # noqa: N806  (ADK's class)
    try:
        EvalSet.model_validate(data)
    except ValidationError as exc:
        return [(tuple(e["loc"]), e["msg"]) for e in exc.errors()]
    # EvalSet ignores and EvalCase allows unknown keys, where every model below
    # them forbids them; the eval-set format (docs/formats.md) allows none, so none pass here.
    from google.adk.evaluation.eval_case import EvalCase

    errors: list[tuple[tuple, str]] = []
    for key in set(data) - _field_names(EvalSet):
        errors.append(((key,), "Extra inputs are not permitted"))
    for i, case in enumerate(data["eval_cases"]):
        for key in set(case) - _field_names(EvalCase):
            errors.append((("eval_cases", i, key), "Extra inputs are not permitted"))
    return errors


def _field_names(model: Any) -> set[str]:
    names = set()
    for name, info in model.model_fields.items():
        names.add(name)
        if info.alias:
            names.add(info.alias)
    from pydantic.alias_generators import to_camel

    return names | {to_camel(n) for n in names}


def _check_spec(spec: Any, base: tuple, doc: Document, file: Path, out: _Collector) -> str | None:
    """Field checks of one sidecar; returns its evalId when it has one."""
    if not isinstance(spec, dict):
        out.add(file, doc, base, "-", "sidecar", "expected a JSON object")
        return None
    eval_id = spec.get("evalId")
    label = eval_id if isinstance(eval_id, str) else "-"

    def bad(path: tuple, message: str) -> None:
        out.add(file, doc, (*base, *path), label, "sidecar", message)

    if not isinstance(eval_id, str) or not eval_id:
        bad((), "evalId: required string")
    if spec.get("match", "IN_ORDER") not in MATCH_TYPES:
        bad(("match",), f"unknown match type (expected {', '.join(MATCH_TYPES)})")
    rules = spec.get("argRules", {})
    if not isinstance(rules, dict):
        bad(("argRules",), "argRules: expected an object")
        rules = {}
    for tool, args in rules.items():
        if not isinstance(args, dict):
            bad(("argRules", tool), "expected an object of argument -> rule")
            continue
        for arg, rule in args.items():
            if rule not in ARG_RULES:
                bad(("argRules", tool, arg), f"unknown arg rule (expected {', '.join(ARG_RULES)})")
    for key in ("mustNotCall", "requiredFacts", "forbiddenClaims", "tags"):
        value = spec.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            bad((key,), f"{key}: expected a list of strings")
    if "protects" in spec and not isinstance(spec["protects"], str):
        bad(("protects",), "protects: expected a string")
    threshold = spec.get("responseMatchThreshold")
    if threshold is not None and (
        isinstance(threshold, bool)
        or not isinstance(threshold, int | float)
        or not 0 <= threshold <= 1
    ):
        bad(("responseMatchThreshold",), "responseMatchThreshold: expected a number from 0 to 1")
    return eval_id if isinstance(eval_id, str) and eval_id else None


def load_cases(
    files: Iterable[tuple[Path, str]],
    config: PipelineConfig | None = None,
    policy: RedactionPolicy | None = None,
    schema: bool = True,
) -> Loaded:
    """Load eval sets, sidecars and tool fixtures (``(path, text)`` pairs) into cases.

    ``config`` enables the suite-rot check (its tool list) and is needed, with
    ``policy`` (the redaction policy the draft used), for the personal-data
    check. ``schema=False`` skips the ``schema`` check, and with it importing
    google-adk (seconds): for ``miner review``, which lists no schema finding.
    """
    out = _Collector()
    docs: dict[Path, Document] = {}
    for path, text in files:
        try:
            docs[path] = parse(text)
        except InvalidJson as exc:
            out.findings.append(
                Finding(path, exc.line, exc.col, "-", "$", "json", f"invalid JSON ({exc})")
            )

    cases: list[LoadedCase] = []
    case_where: dict[str, list[tuple[Path, tuple]]] = defaultdict(list)
    specs: dict[str, tuple[dict[str, Any], Path, tuple]] = {}
    spec_where: dict[str, list[tuple[Path, tuple]]] = defaultdict(list)
    tools_by_id: dict[str, dict[str, Any]] = {}
    tools_where: dict[str, list[tuple[Path, tuple]]] = defaultdict(list)

    for path, doc in docs.items():
        name = path.name
        if name.endswith(EVALSET):
            cases.extend(_load_eval_set(path, doc, out, case_where, schema))
        elif name.endswith(SPEC):
            items = doc.data if isinstance(doc.data, list) else [doc.data]
            for i, spec in enumerate(items):
                base: tuple = (i,) if isinstance(doc.data, list) else ()
                eval_id = _check_spec(spec, base, doc, path, out)
                if eval_id:
                    spec_where[eval_id].append((path, base))
                    specs.setdefault(eval_id, (normalise_numbers(spec), path, base))
                _markers(doc, path, out, lambda _path, e=eval_id: e or "-", within=base)
        elif name.endswith(TOOLS):
            items = doc.data if isinstance(doc.data, list) else [doc.data]
            for i, item in enumerate(items):
                base = (i,) if isinstance(doc.data, list) else ()
                if not isinstance(item, dict) or not isinstance(item.get("evalId"), str):
                    out.add(path, doc, base, "-", "tools", "tool fixtures without an evalId")
                    continue
                tools_where[item["evalId"]].append((path, base))
                tools_by_id.setdefault(item["evalId"], normalise_numbers(item))
                _markers(doc, path, out, lambda _p, e=item["evalId"]: e, within=base)

    _pairing(docs, case_where, spec_where, out)
    _tools_pairing(docs, case_where, tools_where, out)

    paired = []
    for case in cases:
        spec_entry = specs.get(case.eval_id)
        paired.append(
            LoadedCase(
                eval_id=case.eval_id,
                case=case.case,
                eval_set_id=case.eval_set_id,
                eval_set_file=case.eval_set_file,
                spec=spec_entry[0] if spec_entry else None,
                spec_file=spec_entry[1] if spec_entry else None,
                tools=tools_by_id.get(case.eval_id),
            )
        )

    if config is not None and config.agent.tools:
        _suite_rot(paired, specs, docs, case_where, set(config.agent.tools), out)
    _surfaced(docs, case_where, out)
    if config is not None and policy is not None:
        _personal_data(docs, policy, out, case_where)
    _frozen_bugs(paired, docs, case_where, config, out)
    return Loaded(cases=tuple(paired), findings=tuple(_sorted(out.findings)))


def _pairing(
    docs: dict[Path, Document],
    case_where: dict[str, list[tuple[Path, tuple]]],
    spec_where: dict[str, list[tuple[Path, tuple]]],
    out: _Collector,
) -> None:
    """Every case has one sidecar and every sidecar one case; no id twice."""
    for eval_id, places in case_where.items():
        for file, where in places[1:]:
            out.add(file, docs[file], where, eval_id, "duplicate", "eval id loaded more than once")
        if eval_id not in spec_where:
            file, where = places[0]
            out.add(file, docs[file], where, eval_id, "pairing", "case has no sidecar spec")
    _belongs_to_a_case(docs, case_where, spec_where, "sidecar", "sidecar has no eval case", out)


def _belongs_to_a_case(
    docs: dict[Path, Document],
    case_where: dict[str, list[tuple[Path, tuple]]],
    where_of: dict[str, list[tuple[Path, tuple]]],
    what: str,
    orphan: str,
    out: _Collector,
) -> None:
    """Each sidecar or tool fixture names a case, once."""
    for eval_id, places in where_of.items():
        for n, (file, where) in enumerate(places):
            if n:
                message = f"{what} evalId loaded more than once"
                out.add(file, docs[file], (*where, "evalId"), eval_id, "duplicate", message)
            elif eval_id not in case_where:
                out.add(file, docs[file], (*where, "evalId"), eval_id, "pairing", orphan)


def _tools_pairing(
    docs: dict[Path, Document],
    case_where: dict[str, list[tuple[Path, tuple]]],
    tools_where: dict[str, list[tuple[Path, tuple]]],
    out: _Collector,
) -> None:
    """A case's tool fixtures belong to it: fixtures whose evalId names no case
    (a rename made in two files of three) are refused, never dropped."""
    orphan = "tool fixtures have no eval case (rename the evalId with the case)"
    _belongs_to_a_case(docs, case_where, tools_where, "tool fixtures", orphan, out)
    # A draft folder's three files: its case needs the fixtures beside it.
    for eval_id, places in case_where.items():
        file, where = places[0]
        fixtures = beside(file, TOOLS)
        if fixtures in docs and eval_id not in tools_where:
            message = f"case has no tool fixtures in {fixtures.name} (evalId differs)"
            out.add(file, docs[file], where, eval_id, "pairing", message)


#: Findings that mean a file or a case's files could not be read as one unit:
#: every command that reads cases refuses them, `miner review` included.
UNREADABLE = frozenset(("json", "pairing", "duplicate", "tools", "shape"))


#: What is left for a reviewer to decide, by the kind ``miner review`` names it.
LEFT_TO_REVIEW = {"review": "review-marker", "personal-data": "personal-data"}


def review_record(finding: Finding) -> dict[str, Any]:
    """One line of ``miner review --json`` (docs/review.md, "For machines"):
    a marker, a surfaced span, or a file or case that cannot be read
    (``unreadable``, with the loader's ``problem`` and its message)."""
    record: dict[str, Any] = {
        "file": str(finding.file),
        "line": finding.line,
        "col": finding.col,
        "length": finding.length,
        "kind": LEFT_TO_REVIEW.get(finding.kind, "unreadable"),
        "case": finding.case,
    }
    if finding.kind == "personal-data":
        record["entity"] = finding.entity
    elif finding.kind not in LEFT_TO_REVIEW:
        record |= {"problem": finding.kind, "message": finding.message}
    return record


def _sorted(findings: list[Finding]) -> list[Finding]:
    unique = {(f.file, f.line, f.col, f.case, f.kind, f.message): f for f in findings}
    return sorted(unique.values(), key=lambda f: (str(f.file), f.line, f.col, f.kind))


def _markers(doc: Document, file: Path, out: _Collector, case_for: Any, within: tuple = ()) -> None:
    for s in doc.strings:
        if s.path[: len(within)] != within or MARKER not in s.value:
            continue
        at = _marker_offset(doc, s)
        out.add(
            file, doc, s.path, case_for(s.path), "review", STILL_MARKED, offset=at,
            length=len(MARKER),
        )  # fmt: skip


def _load_eval_set(
    path: Path,
    doc: Document,
    out: _Collector,
    case_where: dict[str, list[tuple[Path, tuple]]],
    schema: bool = True,
) -> list[LoadedCase]:
    data = doc.data
    if not isinstance(data, dict):
        # `[]` or a bare string: not an eval set at all, and no case to name.
        out.add(path, doc, (), "-", "shape", "not an eval set (expected a JSON object)")
        return []
    set_label = data.get("eval_set_id", path.name)
    raw = data.get("eval_cases") if isinstance(data, dict) else None
    raw_cases: list[Any] = raw if isinstance(raw, list) else []
    ids: dict[int, str] = {}
    loaded = []
    for i, case in enumerate(raw_cases):
        if isinstance(case, dict) and isinstance(case.get("eval_id"), str):
            ids[i] = case["eval_id"]
    for loc, message in _adk_schema_errors(data) if schema else []:
        where = tuple(p for p in loc if isinstance(p, int | str))
        owner = _case_of(where, ids, "")
        # An error outside any case (the set's own fields) refuses every case of the file.
        for label in [owner] if owner else (list(ids.values()) or [str(set_label)]):
            out.add(path, doc, where, label, "schema", f"ADK EvalSet: {message}")
    whole_set = [s for s in doc.strings if MARKER in s.value and _case_of(s.path, ids, "") == ""]
    for i, eval_id in ids.items():
        where = ("eval_cases", i, "eval_id")
        case_where[eval_id].append((path, where))
        if MARKER not in eval_id and (
            not DESCRIPTIVE_ID.match(eval_id) or NUMBERED_ID.match(eval_id)
        ):
            out.add(path, doc, where, eval_id, "id", NOT_DESCRIPTIVE)
        for s in whole_set:  # a marker outside the cases refuses each of them
            at = _marker_offset(doc, s)
            out.add(
                path, doc, s.path, eval_id, "review", STILL_MARKED, offset=at,
                length=len(MARKER),
            )  # fmt: skip
        loaded.append(
            LoadedCase(eval_id, normalise_numbers(raw_cases[i]), str(set_label), path, None, None)
        )
    _markers(doc, path, out, lambda p: _case_of(p, ids, str(set_label)), within=("eval_cases",))
    return loaded


def _suite_rot(
    cases: list[LoadedCase],
    specs: dict[str, tuple[dict[str, Any], Path, tuple]],
    docs: dict[Path, Document],
    case_where: dict[str, list[tuple[Path, tuple]]],
    tools: set[str],
    out: _Collector,
) -> None:
    """A tool the agent does not have, at the field that names it, with the
    nearest of the agent's tools when the name looks like a typo of one."""
    for case in cases:
        file, where = case_where[case.eval_id][0]
        for path, name in tool_places(case.case):
            if name not in tools:
                message = f"tool '{name}' is not one of the agent's tools{_nearest(name, tools)}"
                out.add(file, docs[file], (*where[:-1], *path), case.eval_id, "rot", message)
    for eval_id, (spec, file, base) in specs.items():
        for path, name in spec_tool_places(spec):
            if MARKER not in name and name not in tools:
                message = (
                    f"sidecar names tool '{name}', which the agent does not have"
                    f"{_nearest(name, tools)}"
                )
                out.add(file, docs[file], (*base, *path), eval_id, "rot", message)


def _nearest(name: str, tools: set[str]) -> str:
    close = difflib.get_close_matches(name, sorted(tools), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


OPT_OUT_TAG = "flagged_but_fine"


def _frozen_bugs(
    cases: list[LoadedCase],
    docs: dict[Path, Document],
    case_where: dict[str, list[tuple[Path, tuple]]],
    config: PipelineConfig | None,
    out: _Collector,
) -> None:
    """The frozen-bug guard: a mined case must not pass on the session that was
    flagged as bad, unless its sidecar opts out with a tag and a reason."""
    from miner.score import score_run  # imported late: it loads nltk

    threshold = config.score.response_match_threshold if config else None
    for case in cases:
        spec = case.spec or {}
        observed = case.observed
        if observed is None or MARKER in json.dumps([spec, case.case]):
            continue  # not mined, or not reviewed yet (the markers say so already)
        file, where = case_where[case.eval_id][0]
        reason = spec.get("flaggedButFine")
        if OPT_OUT_TAG in (spec.get("tags") or []):
            if not isinstance(reason, str) or not reason.strip():
                message = f"tag {OPT_OUT_TAG} needs a reason in the sidecar's flaggedButFine"
                out.add(file, docs[file], where, case.eval_id, "frozen", message)
            continue
        if score_run(case, observed, "flagged session", threshold).passed:
            signals = ", ".join((spec.get("provenance") or {}).get("signals") or []) or "flagged"
            message = (
                f"passes on the very session flagged as bad ({signals}): the expectation "
                f"may have frozen the bug (or tag {OPT_OUT_TAG} with a flaggedButFine reason)"
            )
            out.add(file, docs[file], where, case.eval_id, "frozen", message)


#: Fields that hold ids and labels miner or ADK wrote, not conversation data.
_STRUCTURAL_FIELDS = {
    "eval_set_id",
    "eval_id",
    "evalId",
    "invocation_id",
    "invocationId",
    "role",
    "app_name",
    "user_id",
    "match",
    "tool",
    "agent",
}


def _structural(path: tuple) -> bool:
    last = path[-1] if path else None
    if path == ("name",) or "provenance" in path:
        return True
    if len(path) >= 3 and path[-3] == "tool_uses" and last == "name":
        return True  # a tool's name
    parent = path[-2] if len(path) >= 2 else None
    return last in _STRUCTURAL_FIELDS and parent not in ("args", "state", "result")


def _masked(text: str, values: tuple[str, ...] = ()) -> str:
    """Placeholders blanked out (same length), so NER does not read them as
    names; and the case's surfaced and kept values, which the surfaced-value
    findings report or the reviewer decided to keep."""
    for value in values:
        for start, end in surfacing.occurrences(text, value):
            text = text[:start] + " " * (end - start) + text[end:]
    return PLACEHOLDER.sub(lambda m: " " * len(m.group(0)), text)


def _redaction_decisions(
    docs: dict[Path, Document],
) -> dict[str, tuple[tuple[str, ...], frozenset[str], tuple[str, ...]]]:
    """Eval id -> (phrases the draft decided name things, digests of the
    strings it wrote, its surfaced and kept values), from each sidecar's
    ``provenance.redaction``."""
    decided: dict[str, tuple[tuple[str, ...], frozenset[str], tuple[str, ...]]] = {}
    for file, doc in docs.items():
        if not file.name.endswith(SPEC):
            continue
        for spec in doc.data if isinstance(doc.data, list) else [doc.data]:
            if not isinstance(spec, dict) or not isinstance(spec.get("evalId"), str):
                continue
            provenance = spec.get("provenance")
            made = provenance.get("redaction") if isinstance(provenance, dict) else None
            if not isinstance(made, dict):
                continue
            things = tuple(
                t.casefold() for t in made.get("notPersonal") or [] if isinstance(t, str)
            )
            vetted = frozenset(v for v in made.get("vetted") or [] if isinstance(v, str))
            decided[spec["evalId"]] = (things, vetted, surfacing.known_values(spec))
    return decided


def _case_strings(
    docs: dict[Path, Document], case_where: dict[str, list[tuple[Path, tuple]]]
) -> dict[str, list[tuple[Path, Document, StringAt]]]:
    """Eval id -> every string value a reviewer decides on in its files: its
    eval case (and its eval set's own fields), its sidecar but for
    ``provenance``, its tool fixtures."""
    found: dict[str, list[tuple[Path, Document, StringAt]]] = defaultdict(list)
    for file, doc in docs.items():
        if file.name.endswith(EVALSET):
            ids = {w[1]: eid for eid, ws in case_where.items() for f, w in ws if f == file}
            for s in doc.strings:
                if s.is_key:
                    continue
                owner = _case_of(s.path, ids, "")
                for eval_id in [owner] if owner else ids.values():
                    found[eval_id].append((file, doc, s))
        elif file.name.endswith((SPEC, TOOLS)):
            listed = isinstance(doc.data, list)
            items = doc.data if listed else [doc.data]
            for s in doc.strings:
                base = 1 if listed else 0
                if s.is_key or len(s.path) <= base:
                    continue
                item = items[int(s.path[0])] if listed else items[0]
                holder = item.get("evalId") if isinstance(item, dict) else None
                inside_provenance = s.path[base] == surfacing.PROVENANCE
                if isinstance(holder, str) and not (file.name.endswith(SPEC) and inside_provenance):
                    found[holder].append((file, doc, s))
    return found


def _surfaced(
    docs: dict[Path, Document],
    case_where: dict[str, list[tuple[Path, tuple]]],
    out: _Collector,
) -> None:
    """Every occurrence of a surfaced value no reviewer has decided, at its
    place on disk with its length and entity (never its text)."""
    open_values: dict[str, list[surfacing.Surfaced]] = {}
    for file, doc in docs.items():
        if file.name.endswith(SPEC):
            for spec in doc.data if isinstance(doc.data, list) else [doc.data]:
                if isinstance(spec, dict) and isinstance(spec.get("evalId"), str):
                    listed = surfacing.not_kept(spec)
                    if listed:
                        open_values[spec["evalId"]] = listed
    if not open_values:
        return
    strings = _case_strings(docs, case_where)
    for eval_id, values in open_values.items():
        for entry in values:
            message = (
                f"surfaced for review: possible {entry.entity}; replace it with a placeholder, "
                "or keep it in provenance.redaction.kept"
            )
            for file, doc, s in strings.get(eval_id, []):
                for start, end in surfacing.occurrences(s.value, entry.value):
                    at, stop = doc.raw_span(s, start, end)
                    out.add(
                        file, doc, s.path, eval_id, "personal-data", message, offset=at,
                        length=stop - at, entity=entry.entity,
                    )  # fmt: skip


#: Longest string the personal-data check reads; longer ones are a finding.
MAX_CHECKED_STRING = 200_000


def _personal_data(
    docs: dict[Path, Document],
    policy: RedactionPolicy,
    out: _Collector,
    case_where: dict[str, list[tuple[Path, tuple]]],
) -> None:
    places: list[tuple[Path, Document, StringAt, str]] = []
    for file, doc in docs.items():
        ids = {where[1]: eid for eid, ws in case_where.items() for f, where in ws if f == file}
        for s in doc.strings:
            if s.is_key or not s.value.strip() or _structural(s.path):
                continue
            if file.name.endswith(EVALSET):
                label = _case_of(s.path, ids, "-")
            else:  # sidecars and tool fixtures: one object, or a list of them
                item = doc.data[int(s.path[0])] if isinstance(doc.data, list) else doc.data
                owner = item.get("evalId") if isinstance(item, dict) else None
                label = owner if isinstance(owner, str) else "-"
            if len(s.value) > MAX_CHECKED_STRING:
                # A case is a conversation, not a data dump; reading megabytes
                # with NER takes minutes, and skipping them would let data through.
                message = (
                    f"a string of {len(s.value):,} characters (at most {MAX_CHECKED_STRING:,})"
                )
                out.add(file, doc, s.path, label, "size", message)
                continue
            places.append((file, doc, s, label))
    decided = _redaction_decisions(docs)
    nothing: tuple[tuple[str, ...], frozenset[str], tuple[str, ...]] = ((), frozenset(), ())
    # A string miner wrote is the draft's decision, vetted by the same
    # redaction and leak guard: not read with NER again (it would guess again,
    # on text whose context the placeholders changed). Any other is read.
    places = [
        p for p in places
        if surfacing.vetted_digest(p[2].value, decided.get(p[3], nothing)[2])
        not in decided.get(p[3], nothing)[1]
    ]  # fmt: skip
    masked = {
        (s.value, label): _masked(s.value, decided.get(label, nothing)[2])
        for _f, _d, s, label in places
    }
    texts = list(dict.fromkeys(masked.values()))
    found = dict(zip(texts, policy.detect(texts), strict=True))
    # The draft's leak guard too: shapes (e-mails, Luhn-valid cards, IBANs,
    # formatted phones) that do not depend on the detector.
    for file, doc, s, label in places:
        text = masked[(s.value, label)]
        detected = {entity for entity, _value in found[text]}
        for entity in policy.leaks([text]):
            if entity in detected:
                continue  # reported below, with its offset
            out.add(
                file,
                doc,
                s.path,
                label,
                "pii",
                f"possible personal data ({entity}, leak guard) that is not a fixture value",
            )
        things = decided.get(label, nothing)[0]
        for entity, value in found[text]:
            if policy.allows(value) or PLACEHOLDER.fullmatch(value):
                continue
            if any(value.casefold() in thing for thing in things):
                continue  # inside a product name the draft read under items
            raw = doc.text[s.start : s.end]
            index = raw.find(value)
            offset = s.start + index if index >= 0 else s.start
            out.add(
                file,
                doc,
                s.path,
                label,
                "pii",
                f"possible personal data ({entity}) that is not a fixture value",
                offset=offset,
            )
