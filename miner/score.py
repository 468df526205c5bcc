"""Score: check runs of the agent against the suite, turn by turn.

The checks (docs/formats.md describes the sidecar fields they read):

- ``trajectory``: the turn's tool calls against the expected ones, with the
  case's match type. EXACT: the same calls in order, nothing extra. IN_ORDER:
  the expected calls appear in order, others may come between. ANY_ORDER: every
  expected call appears, in any order. Calls compare by name and by the
  expected arguments under argRules (EXACT by default, IGNORE,
  CASE_INSENSITIVE, PRESENT); arguments the case does not mention are allowed;
  numbers compare by value (3 == 3.0).
- ``must_not_call``: no tool of mustNotCall in the turn (sub-agents included,
  since their calls are in the same tool stream); each hit named with its args.
- ``forbidden_claims``: none in the turn's answer (case-insensitive substrings).
- ``required_facts``: all in the answer of the *last* turn (the one that
  acts; an earlier clarifying turn's wording does not matter).
- ``rouge1``: ROUGE-1 F-measure of the answer against the reference, computed
  as ADK's ``response_match_score`` does (ADK 2.13's Unicode-aware tokenizer
  over rouge-score's, Porter stemming); passes at ``[score] rouge_threshold``
  (default 0.8, ADK's default; 0 turns it into a report only).

A run passes when every check of every turn passes. Turns pair up by order.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from miner.case import Call, LoadedCase, ObservedTurn, expected_turns
from miner.model import Session

_MISSING = object()


@dataclass(frozen=True)
class Check:
    name: str
    passed: bool
    reason: str = ""
    score: float | None = None


@dataclass(frozen=True)
class TurnResult:
    index: int
    checks: tuple[Check, ...]

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)


@dataclass(frozen=True)
class RunResult:
    eval_id: str
    run: str
    turns: tuple[TurnResult, ...]
    trajectory: tuple[tuple[str, ...], ...] = field(default=())
    """The calls the run made, per turn, for side-by-side comparison."""

    @property
    def passed(self) -> bool:
        return all(t.passed for t in self.turns)


# ---------------------------------------------------------------- matching


def values_equal(want: Any, got: Any) -> bool:
    """Equality with numbers by value (3 == 3.0), recursively; bools stay bools."""
    if isinstance(want, bool) or isinstance(got, bool):
        return want is got if isinstance(want, bool) and isinstance(got, bool) else False
    if isinstance(want, int | float) and isinstance(got, int | float):
        return float(want) == float(got)
    if isinstance(want, dict) and isinstance(got, dict):
        return want.keys() == got.keys() and all(values_equal(want[k], got[k]) for k in want)
    if isinstance(want, list) and isinstance(got, list):
        return len(want) == len(got) and all(
            values_equal(a, b) for a, b in zip(want, got, strict=True)
        )
    return bool(want == got)


def args_match(want: dict[str, Any], got: dict[str, Any], rules: dict[str, str]) -> bool:
    for key, expected in want.items():
        rule = rules.get(key, "EXACT")
        actual = got.get(key, _MISSING)
        if rule == "IGNORE":
            continue
        if actual is _MISSING:
            return False
        if rule == "PRESENT":
            if actual is None:
                return False
        elif rule == "CASE_INSENSITIVE":
            if str(actual).lower() != str(expected).lower():
                return False
        elif not values_equal(expected, actual):
            return False
    return True  # arguments the case does not mention are allowed


def call_matches(want: Call, got: Call, arg_rules: dict[str, dict[str, str]]) -> bool:
    return want.name == got.name and args_match(want.args, got.args, arg_rules.get(want.name, {}))


def _any_order(want: list[Call], got: list[Call], rules: dict[str, dict[str, str]]) -> list[Call]:
    """Expected calls left unmatched when each actual call may serve one (bipartite)."""
    owner: dict[int, int] = {}

    def assign(i: int, seen: set[int]) -> bool:
        for j, call in enumerate(got):
            if j not in seen and call_matches(want[i], call, rules):
                seen.add(j)
                if j not in owner or assign(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    matched = {i for i in range(len(want)) if assign(i, set())}
    return [w for i, w in enumerate(want) if i not in matched]


def trajectory_check(
    want: list[Call], got: list[Call], match: str, rules: dict[str, dict[str, str]]
) -> Check:
    actual = "; got: " + (", ".join(map(str, got)) or "no calls")
    if match == "EXACT":
        if len(want) != len(got):
            return Check(
                "trajectory", False, f"EXACT: {len(got)} calls, expected {len(want)}{actual}"
            )
        for i, (w, g) in enumerate(zip(want, got, strict=True)):
            if not call_matches(w, g, rules):
                return Check("trajectory", False, f"EXACT: call {i + 1} was {g}, expected {w}")
        return Check("trajectory", True)
    if match == "ANY_ORDER":
        missing = _any_order(want, got, rules)
        if missing:
            return Check(
                "trajectory", False, "ANY_ORDER: missing " + ", ".join(map(str, missing)) + actual
            )
        return Check("trajectory", True)
    position = 0
    for w in want:  # IN_ORDER: a subsequence, greedy
        while position < len(got) and not call_matches(w, got[position], rules):
            position += 1
        if position == len(got):
            return Check("trajectory", False, f"IN_ORDER: missing {w} (in order){actual}")
        position += 1
    return Check("trajectory", True)


def must_not_call_check(forbidden: set[str], got: list[Call]) -> Check:
    hits = [str(c) for c in got if c.name in forbidden]
    return Check("must_not_call", not hits, "; ".join(f"called {h}" for h in hits))


def fact_checks(answer: str, required: list[str], forbidden: list[str]) -> list[Check]:
    text = answer.lower()
    checks = []
    if required:
        missing = [f for f in required if f.lower() not in text]
        checks.append(
            Check("required_facts", not missing, ", ".join(f"missing: {f}" for f in missing))
        )
    if forbidden:
        found = [f for f in forbidden if f.lower() in text]
        checks.append(
            Check("forbidden_claims", not found, ", ".join(f"forbidden: {f}" for f in found))
        )
    return checks


# ---------------------------------------------------------------- ROUGE-1


@cache
def _stemmer() -> Any:
    from nltk.stem import porter

    return porter.PorterStemmer()


_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def _ascii_tokens(word: str) -> list[str]:
    """rouge-score's tokenizer: lower case, non-alphanumerics split, stem words > 3 chars."""
    tokens = _NON_ALNUM.sub(" ", word.lower()).split()
    stemmed = [_stemmer().stem(t) if len(t) > 3 else t for t in tokens]
    return [t for t in stemmed if re.fullmatch(r"[a-z0-9]+", t)]


