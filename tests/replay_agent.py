"""Changed versions of the sample agent (sample_traces/agent.py) for the replay
tests: one that refunds without looking the order up, and one that is fixed
on every other conversation, as a nondeterministic model may be. The shipped
buggy and fixed agents are named here too, for the tests that import them
from this module."""

from __future__ import annotations

from sample_traces.agent import buggy_agent, fixed_agent, make_agent

__all__ = ["buggy_agent", "fixed_agent", "flaky_agent", "skipping_agent"]

skipping_agent = make_agent(fixed=True, skip_lookup=True)
flaky_agent = make_agent(flaky=True)
