"""The config reference (docs/config.md), written from the config's models.

Every table and key comes from the pydantic models of ``miner.config`` and of
each signal (``miner.signals``): its type and range from the annotation, its
default from the model, its meaning from the docstring under it. A test holds
docs/config.md equal to ``render()``, so the reference cannot drift from the
code; ``make config-doc`` rewrites it.
"""

from __future__ import annotations

import sys
import types
import typing
from datetime import timedelta
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from miner import config as config_module
from miner.config import IdentifierConfig, PipelineConfig

#: Lists longer than this are shown by their first items and the constant
#: that holds them.
_SHOWN_ITEMS = 6

_INTRO = """\
# Pipeline config reference

One TOML file per agent (`miner init --traces EXPORT` writes a first one;
`pipelines/support_agent.toml` is the sample's). Every table and key is listed
here with its type, its default and what it does. An unknown table or key, a
wrong type or a value out of range stops every command with the file and the
key (exit code 2): a typo never switches a rule off silently. Paths are
relative to the config file.

Commands find the config by `--pipeline PATH`, else `miner.toml` in the
working folder, else the one file in `pipelines/` (with several, they ask
which).

<!-- Written by `make config-doc` from miner/config.py and miner/signals/;
tests/test_config_doc.py fails when it differs. Edit the docstrings, not this file. -->
"""


def render() -> str:
    """The whole reference, as Markdown."""
    parts = [_INTRO]
    for name, info in PipelineConfig.model_fields.items():
        if name == "path":
            continue  # set by the loader: where the file is
        annotation = info.annotation
        if name == "signals":
            parts.append(_signals(annotation))
        elif name == "identifiers":
            parts.append(_table("[[identifiers]]", IdentifierConfig, _doc(IdentifierConfig), 2))
        else:
            assert isinstance(annotation, type) and issubclass(annotation, BaseModel)
            parts.append(_table(f"[{name}]", annotation, _doc(annotation), 2))
    return "\n".join(parts)


def _signals(model: Any) -> str:
    from miner.signals import REGISTRY

    parts = [
        "## `[signals]`\n\n"
        "One table per signal, `[signals.<name>]`; every one takes `enabled = false` to "
        "switch the signal off. What each signal fires on is in "
        "[signals.md](signals.md).\n"
    ]
    by_name = {signal.name: signal for signal in REGISTRY}
    for name, info in model.model_fields.items():
        module = sys.modules[by_name[name].__module__]
        about = _first_paragraph(module.__doc__)
        parts.append(_table(f"[signals.{name}]", info.annotation, about, 3))
    return "\n".join(parts)


def _doc(model: Any) -> str:
    return _first_paragraph(model.__doc__)


def _first_paragraph(text: str | None) -> str:
    paragraph = (text or "").strip().split("\n\n")[0]
    return _markdown(" ".join(line.strip() for line in paragraph.splitlines()))


def _markdown(text: str) -> str:
    """Docstring markup (reStructuredText's double backticks) as Markdown."""
    return text.replace("``", "`")


def _table(title: str, model: type[BaseModel], about: str, level: int) -> str:
    lines = [f"{'#' * level} `{title}`", ""]
    if about:
        lines += [about, ""]
    lines += ["| key | type | default | meaning |", "|---|---|---|---|"]
    for key, info in model.model_fields.items():
        meaning = _markdown(" ".join((info.description or "").split()))
        lines.append(
            f"| `{key}` | {_type(info.annotation, info.metadata)} | {_default(info, model)} | "
            f"{_cell(meaning)} |"
        )
    # A key whose value is a table of its own ([redaction.unsure]) follows its parent's.
    nested = [
        _table(f"{title[:-1]}.{key}]", info.annotation, _doc(info.annotation), level + 1)
        for key, info in model.model_fields.items()
        if isinstance(info.annotation, type) and issubclass(info.annotation, BaseModel)
    ]
    return "\n".join([*lines, "", *nested]).rstrip("\n") + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def _type(annotation: Any, metadata: list[Any]) -> str:
    words = _type_words(annotation)
    limits = _limits([*metadata, *_inner_metadata(annotation)])
    return f"{words} {limits}".strip()


def _inner_metadata(annotation: Any) -> list[Any]:
    """Constraints inside ``Annotated[int, Field(ge=1)] | None``."""
    found: list[Any] = []
    for arg in typing.get_args(annotation):
        if isinstance(arg, FieldInfo):
            found += arg.metadata
        found += _inner_metadata(arg) if typing.get_args(arg) else []
    return found


def _type_words(annotation: Any) -> str:
    origin = typing.get_origin(annotation)
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if origin is typing.Annotated:
        return _type_words(args[0])
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_words(a) for a in args) + (
            ", optional" if type(None) in typing.get_args(annotation) else ""
        )
    if origin is Literal:
        return "one of " + ", ".join(f'`"{a}"`' for a in typing.get_args(annotation))
    if origin is tuple:
        return f"list of {_type_words(args[0])}s"
    if origin is dict:
        return f"table of {_type_words(args[1])}"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "table"
    return {
        str: "string",
        int: "integer",
        float: "number",
        bool: "true or false",
        Path: "path",
        timedelta: 'duration (`"7d"`, `"36h"`, `"90m"`)',
    }.get(annotation, str(annotation))


def _limits(metadata: list[Any]) -> str:
    low = high = ""
    pattern = None
    for item in metadata:
        if getattr(item, "gt", None) is not None:
            low = f"> {_value(item.gt)}"
        if getattr(item, "ge", None) is not None:
            low = f">= {_value(item.ge)}"
        if getattr(item, "lt", None) is not None:
            high = f"< {_value(item.lt)}"
        if getattr(item, "le", None) is not None:
            high = f"<= {_value(item.le)}"
        pattern = getattr(item, "pattern", None) or pattern
    bounds = ", ".join(b for b in (low, high) if b)
    shown = f"({bounds})" if bounds else ""
    if pattern:
        shown += f" matching `{_cell(pattern)}`"
    return shown.strip()


def _default(info: FieldInfo, model: type[BaseModel]) -> str:
    if info.default is PydanticUndefined and info.default_factory is None:
        return "required"
    value = info.default if info.default_factory is None else info.default_factory()  # type: ignore[call-arg]
    if isinstance(value, BaseModel):
        return "see below"
    if value is None:
        return "unset"
    if isinstance(value, dict) and not value:
        return "empty"
    module = sys.modules[model.__module__]
    name = _constant_named(value, module) or _constant_named(value, config_module)
    if isinstance(value, tuple) and len(value) > _SHOWN_ITEMS and name:
        where = module if name and _constant_named(value, module) else config_module
        first = ", ".join(_value(v) for v in value[:3])
        source = f"{where.__name__.replace('.', '/')}.py"
        shown = f"`{name}` in {source}"
        return f"{len(value)} values: {first}, ... ({shown})"
    return f"`{_value(value)}`"


def _constant_named(value: tuple[Any, ...], module: types.ModuleType) -> str | None:
    for name, held in vars(module).items():
        if name.isupper() and held is value:
            return name
    return None


def _value(value: Any) -> str:
    """A value as it is written in TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, timedelta):
        minutes = int(value.total_seconds() // 60)
        if minutes % 1440 == 0:
            return f'"{minutes // 1440}d"'
        return f'"{minutes // 60}h"' if minutes % 60 == 0 else f'"{minutes}m"'
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


if __name__ == "__main__":
    sys.stdout.write(render())
