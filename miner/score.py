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
  over rouge-score's, Porter stemming). Always reported; it gates a turn only
  where the team set a threshold: the sidecar's ``responseMatchThreshold`` for
  one case, else ``[score] response_match_threshold`` for the suite. The seed
  article's advice: overlap rewards repeating the reference's words, so the
  facts, claims and calls decide a case, and overlap is a report by default.

A run passes when every check of every turn passes. Turns pair up by order.
``preview`` shows one case against one set of observed turns (the workbench's
"what will be checked"); ``adk_test_config`` writes the ADK criteria that
match what these checks gate on.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from miner.case import MARKER, Call, LoadedCase, ObservedTurn, expected_turns
from miner.model import Session

_MISSING = object()


@dataclass(frozen=True)
class Check:
    name: str
    passed: bool
    reason: str = ""
    score: float | None = None
    threshold: float | None = None
    """The score a gating check needs; None for a check that only reports."""


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


def facts_found(answer: str, facts: list[str]) -> list[tuple[str, bool]]:
    """Each fact with whether the answer contains it (case-insensitive
    substring): the one definition of "a fact appears" (required facts and
    forbidden claims alike)."""
    text = answer.lower()
    return [(f, f.lower() in text) for f in facts]


def fact_checks(answer: str, required: list[str], forbidden: list[str]) -> list[Check]:
    checks = []
    if required:
        missing = [f for f, found in facts_found(answer, required) if not found]
        checks.append(
            Check("required_facts", not missing, ", ".join(f"missing: {f}" for f in missing))
        )
    if forbidden:
        made = [f for f, found in facts_found(answer, forbidden) if found]
        checks.append(
            Check("forbidden_claims", not made, ", ".join(f"forbidden: {f}" for f in made))
        )
    return checks


def overlap_check(answer: str, reference: str, threshold: float | None) -> Check:
    """ROUGE-1 of the answer against the reference: a gate at ``threshold``,
    a report (always passing) without one."""
    score = rouge1_f(answer, reference)
    passed = threshold is None or score >= threshold
    reason = "" if passed else f"{score:.3f} < {threshold}"
    return Check("rouge1", passed, reason, score, threshold)


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


def case_threshold(case: LoadedCase, suite_threshold: float | None) -> float | None:
    """The overlap a case's turns need: its sidecar's ``responseMatchThreshold``,
    else the suite's ``[score] response_match_threshold``; None: overlap only
    reports."""
    own = (case.spec or {}).get("responseMatchThreshold")
    if isinstance(own, int | float) and not isinstance(own, bool):
        return float(own)
    return suite_threshold


def _decided(values: Any) -> list[str]:
    """A sidecar list's entries a reviewer has decided (no REVIEW marker)."""
    items = values if isinstance(values, list) else []
    return [v for v in items if isinstance(v, str) and MARKER not in v]


def check_turn(
    case: LoadedCase, index: int, got: ObservedTurn, threshold: float | None
) -> list[Check]:
    """Every check of turn ``index`` (0-based) of a case against what a run did."""
    spec = case.spec or {}
    want_turns = expected_turns(case.case)
    want = want_turns[index]
    last = index == len(want_turns) - 1
    checks = [
        trajectory_check(
            list(want.calls),
            list(got.calls),
            spec.get("match", "IN_ORDER"),
            spec.get("argRules") or {},
        ),  # fmt: skip
        must_not_call_check(set(_decided(spec.get("mustNotCall"))), list(got.calls)),
        *fact_checks(
            got.answer,
            _decided(spec.get("requiredFacts")) if last else [],
            _decided(spec.get("forbiddenClaims")),
        ),
        overlap_check(got.answer, _reference(want.answer), threshold),
    ]
    return checks


def _reference(answer: str) -> str:
    """The reference answer, without the draft's ``REVIEW: `` prefix (a
    preview of an unreviewed draft compares against the observed text)."""
    return answer.removeprefix(f"{MARKER}: ")


