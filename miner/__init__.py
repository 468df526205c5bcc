"""miner: turn the bad sessions of an ADK agent into reviewable eval cases.

Stages, one module each, each a function from data to data:
``sample`` (pick sessions, with the signals of ``signals/``), ``redact``
(Presidio), ``fixtures`` (consistent stand-ins), ``draft`` (eval set +
sidecar). ``dialects`` and ``traces`` turn event rows into sessions, ``files``
does all file I/O, ``errors`` holds the one exception family, ``cli`` is the
thin command line on top, and ``job`` wires the stages.
"""

__version__ = "0.1.0"
