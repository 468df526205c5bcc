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
import unicodedata
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


#: The private source's sentences (``--private``): the ways outside text
#: writes a name, none of them one of ``CARRIERS``' shapes: a lower-case
#: word after a verb, a surname in a clerk's capitals, greetings in other
#: languages, signatures, mentions, a form's field, a tool call's argument
#: (``JSON args``: the whole leaf the name, in TOOL_STARTING's args).
PRIVATE_CARRIERS = (
    "tell {} the parcel is at the depot",
    "RECIPIENT {} NOT KNOWN AT THIS ADDRESS - RETURN TO SENDER",
    "Dear {},\n\nyour refund of 24.90 EUR has been processed.",
    "Hi {}, thanks for getting back to me so quickly",
    "Hola {}, gracias por tu mensaje, ya revisamos el pedido",
    "Bonjour {}, merci pour votre commande",
    "Hallo {}, vielen Dank für Ihre Nachricht",
    "Ciao {}, il pacco è in consegna oggi",
    "Thanks,\n{}\nSent from my iPhone",
    "cheers\n-- {}",
    "@{} can you check this ticket?",
    "ok so {} said the parcel never came",
    "ticket assigned to {} (billing)",
    "name: {}\nemail: buyer@example.com\nphone: n/a",
    "per {} the refund is approved",
    "is this {}'s account or her husband's?",
    "{} here, I ordered a lamp last week",
    "the courier left it with {} downstairs",
    "JSON args",
)


def private_names(
    per_source: int | None = None, seed: int = 2512
) -> Iterator[tuple[str, str, str]]:
    """(source, first name, surname) from ``PRIVATE_SOURCES``: Faker
    locales no split fills and no rule read (es_CL, sw), its Japanese and
    Chinese names romanized, its Cyrillic and Greek names transliterated
    (``transliterated``): names as English text writes them. Each source's
    first names and surnames are shuffled by ``seed`` and paired, the
    shorter list wrapped, ``per_source`` pairs at most."""
    import random

    from faker import Faker

    for source, locale, lists in PRIVATE_SOURCES:
        [person] = [p for p in Faker(locale).get_providers() if ".person." in type(p).__module__]
        given, family = (
            sorted(
                {transliterated(n) for attr in attrs for n in getattr(person, attr, ())
                 if isinstance(n, str) and n.strip()}
            )
            for attrs in lists
        )  # fmt: skip
        r = random.Random(f"{seed}-{source}")
        r.shuffle(given)
        r.shuffle(family)
        yield from _paired(f"private {source}", given, family, per_source)


_GIVEN = ("first_names", "first_names_male", "first_names_female")
_FAMILY = ("last_names", "last_names_male", "last_names_female")
_ROMANIZED = (
    ("first_romanized_names", "first_romanized_names_male", "first_romanized_names_female"),
    ("last_romanized_names",),
)
#: (source, Faker locale, (given names' lists, surnames' lists)).
PRIVATE_SOURCES = (
    ("es_CL", "es_CL", (_GIVEN, _FAMILY)),
    ("sw", "sw", (_GIVEN, _FAMILY)),
    ("ja_JP romanized", "ja_JP", _ROMANIZED),
    ("zh_CN romanized", "zh_CN", _ROMANIZED),
    ("zh_TW romanized", "zh_TW", _ROMANIZED),
    ("ru_RU transliterated", "ru_RU", (_GIVEN, _FAMILY)),
    ("uk_UA transliterated", "uk_UA", (_GIVEN, _FAMILY)),
    ("bg_BG transliterated", "bg_BG", (_GIVEN, _FAMILY)),
    ("el_GR transliterated", "el_GR", (_GIVEN, _FAMILY)),
)

#: Cyrillic and Greek letters in Latin ones, as English text writes them
#: (near BGN/PCGN; a name's own spelling in a passport may differ).
_LATIN = dict(
    zip(
        "абвгдезийклмнопрстуфыэґєіїαβγδεζηθικλμνξοπρσςτυφχψωάέήίόύώϊϋΐΰ",
        "a b v g d e z i y k l m n o p r s t u f y e g ye i yi "  # noqa: SIM905
        "a v g d e z i th i k l m n x o p r s s t y f ch ps o a e i i o y o i y i y".split(),
        strict=True,
    )
)
_LATIN.update(
    {"ё": "yo", "ж": "zh", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch",
     "ю": "yu", "я": "ya", "й": "y", "ъ": "", "ь": ""}
)  # fmt: skip
_LATIN.update(
    {"ου": "ou", "αι": "ai", "ει": "ei", "οι": "oi", "ευ": "ev", "αυ": "av", "μπ": "mp", "ντ": "nt",
     "γκ": "gk"}
)  # fmt: skip


