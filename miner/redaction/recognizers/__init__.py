"""miner's own Presidio recognizers, one class per module.

Presidio's stock recognizers miss shapes that agent traces are full of (see
docs/redaction.md): a phone number without a context word
scores 0.4, under any useful threshold; the card regex has no Mastercard
2-series; an unformatted SSN scores 0.05 even after "ssn"; there is no street
address recognizer. Each class here fixes one of those with Presidio's own
mechanisms (recognizers, context words, validation), so the analyzer's
threshold, allow list and context enhancer still apply. ``registry`` builds
them all; the data and checks they use are in ``miner.redaction.lexicon``.

These modules import Presidio: only the detector imports them, inside
``runtime.without_transformers``.
"""
