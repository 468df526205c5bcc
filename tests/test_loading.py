"""Loading what a run keeps to its end: the collector does not walk it again,
and is left as it was found."""

from __future__ import annotations

import gc

from miner.loading import adk_eval_set, for_the_whole_run


def test_what_a_load_makes_is_frozen_and_the_collector_is_restored():
    thresholds = gc.get_threshold()
    frozen = gc.get_freeze_count()
    collections = gc.get_stats()[2]["collections"]
    with for_the_whole_run():
        loaded = [[n] for n in range(50_000)]  # tracked objects, as a model's are
        # spaCy's model reader turns the collector off and on around each file.
        gc.disable()
        gc.enable()
        more = [[n] for n in range(50_000)]
        assert gc.get_stats()[2]["collections"] == collections  # no collection while loading
    assert gc.get_freeze_count() >= frozen + len(loaded) + len(more)
    assert gc.get_threshold() == thresholds and gc.isenabled()
    gc.unfreeze()


def test_adk_eval_set_is_adks_own_model():
    from google.adk.evaluation.eval_set import EvalSet

    assert adk_eval_set() is EvalSet
