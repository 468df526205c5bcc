"""`python -m tools.name_sweep`: a tuning harness for the person rules.

Every first name and surname of the tune locales' lists (mimesis's
``MIMESIS_TUNE_LOCALES``, Faker's ``TUNE_LOCALES``: tools/third_party_corpus.py)
is paired with one of the other list and written as a full name, the surname
alone and the first name alone, each as the list writes it, in capitals and in
lower case, into one of ``CARRIERS`` (sentences this project wrote: chat,
delivery notes, signatures, escalation summaries, a JSON field), each form
into the next carrier in turn, so every carrier reads every form. The texts
run through the shipped policy as one session each, and the sweep prints
replaced / surfaced / silent per form and per carrier, the decisions per
case of each carrier, and the decisions by the rule that surfaced them.

This is a tuning harness, not a measurement: its names are the tune
locales' and its sentences the project's own. ``-v`` prints each silent
value; ``--limit N`` reads the first N pairs of each list (a quick run).
"""

from __future__ import annotations

import itertools
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from tools.pii_corpus import Corpus, Labelled, plugin_row
from tools.redaction_report import Report, measure

#: Sentences around a name (``{}``), the shapes a support agent's traces
#: carry it in. The last is a tool's JSON field, the whole leaf the name.
CARRIERS = (
    "hi, it's {} again, the webcam arrived broken",
    "Please ring {} on the intercom, the bell is broken",
    "Deutsche Post says the recipient {} is not known at this address",
    "Customer {} (C-12345, buyer@example.com) escalated the refund twice",
    "Thanks for your help!\n\nBest regards,\n{}",
    "can you tell {} that the order shipped yesterday",
    "Delivery note: leave the parcel with {} next door",
    "I spoke to {} on the phone and she confirmed the booking",
    "The account is registered to {} since March",
    "Escalation summary: {} reported a double charge on the invoice",
    "Booking for {}, 2 adults, arriving Friday",
    "my name is {} and I need to change my seat",
    "{} called about the missing parcel",
    "JSON",
)

#: How a name is written: as the list writes it, in capitals, in lower case.
CASINGS: dict[str, Callable[[str], str]] = {
    "as written": str,
    "capitals": str.upper,
    "lower case": str.lower,
}


def tune_names(limit: int | None = None) -> Iterator[tuple[str, str, str]]:
    """(source, first name, surname): every first name and every surname of
    each tune locale's lists, paired in order, the shorter list wrapped."""
    from mimesis import Person
    from mimesis.locales import Locale

    from tools.third_party_corpus import MIMESIS_TUNE_LOCALES, TUNE_LOCALES

    for locale in MIMESIS_TUNE_LOCALES:
        data: Any = Person(Locale(locale))._dataset
        firsts = sorted({n for names in data["names"].values() for n in names})
        surnames = data["surnames"]
        lasts = sorted(
            {n for names in surnames.values() for n in names}
            if isinstance(surnames, dict)
            else set(surnames)
        )
        yield from _paired(f"mimesis {locale}", firsts, lasts, limit)
    from faker import Faker

    for locale in TUNE_LOCALES:
        [person] = [p for p in Faker(locale).get_providers() if ".person." in type(p).__module__]
        given: set[str] = set()
        family: set[str] = set()
        for attr in ("first_names", "first_names_male", "first_names_female"):
            given |= {n for n in getattr(person, attr, ()) if isinstance(n, str)}
        for attr in ("last_names", "last_names_male", "last_names_female"):
            family |= {n for n in getattr(person, attr, ()) if isinstance(n, str)}
        yield from _paired(f"faker {locale}", sorted(given), sorted(family), limit)


def _paired(
    source: str, firsts: list[str], lasts: list[str], limit: int | None
) -> Iterator[tuple[str, str, str]]:
    count = min(max(len(firsts), len(lasts)), limit or sys.maxsize)
    if not firsts or not lasts:
        return
    for n in range(count):
        yield source, firsts[n % len(firsts)], lasts[n % len(lasts)]


