"""The key rules: which JSON keys make their values personal, and as what
entity; which name a thing (a product, a carrier) rather than a person.
"""

from __future__ import annotations

import re

from miner.config import STREET_LINE_KEYS, PipelineConfig


def _key_words(key: str) -> set[str]:
    """``billingEmail`` / ``billing_email`` -> {"billing", "email", "billing_email"};
    two words together too, a key's word of two ("customer_national_id" ->
    "national_id")."""
    snake = _snake(key)
    parts = snake.split("_")
    return {snake, *parts, *(f"{a}_{b}" for a, b in zip(parts, parts[1:], strict=False))}


#: A key's last word that makes it a setting's, not a value's:
#: "passport_required", "telephone_support_hours", "phone_verified".
_SETTING_WORDS = frozenset(
    ("required", "enabled", "allowed", "verified", "hours", "count", "policy")
)


#: Words that, beside "name" in a key, say the name is not a person's.
# fmt: off
_NOT_A_PERSON = frozenset((
    "agent", "tool", "app", "file", "product", "item", "company", "event", "function",
    "model", "plan", "service", "field", "table", "column", "host", "domain", "store",
    "brand", "category", "bucket", "project", "dataset", "branch", "node", "session",
    "sku", "article", "variant", "device", "course", "hotel", "venue", "airport", "airline",
    "carrier", "courier", "shop", "merchant", "vendor", "supplier", "retailer", "employer",
    "firm", "business", "organisation", "organization", "org", "bank", "team", "queue",
    "channel", "department", "city", "town", "country", "region",
))
# fmt: on


#: Sibling keys that make a bare ``name`` a person's: an object with an e-mail
#: or a phone is a contact, not a product.
_CONTACT_WORDS = frozenset(
    ("email", "phone", "mobile", "first_name", "last_name", "dob", "birthday", "ssn", "address")
)


#: Why a value of a firm's key that reads as a person's name is surfaced:
#: the second model, which reads the value without its key, does not decide it.
A_NAME_IN_A_FIRMS_KEY = "a person's name under a firm's or a thing's key"


#: A person's role a key may name beside a thing's word, besides the
#: person objects (``customer``, ``guest``, ``holder``...): "queue_assignee_name".
#: Not "lead", "manager" nor "driver": "lead_source_name", "package_manager_name".
_PERSON_ROLES = frozenset(("assignee",))