def _is_cjk(code: int) -> bool:
    return (
        0x4E00 <= code <= 0x9FFF
        or 0x3040 <= code <= 0x309F
        or 0x30A0 <= code <= 0x30FF
        or 0xAC00 <= code <= 0xD7AF
    )


def _is_non_spaced(code: int) -> bool:
    return (
        0x0E00 <= code <= 0x0E7F
        or 0x0E80 <= code <= 0x0EFF
        or 0x1780 <= code <= 0x17FF
        or 0x1000 <= code <= 0x109F
    )


def rouge_tokens(text: str) -> list[str]:
    """Tokens as ADK 2.13's ``_UnicodeAwareTokenizer`` makes them."""
    chars: list[str] = []
    for char in unicodedata.normalize("NFKC", text).lower():
        code = ord(char)
        is_mark = unicodedata.category(char).startswith("M")
        if _is_cjk(code):
            chars.extend([" ", char, " "])
        elif _is_non_spaced(code):
            chars.extend([char] if is_mark else [" ", char])
        elif char.isalnum() or is_mark:
            chars.append(char)
        else:
            chars.append(" ")
    tokens: list[str] = []
    for word in "".join(chars).split():
        tokens.extend(_ascii_tokens(word) if word.isascii() else [word])
    return tokens


def rouge1_f(candidate: str, reference: str) -> float:
    """ROUGE-1 F-measure of ``candidate`` against ``reference``."""
    ref, cand = Counter(rouge_tokens(reference)), Counter(rouge_tokens(candidate))
    overlap = sum(min(n, cand[t]) for t, n in ref.items())
    precision = overlap / max(sum(cand.values()), 1)
    recall = overlap / max(sum(ref.values()), 1)
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


# ---------------------------------------------------------------- cases and runs


def session_turns(session: Session) -> list[ObservedTurn]:
    return [
        ObservedTurn(t.user_text, t.reply_text, tuple(Call(c.name, c.args) for c in t.tool_calls))
        for t in session.turns
    ]


def score_run(
    case: LoadedCase, run: list[ObservedTurn], label: str, rouge_threshold: float
) -> RunResult:
    spec = case.spec or {}
    rules = spec.get("argRules") or {}
    match = spec.get("match", "IN_ORDER")
    forbidden_tools = set(spec.get("mustNotCall") or [])
    want_turns = expected_turns(case.case)
    results = []
    for i, want in enumerate(want_turns):
        if i >= len(run):
            results.append(TurnResult(i + 1, (Check("turn", False, "the run has no such turn"),)))
            continue
        got = run[i]
        checks = [trajectory_check(list(want.calls), list(got.calls), match, rules)]
        checks.append(must_not_call_check(forbidden_tools, list(got.calls)))
        last = i == len(want_turns) - 1
        checks.extend(
            fact_checks(
                got.answer,
                list(spec.get("requiredFacts") or []) if last else [],
                list(spec.get("forbiddenClaims") or []),
            )
        )
        score = rouge1_f(got.answer, want.answer)
        passed = score >= rouge_threshold
        reason = "" if passed else f"{score:.3f} < {rouge_threshold}"
        checks.append(Check("rouge1", passed, reason, score))
        results.append(TurnResult(i + 1, tuple(checks)))
    trajectory = tuple(tuple(str(c) for c in t.calls) for t in run)
    return RunResult(case.eval_id, label, tuple(results), trajectory)