def score_run(
    case: LoadedCase,
    run: list[ObservedTurn],
    label: str,
    response_match_threshold: float | None = None,
) -> RunResult:
    """One run of a case: every check of every turn. ``response_match_threshold``
    is the suite's; a case's own sidecar threshold wins."""
    threshold = case_threshold(case, response_match_threshold)
    results = []
    for i in range(len(expected_turns(case.case))):
        if i >= len(run):
            results.append(TurnResult(i + 1, (Check("turn", False, "the run has no such turn"),)))
            continue
        results.append(TurnResult(i + 1, tuple(check_turn(case, i, run[i], threshold))))
    trajectory = tuple(tuple(str(c) for c in t.calls) for t in run)
    return RunResult(case.eval_id, label, tuple(results), trajectory)


# ---------------------------------------------------------------- the reviewer's preview


@dataclass(frozen=True)
class TurnPreview:
    """One turn as the reviewer should see it before promoting: the reference
    beside what was observed, and what each check would say."""

    index: int
    """1-based, as ``miner score`` numbers turns."""
    user: str
    reference: str
    """The reference answer (a draft's ``REVIEW: `` prefix removed)."""
    observed: str | None
    """The observed answer; None when the observed session has no such turn."""
    expected_calls: tuple[str, ...]
    observed_calls: tuple[str, ...]
    required_facts: tuple[tuple[str, bool], ...]
    """(fact, found in the observed answer); the last turn only, as scored."""
    forbidden_claims: tuple[tuple[str, bool], ...]
    """(claim, made in the observed answer)."""
    overlap: float | None
    """ROUGE-1 of the observed answer against the reference."""
    threshold: float | None
    """The overlap this turn needs; None: overlap is reported, not checked."""
    checks: tuple[Check, ...]
    """Exactly what ``miner score`` would say about this turn."""

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)


@dataclass(frozen=True)
class CasePreview:
    eval_id: str
    turns: tuple[TurnPreview, ...]
    undecided: tuple[str, ...]
    """Sidecar fields still holding a REVIEW marker: not checked yet."""

    @property
    def passed(self) -> bool:
        return all(t.passed for t in self.turns)

    def as_dict(self) -> dict[str, Any]:
        """For the workbench's JSON API: camelCase, as the sidecar is."""
        return {
            "evalId": self.eval_id,
            "passed": self.passed,
            "undecided": list(self.undecided),
            "turns": [
                {
                    "turn": t.index,
                    "user": t.user,
                    "reference": t.reference,
                    "observed": t.observed,
                    "expectedCalls": list(t.expected_calls),
                    "observedCalls": list(t.observed_calls),
                    "requiredFacts": [{"fact": f, "found": ok} for f, ok in t.required_facts],
                    "forbiddenClaims": [{"claim": f, "made": hit} for f, hit in t.forbidden_claims],
                    "overlap": t.overlap,
                    "threshold": t.threshold,
                    "passed": t.passed,
                    "checks": [_check_dict(c) for c in t.checks],
                }
                for t in self.turns
            ],
        }


