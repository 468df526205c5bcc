"""The one exception family of miner, and the exit code of each member.

Every message is a single line that names the file and the place (column,
row, JSON path, config key). Messages never quote trace text: it may hold
personal data. The CLI turns these into ``Error: <message>`` and the exit code.
"""

from __future__ import annotations


class MinerError(Exception):
    """Base of every error miner reports to its user."""

    exit_code = 1


class ConfigError(MinerError):
    """The pipeline config is missing, malformed or has an unknown key."""

    exit_code = 2


class UsageError(MinerError):
    """A command-line value could not be understood (a bad --since, say)."""

    exit_code = 2


class InputError(MinerError):
    """An input file is unreadable, not Parquet, or lacks a required column."""

    exit_code = 3


class PayloadError(InputError):
    """A JSON payload inside a trace row could not be parsed."""


class ModelMissingError(MinerError):
    """The configured spaCy model for Presidio, or the second model redaction
    asks about surfaced values, is not installed."""

    exit_code = 4


class OutputError(MinerError):
    """The output folder could not be written."""

    exit_code = 5


class BusyError(MinerError):
    """Another miner process holds the folder's lock (a draft into the same
    --out, a promote into the same suite)."""

    exit_code = 6


class ConflictError(MinerError):
    """A file changed on disk since it was read for an edit: nothing was
    written, so a reviewer's hand edit is never overwritten."""

    exit_code = 7


class FindingsError(MinerError):
    """A check found problems (they were printed before this is raised)."""

    exit_code = 1
