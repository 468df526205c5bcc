"""A labelled corpus for measuring redaction: seeded, written for this, not the sample.

``build_corpus(seed, sessions)`` writes ADK analytics-plugin rows (the shapes
``miner.traces`` reads: USER_MESSAGE_RECEIVED, TOOL_STARTING/COMPLETED,
TOOL_ERROR, AGENT_RESPONSE, ``attributes.session_metadata.state``) for support
sessions full of planted personal values, and a label for every planted value
and every hard negative: the text it sits in and its character span.

Planted (12 types, many formats each): person names (full, possessive, lower
case, ALL CAPS, a first name alone after the full name, in lists and
sign-offs, next to other entities); e-mails; phones of eight countries with
every common separator, with and without a context word; cards of every major
brand with spaces, dashes or none; IBANs of seven countries; SSNs with dashes,
and without after their name; IPv4 and IPv6; US and UK street addresses over
the whole USPS suffix list with unit designators and Flat/Studio prefixes; UK
postcodes; and the sample pipeline's configured identifiers (customer and
order ids). Placed in user text, agent replies, tool arguments, nested tool
results, the session state and tool error messages.

Hard negatives, which must come out unchanged: product names with capitalised
words and numbers, carriers and card brands, tracking numbers, SKUs, amounts,
dates, times, plan names, agent and tool names.

Run ``python -m tools.pii_corpus OUT`` to write the export as Parquet plus
``labels.json``, to look at it or to run ``miner draft`` on it.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pandas as pd

from miner.redaction.lexicon.addresses import STREET_SUFFIXES
from miner.redaction.lexicon.formats import luhn_ok

NEG = "NEGATIVE"


def _words(text: str) -> list[str]:
    return text.split()


FIRST = _words(
    """
    Alex Priya Tomasz Amara Liam Sofia Mateo Aisha Kenji Chloe Omar Ingrid Rafael Mei
    Dmitri Fatima Lucas Zanele Hannah Arjun Elena Kwame Nora Jonas Leila Diego Freya
    Tariq Camila Henrik Yuki Marcus Ayesha Pablo Greta Samuel Ines Viktor Noor Felix
    Rosa Emeka Clara Hugo Layla Ravi Astrid Tobias Lucia Malik Sienna Bruno Maya Anton
    Zara Oscar Leona Idris Nadia Elliot
    """
)
LAST = _words(
    """
    Morgan Shah Kowalski Okafor Byrne Rossi Alvarez Rahman Tanaka Dubois Haddad Larsen
    Moreau Chen Volkov Benali Schmidt Dlamini Fischer Iyer Petrova Mensah Lindqvist
    Weber Nasser Castillo Eriksen Qureshi Herrera Johansson Sato Whitfield Siddiqui
    Navarro Hoffmann Oyelaran Carvalho Novak Farouk Brennan Delgado Adeyemi Lambert
    Marchetti Osei Kaur Nilsson Brandt Ferreira Abara Pellegrini Gallagher Ivanova
    Harcourt Mwangi Sorensen Valdez Kimura Ashworth Banerjee
    """
)
STREET_WORDS = _words(
    """
    Birch Oak Maple Cedar Willow Aspen Juniper Alder Hawthorn Chestnut Rowan Sycamore
    Laurel Magnolia Poplar Linden Hazel Elder Spruce Larch Sunset Highland Marsh Granite
    Copper Silver Amber Fox Heron Lark Kestrel Badger Otter Wren Falcon Quarry Orchard
    Beacon Anchor Harbour Mill Church Station Kings Queens Victoria Albert Abbey Castle
    Bridge
    """
)
# fmt: off
TOWNS = [("Springfield", "IL"), ("Portland", "OR"), ("Austin", "TX"), ("Madison", "WI"),
         ("Boulder", "CO"), ("Raleigh", "NC"), ("Tucson", "AZ"), ("Albany", "NY")]
UK_TOWNS = ["London", "Leeds", "Bristol", "Manchester", "Cardiff", "Glasgow", "Norwich"]
PRODUCTS = ["Orion X5 Blender", "Nimbus 2000 Headphones", "AeroGlide 3 Kettle",
            "Summit Pro 14 Laptop Sleeve", "Polaris 7 Smart Lamp", "Vega Duo Coffee Grinder",
            "Atlas 40L Backpack", "Juno Mini Speaker", "Helix 2 Running Shoes",
            "Titan Cast Iron Skillet", "Lumen 300 Desk Lamp", "Cobalt Series 9 Shaver",
            "Aurora Silk Pillowcase", "Everest Down Jacket", "Zephyr Air Purifier 2",
            "Nova Trail Watch", "Comet Kids Scooter", "Pioneer 12 Drill Set",
            "Harbor Linen Duvet Cover", "Solstice Yoga Mat"]
CARRIERS = ["FedEx", "UPS", "DHL Express", "Royal Mail", "USPS", "Evri", "DPD", "FedEx Ground"]
BRANDS = ["Visa", "Mastercard", "Discover", "PayPal", "Apple Pay", "Amex", "Klarna"]
PLANS = ["Premium Plus", "Family Plan", "Basic Monthly", "Pro Annual", "Student Saver"]
AGENTS = ["billing_agent", "returns_agent", "support_agent", "shipping_agent"]
TOOLS = ["lookup_order", "issue_refund", "lookup_customer", "update_address", "escalate"]
# fmt: on

#: (country, national formats) for phones; each format's digits are filled in
#: and the number kept only if libphonenumber calls it valid, as a real one is.
PHONES = {
    "US": ["({a}) {b}-{c}", "{a}-{b}-{c}", "{a}.{b}.{c}", "+1 {a} {b} {c}", "+1-{a}-{b}-{c}",
           "+1 ({a}) {b}-{c}"],
    "GB": ["07{m} {n}", "+44 7{m} {n}", "+44 20 {p} {q}", "020 {p} {q}"],
    "FR": ["+33 {f1} {f2} {f3} {f4} {f5}", "0{f1} {f2} {f3} {f4} {f5}",
           "+33 (0){f1} {f2} {f3} {f4} {f5}", "0{f1}.{f2}.{f3}.{f4}.{f5}"],
    "DE": ["+49 30 {d8}", "030 {d8}", "+49 151 {d8}"],
    "IN": ["+91 9{i4} {i5}", "+91-9{i4}-{i5}"],
    "AU": ["+61 2 {au4} {au4b}", "(02) {au4} {au4b}", "+61 4{au2} {au3} {au3b}"],
    "ES": ["+34 6{e2} {e3} {e3b}"],
    "IE": ["+353 87 {ie3} {ie4}", "087 {ie3} {ie4}"],
}  # fmt: skip

IBAN_LAYOUT = {  # country: BBAN as (kind, length) runs; A = letters, N = digits, C = either
    "GB": [("A", 4), ("N", 14)],
    "DE": [("N", 18)],
    "FR": [("N", 10), ("C", 11), ("N", 2)],
    "ES": [("N", 20)],
    "NL": [("A", 4), ("N", 10)],
    "IT": [("A", 1), ("N", 10), ("C", 12)],
    "IE": [("A", 4), ("N", 14)],
}
CARD_PREFIXES = {  # brand: (prefixes, length, grouping)
    "visa": (["4"], 16, (4, 4, 4, 4)),
    "mastercard": (["51", "52", "53", "54", "55"], 16, (4, 4, 4, 4)),
    "mastercard2": (["2221", "2300", "2500", "2720", "2654"], 16, (4, 4, 4, 4)),
    "amex": (["34", "37"], 15, (4, 6, 5)),
    "discover": (["6011", "644", "65"], 16, (4, 4, 4, 4)),
    "jcb": (["3528", "3545", "3589"], 16, (4, 4, 4, 4)),
    "diners": (["300", "305", "36", "38"], 14, (4, 6, 4)),
    "unionpay": (["62"], 16, (4, 4, 4, 4)),
}


@dataclass
class Labelled:
    """A text being built, with the span and type of every labelled piece."""

    parts: list[str] = field(default_factory=list)
    labels: list[tuple[int, int, str]] = field(default_factory=list)

    def add(self, text: str, label: str | None = None) -> Labelled:
        start = sum(len(p) for p in self.parts)
        self.parts.append(text)
        if label:
            self.labels.append((start, start + len(text), label))
        return self

    @property
    def text(self) -> str:
        return "".join(self.parts)


class Corpus:
    """The rows of the export and the labels of every text, by text."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self.labels: dict[str, list[tuple[int, int, str]]] = {}

    def text(self, built: Labelled) -> str:
        text = built.text
        known = self.labels.setdefault(text, [])
        for label in built.labels:
            if label not in known:
                known.append(label)
        return text

    def value(self, value: str, label: str) -> str:
        """A whole JSON leaf that is one labelled value."""
        return self.text(Labelled().add(value, label))


