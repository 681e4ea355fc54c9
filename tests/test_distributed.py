"""Where simulation units run (shengji.distributed): same seed, same results on every
backend; Ray batches and orders; clear one-line errors."""

import json
import socket
import sys

import pytest

from shengji.cli import main
from shengji.distributed import RayMapper, local_mapper, ray_mapper
from shengji.harness.arena import arena
from shengji.harness.simulation import simulate

TIMING = ("seconds", "deals_per_second", "jobs", "backend")


def results(summary):
    return {k: v for k, v in summary.items() if k not in TIMING}


class FakeRay:
    """What RayMapper uses of Ray, run in this process, recording the calls."""

    def __init__(self):
        self.submitted = []
        self.in_flight_max = 0
        self._pending = 0

    def remote(self, fn):
        ray = self

        class Remote:
            def remote(self, *args):
                ray.submitted.append(args[1])
                ray._pending += 1
                ray.in_flight_max = max(ray.in_flight_max, ray._pending)
                return ("ref", fn, args)

        return Remote()

    def get(self, ref):
        self._pending -= 1
        _, fn, args = ref
        return fn(*args)

    def shutdown(self):
        pass


def square(x):
    return x * x


def test_ray_mapper_batches_keeps_order_and_bounds_what_is_in_flight():
    fake = FakeRay()
    m = RayMapper(fake, None, workers=2)
    out = list(m(square, range(100)))
    assert out == [x * x for x in range(100)]
    sizes = [len(b) for b in fake.submitted]
    assert sum(sizes) == 100 and max(sizes) <= 16 and len(sizes) >= 2 * 8 - 2
    assert fake.in_flight_max <= 4


def test_simulate_same_results_on_any_mapper():
    base = simulate("two-deck-80", ["random"] * 4, deals=45, seed=3, progress=False)
    fake = simulate("two-deck-80", ["random"] * 4, deals=45, seed=3, progress=False,
                    mapper=RayMapper(FakeRay(), None, workers=2, batch=1))
    procs = simulate("two-deck-80", ["random"] * 4, deals=45, seed=3, progress=False,
                     mapper=local_mapper(2))
    assert results(base) == results(fake) == results(procs)
    assert base["backend"] == "local" and fake["backend"] == "ray"


def arena_results(summary):
    s = {k: v for k, v in summary.items() if k not in TIMING}
    s["ratings"] = [{k: v for k, v in r.items() if not k.endswith("decision_ms")}
                    for r in s["ratings"]]
    return s


def test_arena_same_results_on_the_ray_mapper():
    bots = ["heuristic", "random"]
    local = arena("one-deck-40", bots, boards=3, seed=4, progress=False)
    on_ray = arena("one-deck-40", bots, boards=3, seed=4, progress=False,
                   mapper=RayMapper(FakeRay(), None, workers=2))
    assert arena_results(local) == arena_results(on_ray)
    assert on_ray["backend"] == "ray" and on_ray["jobs"] == 2
    assert sum(map(sum, (h.values() for h in local["levels_histogram"]))) == 2 * 6


def run(capsys, *argv, command="simulate"):
    code = main([command, *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_ray_not_installed_is_one_line(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    code, out, err = run(capsys, "--deals", "5", "--ray")
    assert code == 2 and "Traceback" not in err
    assert err.strip().count("\n") == 0
    assert "--ray needs Ray, which is not installed: pip install 'shengji[ray]'" in err


def test_ray_address_that_does_not_answer_is_one_line(capsys):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code, out, err = run(capsys, "--deals", "5", "--ray", f"127.0.0.1:{port}")
    assert code == 2 and "Traceback" not in err and err.strip().count("\n") == 0
    assert f"--ray 127.0.0.1:{port}: no Ray cluster answers there" in err


def test_ray_address_must_look_like_one(capsys):
    code, out, err = run(capsys, "--deals", "5", "--ray", "nowhere")
    assert code == 2 and "not an address" in err


def test_jobs_with_a_ray_address_is_refused(capsys):
    code, out, err = run(capsys, "--deals", "5", "--ray", "127.0.0.1:1", "--jobs", "2")
    assert code == 2 and "--jobs sets the CPUs of a local Ray only" in err


def test_arena_ray_errors_are_one_line(capsys, monkeypatch):
    code, out, err = run(capsys, "heuristic", "random", "--deals", "2", "--ray", "nowhere",
                         command="arena")
    assert code == 2 and "not an address" in err
    monkeypatch.setitem(sys.modules, "ray", None)
    code, out, err = run(capsys, "heuristic", "random", "--deals", "2", "--ray",
                         command="arena")
    assert code == 2 and "--ray needs Ray" in err and "Traceback" not in err


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray")
    m = ray_mapper(None, cpus=2)
    yield m
    ray.shutdown()


@pytest.mark.long
def test_local_ray_with_two_cpus_gives_the_local_results(local_ray, capsys):
    assert local_ray.workers == 2 and local_ray.backend == "ray"
    local = simulate("two-deck-80", ["random", "heuristic"] * 2, deals=120, seed=9,
                     progress=False)
    on_ray = simulate("two-deck-80", ["random", "heuristic"] * 2, deals=120, seed=9,
                      progress=False, mapper=local_ray)
    assert results(local) == results(on_ray)
    # the command, on the Ray this process already started, with its progress bar
    # (--progress: the bar is drawn on a terminal only, and capsys is none)
    code, out, err = run(capsys, "--deals", "40", "--seed", "9", "--json", "--ray",
                         "--progress", "--players", "random,heuristic,random,heuristic")
    assert code == 0 and "40/40 [" in err and "deals/s" in err
    s = json.loads(out)
    assert s["backend"] == "ray" and s["deals"] == 40
    # the arena, on the same Ray
    bots = ["heuristic", "random"]
    local = arena("two-deck-80", bots, boards=4, seed=2, progress=False)
    code, out, err = run(capsys, *bots, "--deals", "4", "--seed", "2", "--json", "--ray",
                         "--progress", command="arena")
    assert code == 0 and "8/8 [" in err
    assert arena_results(json.loads(out)) == arena_results(json.loads(json.dumps(local)))
