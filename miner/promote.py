"""Promote: move reviewed drafts that pass the loader into a suite.

A suite is a folder holding ``<name>.evalset.json`` (one ADK eval set with
every case), ``<name>.spec.json`` (a JSON list of sidecars) and
``<name>.tools.json`` (a list of tool fixtures), and ADK's ``test_config.json``
(the criteria ``adk eval`` uses: those ``miner score`` gates on, rewritten by
every promote as the suite and ``[score]`` change). Its name is the one its eval
set file already has (so a renamed folder stays the same suite); a new
suite takes the folder's name. A folder with two eval sets is refused.

A case is promoted only when the loader has nothing against it (markers,
schema, pairing of its three files, duplicates - including against the suite
itself -, ids, suite rot, personal data, surfaced values not yet decided;
the suite's sidecar is written without ``provenance.redaction.surfaced``);
the others stay where they are and their reasons are reported. A suite
whose own files do not pair (a sidecar without its case, an eval set missing
beside its sidecars) is refused whole: promote never guesses which file is
right and never drops one.

Crash safety: promote holds the suite's lock, and before it writes anything it
writes a journal (``.miner-promote.json``) with the new suite files and
the draft files it will then remove, each with the digest of the content that
went into the suite. It then replaces the suite files, removes those drafts
whose content is still what was promoted, and deletes the journal. A promote
that finds a journal finishes that work first. Without a journal nothing is
repaired or removed.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from miner import output
from miner.case import CASE_SUFFIXES, LoadedCase
from miner.config import PipelineConfig
from miner.draft import validate_eval_set, validate_test_config
from miner.errors import InputError
from miner.load import UNREADABLE, Finding, load_cases, no_cases
from miner.redaction.policy import RedactionPolicy
from miner.redaction.surfaced import for_suite
from miner.score import ADK_TEST_CONFIG, adk_test_config


def suite_name(folder: Path) -> str:
    """The suite's eval_set_id: its folder name, made to match ^[a-zA-Z0-9_]+$."""
    return re.sub(r"[^a-zA-Z0-9_]", "_", folder.resolve().name) or "suite"


@dataclass(frozen=True)
class Promotion:
    promoted: tuple[str, ...]
    refused: dict[str, tuple[Finding, ...]]
    suite_files: tuple[Path, ...]
    finished: int = 0
    """Files an interrupted earlier promote had journalled and this one wrote or removed."""
    suite_problems: tuple[Finding, ...] = ()
    """Why the suite itself cannot take new cases (nothing was written)."""


def refusal_reason(findings: tuple[Finding, ...]) -> str:
    """Why a case was refused, on one line: each kind of finding once, the
    markers counted (``miner check`` lists every finding with its place)."""
    by_kind: dict[str, list[Finding]] = {}
    for finding in findings:
        by_kind.setdefault(finding.kind, []).append(finding)
    parts = []
    for kind, found in by_kind.items():
        if kind == "review":
            parts.append(f"{len(found)} REVIEW marker{'s' if len(found) > 1 else ''} left")
        elif kind == "personal-data":
            spans = f"{len(found)} surfaced span{'s' if len(found) > 1 else ''}"
            parts.append(f"{spans} of possible personal data to decide")
        else:
            more = f" (and {len(found) - 1} more {kind} findings)" if len(found) > 1 else ""
            parts.append(found[0].message + more)
    return "; ".join(parts)


def suite_identity(folder: Path) -> str:
    """The suite's name: its eval set's, or for a new suite the folder's."""
    names = sorted(
        {
            p.name.split(".")[0]
            for suffix in CASE_SUFFIXES
            for p in (folder.glob(f"*{suffix}") if folder.is_dir() else [])
        }
    )
    if len(names) > 1:
        raise InputError(
            f"{folder}: holds the files of {len(names)} suites ({', '.join(names)}); "
            "promote into a folder with one"
        )
    return names[0] if names else suite_name(folder)


def merge(suite: output.Suite | None, name: str, cases: list[LoadedCase]) -> output.Suite:
    """The suite with ``cases`` appended (data in, data out)."""
    eval_set: dict[str, Any] = (
        dict(suite.eval_set)
        if suite and suite.eval_set
        else {
            "eval_set_id": name,
            "name": name,
            "description": "Reviewed regression cases, promoted by miner.",
            "eval_cases": [],
        }
    )
    eval_set["eval_cases"] = [*eval_set.get("eval_cases", []), *(c.case for c in cases)]
    # A suite never holds a surfaced value's text: the list goes, and so does a
    # replaced value from the rest of the provenance (the observed session).
    specs = [*(suite.specs if suite else []), *(for_suite(c.spec) for c in cases)]
    tools = [*(suite.tools if suite else []), *(c.tools for c in cases if c.tools)]
    validate_eval_set(eval_set, name)
    return output.Suite(name, eval_set, specs, tools)


