"""The sample's support agent, as it was (``buggy_agent``) and fixed
(``fixed_agent``), for ``miner replay`` on a suite mined from sample_traces/:

    miner replay --agent sample_traces.agent:buggy_agent --suite evals/my_agent --out runs/
    miner replay --agent sample_traces.agent:fixed_agent --suite evals/my_agent --out runs/

The model is scripted (no API key, no network): it follows the conversation
as the agent that wrote the sample traces did. The bug is the sample's s02:
a refund over the limit comes back as ``{"status": "error"}``, and the buggy
agent says it was issued anyway; the fixed one says it was not, and why.
The tools raise if they are ever run: a replay serves every call from the
suite's recorded results. This module is plain ADK and does not import miner:
a team's own ``my_agent/agent.py`` is found the same way.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import AsyncGenerator
from typing import Any

from google.adk.agents import LlmAgent
from google.adk.models import BaseLlm, LlmRequest, LlmResponse
from google.genai import types

_ORDER = re.compile(r"\bORD-\d{5}\b")


def lookup_order(order_id: str) -> dict[str, Any]:
    """Look up an order by id."""
    raise RuntimeError("a live tool ran during a replay")


def issue_refund(order_id: str, amount: float, reason: str, idempotency_key: str) -> dict[str, Any]:
    """Refund an order."""
    raise RuntimeError("a live tool ran during a replay")


def lookup_invoice(order_id: str) -> dict[str, Any]:
    """Billing: the invoice of an order."""
    raise RuntimeError("a live tool ran during a replay")


def escalate(summary: str) -> dict[str, Any]:
    """Hand the conversation to a human agent."""
    raise RuntimeError("a live tool ran during a replay")


def _text(content: types.Content) -> str:
    return " ".join(p.text for p in content.parts or [] if p.text)


class SupportModel(BaseLlm):
    """Looks up the order the user names, refunds it when asked, and answers."""

    fixed: bool = False
    skip_lookup: bool = False
    """A changed agent: refunds without looking the order up first."""
    flaky: bool = False
    """Fixed on every other conversation, as a nondeterministic model may be."""

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        contents = llm_request.contents
        user = next((_text(c) for c in reversed(contents) if c.role == "user" and _text(c)), "")
        last = contents[-1].parts[-1] if contents and contents[-1].parts else None
        response = last.function_response if last is not None else None
        # The latest order id the user gave (after a handover, ADK adds the
        # other agent's turns as user-role context after the user's message).
        said = [_text(c) for c in contents if c.role == "user"]
        order = next((m[0] for m in (_ORDER.findall(t) for t in reversed(said)) if m), "")
        fixed = self.fixed or (self.flaky and _flip())
        billing = "billing" in self.model
        invoiced = any(
            p.function_response and p.function_response.name == "lookup_invoice"
            for c in contents
            for p in c.parts or []
        )
        if billing and response is None and invoiced:
            part = types.Part(text="I can only send invoices to the e-mail on your account.")
        elif billing and response is None and order:
            # The sub-agent after the handover (ADK shows it the history as context).
            call = types.FunctionCall(name="lookup_invoice", args={"order_id": order})
            part = types.Part(function_call=call)
        elif response is None and "charged" in user.lower() and not billing:
            part = types.Part(
                function_call=types.FunctionCall(
                    name="transfer_to_agent", args={"agent_name": "billing_agent"}
                )
            )
        elif response is not None and response.name == "lookup_invoice":
            part = types.Part(text=f"I see one charge for {order}.")
        elif response is None and self.skip_lookup and "refund" in user.lower():
            args = {"order_id": order, "amount": 420.0, "reason": "arrived broken",
                    "idempotency_key": str(uuid.uuid4())}  # fmt: skip
            part = types.Part(function_call=types.FunctionCall(name="issue_refund", args=args))
        elif response is None:
            part = (
                types.Part(
                    function_call=types.FunctionCall(name="lookup_order", args={"order_id": order})
                )
                if order
                else types.Part(text="How can I help?")
            )
        elif response.name == "lookup_order" and "refund" in user.lower():
            result = response.response or {}
            args = {
                "order_id": order,
                "amount": result.get("total", 0),
                "reason": "arrived broken" if "broken" in user else "customer request",
                "idempotency_key": str(uuid.uuid4()),
            }
            part = types.Part(function_call=types.FunctionCall(name="issue_refund", args=args))
        elif response.name == "issue_refund":
            result = response.response or {}
            if fixed and result.get("status") == "error":
                reason = result.get("message") or result.get("error") or "it failed"
                part = types.Part(
                    text=f"I could not issue the refund for {order}: {reason}. "
                    "A colleague will contact you."
                )
            else:
                part = types.Part(text=f"Done. Your refund for {order} has been issued.")
        else:
            status = (response.response or {}).get("status", "being processed")
            part = types.Part(text=f"Order {order} is {status}.")
        yield LlmResponse(content=types.Content(role="model", parts=[part]))


_calls = [0]


def _flip() -> bool:
    """True on every other final answer of the process: runs disagree."""
    _calls[0] += 1
    return _calls[0] % 2 == 0


def make_agent(**model: bool) -> LlmAgent:
    """The support agent and its billing sub-agent; ``model`` sets
    SupportModel's switches (fixed, skip_lookup, flaky)."""
    billing = LlmAgent(
        name="billing_agent",
        model=SupportModel(model="scripted-billing"),
        instruction="Billing questions.",
        tools=[lookup_invoice],
    )
    return LlmAgent(
        name="support_agent",
        model=SupportModel(model="scripted-support", **model),
        instruction="Help customers with orders.",
        tools=[lookup_order, issue_refund, escalate],
        sub_agents=[billing],
    )


buggy_agent = make_agent(fixed=False)
fixed_agent = make_agent(fixed=True)