class KeyRules:
    """Which JSON keys make their values personal, and as what entity."""

    def __init__(self, config: PipelineConfig) -> None:
        self._identifier = {k.lower(): i.entity for i in config.identifiers for k in i.keys}
        self._personal = {k.lower() for k in config.redaction.personal_keys}
        self._person_objects = {k.lower() for k in config.redaction.person_objects}

    def _a_person_s_role_last(self, key: str) -> bool:
        """Whether the key's last word that names a role or a thing (but
        "name") names a person's: the key is that person's, whatever thing
        it names before ("hotel_guest_name", "bank_account_holder_name",
        "shop_owner_name"), not when a thing's word comes last
        ("customer_company_name")."""
        person = self._person_objects | _PERSON_ROLES
        for word in reversed(_snake(key).split("_")):
            if word in person:
                return True
            if word in _NOT_A_PERSON or word in _NAMED_THING_KEYS or word in _THING_KEYS:
                return False
        return False

    def _names_a_person(self, key: str, words: set[str]) -> bool:
        """Whether a key with "name" in it holds a person's name."""
        if self._a_person_s_role_last(key):
            return True  # hotel_guest_name, team_member_name
        if words & _NOT_A_PERSON:
            return False  # agent_name, product_name
        snake = _snake(key)
        if snake != "name" and (snake in self._personal or words & self._person_objects):
            return True  # full_name, customer_name, recipientName
        # A bare (or display_) name: a person's only in a person-shaped object.
        parent = getattr(key, "parent", None)
        if parent and (_key_words(parent) & self._person_objects):
            return True
        siblings: frozenset[str] = getattr(key, "siblings", frozenset())
        return any(_key_words(k) & _CONTACT_WORDS for k in siblings)

    def entity(self, key: str) -> str | None:
        if key.lower() in self._identifier:
            return self._identifier[key.lower()]
        words = _key_words(key)
        if _snake(key).rsplit("_", 1)[-1] in _SETTING_WORDS:
            return None
        if "name" in words and not self._names_a_person(key, words):
            words = {w for w in words if w != "name" and not w.endswith("_name")}
        if words & _LINE_KEYS and not _a_street_line(key):
            words -= _LINE_KEYS
        if words & self._personal:
            for word, entity in (
                ("email", "EMAIL_ADDRESS"),
                ("phone", "PHONE_NUMBER"),
                ("mobile", "PHONE_NUMBER"),
                ("address", "STREET_ADDRESS"),
                ("street", "STREET_ADDRESS"),
                *((line, "STREET_ADDRESS") for line in STREET_LINE_KEYS),
                ("telephone", "PHONE_NUMBER"),
                ("msisdn", "PHONE_NUMBER"),
                ("card", "CREDIT_CARD"),
                ("iban", "IBAN_CODE"),
                ("passport", "PASSPORT"),
                ("national_id", "NATIONAL_ID"),
                ("name", "PERSON"),
                ("surname", "PERSON"),
                ("forename", "PERSON"),
                ("firstname", "PERSON"),
                ("lastname", "PERSON"),
                ("fullname", "PERSON"),
            ):
                if word in words:
                    return entity
            return "PERSONAL"
        return None

    def holds_a_named_thing(self, key: str) -> bool:
        """A key whose value names a firm, a place or a plan (``seller``,
        ``company``, ``store``): its value is a thing's name when it reads as
        one (``names_a_thing``), and unsure, not a person's for sure, when it
        reads as a person's name; so does a name key with a thing's word
        (``bank_name``, ``product_name``). Not a person's role after it
        (``shop_owner_name``, ``supplier_contact_name``)."""
        words = _key_words(key)
        named = words & _NAMED_THING_KEYS or ("name" in words and words & _NOT_A_PERSON)
        return bool(named) and not self._a_person_s_role_last(key)

    def names_a_thing(self, key: str, value: str = "") -> bool:
        """A key whose value is a product, a plan, an agent, a carrier...: NER
        hits on that value in free text are not people. Needs evidence: the key
        holds things (``carrier``, ``sku``, ``status``: ``_THING_KEYS``) and
        ``value`` is written as one (``_A_THING_VALUE``), a name key says so
        (``product_name``), or the object looks like an item (a sku, a price,
        under ``items``); a bare ``name`` with no evidence either way is
        neither."""
        words = _key_words(key)
        if self._a_person_s_role_last(key):
            return False  # hotel_guest_name, venue_contact_name
        if words & _THING_KEYS:
            return bool(_A_THING_VALUE.fullmatch(value.strip()))
        if words & _NAMED_THING_KEYS:
            return _a_named_thing(value.strip())
        if "name" not in words or self._names_a_person(key, words):
            return False
        if words & _NOT_A_PERSON:
            # "product_name": "Elsa dining chair" is a thing; "bank_name":
            # "Jan Kowalski" reads as a person's, and is the reviewer's.
            return _a_named_thing(value.strip())
        parent = getattr(key, "parent", None)
        siblings: frozenset[str] = getattr(key, "siblings", frozenset())
        return bool(
            (parent and _key_words(parent) & _THING_WORDS)
            or any(_key_words(k) & _THING_WORDS for k in siblings)
        )


#: Keys whose value is a thing whatever it reads like: a carrier ("Poste
#: Italiane", "Yamato Transport"), a status ("Shipped"), a SKU ("JEN-5506-DM"),
#: a brand or model. Keys that hold a person's name or contact are personal
#: keys and are decided before this.
_THING_KEYS = frozenset(
    ["carrier", "courier", "shipper", "sku", "status", "tracking", "brand", "model", "category"]
)
#: How such a key's value is written when it is a thing: one token ("Shipped",
#: "JEN-5506-DM", "DHL"), or up to three capitalised words ("Poste Italiane").
#: A sentence ("left with John at the door") is not: a name in it is a person's.
_A_THING_VALUE = re.compile(r"[^\s]{1,40}|(?:[A-Z][\w&'.-]*)(?: [A-Z][\w&'.-]*){1,2}")