class Generator:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    # -- values ------------------------------------------------------------

    def digits(self, n: int, first_nonzero: bool = False) -> str:
        out = "".join(self.r.choice("0123456789") for _ in range(n))
        if first_nonzero and out[0] == "0":
            out = str(self.r.randint(1, 9)) + out[1:]
        return out

    def phone(self) -> str:
        import phonenumbers

        country = self.r.choice(list(PHONES))
        while True:
            fmt = self.r.choice(PHONES[country])
            fill = {
                "a": str(self.r.randint(201, 989)),
                "b": str(self.r.randint(200, 999)),
                "c": self.digits(4),
                "m": self.digits(3),
                "n": self.digits(6),
                "p": "7" + self.digits(3),
                "q": self.digits(4),
                **{f"f{i}": self.digits(2) for i in range(2, 6)},
                "f1": str(self.r.randint(1, 7)),
                "d8": self.digits(8, True),
                "i4": self.digits(4),
                "i5": self.digits(5),
                "au4": "9" + self.digits(3),
                "au4b": self.digits(4),
                "au2": self.digits(2),
                "au3": self.digits(3),
                "au3b": self.digits(3),
                "e2": self.digits(2),
                "e3": self.digits(3),
                "e3b": self.digits(3),
                "ie3": self.digits(3, True),
                "ie4": self.digits(4),
            }
            number = fmt.format(**fill)
            try:
                parsed = phonenumbers.parse(number, country)
            except phonenumbers.NumberParseException:
                continue
            if phonenumbers.is_valid_number(parsed):
                return number

    def card(self) -> str:
        brand = self.r.choice(list(CARD_PREFIXES))
        prefixes, length, groups = CARD_PREFIXES[brand]
        while True:
            body = self.r.choice(prefixes)
            body += self.digits(length - len(body) - 1)
            for check in "0123456789":
                if luhn_ok(body + check):
                    number = body + check
                    break
            sep = self.r.choice([" ", "-", ""])
            out, i = [], 0
            for g in groups:
                out.append(number[i : i + g])
                i += g
            return sep.join(out)

    def iban(self) -> str:
        country = self.r.choice(list(IBAN_LAYOUT))
        bban = ""
        for kind, n in IBAN_LAYOUT[country]:
            pool = {
                "A": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                "N": "0123456789",
                "C": "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
            }[kind]
            bban += "".join(self.r.choice(pool) for _ in range(n))
        rearranged = bban + country + "00"
        check = 98 - int("".join(str(int(c, 36)) for c in rearranged)) % 97
        compact = f"{country}{check:02d}{bban}"
        if self.r.random() < 0.5:
            return " ".join(compact[i : i + 4] for i in range(0, len(compact), 4))
        return compact

    def ssn(self) -> tuple[str, bool]:
        """(ssn, dashed)."""
        area = self.r.choice([n for n in range(1, 900) if n != 666])
        group, serial = self.r.randint(1, 99), self.r.randint(1, 9999)
        dashed = self.r.random() < 0.5
        sep = "-" if dashed else ""
        return f"{area:03d}{sep}{group:02d}{sep}{serial:04d}", dashed

    def ipv4(self) -> str:
        return ".".join(str(self.r.randint(1, 254)) for _ in range(4))

    def ipv6(self) -> str:
        groups = [f"{self.r.randint(0, 0xFFFF):x}" for _ in range(8)]
        if self.r.random() < 0.5:
            return ":".join(groups)
        return ":".join(groups[:3]) + "::" + ":".join(groups[6:])

    def postcode(self) -> str:
        letters = "ABCDEFGHJKLMNOPRSTUWYZ"
        area = self.r.choice(letters) + (self.r.choice(letters) if self.r.random() < 0.6 else "")
        district = str(self.r.randint(1, 29))
        inward = f"{self.r.randint(0, 9)}{self.r.choice(letters)}{self.r.choice(letters)}"
        return f"{area}{district} {inward}"

    def street(self) -> str:
        words = " ".join(self.r.sample(STREET_WORDS, self.r.choice([1, 1, 2])))
        suffix = self.r.choice(STREET_SUFFIXES)
        kind = self.r.random()
        if kind < 0.15:
            prefix = self.r.choice(["Flat", "Studio", "Apartment"])
            return f"{prefix} {self.r.randint(1, 40)} {words} {suffix}"
        number = str(self.r.randint(1, 9999)).zfill(self.r.choice([1, 1, 1, 4]))
        base = f"{number} {words} {suffix}"
        if kind < 0.35:
            unit = self.r.choice(["Suite", "Apt", "Unit", "Apartment", "Ste"])
            base += f"{self.r.choice([' ', ', '])}{unit} {self.r.randint(1, 999)}"
        if kind > 0.8:
            town, state = self.r.choice(TOWNS)
            base += f", {town}, {state} {self.digits(5, True)}"
        elif kind > 0.7:
            base += f", {self.r.choice(UK_TOWNS)} {self.postcode()}"
        return base

    def person(self) -> tuple[str, str]:
        return self.r.choice(FIRST), self.r.choice(LAST)

    def email(self, first: str, last: str) -> str:
        domain = self.r.choice(
            ["gmail.com", "outlook.com", "yahoo.co.uk", "proton.me", "icloud.com", "web.de"]
        )
        local = self.r.choice(
            [f"{first}.{last}", f"{first[0]}{last}{self.r.randint(1, 99)}", f"{first}+orders"]
        )
        out = f"{local}@{domain}"
        return out.upper() if self.r.random() < 0.1 else out.lower()

    def negative(self) -> str:
        kind = self.r.randrange(9)
        if kind == 0:
            return self.r.choice(PRODUCTS)
        if kind == 1:
            return self.r.choice(CARRIERS)
        if kind == 2:
            return self.r.choice(BRANDS)
        if kind == 3:  # tracking numbers of several carriers
            return self.r.choice(
                [
                    f"1Z{self.digits(3)}AA{self.digits(10)}",
                    f"94001{self.digits(17)}",
                    f"{self.digits(12, True)}",
                    f"JD0146{self.digits(14)}",
                ]
            )
        if kind == 4:
            return f"SKU-{self.digits(4)}-{self.r.choice('ABCXYZ')}"
        if kind == 5:
            return self.r.choice(["$", "£", "€"]) + f"{self.r.randint(5, 1500)}.{self.digits(2)}"
        if kind == 6:
            day = datetime(2026, 1, 1) + timedelta(days=self.r.randint(0, 360))
            return self.r.choice(
                [day.strftime("%Y-%m-%d"), day.strftime("%b %d"), day.strftime("%d/%m/%Y")]
            )
        if kind == 7:
            return self.r.choice(PLANS)
        return self.r.choice(AGENTS + TOOLS)


