"""The server's garbage-collector policy (shengji/frontends/web/gcpause.py): survivors of
young collections are frozen, the full collection is left to reclaim(), and nothing that
dies is lost for good."""

import gc
import weakref

from shengji.frontends.web.gcpause import THRESHOLDS, GcPauses


class Node:
    def __init__(self):
        self.other = None


def cycle():
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a


def test_survivors_are_frozen_and_young_garbage_is_still_collected():
    before = gc.get_threshold()
    policy = GcPauses()
    policy.start()
    try:
        assert gc.get_threshold() == THRESHOLDS
        assert gc.get_freeze_count() > 0  # what start-up made
        # a cycle that dies young is collected by a young collection, never frozen
        dead = weakref.ref(cycle())
        gc.collect(1)
        assert dead() is None
        # a cycle alive at a collection of the middle generation is frozen with it; no
        # automatic collection may run in between (another test's server thread in this
        # process allocates too, and one would freeze the cycle before it is counted)
        gc.disable()
        try:
            kept = cycle()
            frozen = gc.get_freeze_count()
            gc.collect(1)
        finally:
            gc.enable()
        assert gc.get_freeze_count() >= frozen + 2
        # frozen: a full collection does not look at it once it dies ...
        ref = weakref.ref(kept)
        del kept
        gc.collect()
        assert ref() is not None
        # ... until the reclaim
        assert policy.reclaim() >= 2
        assert ref() is None and policy.reclaims == 1
        # an acyclic frozen object is freed by its reference count as usual
        plain = Node()
        gc.collect(1)
        ref = weakref.ref(plain)
        del plain
        assert ref() is None
    finally:
        policy.stop()
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
    assert policy._collected not in gc.callbacks


def test_the_app_runs_the_policy_only_when_asked():
    from starlette.testclient import TestClient

    from shengji.frontends.web import create_app

    threshold = gc.get_threshold()
    with TestClient(create_app(gc_pauses=True)) as client:
        assert client.app.state.gc_pauses is not None
        assert gc.get_threshold() == THRESHOLDS
    assert gc.get_threshold() == threshold and gc.get_freeze_count() == 0
    with TestClient(create_app()) as client:
        assert client.app.state.gc_pauses is None
        assert gc.get_threshold() == threshold
