"""The typed view of a case: its three files (eval set, sidecar, tool
fixtures), their names, and what every command reads out of them.

draft writes these files, load reads and checks them, promote merges them,
score and coverage read turns, tool uses and tags: all through this module,
so a case's shape is decided in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: What a person must still decide carries this literal marker.
MARKER = "REVIEW"

EVALSET = ".evalset.json"
SPEC = ".spec.json"
TOOLS = ".tools.json"
#: The three files of a case (or of a suite), by suffix.
CASE_SUFFIXES: tuple[str, ...] = (EVALSET, SPEC, TOOLS)


def draft_name(session_hash: str) -> str:
    """A drafted case's folder and eval-set id: ``draft_<session hash>``."""
    return f"draft_{session_hash}"


def case_file_names(name: str) -> tuple[str, str, str]:
    """The eval set, sidecar and tool-fixture file names of a case or suite."""
    return f"{name}{EVALSET}", f"{name}{SPEC}", f"{name}{TOOLS}"


def beside(path: Path, suffix: str) -> Path:
    """The file of the same case with another suffix (``x.evalset.json`` -> ``x.tools.json``)."""
    for known in CASE_SUFFIXES:
        if path.name.endswith(known):
            return path.with_name(path.name[: -len(known)] + suffix)
    raise ValueError(f"{path.name} is not a case file")


@dataclass(frozen=True)
class Call:
    name: str
    args: dict[str, Any]

    def __str__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.args.items())
        return f"{self.name}({inner})"


@dataclass(frozen=True)
class ObservedTurn:
    """One turn as a check sees it: what the user said, the answer, the calls."""

    user: str
    answer: str
    calls: tuple[Call, ...]


def expected_turns(case: dict[str, Any]) -> list[ObservedTurn]:
    """The case's conversation as turns: user text, reference answer, expected calls."""
    turns = []
    for turn in _dicts(case.get("conversation")):
        user = "".join(_texts(_dict(turn.get("user_content")).get("parts")))
        answer = "\n".join(_texts(_dict(turn.get("final_response")).get("parts")))
        uses = _dicts(_dict(turn.get("intermediate_data")).get("tool_uses"))
        calls = tuple(Call(str(u.get("name", "")), _dict(u.get("args"))) for u in uses)
        turns.append(ObservedTurn(user, answer, calls))
    return turns


# The loader reports a malformed case; these readers just never crash on one.
def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _texts(parts: Any) -> list[str]:
    return [p["text"] for p in _dicts(parts) if isinstance(p.get("text"), str) and p["text"]]


def provenance_turns(spec: dict[str, Any]) -> list[ObservedTurn] | None:
    """The flagged session a mined case came from, as the draft recorded it."""
    observed = _dict(_dict(spec.get("provenance")).get("observed")).get("turns")
    if not isinstance(observed, list):
        return None
    return [
        ObservedTurn(
            str(t.get("user", "")),
            str(t.get("answer", "")),
            tuple(
                Call(str(u.get("name", "")), _dict(u.get("args")))
                for u in _dicts(t.get("toolUses"))
            ),
        )
        for t in _dicts(observed)
    ]


@dataclass(frozen=True)
class Flag:
    """One hit that flagged a mined case's session: the signal, its rule, the turn (t1...)."""

    signal: str
    rule: str
    turn: str | None


def flags(spec: dict[str, Any]) -> list[Flag]:
    """Why the session was flagged, as the draft recorded it (``provenance.signalReasons``)."""
    reasons = _dict(spec.get("provenance")).get("signalReasons")
    return [
        Flag(str(r.get("signal", "")), str(r.get("rule", "")), r.get("turn") or None)
        for r in _dicts(reasons)
    ]


def signals(spec: dict[str, Any]) -> list[str]:
    """The signals that flagged a mined case's session."""
    found = _dict(spec.get("provenance")).get("signals")
    return [s for s in found if isinstance(s, str)] if isinstance(found, list) else []


def first_user_message(case: dict[str, Any]) -> str:
    """What the user said first in a case (redacted, as drafted)."""
    turns = expected_turns(case)
    return turns[0].user if turns else ""


def spec_tools(spec: dict[str, Any]) -> set[str]:
    """Tools a sidecar names (argRules keys and mustNotCall)."""
    return {name for _path, name in spec_tool_places(spec)}


def tool_places(case: dict[str, Any]) -> list[tuple[tuple[Any, ...], str]]:
    """(JSON path inside the case, tool name) of every expected tool use:
    ``("conversation", 0, "intermediate_data", "tool_uses", 1, "name")``."""
    places = []
    turns = case.get("conversation")
    for t, turn in enumerate(turns if isinstance(turns, list) else []):
        uses = _dict(_dict(turn).get("intermediate_data")).get("tool_uses")
        for u, use in enumerate(uses if isinstance(uses, list) else []):
            name = _dict(use).get("name")
            if isinstance(name, str) and name:
                path = ("conversation", t, "intermediate_data", "tool_uses", u, "name")
                places.append((path, name))
    return places


def spec_tool_places(spec: dict[str, Any]) -> list[tuple[tuple[Any, ...], str]]:
    """(JSON path inside the sidecar, tool name) of every tool it names: its
    argRules keys and its mustNotCall entries."""
    rules = spec.get("argRules")
    places: list[tuple[tuple[Any, ...], str]] = [
        (("argRules", name), name) for name in (rules if isinstance(rules, dict) else {})
    ]
    must_not = spec.get("mustNotCall")
    for i, name in enumerate(must_not if isinstance(must_not, list) else []):
        if isinstance(name, str):
            places.append((("mustNotCall", i), name))
    return places


def case_tools(case: dict[str, Any]) -> list[str]:
    """Tools a case's expected trajectory uses, in order."""
    return [name for _path, name in tool_places(case)]


@dataclass(frozen=True)
class LoadedCase:
    """A case as the loader found it: the eval case with its sidecar and tool fixtures."""

    eval_id: str
    case: dict[str, Any]
    """The eval case as JSON, numbers normalised."""
    eval_set_id: str
    eval_set_file: Path
    spec: dict[str, Any] | None
    spec_file: Path | None
    tools: dict[str, Any] | None = None
    """The case's tool fixtures (``*.tools.json`` beside its eval set), if any."""

    @property
    def turns(self) -> list[ObservedTurn]:
        return expected_turns(self.case)

    @property
    def observed(self) -> list[ObservedTurn] | None:
        return provenance_turns(self.spec) if self.spec else None

    @property
    def tags(self) -> list[str]:
        tags = (self.spec or {}).get("tags") or []
        return [t for t in tags if isinstance(t, str)]

    @property
    def files(self) -> set[Path]:
        """This case's draft files on disk: eval set, tool fixtures, sidecar."""
        files = {self.eval_set_file, beside(self.eval_set_file, TOOLS)}
        return files | {self.spec_file} if self.spec_file else files
