"""E-mail addresses, their domain checked against the public suffix list
bundled with tldextract (Presidio's own recognizer fetches it over the
network unless told not to)."""

from __future__ import annotations

import functools
from typing import Any

import tldextract
from presidio_analyzer.predefined_recognizers import EmailRecognizer


@functools.cache
def _offline_tld() -> Any:
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


class OfflineEmailRecognizer(EmailRecognizer):  # type: ignore[misc]
    def validate_result(self, pattern_text: str) -> bool:
        return bool(_offline_tld()(pattern_text).fqdn)
