"""E-mail addresses, their domain checked against the public suffix list
bundled with tldextract (Presidio's own recognizer fetches it over the
network unless told not to)."""

from __future__ import annotations

from presidio_analyzer.predefined_recognizers import EmailRecognizer

from miner.redaction.lexicon.formats import a_real_domain


class OfflineEmailRecognizer(EmailRecognizer):  # type: ignore[misc]
    def validate_result(self, pattern_text: str) -> bool:
        return a_real_domain(pattern_text)
