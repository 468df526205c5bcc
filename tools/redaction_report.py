"""`make redaction-report`: recall and precision of redaction on the labelled corpus.

The corpus (tools/pii_corpus.py) is run through the same code as `miner draft`:
plugin rows -> ``build_sessions`` -> ``redact_sessions`` with the shipped
pipeline config. Each output text is aligned with its input (placeholders
stand for the spans they replaced), and then:

- a planted value is **caught** when none of its letters or digits survive;
  recall = caught / planted, per planted type and overall;
- a replaced span is a **true positive** when it overlaps a planted value;
  precision = true positives / replaced spans, per detected entity type
  (the type in the placeholder) and overall;
- a hard negative is **destroyed** when any character of it was replaced.

Issue 36's three figures come from the same alignment. A value the
redaction **surfaced** (``Redacted.surfaced``: left as written, put before
the reviewer) covers every occurrence of its exact text, on word
boundaries, in the session. Then:

- a planted value is **replaced** as above, **surfaced** when its letters and
  digits are covered by replaced spans and surfaced values together, and a
  **silent leak** otherwise (neither: nothing tells the reviewer);
- a look-alike (``LOOKALIKE_KINDS``: products, companies, carriers,
  airports, IATA codes, places, plans, jobs, dates that are no birth date)
  is **replaced** when any character of it was, **surfaced** (a decision,
  not a replacement) when a surfaced value covers it, else kept;
- **decisions per case**: each session is a case, and one decision covers
  every occurrence of a surfaced value in it, its other casings and its
  parts surfaced alone (``surfaced.decisions``: ``decide`` decides them
  together): the distinct decisions per session, averaged over the sessions.

A surfaced value counts only where the draft still holds it: an occurrence a
placeholder cut into covers nothing, and a value the draft holds nowhere is
no decision (the reviewer's tools find a value by its exact text).

``python -m tools.redaction_report figures`` prints the one table of these
per corpus and split that docs/redaction.md carries; ``figures
--without-mimesis-report`` all of it but the mimesis report set, whose
totals are read at a round's start and end only. Each row is a split of
``tools.splits.SPLITS``: its corpus, template half, locales and generator,
and whether it is tuned on (misses printed with ``-v``) or reported.

``python -m tools.redaction_report held-out`` prints the same corpus filled
from Faker locales no rule was tuned on (``HELD_OUT_LOCALES``), for the dev
and the test templates, with a line per locale. ``held-out tune`` prints only
the tune set of the addresses round (the locales at even positions of
``HELD_OUT_LOCALES``, dev templates: misses may be read, with ``-v``), and
``held-out report`` its report set (the odd positions, both template halves,
and the tune locales' test templates: totals only, no misses printed).
``fresh`` prints the dev templates filled from ``TUNE_LOCALES``, Faker
locales in no other set, opened for tuning once the other dev sets' misses
ran dry (misses printed with ``-v``; a tune split, never a report).
``far`` prints the dev templates filled from ``FAR_TUNE_LOCALES`` (names
no other set's lists resemble), a tune split too (misses with ``-v``).
``figures`` also prints the test templates filled from ``UNTOUCHED_LOCALES``
(``untouched locales``), totals only: no command prints their misses.

``mimesis-tune`` prints the dev templates filled from a second generator,
mimesis, for ``MIMESIS_TUNE_LOCALES`` (misses printed with ``-v``: a tune
split). ``figures`` prints it and the report set beside it, the test
templates filled from mimesis for ``MIMESIS_REPORT_LOCALES`` (``mimesis
locales``): totals only, no command prints their misses.
``mimesis-cross`` prints the other two cells of that square, totals only:
the tune locales on the test templates, the report locales on the dev
ones (what the templates add, what the locales' lists add).

``surfaced-why [SPLIT...]`` prints, per rule that surfaced a value
(``Surfaced.reason``), its decisions and how many were planted personal
values, look-alikes, other labelled words or unlabelled ones (``WHY_SPLITS``;
with ``-v`` each decision of a tune split, never of a report split).
``replaced-why [SPLIT...]`` prints, per pass that replaced a look-alike
(the detector's verdict with its recognizers, spaCy's labels and whether a
name list knows a word of it; the second model; a replaced person's word;
a session rule), how many of each kind (``WHY_SPLITS``; with ``-v`` each
replaced look-alike of a tune split, never of a report split).

To measure your own data, label it the same way (text -> [(start, end,
type)]) and call ``measure``.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from miner.model import Session
from miner.redaction.lexicon.wordmatch import WholeWords
from miner.redaction.surfaced import decisions
from tools import splits
from tools.pii_corpus import NEG

#: The non-personal kinds issue 36 counts as look-alikes (words that look
#: personal and are not): the share of these replaced must stay under 2%.
#: Codes a corpus labels too (SKUs, tracking numbers, statuses, locale tags)
#: are reported beside them but not counted.
LOOKALIKE_KINDS = frozenset((
    "product", "company", "organisation", "carrier", "airport", "IATA code", "city",
    "country", "region", "nationality", "plan", "job", "date",
))  # fmt: skip

ROOT = Path(__file__).resolve().parent.parent
PIPELINE = ROOT / "pipelines" / "support_agent.toml"
_PLACEHOLDER = re.compile(r"<([A-Z][A-Z0-9_]*?)(?:_\d+)?>")


@dataclass
class Report:
    planted: Counter[str] = field(default_factory=Counter)
    caught: Counter[str] = field(default_factory=Counter)
    replaced: Counter[str] = field(default_factory=Counter)
    true_positive: Counter[str] = field(default_factory=Counter)
    negatives: Counter[str] = field(default_factory=Counter)
    destroyed: Counter[str] = field(default_factory=Counter)
    destroyed_as: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(non-personal kind, placeholder type that replaced it): which detector to look at."""
    planted_in: Counter[str] = field(default_factory=Counter)
    caught_in: Counter[str] = field(default_factory=Counter)
    destroyed_examples: list[str] = field(default_factory=list)
    missed_examples: list[tuple[str, str]] = field(default_factory=list)
    planted_by_locale: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(session's locale tag, planted type): sessions whose state names a locale."""
    caught_by_locale: Counter[tuple[str, str]] = field(default_factory=Counter)
    negatives_by_locale: Counter[str] = field(default_factory=Counter)
    destroyed_by_locale: Counter[str] = field(default_factory=Counter)
    surfaced: Counter[str] = field(default_factory=Counter)
    """Planted values not replaced whole but covered by surfaced values, per type."""
    negatives_surfaced: Counter[str] = field(default_factory=Counter)
    """Non-personal words a surfaced value covers (and none replaced): a decision."""
    cases: int = 0
    decisions: int = 0
    """Distinct surfaced values summed over the sessions (one decision each)."""
    decisions_as: Counter[str] = field(default_factory=Counter)
    """Decisions by the entity the policy surfaced them as."""
    silent_examples: list[tuple[str, str]] = field(default_factory=list)
    surfaced_negative_examples: list[str] = field(default_factory=list)
    """Non-personal words a surfaced value covers, with their kind and text."""
    decision_examples: list[tuple[str, str]] = field(default_factory=list)
    """(entity, value) of each decision: what the reviewer is asked."""
    why: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(reason, what it was: ``WHAT_SURFACED``) of each decision: per rule
    that surfaced a value (``Surfaced.reason``), how often it was right."""
    why_examples: list[tuple[str, str, str]] = field(default_factory=list)
    """(reason, what it was, value in its text) of each decision."""

    def silent(self, kind: str | None = None) -> int:
        """Planted values neither replaced nor surfaced."""
        kinds = [kind] if kind else list(self.planted)
        return sum(self.planted[k] - self.caught[k] - self.surfaced[k] for k in kinds)

    def decisions_per_case(self) -> float:
        return self.decisions / self.cases if self.cases else 0.0

    def lookalikes(self) -> tuple[int, int, int]:
        """(look-alike words, replaced, surfaced) over ``LOOKALIKE_KINDS``."""
        kinds = [k for k in self.negatives if k in LOOKALIKE_KINDS]
        return (
            sum(self.negatives[k] for k in kinds),
            sum(self.destroyed[k] for k in kinds),
            sum(self.negatives_surfaced[k] for k in kinds),
        )

    def lookalikes_replaced(self) -> float:
        words, replaced, _surfaced = self.lookalikes()
        return replaced / words if words else 0.0

    def figures(self) -> str:
        """Issue 36's figures as one Markdown row's cells: silent leaks of
        planted, decisions per case, look-alikes replaced."""
        words, replaced, _ = self.lookalikes()
        planted = sum(self.planted.values())
        return (
            f"{self.silent()} of {planted} | {self.decisions_per_case():.2f} "
            f"({self.decisions} in {self.cases}) | {replaced} of {words} "
            f"({self.lookalikes_replaced():.2%})"
        )

    def policy_table(self) -> str:
        """Per planted type: replaced, surfaced, silent; per non-personal
        kind: replaced, surfaced; and decisions per case by entity."""
        lines = [
            "| planted type | planted | replaced | surfaced | silent leaks |",
            "|---|---:|---:|---:|---:|",
        ]
        for kind in sorted(self.planted):
            lines.append(
                f"| {kind} | {self.planted[kind]} | {self.caught[kind]} | "
                f"{self.surfaced[kind]} | {self.silent(kind)} |"
            )
        lines.append(
            f"| **all** | {sum(self.planted.values())} | {sum(self.caught.values())} | "
            f"{sum(self.surfaced.values())} | {self.silent()} |"
        )
        lines += [
            "",
            "| non-personal kind | look-alike | words | replaced | surfaced |",
            "|---|---|---:|---:|---:|",
        ]
        for kind in sorted(self.negatives):
            lines.append(
                f"| {kind} | {'yes' if kind in LOOKALIKE_KINDS else 'no'} | "
                f"{self.negatives[kind]} | {self.destroyed[kind]} | "
                f"{self.negatives_surfaced[kind]} |"
            )
        words, replaced, surfaced = self.lookalikes()
        lines.append(
            f"| **look-alikes** | | {words} | {replaced} ({self.lookalikes_replaced():.2%}) | "
            f"{surfaced} |"
        )
        as_ = ", ".join(f"{e} {n}" for e, n in sorted(self.decisions_as.items())) or "none"
        lines += [
            "",
            f"decisions per case: {self.decisions_per_case():.2f} "
            f"({self.decisions} in {self.cases} sessions; by entity: {as_})",
        ]
        return "\n".join(lines)

    def why_table(self) -> str:
        """Per reason a value was surfaced: its decisions, and how many were
        planted personal values, look-alikes, other non-personal words or
        unlabelled words (a decision counted once, by what its occurrences
        cover: a planted value first)."""
        reasons = sorted(
            {r for r, _w in self.why}, key=lambda r: -sum(self.why[r, w] for w in WHAT_SURFACED)
        )
        head = " | ".join(WHAT_SURFACED)
        lines = [
            f"| reason | decisions | {head} | personal share |",
            "|---|---:|" + "---:|" * len(WHAT_SURFACED) + "---:|",
        ]
        for reason in reasons:
            counts = [self.why[reason, w] for w in WHAT_SURFACED]
            total = sum(counts)
            share = counts[0] / total if total else 0.0
            cells = " | ".join(str(n) for n in counts)
            lines.append(f"| {reason or '(none)'} | {total} | {cells} | {share:.0%} |")
        return "\n".join(lines)

    def recall(self, kind: str | None = None) -> float:
        planted = self.planted[kind] if kind else sum(self.planted.values())
        caught = self.caught[kind] if kind else sum(self.caught.values())
        return caught / planted if planted else 1.0

    def precision(self, entity: str | None = None) -> float:
        replaced = self.replaced[entity] if entity else sum(self.replaced.values())
        right = self.true_positive[entity] if entity else sum(self.true_positive.values())
        return right / replaced if replaced else 1.0

    def recall_in(self, place: str) -> float:
        planted = self.planted_in[place]
        return self.caught_in[place] / planted if planted else 1.0

    def destroyed_share(self, kind: str | None = None) -> float:
        negatives = self.negatives[kind] if kind else sum(self.negatives.values())
        destroyed = self.destroyed[kind] if kind else sum(self.destroyed.values())
        return destroyed / negatives if negatives else 0.0

    def table(self) -> str:
        lines = ["| planted type | planted | recall |", "|---|---:|---:|"]
        for kind in sorted(self.planted):
            lines.append(f"| {kind} | {self.planted[kind]} | {self.recall(kind):.2%} |")
        lines.append(f"| **all** | {sum(self.planted.values())} | {self.recall():.2%} |")
        lines += ["", "| detected as | replaced spans | precision |", "|---|---:|---:|"]
        for entity in sorted(self.replaced):
            lines.append(f"| {entity} | {self.replaced[entity]} | {self.precision(entity):.2%} |")
        lines.append(f"| **all** | {sum(self.replaced.values())} | {self.precision():.2%} |")
        lines += ["", "| place | planted | recall |", "|---|---:|---:|"]
        for place in sorted(self.planted_in):
            planted = self.planted_in[place]
            lines.append(f"| {place} | {planted} | {self.recall_in(place):.2%} |")
        lines += ["", "| non-personal kind | words | replaced |", "|---|---:|---:|"]
        for kind in sorted(self.negatives):
            lines.append(
                f"| {kind} | {self.negatives[kind]} | {self.destroyed[kind]} "
                f"({self.destroyed_share(kind):.2%}) |"
            )
        total, destroyed = sum(self.negatives.values()), sum(self.destroyed.values())
        lines.append(f"| **all** | {total} | {destroyed} ({self.destroyed_share():.2%}) |")
        if self.destroyed_as:
            lines += ["", "| non-personal kind | replaced as | words |", "|---|---|---:|"]
            for (kind, entity), count in sorted(self.destroyed_as.items()):
                lines.append(f"| {kind} | {entity} | {count} |")
        return "\n".join(lines)

    def locale_table(self, kinds: tuple[str, ...] = ("PERSON", "STREET_ADDRESS")) -> str:
        """Per session locale (the corpus's ``locale`` state): planted values,
        recall of all and of ``kinds``, and non-personal words replaced."""
        locales = sorted({locale for locale, _kind in self.planted_by_locale})
        head = " | ".join(f"{kind} recall" for kind in kinds)
        lines = [
            f"| locale | planted | recall | {head} | non-personal replaced |",
            "|---|---:|---:|" + "---:|" * len(kinds) + "---:|",
        ]
        for locale in locales:
            planted = {k: n for (loc, k), n in self.planted_by_locale.items() if loc == locale}
            caught = {k: n for (loc, k), n in self.caught_by_locale.items() if loc == locale}
            total, got = sum(planted.values()), sum(caught.values())
            cells = [
                f"{caught.get(k, 0) / planted[k]:.2%} ({planted[k]})" if planted.get(k) else "-"
                for k in kinds
            ]
            negatives, destroyed = (
                self.negatives_by_locale[locale],
                self.destroyed_by_locale[locale],
            )
            share = destroyed / negatives if negatives else 0.0
            lines.append(
                f"| {locale} | {total} | {got / total:.2%} | {' | '.join(cells)} | "
                f"{destroyed} of {negatives} ({share:.2%}) |"
            )
        return "\n".join(lines)


#: What a surfaced value turned out to be, in ``Report.why``'s order of
#: precedence: it covers a planted value, a look-alike, another labelled
#: non-personal word (a code, a status), or nothing labelled.
WHAT_SURFACED = ("personal", "look-alike", "other negative", "unlabelled")


def replaced_spans(original: str, redacted: str) -> list[tuple[int, int, str]] | None:
    """(start, end, entity) of ``original`` that placeholders in ``redacted`` stand for."""
    pieces = _PLACEHOLDER.split(redacted)
    # split() with one group gives: literal, entity, literal, entity, ..., literal
    literals, entities = pieces[0::2], pieces[1::2]
    if not entities:
        return [] if original == redacted else None
    pattern = re.escape(literals[0])
    for literal in literals[1:]:
        pattern += "(.+?)" + re.escape(literal)
    match = re.fullmatch(pattern, original, re.DOTALL)
    if match is None:
        return None
    return [(match.start(i + 1), match.end(i + 1), e) for i, e in enumerate(entities)]


def measure(
    rows: list[dict], labels: dict[str, list[tuple[int, int, str]]], pipeline: Path = PIPELINE
) -> Report:
    from miner.config import load_config
    from miner.redaction.policy import policy_for
    from miner.traces import build_sessions

    config = load_config(pipeline)
    sessions = build_sessions(pd.DataFrame(rows), config.agent.app_name)
    redacted = policy_for(config).redact(sessions)
    return score_sessions(sessions, redacted, labels)


def score_sessions(
    sessions: list[Session], redacted: list[Any], labels: dict[str, list[tuple[int, int, str]]]
) -> Report:
    """The report of ``redacted`` (``Redacted`` results, one per session of
    ``sessions``) against ``labels``."""
    report = Report()
    for before, after in zip(sessions, redacted, strict=True):
        locale = before.initial_state.get("locale")
        locale = locale if isinstance(locale, str) else ""
        surfaced = getattr(after, "surfaced", ())
        # Where each surfaced value stands, as the reviewer's tools find it
        # (``surfaced.occurrences``, value by value, overlaps between values
        # included: one alternation of them all took the leftmost match only,
        # so a value ending inside a longer one starting after it hid the
        # longer one's rest), in one pass per text.
        occurring = WholeWords(exact=[s.value for s in surfaced])
        # One decision per value with its other casings and its parts
        # (``decide`` decides them together), named by the first of them.
        decision = decisions(surfaced)
        # A value the draft no longer holds anywhere (placeholders took every
        # occurrence) is decided already (``surfaced.undecided``): no decision.
        standing = {
            output[start:end]
            for _place, output in places(after.session)
            if isinstance(output, str)
            for start, end in occurring.every_occurrence(output)
        }
        decided: dict[str, Any] = {}
        for s in surfaced:
            if s.value in standing:
                decided.setdefault(decision[s.value], s)
        report.cases += 1
        report.decisions += len(decided)
        report.decisions_as.update(s.entity for s in decided.values())
        report.decision_examples += [(s.entity, s.value) for s in decided.values()]
        what: dict[str, int] = {}  # value -> its index in WHAT_SURFACED
        shown_in: dict[str, str] = {}  # value -> a text it stands in
        pairs = zip(places(before), places(after.session), strict=True)
        for (place, original), (_place, output) in pairs:
            if not isinstance(original, str) or original not in labels:
                continue
            spans = replaced_spans(original, str(output))
            if spans is None:  # cannot align: count everything as leaked
                spans = []
            shown = []
            for start, end in occurring.every_occurrence(original):
                if any(s < end and start < e for s, e, _entity in spans):
                    # A placeholder cut into this occurrence: the draft no
                    # longer holds the value here, so the reviewer's tools
                    # (which look for its exact text) show nothing here.
                    continue
                at = _what_it_covers(labels[original], start, end)
                key = decision[original[start:end]]
                if at < what.get(key, len(WHAT_SURFACED)):
                    what[key], shown_in[key] = at, original
                shown.append((start, end))
            _score(report, original, labels[original], spans, place, locale, shown)
        for key, s in decided.items():
            kind = WHAT_SURFACED[what.get(key, len(WHAT_SURFACED) - 1)]
            report.why[s.reason, kind] += 1
            report.why_examples.append((s.reason, kind, f"{s.value!r} in {shown_in.get(key)!r}"))
    return report


def _what_it_covers(labels: list[tuple[int, int, str]], start: int, end: int) -> int:
    """What ``[start, end)`` overlaps, as an index into ``WHAT_SURFACED``."""
    kinds = [k for s, e, k in labels if s < end and start < e]
    if any(not k.startswith(NEG) for k in kinds):
        return 0
    if any(k.partition(":")[2] in LOOKALIKE_KINDS for k in kinds):
        return 1
    return 2 if kinds else 3


def places(session: Session) -> Iterator[tuple[str, Any]]:
    """(place, leaf) for the leaves ``session_texts`` reads, named by where they sit."""
    from miner.redaction.walk import json_leaves as _leaves

    for _key, leaf in _leaves(session.initial_state):
        yield "state", leaf
    for turn in session.turns:
        yield "user text", turn.user_text
        for call in turn.tool_calls:
            for _key, leaf in _leaves(call.args):
                yield "tool args", leaf
            for _key, leaf in _leaves(call.result):
                yield "tool result", leaf
            yield "error message", call.error
        yield "agent reply", turn.reply_text
        for message in turn.errors:
            yield "error message", message


def _score(
    report: Report,
    text: str,
    labels: list[tuple[int, int, str]],
    spans: list[tuple[int, int, str]],
    place: str = "text",
    locale: str = "",
    shown: Sequence[tuple[int, int]] = (),
) -> None:
    covered = [False] * len(text)
    for start, end, _entity in spans:
        for i in range(start, end):
            covered[i] = True
    surfaced = [False] * len(text)
    for start, end in shown:
        for i in range(start, end):
            surfaced[i] = not covered[i]
    planted = [(s, e, k) for s, e, k in labels if not k.startswith(NEG)]
    for start, end, kind in labels:
        if kind.startswith(NEG):
            negative = kind.partition(":")[2] or "other"
            report.negatives[negative] += 1
            report.negatives_by_locale[locale] += 1
            if any(covered[start:end]):
                report.destroyed[negative] += 1
                report.destroyed_by_locale[locale] += 1
                for entity in sorted({e for s, t, e in spans if s < end and start < t}):
                    report.destroyed_as[negative, entity] += 1
                report.destroyed_examples.append(f"{text[start:end]!r} in {text!r} {spans}")
            elif any(surfaced[start:end]):
                report.negatives_surfaced[negative] += 1
                report.surfaced_negative_examples.append(
                    f"{negative} {text[start:end]!r} in {text!r}"
                )
            continue
        report.planted[kind] += 1
        report.planted_in[place] += 1
        report.planted_by_locale[locale, kind] += 1
        if all(covered[i] for i in range(start, end) if text[i].isalnum()):
            report.caught[kind] += 1
            report.caught_in[place] += 1
            report.caught_by_locale[locale, kind] += 1
        elif all(covered[i] or surfaced[i] for i in range(start, end) if text[i].isalnum()):
            report.surfaced[kind] += 1
            report.missed_examples.append((kind, f"surfaced {text[start:end]!r} in {text!r}"))
        else:
            report.missed_examples.append((kind, f"{text[start:end]!r} in {text!r}"))
            report.silent_examples.append((kind, f"{text[start:end]!r} in {text!r}"))
    for start, end, entity in spans:
        report.replaced[entity] += 1
        if any(start < e and s < end for s, e, _k in planted):
            report.true_positive[entity] += 1


def corpus_report(seed: int = 7) -> Report:
    """The regression corpus this project wrote (tools/pii_corpus.py)."""
    from tools.pii_corpus import build_corpus

    corpus = build_corpus(seed)
    return measure(corpus.rows, corpus.labels)


def part_report(part: splits.Part) -> Report:
    """The figures of one corpus built from ``part`` (``tools.splits``)."""
    corpus = splits.build(part)
    return measure(corpus.rows, corpus.labels)


def split_report(name: str) -> Report:
    """The figures of the split called ``name`` (``tools.splits.SPLITS``);
    of several parts, their decisions and reasons summed (``why_table``)."""
    reports = [part_report(part) for part in splits.split(name).parts]
    return reports[0] if len(reports) == 1 else _summed(reports)


def third_party_report(
    half: str, locales: tuple[str, ...] = splits.LOCALES, generator: str = "faker"
) -> Report:
    """presidio-evaluator's templates (tools/third_party_corpus.py), one
    ``half`` ("dev", tuned on, or "test") filled from ``locales`` by
    ``generator``."""
    return part_report(splits.Part("templates", half, locales, generator))


def support_report(half: str, locales: tuple[str, ...] = splits.LOCALES) -> Report:
    """Issue 36's hard cases (tools/support_corpus.py): a shop's, a bank's,
    an airline's and a telecom's chats, one half, from ``locales``."""
    return part_report(splits.Part("hard", half, locales))


#: Exports the project ships, for reviewer decisions where nothing is
#: labelled: the sample (a real ADK agent) and the three plugins' golden ones.
SHIPPED_EXPORTS = {
    "shipped sample": ROOT / "sample_traces" / "traces",
    "golden export, Python plugin": ROOT / "tests" / "golden" / "python" / "export.parquet",
    "golden export, Java plugin": ROOT / "tests" / "golden" / "java" / "export.parquet",
    "golden export, Go plugin": ROOT / "tests" / "golden" / "go" / "export.parquet",
}


def export_report(export: Path, pipeline: Path = PIPELINE) -> Report:
    """Decisions on an unlabelled export: every session of it redacted as
    a case (the draft picks some of them; this reads them all)."""
    return measure(pd.read_parquet(export).to_dict("records"), {}, pipeline)


_MIMESIS = "presidio-evaluator templates, mimesis's values"
_HARD = "shop, bank, airline, telecom (hard cases)"

#: The one table of figures, row by row: (corpus, row title, split name).
FIGURE_ROWS: tuple[tuple[str, str, str], ...] = (
    ("presidio-evaluator templates, 7 locales", "dev", "presidio-dev"),
    ("presidio-evaluator templates, 7 locales", "test", "presidio-test"),
    ("presidio-evaluator templates", "held-out locales, dev templates", "held-out-dev"),
    ("presidio-evaluator templates", "held-out locales, test templates", "held-out-test"),
    ("presidio-evaluator templates", "fresh tune locales, dev templates (tuned)", "fresh"),
    ("presidio-evaluator templates", "far tune locales, dev templates (tuned)", "far"),
    ("presidio-evaluator templates", "untouched locales, test templates", "untouched"),
    (_MIMESIS, "mimesis tune locales, dev templates (tuned)", "mimesis-tune"),
    (_MIMESIS, "mimesis locales, test templates", "mimesis-report"),
    ("shop (faker-ecommerce)", "dev", "shop-dev"),
    ("shop (faker-ecommerce)", "test", "shop-test"),
    (_HARD, "dev", "hard-dev"),
    (_HARD, "test", "hard-test"),
    (_HARD, "held-out locales, test lists", "hard-held-out"),
)
#: The two cells the mimesis tune and report sets leave out: the tune
#: locales on the test templates and the report locales on the dev ones.
#: With the two sets they part what the report set adds into what the
#: templates add and what the locales' lists add. Both hold report data:
#: totals only.
MIMESIS_CROSS_ROWS: tuple[tuple[str, str, str], ...] = (
    (_MIMESIS, "mimesis tune locales, test templates", "mimesis-tune-test"),
    (_MIMESIS, "mimesis report locales, dev templates", "mimesis-report-dev"),
)
#: The (corpus, row title) of ``figures`` whose misses ``-v`` may print:
#: the tune splits'.
TUNE_ROWS = frozenset((c, title) for c, title, name in FIGURE_ROWS if splits.SPLITS[name].tune)


def figure_runs(*, clean_report: bool = True) -> Iterator[tuple[str, str, Report]]:
    """(corpus, row title, report) for the one table of figures
    (``FIGURE_ROWS``), then the shipped exports'. Without ``clean_report``
    it leaves out the mimesis report set, whose totals are read at a
    round's start and end only."""
    for corpus, title, name in FIGURE_ROWS:
        if clean_report or name != "mimesis-report":
            yield corpus, title, split_report(name)
    for name, export in SHIPPED_EXPORTS.items():
        yield name, "all sessions (no labels)", export_report(export)


def mimesis_cross_runs() -> Iterator[tuple[str, str, Report]]:
    """(corpus, row title, report) of ``MIMESIS_CROSS_ROWS``."""
    for corpus, title, name in MIMESIS_CROSS_ROWS:
        yield corpus, title, split_report(name)


def figures_table(runs: Iterator[tuple[str, str, Report]]) -> str:
    lines = [
        "| corpus | split | silent leaks | decisions per case | look-alikes replaced |",
        "|---|---|---:|---:|---:|",
    ]
    for corpus, split, report in runs:
        if not report.planted and not report.negatives:
            lines.append(
                f"| {corpus} | {split} | - | {report.decisions_per_case():.2f} "
                f"({report.decisions} in {report.cases}) | - |"
            )
        else:
            lines.append(f"| {corpus} | {split} | {report.figures()} |")
    return "\n".join(lines)


def main() -> None:
    if {"-h", "--help"} & set(sys.argv[1:]):
        # The commands are the module's docstring; --help must not start a run.
        print(__doc__)
        return
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    runs: list[tuple[str, Report]] = []
    if args[:1] == ["figures"]:
        kept: list[tuple[str, str, Report]] = []

        def collect() -> Iterator[tuple[str, str, Report]]:
            for run in figure_runs(clean_report="--without-mimesis-report" not in sys.argv):
                kept.append(run)
                yield run

        print(figures_table(collect()), "\n")
        for corpus, split, report in kept:
            print(f"## {corpus}, {split}\n\n{report.policy_table()}\n")
            if "-v" in sys.argv and (corpus, split) in TUNE_ROWS:
                for kind, value in report.silent_examples:
                    print("silent", kind, value)
        return
    if args[:1] == ["surfaced-why"]:
        _surfaced_why(args[1:])
        return
    if args[:1] == ["replaced-why"]:
        _replaced_why(args[1:])
        return
    if args[:1] == ["mimesis-cross"]:  # report cells: totals only, never -v
        print(figures_table(mimesis_cross_runs()))
        return
    if args[:1] in (["fresh"], ["far"], ["mimesis-tune"]):  # tune sets: misses with -v
        titles = {"fresh": "fresh", "far": "far", "mimesis-tune": "mimesis"}
        report = split_report(args[0])
        print(f"## {titles[args[0]]} tune locales, dev templates\n\n{report.table()}\n")
        print(f"{report.policy_table()}\n\n{report.locale_table()}\n")
        _examples(report)
        return
    if args[:1] == ["support"]:
        for half in ("dev", "test"):
            report = split_report(f"hard-{half}")
            print(f"## hard cases, {half}\n\n{report.table()}\n\n{report.policy_table()}\n")
            if splits.SPLITS[f"hard-{half}"].tune:
                _examples(report)
        return
    if args[:2] in (["held-out", "tune"], ["held-out", "report"]):
        name = f"held-out-{args[1]}"
        for part in splits.split(name).parts:
            report = part_report(part)
            title = f"held-out {args[1]} set, {part.half} templates: {', '.join(part.locales)}"
            print(f"## {title}\n\n{report.table()}\n\n{report.locale_table()}\n")
            if splits.SPLITS[name].tune:  # the report set's misses are never printed
                _examples(report)
        return
    if args and args[0] == "held-out":
        for half in ("dev", "test"):
            report = split_report(f"held-out-{half}")
            title = f"held-out locales, {half} templates"
            print(f"## {title}\n\n{report.table()}\n\n{report.locale_table()}\n")
            if splits.SPLITS[f"held-out-{half}"].tune:  # both report: misses never printed
                _examples(report)
        return
    if not args or args[0] == "third-party":
        runs += [(f"third-party {split}", third_party_report(split)) for split in ("dev", "test")]
        runs += [
            (f"third-party commerce {half}", split_report(f"shop-{half}"))
            for half in ("dev", "test")
        ]
    if not args or args[0] != "third-party":
        seed = int(args[0]) if args and args[0].isdigit() else 7
        runs.append((f"project's own corpus (regression test, seed {seed})", corpus_report(seed)))
    for title, report in runs:
        print(f"## {title}\n\n{report.table()}\n\n{report.policy_table()}\n")
        _examples(report)


#: The splits ``surfaced-why`` and ``replaced-why`` read when none is named
#: (any of ``tools.splits.SPLITS`` may be; a tune split's decisions may be
#: printed, with -v, a report split's never).
WHY_SPLITS = (
    "presidio-dev", "presidio-test", "held-out-tune", "held-out-report", "fresh", "far",
    "untouched", "mimesis-tune", "mimesis-report", "hard-dev", "hard-test", "hard-held-out",
)  # fmt: skip


def _summed(reports: list[Report]) -> Report:
    """The decisions and reasons of several reports as one (``why_table``)."""
    total = Report()
    for r in reports:
        total.cases += r.cases
        total.decisions += r.decisions
        total.why.update(r.why)
        total.why_examples += r.why_examples
    return total


def _surfaced_why(names: list[str]) -> None:
    """``surfaced-why [SPLIT...]``: per reason a value was surfaced, what it
    was (``Report.why_table``); with -v a tune split's decisions too."""
    for name in names or list(WHY_SPLITS):
        tuned = splits.split(name).tune
        report = split_report(name)
        tune = "tune" if tuned else "report: totals only"
        print(f"## {name} ({tune}): {report.decisions} decisions in {report.cases} cases\n")
        print(report.why_table(), "\n")
        if "-v" in sys.argv and tuned:  # a report split's values are never printed
            for reason, kind, value in sorted(report.why_examples):
                print("why", reason, "|", kind, "|", value)


def replaced_why(
    rows: list[dict[str, Any]], labels: dict[str, list[Any]]
) -> tuple[Counter[tuple[str, str]], list[str]]:
    """(why, look-alike kind) -> look-alikes replaced, and each one's line
    (why, kind, value in its text): the pass that replaced it, told apart
    by redacting with the detector's verdicts recorded and the second
    model's input and output kept."""
    import miner.redaction.detector as detector_module
    from miner.config import load_config
    from miner.redaction.lexicon.formats import read_escaped_breaks
    from miner.redaction.lexicon.names import known_name
    from miner.redaction.policy import policy_for
    from miner.traces import build_sessions

    config = load_config(PIPELINE)
    sessions = build_sessions(pd.DataFrame(rows), config.agent.app_name)
    policy = policy_for(config)
    seen: dict[str, list[tuple[int, int, str]]] = {}
    verdict_of = detector_module.verdict_of

    def recording(text: str, start: int, end: int, entity: str, recognizers: Any,
                  spacy_labels: Any) -> Any:  # fmt: skip
        verdict = verdict_of(text, start, end, entity, recognizers, spacy_labels)
        names = "+".join(sorted(r.removesuffix("Recognizer") for r in recognizers))
        value = text[start:end]
        known = "a listed name" if any(known_name(w) for w in value.split()) else "no listed name"
        on = "/".join(sorted(spacy_labels)) or "-"
        why = f"verdict {verdict[0]}: {entity} by {names}, spaCy {on}, {known}"
        seen.setdefault(text, []).append((start, end, why))
        return verdict

    first: list[Any] = []
    second_out: list[Any] = []
    second = policy.second

    class _Watched:
        def decide(self, originals: Any, redacted: Any, second_model: Any) -> Any:
            first.extend(redacted)
            out = second.decide(originals, redacted, second_model) if second else list(redacted)
            second_out.extend(out)
            return out

    policy.second = _Watched()  # type: ignore[assignment]
    detector_module.verdict_of = recording  # type: ignore[assignment]
    try:
        redacted = policy.redact(sessions)
    finally:
        detector_module.verdict_of = verdict_of
    counts: Counter[tuple[str, str]] = Counter()
    lines: list[str] = []
    for before, one, two, after in zip(sessions, first, second_out, redacted, strict=True):
        stages = zip(places(before), places(one.session), places(two.session),
                     places(after.session), strict=True)  # fmt: skip
        for (_p, original), (_q, out1), (_r, out2), (_s, out3) in stages:
            if not isinstance(original, str) or original not in labels:
                continue
            final = replaced_spans(original, str(out3)) or []
            early = replaced_spans(original, str(out1)) or []
            middle = replaced_spans(original, str(out2)) or []
            for start, end, kind in labels[original]:
                negative = kind.partition(":")[2]
                if not kind.startswith(NEG) or negative not in LOOKALIKE_KINDS:
                    continue
                if not any(s < end and start < t for s, t, _e in final):
                    continue
                if any(s < end and start < t for s, t, _e in early):
                    text = read_escaped_breaks(original)
                    said = [w for s, t, w in seen.get(text, ()) if s < end and start < t]
                    why = said[0] if said else "session rule: a key, a part, another string's"
                elif any(s < end and start < t for s, t, _e in middle):
                    why = "second model"
                else:
                    why = "a replaced person's word (with_people_decided)"
                counts[why, negative] += 1
                lines.append(f"{why} | {negative} | {original[start:end]!r} in {original!r}")
    return counts, lines


def _replaced_why(names: list[str]) -> None:
    """``replaced-why [SPLIT...]``: per pass that replaced a look-alike, how
    many of each kind; with -v a tune split's replaced look-alikes too."""
    for name in names or list(WHY_SPLITS):
        split = splits.split(name)
        tuned = split.tune
        counts: Counter[tuple[str, str]] = Counter()
        lines: list[str] = []
        for part in split.parts:
            corpus = splits.build(part)
            more, said = replaced_why(corpus.rows, corpus.labels)
            counts += more
            lines += said
        tune = "tune" if tuned else "report: totals only"
        print(f"## {name} ({tune}): {sum(counts.values())} look-alikes replaced\n")
        print("| replaced by | look-alike kind | replaced |\n|---|---|---:|")
        for (why, kind), n in sorted(counts.items(), key=lambda item: -item[1]):
            print(f"| {why} | {kind} | {n} |")
        print()
        if "-v" in sys.argv and tuned:  # a report split's values are never printed
            for line in sorted(lines):
                print("replaced", line)


def _examples(report: Report) -> None:
    if "-v" in sys.argv:
        for kind, value in report.missed_examples:
            print("missed", kind, value)
        for value in report.destroyed_examples:
            print("destroyed", value)
        for value in report.surfaced_negative_examples:
            print("surfaced look-alike", value)
        for entity, value in report.decision_examples:
            print("decision", entity, repr(value))


if __name__ == "__main__":
    main()