def sweep(limit: int | None = None) -> dict[str, Report]:
    """The reports by form ("full name, capitals") and by carrier (its index)."""
    texts: list[tuple[str, str, str, str]] = []  # (form, carrier, value, source)
    turn = itertools.count()
    for source, first, last in tune_names(limit):
        for (shape, name), (casing, cased) in itertools.product(
            (("full name", f"{first} {last}"), ("surname", last), ("first name", first)),
            CASINGS.items(),
        ):
            carrier = CARRIERS[next(turn) % len(CARRIERS)]
            texts.append((f"{shape}, {casing}", carrier, cased(name), source))
    cells: dict[tuple[str, str], list[tuple[str, str, str, str]]] = {}
    for text in texts:
        cells.setdefault((text[0], text[1]), []).append(text)
    reports: dict[str, Report] = {}
    for (form, carrier), members in cells.items():
        cell = _measured(members)
        for group in (f"form: {form}", f"carrier: {carrier}"):
            _add(reports.setdefault(group, Report()), cell)
    return reports


def _add(total: Report, cell: Report) -> None:
    """The counts the sweep prints of ``cell`` added to ``total``."""
    total.planted.update(cell.planted)
    total.caught.update(cell.caught)
    total.surfaced.update(cell.surfaced)
    total.silent_examples += cell.silent_examples
    total.cases += cell.cases
    total.decisions += cell.decisions
    total.why.update(cell.why)
    total.why_examples += cell.why_examples


def _measured(texts: list[tuple[str, str, str, str]]) -> Report:
    corpus = Corpus()
    clock = datetime(2026, 11, 3, tzinfo=UTC)
    for n, (_form, carrier, value, _source) in enumerate(texts):
        sid, clock = f"sweep-{n:06d}", clock + timedelta(minutes=5)
        greeting = {"text_summary": "hi"}
        rows = [plugin_row(sid, 0, clock, "USER_MESSAGE_RECEIVED", f"{sid}-t", greeting, {})]
        if carrier == "JSON":
            result = {"status": "ok", "recipient": corpus.value(value, "PERSON")}
            rows.append(
                plugin_row(sid, 1, clock, "TOOL_COMPLETED", f"{sid}-t",
                           {"tool": "lookup_customer", "result": result}, {}, span_id=f"{sid}-s")
            )  # fmt: skip
        else:
            before, _, after = carrier.partition("{}")
            text = corpus.text(Labelled().add(before).add(value, "PERSON").add(after))
            rows[0] = plugin_row(
                sid, 0, clock, "USER_MESSAGE_RECEIVED", f"{sid}-t", {"text_summary": text}, {}
            )
        corpus.rows += rows
    return measure(corpus.rows, corpus.labels)


def main() -> None:
    limit = None
    if "--limit" in sys.argv:
        limit = int(sys.argv[sys.argv.index("--limit") + 1])
    reports = sweep(limit)
    print("| group | names | replaced | surfaced | silent | decisions per case |")
    print("|---|---:|---:|---:|---:|---:|")
    for group, r in reports.items():
        planted = r.planted["PERSON"]
        print(
            f"| {group!r} | {planted} | {r.caught['PERSON']} | {r.surfaced['PERSON']} "
            f"| {r.silent('PERSON')} | {r.decisions_per_case():.2f} |"
        )
    why: Counter[tuple[str, str]] = Counter()
    for group, r in reports.items():
        if group.startswith("form: "):
            why.update(r.why)
    print("\n| rule that surfaced | what it was | decisions |\n|---|---|---:|")
    for (reason, kind), n in sorted(why.items(), key=lambda item: -item[1]):
        print(f"| {reason} | {kind} | {n} |")
    if "-v" in sys.argv:
        for group, r in reports.items():
            if group.startswith("form: "):
                for _kind, value in r.silent_examples:
                    print("silent", group, value)


if __name__ == "__main__":
    main()
