"""The output folder: drafts, ledger, run summaries, suites, the promote
journal and the folder's lock. Every failure becomes a MinerError naming the
file; none quotes file contents.

A run stages every file under ``<out>/.miner-staging-*`` and then
renames each case folder into place, so a crash leaves either a whole case
folder or none; the ledger and the run summary are replaced atomically.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from miner.case import CASE_SUFFIXES, EVALSET, SPEC, TOOLS, case_file_names
from miner.errors import (
    BusyError,
    ConflictError,
    InputError,
    OutputError,
)

LEDGER_NAME = "miner-ledger.json"
RUNS_DIR = "runs"
#: The page listing every run, beside their summaries.
RUNS_INDEX = "index.html"


def _dumps(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_INDENT_2) + b"\n"


def _new_file_mode() -> int:
    """What ``open()`` would give a new file: 0666 less the umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _write_atomic(path: Path, data: bytes | Iterable[bytes]) -> None:
    """Write beside ``path`` (``data``: bytes, or chunks written as they
    come), then rename over it: a reader sees the old file or the new one,
    never half of either. A replaced file keeps its mode; a new one gets the
    umask's (mkstemp would make it 0600)."""
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = _new_file_mode()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            if isinstance(data, bytes):
                handle.write(data)
            else:
                handle.writelines(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


#: The lock file older versions of miner kept inside a locked folder; removed when found.
LEGACY_LOCK_NAME = ".miner.lock"


@contextlib.contextmanager
def locked(folder: Path, timeout: float, purpose: str) -> Iterator[None]:
    """Hold ``folder``'s lock while the block runs: an flock on the folder itself.

    Nothing is written into the folder (a suite is committed; a lock file in
    it would be too), and the kernel releases the lock when the process ends,
    however it ends (SIGKILL included), so nothing is ever left held. Another
    miner process holding it makes this wait up to ``timeout`` seconds, then
    raise BusyError naming the holder (pid, what, since when) from the note
    ``holder_note`` keeps outside the folder. A folder this call created is
    removed again if the block left it empty (a run refused for bad input
    leaves no output)."""
    descriptor, created = _acquire(folder, timeout)
    note = holder_note(folder)
    try:
        _remove_legacy_lock(folder)
        _write_note(note, purpose)
        yield
    finally:
        with contextlib.suppress(OSError):
            note.unlink()
        if created:
            # Removed while held: a waiter then finds its descriptor is not the
            # folder at the path any more and starts over (see _acquire).
            with contextlib.suppress(OSError):
                folder.rmdir()  # only if empty
        os.close(descriptor)  # releases the flock


def _acquire(folder: Path, timeout: float) -> tuple[int, bool]:
    """An open descriptor of ``folder`` holding its flock, and whether this
    call created the folder."""
    deadline = time.monotonic() + max(timeout, 0)
    created = False
    while True:
        try:
            folder.mkdir(parents=True)
            created = True
        except FileExistsError:
            pass
        except OSError as exc:
            raise OutputError(f"{folder}: cannot create folder ({exc.strerror})") from None
        try:
            descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        except FileNotFoundError:
            continue  # its creator removed it, empty, before we opened it: again
        except OSError as exc:
            raise OutputError(
                f"{folder}: cannot open the folder to lock it ({exc.strerror})"
            ) from None
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(descriptor)
            if time.monotonic() >= deadline:
                raise BusyError(
                    f"{folder}: held by {_holder(folder)}; wait for it to finish, or pass "
                    "--lock-timeout SECONDS to wait"
                ) from None
            time.sleep(0.2)
            continue
        except OSError as exc:
            os.close(descriptor)
            raise OutputError(
                f"{folder}: cannot lock the folder ({exc.strerror}); miner needs a file "
                "system with flock on folders (a local disk)"
            ) from None
        try:
            here = os.stat(folder)
            mine = os.fstat(descriptor)
            same = (here.st_dev, here.st_ino) == (mine.st_dev, mine.st_ino)
        except FileNotFoundError:
            same = False
        if same:
            return descriptor, created
        os.close(descriptor)  # the holder removed that folder before we got it: again


def holder_note(folder: Path) -> Path:
    """Where a lock's holder says who it is: a file per folder (by its real
    path) in this user's runtime or temporary folder, never in the folder."""
    base = os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    key = hashlib.sha256(str(folder.resolve()).encode("utf-8")).hexdigest()[:32]
    return Path(base) / f"miner-{os.getuid()}" / "locks" / f"{key}.holder"


def _write_note(note: Path, purpose: str) -> None:
    """Best effort: the note only names the holder in a waiter's message."""
    # The wall clock, not the run's (``window.run_clock``): a waiter is told
    # when the holder really started, under SOURCE_DATE_EPOCH too.
    started = datetime.now(UTC).isoformat(timespec="seconds")
    with contextlib.suppress(OSError):
        note.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        _write_atomic(note, f"pid {os.getpid()} ({purpose}, since {started})\n".encode())


def _holder(folder: Path) -> str:
    """The holder's own words, when its note is there and its process alive."""
    unknown = "another miner process"
    try:
        line = holder_note(folder).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return unknown  # another user's run, or one too new to have written it
    words = line.split()
    if len(words) < 2 or words[0] != "pid" or not words[1].isdigit():
        return unknown
    try:
        os.kill(int(words[1]), 0)
    except PermissionError:
        return line  # alive, another user's process
    except (OSError, OverflowError):
        return unknown  # a killed holder's note: its process is gone
    return line


def _remove_legacy_lock(folder: Path) -> None:
    """An older miner's ``.miner.lock`` in the folder, when no process holds it."""
    path = folder / LEGACY_LOCK_NAME
    try:
        with open(path, "rb") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            path.unlink()
    except OSError:
        pass  # none there, or an older miner still holds it


def remove_stale_staging(out: Path) -> int:
    """Staging folders a killed run left in ``out`` (call with the lock held:
    then no live run owns one). Returns how many were removed."""
    stale = [p for p in out.glob(".miner-staging-*") if p.is_dir()] if out.is_dir() else []
    for folder in stale:
        shutil.rmtree(folder, ignore_errors=True)
    return len(stale)


_SESSION_HASH = re.compile(r"[0-9a-f]{16}")


def read_ledger(out: Path) -> frozenset[str]:
    """Session hashes drafted into ``out`` before: the ledger (drafted and
    discarded) plus the case folders there."""
    hashes = set(_ledger_hashes(out / LEDGER_NAME))
    hashes.update(read_discarded(out))
    if out.is_dir():
        hashes.update(p.name.removeprefix("draft_") for p in out.glob("draft_*") if p.is_dir())
    return frozenset(hashes)


def read_ledger_signatures(out: Path) -> frozenset[str]:
    """Hashes of the failure signatures drafted into ``out`` before."""
    return _ledger_hashes(out / LEDGER_NAME, "signatures")


def _ledger_hashes(ledger: Path, key: str = "sessions") -> frozenset[str]:
    """The hashes under ``key`` in a ledger file (none when there is no file yet)."""
    if not ledger.exists():
        return frozenset()
    data = _ledger_document(ledger)
    values = data.get(key, [] if key != "sessions" else None)
    if not isinstance(values, list) or not all(
        isinstance(h, str) and _SESSION_HASH.fullmatch(h) for h in values
    ):
        raise InputError(
            f'{ledger}: not a miner ledger (expected {{"sessions": [<16 hex digits>, ...], '
            f'"signatures": [...]}}; {key} is not)'
        )
    return frozenset(values)


#: A run's manifest of the flagged sessions it did not draft, beside its summary.
NOT_DRAFTED_SUFFIX = ".not-drafted.jsonl"


#: The ledger's record of drafts a reviewer discarded: session hash ->
#: {"reason": the reviewer's words, "at": UTC time}.
DISCARDED = "discarded"


def read_discarded(out: Path) -> dict[str, dict[str, str]]:
    """The drafts discarded from ``out`` (session hash -> reason and time)."""
    ledger = out / LEDGER_NAME
    data = _ledger_document(ledger)
    found = data.get(DISCARDED, {})
    if not isinstance(found, dict) or not all(
        isinstance(h, str)
        and _SESSION_HASH.fullmatch(h)
        and isinstance(entry, dict)
        and all(isinstance(entry.get(k), str) for k in ("reason", "at"))
        for h, entry in found.items()
    ):
        raise InputError(
            f'{ledger}: not a miner ledger ({DISCARDED} is not {{"<16 hex digits>": '
            '{"reason": ..., "at": ...}})'
        )
    return found


def _ledger_document(ledger: Path) -> dict[str, Any]:
    """The ledger file as JSON (empty when there is none yet)."""
    if not ledger.exists():
        return {}
    try:
        data = orjson.loads(ledger.read_bytes())
    except orjson.JSONDecodeError as exc:
        raise InputError(f"{ledger}: invalid JSON ({exc.args[0]})") from None
    except OSError as exc:
        raise InputError(f"{ledger}: cannot read ({exc.strerror})") from None
    if not isinstance(data, dict):
        raise InputError(f"{ledger}: not a miner ledger (not a JSON object)")
    return data


def _ledger_bytes(sessions: Iterable[str], signatures: Iterable[str], discarded: Any) -> bytes:
    document: dict[str, Any] = {"sessions": sorted(sessions), "signatures": sorted(signatures)}
    if discarded:
        document[DISCARDED] = dict(sorted(discarded.items()))
    return _dumps(document)


def discard_draft(out: Path, folder: Path, session: str, reason: str) -> None:
    """Remove the drafted case ``folder`` (directly inside ``out``) for good,
    and record its session in ``out``'s ledger as discarded with ``reason``,
    so no later run drafts it again. Call with ``out``'s lock held.

    The ledger is replaced first: a crash after it leaves the case folder whole
    (discarding it again finishes the job). The folder is then renamed to a
    staging name, which nothing reads as a case, and removed; a crash during the
    removal leaves only that staging folder, which the next run clears
    (``remove_stale_staging``)."""
    ledger = out / LEDGER_NAME
    discarded = dict(read_discarded(out))
    at = datetime.now(UTC).isoformat(timespec="seconds")
    discarded[session] = {"reason": reason, "at": at}
    sessions = _ledger_hashes(ledger) | {session}
    try:
        _write_atomic(
            ledger, _ledger_bytes(sessions, _ledger_hashes(ledger, "signatures"), discarded)
        )
        doomed = out / f".miner-staging-discarded-{folder.name}"
        shutil.rmtree(doomed, ignore_errors=True)
        os.rename(folder, doomed)
    except OSError as exc:
        raise OutputError(f"{out}: cannot discard {folder.name} ({exc.strerror})") from None
    shutil.rmtree(doomed, ignore_errors=True)


def run_stem(out: Path, run_name: str) -> str:
    """A run's summary and triage page name, without suffix (under ``runs/``).

    The pid too: two runs in the same second must not overwrite each other;
    and a counter when this process already wrote a run that second (a test,
    a service drafting in-process). Call with ``out``'s lock held, so the name
    is still free when ``write_run`` takes it."""
    stem = f"{run_name}-{os.getpid()}"
    taken = out / RUNS_DIR
    n = 1
    while (taken / f"{stem if n == 1 else f'{stem}-{n}'}.json").exists():
        n += 1
    return stem if n == 1 else f"{stem}-{n}"


def write_run(
    out: Path,
    cases: dict[str, dict[str, Any]],
    ledger: frozenset[str],
    summary: dict[str, Any],
    stem: str,
    signatures: frozenset[str] = frozenset(),
    triage_html: str | None = None,
    runs_index: Callable[[list[tuple[str, dict[str, Any] | None]]], str] | None = None,
    not_drafted: Iterable[tuple[str, str]] = (),
) -> str | None:
    """Write the case folders (name -> {file name: JSON value}), ledger and
    summary, and beside the summary the flagged sessions not drafted
    (session hash, reason) as JSON Lines (``NOT_DRAFTED_SUFFIX``).

    ``stem`` names the run's files under ``runs/`` (``run_stem``). Call with
    ``out``'s lock held. Nothing is left half-written: files are
    staged and each case folder is renamed into place whole; the ledger is
    merged with the one on disk and replaced atomically. The run summary comes
    last: if only it cannot be written, the run did its work, so the problem
    is returned as a warning rather than raised.
    """
    try:
        out.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".miner-staging-", dir=out))
    except OSError as exc:
        raise OutputError(f"{out}: cannot create output folder ({exc.strerror})") from None
    try:
        for name, files in cases.items():
            folder = staging / name
            folder.mkdir()
            for file_name, value in files.items():
                (folder / file_name).write_bytes(_dumps(value))
        for name in cases:
            target = out / name
            if target.exists():
                raise OutputError(f"{target}: already exists; refusing to overwrite a drafted case")
            os.rename(staging / name, target)
        merged = ledger | _ledger_hashes(out / LEDGER_NAME)
        kinds = signatures | _ledger_hashes(out / LEDGER_NAME, "signatures")
        discarded = read_discarded(out)  # a reviewer's discards stay recorded
        _write_atomic(out / LEDGER_NAME, _ledger_bytes(merged, kinds, discarded))
    except OSError as exc:
        written = sum(1 for name in cases if (out / name).is_dir())
        raise OutputError(
            f"{out}: cannot write drafts ({exc.strerror}); {written} of {len(cases)} case "
            "folders are in place, each whole; the ledger was not updated"
        ) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    try:
        (out / RUNS_DIR).mkdir(exist_ok=True)
        manifest = (
            orjson.dumps({"session": session, "reason": reason}) + b"\n"
            for session, reason in not_drafted
        )
        _write_atomic(out / RUNS_DIR / f"{stem}{NOT_DRAFTED_SUFFIX}", manifest)
        _write_atomic(out / RUNS_DIR / f"{stem}.json", _dumps(summary))
        if triage_html is not None:
            _write_atomic(out / RUNS_DIR / f"{stem}.html", triage_html.encode("utf-8"))
        if runs_index is not None:
            index = runs_index(read_run_summaries(out))
            _write_atomic(out / RUNS_DIR / RUNS_INDEX, index.encode("utf-8"))
    except OSError as exc:
        runs = out / RUNS_DIR
        return f"cases and ledger written, but not the run summary under {runs} ({exc.strerror})"
    return None


