"""Make sample_traces/: a realistic ADK analytics export with planted personal data.

It runs a real ADK agent (google-adk 2.13) with a scripted model, through the
real BigQuery Agent Analytics plugin. The plugin's network sinks are replaced
by in-memory fakes (credentials, the BigQuery table client and the Storage
Write client), so what is captured is the Arrow record batch the plugin would
have sent: the rows ADK writes. Then, as a team's export would, it

- moves each session to a fixed time in the week before 2026-11-28 (the plugin
  stamps rows with the wall clock; offsets within a session are kept),
- shuffles rows, repeats a few (retried writes: same event_id), and
- writes them as a hive-partitioned export, ``traces/dt=YYYY-MM-DD/part-0.parquet``,
  with the JSON columns as strings, as BigQuery's EXPORT DATA does.

Feedback (which ADK does not record) is written by hand to ``feedback.parquet``
in the shape of Google's agent starter templates. ``planted.json`` lists every
personal value planted, for the test that none survives into a draft.

Run: ``python sample_traces/make_sample_traces.py`` (needs the dev extra).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import shutil
import sys
from collections.abc import AsyncGenerator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
APP = "support_agent"

# --------------------------------------------------------------------------
# The world: customers and orders, full of personal data.

CUSTOMERS = {
    "CUST-48213": {
        "name": "Jane Doe",
        "email": "jane.doe@gmail.com",
        "phone": "+1 415 555 0134",
        "address": "42 Elm Street, Springfield",
        "card": "4111 1111 1111 1111",
    },
    "CUST-77031": {
        "name": "Rahul Mehta",
        "email": "rahul.mehta@outlook.com",
        "phone": "+44 20 7946 0958",
        "address": "17 Baker Street, London",
        "card": "5500 0055 5555 5559",
    },
    "CUST-30952": {
        "name": "Maria Garcia",
        "email": "maria.garcia@yahoo.com",
        "phone": "+1 212 555 0187",
        "address": "908 Maple Avenue, Portland",
        "card": "4012 8888 8888 1881",
    },
    "CUST-61544": {
        "name": "Tom Becker",
        "email": "tom.becker@proton.me",
        "phone": "+1 646 555 0199",
        "address": "5 Harbor Road, Boston",
        "card": "3782 822463 10005",
    },
}

ORDERS = {
    "ORD-88120": {
        "owner": "CUST-48213",
        "item": "espresso machine",
        "total": 249.0,
        "status": "delivered",
    },
    "ORD-88121": {
        "owner": "CUST-77031",
        "item": "standing desk",
        "total": 420.0,
        "status": "shipped",
    },
    "ORD-51007": {
        "owner": "CUST-48213",
        "item": "coffee grinder",
        "total": 89.5,
        "status": "delivered",
    },
    "ORD-62990": {
        "owner": "CUST-30952",
        "item": "office chair",
        "total": 189.99,
        "status": "processing",
    },
    "ORD-70415": {
        "owner": "CUST-61544",
        "item": "monitor arm",
        "total": 64.0,
        "status": "delivered",
    },
}


class PaymentGatewayError(RuntimeError):
    pass


def lookup_order(order_id: str) -> dict[str, Any]:
    """Look up an order by id."""
    order = ORDERS.get(order_id)
    if order is None:
        return {"status": "error", "error": f"order {order_id} not found"}
    owner = CUSTOMERS[order["owner"]]
    return {
        "order_id": order_id,
        "customer_id": order["owner"],
        "customer_name": owner["name"],
        "item": order["item"],
        "total": order["total"],
        "status": order["status"],
        "ship_to": owner["address"],
    }


def issue_refund(order_id: str, amount: float, reason: str, idempotency_key: str) -> dict[str, Any]:
    """Refund an order."""
    order = ORDERS[order_id]
    owner = CUSTOMERS[order["owner"]]
    if order_id == "ORD-62990":
        # A raised exception: the plugin logs TOOL_ERROR with this text.
        raise PaymentGatewayError(
            f"gateway declined refund to card {owner['card']} for {owner['name']}"
        )
    if amount > 200:
        # A returned failure: the plugin logs TOOL_COMPLETED with status OK.
        return {
            "status": "error",
            "message": "refunds above 200 need a human",
            "order_id": order_id,
        }
    return {
        "status": "ok",
        "refund_id": "RF-5521",
        "amount": amount,
        "card_last4": owner["card"][-4:],
    }


def lookup_customer(email: str) -> dict[str, Any]:
    """Find a customer by e-mail."""
    for cid, c in CUSTOMERS.items():
        if c["email"] == email:
            return {
                "customer_id": cid,
                "name": c["name"],
                "phone": c["phone"],
                "address": c["address"],
            }
    return {"status": "error", "error": "no such customer"}


def update_address(customer_id: str, address: str) -> dict[str, Any]:
    """Change a customer's delivery address."""
    return {"status": "ok", "customer_id": customer_id, "address": address}


