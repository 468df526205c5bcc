"""E-mail addresses whose ``@`` is spelt out: an airline's GDS form
(``NAME//DOMAIN.TLD``) and ``name (at) domain.tld``."""

from __future__ import annotations

from typing import Any

from miner.redaction.lexicon.formats import spelt_out_emails
from miner.redaction.recognizers.result import LoadsNothing, result


class SpeltOutEmailRecognizer(LoadsNothing):
    """E-mail addresses whose ``@`` is spelt out (``spelt_out_emails``):
    their domain ends in a real public suffix, so they are as sure as any
    other e-mail address and replaced like one."""

    def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
        return [
            result(self, "EMAIL_ADDRESS", start, end, 0.85) for start, end in spelt_out_emails(text)
        ]
