"""`python -m tools.firm_sweep`: a tuning harness for issue 36's firms.

Every firm name mimesis lists for ``MIMESIS_TUNE_LOCALES`` and Faker
``company()`` draws for ``TUNE_LOCALES`` (tune locales only: no report
locale's list is read), each set in every carrier sentence of ``CARRIERS``
(written here: sentence start, after a preposition, possessive, a list,
parentheses, after a person's name, a signature's line, capitals, lower
case, subject and object of a call, subject of "is a", a tool result's field), run through the
same redaction as ``tools.redaction_report`` (plugin rows -> sessions ->
the shipped pipeline's policy, the second model included).

It prints firms replaced / surfaced / kept, per carrier and per list, and
groups the replaced ones by why: the pass that replaced them (the
detector's verdict, with its recognizers; the second model; a surfaced
name that is a replaced person's) and the entity. Persons beside firms
(Faker names of ``TUNE_LOCALES``, in ``PERSON_CARRIERS``) are counted too:
a firm rule must not leave one silent. With ``-v`` it prints the values
(tune lists only: a harness, not a measurement). ``--limit N`` sweeps the
N firms of each list, spread over it (a quick look).
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from tools.pii_corpus import NEG, Corpus, Labelled, plugin_row

#: A carrier: (name, user text before the firm, after it, how the firm is
#: written). A JSON carrier ("json:<key>") puts the firm in a tool's result.
Carrier = tuple[str, str, str, Callable[[str], str]]


def as_is(firm: str) -> str:
    return firm


CARRIERS: tuple[Carrier, ...] = (
    ("start", "", " sent me the wrong charger again.", as_is),
    ("after at", "I picked up the lamp at ", " last week and it is broken.", as_is),
    ("after from", "The parcel from ", " arrived damaged yesterday.", as_is),
    ("after with", "I have had an account with ", " since 2019.", as_is),
    ("after for", "Is there a discount for ", " customers this month?", as_is),
    ("after by", "The order was handled by ", " and never arrived.", as_is),
    ("after via", "It was booked via ", " and I got no confirmation.", as_is),
    ("possessive", "I checked ", "'s page but found no answer.", as_is),
    ("in a list", "I compared prices at Amazon, ", " and eBay before ordering.", as_is),
    ("parentheses", "The seller (", ") has not replied to my emails.", as_is),
    ("subject of called", "", " called me twice about the delivery.", as_is),
    ("subject of said", "", " said the refund was processed on Monday.", as_is),
    ("subject of emailed", "", " emailed me a voucher code yesterday.", as_is),
    ("object of called", "I called ", " this morning about my refund.", as_is),
    ("subject of is a", "", " is a good place to buy a desk, they said.", as_is),
    ("X support told me", "", " support told me to contact you instead.", as_is),
    ("all caps", "MY ORDER FROM ", " IS LATE AGAIN", str.upper),
    ("lower case", "i ordered a desk from ", " and it came broken", str.lower),
    ("json:merchant", "", "", as_is),
    ("json:seller", "", "", as_is),
    ("json:carrier", "", "", as_is),
)

#: A person beside a look-alike: (name, text before the person, between,
#: after). The person is labelled personal, the look-alike as its list's kind.
PersonCarrier = tuple[str, str, str, str]


def person_carriers(word: str, at: str) -> tuple[PersonCarrier, ...]:
    """The carriers of a person beside a look-alike, each sweep's the same
    sentences: ``word`` names the look-alike in the carrier's name ("firm",
    "town"), ``at`` is the preposition "I spoke to <person> at <firm>" takes
    ("in" a town)."""
    return (
        (f"Name Surname, {word}", "Contact: ", ", ", "\nPlease call back."),
        ("signature", "Thanks for the help.\n\nKind regards\n", "\n", "\n"),
        (f"person from {word} called", "", " from ", " called me about the invoice."),
        (f"spoke to person {at} {word}", "I spoke to ", f" {at} ", " yesterday."),
    )


PERSON_CARRIERS = person_carriers("firm", at="at")


def firm_lists(limit: int | None = None) -> dict[str, list[str]]:
    """List name -> firm names: mimesis's whole company list of each tune
    locale, and 150 Faker ``company()`` draws of each Faker tune locale."""
    from faker import Faker
    from mimesis import Finance
    from mimesis.locales import Locale

    from tools.third_party_corpus import MIMESIS_TUNE_LOCALES, TUNE_LOCALES

    lists: dict[str, list[str]] = {}
    seen: set[str] = set()  # a firm two locales share (en's, pt-br's) is swept once
    for locale in MIMESIS_TUNE_LOCALES:
        names = Finance(Locale(locale))._extract(["company", "name"])
        lists[f"mimesis {locale}"] = spread(sorted(set(names) - seen), limit)
        seen.update(names)
    for locale in TUNE_LOCALES:
        faker = Faker(locale)
        faker.seed_instance(36)
        drawn = sorted({faker.company() for _ in range(150)} - seen)
        lists[f"faker {locale}"] = spread(drawn, limit)
        seen.update(drawn)
    return lists


def spread(names: list[str], limit: int | None) -> list[str]:
    """``limit`` of ``names`` spread over the whole sorted list (every one
    without a limit): not only the first letters'."""
    if limit is None or len(names) <= limit:
        return names
    return [names[i * len(names) // limit] for i in range(limit)]


def person_list(count: int = 20) -> list[str]:
    """``count`` Faker ``name()`` draws of each Faker tune locale."""
    from faker import Faker

    from tools.third_party_corpus import TUNE_LOCALES

    people = []
    for locale in TUNE_LOCALES:
        faker = Faker(locale)
        faker.seed_instance(13)
        people += [faker.name() for _ in range(count)]
    return people


def build(
    lists: dict[str, list[str]],
    people: list[str],
    carriers: tuple[Carrier, ...] = CARRIERS,
    beside: tuple[PersonCarrier, ...] = PERSON_CARRIERS,
) -> tuple[Corpus, list[tuple[str, ...]]]:
    """The sweep's plugin rows: five turns a session, each one look-alike in
    one carrier (and a person in a person carrier); and per labelled text
    (list, carrier, look-alike, person) for counting. A list's look-alikes
    are of the kind its name starts with before a colon ("city: faker
    en_NZ"), else firms; ``tools.town_sweep`` sweeps towns and jobs so."""
    corpus = Corpus()
    cases: list[tuple[str, ...]] = []
    r = random.Random(36)
    turns: list[tuple[str, Labelled | None, dict[str, Any] | None, tuple[str, ...]]] = []
    for source, firms in lists.items():
        kind = f"{NEG}:{source.split(': ')[0] if ': ' in source else 'company'}"
        for firm in firms:
            for name, before, after, written in carriers:
                if name.startswith("json:"):
                    result = {name.removeprefix("json:"): corpus.value(firm, kind)}
                    turns.append((source, None, result, (source, name, firm, "")))
                else:
                    text = Labelled().add(before).add(written(firm), kind).add(after)
                    turns.append((source, text, None, (source, name, written(firm), "")))
            person = r.choice(people)
            name, before, between, after = beside[r.randrange(len(beside))]
            text = Labelled().add(before).add(person, "PERSON").add(between)
            text.add(firm, kind).add(after)
            turns.append((source, text, None, (source, f"person: {name}", firm, person)))
    r.shuffle(turns)
    start = datetime(2026, 11, 3, tzinfo=UTC)
    for index in range(0, len(turns), 5):
        sid = f"sweep-{index // 5:05d}"
        rows: list[dict[str, Any]] = []
        state: dict[str, Any] = {"channel": "chat"}
        for n, (_source, said, returned, case) in enumerate(turns[index : index + 5]):
            invocation = f"{sid}-t{n}"
            at = start + timedelta(seconds=len(rows))
            user = corpus.text(said) if said else "Where is my order?"
            if said:
                cases.append(case + (user,))
            content = {"text_summary": user}
            rows.append(plugin_row(sid, len(rows), at, "USER_MESSAGE_RECEIVED", invocation,
                                   content, state))  # fmt: skip
            if returned is not None:
                cases.append(case + (next(iter(returned.values())),))
                span = f"{invocation}-s"
                call = {"tool": "lookup_order", "args": {"order": "ORD-10001"}}
                rows.append(plugin_row(sid, len(rows), at, "TOOL_STARTING", invocation, call,
                                       state, span_id=span))  # fmt: skip
                done = {"tool": "lookup_order", "result": {"status": "ok", **returned}}
                rows.append(plugin_row(sid, len(rows), at, "TOOL_COMPLETED", invocation, done,
                                       state, span_id=span))  # fmt: skip
        corpus.rows.extend(rows)
        start += timedelta(minutes=5)
    return corpus, cases


class _Recorder:
    """The detector's verdicts, recorded: (text, value) -> (recognizers,
    verdict), so a replaced firm can be told by what found it."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], tuple[str, str]] = {}

    def __enter__(self) -> _Recorder:
        import miner.redaction.detector as detector

        self._was = detector.verdict_of

        def recording(text: str, start: int, end: int, entity: str, recognizers: Any,
                      labels: Any) -> Any:  # fmt: skip
            verdict = self._was(text, start, end, entity, recognizers, labels)
            names = "+".join(sorted(r.removesuffix("Recognizer") for r in recognizers))
            self.seen[text, text[start:end]] = (f"{entity} {names}", verdict[0])
            return verdict

        detector.verdict_of = recording
        return self

    def __exit__(self, *_exc: object) -> None:
        import miner.redaction.detector as detector

        detector.verdict_of = self._was


def sweep(
    lists: dict[str, list[str]],
    people: list[str],
    carriers: tuple[Carrier, ...] = CARRIERS,
    beside: tuple[PersonCarrier, ...] = PERSON_CARRIERS,
) -> Iterator[tuple[tuple[str, ...], str]]:
    """(case, outcome) per look-alike and per person placed: "replaced
    <why>", "surfaced" or "kept" (a person: "replaced", "surfaced" or
    "silent")."""
    import pandas as pd

    from miner.config import load_config
    from miner.redaction.policy import policy_for
    from miner.traces import build_sessions
    from tools.redaction_report import PIPELINE, places, replaced_spans

    corpus, cases = build(lists, people, carriers, beside)
    config = load_config(PIPELINE)
    sessions = build_sessions(pd.DataFrame(corpus.rows), config.agent.app_name)
    policy = policy_for(config)
    first: list[Any] = []  # the first pass, as the second model is handed it
    second = policy.second

    class _Watched:
        def decide(self, originals: Any, redacted: Any, second_model: Any) -> Any:
            first.extend(redacted)
            return second.decide(originals, redacted, second_model) if second else list(redacted)

    policy.second = _Watched()  # type: ignore[assignment]
    with _Recorder() as recorder:
        redacted = policy.redact(sessions)
    outputs: dict[str, tuple[str, str, set[str]]] = {}
    for before, after, one in zip(sessions, redacted, first, strict=True):
        shown = {s.value for s in after.surfaced}
        pairs = zip(places(before), places(after.session), places(one.session), strict=True)
        for (_p, original), (_q, output), (_r, first_output) in pairs:
            if isinstance(original, str) and original in corpus.labels:
                outputs[original] = (str(output), str(first_output), shown)
    for case in cases:
        text = case[-1]
        output, first_output, shown = outputs[text]
        spans = replaced_spans(text, output) or []
        early = replaced_spans(text, first_output) or []
        for start, end, label in corpus.labels[text]:
            person = not label.startswith(NEG)
            hit = [e for s, t, e in spans if s < end and start < t]
            value = text[start:end]
            covered = any(v in value or value in v for v in shown)
            if person:
                whole = all(
                    any(s <= i < t for s, t, _e in spans) for i in range(start, end)
                    if text[i].isalnum()
                )  # fmt: skip
                yield (
                    case + ("person",),
                    ("replaced" if whole else "surfaced" if covered or hit else "silent"),
                )
                continue
            if not hit:
                yield case, "surfaced" if covered else "kept"
                continue
            first_hit = [s for s, t, _e in early if s < end and start < t]
            if first_hit:
                found = [(v, w) for (t, v), w in recorder.seen.items() if t == text]
                said = [f"{n} -> {w}" for v, (n, w) in found if v in value or value in v]
                why = ", ".join(said) or "a session rule (no detection on its text)"
                yield case, f"replaced {hit[0]}: first pass: {why}"
            else:
                yield case, f"replaced {hit[0]}: second model or a replaced person's part"


def main() -> None:
    args = sys.argv[1:]
    limit = int(args[args.index("--limit") + 1]) if "--limit" in args else None
    report(firm_lists(limit), person_list(), verbose="-v" in args)


def report(
    lists: dict[str, list[str]],
    people: list[str],
    carriers: tuple[Carrier, ...] = CARRIERS,
    beside: tuple[PersonCarrier, ...] = PERSON_CARRIERS,
    verbose: bool = False,
) -> None:
    """Prints the sweep's counts: per carrier, per list, replaced by why,
    the persons beside; with ``verbose`` each replaced look-alike and
    silent person (tune lists only)."""
    per_carrier: Counter[tuple[str, str]] = Counter()
    per_list: Counter[tuple[str, str]] = Counter()
    why: Counter[str] = Counter()
    persons: Counter[str] = Counter()
    examples: list[str] = []
    for case, outcome in sweep(lists, people, carriers, beside):
        source, carrier, firm, person = case[:4]
        if case[-1] == "person":
            persons[outcome] += 1
            if outcome == "silent":
                examples.append(f"silent person {person!r} beside {firm!r} ({carrier})")
            continue
        kind = outcome.split(" ")[0]
        per_carrier[carrier, kind] += 1
        per_list[source, kind] += 1
        if kind == "replaced":
            why[outcome.partition(": ")[2]] += 1
            examples.append(f"{carrier} | {source} | {firm!r} | {outcome}")
    kinds = ("replaced", "surfaced", "kept")
    for title, counts in (("carrier", per_carrier), ("list", per_list)):
        print(f"| {title} | " + " | ".join(kinds) + " |\n|---|---:|---:|---:|")
        for key in sorted({k for k, _o in counts}):
            print(f"| {key} | " + " | ".join(str(counts[key, k]) for k in kinds) + " |")
        print()
    total = {k: sum(n for (_c, o), n in per_carrier.items() if o == k) for k in kinds}
    placed = sum(total.values())
    print(f"look-alikes placed {placed}: " + ", ".join(f"{k} {n}" for k, n in total.items()))
    print(f"persons beside them: {dict(persons)}\n\nreplaced, by why:")
    for reason, n in why.most_common():
        print(f"{n:6d}  {reason}")
    if verbose:  # tune lists only: the values may be read
        print("\n" + "\n".join(examples))


if __name__ == "__main__":
    main()
