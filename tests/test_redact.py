"""Redaction with the real Presidio engines and the pinned spaCy model."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from miner.config import load_config
from miner.fixtures import apply_fixtures
from miner.model import Session, ToolCall, Turn
from miner.redaction.detector import detector_for
from miner.redaction.keys import A_NAME_IN_A_FIRMS_KEY
from miner.redaction.policy import RedactionPolicy
from tests.conftest import PIPELINE

NOW = datetime(2026, 11, 22, tzinfo=UTC)


@pytest.fixture(scope="module")
def config():
    return load_config(PIPELINE)


@pytest.fixture(scope="module")
def detector(config):
    return detector_for(config)


def session(*turns: Turn, state: dict | None = None) -> Session:
    return Session(
        session_id="s",
        app_name="support_agent",
        user_id="u-1",
        start=NOW,
        end=NOW,
        initial_state=state or {},
        turns=turns,
    )


def turn(user: str, reply: str = "ok", *calls: ToolCall) -> Turn:
    return Turn(invocation_id="i", user_text=user, reply_text=reply, tool_calls=calls)


def redact_one(s: Session, detector, config) -> tuple[Session, dict]:
    [result] = RedactionPolicy(config, detector).redact([s])
    return result.session, dict(result.replaced)


def left_unseen(s: Session, detector, config, value: str) -> bool:
    """Whether ``value`` is left in the redacted ``s`` and not surfaced for
    the reviewer (a silent leak): a name the policy is unsure of may be
    surfaced instead of replaced."""
    [result] = RedactionPolicy(config, detector).redact([s])
    texts = [f"{t.user_text}\n{t.reply_text}" for t in result.session.turns]
    surfaced = {item.value for item in result.surfaced}
    return any(value in text for text in texts) and not any(value in v for v in surfaced)


def test_amounts_dates_and_plain_numbers_survive(detector, config):
    text = "Refund 45.99 for order 8812 placed on 2026-11-02, tracking 4505577104."
    out, replaced = redact_one(session(turn(text)), detector, config)
    assert out.turns[0].user_text == text
    assert replaced == {}


def test_people_emails_phones_cards_and_street_addresses_are_replaced(detector, config):
    text = (
        "I'm Jane Doe, email jane.doe@gmail.com, phone +1 415 555 0134, "
        "card 4111 1111 1111 1111, I live at 42 Elm Street."
    )
    out, replaced = redact_one(session(turn(text)), detector, config)
    redacted = out.turns[0].user_text
    for value in ("Jane Doe", "jane.doe@gmail.com", "415 555 0134", "4111", "42 Elm Street"):
        assert value not in redacted
    assert "<EMAIL_ADDRESS_1>" in redacted and "<STREET_ADDRESS_1>" in redacted
    assert {"PERSON", "EMAIL_ADDRESS", "PHONE_NUMBER", "CREDIT_CARD", "STREET_ADDRESS"} <= set(
        replaced
    )


@pytest.mark.parametrize(
    "key, value, entity",
    [
        ("surname", "HUBER", "PERSON"),
        ("lastName", "o'neill", "PERSON"),
        ("birth_date", "12.03.1984", "PERSONAL"),
        ("passportNumber", "X7729104", "PASSPORT"),
        ("national_id", "Y4829173K", "NATIONAL_ID"),
        ("telephone", "5550134", "PHONE_NUMBER"),
        # A street line's keys in payment and shop APIs.
        ("line1", "Gg. Pacuan Kuda No. 7", "STREET_ADDRESS"),
        ("address1", "Splavnica 78", "STREET_ADDRESS"),
    ],
)
def test_a_person_s_record_keys_are_personal(detector, config, key, value, entity):
    call = ToolCall(name="lookup_customer", args={key: value}, result={"status": "ok"})
    out, _ = redact_one(session(turn("hi", "ok", call)), detector, config)
    assert out.turns[0].tool_calls[0].args == {key: f"<{entity}_1>"}


@pytest.mark.parametrize(
    "args, replaced",
    [
        # Under an address, beside its parts, after an address's word, or
        # with nothing around it (a tool's own parameter): a street line.
        (
            {"address": {"line1": "Gg. Pacuan Kuda No. 7", "line2": "Blok C"}},
            {"address": {"line1": "<STREET_ADDRESS_1>", "line2": "<STREET_ADDRESS_2>"}},
        ),
        (
            {"customer": {"line1": "Splavnica 78", "postcode": "10000"}},
            {"customer": {"line1": "<STREET_ADDRESS_1>", "postcode": "<PERSONAL_1>"}},
        ),
        ({"shipping_line_1": "Splavnica 78"}, {"shipping_line_1": "<STREET_ADDRESS_1>"}),
        ({"line2": "Blok C"}, {"line2": "<STREET_ADDRESS_1>"}),
        # A line of something else: a label's, an engraving's, an order's.
        ({"engraving_line1": "Happy 40th Birthday"}, None),
        ({"subject_line_1": "Your order has shipped"}, None),
        ({"order_line_1_sku": "JEN-5506-DM", "order_line_2_qty": "3"}, None),
        ({"label": {"line1": "Blue cotton shirt", "line2": "slim fit, navy"}}, None),
    ],
)
def test_a_line_key_is_a_street_lines_only_where_it_is_an_addresss(
    detector, config, args, replaced
):
    call = ToolCall(name="update_record", args=args, result={"status": "ok"})
    out, _ = redact_one(session(turn("hi", "ok", call)), detector, config)
    assert out.turns[0].tool_calls[0].args == (replaced or args)


@pytest.mark.parametrize(
    "key, entity",
    [
        ("customer_national_id", "NATIONAL_ID"),
        ("nationalIdNumber", "NATIONAL_ID"),
        ("passport_required", None),
        ("telephone_support_hours", None),
        ("phone_verified", None),
    ],
)
def test_a_key_s_word_pairs_name_its_value_and_a_setting_s_word_none(config, key, entity):
    from miner.redaction.keys import KeyRules

    assert KeyRules(config).entity(key) == entity


def test_values_under_personal_keys_go_whatever_their_format(detector, config):
    call = ToolCall(
        name="lookup_customer",
        args={"email": "not-an-address", "note": "call after 5"},
        result={
            "billingEmail": "x",
            "fullName": "Q",
            "total": 12.5,
            "nested": [{"phone": 5550134}],
        },
    )
    out, _ = redact_one(session(turn("hi", "ok", call)), detector, config)
    got = out.turns[0].tool_calls[0]
    assert got.args == {"email": "<EMAIL_ADDRESS_1>", "note": "call after 5"}
    assert got.result["billingEmail"].startswith("<EMAIL_ADDRESS_")
    assert got.result["fullName"] == "<PERSON_1>"
    assert got.result["total"] == 12.5
    assert got.result["nested"][0]["phone"] == "<PHONE_NUMBER_1>"


def test_same_value_same_placeholder_everywhere_different_values_differ(detector, config):
    state = {"customer_id": "CUST-48213", "customer_email": "jane.doe@gmail.com"}
    call = ToolCall(
        name="lookup_order",
        args={"order_id": "ORD-88120"},
        result={"owner": "CUST-77031", "contact": "rahul.mehta@outlook.com"},
    )
    out, _ = redact_one(
        session(
            turn("Order ORD-88120, mail me at jane.doe@gmail.com", "Checking ORD-88120.", call),
            state=state,
        ),
        detector,
        config,
    )
    t = out.turns[0]
    order = t.tool_calls[0].args["order_id"]
    assert order.startswith("<ORDER_ID_") and order in t.user_text and order in t.reply_text
    assert out.initial_state["customer_email"] in t.user_text
    assert t.tool_calls[0].result["contact"] != out.initial_state["customer_email"]
    assert t.tool_calls[0].result["owner"] != out.initial_state["customer_id"]


def test_a_value_found_in_one_text_is_replaced_where_the_detector_misses_it(detector, config):
    # "Garcia" alone in a tool argument has no context for NER; the full name
    # in the user text is found, and its parts are replaced by the same rule.
    call = ToolCall(name="escalate", args={"summary": "Maria Garcia wants a refund"})
    out, _ = redact_one(session(turn("Hi, I am Maria Garcia.", "ok", call)), detector, config)
    assert "Maria Garcia" not in str(out.turns[0].tool_calls[0].args)


def test_fixtures_keep_the_trajectory_coherent(detector, config):
    state = {"customer_id": "CUST-48213"}
    lookup = ToolCall(
        name="lookup_order", args={"order_id": "ORD-88120"}, result={"customer_id": "CUST-77031"}
    )
    redacted, _ = redact_one(
        session(
            turn("Refund ORD-88120 please", "Order ORD-88120 is not yours.", lookup), state=state
        ),
        detector,
        config,
    )
    fixed = apply_fixtures(redacted, config.fixtures)
    t = fixed.turns[0]
    assert fixed.initial_state["customer_id"] == "CUST-00100"
    assert t.tool_calls[0].args["order_id"] == "ORD-10001"
    assert t.user_text == "Refund ORD-10001 please"
    assert t.reply_text == "Order ORD-10001 is not yours."
    assert t.tool_calls[0].result["customer_id"] == "CUST-00200"
    assert fixed.user_id == "eval-user"


def test_email_recognizer_does_not_touch_the_network(detector, monkeypatch):
    import socket

    attempts = []

    def no_network(*args, **kwargs):
        # Recorded, not raised: tldextract would swallow an exception and fall back.
        attempts.append(args)
        raise OSError("no network in tests")

    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    [found] = list(detector.detect(["write to someone.new@example.co.uk today"]))
    assert ("EMAIL_ADDRESS", "someone.new@example.co.uk") in found
    assert attempts == []


def test_a_first_name_alone_goes_with_the_full_name_it_belongs_to(detector, config):
    out, _ = redact_one(
        session(turn("I'm Rahul Mehta, refund please", "Done, Rahul. Refund issued.")),
        detector,
        config,
    )
    t = out.turns[0]
    assert t.user_text == "I'm <PERSON_1>, refund please"
    assert t.reply_text == "Done, <PERSON_1>. Refund issued."


def test_names_of_agents_and_tools_are_not_people(detector, config):
    call = ToolCall(name="transfer_to_agent", args={"agent_name": "billing_agent"})
    data = {"tool_name": "lookup", "customer_name": "Q", "contact": {"name": "Z"}}
    out, _ = redact_one(session(turn("hi", "ok", call), state=data), detector, config)
    assert out.turns[0].tool_calls[0].args == {"agent_name": "billing_agent"}
    assert out.initial_state == {
        "tool_name": "lookup",
        "customer_name": "<PERSON_1>",
        "contact": {"name": "<PERSON_2>"},
    }


def test_a_product_name_is_not_a_person_and_does_not_spread(detector, config):
    # The item's generic `name` key sits beside a sku and a price: a product.
    lookup = ToolCall(
        name="lookup_order",
        args={"order_id": "ORD-88120"},
        result={"items": [{"name": "Orion X5 Blender", "sku": "SKU-1", "price": 89.0}]},
    )
    user = "I returned the Orion X5 Blender from order ORD-88120, sent it with FedEx"
    out, replaced = redact_one(session(turn(user, "ok", lookup)), detector, config)
    t = out.turns[0]
    assert t.tool_calls[0].result["items"][0]["name"] == "Orion X5 Blender"
    assert "the Orion X5 Blender from order <ORDER_ID_1>, sent it with FedEx" in t.user_text
    assert set(replaced) == {"ORDER_ID"}


def test_a_carrier_status_or_sku_a_tool_returns_is_a_thing_everywhere(detector, config):
    lookup = ToolCall(
        name="lookup_order",
        args={"sku": "JEN-5506-DM"},
        result={"status": "Shipped", "carrier": "Poste Italiane", "sku": "JEN-5506-DM"},
    )
    user = "The JEN-5506-DM blender never came, Poste Italiane lost it. Anna Rossi"
    reply = "Sorry. It shipped with Poste Italiane; I have opened a claim."
    out, replaced = redact_one(session(turn(user, reply, lookup)), detector, config)
    t = out.turns[0]
    assert t.tool_calls[0].result == lookup.result
    assert t.reply_text == reply
    assert t.user_text == "The JEN-5506-DM blender never came, Poste Italiane lost it. <PERSON_1>"
    assert replaced == {"PERSON": 1}
    # A status written as a sentence is no thing: the name in it is a person's.
    note = ToolCall(name="track", args={}, result={"status": "left with Anna Rossi at the door"})
    out, replaced = redact_one(session(turn("where is it?", "ok", note)), detector, config)
    assert out.turns[0].tool_calls[0].result == {"status": "left with <PERSON_1> at the door"}


@pytest.mark.parametrize(
    "key", ["company", "employer", "seller", "store_name", "bank_name", "product_name"]
)
def test_a_person_s_name_under_a_firm_s_key_is_surfaced_not_replaced(detector, config, key):
    # A firm named after its founder, or a marketplace's seller who is a
    # person: the key says firm, the words say person; the reviewer decides,
    # and the second model, which reads the value without its key, does not.
    call = ToolCall(name="lookup_order", args={key: "Eddie Bauer"}, result={"status": "ok"})
    [result] = RedactionPolicy(config, detector).redact([session(turn("hi", "ok", call))])
    assert result.session.turns[0].tool_calls[0].args[key] == "Eddie Bauer"
    [surfaced] = result.surfaced
    assert (surfaced.value, surfaced.entity) == ("Eddie Bauer", "PERSON")
    assert surfaced.reason == A_NAME_IN_A_FIRMS_KEY


@pytest.mark.parametrize(
    "key",
    ["hotel_guest_name", "bank_account_holder_name", "team_member_name", "venue_contact_name"],
)
def test_a_person_s_role_after_a_thing_s_word_keeps_the_key_a_person_s(detector, config, key):
    # The thing's word ("hotel", "bank", "team") names whose guest, holder
    # or member: the value is a person's, and so is the name where the
    # user writes it (read as a thing, both were left silent).
    call = ToolCall(name="lookup_booking", args={key: "Jan Kowalski"}, result={"status": "ok"})
    turns = (turn("hi", "ok"), turn("booking for Jan Kowalski confirmed?", "ok", call))
    [result] = RedactionPolicy(config, detector).redact([session(*turns)])
    later = result.session.turns[1]
    assert later.tool_calls[0].args[key] == "<PERSON_1>"
    assert later.user_text == "booking for <PERSON_1> confirmed?"


@pytest.mark.parametrize("key", ["shop_owner_name", "supplier_contact_name"])
def test_a_person_s_role_after_a_firm_s_word_is_no_firm_s_key(detector, config, key):
    call = ToolCall(name="lookup_order", args={key: "Jan Kowalski"}, result={"status": "ok"})
    [result] = RedactionPolicy(config, detector).redact([session(turn("hi", "ok", call))])
    assert result.session.turns[0].tool_calls[0].args[key] == "<PERSON_1>"
    assert not result.surfaced


def test_a_thing_s_name_key_in_a_contact_record_is_no_person_s_name(detector, config):
    # Beside an e-mail a bare ``name`` is a person's; ``employer_name`` and
    # ``city_name`` there still name a firm and a town.
    record = {
        "name": "Priya Raman",
        "email": "p.raman@example.org",
        "employer_name": "Eddie Bauer",
        "city_name": "Jordan",
    }
    call = ToolCall(name="lookup_customer", args={}, result=record)
    [result] = RedactionPolicy(config, detector).redact([session(turn("hi", "ok", call))])
    out = result.session.turns[0].tool_calls[0].result
    assert out["name"] == "<PERSON_1>"
    assert (out["employer_name"], out["city_name"]) == ("Eddie Bauer", "Jordan")
    assert "Eddie Bauer" in {s.value for s in result.surfaced}


def test_a_bare_name_beside_an_email_is_a_person(detector, config):
    result = {"name": "Priya Raman", "email": "p.raman@example.org"}
    call = ToolCall(name="lookup_customer", args={}, result=result)
    out, _ = redact_one(session(turn("hi", "ok", call)), detector, config)
    assert out.turns[0].tool_calls[0].result["name"] == "<PERSON_1>"


@pytest.mark.parametrize(
    "text",
    [
        "You can reach me at (415) 555-0199",
        "Callback summary: customer at +33 1 23 45 67 89 wants a refund",
        "07700 900123",
        "415.555.0199 after six",
        "+1-415-555-0199",
    ],
)
def test_phone_numbers_without_a_context_word_are_found(detector, config, text):
    out, replaced = redact_one(session(turn(text)), detector, config)
    assert replaced == {"PHONE_NUMBER": 1}
    assert not any(ch.isdigit() for ch in out.turns[0].user_text.replace("_1>", ""))


def test_a_bare_digit_run_needs_a_context_word_to_be_a_phone(detector, config):
    out, _ = redact_one(session(turn("tracking 4155550199 is late")), detector, config)
    assert "4155550199" in out.turns[0].user_text
    out, _ = redact_one(session(turn("my mobile is 4155550199")), detector, config)
    assert "4155550199" not in out.turns[0].user_text


def test_mastercard_2_series_and_other_brands_by_iin_and_luhn(detector, config):
    cards = ["2221-0000-0000-0009", "5555 5555 5555 4444", "3714 496353 98431", "6011000990139424"]
    text = "cards: " + "; ".join(cards) + "; not a card: 1234 5678 9012 3456"
    out, replaced = redact_one(session(turn(text)), detector, config)
    assert replaced == {"CREDIT_CARD": 4}
    assert "1234 5678 9012 3456" in out.turns[0].user_text


def test_an_unformatted_ssn_after_its_name_is_found(detector, config):
    out, replaced = redact_one(session(turn("my ssn 123456789, order 8812")), detector, config)
    assert out.turns[0].user_text == "my ssn <US_SSN_1>, order 8812"


@pytest.mark.parametrize(
    ("text", "value", "entity"),
    [
        # Presidio's own country recognizers (COUNTRY_RECOGNIZERS).
        ("my driver's license number is X1234567", "X1234567", "DRIVER_LICENSE"),
        ("driving licence MORGA753116SM9IJ attached", "MORGA753116SM9IJ", "DRIVER_LICENSE"),
        ("my NRIC is S1234567D", "S1234567D", "NATIONAL_ID"),
        ("South African ID number 8001015009087", "8001015009087", "NATIONAL_ID"),
        # python-stdnum's checksums of the other default regions.
        ("my TFN is 123456782", "123456782", "NATIONAL_ID"),
        ("my RFC is GODE561231GR8", "GODE561231GR8", "NATIONAL_ID"),
        ("mi curp: relt380710mcsybp08", "relt380710mcsybp08", "NATIONAL_ID"),
        ("my PPS number is 1234567TW", "1234567TW", "NATIONAL_ID"),
    ],
)
def test_ids_and_licences_of_the_default_regions_are_found(detector, config, text, value, entity):
    out, replaced = redact_one(session(turn(text)), detector, config)
    assert value not in out.turns[0].user_text
    assert replaced == {entity: 1}


@pytest.mark.parametrize(
    "text",
    [
        "The license key X1234567 was sent to your email.",
        "Your ticket T12345678 is confirmed, booking ref 12345678AB.",
        "Booking S1234567A is on flight DL1234.",
    ],
)
def test_reference_numbers_of_an_id_s_shape_are_not_ids(detector, config, text):
    out, replaced = redact_one(session(turn(text)), detector, config)
    assert out.turns[0].user_text == text, replaced


def test_street_addresses_with_any_usps_suffix_and_uk_forms(detector, config):
    for address in ("0412 Birch Summit", "Flat 6 Hollow Lake", "59 Oak Tunnel Suite 217"):
        out, replaced = redact_one(session(turn(f"ship to {address} please")), detector, config)
        assert out.turns[0].user_text == "ship to <STREET_ADDRESS_1> please", address
    # A product with a number and a street word inside it is not an address.
    out, _ = redact_one(session(turn("I bought 2 Sea View Mugs")), detector, config)
    assert out.turns[0].user_text == "I bought 2 Sea View Mugs"


def test_a_possessive_name_goes_and_so_does_the_name_alone(detector, config):
    out, _ = redact_one(
        session(turn("my husband Alex Morgan's order", "Sorry, Alex Morgan, checking.")),
        detector,
        config,
    )
    t = out.turns[0]
    assert t.user_text == "my husband <PERSON_1>'s order"
    assert t.reply_text == "Sorry, <PERSON_1>, checking."


def test_a_name_made_of_known_parts_leaves_no_character(detector, config):
    # first_name and last_name are separate values; Presidio's anonymizer
    # merges the two adjacent hits into one span "Zelda Quux".
    state = {"first_name": "Zelda", "last_name": "Quux"}
    out, _ = redact_one(
        session(turn("Zelda Quux called about ZELDA"), state=state), detector, config
    )
    text = out.turns[0].user_text
    assert "Zelda" not in text and "Quux" not in text and "ZELDA" not in text
    # The first-name gazetteer finds "Zelda Quux" whole; its parts and their
    # capitals share its placeholder.
    assert text == "<PERSON_1> called about <PERSON_1>"


def test_overlapping_hits_are_replaced_as_one_span(detector):
    [found] = list(detector.detect(["send it to 12 Baker Street, London NW1 6XE today"]))
    assert found == [("STREET_ADDRESS", "12 Baker Street, London NW1 6XE")]


def test_pieces_go_to_spacy_in_batches_bounded_by_count_and_characters():
    from miner.redaction.detector import BATCH_CHARS, _batches

    texts = ["a" * 4000] * 9 + ["short"] * 5 + ["b" * (BATCH_CHARS + 1)] + ["c"] * 3
    batches = list(_batches(texts, 4))
    assert [t for b in batches for t in b] == texts  # all of them, in order
    assert all(len(b) <= 4 for b in batches)
    # Over the character bound only when one text alone is longer.
    assert all(sum(map(len, b)) <= BATCH_CHARS or len(b) == 1 for b in batches)
    assert ["b" * (BATCH_CHARS + 1)] in batches
    assert list(_batches(["x"] * 10, 4)) == [["x"] * 4, ["x"] * 4, ["x"] * 2]
    assert list(_batches([], 4)) == []


def test_one_long_texts_pieces_go_to_spacy_in_larger_batches():
    from miner.redaction.detector import BATCH_CHARS, LONG_TEXT_BATCH_CHARS, _batches

    # Text 0 is long (20 pieces), texts 1-3 short, text 4 has 3 pieces.
    texts = ["a" * 4000] * 20 + ["s"] * 3 + ["b" * 4000] * 3
    owners = [0] * 20 + [1, 2, 3] + [4] * 3
    batches = list(_batches(texts, 64, owners))
    assert [t for b in batches for t in b] == texts
    sizes = [sum(map(len, b)) for b in batches]
    # The long text's pieces fill batches of up to LONG_TEXT_BATCH_CHARS...
    assert sizes[0] == LONG_TEXT_BATCH_CHARS > BATCH_CHARS
    # ...and a batch holding pieces of several texts keeps to BATCH_CHARS.
    assert all(size <= BATCH_CHARS for size in sizes[1:])
    # Without owners, every batch keeps to BATCH_CHARS.
    assert all(sum(map(len, b)) <= BATCH_CHARS for b in _batches(texts, 64))


def test_the_nlp_worker_keeps_order_stays_one_batch_ahead_and_passes_errors_on():
    import threading

    from miner.redaction.runtime import READ_AHEAD
    from miner.redaction.runtime import read_ahead as _read_ahead

    submitted: list[int] = []
    callers: set[str] = set()

    def nlp(batch: list[str]) -> list[str]:
        callers.add(threading.current_thread().name)
        submitted.append(int(batch[0]))
        return [t.upper() for t in batch]

    def batches():
        for i in range(20):
            # The worker is never more than READ_AHEAD batches past the reader.
            assert len(submitted) <= len(out) + READ_AHEAD + 1
            yield [str(i), f"x{i}"]

    out: list[list[str]] = []
    for result in _read_ahead(nlp, batches()):
        out.append(result)
    assert out == [[str(i), f"X{i}"] for i in range(20)]
    assert callers and threading.current_thread().name not in callers

    def broken(batch: list[str]) -> list[str]:
        raise ValueError("model failed")

    with pytest.raises(ValueError, match="model failed"):
        list(_read_ahead(broken, iter([["a"], ["b"]])))


def test_spacy_in_its_thread_finds_what_presidio_called_plainly_finds(detector, config):
    # The worker thread changes where spaCy runs, not what it finds: the same
    # hits as Presidio's own batch engine, one call in this thread.
    from presidio_analyzer import BatchAnalyzerEngine

    from miner.redaction.detector import _batches, _chunks

    lines = [
        "Hi, I'm Alex Morgan from Leeds, call me on +44 20 7946 0958.",
        "My card 4111 1111 1111 1111 was charged twice, write to dana.ruiz@example.org.",
        "Ship it to 221B Baker Street, London NW1 6XE, attention Ms Priya Raman.",
        "The parcel was late and the box was damaged on arrival, nobody called.",
    ]
    text = "\n".join(lines[i % 4] for i in range(800))
    assert len(_chunks(text)) > 10
    [found] = list(detector.detect([text]))
    pieces = [piece for _offset, piece in _chunks(text)]
    plain = BatchAnalyzerEngine(analyzer_engine=detector._analyzer)
    hits = [
        hit
        for batch in _batches(pieces, config.redaction.batch_size)
        for hit in plain.analyze_iterator(
            batch,
            language="en",
            batch_size=len(batch),
            entities=detector._entities,
            score_threshold=detector._threshold,
            allow_list=detector._allow_list,
            allow_list_match="regex",
        )
    ]
    offsets = [offset for offset, _piece in _chunks(text)]
    merged = detector._values(
        text,
        [
            (
                o + r.start,
                o + r.end,
                r.score,
                r.entity_type,
                r.recognition_metadata["recognizer_name"],
            )
            for o, piece_hits in zip(offsets, hits, strict=True)
            for r in piece_hits
        ],
        [],
    )
    # The same values (spaCy's labels, left out here, decide only verdicts).
    assert found == [(d.entity, d.value) for d in merged if d.verdict != "keep"]
    assert {"Alex Morgan", "dana.ruiz@example.org", "+44 20 7946 0958"} <= {v for _e, v in found}


def test_a_long_text_is_read_in_pieces_that_never_cut_a_value_in_two(detector, config):
    from miner.redaction.detector import CHUNK, _chunks

    filler = "the parcel was late and the box was damaged on arrival " * 8
    values = ["alex.morgan@example.com", "+44 20 7946 0958", "4111 1111 1111 1111"]
    parts, planted = [], []
    for i in range(400):
        parts.append(filler[: 20 + 37 * i % 90])
        planted.append(values[i % 3])
        parts.append(f" reach me on {values[i % 3]} please ")
    text = "".join(parts)
    pieces = _chunks(text)
    assert len(text) > 5 * CHUNK and len(pieces) > 5
    assert all(len(piece) <= CHUNK for _offset, piece in pieces)
    assert all(text[o : o + len(p)] == p for o, p in pieces)
    # Every value sits whole in at least one piece, whatever the boundaries,
    # and the text is built so that some value straddles a piece's end.
    straddling = 0
    for value in set(values):
        at = 0
        while (at := text.find(value, at)) >= 0:
            assert any(o <= at and at + len(value) <= o + len(p) for o, p in pieces), at
            straddling += any(at < o + len(p) < at + len(value) for o, p in pieces)
            at += 1
    assert straddling
    out, _ = redact_one(session(turn(text)), detector, config)
    redacted = out.turns[0].user_text
    assert not any(v in redacted for v in values)
    assert redacted.count("<EMAIL_ADDRESS_1>") == planted.count(values[0])


def test_a_name_found_elsewhere_goes_from_a_text_written_all_in_lower_case(detector, config):
    out, _ = redact_one(
        session(
            turn("My name is Nicola Rossi.", "Thanks, Nicola."),
            turn("hi again, nicola here. will you call me?", "Sure."),
        ),
        detector,
        config,
    )
    assert re.fullmatch(r"hi again, <PERSON_\d> here\. will you call me\?", out.turns[1].user_text)
    # A capitalised text keeps a lower-case word that happens to spell the name.
    assert "Nicola" not in out.turns[0].reply_text


def test_a_name_found_elsewhere_goes_from_a_line_written_in_lower_case(detector, config):
    out, _ = redact_one(
        session(
            turn("My name is Nicola Green.", "Thanks, Nicola."),
            turn("the parcel is for nicola\n\nKind regards\nMario Bianchi", "Sure."),
            turn("I wrote green here.\\ngreen again", "Noted."),
        ),
        detector,
        config,
    )
    text = out.turns[1].user_text
    assert "nicola" not in text and text.startswith("the parcel is for <PERSON_")
    # The line that capitalises keeps its lower-case word when English writes
    # it ("green"); the one after an escaped break (a document quoted in
    # JSON) is a line of its own.
    assert out.turns[2].user_text.startswith("I wrote green here.\\n<PERSON_")


def test_a_name_english_does_not_write_goes_in_lower_case_from_any_line(detector, config):
    out, _ = redact_one(
        session(
            turn("My name is Valérie Rossi.", "Thanks, Valérie."),
            turn("Hi, it is me, valérie, again.", "Welcome back."),
            turn("My name is Mark Green.", "Noted."),
            turn("Please mark the green box.", "Done."),
        ),
        detector,
        config,
    )
    assert "valérie" not in out.turns[1].user_text
    # A name that is an English word stays a word in a capitalised line.
    assert out.turns[3].user_text == "Please mark the green box."


def test_the_names_listed_with_a_known_first_name_are_names(detector, config):
    s = session(turn("It was founded by our 3 founders: Keudel, Lorch and Adolph."))
    for name in ("Keudel", "Lorch", "Adolph"):
        assert not left_unseen(s, detector, config, name), name


def test_a_town_the_model_calls_a_person_stays_when_its_neighbours_say_place(detector, config):
    out, _ = redact_one(
        session(turn("Leek bridge is falling down. I am in Lomm for a business trip.")),
        detector,
        config,
    )
    assert (
        out.turns[0].user_text == "Leek bridge is falling down. I am in Lomm for a business trip."
    )


def test_a_town_the_model_calls_a_person_stays_when_the_gazetteer_knows_it(detector, config):
    # No place word near it: the model reads "Chemnitz" and "Huesca" as
    # people; GeoNames' towns are no person unless they are names too.
    text = "I'm writing from Chemnitz and the app keeps crashing. Do you deliver to Huesca?"
    out, replaced = redact_one(session(turn(text)), detector, config)
    assert out.turns[0].user_text == text, replaced
    # A town that is a surname in the US census (Metz) is still a person.
    s = session(turn("Please tell Metz the parcel arrived."))
    assert not left_unseen(s, detector, config, "Metz")


def test_carriers_and_tracking_numbers_are_not_people_or_phones(detector, config):
    reply = "It shipped on Nov 10 with Evri, tracking number 4401234567, and DPD has it now."
    out, replaced = redact_one(session(turn("Where is my parcel?", reply)), detector, config)
    assert out.turns[0].reply_text == reply, replaced


def test_a_document_quoted_in_a_string_is_read_line_by_line(detector, config):
    # A tool result holding a JSON-escaped document: its line breaks are the
    # two characters \n. Its names and its address start lines, and are found
    # and replaced there and after the escape, in every text of the session.
    note = r"Dr Tom Graham\n\n660 Brooks Station\n Flat 8\n Leeshaven\n\nDiane: call me back"
    call = ToolCall(name="lookup_customer", args={}, result={"note": note})
    out, _ = redact_one(
        session(turn("Is my record right?", "ok", call), turn("Diane here again")),
        detector,
        config,
    )
    redacted = out.turns[0].tool_calls[0].result["note"]
    for value in ("Tom", "Graham", "660", "Brooks", "Leeshaven", "Diane"):
        assert value not in redacted, redacted
    assert redacted.startswith("<PERSON_") and r"\n<PERSON_" in redacted
    assert "Diane" not in out.turns[1].user_text


def test_spacy_runs_only_what_presidio_and_miner_read(detector):
    # NER (with its own embedding) and the lemmas the context enhancer reads;
    # the parser, tagger, attribute ruler, lemmatizer and the tagger's shared
    # embedding are not run (docs/performance.md, "Long texts").
    nlp = detector._analyzer.nlp_engine.nlp["en"]
    assert nlp.pipe_names == ["miner_ner", "miner_lower_case_lemmas"]
    doc = nlp("Alex Morgan phoned the Leeds office twice")
    assert [e.text for e in doc.ents][:1] == ["Alex Morgan"]
    assert [t.lemma_ for t in doc] == [t.lower_ for t in doc]


def test_the_ner_driven_with_the_gil_held_finds_what_spacys_own_loop_finds(detector):
    # miner_ner runs the model's weights step by step from Python; spaCy's own
    # loop (the disabled "ner" pipe) must give the same entities, in batches of
    # documents that end at different steps, cased as NER reads them.
    from miner.redaction.lexicon.names import cased_for_ner

    nlp = detector._analyzer.nlp_engine.nlp["en"]
    lines = [
        "Hi, this is Priya Raman from Leeds; my colleague Tomasz Nowak in Gdansk wrote too.",
        "DELIVER TO HANNAH SCHMIDT, 14 KASTANIENALLEE, BERLIN. ASK FOR THE CONCIERGE.",
        "it's teófila again, the parcel for mr garcía is still in valencia",
        "",
        "Dr. Amara Okafor of Lagos and Acme Ltd signed on 12 March in Nairobi, Kenya.",
        "Order 4471 shipped. Nothing else to say here at all.",
    ]
    texts = [cased_for_ner(" ".join(lines[i:] + lines[:i]) * (i + 1)) for i in range(len(lines))]

    def entities() -> list[list[tuple[int, int, str]]]:
        return [
            [(e.start_char, e.end_char, e.label_) for e in doc.ents]
            for doc in nlp.pipe([*texts, *lines], batch_size=4)
        ]

    ours = entities()
    nlp.enable_pipe("ner")
    nlp.disable_pipe("miner_ner")
    try:
        spacys = entities()
    finally:
        nlp.disable_pipe("ner")
        nlp.enable_pipe("miner_ner")
    assert ours == spacys
    assert sum(map(len, ours)) > 40


def test_the_ners_token_vectors_in_parts_give_the_entities_of_one_batch(detector, monkeypatch):
    # The NER computes the token vectors of a batch in parts of at most
    # TOKEN_VECTORS_CHARS characters and parses the batch at once: each
    # document on its own part, or all on one, the same entities.
    from miner.redaction import runtime

    nlp = detector._analyzer.nlp_engine.nlp["en"]
    texts = [
        "Hi, this is Priya Raman from Leeds; my colleague Tomasz Nowak in Gdansk wrote too. " * 3,
        "Dr. Amara Okafor of Lagos and Acme Ltd signed on 12 March in Nairobi, Kenya.",
        "",
        "Order 4471 shipped to Hannah Schmidt in Berlin. Nothing else to say here at all. " * 5,
    ]

    def entities() -> list[list[tuple[int, int, str]]]:
        return [
            [(e.start_char, e.end_char, e.label_) for e in doc.ents]
            for doc in nlp.pipe(texts, batch_size=len(texts))
        ]

    parts: list[int] = []
    predict = type(nlp.get_pipe("miner_ner").ner.model.layers[0]).predict

    def counted(model, docs):  # type: ignore[no-untyped-def]
        parts.append(len(docs))
        return predict(model, docs)

    monkeypatch.setattr(type(nlp.get_pipe("miner_ner").ner.model.layers[0]), "predict", counted)
    monkeypatch.setattr(runtime, "TOKEN_VECTORS_CHARS", 1)
    one_each = entities()
    assert parts == [1, 1, 1, 1]
    parts.clear()
    monkeypatch.setattr(runtime, "TOKEN_VECTORS_CHARS", 1_000_000)
    assert entities() == one_each
    assert parts == [4]
    assert sum(map(len, one_each)) >= 8


def test_the_model_multiplies_with_numpy_on_one_blas_thread_and_finds_the_same(detector):
    from thinc.api import NumpyOps
    from threadpoolctl import threadpool_info

    nlp = detector._analyzer.nlp_engine.nlp["en"]
    model = nlp.get_pipe("ner").model
    assert all(isinstance(n.ops, NumpyOps) and not n.ops.use_blis for n in model.walk())
    # numpy's own BLAS, the one the products run on: a BLAS another library
    # loads later (scipy's, through the test tools) keeps its own threads.
    numpy_blas = [
        p for p in threadpool_info() if p["user_api"] == "blas" and "numpy" in p["filepath"]
    ]
    assert numpy_blas and all(p["num_threads"] == 1 for p in numpy_blas)
    text = (
        "Hi, this is Priya Raman from Leeds. My colleague Tomasz Nowak in Gdansk "
        "and Dr. Amara Okafor of Lagos both wrote to Acme Ltd about the order."
    )
    with_numpy = [(e.start_char, e.end_char, e.label_) for e in nlp(text).ents]
    numpy_ops = model.ops
    try:
        for node in model.walk():
            node.ops = NumpyOps()  # blis, as thinc ships it
        with_blis = [(e.start_char, e.end_char, e.label_) for e in nlp(text).ents]
    finally:
        for node in model.walk():
            node.ops = numpy_ops
    assert with_numpy == with_blis and len(with_numpy) >= 4


def test_presidios_patterns_are_not_compiled_to_be_checked_and_still_run(detector):
    import regex
    from presidio_analyzer import Pattern, PatternRecognizer

    from miner.redaction.runtime import presidio_patterns_unchecked

    with presidio_patterns_unchecked():
        unchecked = Pattern("unbalanced", "(", 0.5)  # the check compiled nothing
        assert regex.compile("a+b").fullmatch("aab")  # any other compile compiles
    with pytest.raises(ValueError):
        Pattern("unbalanced", "(", 0.5)  # checked again after the block
    assert unchecked.compiled_regex is None
    with pytest.raises(regex.error):  # a bad pattern still fails, when it first runs
        PatternRecognizer("X", patterns=[unchecked]).analyze("text", ["X"])
    # The recognizers made in the block compile their patterns when they run.
    iban = detector._analyzer.analyze(
        text="Pay to IBAN GB82 WEST 1234 5698 7654 32 please", language="en", entities=["IBAN_CODE"]
    )
    assert [r.entity_type for r in iban] == ["IBAN_CODE"]


def test_a_context_word_still_lifts_a_bare_number_to_a_phone(detector, config):
    # The context enhancer finds "phone" in the lower-case lemma of "phones".
    with_context = "Both my phones: 2025550143 is the one to use."
    without = "Reference 2025550143 is the one to use."
    out, replaced = redact_one(session(turn(with_context)), detector, config)
    assert "2025550143" not in out.turns[0].user_text, replaced
    out, _replaced = redact_one(session(turn(without)), detector, config)
    assert "2025550143" in out.turns[0].user_text


def test_replacing_in_groups_gives_what_one_anonymizer_call_gave(detector):
    # Long texts' spans go to presidio-anonymizer a group at a time; groups end
    # only where it would not merge neighbours (same entity, only spaces between).
    import random

    from presidio_anonymizer.entities import OperatorConfig, RecognizerResult

    from miner.redaction import detector as redact

    r = random.Random(20)
    words, spans, at = [], [], 0
    for n in range(1500):
        word = f"V{n}"
        gap = r.choice([" ", "  ", ", ", " \n", "\n", "", " and "])
        spans.append((at, at + len(word), r.choice(["PERSON", "PERSON", "LOCATION"])))
        words.append(word + gap)
        at += len(word) + len(gap)
    text = "".join(words)

    def lookup(value: str) -> str:
        return f"<{value}>"

    whole = detector._anonymizer.anonymize(
        text=text,
        analyzer_results=[RecognizerResult(e, s, t, 1.0) for s, t, e in spans],
        operators={"DEFAULT": OperatorConfig("custom", {"lambda": lookup})},
    ).text
    assert whole.count("<") < len(spans)  # some neighbours were merged
    assert len(spans) > 10 * redact.REPLACE_GROUP
    assert detector.replace(text, spans, lookup) == whole


def test_a_found_address_takes_its_house_number_and_postcode_where_they_stand_alone(
    detector, config
):
    call = ToolCall(name="lookup_customer", args={"query": "71210"}, result={"status": "ok"})
    out, _ = redact_one(
        session(
            turn("Send it to 18, rue de Pineau\n71210 Saint Éric please", "ok", call),
            turn("I ordered 18 mugs"),
        ),
        detector,
        config,
    )
    assert out.turns[0].tool_calls[0].args["query"].startswith("<STREET_ADDRESS_")
    # A number of one or two digits is too common to follow the address around.
    assert out.turns[1].user_text == "I ordered 18 mugs"


def test_a_found_address_takes_its_street_line_and_a_short_house_number_given_alone(
    detector, config
):
    calls = [
        ToolCall(name="lookup_customer", args={"query": query}, result={"status": "ok"})
        for query in ("Allika 46", "46", "Catharinaring")
    ]
    out, _ = redact_one(
        session(
            turn("I live at 893 Allika 46\n Apt. 612\n Riisa", "ok", calls[0]),
            turn("and my mother at 637 Catharinaring", "ok", calls[1]),
            turn("I ordered 46 mugs", "ok", calls[2]),
        ),
        detector,
        config,
    )
    assert [t.tool_calls[0].args["query"][:16] for t in out.turns] == ["<STREET_ADDRESS_"] * 3
    # A short house number follows the address only as a whole string.
    assert out.turns[2].user_text == "I ordered 46 mugs"


def test_a_street_named_with_a_number_before_its_street_word_is_found_alone_too(detector, config):
    call = ToolCall(name="lookup_customer", args={"query": "Rebbåsbakken 48"}, result={"ok": 1})
    out, _ = redact_one(
        session(turn("The bus drops you off at 5474 Rebbåsbakken 48 St.", "ok", call)),
        detector,
        config,
    )
    assert out.turns[0].tool_calls[0].args["query"].startswith("<STREET_ADDRESS_")


def test_a_short_house_number_standing_alone_in_prose_follows_its_address(detector, config):
    out, _ = redact_one(
        session(
            turn("I live at 893 Allika 46\n Apt. 612\n Riisa", "I have noted 46 on your file."),
            turn("I ordered 46 mugs on 46 May", "ok"),
        ),
        detector,
        config,
    )
    assert out.turns[0].reply_text.startswith("I have noted <STREET_ADDRESS_")
    assert "46" not in out.turns[0].reply_text
    # A count or a date keeps its number.
    assert out.turns[1].user_text == "I ordered 46 mugs on 46 May"


def test_a_value_in_any_case_is_replaced_wherever_the_matcher_finds_it(detector, config):
    # The matcher finds "MİRİ TALİ" for the value "miri tali" by the re
    # module's IGNORECASE (İ and i are one class); str.casefold makes "İ" two
    # characters, so a lookup by casefold found no value and left the text.
    call = ToolCall(
        name="lookup",
        args={"customer_name": "miri tali"},
        result={"note": "Ticket note: MİRİ TALİ called back."},
    )
    out, _ = redact_one(session(turn("hello", "ok", call)), detector, config)
    [tool] = out.turns[0].tool_calls
    assert tool.result["note"] == f"Ticket note: {tool.args['customer_name']} called back."


def test_a_name_in_a_line_of_lower_case_is_cased_for_the_model(detector):
    # The model finds no one in "why is cayetano so impulsive?"; cased as a
    # sentence writes a name ("Cayetano"), it does, at the same offsets.
    texts = ["why is cayetano so impulsive?", "the courier left it with charlene yesterday"]
    found = list(detector.detect(texts))
    assert found == [[("PERSON", "cayetano")], [("PERSON", "charlene")]]


def test_a_surname_with_its_particle_goes_with_the_full_name(detector, config):
    out, _ = redact_one(
        session(
            turn("My name is Emmanuelle Le Goff.", "Thank you."),
            turn("ok", "I have noted Le Goff on your file."),
            turn("And Diana Reeves-Lewis too.", "Noted, Reeves-Lewis."),
        ),
        detector,
        config,
    )
    assert re.fullmatch(r"I have noted <PERSON_1> on your file\.", out.turns[1].reply_text)
    assert re.fullmatch(r"Noted, <PERSON_2>\.", out.turns[2].reply_text)


def test_a_name_found_by_one_word_grows_over_the_rest_of_it_elsewhere(detector, config):
    # "Dratchev" is found after "Dear"; the sentence writes the whole name,
    # which the model leaves: no character of it may survive.
    out, _ = redact_one(
        session(
            turn(
                "they were singing about the verses from Ushurma Dratchev's Cautionary Tales.",
                "Dear Dratchev, I have updated your request.",
            ),
        ),
        detector,
        config,
    )
    user, reply = out.turns[0].user_text, out.turns[0].reply_text
    assert "Ushurma" not in user and "Dratchev" not in user
    placeholder = re.fullmatch(r"Dear (<PERSON_\d+>), I have updated your request\.", reply)
    assert placeholder and f"from {placeholder.group(1)}'s Cautionary" in user


def test_a_street_named_before_a_street_word_is_found_by_its_name_alone(detector, config):
    out, _ = redact_one(
        session(
            turn("Pedestrians must enter on Jaimes Light St. the first three months", "Noted."),
            turn("ok", "I have noted Jaimes Light on your file."),
        ),
        detector,
        config,
    )
    noted = out.turns[1].reply_text
    assert re.fullmatch(r"I have noted <STREET_ADDRESS_\d+> on your file\.", noted)


def test_the_indexed_context_enhancer_reads_the_words_presidio_reads(detector):
    # Bisection over token ends and a keyword set: the same surrounding words
    # as Presidio's walk, at every character a hit could start at.
    from presidio_analyzer.context_aware_enhancers import LemmaContextAwareEnhancer

    from miner.redaction.recognizers.context import IndexedContextEnhancer

    text = (
        "Both my phones:  2025550143 (home),\nand my passport no. X1234567 expires; call Dr. Okafor"
    )
    ((_cased, artifacts),) = detector._analyzer.nlp_engine.process_batch([text], "en")
    presidio, indexed = LemmaContextAwareEnhancer(), IndexedContextEnhancer()
    assert isinstance(detector._analyzer.context_aware_enhancer, IndexedContextEnhancer)
    for start in range(len(text)):
        word = text[start : start + 5]
        theirs = presidio._extract_surrounding_words(artifacts, word, start)
        ours = indexed._extract_surrounding_words(artifacts, word, start)
        assert sorted(ours) == sorted(theirs), start
    assert "phones" in indexed._extract_surrounding_words(artifacts, "20255", text.index("2025"))


def test_the_indexed_context_enhancer_scores_as_presidio_and_leaves_its_input(detector):
    # Its copy of the hits is one level deep, not Presidio's deep copy: the
    # same scores and explanations out, the hits handed in unchanged.
    from presidio_analyzer import RecognizerResult
    from presidio_analyzer.context_aware_enhancers import LemmaContextAwareEnhancer

    text = "Both my phones:  2025550143 (home),\nand my passport no. X1234567 expires"
    ((_cased, artifacts),) = detector._analyzer.nlp_engine.process_batch([text], "en")
    recognizers = detector._analyzer.registry.get_recognizers("en", all_fields=True)

    def hits() -> list:
        found = []
        for r in recognizers:
            if {"PHONE_NUMBER", "US_PASSPORT"} & set(r.supported_entities):
                for hit in r.analyze(text, r.supported_entities, artifacts):
                    hit.recognition_metadata.setdefault(
                        RecognizerResult.RECOGNIZER_IDENTIFIER_KEY, r.id
                    )
                    found.append(hit)
        return found

    def seen(results: list) -> list:
        return [
            (h.entity_type, h.start, h.end, h.score, vars(h.analysis_explanation)) for h in results
        ]

    theirs_in, ours_in = hits(), hits()
    before = seen(ours_in)
    enhancer = detector._analyzer.context_aware_enhancer
    theirs = LemmaContextAwareEnhancer().enhance_using_context(
        text, theirs_in, artifacts, recognizers
    )
    ours = enhancer.enhance_using_context(text, ours_in, artifacts, recognizers)
    assert seen(ours) == seen(theirs)
    assert any(h.score > o[3] for h, o in zip(ours, before, strict=True))  # context raised one
    assert seen(ours_in) == before


def test_the_analyzer_hands_recognizers_their_hits_as_presidios_does(detector):
    # Hits grouped once per piece, not scanned twice per recognizer: the
    # same results, in the same order, as Presidio's own engine; one that
    # overrides enhance_using_context gets its hits and the others'.
    from presidio_analyzer import AnalyzerEngine, Pattern, PatternRecognizer

    from miner.redaction.recognizers.context import ContextIndexedAnalyzerEngine

    class Boosting(PatternRecognizer):  # type: ignore[misc]
        def enhance_using_context(
            self,
            text,
            raw_recognizer_results,
            other_raw_recognizer_results,
            nlp_artifacts,
            context=None,
        ):  # type: ignore[no-untyped-def]
            for hit in raw_recognizer_results:
                hit.score = min(1.0, 0.1 * len(other_raw_recognizer_results))
            return raw_recognizer_results

    def booster() -> Boosting:
        return Boosting(supported_entity="TICKET", patterns=[Pattern("t", r"TK-\d{4}", 0.3)])

    text = (
        "Hi, I'm Alex Morgan, call me on +44 20 7946 0958 about TK-1234; my passport "
        "no. X1234567, card 4111 1111 1111 1111, 12 Baker Street, London NW1 6XE."
    )
    ours = detector._analyzer
    assert isinstance(ours, ContextIndexedAnalyzerEngine)
    plain = AnalyzerEngine(
        nlp_engine=ours.nlp_engine,
        registry=ours.registry,
        supported_languages=["en"],
        context_aware_enhancer=ours.context_aware_enhancer,
    )

    def seen(engine) -> list:  # type: ignore[no-untyped-def]
        return [
            (h.entity_type, h.start, h.end, h.score, h.recognition_metadata["recognizer_name"])
            for h in engine.analyze(
                text=text,
                language="en",
                entities=[*detector._entities, "TICKET"],
                ad_hoc_recognizers=[booster()],
            )
        ]

    found = seen(ours)
    assert found == seen(plain)
    assert len({name for *_rest, name in found}) > 3
    assert any(entity == "TICKET" and score > 0.3 for entity, _s, _e, score, _n in found)


def test_spacy_labels_on_a_span_are_those_that_overlap_it():
    # Bisection over the labels' starts: the labels a scan of all of them finds.
    import random

    from miner.redaction.detector import _LabelsOn

    rng = random.Random(36)
    labels = []
    for _ in range(300):
        start = rng.randint(0, 2000)
        labels.append((start, start + rng.randint(1, 40), rng.choice(["ORG", "GPE", "PERSON"])))
    on = _LabelsOn(labels)
    for _ in range(2000):
        start = rng.randint(0, 2050)
        end = start + rng.randint(1, 30)
        assert on(start, end) == frozenset(lab for s, e, lab in labels if s < end and start < e)
    assert _LabelsOn([])(0, 5) == frozenset()


def test_a_stretch_is_covered_by_a_span_as_a_scan_of_all_of_them_says():
    # Bisection over the starts of disjoint spans in order (what a session's
    # surfaced values occupy in a string): the answer of testing every span.
    import random

    from miner.redaction.session import _Spans

    rng = random.Random(36)
    spans, at = [], 0
    for _ in range(300):
        at += rng.randint(0, 20)
        spans.append((at, at + rng.randint(1, 15)))
        at = spans[-1][1]
    inside = _Spans(iter(spans))
    for _ in range(3000):
        start = rng.randint(0, at + 10)
        end = start + rng.randint(1, 12)
        assert inside.cover(start, end) == any(a <= start and end <= b for a, b in spans)
    assert any(inside.cover(a, b) for a, b in spans[:5])
    assert not _Spans([]).cover(0, 1)


def test_a_titled_copy_needs_no_lower_case_street_lines():
    # unsure reads a titled copy of a text for streets typed in lower case,
    # without the lower-case street lines: they find nothing it keeps there.
    from miner.redaction.lexicon.addresses import find_addresses
    from miner.redaction.unsure.streets import lower_case_streets

    text = (
        "send it to 44 rue victor hugo, 75016 paris please. or via roma, 21 - "
        "also 293 jennifer greens st. and 673 wilson viaduct\nthe corner of main and 5th"
    )
    titled = text.title()
    assert sorted(find_addresses(titled, lower_case=False)) == sorted(find_addresses(titled))
    assert len(list(lower_case_streets(text))) >= 3