#: Keys whose value is the name of a firm, a place or a plan: a seller
#: ("Drake-Martin", "Bonneau SA"), a branch or town ("Kortenhoef"), an
#: airport's code ("MAN"), a plan ("Guest plan"). Such a name is often a
#: surname or a first name; the key says it is not a person's, unless the
#: value reads as one (``_a_named_thing``). Not "from"/"to" (a message's
#: sender) nor "name" (decided by its object, above).
_NAMED_THING_KEYS = frozenset(
    [
        "seller", "merchant", "vendor", "supplier", "retailer", "store", "shop", "company",
        "employer", "firm", "branch", "city", "town", "airport", "origin", "destination",
        "plan", "tier", "tariff", "product", "airline",
    ]
)  # fmt: skip
#: A name, not a sentence: up to six words, no sentence's end or clause
#: inside ("Soluciones Nicolás y asociados S.A.", "Santa Lucia Uzzanese").
_A_NAME = re.compile(r"[^\s.!?;:,][^\s]*(?:,?[ ][^\s]+){0,5}")
_CAPITALISED_WORDS = re.compile(r"[A-ZÀ-Þ][\w'’.-]*(?:[ ][A-ZÀ-Þ][\w'’.-]*){1,2}")


def _a_named_thing(value: str) -> bool:
    """Whether a value under a key of ``_NAMED_THING_KEYS`` names the thing:
    a short name, and not two or three capitalised words that start with a
    first name ("Douglas Bisbee", "Maria Lopez": a marketplace's seller may
    be a person; left to the detector and ``unsure``)."""
    if len(value) > 60 or not _A_NAME.fullmatch(value) or _SENTENCE_END.search(value):
        return False
    if _CAPITALISED_WORDS.fullmatch(value):
        from miner.redaction.lexicon.names import a_first_name
        from miner.redaction.verdict import company_form_after

        return not a_first_name(value.split()[0]) or bool(company_form_after(value, 0))
    return True


_SENTENCE_END = re.compile(r"[.!?][ ]")


#: Keys that make an object an item: its ``name`` is a product's.
_THING_WORDS = frozenset(
    [
        "item",
        "items",
        "product",
        "products",
        "line",
        "lines",
        "sku",
        "price",
        "quantity",
        "qty",
        "unit_price",
        "category",
        "brand",
        "model",
        "size",
        "colour",
        "color",
        "variant",
        "plan",
        "catalog",
        "catalogue",
        "stock",
    ]
)


#: The street line's keys (``STREET_LINE_KEYS``, personal keys by default)
#: with no address's word of their own: a line of a label, an engraving or
#: an order as often ("engraving_line1", "order_line_1_sku"), a street's
#: only where ``_a_street_line`` says so.
_LINE_KEYS = frozenset(k for k in STREET_LINE_KEYS if k.startswith("line"))
#: Words of a key, or of its object's key, that make its line a street's
#: ("shipping_line_1", "billing_address": {"line1": ...}).
_ADDRESS_WORDS = frozenset(
    ("address", "addr", "street", "billing", "shipping", "delivery", "mailing", "postal", "home")
)
#: Keys beside a line that make their object an address.
_ADDRESS_PARTS = frozenset(
    (
        "city", "town", "postcode", "post_code", "postal_code", "zip", "zipcode", "zip_code",
        "state", "county", "province", "region", "country", "suburb", "locality",
    )
)  # fmt: skip


def _a_street_line(key: str) -> bool:
    """Whether a key with a line's word (``_LINE_KEYS``) holds a street's
    line: the line's word ends the key, and the words before it name an
    address ("shipping_line_1"), or, with none before it ("line1"), its
    object is an address (under an address's key, beside a city or a
    postcode) or the tool's own parameters (no object to say otherwise)."""
    snake = _snake(key)
    line = next((w for w in _LINE_KEYS if snake == w or snake.endswith(f"_{w}")), None)
    if line is None:
        return False  # "order_line_1_sku"
    before = snake[: -len(line)].rstrip("_")
    if before:
        return bool(set(before.split("_")) & _ADDRESS_WORDS)
    parent = getattr(key, "parent", None)
    siblings: frozenset[str] = getattr(key, "siblings", frozenset())
    return (
        parent is None
        or bool(_key_words(parent) & _ADDRESS_WORDS)
        or any(_key_words(k) & _ADDRESS_PARTS for k in siblings)
    )


def _snake(key: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", key).lower()
