"""The redaction policy: the one object that decides what is personal.

Built once per command from the pipeline config (``policy_for``) and handed to
every stage that needs the decision: ``draft`` redacts and guards with it,
``check`` and ``promote`` read cases with it, the workbench checks with it. So
the detector, the key rules, the identifier patterns, the allowed values
(what the fixtures stage writes) and the leak guard exist once, and the draft
and the check cannot disagree about them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from miner.config import DEFAULT_ALLOW, PipelineConfig
from miner.fixtures import fixture_values
from miner.model import Session
from miner.redaction.detector import Detector, detector_for
from miner.redaction.guard import LeakGuard
from miner.redaction.keys import KeyRules
from miner.redaction.redacted import Redacted
from miner.redaction.second import SecondModel, SecondOpinion
from miner.redaction.session import (
    redact_sessions,
    replaced_with_parts,
    with_address_pieces_linked,
    with_cut_values_resurfaced,
    with_people_decided,
    with_rest_surfaced,
    with_sure_rules_decided,
)
from miner.redaction.sweep import Sweep
from miner.redaction.unsure import Unsure
from miner.redaction.verdict import Detection
from miner.redaction.walk import canonical_session

#: A progress wrapper: (iterable, total) -> iterable.
Progress = Callable[[Iterable[Any], int], Iterable[Any]]


def policy_for(config: PipelineConfig) -> RedactionPolicy:
    """The policy for ``config``: checks the spaCy model is installed and
    shares the process's detector for the same redaction setup (building one
    loads spaCy: seconds). The rest of the policy is cheap to build."""
    return RedactionPolicy(config, detector_for(config))


class RedactionPolicy:
    """What is personal in one pipeline's sessions, and what is allowed.

    - ``redact(sessions)``: the session pass, one ``Redacted`` per session;
    - ``detect(texts)``: the detector's (entity, value) hits of each text;
    - ``leaks(strings, originals)``: the leak guard's hits per entity type;
    - ``allows(value)``: whether a value is one miner writes itself (a
      fixture value or the eval user), in any case.

    Each span gets one verdict: replaced (the session pass), kept (the key
    rules, the allow list, the detector's filters) or surfaced (``unsure``:
    what no sure rule took and may be personal, left for the reviewer).
    """

    def __init__(self, config: PipelineConfig, detector: Detector) -> None:
        self.config = config
        self.detector = detector
        self.keys = KeyRules(config)
        #: (entity, pattern) of each configured identifier.
        self.identifier_patterns: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
            (i.entity, re.compile(i.pattern)) for i in config.identifiers
        )
        #: What miner itself writes into a case: not personal wherever it stands.
        self.allowed: frozenset[str] = frozenset(
            {*fixture_values(config.fixtures), config.fixtures.eval_user}
        )
        self._allowed_folded = frozenset(v.lower() for v in self.allowed)
        self.guard = LeakGuard(config.redaction.phone_regions, self.allowed)
        #: What the policy surfaces instead of deciding (miner/redaction/unsure/).
        self.unsure = Unsure(config.redaction.unsure, (*DEFAULT_ALLOW, *config.redaction.allow))
        #: The second model asked about what is surfaced (miner/redaction/second.py).
        self.second: SecondOpinion | None = (
            SecondOpinion(replaced_with=replaced_with_parts)
            if config.redaction.second_model
            else None
        )
        #: The same model's sweep of what the policy finished with (sweep.py).
        sweep_chars = config.redaction.unsure.sweep_chars
        self.sweep: Sweep | None = (
            Sweep(sweep_chars) if config.redaction.second_model and sweep_chars else None
        )

    @property
    def model(self) -> str:
        """What NER runs on, for the run summary: "<package> <version>"."""
        return self.detector.model

    def redact(
        self, sessions: list[Session], progress: Progress = lambda it, _n: it
    ) -> list[Redacted]:
        """Redact every session (distinct strings are analysed once, in batches),
        its texts read and written in one form (``walk.canonical``)."""
        sessions = [canonical_session(s) for s in sessions]
        # What a rule sure enough surfaced is replaced before the model reads
        # the rest, and what stands beside it read again, as beside the
        # model's ("Nguyễn Văn An": the slot's rule takes "Nguyễn Văn", the
        # word after it is read once it is a placeholder).
        redacted = [
            with_rest_surfaced(r, with_sure_rules_decided(r), self)
            for r in redact_sessions(sessions, self, progress)
        ]
        # The second model: loaded once, at the first of its two uses that
        # needs it, and released after the second.
        with SecondModel() as second_model:
            # The one hook of its decisions: it decides some surfaced values;
            # what stands beside a value it replaced is read again.
            if self.second is not None:
                decided = self.second.decide(sessions, redacted, second_model)
                redacted = [
                    with_rest_surfaced(b, a, self) for b, a in zip(redacted, decided, strict=True)
                ]
            # What neither the rules nor the model's decisions replaced or
            # surfaced, the model reads once more: what it finds personal
            # there is surfaced, never replaced nor kept.
            if self.sweep is not None:
                redacted = self.sweep.surfaced(
                    redacted, self.allows, self.unsure.allowed_spans, second_model
                )
        # Then a surfaced name that is a replaced person's is that person's;
        # a surfaced value placeholders cut into is surfaced as its rest; and
        # an address's pieces placeholders cut apart are one decision.
        return [
            with_address_pieces_linked(with_cut_values_resurfaced(with_people_decided(r)))
            for r in redacted
        ]

    def detect(self, texts: list[str]) -> Iterator[list[tuple[str, str]]]:
        """(entity, value) found in each text, in order (``Detector.detect``)."""
        return self.detector.detect(texts)

    def detections(self, texts: list[str]) -> Iterator[list[Detection]]:
        """Each text's detections with their verdicts (``Detector.detections``)."""
        return self.detector.detections(texts)

    def leaks(self, strings: Iterable[str], originals: Mapping[str, str] = {}) -> Counter[str]:
        """Entity type -> leak guard hits over ``strings``; empty when clean."""
        return self.guard.scan(strings, originals)

    def allows(self, value: str) -> bool:
        """Whether ``value`` is one miner writes itself, in any case."""
        return value.lower() in self._allowed_folded