def transliterated(name: str) -> str:
    """``name`` in Latin letters: Cyrillic and Greek transliterated (two
    Greek letters that English writes as one sound first), capitalised as
    written; any other letter as it is."""
    if any("\u0370" <= c <= "\u03ff" or "\u1f00" <= c <= "\u1fff" for c in name):
        # Greek's accents off first: "ού" is "ou" as "ου" is.
        name = "".join(
            c for c in unicodedata.normalize("NFD", name) if not unicodedata.combining(c)
        )
    if name.isupper() and len(name) > 1:
        name = name.title()  # zh_TW's lists are in capitals: the sweep cases them
    out: list[str] = []
    at = 0
    while at < len(name):
        pair, one = name[at : at + 2].lower(), name[at].lower()
        latin = _LATIN.get(pair) if len(pair) == 2 else None
        step = 2 if latin is not None else 1
        if latin is None:
            latin = _LATIN.get(one, name[at])
        if name[at].isupper() and latin:
            latin = latin[0].upper() + latin[1:]
        out.append(latin)
        at += step
    return "".join(out)


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


def sweep(limit: int | None = None, private: bool = False) -> dict[str, Report]:
    """The reports by form ("full name, capitals") and by carrier (its index);
    ``private``: ``private_names`` in ``PRIVATE_CARRIERS``."""
    reports: dict[str, Report] = {}
    for (form, carrier), members in cells(limit, private).items():
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
    corpus = corpus_of(texts)
    return measure(corpus.rows, corpus.labels)


def texts(limit: int | None = None, private: bool = False) -> list[tuple[str, str, str, str]]:
    """(form, carrier, value, source) of each text the sweep reads (``sweep``)."""
    found: list[tuple[str, str, str, str]] = []
    turn = itertools.count()
    carriers = PRIVATE_CARRIERS if private else CARRIERS
    for source, first, last in (private_names if private else tune_names)(limit):
        for (shape, name), (casing, cased) in itertools.product(
            (("full name", f"{first} {last}"), ("surname", last), ("first name", first)),
            CASINGS.items(),
        ):
            carrier = carriers[next(turn) % len(carriers)]
            found.append((f"{shape}, {casing}", carrier, cased(name), source))
    return found


def cells(
    limit: int | None = None, private: bool = False
) -> dict[tuple[str, str], list[tuple[str, str, str, str]]]:
    """``texts`` by cell, (form, carrier): the groups the sweep redacts and
    measures at once (the second model decides a value over one redaction's
    sessions, so a cell's figures depend on its company)."""
    found: dict[tuple[str, str], list[tuple[str, str, str, str]]] = {}
    for text in texts(limit, private):
        found.setdefault((text[0], text[1]), []).append(text)
    return found


def corpus_of(texts: list[tuple[str, str, str, str]]) -> Corpus:
    """The plugin rows and labels of ``texts`` (``texts``' tuples), a session each."""
    corpus = Corpus()
    clock = datetime(2026, 11, 3, tzinfo=UTC)
    for n, (_form, carrier, value, _source) in enumerate(texts):
        sid, clock = f"sweep-{n:06d}", clock + timedelta(minutes=5)
        greeting = {"text_summary": "hi"}
        rows = [plugin_row(sid, 0, clock, "USER_MESSAGE_RECEIVED", f"{sid}-t", greeting, {})]
        if carrier == "JSON args":
            args = {"name": corpus.value(value, "PERSON"), "booking": "BK-4821"}
            rows.append(
                plugin_row(sid, 1, clock, "TOOL_STARTING", f"{sid}-t",
                           {"tool": "update_booking", "args": args}, {}, span_id=f"{sid}-s")
            )  # fmt: skip
        elif carrier == "JSON":
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
    return corpus


def main() -> None:
    limit = None
    if "--limit" in sys.argv:
        limit = int(sys.argv[sys.argv.index("--limit") + 1])
    reports = sweep(limit, private="--private" in sys.argv)
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
