"""A labelled corpus of the hard cases issue 36 names: support chats of a
shop, a bank, an airline and a telecom, with personal values in the shapes
redaction missed silently, beside words that look personal and are not.

Every value comes from a published generator or list:

- people, streets, phones, e-mail domains, passports, jobs, companies and
  dates from Faker's locale data (``company()`` of each locale: "Lemaire",
  "Wesack Mende GmbH & Co. KGaA", "Rossi SPA": often a surname);
- Spain's NIE from Faker ``es_ES``; Japan's My Number (Individual Number)
  as python-stdnum computes its check digit;
- products, carriers and customer tiers (as plan names) from
  ``faker-ecommerce-provider``; a product named like a person ("Elsa dining
  chair") is a Faker first name before one of its product types;
- airports, their IATA codes and cities from ``airportsdata`` (the
  OurAirports-derived table, MIT).

The personal shapes: a first name in lower case, a surname in capitals, an
airline's GDS e-mail (``NAME//DOMAIN.TLD``), a bare phone of 8 or more
digits in free text (national digits, or ``00`` and the country code, as in
an escalation summary), My Number, NIE, a passport number, a street in
lower case, and a birth date followed by a passport's expiry date (which is
not personal). What this module adds is only the placement: the sentences
around the values, the way a support chat or an agent's summary writes them.

**Split.** Lists are split by position (even: dev, odd: test): the
airports (by IATA code), carriers, product types and tiers, so no look-alike
of the test part is seen while tuning; people and companies are drawn from
the locale with a seed per split. ``locales`` defaults to the third-party
corpus's seven; ``HELD_OUT_LOCALES`` gives the held-out measurement.
"""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta
from typing import Any

from tools.pii_corpus import NEG, Corpus, Labelled, plugin_row
from tools.third_party_corpus import LOCALES, SPLITS


def _half(values: Any, split: str) -> list[Any]:
    parity = SPLITS.index(split)
    return [v for i, v in enumerate(values) if i % 2 == parity]


class _Lists:
    """The published lists one split draws its look-alikes from."""

    def __init__(self, split: str) -> None:
        import airportsdata
        from faker_ecommerce import EcommerceProvider

        airports = airportsdata.load("IATA")
        # Airports with scheduled service are named like "Manchester Airport";
        # strips and heliports ("Ocean Reef Club Airport") are kept too: any
        # airport's name is a thing, not a person.
        named = sorted(
            (code, a["name"], a["city"])
            for code, a in airports.items()
            if code.isalpha() and a["name"] and a["city"]
        )
        self.airports: list[tuple[str, str, str]] = _half(named, split)
        self.carriers: list[str] = _half(EcommerceProvider.shipping_carriers, split)
        self.product_types: list[str] = _half(EcommerceProvider.product_types, split)
        self.tiers: list[str] = _half(EcommerceProvider.customer_types, split)


def my_number(r: random.Random) -> str:
    """A valid Japanese Individual Number (12 digits, the last a check digit)."""
    from stdnum.jp import in_

    body = str(r.randint(1, 9)) + "".join(r.choice("0123456789") for _ in range(10))
    number = body + in_.calc_check_digit(body)
    return in_.format(number) if r.random() < 0.5 else number


def bare_phone(local: Any, locale: str, r: random.Random) -> str:
    """The locale's phone number written as digits only: its national
    digits, or ``00`` and the country code (the real agent's "00573…")."""
    import phonenumbers

    region = locale.split("_")[1]
    for _ in range(_PHONE_TRIES):
        written = local.phone_number()
        try:
            parsed = phonenumbers.parse(written, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(parsed):
            digits = _dialled(parsed, r)
            if len(digits) >= 8:
                return digits
    # Faker's es_AR numbers never pass libphonenumber: build one from
    # libphonenumber's own example for the region, its last digits drawn.
    example = phonenumbers.example_number_for_type(region, phonenumbers.PhoneNumberType.MOBILE)
    if example is None:
        raise ValueError(f"libphonenumber has no mobile number for {region}")
    national = str(example.national_number)
    for _ in range(_PHONE_TRIES):
        tail = "".join(r.choice("0123456789") for _ in range(4))
        parsed = phonenumbers.parse(national[:-4] + tail, region)
        if phonenumbers.is_valid_number(parsed):
            return _dialled(parsed, r)
    return _dialled(example, r)


#: How many of Faker's numbers to try before libphonenumber's example.
_PHONE_TRIES = 200


def _dialled(parsed: Any, r: random.Random) -> str:
    """``00`` and the country code, or the trunk ``0`` and the national digits."""
    import phonenumbers

    e164 = phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164)
    return "00" + e164[1:] if r.random() < 0.5 else "0" + str(parsed.national_number)


