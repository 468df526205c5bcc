"""``miner init``: a starting pipeline config from an export miner has not seen.

Reads the trace export (and the feedback export, when given) and finds what a
config must say about the agent, written as commented TOML a person then
reads and edits:

- the plugin dialect of the rows (Python, Java, Go), the app names and the
  agents;
- every tool the agent called, from its tool-call rows (and, for Go, the
  model's calls in EVENT rows);
- the session-state key holding the signed-in customer: an id-like state value
  that the agent's tool calls use again, under a key that names a customer,
  user or account;
- id-like values in tool arguments and the starting state (order numbers,
  customer ids...) as ``[[identifiers]]``: a pattern from their shape
  (``ORD-88121`` -> ``\\bORD-\\d{5}\\b``) and the keys they appear under;
- escalation tools and handoff agents, by their names;
- the feedback export's session, invocation and rating columns, and which
  ratings are negative.

The config drafts the export as it is; everything found is a guess that says
so in a comment. Nothing of the trace but names (apps, agents, tools, keys,
columns) and the shapes of ids reaches the file: no id, text or value.
"""

from __future__ import annotations

import os
import re
import tempfile
import tomllib
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from miner.config import DEFAULT_VOLATILE_ARGS, config_from_toml
from miner.config_paths import is_remote
from miner.dialects import arrow_rows, parse_payload, read_event
from miner.errors import InputError, OutputError

#: Rows read to learn the export's shape: enough for every tool of a real
#: agent, few enough that init stays quick on a month of traces.
MAX_ROWS = 200_000

