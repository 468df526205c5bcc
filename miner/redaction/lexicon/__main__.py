"""``python -m miner.redaction.lexicon``: compute every word list the
redaction rules keep (``miner.derived``) into the cache folder, as ``make
setup`` does, so the first run of a new installation reads them."""

from __future__ import annotations

from miner import derived
from miner.redaction.lexicon import addresses, dates, names, wordclass


def compute_all() -> int:
    """Compute every kept list of the lexicon; how many there are."""
    modules = {m.__name__ for m in (addresses, dates, names, wordclass)}
    lists = [f for f in derived.KEPT if f.__module__ in modules]
    for function in lists:
        function()
    return len(lists)


if __name__ == "__main__":
    where = derived.cache_folder()
    count = compute_all()
    print(f"{count} word lists kept in {where}" if where else "no cache (MINER_CACHE_DIR='')")
