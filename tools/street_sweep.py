"""A street sweep: a tuning harness, not a measurement.

Every street name mimesis lists for ``MIMESIS_TUNE_LOCALES`` (and addresses
it writes), and Faker's ``street_address()``, ``street_name()`` and
``address()`` for ``TUNE_LOCALES``, each put in the carrier sentences below
(written here, not by a generator: the values are third-party, the
sentences ours), run through the shipped policy. It counts each street
replaced, surfaced or silent, per carrier and per shape of the value (a
number in it or not, in lower case), and the towns beside them replaced or
surfaced (look-alikes). Only tune locales: its misses may be read (``-v``).

    PYTHONHASHSEED=0 python -m tools.street_sweep [--per-locale N] [-v]
"""

from __future__ import annotations

import argparse
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

from miner.model import Session, ToolCall, Turn
from tools.pii_corpus import NEG, Labelled
from tools.redaction_report import LOOKALIKE_KINDS, PIPELINE, Report, score_sessions

#: A carrier: its name, and how it writes a street ``x`` with a person, a
#: postcode and a town beside it as (user text, tool arguments) pieces.
#: Each piece is a list of (text, label) parts.
Parts = list[tuple[str, str | None]]

#: The town of an address is its part (replaced with it or not: unlabelled);
#: a town alone in a sentence is a look-alike (``_LOOKALIKES``).
_STREET, _PERSON, _TOWN = "STREET_ADDRESS", "PERSON", None


def _carriers() -> dict[str, Callable[[str, str, str, str], dict[str, Parts]]]:
    """name -> (street, person, postcode, town) -> {place: parts}."""

    def text(*parts: tuple[str, str | None]) -> dict[str, Parts]:
        return {"user": list(parts)}

    def arg(key: str, *parts: tuple[str, str | None]) -> dict[str, Parts]:
        return {"user": [("please update my address", None)], f"arg:{key}": list(parts)}

    return {
        "ship to": lambda x, p, c, t: text(
            ("Please ship it to ", None), (x, _STREET), (" by Friday.", None)
        ),
        "I live at": lambda x, p, c, t: text(
            ("I live at ", None), (x, _STREET), (" since March.", None)
        ),
        "address:": lambda x, p, c, t: text(("Address: ", None), (x, _STREET)),
        "postcode town": lambda x, p, c, t: text(
            ("new address ", None), (x, _STREET), (f", {c} ", None), (t, _TOWN)
        ),
        "lower case": lambda x, p, c, t: text(
            ("pls send the parcel to ", None), (x.lower(), _STREET), (" thanks", None)
        ),
        "lower postcode town": lambda x, p, c, t: text(
            ("my address is ", None), (x.lower(), _STREET), (f", {c} ", None), (t.lower(), _TOWN)
        ),
        "json street": lambda x, p, c, t: arg("street", (x, _STREET)),
        "json line1": lambda x, p, c, t: arg("line1", (x, _STREET)),
        "json address": lambda x, p, c, t: arg("address", (x, _STREET)),
        "person, street": lambda x, p, c, t: text(
            ("Deliver to ", None), (p, _PERSON), (", ", None), (x, _STREET), (" please", None)
        ),
        "escalation contacts": lambda x, p, c, t: {
            "user": [("escalate this", None)],
            "arg:summary": [
                ("Customer ", None),
                (p, _PERSON),
                (" (C-1042, ", None),
                (x, _STREET),
                (f", {c} ", None),
                (t, _TOWN),
                (") wants a refund", None),
            ],
        },
        "block newline": lambda x, p, c, t: text(
            ("Regards,\n", None),
            (p, _PERSON),
            ("\n", None),
            (x, _STREET),
            (f"\n{c} ", None),
            (t, _TOWN),
        ),  # fmt: skip
        "block escaped newline": lambda x, p, c, t: arg(
            "note", (p, _PERSON), ("\\n", None), (x, _STREET), (f"\\n{c} ", None), (t, _TOWN)
        ),
        "capitals": lambda x, p, c, t: text(("SHIP TO ", None), (x.upper(), _STREET)),
        "town alone": lambda x, p, c, t: text(
            ("We opened a second shop in ", None), (t, f"{NEG}:city"), (" last week.", None)
        ),
    }


#: Look-alikes a street rule could take: a plan, a price, a product, a
#: screen, a shop (each a session of its own).
_LOOKALIKE_TEXTS = (
    [("The ", None), ("Plaza 21", f"{NEG}:plan"), (" plan costs ", None),
     ("45 Euro", f"{NEG}:product"), (" a month.", None)],
    [("I upgraded to ", None), ("Plaza 21", f"{NEG}:plan"), (" yesterday", None)],
    [("it was ", None), ("45 Euro", f"{NEG}:product"), (" in the shop", None)],
    [("Bought a ", None), ("Galaxy 21 Ultra", f"{NEG}:product"), (" at ", None),
     ("Media Markt", f"{NEG}:company"), (" for 799 EUR", None)],
    [("The film is on ", None), ("Screen 12", f"{NEG}:product"), (" at the ", None),
     ("Odeon", f"{NEG}:company"), (" tonight", None)],
    [("Our ", None), ("Avenue 54", f"{NEG}:product"), (" lamp ships in 3 days", None)],
    [("Gate 12", f"{NEG}:airport"), (" at ", None), ("Schiphol", f"{NEG}:airport"),
     (" closes at 9", None)],
)  # fmt: skip