def build_support_corpus(
    split: str = "test", seed: int = 36, per_locale: int = 16,
    locales: tuple[str, ...] = LOCALES,
) -> Corpus:  # fmt: skip
    """Plugin rows and labels for one split: ``per_locale`` sessions of two
    to four turns for each of ``locales``."""
    from faker import Faker

    corpus = Corpus()
    lists = _Lists(split)
    r = random.Random(f"support-{seed}-{split}")
    start = datetime(2026, 11, 5, tzinfo=UTC)
    index = 0
    spain = Faker("es_ES")
    spain.seed_instance(f"{seed}-{split}-es")
    for locale in locales:
        local = Faker(locale)
        local.seed_instance(f"{seed}-{split}-{locale}")
        for _ in range(per_locale):
            sid = f"sp-{split}-{index:04d}"
            _session(corpus, r, local, spain, locale, lists, sid, start)
            start += timedelta(minutes=19)
            index += 1
    return corpus


def _session(
    corpus: Corpus, r: random.Random, local: Any, spain: Any, locale: str, lists: _Lists,
    sid: str, start: datetime,
) -> None:  # fmt: skip
    state: dict[str, Any] = {"channel": r.choice(["chat", "email", "voice"])}
    rows: list[dict[str, Any]] = []
    clock = [start]

    def row(event: str, invocation: str, content: Any, **extra: Any) -> None:
        clock[0] += timedelta(seconds=r.randint(1, 40))
        rows.append(
            plugin_row(sid, len(rows), clock[0], event, invocation, content, state, **extra)
        )

    first, last = local.first_name(), local.last_name()
    turns = [_shop, _bank, _airline, _telecom]
    for n in range(r.randint(2, 4)):
        invocation = f"{sid}-t{n}"
        user, tool, args, result, reply = r.choice(turns)(r, local, spain, locale, lists, first,
                                                          last)  # fmt: skip
        row("USER_MESSAGE_RECEIVED", invocation, {"text_summary": corpus.text(user)})
        span = f"{invocation}-s"
        labelled_args = {k: corpus.text(v) for k, v in args.items()}
        row("TOOL_STARTING", invocation, {"tool": tool, "args": labelled_args}, span_id=span)
        labelled_result = {k: corpus.text(v) for k, v in result.items()}
        labelled_result["status"] = "ok"
        row("TOOL_COMPLETED", invocation, {"tool": tool, "result": labelled_result}, span_id=span)
        row("AGENT_RESPONSE", invocation, {"response": f"text: '{corpus.text(reply)}'"})
    corpus.rows.extend(rows)


Turn = tuple[Labelled, str, dict[str, Labelled], dict[str, Labelled], Labelled]


def _product(r: random.Random, local: Any, lists: _Lists) -> str:
    """A product named like a person, or a plain one: "Elsa dining chair"."""
    kind = r.choice(lists.product_types)
    return f"{local.first_name()} {kind.lower()}" if r.random() < 0.6 else kind


def _shop(
    r: random.Random, local: Any, spain: Any, locale: str, lists: _Lists, first: str, last: str
) -> Turn:
    product, carrier, company = _product(r, local, lists), r.choice(lists.carriers), local.company()
    user = Labelled()
    style = r.randrange(3)
    if style == 0:
        user.add("my ").add(product, f"{NEG}:product").add(" from ").add(company, f"{NEG}:company")
        user.add(" never came. ").add(carrier, f"{NEG}:carrier").add(" says the recipient ")
        user.add(last.upper(), "PERSON").add(" is not known at ")
        user.add(local.street_address().lower(), "STREET_ADDRESS")
    elif style == 1:
        user.add("hi, it's ").add(first.lower(), "PERSON").add(" again. the ")
        user.add(product, f"{NEG}:product").add(" arrived broken, can ")
        user.add(carrier, f"{NEG}:carrier").add(" pick it up?")
    else:
        user.add("Please ring ").add(last.upper(), "PERSON").add(" on the intercom, or call ")
        user.add(bare_phone(local, locale, r), "PHONE_NUMBER").add(". I bought the ")
        user.add(product, f"{NEG}:product").add(" at ").add(company, f"{NEG}:company").add(".")
    args = {"query": Labelled().add(product, f"{NEG}:product")}
    result = {
        "seller": Labelled().add(company, f"{NEG}:company"),
        "carrier": Labelled().add(carrier, f"{NEG}:carrier"),
    }
    reply = Labelled().add("I have asked ").add(carrier, f"{NEG}:carrier")
    reply.add(" to collect the ").add(product, f"{NEG}:product").add(" sold by ")
    reply.add(company, f"{NEG}:company").add(".")
    return user, "lookup_order", args, result, reply


