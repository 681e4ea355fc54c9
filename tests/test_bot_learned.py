"""The learned bot (shengji.bots.learned): the shipped checkpoint plays in the arena and
the simulator; a shipped name or any checkpoint's path, its own table size; a file that
is not a checkpoint is one line naming it; max_moves lists that many moves."""

import pytest

from shengji.bots import make_bot
from shengji.errors import ShengjiError
from shengji.harness.arena import arena
from shengji.variants import load_variant

pytest.importorskip("numpy")


def test_learned_bot_plays_in_arena_and_simulate():
    from shengji.harness.simulation import simulate

    s = arena("two-deck-80", ["learned", "random"], boards=2, progress=False)
    assert s["pairs"][0]["deals"] == 4
    simulate("two-deck-80", ["learned", "random", "learned", "random"], deals=2,
             progress=False)
    with pytest.raises(ShengjiError, match="no shipped model 'nonesuch'"):
        make_bot("learned:model=nonesuch", load_variant("two-deck-80"))
    with pytest.raises(ShengjiError, match="trained for 4 seats"):
        make_bot("learned", load_variant("finding-friends"))


def _checkpoint(tmp_path, **change):
    """A copy of the shipped checkpoint with some arrays (or the metadata) changed."""
    import json

    import numpy as np

    from shengji.bots.learned import load_model

    net = load_model("two-deck-80")
    arrays = {"inv_high": net.inv_high, **net.params,
              "meta": np.array(json.dumps(net.meta))}
    arrays.update(change)
    path = tmp_path / "mine.npz"
    np.savez(path, **arrays)
    return path


def test_any_checkpoint_by_path_and_max_moves(tmp_path):
    from shengji.env.qnet import QNet

    v = load_variant("two-deck-80")
    path = tmp_path / "copy.npz"
    QNet.load(_checkpoint(tmp_path)).save(path)
    bot = make_bot(f"learned:model={path}:max_moves=8", v, "s")
    assert bot._inner.max_moves == 8
    assert make_bot("learned", v)._inner.max_moves == 64  # as the checkpoint trained
    from shengji.bots.base import parse_spec

    assert parse_spec("policy:fn=x.y:max_moves=300")[1]["max_moves"] == 300
    s = arena("two-deck-80", [f"learned:model={path}:max_moves=8", "random"], boards=1,
              progress=False)
    assert s["pairs"][0]["deals"] == 2
    with pytest.raises(ShengjiError, match="max_moves=1: moves listed at most"):
        make_bot("learned:max_moves=1", v)


@pytest.mark.parametrize("content,message", [
    (None, "no such file"),
    (b"not a zip", "not a network checkpoint"),
    ("npy", "one array, not a network checkpoint"),
    ({"Ws": "drop"}, r"not a network checkpoint \(no Ws\)"),
    ({"Ws": "shape"}, r"array Ws is float32 \(3, 2\); this network needs floats \(1405, 128\)"),
    ({"b1": "nan"}, "array b1 holds values that are not finite"),
    ({"meta": "not json"}, "its metadata is not JSON"),
    ({"meta": {"players": 4}}, "metadata history: None is not a number"),
    ({"meta": {"players": 6, "history": 8, "max_moves": 64, "obs_size": 1405}},
     "trained for 6 seats; this table has 4"),
])
def test_a_malformed_checkpoint_is_one_line(tmp_path, content, message):
    import json

    import numpy as np

    path = tmp_path / "bad.npz"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content == "npy":
        np.save(tmp_path / "bad.npy", np.zeros(3))
        (tmp_path / "bad.npy").rename(path)
    elif isinstance(content, dict):
        change: dict = {}
        for k, how in content.items():
            if k == "meta":
                change["meta"] = np.array(how if isinstance(how, str) else json.dumps(how))
            elif how == "shape":
                change[k] = np.zeros((3, 2), np.float32)
            elif how == "nan":
                change[k] = np.full(128, np.nan, np.float32)
        path = _checkpoint(tmp_path, **change)
        if content.get("Ws") == "drop":
            with np.load(path) as f:
                kept = {k: f[k] for k in f.files if k != "Ws"}
            np.savez(path, **kept)
    with pytest.raises(ShengjiError, match=message) as info:
        make_bot(f"learned:model={path}", load_variant("two-deck-80"))
    assert "\n" not in str(info.value) and (str(path) in str(info.value)
                                            or "seats" in str(info.value))


def test_command_line_names_a_bad_checkpoint_in_one_line(tmp_path, capsys):
    from shengji.cli import main

    bad = tmp_path / "bad.npz"
    bad.write_text("no")
    code = main(["arena", "--no-progress", "--deals", "1", f"learned:model={bad}", "random"])
    err = capsys.readouterr().err.strip()
    assert code != 0 and len(err.splitlines()) == 1 and str(bad) in err, err


def test_learned_picks_the_checkpoint_of_the_table():
    """``learned`` without a model plays the shipped checkpoint trained for the variant
    and table size: finding friends at 6 seats has its own."""
    from shengji.bots.learned import default_model

    v6 = load_variant("finding-friends", players=6)
    assert default_model(v6) == "finding-friends-6"
    assert default_model(load_variant("one-deck-40")) == "two-deck-80"  # 4 seats
    assert make_bot("learned", v6).net.meta["players"] == 6
    s = arena(("finding-friends", 6), ["learned", "heuristic"], boards=1, progress=False)
    assert s["pairs"][0]["deals"] == 6
