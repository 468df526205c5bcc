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
import ctypes
import ctypes.util
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


def release_freed_memory() -> None:
    """Hand the heap freed so far back to the system: glibc keeps freed
    pages for reuse (``malloc_trim`` returns them), and so does Arrow's
    allocator (mimalloc). Called between stages whose peaks would otherwise
    stack: the selection and the picked rows' read before the model loads,
    the first redaction pass before the second model loads, the second model
    before google-adk's models are imported (docs/performance.md, "What
    bounds memory")."""
    import pyarrow as pa

    pa.default_memory_pool().release_unused()
    with contextlib.suppress(OSError, AttributeError):
        _libc().malloc_trim(0)


@functools.cache
def _libc() -> Any:
    return ctypes.CDLL(ctypes.util.find_library("c"))
