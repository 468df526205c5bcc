"""Redaction with the real Presidio engines and the pinned spaCy model."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from miner.fixtures import apply_fixtures
from miner.io import load_config
from miner.model import Session, ToolCall, Turn
from miner.redact import Detector, redact_sessions
from tests.conftest import PIPELINE

NOW = datetime(2026, 11, 22, tzinfo=UTC)


@pytest.fixture(scope="module")
def config():
    return load_config(PIPELINE)


@pytest.fixture(scope="module")
def detector(config):
    return Detector(config)


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
    [result] = redact_sessions([s], detector, config)
    return result.session, dict(result.replaced)


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
    data = {"tool_name": "lookup", "customer_name": "Q", "name": "Z"}
    out, _ = redact_one(session(turn("hi", "ok", call), state=data), detector, config)
    assert out.turns[0].tool_calls[0].args == {"agent_name": "billing_agent"}
    assert out.initial_state == {
        "tool_name": "lookup",
        "customer_name": "<PERSON_1>",
        "name": "<PERSON_2>",
    }