def _bank(
    r: random.Random, local: Any, spain: Any, locale: str, lists: _Lists, first: str, last: str
) -> Turn:
    user = Labelled()
    style = r.randrange(3)
    if style == 0:
        user.add("I work as a ").add(local.job(), f"{NEG}:job").add(" at ")
        user.add(local.company(), f"{NEG}:company").add(". My NIE is ")
        user.add(spain.nie(), "NATIONAL_ID").add(", I was born on ")
        user.add(_birth(local).strftime("%d/%m/%Y"), "DATE_OF_BIRTH")
    elif style == 1:
        user.add("my number for the account: ").add(my_number(r), "NATIONAL_ID")
        user.add(" (My Number card). the card is in the name of ")
        user.add(first.lower(), "PERSON").add(" ").add(last.lower(), "PERSON")
    else:
        user.add("transfer to ").add(local.company(), f"{NEG}:company")
        user.add(" failed, call me back on ").add(bare_phone(local, locale, r), "PHONE_NUMBER")
    args = {"customer": Labelled().add(f"{first} {last}", "PERSON")}
    result = {"branch": Labelled().add(local.city(), f"{NEG}:city")}
    reply = Labelled().add("Thank you ").add(first, "PERSON")
    reply.add(", your branch in ").add(local.city(), f"{NEG}:city").add(" will call you.")
    return user, "lookup_customer", args, result, reply


def _airline(
    r: random.Random, local: Any, spain: Any, locale: str, lists: _Lists, first: str, last: str
) -> Turn:
    (origin, origin_name, origin_city), (to, to_name, to_city) = r.sample(lists.airports, 2)
    gds = _gds_email(first, last, local.free_email_domain())
    born = _birth(local)
    expires = local.date_between(start_date="+1y", end_date="+9y")
    user = Labelled()
    style = r.randrange(3)
    if style == 0:
        user.add("Flight ").add(origin, f"{NEG}:IATA code").add("-").add(to, f"{NEG}:IATA code")
        user.add(" tomorrow. passport ").add(local.passport_number(), "PASSPORT")
        user.add(", born ").add(born.isoformat(), "DATE_OF_BIRTH").add(", expires ")
        user.add(expires.isoformat(), f"{NEG}:date")
    elif style == 1:
        user.add("I am stuck at ").add(origin_name, f"{NEG}:airport").add(" in ")
        user.add(origin_city, f"{NEG}:city").add(", please rebook me to ")
        user.add(to_city, f"{NEG}:city").add(". ask for ").add(first.lower(), "PERSON")
        user.add(" at the desk.")
    else:
        user.add("SSR CTCE ").add(gds, "EMAIL_ADDRESS").add(" / SSR CTCM ")
        user.add(bare_phone(local, locale, r), "PHONE_NUMBER").add(" for pax ")
        user.add(last.upper(), "PERSON").add("/").add(first.upper(), "PERSON")
    args = {
        "origin": Labelled().add(origin, f"{NEG}:IATA code"),
        "destination": Labelled().add(to, f"{NEG}:IATA code"),
    }
    result = {
        "from": Labelled().add(origin_name, f"{NEG}:airport"),
        "to": Labelled().add(to_name, f"{NEG}:airport"),
        "contact": Labelled().add(gds, "EMAIL_ADDRESS"),
    }
    reply = Labelled().add("You are rebooked from ").add(origin, f"{NEG}:IATA code")
    reply.add(" (").add(origin_name, f"{NEG}:airport").add(") to ")
    reply.add(to_city, f"{NEG}:city").add(".")
    return user, "rebook_flight", args, result, reply


def _telecom(
    r: random.Random, local: Any, spain: Any, locale: str, lists: _Lists, first: str, last: str
) -> Turn:
    plan = f"{r.choice(lists.tiers)} plan"
    phone = bare_phone(local, locale, r)
    user = Labelled()
    style = r.randrange(2)
    if style == 0:
        user.add("I want to move to the ").add(plan, f"{NEG}:plan").add(". The line is ")
        user.add(phone, "PHONE_NUMBER").add(" and the bill goes to ")
        user.add(local.street_address().lower(), "STREET_ADDRESS")
    else:
        user.add("no signal in ").add(local.city(), f"{NEG}:city").add(" since the ")
        user.add(local.date_between(start_date="-60d", end_date="today").isoformat(),
                 f"{NEG}:date")  # fmt: skip
        user.add(", it's ").add(first.lower(), "PERSON").add(" from the ")
        user.add(plan, f"{NEG}:plan")
    args = {"line": Labelled().add(phone, "PHONE_NUMBER")}
    result = {"plan": Labelled().add(plan, f"{NEG}:plan")}
    summary = Labelled().add("Customer ").add(f"{first} {last}", "PERSON").add(" (C-")
    summary.add(str(r.randint(10000, 99999))).add(", ").add(phone, "PHONE_NUMBER")
    summary.add(") escalated: ").add(plan, f"{NEG}:plan").add(" billing.")
    result["summary"] = summary
    reply = Labelled().add("I have escalated your ").add(plan, f"{NEG}:plan").add(" request.")
    return user, "escalate", args, result, reply


def _gds_email(first: str, last: str, domain: str) -> str:
    """An e-mail as an airline's reservation system writes it: capitals,
    ASCII, no blanks, ``//`` for ``@`` ("ADRIENDENIS//FREE.FR")."""
    from faker.decode import unidecode

    name = "".join(c for c in unidecode(first + last) if c.isalnum())
    return f"{name}//{domain}".upper()


def _birth(local: Any) -> date:
    born: date = local.date_of_birth(minimum_age=18, maximum_age=90)
    return born
