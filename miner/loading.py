"""Loading what a process keeps to its end (the NLP model and Presidio's
registry, google-adk's eval-set models) without the garbage collector
walking it again and again.

CPython's collector runs a full collection each time the objects that
survived earlier ones grow by a quarter. Loading spaCy, Presidio and ADK's
pydantic models creates about 250,000 such objects, so a 20-case draft ran
seven full collections, each walking everything loaded so far, and found
almost nothing to free (at most a few hundred objects each): 1.0 s of its
12 s CPU, and 0.5 s more of younger collections (docs/performance.md, "Where
the fixed cost of a run goes"). ``for_the_whole_run`` turns the collector
off while one such thing loads, then freezes what is alive (``gc.freeze``):
later collections skip it. Objects freed by their reference count are freed
as before; only cyclic garbage made during the load is kept, and loads make
little.
"""

from __future__ import annotations

import contextlib
import functools
import gc
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def for_the_whole_run() -> Iterator[None]:
    """Load what the block loads with the collector off, then freeze
    everything alive out of the collector's view."""
    # A zero threshold, not gc.disable(): spaCy's model reader (srsly)
    # disables and re-enables the collector around each file it unpacks.
    thresholds = gc.get_threshold()
    gc.set_threshold(0)
    try:
        yield
    finally:
        gc.freeze()
        gc.set_threshold(*thresholds)


@functools.cache
def adk_eval_set() -> Any:
    """google-adk's own ``EvalSet`` model (docs/formats.md: every drafted
    case must load with it), imported once."""
    with for_the_whole_run():
        from google.adk.evaluation.eval_set import EvalSet
    return EvalSet