def _values(per_locale: int, seed: int) -> Iterator[tuple[str, str, str, str, str, str]]:
    """(source, locale, street, person, postcode, town): every mimesis tune
    locale's street names (up to ``per_locale``, drawn evenly) and as many
    of its addresses; Faker's tune locales' street names, street lines and
    addresses' first lines."""
    from faker import Faker
    from mimesis import Address, Locale, Person

    from tools.third_party_corpus import MIMESIS_TUNE_LOCALES, TUNE_LOCALES

    r = random.Random(seed)
    for code in MIMESIS_TUNE_LOCALES:
        address, person = Address(Locale(code), seed=seed), Person(Locale(code), seed=seed)
        names = sorted(set(address._extract(["street", "name"])))
        picked = r.sample(names, min(per_locale or len(names), len(names)))
        streets = [("mimesis name", n) for n in picked]
        streets += [("mimesis address", address.address()) for _ in picked]
        for source, street in streets:
            yield source, code, street, person.full_name(), address.postal_code(), address.city()
    for locale in TUNE_LOCALES:
        fake = Faker(locale)
        fake.seed_instance(seed)
        draws = (("faker name", "street_name"), ("faker street", "street_address"),
                 ("faker address", "address"))  # fmt: skip
        for source, method in draws:
            for _ in range(max(1, (per_locale or 90) // 3)):
                street = getattr(fake, method)().split("\n")[0]  # an address's first line
                yield source, locale, street, fake.name(), fake.postcode(), fake.city()


def _session(n: int, pieces: dict[str, Parts], labels: dict[str, list[Any]]) -> Session:
    texts: dict[str, str] = {}
    for place, parts in pieces.items():
        built = Labelled()
        for value, label in parts:
            built.add(value, label)
        texts[place] = built.text
        labels.setdefault(built.text, [])
        for span in built.labels:
            if span not in labels[built.text]:
                labels[built.text].append(span)
    args = {p.partition(":")[2]: t for p, t in texts.items() if p.startswith("arg:")}
    calls = (ToolCall(name="update_address", agent="a", args=args, result={}),) if args else ()
    turn = Turn(invocation_id=f"i{n}", user_text=texts["user"], reply_text="ok", tool_calls=calls)
    now = datetime(2026, 11, 22, tzinfo=UTC)
    return Session(f"s{n}", "support_agent", "u-1", now, now, {}, (turn,))


def _shape(street: str) -> str:
    return "number" if re.search(r"\d", street) else "no number"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-locale", type=int, default=30, help="0: every street name")
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--carrier", action="append", help="only these carriers")
    parser.add_argument("-v", action="store_true", help="print each silent street")
    args = parser.parse_args()

    from miner.config import load_config
    from miner.redaction.policy import policy_for

    carriers = _carriers()
    chosen = {k: v for k, v in carriers.items() if not args.carrier or k in args.carrier}
    sessions: list[Session] = []
    labels: dict[str, list[Any]] = {}
    groups: dict[tuple[str, str, str], list[int]] = {}
    for source, _locale, street, person, postcode, town in _values(args.per_locale, args.seed):
        street = street.strip()
        for name, carrier in chosen.items():
            groups.setdefault((name, source, _shape(street)), []).append(len(sessions))
            pieces = carrier(street, person, postcode, town)
            sessions.append(_session(len(sessions), pieces, labels))
    for n, parts in enumerate(_LOOKALIKE_TEXTS):
        groups.setdefault(("look-alikes", "ours", str(n)), []).append(len(sessions))
        sessions.append(_session(len(sessions), {"user": list(parts)}, labels))
    redacted = policy_for(load_config(PIPELINE)).redact(sessions)

    def report(indices: list[int]) -> Report:
        picked = [sessions[i] for i in indices]
        return score_sessions(picked, [redacted[i] for i in indices], labels)

    def row(name: str, r: Report) -> str:
        planted = r.planted[_STREET]
        caught, shown = r.caught[_STREET], r.surfaced[_STREET]
        silent = planted - caught - shown
        looks = sum(r.negatives[k] for k in LOOKALIKE_KINDS)
        destroyed = sum(r.destroyed[k] for k in LOOKALIKE_KINDS)
        shown_looks = sum(r.negatives_surfaced[k] for k in LOOKALIKE_KINDS)
        return (
            f"{name:<42} {planted:>6} {caught:>8} {shown:>8} {silent:>6}"
            f" {r.decisions / max(r.cases, 1):>6.2f} {destroyed:>4}/{looks:<4} {shown_looks:>4}"
        )

    header = (
        f"{'carrier / source / shape':<42} {'street':>6} {'replaced':>8} {'surfaced':>8}"
        f" {'silent':>6} {'dec/c':>6} look-rep  look-sur"
    )
    print(header)
    by_carrier: dict[str, list[int]] = {}
    by_source: dict[str, list[int]] = {}
    for (name, source, shape), indices in sorted(groups.items()):
        by_carrier.setdefault(name, []).extend(indices)
        by_source.setdefault(f"{source} / {shape}", []).extend(indices)
    for name, indices in by_carrier.items():
        print(row(name, report(indices)))
    print()
    for name, indices in by_source.items():
        print(row(name, report(indices)))
    whole = report(list(range(len(sessions))))
    print()
    print(row("all", whole))
    print("decisions as:", dict(whole.decisions_as.most_common()))
    reasons = Counter({k: v for k, v in whole.why.items()})
    print("surfaced why (reason, what):")
    for (reason, what), n in reasons.most_common(20):
        print(f"  {n:>5} {reason} / {what}")
    if args.v:
        for kind, example in whole.silent_examples:
            if kind == _STREET:
                print("silent", example)
        for example in whole.destroyed_examples:
            print("look-alike replaced", example)
        for example in whole.surfaced_negative_examples:
            print("look-alike surfaced", example)


if __name__ == "__main__":
    main()