def digest(data: bytes) -> str:
    """What an edit remembers of a file it read, to notice a change before writing."""
    return hashlib.sha256(data).hexdigest()


def replace_json_files(values: Mapping[Path, Any], expected: Mapping[Path, str]) -> None:
    """Replace files with JSON ``values``, written exactly as a draft writes them,
    unless one changed since it was read (``expected``: path -> ``digest``):
    then raise ConflictError naming it, and write nothing. All new files are
    staged beside their targets first, then renamed over them one after the
    other, so each file is whole at every moment."""
    for path, wanted in expected.items():
        try:
            now = digest(path.read_bytes())
        except OSError:
            now = "missing"
        if now != wanted:
            raise ConflictError(
                f"{path}: changed on disk since the page was loaded; nothing was saved"
            )
    staged: list[tuple[str, Path]] = []
    try:
        for path, value in values.items():
            mode = path.stat().st_mode & 0o7777 if path.exists() else _new_file_mode()
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
            staged.append((tmp, path))
            with os.fdopen(fd, "wb") as handle:
                handle.write(_dumps(value))
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, mode)
        for tmp, path in staged:
            os.replace(tmp, path)
    except OSError as exc:
        raise OutputError(f"cannot save the case files ({exc.strerror})") from None
    finally:
        for tmp, _path in staged:
            Path(tmp).unlink(missing_ok=True)