def escalate(summary: str) -> dict[str, Any]:
    """Hand the conversation to a human agent."""
    return {"status": "ok", "ticket": "T-3307"}


def lookup_invoice(order_id: str) -> dict[str, Any]:
    """Billing: the invoice of an order."""
    order = ORDERS[order_id]
    owner = CUSTOMERS[order["owner"]]
    return {
        "order_id": order_id,
        "billed_to": owner["name"],
        "billing_email": owner["email"],
        "card": owner["card"],
        "total": order["total"],
    }


# --------------------------------------------------------------------------
# Sessions: the user's turns and what the scripted model answers, step by step.
# A step is ("call", tool, args), ("transfer", agent) or ("text", reply).

Step = tuple[Any, ...]
SESSIONS: list[dict[str, Any]] = [
    {
        "id": "s01-happy",
        "start": "2026-11-21T09:14:00",
        "customer": "CUST-48213",
        "turns": [
            (
                "Hi, where is my order ORD-51007?",
                [
                    ("call", "lookup_order", {"order_id": "ORD-51007"}),
                    (
                        "text",
                        "Your coffee grinder (ORD-51007) was delivered to 42 Elm Street, Springfield.",
                    ),
                ],
            ),
        ],
    },
    {
        "id": "s02-refund-returned-error",
        "start": "2026-11-21T15:02:00",
        "customer": "CUST-77031",
        "turns": [
            (
                "I want a refund for ORD-88121, the desk arrived broken. I'm Rahul Mehta.",
                [
                    ("call", "lookup_order", {"order_id": "ORD-88121"}),
                    (
                        "call",
                        "issue_refund",
                        {
                            "order_id": "ORD-88121",
                            "amount": 420.0,
                            "reason": "arrived broken",
                            "idempotency_key": "7f3c2a9e-1b4d-4e8a-9c21-5d6f7a8b9c0d",
                        },
                    ),
                    ("text", "Done, Rahul. Your refund of 420.00 for ORD-88121 has been issued."),
                ],
            ),
        ],
    },
    {
        "id": "s03-tool-raised",
        "start": "2026-11-22T11:40:00",
        "customer": "CUST-30952",
        "turns": [
            (
                "Please refund my order ORD-62990, my email is maria.garcia@yahoo.com",
                [
                    ("call", "lookup_order", {"order_id": "ORD-62990"}),
                    (
                        "call",
                        "issue_refund",
                        {
                            "order_id": "ORD-62990",
                            "amount": 189.99,
                            "reason": "customer request",
                            "idempotency_key": "0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d",
                        },
                    ),
                ],
            ),
            # The raised error ends the turn: no AGENT_RESPONSE, as in production.
            (
                "This is useless, I have asked three times. Call me on +1 212 555 0187.",
                [
                    (
                        "call",
                        "escalate",
                        {
                            "summary": "Maria Garcia wants refund of ORD-62990, phone +1 212 555 0187"
                        },
                    ),
                    ("text", "I have passed this to a colleague who will call you."),
                ],
            ),
        ],
    },
    {
        "id": "s04-complaint",
        "start": "2026-11-22T18:25:00",
        "customer": "CUST-61544",
        "turns": [
            (
                "Where is ORD-70415?",
                [
                    ("call", "lookup_order", {"order_id": "ORD-70415"}),
                    ("text", "Order ORD-70415 was delivered on Monday."),
                ],
            ),
            (
                "That's wrong, I never got it. My address is 5 Harbor Road, Boston.",
                [
                    (
                        "text",
                        "I'm sorry, Tom. The carrier shows it delivered to 5 Harbor Road, Boston.",
                    )
                ],
            ),
        ],
    },
    {
        "id": "s05-handoff",
        "start": "2026-11-23T08:05:00",
        "customer": "CUST-48213",
        "turns": [
            (
                "I need to speak to a human about a charge on my card 4111 1111 1111 1111.",
                [
                    ("transfer", "human_handoff"),
                    ("text", "Connecting you with a billing specialist now."),
                ],
            ),
        ],
    },
    {
        "id": "s06-thumbs-down-address",
        "start": "2026-11-23T13:30:00",
        "customer": "CUST-77031",
        "turns": [
            (
                "Please change my delivery address to 221 Baker Street, London.",
                [
                    (
                        "call",
                        "update_address",
                        {"customer_id": "CUST-77031", "address": "221 Baker Street, London"},
                    ),
                    ("text", "Your delivery address is now 221 Baker Street, London."),
                ],
            ),
        ],
    },
    {
        "id": "s07-billing-subagent",
        "start": "2026-11-24T10:12:00",
        "customer": "CUST-48213",
        "turns": [
            (
                "Why was I charged twice for ORD-88120? Contact me at jane.doe@gmail.com",
                [
                    ("transfer", "billing_agent"),
                    ("call", "lookup_invoice", {"order_id": "ORD-88120"}),
                    (
                        "text",
                        "I see one charge of 249.00 for ORD-88120 on the card ending 1111, Jane.",
                    ),
                ],
            ),
            # The billing agent keeps the session after the transfer.
            (
                "Ridiculous, my bank shows two. Send the invoice to rahul.mehta@outlook.com",
                [("text", "I can only send invoices to the e-mail on your account.")],
            ),
        ],
    },
    {
        "id": "s08-not-owned",
        "start": "2026-11-25T16:45:00",
        "customer": "CUST-61544",
        "turns": [
            (
                "Refund order ORD-88120 please, it arrived broken.",
                [
                    ("call", "lookup_order", {"order_id": "ORD-88120"}),
                    (
                        "call",
                        "issue_refund",
                        {
                            "order_id": "ORD-88120",
                            "amount": 249.0,
                            "reason": "arrived broken",
                            "idempotency_key": "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b",
                        },
                    ),
                    ("text", "Your refund for ORD-88120 is on its way."),
                ],
            ),
        ],
    },
    {
        "id": "s09-happy-2",
        "start": "2026-11-26T07:55:00",
        "customer": "CUST-30952",
        "turns": [
            (
                "Has ORD-62990 shipped yet?",
                [
                    ("call", "lookup_order", {"order_id": "ORD-62990"}),
                    ("text", "ORD-62990 is still being processed; it should ship this week."),
                ],
            ),
        ],
    },
    {
        "id": "s10-lookup-missing",
        "start": "2026-11-26T20:10:00",
        "customer": "CUST-61544",
        "turns": [
            (
                "Status of ORD-99999? I'm Tom Becker, tom.becker@proton.me",
                [
                    ("call", "lookup_order", {"order_id": "ORD-99999"}),
                    ("text", "ORD-99999 is out for delivery, Tom."),
                ],
            ),
        ],
    },
    {
        "id": "s11-old-error",
        "start": "2026-11-10T12:00:00",
        "customer": "CUST-77031",
        "turns": [
            (
                "Refund ORD-88121 to +44 20 7946 0958 please",
                [
                    ("call", "lookup_order", {"order_id": "ORD-88121"}),
                    (
                        "call",
                        "issue_refund",
                        {
                            "order_id": "ORD-88121",
                            "amount": 420.0,
                            "reason": "changed mind",
                            "idempotency_key": "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d",
                        },
                    ),
                    ("text", "Refund issued."),
                ],
            ),
        ],
    },
]

