"""A labelled corpus of an online shop's words that are not personal.

Issue 20 counts products, carriers and tracking numbers among the words
redaction must leave alone, and the presidio-evaluator templates of
``tools/third_party_corpus.py`` hold none of them. The values here come from
``faker-ecommerce-provider`` (a published Faker provider, MIT): its product
names (adjective, type, and sometimes a brand: "Sony Wireless Headphones"),
its SKUs, its 28 carriers ("Royal Mail", "Yamato Transport", "Evri") and
each carrier's tracking-number format. The customer beside them (name,
e-mail, street address) is Faker's, in one of the third-party corpus's
locales, and must still go.

What this module adds is only the placement, the way an order-support agent
logs it: a user asking after a parcel, an order lookup whose result holds
``items[].name``, ``sku``, ``carrier`` and ``tracking_number``, and a reply
that names them.

**Split.** By the provider's own lists: carriers, product types and brands
at even positions are the development part, at odd positions the test part,
so no value of the test part is seen while tuning.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from tools.pii_corpus import NEG, Corpus, Labelled, plugin_row
from tools.third_party_corpus import LOCALES, SPLITS


def _provider(split: str) -> Any:
    from faker_ecommerce import EcommerceProvider

    parity = SPLITS.index(split)

    def half(values: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(v for i, v in enumerate(values) if i % 2 == parity)

    class SplitProvider(EcommerceProvider):  # type: ignore[misc]
        shipping_carriers = half(EcommerceProvider.shipping_carriers)
        product_types = half(EcommerceProvider.product_types)
        brand_names = half(EcommerceProvider.brand_names)

    return SplitProvider


def build_commerce_corpus(split: str = "test", seed: int = 20, sessions: int = 140) -> Corpus:
    """Plugin rows and labels for one split: ``sessions`` order-support
    sessions of one or two turns, customers from each locale in turn."""
    from faker import Faker

    corpus = Corpus()
    r = random.Random(f"commerce-{seed}-{split}")
    provider = _provider(split)
    people = {}
    for locale in LOCALES:
        people[locale] = Faker(locale)
        people[locale].seed_instance(seed)
    shop = Faker("en_US")
    shop.add_provider(provider)
    shop.seed_instance(seed)
    start = datetime(2026, 11, 3, tzinfo=UTC)
    for index in range(sessions):
        person = people[LOCALES[index % len(LOCALES)]]
        _session(corpus, r, shop, person, f"cm-{split}-{index:04d}", start)
        start += timedelta(minutes=17)
    return corpus


def _order(shop: Any, r: random.Random) -> dict[str, str]:
    carrier = shop.shipping_carrier()
    return {
        "product": shop.product_name(include_brand=r.random() < 0.5),
        "sku": shop.sku(),
        "carrier": carrier,
        "tracking": shop.tracking_number(carrier=carrier),
        "status": shop.order_status(),
    }


def _session(
    corpus: Corpus, r: random.Random, shop: Any, person: Any, sid: str, start: datetime
) -> None:
    state: dict[str, Any] = {"channel": "chat"}
    rows: list[dict[str, Any]] = []
    clock = [start]

    def row(event: str, invocation: str, content: Any, **extra: Any) -> None:
        clock[0] += timedelta(seconds=r.randint(1, 30))
        rows.append(
            plugin_row(sid, len(rows), clock[0], event, invocation, content, state, **extra)
        )

    first, last = person.first_name(), person.last_name()
    for n in range(r.randint(1, 2)):
        order = _order(shop, r)
        invocation = f"{sid}-t{n}"
        user = Labelled()
        lower = r.random() < 0.1
        product = order["product"].lower() if lower else order["product"]
        carrier = order["carrier"].lower() if lower else order["carrier"]
        style = r.randrange(4)
        if style == 0:
            user.add("Where is my ").add(product, f"{NEG}:product").add("? ")
            user.add(carrier, f"{NEG}:carrier").add(" says ")
            user.add(order["tracking"], f"{NEG}:tracking number").add(" was delivered.")
        elif style == 1:
            user.add("the ").add(product, f"{NEG}:product").add(" I ordered is broken, ")
            user.add("can I send it back with ").add(carrier, f"{NEG}:carrier").add("?")
        elif style == 2:
            user.add("Tracking ").add(order["tracking"], f"{NEG}:tracking number")
            user.add(" has not moved in a week. It's the ").add(product, f"{NEG}:product")
            user.add(".")
        else:
            user.add("I'd like a refund for the ").add(product, f"{NEG}:product")
            user.add(" (").add(order["sku"], f"{NEG}:sku").add(").")
        if r.random() < 0.5:
            user.add(r.choice(["\n\nThanks,\n", "\nRegards, ", " - "]))
            user.add(f"{first} {last}", "PERSON")
        row("USER_MESSAGE_RECEIVED", invocation, {"text_summary": corpus.text(user)})

        span = f"{invocation}-s"
        args = {"sku": corpus.value(order["sku"], f"{NEG}:sku")}
        row("TOOL_STARTING", invocation, {"tool": "lookup_order", "args": args}, span_id=span)
        result = {
            "status": corpus.value(order["status"], f"{NEG}:status"),
            "items": [
                {
                    "name": corpus.value(order["product"], f"{NEG}:product"),
                    "sku": corpus.value(order["sku"], f"{NEG}:sku"),
                    "price": shop.price(),
                }
            ],
            "carrier": corpus.value(order["carrier"], f"{NEG}:carrier"),
            "tracking_number": corpus.value(order["tracking"], f"{NEG}:tracking number"),
            "customer": {
                "name": corpus.value(f"{first} {last}", "PERSON"),
                "email": corpus.value(person.email(), "EMAIL_ADDRESS"),
            },
        }
        if r.random() < 0.5:
            result["ship_to"] = corpus.value(person.address(), "STREET_ADDRESS")
        content = {"tool": "lookup_order", "result": result}
        row("TOOL_COMPLETED", invocation, content, span_id=span)

        reply = Labelled()
        if r.random() < 0.5:
            reply.add(r.choice(["Sorry ", "Thanks, "])).add(first, "PERSON").add(". ")
        reply.add("Your ").add(order["product"], f"{NEG}:product")
        reply.add(" shipped with ").add(order["carrier"], f"{NEG}:carrier")
        reply.add(", tracking number ").add(order["tracking"], f"{NEG}:tracking number")
        reply.add(r.choice([". It should arrive soon.", "; I have opened a claim."]))
        row("AGENT_RESPONSE", invocation, {"response": f"text: '{corpus.text(reply)}'"})
    corpus.rows.extend(rows)