def preview(
    case: LoadedCase,
    observed: list[ObservedTurn],
    response_match_threshold: float | None = None,
) -> CasePreview:
    """What ``miner score`` would check on ``observed`` (a run, or the flagged
    session of a draft: ``case.observed``), turn by turn, with the evidence a
    reviewer reads: the reference beside the observed answer, each required
    fact found or not, each forbidden claim made or not, and the overlap.
    Pure: no files, no ADK. Entries still holding a REVIEW marker are left out
    of the checks and their fields named in ``undecided``."""
    spec = case.spec or {}
    threshold = case_threshold(case, response_match_threshold)
    want_turns = expected_turns(case.case)
    result = score_run(case, observed, "preview", response_match_threshold)
    turns = []
    for i, want in enumerate(want_turns):
        got = observed[i] if i < len(observed) else None
        answer = got.answer if got else ""
        last = i == len(want_turns) - 1
        reference = _reference(want.answer)
        turns.append(
            TurnPreview(
                index=i + 1,
                user=want.user,
                reference=reference,
                observed=got.answer if got else None,
                expected_calls=tuple(map(str, want.calls)),
                observed_calls=tuple(map(str, got.calls)) if got else (),
                required_facts=tuple(
                    facts_found(answer, _decided(spec.get("requiredFacts")) if last else [])
                ),
                forbidden_claims=tuple(facts_found(answer, _decided(spec.get("forbiddenClaims")))),
                overlap=rouge1_f(answer, reference) if got else None,
                threshold=threshold,
                checks=result.turns[i].checks,
            )
        )
    undecided = tuple(
        key
        for key in ("requiredFacts", "forbiddenClaims", "mustNotCall")
        if MARKER in json.dumps(spec.get(key, []))
    )
    return CasePreview(case.eval_id, tuple(turns), undecided)


def _check_dict(c: Check) -> dict[str, Any]:
    out: dict[str, Any] = {"check": c.name, "passed": c.passed, "reason": c.reason}
    if c.score is not None:
        out["score"] = c.score
        out["threshold"] = c.threshold
    return out


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
                            "checks": [_check_dict(c) for c in t.checks],
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
    response_match_threshold: float | None = None,
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
                    score_run(
                        by_id[eval_id], session_turns(session), name, response_match_threshold
                    )
                )
    scored = {r.eval_id for r in results}
    missing = tuple(c.eval_id for c in cases if c.eval_id not in scored)
    tags = {c.eval_id: list((c.spec or {}).get("tags") or []) for c in cases}
    return Report(tuple(results), tags, unmatched, missing, ambiguous)


# ---------------------------------------------------------------- ADK's test_config.json

#: The file ``adk eval`` (and ADK's ``AgentEvaluator``) reads beside an eval set.
ADK_TEST_CONFIG = "test_config.json"

_LOOSER = {"EXACT": 0, "IN_ORDER": 1, "ANY_ORDER": 2}


def adk_test_config(
    specs: Iterable[dict[str, Any]], response_match_threshold: float | None
) -> dict[str, Any]:
    """ADK 2.13's eval config (``EvalConfig``) whose criteria are what
    ``miner score`` gates a suite on, as far as ADK can say it:

    - ``trajectory`` -> ``tool_trajectory_avg_score`` at 1.0 (every turn),
      with the suite's match type; where cases differ, the loosest of them,
      since ADK takes one per suite. ADK compares arguments whole, so
      ``ignore_args`` is set when any case relaxes an argument (argRules other
      than EXACT): names only, and miner remains the check on arguments.
    - ``rouge1`` -> ``response_match_score`` at the suite's threshold, only
      when the suite sets one (a case's own threshold has no ADK equivalent).
    - ``required_facts``, ``forbidden_claims``, ``must_not_call``: no ADK
      criterion (its rubric-based ones are judged by a model); only ``miner
      score`` checks them.

    Without this file ``adk eval`` would gate on ``response_match_score`` 0.8
    and an EXACT trajectory, which a seed-reviewed suite is not written for.
    """
    specs = [s for s in specs if isinstance(s, dict)]
    matches = {s.get("match", "IN_ORDER") for s in specs} & set(_LOOSER) or {"IN_ORDER"}
    relaxed = any(
        rule != "EXACT"
        for s in specs
        for args in (s.get("argRules") or {}).values()
        if isinstance(args, dict)
        for rule in args.values()
    )
    criteria: dict[str, Any] = {
        "tool_trajectory_avg_score": {
            "threshold": 1.0,
            "match_type": max(matches, key=_LOOSER.__getitem__),
            "ignore_args": relaxed,
        }
    }
    if response_match_threshold is not None:
        criteria["response_match_score"] = response_match_threshold
    return {"criteria": criteria}