# Thumbs-down from the app's own feedback table (ADK records none).
FEEDBACK = [
    {
        "session_id": "s06-thumbs-down-address",
        "invocation_id": None,
        "user_id": "u-77031",
        "score": -1,
        "text": "it did not actually change",
        "timestamp": "2026-11-23T13:35:00",
    },
    {
        "session_id": "s01-happy",
        "invocation_id": None,
        "user_id": "u-48213",
        "score": 1,
        "text": "great",
        "timestamp": "2026-11-21T09:20:00",
    },
    {
        "session_id": "s09-happy-2",
        "invocation_id": None,
        "user_id": "u-30952",
        "score": 0,
        "text": "meh, vague answer",
        "timestamp": "2026-11-26T08:00:00",
    },
]


def planted_values() -> list[str]:
    values: list[str] = []
    for cid, c in CUSTOMERS.items():
        values.append(cid)
        values.extend(c.values())
        values.extend(c["name"].split())  # first names and surnames alone
    values.extend(ORDERS)
    values.extend(["ORD-99999", "221 Baker Street, London"])
    return sorted(set(values))


# --------------------------------------------------------------------------
# Running the agent.


def _agents(model: Any) -> Any:
    from google.adk.agents import LlmAgent

    billing = LlmAgent(
        name="billing_agent", model=model, instruction="Billing questions.", tools=[lookup_invoice]
    )
    human = LlmAgent(name="human_handoff", model=model, instruction="Hand over to a human.")
    return LlmAgent(
        name=APP,
        model=model,
        instruction="Help customers with orders. Refunds above 200 go to a human.",
        tools=[lookup_order, issue_refund, lookup_customer, update_address, escalate],
        sub_agents=[billing, human],
    )