def _fully_promoted_files(candidates: list[LoadedCase], promoted: set[str]) -> list[Path]:
    """Draft files all of whose cases were promoted (a file may hold several)."""
    users: dict[Path, set[str]] = {}
    for case in candidates:
        for path in case.files:
            users.setdefault(path, set()).add(case.eval_id)
    return [p for p, ids in users.items() if ids <= promoted]


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _adk(suite: output.Suite, config: PipelineConfig) -> dict[str, Any]:
    """The suite's ADK test_config.json: the criteria ``miner score`` gates on."""
    adk_config = adk_test_config(suite.specs, config.score.response_match_threshold)
    validate_test_config(adk_config)
    return adk_config


def promote_drafts(
    drafts: list[Path],
    folder: Path,
    config: PipelineConfig,
    policy: RedactionPolicy | None,
    lock_timeout: float = 0,
) -> Promotion:
    with output.locked(folder, lock_timeout, "miner promote"):
        finished = output.finish_promote_journal(folder)
        return _promote(drafts, folder, config, policy, finished)


def _promote(
    drafts: list[Path],
    folder: Path,
    config: PipelineConfig,
    policy: RedactionPolicy | None,
    finished: int,
) -> Promotion:
    name = suite_identity(folder)
    paths = output.suite_paths(folder, name)
    suite_files = output.existing(paths)
    if suite_files and paths[0] not in suite_files:
        raise InputError(
            f"{paths[0]}: missing beside {', '.join(p.name for p in suite_files)}; restore it "
            "(say, git checkout) - promote never guesses which cases the suite holds"
        )
    if finished:  # the journal removed some drafts: the rest are still to do
        drafts = [d for d in drafts if output.case_paths(d)]
    draft_files = output.read_case_files(drafts)
    # The suite first: a duplicate id is the draft's fault, not the suite's.
    case_files = [*output.read_case_files(suite_files), *draft_files]
    loaded = load_cases(case_files, config, policy)
    in_suite = {p.resolve() for p in suite_files}
    problems = tuple(
        f for f in loaded.findings if f.file.resolve() in in_suite and f.kind in UNREADABLE
    )
    if problems:
        return Promotion((), {}, tuple(paths), finished, problems)
    candidates = [c for c in loaded.cases if c.eval_set_file.resolve() not in in_suite]
    if (
        draft_files
        and not candidates
        and not any(f.file in dict(draft_files) for f in loaded.findings)
    ):
        raise no_cases(drafts)
    refused: dict[str, tuple[Finding, ...]] = {}
    for case in candidates:
        reasons = tuple(f for f in loaded.findings if f.case == case.eval_id)
        if reasons:
            refused[case.eval_id] = reasons
    # A draft file's finding that no candidate owns (a sidecar or fixtures whose
    # case is gone) refuses what it names: promote never passes what check fails.
    named = {c.eval_id for c in candidates}
    drafted = {p.resolve() for p, _ in draft_files}
    for finding in loaded.findings:
        if finding.case not in named and finding.file.resolve() in drafted:
            owner = finding.case if finding.case not in ("", "-") else str(finding.file)
            refused[owner] = (*refused.get(owner, ()), finding)
    passing = [c for c in candidates if c.eval_id not in refused]
    if passing:
        suite = merge(output.read_suite(folder, name), name, passing)
        text_of = dict(draft_files)
        remove = [
            (path, _digest(text_of[path]))
            for path in _fully_promoted_files(candidates, {c.eval_id for c in passing})
            if path in text_of
        ]
        output.commit_promotion(folder, suite, remove, {ADK_TEST_CONFIG: _adk(suite, config)})
    elif suite_files:  # nothing new, but the criteria follow the config
        current = output.read_suite(folder, name)
        if current is not None:
            output.write_json_if_changed(folder / ADK_TEST_CONFIG, _adk(current, config))
    return Promotion(
        promoted=tuple(c.eval_id for c in passing),
        refused=refused,
        suite_files=tuple(paths),
        finished=finished,
    )
