"""Promote: move reviewed drafts that pass the loader into a suite.

A suite is a folder holding ``<name>.evalset.json`` (one ADK eval set with
every case), ``<name>.spec.json`` (a JSON list of sidecars) and
``<name>.tools.json`` (a list of tool fixtures). A case is promoted only when
the loader has nothing against it (markers, schema, pairing, duplicates -
including against the suite itself -, ids, suite rot, personal data); the
rest are still promoted, and the reasons for each refusal are reported.
Promoted draft files are deleted (the session stays in the drafts ledger, so
it is not drafted again). Each suite file is replaced atomically, the eval set
last: it is the commit point. Sidecars and tool fixtures whose case is not in
the eval set are what a crash between the files leaves, and the next promote
drops them before it loads anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from miner import io
from miner.config import PipelineConfig
from miner.draft import validate_eval_set
from miner.load import Finding, LoadedCase, load_cases
from miner.redact import Detector


def suite_name(folder: Path) -> str:
    """The suite's eval_set_id: its folder name, made to match ^[a-zA-Z0-9_]+$."""
    return re.sub(r"[^a-zA-Z0-9_]", "_", folder.resolve().name) or "suite"


@dataclass(frozen=True)
class Promotion:
    promoted: tuple[str, ...]
    refused: dict[str, tuple[Finding, ...]]
    suite_files: tuple[Path, ...]
    repaired: int = 0
    """Sidecars an interrupted earlier promote had left without a case."""


def merge(suite: io.Suite | None, name: str, cases: list[LoadedCase]) -> io.Suite:
    """The suite with ``cases`` appended (data in, data out)."""
    eval_set: dict[str, Any] = (
        dict(suite.eval_set)
        if suite
        else {
            "eval_set_id": name,
            "name": name,
            "description": "Reviewed regression cases, promoted by miner.",
            "eval_cases": [],
        }
    )
    eval_set["eval_cases"] = [*eval_set.get("eval_cases", []), *(c.case for c in cases)]
    specs = [*(suite.specs if suite else []), *(c.spec for c in cases)]
    tools = [*(suite.tools if suite else []), *(c.tools for c in cases if c.tools)]
    validate_eval_set(eval_set, name)
    return io.Suite(name, eval_set, specs, tools)


def _draft_files(case: LoadedCase) -> set[Path]:
    tools = case.eval_set_file.with_name(
        case.eval_set_file.name.replace(".evalset.json", ".tools.json")
    )
    files = {case.eval_set_file, tools}
    return files | {case.spec_file} if case.spec_file else files


def _fully_promoted_files(candidates: list[LoadedCase], promoted: set[str]) -> list[Path]:
    """Draft files all of whose cases were promoted (a file may hold several)."""
    users: dict[Path, set[str]] = {}
    for case in candidates:
        for path in _draft_files(case):
            users.setdefault(path, set()).add(case.eval_id)
    return [p for p, ids in users.items() if ids <= promoted]


def drop_orphans(suite: io.Suite) -> tuple[io.Suite, int]:
    """Sidecars and tool fixtures with no case in the eval set are what an
    interrupted promote leaves (the eval set is written last): drop them."""
    ids = {c.get("eval_id") for c in suite.eval_set.get("eval_cases", []) if isinstance(c, dict)}

    def kept(items: list[Any]) -> list[Any]:
        return [i for i in items if not isinstance(i, dict) or i.get("evalId") in ids]

    specs, tools = kept(suite.specs), kept(suite.tools)
    dropped = len(suite.specs) - len(specs)
    return io.Suite(suite.name, suite.eval_set, specs, tools), dropped


def promote_drafts(
    drafts: list[Path], folder: Path, config: PipelineConfig, detector: Detector | None
) -> Promotion:
    name = suite_name(folder)
    existing = io.read_suite(folder, name)
    repaired = 0
    if existing is not None:
        healed, repaired = drop_orphans(existing)
        if healed.eval_set:
            if repaired or len(healed.tools) != len(existing.tools):
                io.write_suite(folder, healed)
        elif repaired or healed.tools != existing.tools:  # no eval set yet: only leftovers
            io.remove_files(io.suite_paths(folder, name))
    suite_files = io.existing(io.suite_paths(folder, name))
    files = io.read_case_files([*drafts, *suite_files])
    loaded = load_cases(files, config, detector)
    in_suite = {p.resolve() for p in suite_files}
    candidates = [c for c in loaded.cases if c.eval_set_file.resolve() not in in_suite]
    refused: dict[str, tuple[Finding, ...]] = {}
    for case in candidates:
        reasons = tuple(f for f in loaded.findings if f.case == case.eval_id)
        if reasons:
            refused[case.eval_id] = reasons
    passing = [c for c in candidates if c.eval_id not in refused]
    if passing:
        current = io.read_suite(folder, name)
        io.write_suite(
            folder, merge(current if current and current.eval_set else None, name, passing)
        )
        io.remove_files(_fully_promoted_files(candidates, {c.eval_id for c in passing}))
    return Promotion(
        promoted=tuple(c.eval_id for c in passing),
        refused=refused,
        suite_files=tuple(io.suite_paths(folder, name)),
        repaired=repaired,
    )