def _scripted_model(queue: list[Step]) -> Any:
    from google.adk.models import BaseLlm, LlmRequest, LlmResponse
    from google.genai import types

    class ScriptedModel(BaseLlm):
        """Answers each model call with the next planned step."""

        async def generate_content_async(
            self, llm_request: LlmRequest, stream: bool = False
        ) -> AsyncGenerator[LlmResponse, None]:
            kind, *rest = queue.pop(0)
            if kind == "text":
                part = types.Part(text=rest[0])
            elif kind == "call":
                part = types.Part(function_call=types.FunctionCall(name=rest[0], args=rest[1]))
            else:
                part = types.Part(
                    function_call=types.FunctionCall(
                        name="transfer_to_agent", args={"agent_name": rest[0]}
                    )
                )
            yield LlmResponse(content=types.Content(role="model", parts=[part]))

    return ScriptedModel(model="scripted-model")


async def _run_session(spec: dict[str, Any], plugin: Any) -> None:
    from google.adk.runners import InMemoryRunner
    from google.genai import types

    queue: list[Step] = [step for _text, steps in spec["turns"] for step in steps]
    runner = InMemoryRunner(agent=_agents(_scripted_model(queue)), app_name=APP, plugins=[plugin])
    customer = CUSTOMERS[spec["customer"]]
    user_id = "u-" + spec["customer"].split("-")[1]
    session = await runner.session_service.create_session(
        app_name=APP,
        user_id=user_id,
        session_id=spec["id"],
        state={
            "customer_id": spec["customer"],
            "customer_name": customer["name"],
            "customer_email": customer["email"],
            "phone": customer["phone"],
            "tier": "gold",
        },
    )
    for text, _steps in spec["turns"]:
        message = types.Content(role="user", parts=[types.Part(text=text)])
        try:
            async for _event in runner.run_async(
                user_id=user_id, session_id=session.id, new_message=message
            ):
                pass
        except PaymentGatewayError:
            pass  # unhandled in the agent: the plugin logged the *_ERROR rows
    assert not queue, f"{spec['id']}: unused scripted steps {queue}"


async def _capture_rows() -> list[dict[str, Any]]:
    # ADK's own plugin, its network clients replaced by in-memory ones.
    from miner.replay import recording_plugin

    with recording_plugin() as (plugin, rows):
        for spec in SESSIONS:
            await _run_session(spec, plugin)
        await plugin.flush()
        await plugin.shutdown()
        return rows()


def _as_export(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Move sessions to their planned times; JSON columns to strings as BigQuery exports them."""
    from miner.replay import as_export

    starts = {s["id"]: datetime.fromisoformat(s["start"]).replace(tzinfo=UTC) for s in SESSIONS}
    first: dict[str, datetime] = {}
    for row in rows:
        sid = row["session_id"]
        first[sid] = min(first.get(sid, row["timestamp"]), row["timestamp"])
    out = []
    for row in rows:
        row = dict(row)
        sid = row["session_id"]
        row["timestamp"] = starts[sid] + (row["timestamp"] - first[sid])
        out.append(row)
    return as_export(out)


def main() -> None:
    logging.basicConfig(level=logging.CRITICAL)
    rows = _as_export(asyncio.run(_capture_rows()))
    if not rows:
        sys.exit("no rows captured from the plugin")
    rng = random.Random(20261128)
    rng.shuffle(rows)  # exports are not in time order
    rows.extend(dict(r) for r in rng.sample(rows, 5))  # retried writes: same event_id twice

    target = HERE / "traces"
    shutil.rmtree(target, ignore_errors=True)
    table = pa.Table.from_pylist(rows)
    by_day: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        by_day.setdefault(row["timestamp"].date().isoformat(), []).append(i)
    for day, indexes in sorted(by_day.items()):
        folder = target / f"dt={day}"
        folder.mkdir(parents=True)
        pq.write_table(table.take(indexes), folder / "part-0.parquet")

    feedback = pa.Table.from_pylist(
        [
            {**f, "timestamp": datetime.fromisoformat(f["timestamp"]).replace(tzinfo=UTC)}
            for f in FEEDBACK
        ]
    )
    pq.write_table(feedback, HERE / "feedback.parquet")
    (HERE / "planted.json").write_text(json.dumps(planted_values(), indent=2) + "\n")
    types = sorted({r["event_type"] for r in rows})
    print(f"{len(rows)} rows, {len(SESSIONS)} sessions, {len(by_day)} days; event types: {types}")


if __name__ == "__main__":
    main()
