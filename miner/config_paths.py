"""Where a pipeline config is, and where the exports it names are: the
rules ``miner.config`` builds its ``[sources]`` by, in a module of the
standard library alone.

Apart from ``miner.config`` for what it imports: ``miner draft`` decides
whether its first stage runs in a child forked before the job's imports
(``miner.draft_start``) from the size of the export the run will read, and
when ``--traces`` is not given that export is the config's ``[sources]
traces``, read before the fork by ``traces_named_in`` (``miner.config``'s
pydantic models and the signals' modules would be imported otherwise)."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from miner.errors import ConfigError, UsageError

#: Schemes of remote trace exports (read through pyarrow's filesystems).
REMOTE_SCHEMES = ("s3://", "gs://", "gcs://")

#: The config a working folder keeps for itself, found without --pipeline.
PIPELINE_FILE = "miner.toml"
#: The folder of per-agent configs; its one ``*.toml`` is found without --pipeline.
PIPELINES_DIR = "pipelines"


def is_remote(source: str | Path | None) -> bool:
    return isinstance(source, str) and source.startswith(REMOTE_SCHEMES)


def find_pipeline(folder: Path) -> Path:
    """The config to use when no --pipeline is given: ``miner.toml`` or the
    ``pipelines/*.toml`` in ``folder``, when there is exactly one of them;
    otherwise a UsageError saying which to pass (never a silent default)."""
    found = [Path(PIPELINE_FILE)] if (folder / PIPELINE_FILE).is_file() else []
    found += sorted(p.relative_to(folder) for p in (folder / PIPELINES_DIR).glob("*.toml"))
    if len(found) == 1:
        return found[0]
    if not found:
        raise UsageError(
            f"no pipeline config: pass --pipeline PATH, or write one with `miner init --traces "
            f"EXPORT` (none of {PIPELINE_FILE} or {PIPELINES_DIR}/*.toml here)"
        )
    names = ", ".join(str(p) for p in found)
    raise UsageError(f"{len(found)} pipeline configs here ({names}): pass one with --pipeline")


def read_toml(path: Path) -> dict[str, Any]:
    """The TOML file at ``path``, parsed (ConfigError naming the file otherwise)."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(
            f"{path}: no such pipeline config (relative paths start from the current folder; "
            "pass yours with --pipeline PATH)"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read ({type(exc).__name__})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None


def beside_config(config_path: Path, value: str | Path | None) -> Path | str | None:
    """A path from the config, taken relative to the config file's folder (a
    remote URI is kept as it is)."""
    if value is None or is_remote(value):
        return value
    return Path(os.path.normpath(config_path.parent / value))


def traces_named_in(toml: dict[str, Any], config_path: Path) -> Path | str | None:
    """The trace export the config ``toml`` (read from ``config_path``) names
    in ``[sources] traces``, as ``miner.config.config_from_toml`` resolves it;
    None if it names none, or names it as no string (``config_from_toml``
    then says what is wrong)."""
    sources = toml.get("sources")
    traces = sources.get("traces") if isinstance(sources, dict) else None
    return beside_config(config_path, traces) if isinstance(traces, str) else None