def read_run_summaries(out: Path) -> list[tuple[str, dict[str, Any] | None]]:
    """Every run summary under ``out/runs``, newest first, by name; one that
    cannot be read (edited by hand, cut short) is listed as None, not skipped."""
    runs: list[tuple[str, dict[str, Any] | None]] = []
    for path in sorted((out / RUNS_DIR).glob("*.json"), reverse=True):
        try:
            summary = orjson.loads(path.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            summary = None
        runs.append((path.stem, summary if isinstance(summary, dict) else None))
    return runs


def case_paths(path: Path) -> list[Path]:
    """The case files a path holds: itself when it is one, else every eval
    set, sidecar and tool-fixture file under it (hidden folders skipped)."""
    if path.is_dir():
        return [
            p
            for p in sorted(path.rglob("*.json"))
            if p.name.endswith(CASE_SUFFIXES)
            and not any(part.startswith(".") for part in p.relative_to(path).parts)
        ]
    return [path] if path.is_file() and path.name.endswith(CASE_SUFFIXES) else []


def read_case_files(paths: Iterable[Path]) -> list[tuple[Path, str]]:
    """Eval sets, sidecars and tool fixtures under ``paths`` (files or folders).

    The one definition of "a folder of cases" every command that reads cases
    uses: a path that holds none (an empty or mistyped folder, a file that is
    not a case file) is an InputError, so a gate never passes on nothing."""
    found: list[Path] = []
    for path in paths:
        if not path.exists():
            raise InputError(f"{path}: no such file or folder")
        held = case_paths(path)
        if not held:
            kinds = f"*{EVALSET}, *{SPEC} or *{TOOLS}"
            if path.is_dir():
                raise InputError(f"{path}: no case file in this folder ({kinds}); nothing to read")
            raise InputError(f"{path}: not a case file (expected {kinds})")
        found.extend(held)
    files = []
    for path in dict.fromkeys(found):
        try:
            files.append((path, path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"{path}: cannot read ({type(exc).__name__})") from None
    return files


@dataclass(frozen=True)
class Suite:
    """The three files of a suite folder, as JSON values."""

    name: str
    eval_set: dict[str, Any]
    specs: list[Any]
    tools: list[Any]


def suite_paths(folder: Path, name: str) -> tuple[Path, Path, Path]:
    evalset, spec, tools = case_file_names(name)
    return folder / evalset, folder / spec, folder / tools


def existing(paths: Iterable[Path]) -> list[Path]:
    """Those of ``paths`` that exist."""
    return [p for p in paths if p.exists()]


def read_suite(folder: Path, name: str) -> Suite | None:
    """The suite's current files (a missing one reads as empty), or None for a new suite."""
    evalset_path, spec_path, tools_path = suite_paths(folder, name)
    if not existing((evalset_path, spec_path, tools_path)):
        return None

    def read(path: Path, default: Any) -> Any:
        if not path.exists():
            return default
        try:
            return orjson.loads(path.read_bytes())
        except orjson.JSONDecodeError as exc:
            raise InputError(f"{path}: invalid JSON ({exc.args[0]})") from None

    return Suite(name, read(evalset_path, {}), read(spec_path, []), read(tools_path, []))


def _suite_values(suite: Suite) -> tuple[Any, Any, Any]:
    return suite.eval_set, suite.specs, suite.tools


JOURNAL_NAME = ".miner-promote.json"


def commit_promotion(
    folder: Path,
    suite: Suite,
    remove: list[tuple[Path, str]],
    beside: dict[str, Any] | None = None,
) -> None:
    """Write the journal, then the suite files (and ``beside``: more JSON files
    by name, such as ADK's test_config.json), then remove the promoted drafts
    whose content is still the promoted one (sha256), then the journal."""
    files = {
        path.name: _dumps(value).decode("utf-8")
        for path, value in zip(suite_paths(folder, suite.name), _suite_values(suite), strict=True)
    }
    files.update({name: _dumps(value).decode("utf-8") for name, value in (beside or {}).items()})
    journal = {
        "suite": suite.name,
        "files": files,
        "remove": [{"path": str(path.resolve()), "sha256": digest} for path, digest in remove],
    }
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _write_atomic(folder / JOURNAL_NAME, _dumps(journal))
    except OSError as exc:
        raise OutputError(f"{folder / JOURNAL_NAME}: cannot write ({exc.strerror})") from None
    _apply_journal(folder, journal)


def finish_promote_journal(folder: Path) -> int:
    """Finish what an interrupted promote journalled; returns the files written or removed."""
    path = folder / JOURNAL_NAME
    if not path.exists():
        return 0
    try:
        journal = orjson.loads(path.read_bytes())
        files = journal["files"]
        remove = journal["remove"]
        if not isinstance(files, dict) or not isinstance(remove, list):
            raise TypeError
    except (orjson.JSONDecodeError, KeyError, TypeError):
        raise InputError(
            f"{path}: an unreadable promote journal; the suite files were not touched since "
            "it was written, so move it away and promote again"
        ) from None
    return _apply_journal(folder, journal)


def _apply_journal(folder: Path, journal: dict[str, Any]) -> int:
    done = 0
    try:
        # The eval set last: until it is written, the old suite is whole.
        names = sorted(journal["files"], key=lambda n: n.endswith(".evalset.json"))
        for name in names:
            _write_atomic(folder / name, journal["files"][name].encode("utf-8"))
            done += 1
        for entry in journal["remove"]:
            draft = Path(entry["path"])
            if draft.is_file() and _sha256(draft) == entry["sha256"]:
                draft.unlink()
                done += 1
                with contextlib.suppress(OSError):
                    draft.parent.rmdir()  # only if empty
        (folder / JOURNAL_NAME).unlink()
    except OSError as exc:
        raise OutputError(
            f"{folder}: promote interrupted ({exc.strerror}); the next promote finishes it"
        ) from None
    return done


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_rows(path: Path, rows: list[dict[str, Any]]) -> None:
    """Rows as one Parquet file, written beside and renamed into place."""
    # Imported here: ``miner draft`` holds the output's lock from a process
    # that has not imported pyarrow yet (``miner.draft_start``).
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        columns = list(dict.fromkeys(k for row in rows for k in row))
        table = pa.Table.from_pylist([{c: row.get(c) for c in columns} for row in rows])
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        os.close(fd)
        try:
            pq.write_table(table, tmp)
            os.chmod(tmp, _new_file_mode())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise OutputError(f"{path}: cannot write ({exc.strerror})") from None


def write_json_if_changed(path: Path, value: Any) -> bool:
    """Write ``value`` as JSON (atomically) unless the file already holds it."""
    data = _dumps(value)
    try:
        if path.exists() and path.read_bytes() == data:
            return False
        _write_atomic(path, data)
    except OSError as exc:
        raise OutputError(f"{path}: cannot write ({exc.strerror})") from None
    return True


def write_text_atomic(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_atomic(path, text.encode("utf-8"))
    except OSError as exc:
        raise OutputError(f"{path}: cannot write ({exc.strerror})") from None


def read_score_rates(path: Path) -> dict[str, tuple[int, int]]:
    """Pass rates by tag from a ``miner score --json`` report."""
    try:
        data = orjson.loads(path.read_bytes())
        return {str(tag): (int(v["passed"]), int(v["total"])) for tag, v in data["byTag"].items()}
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (orjson.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError):
        raise InputError(f"{path}: not a `miner score --json` report (byTag)") from None