_RUN = re.compile(r"__run\d+$")


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def match_sessions(
    cases: Iterable[LoadedCase], sessions: Iterable[Session]
) -> tuple[dict[str, list[Session]], list[Session], list[Session]]:
    """Sessions of a run export per case, the sessions that matched none, and
    those whose first message is the first message of several cases.

    A session belongs to a case when its session id is the case's eval id or
    the case's ``session_input.session_id``; failing that, when its first user
    message equals the case's (case and white space ignored) and no other
    case's. Mined suites share first messages ("where is ORD-10001?") once
    fixtures replace the ids: such a session is ambiguous and never scored
    against an arbitrary case, so harnesses should name each run's session
    after its eval id.
    """
    cases = list(cases)
    by_id: dict[str, str] = {}
    by_text: dict[str, list[str]] = {}
    for case in cases:
        by_id[case.eval_id] = case.eval_id
        sid = (case.case.get("session_input") or {}).get("session_id")
        if isinstance(sid, str) and sid:
            by_id[sid] = case.eval_id
        turns = expected_turns(case.case)
        if turns:
            by_text.setdefault(_norm(turns[0].user), []).append(case.eval_id)
    matched: dict[str, list[Session]] = {c.eval_id: [] for c in cases}
    unmatched: list[Session] = []
    ambiguous: list[Session] = []
    for session in sessions:
        # A replayed session is named <eval_id>__run<n> (miner replay).
        owner = by_id.get(session.session_id) or by_id.get(_RUN.sub("", session.session_id))
        if owner is None and session.turns:
            owners = by_text.get(_norm(session.turns[0].user_text), [])
            if len(owners) > 1:
                ambiguous.append(session)
                continue
            owner = owners[0] if owners else None
        if owner is None:
            unmatched.append(session)
        else:
            matched[owner].append(session)
    return matched, unmatched, ambiguous


@dataclass(frozen=True)
class Report:
    runs: tuple[RunResult, ...]
    tags: dict[str, list[str]]
    """eval id -> its tags."""
    unmatched: int
    missing: tuple[str, ...] = ()
    """Cases no run exercised: a failure unless the caller allows it."""
    ambiguous: int = 0
    """Sessions whose first message matched several cases: not scored."""

    def pass_rate(self, eval_ids: Iterable[str] | None = None) -> tuple[int, int]:
        wanted = set(eval_ids) if eval_ids is not None else None
        runs = [r for r in self.runs if wanted is None or r.eval_id in wanted]
        return sum(r.passed for r in runs), len(runs)

    def by_tag(self) -> dict[str, tuple[int, int]]:
        tags = sorted({t for ts in self.tags.values() for t in ts})
        return {t: self.pass_rate([e for e, ts in self.tags.items() if t in ts]) for t in tags}

    def per_case(self) -> dict[str, list[RunResult]]:
        out: dict[str, list[RunResult]] = {}
        for run in self.runs:
            out.setdefault(run.eval_id, []).append(run)
        return out

    def as_dict(self) -> dict[str, Any]:
        """The report for machines (``miner score --json``)."""
        passed, total = self.pass_rate()
        return {
            "passRate": {"passed": passed, "total": total},
            "byTag": {t: {"passed": p, "total": n} for t, (p, n) in self.by_tag().items()},
            "flaky": sorted(self.flaky()),
            "unmatchedSessions": self.unmatched,
            "ambiguousSessions": self.ambiguous,
            "missing": list(self.missing),
            "runs": [
                {
                    "evalId": r.eval_id,
                    "run": r.run,
                    "passed": r.passed,
                    "turns": [
                        {
                            "turn": t.index,
                            "checks": [
                                {
                                    "check": c.name,
                                    "passed": c.passed,
                                    "reason": c.reason,
                                    **({"score": c.score} if c.score is not None else {}),
                                }
                                for c in t.checks
                            ],
                        }
                        for t in r.turns
                    ],
                    "trajectory": [list(t) for t in r.trajectory],
                }
                for r in self.runs
            ],
        }

    def flaky(self) -> dict[str, list[RunResult]]:
        """Cases that passed some runs but not all."""
        return {
            e: runs
            for e, runs in self.per_case().items()
            if 0 < sum(r.passed for r in runs) < len(runs)
        }


def score_suite(
    cases: list[LoadedCase],
    runs: list[tuple[str, list[Session]]],
    rouge_threshold: float,
) -> Report:
    """Score every run export (label, sessions) against the suite's cases."""
    results: list[RunResult] = []
    unmatched = ambiguous = 0
    by_id = {c.eval_id: c for c in cases}
    for label, sessions in runs:
        matched, stray, unsure = match_sessions(cases, sessions)
        unmatched += len(stray)
        ambiguous += len(unsure)
        for eval_id, found in matched.items():
            for n, session in enumerate(found, start=1):
                name = label if len(found) == 1 else f"{label}#{n}"
                results.append(
                    score_run(by_id[eval_id], session_turns(session), name, rouge_threshold)
                )
    scored = {r.eval_id for r in results}
    missing = tuple(c.eval_id for c in cases if c.eval_id not in scored)
    tags = {c.eval_id: list((c.spec or {}).get("tags") or []) for c in cases}
    return Report(tuple(results), tags, unmatched, missing, ambiguous)
