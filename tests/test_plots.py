"""--plot FILE.png (shengji.plots): a real PNG of sensible size, and one-line errors."""

import struct
import sys

from shengji.cli import main


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    assert head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


def test_simulate_plot_is_a_real_png(tmp_path, capsys):
    out = tmp_path / "sim.png"
    code = main(["simulate", "--deals", "40", "--seed", "2", "--no-progress",
                 "--plot", str(out)])
    assert code == 0, capsys.readouterr().err
    width, height = png_size(out)
    assert 800 <= width <= 2000 and 300 <= height <= 1200
    assert 15_000 < out.stat().st_size < 2_000_000  # drawn bars and text, not an empty canvas


def test_arena_plot_is_a_real_png(tmp_path, capsys):
    out = tmp_path / "arena.png"
    code = main(["arena", "heuristic", "random", "--deals", "6", "--variant", "one-deck-40",
                 "--no-progress", "--plot", str(out)])
    assert code == 0, capsys.readouterr().err
    width, height = png_size(out)
    assert 1200 <= width <= 2500 and 300 <= height <= 1200
    assert 20_000 < out.stat().st_size < 2_000_000


def run(capsys, *argv):
    code = main(["simulate", "--deals", "3", "--no-progress", *argv])
    return code, capsys.readouterr().err


def test_plot_errors_are_one_line_and_come_first(tmp_path, capsys, monkeypatch):
    code, err = run(capsys, "--plot", str(tmp_path / "a.xyz"))
    assert code == 2 and "cannot write a .xyz file" in err and ".png" in err
    code, err = run(capsys, "--plot", str(tmp_path / "nope" / "a.png"))
    assert code == 2 and "does not exist" in err
    code = main(["arena", "heuristic", "random", "--deals", "2", "--plot",
                 str(tmp_path / "b.xyz")])
    assert code == 2 and "cannot write a .xyz file" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, err = run(capsys, "--plot", str(tmp_path / "a.png"))
    assert code == 2 and "--plot needs matplotlib" in err and "Traceback" not in err
    assert not (tmp_path / "a.png").exists()
