"""Stage 2, redaction: find personal data with Presidio and put typed placeholders
(``<EMAIL_ADDRESS_1>``) in its place, consistently within a session.

What is searched: every user message, agent reply, string leaf of tool
arguments and results, tool and agent error messages, and the starting session
state. Dict keys are not (they are schema, not data).

How a value is found to be personal, in order of precedence:
1. it sits under a configured identifier key (``order_id``) or a key named like a
   personal field (``email``, ``phone``, ``billing_address``...); a bare
   ``name`` only in a person-shaped object (``JsonKey`` carries the parent and
   sibling keys that decide it);
2. a configured identifier pattern matches it (``ORD-\\d{5}``);
3. Presidio finds it: spaCy NER (PERSON, LOCATION) from the installed model in
   the config, Presidio's pattern recognizers (an explicit entity list, a score
   threshold), and miner's own recognizers (``miner.redaction.recognizers``:
   validated phones, IIN+Luhn cards, cued SSNs and names, street addresses).

Then every value found anywhere in a session is replaced everywhere in it,
including strings where the detector missed it (a bare order id in a tool
argument has no context words). The same value always gets the same
placeholder; different values get different ones. The replacement itself is
done by presidio-anonymizer with a custom operator that looks the value up.

Why some detections are dropped: DATE_TIME, UK_NHS, US_BANK_NUMBER, URL and
friends are not in the default entity list because on agent traces they fire on
order numbers, amounts and dates the case needs; PERSON/LOCATION hits with
a digit are NER noise on numbers and SKUs; NER hits after "the"/"your" or
inside an allowed phrase name things. What is left after all this is checked
once more by the leak guard (``miner.redaction.guard``) before a case is written.

The package, one module per concern (import from the module, not from here:
``miner.config`` reads ``lexicon.formats`` while it is being imported):

- ``policy``: ``RedactionPolicy``, the one object that decides what is
  personal, built once per config and handed to draft, check, promote and
  the workbench;
- ``detector``: Presidio's analyzer and anonymizer, ``Detector.detect``;
- ``runtime``: the NLP runtime's tuning (spaCy pipes, BLAS, threads);
- ``keys``: the key rules with their defaults;
- ``walk``: the leaves of a session redaction reads and writes;
- ``session``: the session pass (collect, link parts, number, replace);
- ``redacted``: what it makes of a session (``Redacted``);
- ``placeholders``: the placeholder shape;
- ``surfaced``: the values put before the reviewer (``Surfaced``);
- ``guard``: the leak guard;
- ``recognizers``: miner's Presidio recognizers, one class per module;
- ``lexicon``: word lists, regex tables and format checks, no Presidio.
"""
