"""miner: turn the bad sessions of an ADK agent into reviewable eval cases.

Stages, one module each, each a function from data to data:
``sample`` (pick sessions, with the signals of ``signals/``), ``redact``
(Presidio), ``fixtures`` (consistent stand-ins), ``draft`` (eval set +
sidecar). ``dialects`` and ``traces`` turn event rows into sessions, ``files``
does all file I/O, ``errors`` holds the one exception family, ``cli`` is the
thin command line on top, and ``job`` wires the stages.
"""

import os as _os

__version__ = "0.1.0"

# Arrow's allocator: the C library's, not mimalloc. A scan frees its batches as
# it goes and mimalloc kept them: a draft over 4M rows peaked ~70 MiB higher.
# Set before pyarrow is first imported (it reads this once); a value the user
# set still wins.
_os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