#: Key words that name the signed-in party in a session's state.
_CUSTOMER_WORDS = ("customer", "user", "account", "member", "client", "cust", "patient", "guest")
#: Names of tools and agents that hand the session to a person.
_ESCALATION = re.compile(r"escalat|handoff|hand_off|human|supervisor|live_agent", re.I)
#: A value that looks like an identifier: letters, digits and separators, at
#: least three digits, no spaces (order numbers, customer ids, booking refs).
_ID_LIKE = re.compile(r"^(?=(?:.*\d){3})[A-Za-z0-9][A-Za-z0-9_/.-]{2,39}$")
#: Shapes that change from run to run or are not ids: UUIDs, dates, times, amounts.
_NOT_AN_ID = re.compile(
    r"^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{4}-\d{2}-\d{2}.*|"
    r"\d+(?:\.\d+)?|\d{1,2}[:/.]\d{1,2}(?:[:/.]\d{2,4})?)$",
    re.I,
)
#: A run of letters, of digits, or one other character: the pieces of a shape.
_PIECES = re.compile(r"[A-Za-z]+|\d+|.")
#: Digit-only ids shorter than this stay out of the free-text patterns: a
#: pattern like \b\d{6}\b would take amounts, years and codes with it.
_MIN_BARE_DIGITS = 8
#: Characters a regex reads as syntax outside a class (``-`` is not one).
_REGEX_SPECIAL = re.compile(r"[.^$*+?{}\[\]\\|()]")
#: A state value that is an e-mail address or a phone number: redaction
#: replaces it, so the config needs made-up fixtures of each kind.
_CONTACT_SHAPES = (
    ("EMAIL_ADDRESS", re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")),
    ("PHONE_NUMBER", re.compile(r"^\+?(?=(?:\D*\d){7,15}\D*$)[\d\s().-]{7,24}$")),
)
#: Made-up contact fixtures: example.com is reserved for examples (RFC 2606),
#: 555-01xx numbers for fiction; never a customer's.
CONTACT_FIXTURES = {
    "EMAIL_ADDRESS": ("customer.one@example.com", "customer.two@example.com",
                      "customer.three@example.com"),
    "PHONE_NUMBER": ("+1 555 0100 001", "+1 555 0100 002", "+1 555 0100 003"),
}  # fmt: skip
_CONTACT_WORDS = {"EMAIL_ADDRESS": "e-mail addresses", "PHONE_NUMBER": "phone numbers"}
#: Rating columns by name, most specific first.
_RATING_COLUMNS = ("score", "rating", "thumbs", "vote", "feedback", "sentiment", "label")
_NEGATIVE_WORDS = re.compile(r"down|negative|bad|dislike|unhelpful|poor|thumbs_down|^no$", re.I)


@dataclass(frozen=True)
class Identifier:
    entity: str
    pattern: str
    keys: tuple[str, ...]
    values: int
    """How many distinct values had this shape (a count, never a value)."""
    examples: tuple[str, ...]
    """Made-up values of the same shape (``ORD-00001``...), for fixtures."""


@dataclass(frozen=True)
class Feedback:
    path: Path
    session_column: str | None
    invocation_column: str | None
    score_column: str | None
    negative_max_score: float | None
    negative_values: tuple[str, ...]
    ratings: str
    """What the rating column holds, in words (``-1 and 1``, ``3 strings``)."""

    @property
    def usable(self) -> bool:
        """A draft can read it: a rating, and a session or invocation column."""
        return self.score_column is not None and bool(self.session_column or self.invocation_column)


@dataclass
class Discovery:
    """What init learned from the export: names, counts and shapes only."""

    rows: int = 0
    truncated: bool = False
    sessions: int = 0
    first_day: date | None = None
    last_day: date | None = None
    dialects: Counter[str] = field(default_factory=Counter)
    apps: Counter[str] = field(default_factory=Counter)
    root_agents: Counter[str] = field(default_factory=Counter)
    agents: Counter[str] = field(default_factory=Counter)
    tools: Counter[str] = field(default_factory=Counter)
    transfers: Counter[str] = field(default_factory=Counter)
    state_keys: Counter[str] = field(default_factory=Counter)
    contact_keys: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    """Entity type -> state keys holding values of that kind (names only)."""
    signed_in_key: str | None = None
    identifiers: tuple[Identifier, ...] = ()
    feedback: Feedback | None = None

    @property
    def app_name(self) -> str:
        if self.apps:
            return self.apps.most_common(1)[0][0]
        if self.root_agents:
            return self.root_agents.most_common(1)[0][0]
        return "my_agent"


@dataclass
class _Seen:
    """Per-key values while reading; dropped once their shapes are known."""

    values: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    state_values: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    state_values_in_args: Counter[str] = field(default_factory=Counter)


#: Columns init reads: what names apps, agents, tools and state.
_COLUMNS = ("timestamp", "event_type", "agent", "session_id", "content", "attributes", "event_id")


def discover(export: Any, feedback: Path | None = None, max_rows: int = MAX_ROWS) -> Discovery:
    """Read up to ``max_rows`` rows of ``export`` (a ``source.Export``) and the
    feedback export, and say what a config for them needs."""
    from miner import source

    found = Discovery()
    seen = _Seen()
    sessions: dict[str, dict[str, Any]] = {}
    start, end = datetime(1900, 1, 1, tzinfo=UTC), datetime(9000, 1, 1, tzinfo=UTC)
    for batch in source.scan_batches(export, _COLUMNS, start, end):
        for row in arrow_rows(batch):
            if found.rows >= max_rows:
                found.truncated = True
                break
            found.rows += 1
            _read_row(row, found, seen, sessions)
        if found.truncated:
            break
    if not found.rows:
        raise InputError(f"{export.path}: no rows with a session id; nothing to learn from")
    found.sessions = len(sessions)
    found.identifiers = _identifiers(seen)
    found.signed_in_key = _signed_in_key(seen, found.identifiers)
    if found.signed_in_key and not any(found.signed_in_key in i.keys for i in found.identifiers):
        found.identifiers = (*found.identifiers, *_identifiers(seen, only=found.signed_in_key))
    if feedback is not None:
        found.feedback = read_feedback_columns(feedback)
    return found


def _read_row(row: Any, found: Discovery, seen: _Seen, sessions: dict[str, Any]) -> None:
    event = read_event(row)
    found.dialects[event.dialect] += 1
    day = row.timestamp.date() if isinstance(row.timestamp, datetime) else None
    if day is not None:
        found.first_day = min(found.first_day or day, day)
        found.last_day = max(found.last_day or day, day)
    session = sessions.get(row.session_id)
    agent = getattr(row, "agent", None)
    if isinstance(agent, str) and agent:
        found.agents[agent] += 1
    if session is None:
        session = sessions[row.session_id] = {"state": None}
        if isinstance(agent, str) and agent:
            found.root_agents[agent] += 1
    if session["state"] is None:
        attributes = parse_payload(getattr(row, "attributes", None), row, "attributes")
        metadata = attributes.get("session_metadata") if isinstance(attributes, dict) else None
        if isinstance(metadata, dict):
            app = metadata.get("app_name")
            if isinstance(app, str) and app:
                found.apps[app] += 1
            state = metadata.get("state")
            session["state"] = state if isinstance(state, dict) else {}
            for key, value in _leaves(session["state"]):
                found.state_keys[key] += 1
                if _id_like(value):
                    seen.state_values[key].add(value)
                for entity, shape in _CONTACT_SHAPES:
                    if shape.match(value):
                        found.contact_keys[entity].add(key)
    calls = [(event.tool, event.args)] if event.tool else []
    calls += [(name, args) for name, args in event.calls]
    for name, args in calls:
        if not name:
            continue
        found.tools[name] += 1
        for key, value in _leaves(args or {}):
            if _id_like(value) and key.lower() not in DEFAULT_VOLATILE_ARGS:
                seen.values[key].add(value)
                for state_key, state_value in _leaves(session["state"] or {}):
                    if state_value == value:
                        seen.state_values_in_args[state_key] += 1
    if event.transfer_to:
        found.transfers[event.transfer_to] += 1


def _leaves(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """(key, string) for every string under a key, however deep."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, str(k))
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v, key)
    elif isinstance(value, str) and key:
        yield key, value


def _id_like(value: str) -> bool:
    return bool(_ID_LIKE.match(value)) and not _NOT_AN_ID.match(value)


def _skeleton(value: str) -> tuple[str, ...]:
    """A value's shape with digit runs as ``#``: ``ORD-88121`` -> ``(ORD, -, #)``."""
    return tuple("#" if p.isdigit() else p for p in _PIECES.findall(value))


def _shape(values: Iterable[str]) -> tuple[str, str] | None:
    """(regex, made-up example) of values that share one skeleton; letter runs
    that differ between values become classes. None if they share none."""
    split = [_PIECES.findall(v) for v in values]
    if not split or len({_skeleton(v) for v in values}) != 1:
        return None
    pattern, example = [], []
    for column in zip(*split, strict=True):
        first = column[0]
        if first.isdigit():
            low, high = min(map(len, column)), max(map(len, column))
            pattern.append(rf"\d{{{low}}}" if low == high else rf"\d{{{low},{high}}}")
            example.append("0" * (low - 1) + "1")
        elif first.isalpha() and len(set(column)) > 1:
            low, high = min(map(len, column)), max(map(len, column))
            letters = "A-Z" if all(p.isupper() for p in column) else "A-Za-z"
            size = f"{{{low}}}" if low == high else f"{{{low},{high}}}"
            pattern.append(f"[{letters}]{size}")
            example.append("X" * low)
        else:
            pattern.append(_REGEX_SPECIAL.sub(r"\\\g<0>", first))
            example.append(first)
    body = "".join(pattern)
    if all(p.isdigit() for p in split[0]) and min(len(v) for v in values) < _MIN_BARE_DIGITS:
        return None
    return rf"\b{body}\b", "".join(example)


def _entity(key: str) -> str:
    """``orderId`` / ``order_id`` -> ``ORDER_ID``."""
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", key)
    name = re.sub(r"[^A-Za-z0-9]+", "_", snake).strip("_").upper() or "IDENTIFIER"
    return name if name[0].isalpha() else f"ID_{name}"


def _identifiers(seen: _Seen, only: str | None = None) -> tuple[Identifier, ...]:
    """One identifier per shape of argument values; its keys are every key with
    values of that shape, state keys included. With ``only``, the identifier of
    that state key's values alone (the signed-in customer's, when no argument
    has its shape)."""
    if only is not None:
        groups = _by_shape({only: seen.state_values.get(only, set())})
    else:
        groups = _by_shape(seen.values)
        for pattern, members in _by_shape(seen.state_values).items():
            if pattern in groups:
                known = dict(groups[pattern])
                for key, values in members:
                    if key in known:
                        known[key] |= values
                    else:
                        groups[pattern].append((key, values))
    found = []
    for pattern, members in groups.items():
        members.sort(key=lambda m: (-len(m[1]), m[0]))
        values = set().union(*(m[1] for m in members))
        example = _shape(sorted(members[0][1]))
        assert example is not None
        found.append(
            Identifier(
                entity=_entity(members[0][0]),
                pattern=pattern,
                keys=tuple(m[0] for m in members),
                values=len(values),
                examples=_made_up(example[1], values),
            )
        )
    entities: Counter[str] = Counter()
    unique = []
    for ident in sorted(found, key=lambda i: (-i.values, i.entity)):
        entities[ident.entity] += 1
        n = entities[ident.entity]
        unique.append(ident if n == 1 else replace(ident, entity=f"{ident.entity}_{n}"))
    return tuple(unique)


def _by_shape(by_key: dict[str, set[str]]) -> dict[str, list[tuple[str, set[str]]]]:
    """pattern -> [(key, its values of that shape)]; a key whose values come in
    two shapes (``ORD-88121`` and ``88121``) is in both."""
    groups: dict[str, list[tuple[str, set[str]]]] = defaultdict(list)
    for key, values in sorted(by_key.items()):
        by_skeleton: dict[tuple[str, ...], set[str]] = defaultdict(set)
        for value in values:
            by_skeleton[_skeleton(value)].add(value)
        for same in by_skeleton.values():
            shape = _shape(sorted(same))
            if shape:
                groups[shape[0]].append((key, same))
    return groups


def _made_up(example: str, taken: set[str], count: int = 4) -> tuple[str, ...]:
    """``count`` made-up values of the shape that no session holds (a fixture
    that equals a real id would look like a leak, and be one)."""
    digits = list(re.finditer(r"\d+", example))
    if not digits:
        return (example,)
    last = digits[-1]
    width = len(last.group(0))
    made: list[str] = []
    for n in range(1, 10**width):
        candidate = example[: last.start()] + str(n).zfill(width) + example[last.end() :]
        if candidate not in taken:
            made.append(candidate)
            if len(made) == count:
                break
    return tuple(made) or (example,)


def _signed_in_key(seen: _Seen, identifiers: tuple[Identifier, ...]) -> str | None:
    """The state key of the signed-in customer: id-like values, a key that
    names a customer, user or account, values the tool calls use again."""
    best: tuple[int, str] | None = None
    for key, values in seen.state_values.items():
        if not values or _shape(sorted(values)) is None:
            continue
        score = 2 * any(w in key.lower() for w in _CUSTOMER_WORDS)
        score += 2 * (seen.state_values_in_args[key] > 0)
        score += any(key in i.keys for i in identifiers)
        if score >= 2 and (best is None or (score, key) > best):
            best = (score, key)
    return best[1] if best else None


def read_feedback_columns(path: Path) -> Feedback:
    """The feedback export's columns: which says the session, the invocation,
    the rating, and which ratings are negative."""
    import pyarrow as pa
    import pyarrow.dataset as ds

    from miner.source import unreadable_file

    if not path.exists():
        raise InputError(f"{path}: no such file or folder")
    try:
        dataset = ds.dataset(path, format="parquet")
        names = dataset.schema.names
        session = _column(names, ("session_id", "session"))
        invocation = _column(names, ("invocation_id", "invocation", "turn_id"))
        score = next((c for w in _RATING_COLUMNS for c in names if w in c.lower()), None)
        values: list[Any] = []
        if score is not None:
            values = dataset.to_table(columns=[score]).column(0).drop_null().to_pylist()[:100_000]
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(unreadable_file(path, exc)) from None
    max_score: float | None = None
    negative: tuple[str, ...] = ()
    numbers = sorted({v for v in values if isinstance(v, int | float) and not isinstance(v, bool)})
    words = sorted({v for v in values if isinstance(v, str)})
    if numbers:
        low, high = numbers[0], numbers[-1]
        # Thumbs (-1/1, 0/1): zero and below; a 1-5 scale: 1 and 2.
        max_score = 0 if low >= -1 and high <= 1 else low + (high - low) * 0.25
        ratings = f"numbers from {_number(low)} to {_number(high)}"
    else:
        negative = tuple(w for w in words if _NEGATIVE_WORDS.search(w))
        ratings = f"{len(words)} distinct strings" if words else "no ratings"
    return Feedback(path, session, invocation, score, max_score, negative, ratings)


def _column(names: list[str], wanted: tuple[str, ...]) -> str | None:
    exact = [n for n in names if n.lower() in wanted]
    return exact[0] if exact else next((n for n in names if wanted[-1] in n.lower()), None)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


# --- the TOML -----------------------------------------------------------------


def _string(value: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    import json

    return json.dumps(value, ensure_ascii=False)


def _literal(value: str) -> str:
    """A regex as a TOML literal string, so backslashes stay as written."""
    return f"'{value}'" if "'" not in value and "\n" not in value else _string(value)


def _strings(values: Iterable[str], indent: int = 0) -> str:
    items = [_string(v) for v in values]
    line = f"[{', '.join(items)}]"
    if len(line) + indent <= 88:
        return line
    return "[\n" + "".join(f"    {item},\n" for item in items) + "]"


def _relative(target: str | Path, config: Path) -> str:
    """As the config will say it: relative to its folder when it is near
    (``../sample_traces/traces``), absolute when it is elsewhere."""
    if is_remote(target):
        return str(target)
    absolute = Path(target).resolve()
    relative = os.path.relpath(absolute, config.resolve().parent)
    return str(absolute) if relative.startswith(f"..{os.sep}..") else relative


def drafts_folder(config: Path) -> Path:
    """Where a config's drafts go: ``drafts/<config name>/``, a folder of its
    own (the sample's demo drafts into ``drafts/support_agent/``), so two
    agents' drafts, ledgers and reviews never mix."""
    return Path("drafts") / config.stem


def draft_command(found: Discovery, out: Path) -> str:
    """The command that drafts the export ``found`` was learned from: its own
    days, not ``--since 7d``, since an export read today may end weeks ago."""
    since = f" --since {found.first_day}" if found.first_day else ""
    return f"miner draft --pipeline {out}{since} --until latest --out {drafts_folder(out)}"


#: Said in the config and on stderr when the export holds no tool call.
NO_TOOLS = "no tool call in the export: list the agent's tools in [agent] tools by hand"


def render(found: Discovery, traces: str | Path, out: Path) -> str:
    """The commented config for ``found``; paths relative to ``out``'s folder."""
    dialects = ", ".join(f"{d} ({n} rows)" for d, n in found.dialects.most_common())
    read = f"{found.rows} rows" + (" (the first rows only)" if found.truncated else "")
    lines = [
        f"# Pipeline config written by `miner init` from {traces}:",
        f"# {read}, {found.sessions} sessions, {found.first_day} .. {found.last_day}.",
        f"# Plugin dialect: {dialects} (miner reads each row in its own shape).",
        "# Everything below is a guess from the export: read it, then draft with",
        f"#   {draft_command(found, out)}",
        "# Every key, its type and default: docs/config.md. Paths are relative to this file.",
        "",
        "[agent]",
    ]
    if len(found.apps) > 1:
        others = ", ".join(f"{a} ({n} sessions)" for a, n in found.apps.most_common())
        lines.append(f"# Apps in the export: {others}; every app's sessions are drafted.")
    elif not found.apps:
        lines.append(
            "# The rows carry no session_metadata (the Go plugin writes none): the app name"
        )
        lines.append("# is the agent that opened most sessions. Set it to the app's name.")
    lines.append(f"app_name = {_string(found.app_name)}")
    agents = ", ".join(f"{a} ({n} rows)" for a, n in found.agents.most_common())
    if agents:
        lines.append(f"# Agents seen: {agents}.")
    lines.append("# Every tool the agent called (a case naming another tool is refused):")
    tools = sorted(found.tools)
    if not tools:
        lines.append(f"# {NO_TOOLS}.")
    lines.append(f"tools = {_strings(tools, 8)}")
    lines += ["", "[sources]", f"traces = {_string(_relative(traces, out))}"]
    feedback = found.feedback
    if feedback is not None and feedback.usable:
        lines.append(f"feedback = {_string(_relative(feedback.path, out))}")
        lines += _feedback_table(feedback)
    elif feedback is not None:
        # Left out: a draft with it would stop on the missing column.
        lines.append("# The feedback export has no column that looked like a rating and a session")
        lines.append("# or invocation id; name them in [feedback], then set:")
        lines.append(f"# feedback = {_string(_relative(feedback.path, out))}")
        lines += [f"# {line}" if line and not line.startswith("#") else line
                  for line in _feedback_table(feedback)]  # fmt: skip
    else:
        lines.append('# feedback = "feedback.parquet"   # the app\'s ratings, if it keeps them')
    lines += _escalation_table(found)
    lines += _identifier_tables(found)
    lines += _fixtures_table(found)
    lines += _score_table()
    return "\n".join(lines) + "\n"


def _feedback_table(feedback: Feedback) -> list[str]:
    lines = ["", "[feedback]", f"# The ratings column holds {feedback.ratings}."]
    for key, column in (
        ("session_column", feedback.session_column),
        ("invocation_column", feedback.invocation_column),
        ("score_column", feedback.score_column),
    ):
        if column is None:
            lines.append(f'# {key} = "..."   # no column looked like it: name yours')
        else:
            lines.append(f"{key} = {_string(column)}")
    if feedback.negative_values:
        lines.append(f"negative_values = {_strings(feedback.negative_values, 18)}")
    elif feedback.negative_max_score is not None:
        score = _number(feedback.negative_max_score)
        lines.append(f"negative_max_score = {score}   # a rating at or below this is negative")
    return lines


def _escalation_table(found: Discovery) -> list[str]:
    tools = sorted(t for t in found.tools if _ESCALATION.search(t))
    agents = sorted(a for a in {*found.agents, *found.transfers} if _ESCALATION.search(a))
    lines = ["", "# A call to one of these tools, or a transfer to one of these agents, is an"]
    lines += ["# escalation (a session worth a case). Found by their names: check them.", ""]
    lines += ["[signals.escalation]", f"tools = {_strings(tools)}"]
    lines.append(f"handoff_agents = {_strings(agents)}")
    return lines


def _identifier_tables(found: Discovery) -> list[str]:
    if not found.identifiers:
        return [
            "",
            "# No id-like values (ORD-12345, CUST-00042...) in the tool arguments: add an",
            "# [[identifiers]] table for each kind of id your agent handles (docs/config.md).",
        ]
    lines = [
        "",
        "# Id-like values in tool arguments and state: each shape becomes an entity that",
        "# redaction replaces, in free text by the pattern and under the keys whatever the format.",
    ]
    for ident in found.identifiers:
        lines += [
            "",
            "[[identifiers]]",
            f"# {ident.values} distinct value(s) of this shape seen.",
            f"entity = {_string(ident.entity)}",
            f"pattern = {_literal(ident.pattern)}",
            f"keys = {_strings(ident.keys, 7)}",
        ]
    return lines


def _fixtures_table(found: Discovery) -> list[str]:
    lines = ["", "[fixtures]"]
    signed_in = next((i for i in found.identifiers if found.signed_in_key in i.keys), None)
    if found.signed_in_key and signed_in:
        lines.append("# The state key holding the signed-in customer; in every case it becomes")
        lines.append("# eval_customer (a made-up id of the same shape).")
        lines.append(f"signed_in_key = {_string(found.signed_in_key)}")
        lines.append(f"eval_customer = {_string(signed_in.examples[0])}")
    else:
        keys = ", ".join(k for k, _n in found.state_keys.most_common(8))
        if keys:
            lines.append("# No state key looked like the signed-in customer's id (state keys")
            lines.append(f"# seen: {keys}). Set signed_in_key to the key your agent reads it from.")
        else:
            lines.append("# The rows carry no session state (the Go plugin logs none): cases")
            lines.append("# start from an empty state and signed_in_key finds nothing.")
    lines += ["", "# Made-up values, handed out in order in each case: of each id's shape,"]
    lines += ["# and e-mail addresses and phone numbers.", "", "[fixtures.values]"]
    for ident in found.identifiers:
        values = ident.examples[1:] if ident is signed_in else ident.examples[:3]
        lines.append(f"{ident.entity} = {_strings(values, len(ident.entity) + 3)}")
    lines += _contact_fixtures(found)
    return lines


def _contact_fixtures(found: Discovery) -> list[str]:
    """E-mail and phone fixtures: redaction replaces those in the starting
    state too, and a fixture keeps the case replayable where a
    ``<EMAIL_ADDRESS_1>`` stand-in would not be."""
    lines = []
    for entity, values in CONTACT_FIXTURES.items():
        keys = sorted(found.contact_keys.get(entity, ()))
        if keys:
            lines.append(
                f"# The session state holds {_CONTACT_WORDS[entity]} under {', '.join(keys)}."
            )
        lines.append(f"{entity} = {_strings(values, len(entity) + 3)}")
    return lines


def _score_table() -> list[str]:
    return [
        "",
        "# How `miner score` judges a replayed run. A case's required facts, forbidden",
        "# claims, trajectory and must-not-call decide it; word overlap with the reference",
        "# answer (ROUGE-1, ADK's response_match_score) is reported for every turn and",
        "# checked only if you set a threshold here (one case: responseMatchThreshold in",
        "# its sidecar). promote writes the same criteria into the suite's test_config.json",
        "# for `adk eval`. docs/replay.md.",
        "[score]",
        "# response_match_threshold = 0.8   # ADK's default; unset: overlap is a report",
    ]


def default_out(found: Discovery) -> Path:
    """``pipelines/<app name>.toml``, the name made safe for a file."""
    name = re.sub(r"[^A-Za-z0-9_-]+", "_", found.app_name).strip("_") or "my_agent"
    return Path("pipelines") / f"{name}.toml"


def write_new(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` only if no file is there: never overwrites,
    and never leaves half a file (written beside it, then linked into place)."""
    if path.exists():
        raise OutputError(f"{path}: already exists; refusing to overwrite it (pass another --out)")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, staged = tempfile.mkstemp(prefix=".miner-init-", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.link(staged, path)  # fails if another process wrote path meanwhile
        finally:
            os.unlink(staged)
    except FileExistsError:
        raise OutputError(f"{path}: already exists; refusing to overwrite it") from None
    except OSError as exc:
        raise OutputError(f"{path}: cannot write ({exc.strerror})") from None


def checked(text: str, out: Path) -> str:
    """The rendered config, proved to load as a config (a bug here must not
    hand the user a file miner then refuses)."""
    config_from_toml(tomllib.loads(text), out)
    return text
