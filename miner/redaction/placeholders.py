"""The placeholders redaction writes in place of personal values (``<PERSON_1>``)."""

from __future__ import annotations

import re

PLACEHOLDER = re.compile(r"<([A-Z][A-Z0-9_]*)_(\d+)>")