def plugin_row(
    session_id: str,
    number: int,
    timestamp: datetime,
    event: str,
    invocation: str,
    content: Any,
    state: dict[str, Any],
    user_id: str = "u-1",
    **extra: Any,
) -> dict[str, Any]:
    """One row as the Python plugin writes it (content and attributes as JSON)."""
    return {
        "timestamp": timestamp,
        "event_id": f"{session_id}-{number}",
        "event_type": event,
        "agent": extra.pop("agent", "support_agent"),
        "session_id": session_id,
        "invocation_id": invocation,
        "span_id": extra.pop("span_id", None),
        "content": json.dumps(content) if content is not None else None,
        "attributes": json.dumps(
            {
                "session_metadata": {
                    "session_id": session_id,
                    "app_name": "support_agent",
                    "user_id": user_id,
                    "state": state,
                }
            }
        ),
        "status": extra.pop("status", "OK"),
        "error_message": extra.pop("error_message", None),
        "is_truncated": False,
    }


def _session(g: Generator, corpus: Corpus, index: int, start: datetime) -> None:
    r = g.r
    first, last = g.person()
    full = f"{first} {last}"
    email = g.email(first, last)
    phone = g.phone()
    customer = f"CUST-{g.digits(5)}"
    order = f"ORD-{g.digits(5)}"
    product = r.choice(PRODUCTS)
    session_id = f"pii-{index:04d}"
    state: dict[str, Any] = {
        "customer_id": corpus.value(customer, "CUSTOMER_ID"),
        "customer_name": corpus.value(full, "PERSON"),
        "contact_email": corpus.value(email, "EMAIL_ADDRESS"),
        "plan": corpus.value(r.choice(PLANS), NEG),
        "channel": "web",
    }
    if r.random() < 0.5:
        state["contact"] = {
            "first_name": corpus.value(first, "PERSON"),
            "last_name": corpus.value(last, "PERSON"),
            "phone": corpus.value(phone, "PHONE_NUMBER"),
        }
    clock = [start]

    def row(event: str, invocation: str, content: Any, **extra: Any) -> None:
        clock[0] += timedelta(seconds=r.randint(1, 20))
        corpus.rows.append(
            plugin_row(
                session_id,
                len(corpus.rows),
                clock[0],
                event,
                invocation,
                content,
                state,
                user_id=f"u-{index}",
                **extra,
            )  # fmt: skip
        )

    def user_turn(n: int) -> Labelled:
        t = Labelled()
        kind = r.randrange(12)
        if kind == 0:
            t.add("Hi, this is ").add(full, "PERSON").add(", my order ").add(order, "ORDER_ID")
            t.add(" with the ").add(product, NEG).add(" never arrived.")
        elif kind == 1:
            t.add("You can reach me at ").add(g.phone(), "PHONE_NUMBER")
            t.add(" after ").add(g.negative(), NEG).add(".")
        elif kind == 2:
            t.add(g.phone(), "PHONE_NUMBER").add(" is best, or ").add(g.phone(), "PHONE_NUMBER")
        elif kind == 3:
            t.add("Please charge card ").add(g.card(), "CREDIT_CARD").add(" instead of ")
            t.add(r.choice(BRANDS), NEG).add(".")
        elif kind == 4:
            t.add("Ship it to ").add(g.street(), "STREET_ADDRESS").add(" via ")
            t.add(r.choice(CARRIERS), NEG).add(" please")
        elif kind == 5:
            ssn, dashed = g.ssn()
            cue = r.choice(["my ssn is ", "SSN: ", "social security number ", "ssn "])
            t.add(cue if not dashed or r.random() < 0.5 else "it's ").add(ssn, "US_SSN")
        elif kind == 6:
            t.add("Refund to my IBAN ").add(g.iban(), "IBAN_CODE").add(", amount ")
            t.add(g.negative(), NEG)
        elif kind == 7:
            possessive = r.choice(["my husband", "my wife", "my colleague", "my son"])
            other = " ".join(g.person())
            t.add(f"It is {possessive} ").add(other, "PERSON").add("'s order, tracking ")
            t.add(g.negative(), NEG)
        elif kind == 8:
            t.add("I ALREADY GAVE YOU MY NAME: ").add(full.upper(), "PERSON")
        elif kind == 9:
            people = [" ".join(g.person()) for _ in range(3)]
            t.add("Authorised users: ").add(people[0], "PERSON").add(", ")
            t.add(people[1], "PERSON").add(" and ").add(people[2], "PERSON")
        elif kind == 10:
            t.add("my postcode is ").add(g.postcode(), "UK_POSTCODE").add(" and email ")
            t.add(g.email(*g.person()), "EMAIL_ADDRESS")
        else:
            if r.random() < 0.5:
                t.add("login from ").add(g.ipv4(), "IPV4")
            else:
                t.add("login from ").add(g.ipv6(), "IPV6")
            t.add(" failed, said ").add(r.choice(AGENTS), NEG)
        if r.random() < 0.3:
            t.add(r.choice(["\nThanks, ", "\nRegards, ", " - "])).add(first, "PERSON")
        if r.random() < 0.15:
            t.add(" (").add(full.lower(), "PERSON").add(")")
        return t

    for n in range(r.randint(3, 5)):
        invocation = f"{session_id}-t{n}"
        row("USER_MESSAGE_RECEIVED", invocation, {"text_summary": corpus.text(user_turn(n))})
        span = f"{invocation}-s"
        tool = r.choice(["lookup_customer", "lookup_order", "escalate", "update_address"])
        if tool == "lookup_customer":
            args = {"customer_id": corpus.value(customer, "CUSTOMER_ID")}
            other_first, other_last = g.person()
            result: Any = {
                "customer": {
                    "name": corpus.value(f"{other_first} {other_last}", "PERSON"),
                    "email": corpus.value(g.email(other_first, other_last), "EMAIL_ADDRESS"),
                    "phone": corpus.value(g.phone(), "PHONE_NUMBER"),
                    "address": {
                        "line1": corpus.value(g.street(), "STREET_ADDRESS"),
                        "postcode": corpus.value(g.postcode(), "UK_POSTCODE"),
                    },
                },
                "last_login_ip": corpus.value(g.ipv4(), "IPV4"),
                "last_login_ipv6": corpus.value(g.ipv6(), "IPV6"),
                "plan": corpus.value(r.choice(PLANS), NEG),
            }
        elif tool == "lookup_order":
            args = {"order_id": corpus.value(order, "ORDER_ID")}
            result = {
                "order_id": corpus.value(order, "ORDER_ID"),
                "items": [
                    {
                        "name": corpus.value(item, NEG),
                        "sku": corpus.value(f"SKU-{g.digits(4)}-B", NEG),
                        "price": 49.5,
                    }
                    for item in (product, r.choice(PRODUCTS))[: r.randint(1, 2)]
                ],
                "carrier": corpus.value(r.choice(CARRIERS), NEG),
                "tracking": corpus.value(f"1Z{g.digits(3)}AA{g.digits(10)}", NEG),
                "paid_with": corpus.text(
                    Labelled().add(r.choice(BRANDS), NEG).add(" ending ").add(g.digits(4))
                ),
            }
        elif tool == "escalate":
            summary = Labelled().add("Customer ").add(full, "PERSON").add(", ")
            summary.add(g.phone(), "PHONE_NUMBER").add(", wants a refund for ")
            summary.add(product, NEG).add(" on order ").add(order, "ORDER_ID")
            args = {"summary": corpus.text(summary), "priority": "high"}
            result = {"ticket": f"T-{g.digits(6)}", "queue": corpus.value("billing_agent", NEG)}
        else:
            args = {
                "customer_id": corpus.value(customer, "CUSTOMER_ID"),
                "new_address": corpus.value(g.street(), "STREET_ADDRESS"),
            }
            result = {"status": "ok"}
        row("TOOL_STARTING", invocation, {"tool": tool, "args": args}, span_id=span)
        if r.random() < 0.15:
            message = Labelled().add("PaymentDeclined: card ").add(g.card(), "CREDIT_CARD")
            message.add(" refused for ").add(email, "EMAIL_ADDRESS")
            row(
                "TOOL_ERROR",
                invocation,
                {"tool": tool, "args": args},
                span_id=span,
                status="ERROR",
                error_message=corpus.text(message),
            )
        else:
            row("TOOL_COMPLETED", invocation, {"tool": tool, "result": result}, span_id=span)
        reply = Labelled()
        kind = r.randrange(5)
        if kind == 0:
            reply.add("Thanks ").add(first, "PERSON").add(", your ").add(product, NEG)
            reply.add(" ships with ").add(r.choice(CARRIERS), NEG).add(".")
        elif kind == 1:
            reply.add("I have sent the label to ").add(email, "EMAIL_ADDRESS").add(".")
        elif kind == 2:
            reply.add("Order ").add(order, "ORDER_ID").add(" was paid with ")
            reply.add(r.choice(BRANDS), NEG).add(" on ").add(g.negative(), NEG).add(".")
        elif kind == 3:
            reply.add("Sorry, ").add(full, "PERSON").add(", I will call ").add(
                phone, "PHONE_NUMBER"
            )
        else:
            reply.add("The ").add(r.choice(PRODUCTS), NEG).add(" costs ").add(g.negative(), NEG)
        row("AGENT_RESPONSE", invocation, {"response": f"text: '{corpus.text(reply)}'"})


def build_corpus(seed: int = 7, sessions: int = 160) -> Corpus:
    g = Generator(seed)
    corpus = Corpus()
    start = datetime(2026, 11, 2, tzinfo=UTC)
    for i in range(sessions):
        _session(g, corpus, i, start + timedelta(minutes=37 * i))
    return corpus


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "pii_corpus")
    corpus = build_corpus()
    out.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(corpus.rows).to_parquet(out / "export.parquet", index=False)
    (out / "labels.json").write_text(json.dumps(corpus.labels, indent=1))
    print(f"{len(corpus.rows)} rows, {len(corpus.labels)} labelled texts -> {out}")


if __name__ == "__main__":
    main()
