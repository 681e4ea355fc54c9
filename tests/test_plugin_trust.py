"""The plugin trust model (issue 12, docs/variants.md "Trust"): a variant file's
``plugins:`` imports a module only when it is an entry point of group shengji.plugins, is
named by a variant an installed package ships, or is allowed explicitly
(``--allow-plugin``, SHENGJI_ALLOW_PLUGINS, ``allow_plugins=``). An untrusted module is
refused before it is imported: its code never runs."""

from __future__ import annotations

import json
import sys

import pytest

import shengji.plugins as plugins_mod
from shengji.cli import main
from shengji.engine import Game
from shengji.errors import VariantError
from shengji.variants import load_variant

PLUGIN = '''
import pathlib
pathlib.Path({marker!r}).write_text("imported")

def shengji_start_level(variant):
    return 3
'''


@pytest.fixture
def plugin(tmp_path, monkeypatch, request):
    """A plugin module that leaves a marker file when imported (a unique name per test,
    so no earlier import is cached), and a variant file naming it."""
    name = f"marker_plugin_{request.node.name.replace('[', '_').replace(']', '_')}"
    name = "".join(c if c.isalnum() else "_" for c in name)
    marker = tmp_path / "imported.txt"
    (tmp_path / f"{name}.py").write_text(PLUGIN.format(marker=str(marker)), encoding="utf-8")
    (tmp_path / "house.yaml").write_text(f"extends: two-deck-80\nplugins: [{name}]\n",
                                         encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SHENGJI_ALLOW_PLUGINS", raising=False)
    yield name, marker
    sys.modules.pop(name, None)


def refused(name: str) -> str:
    return (f"house.yaml:2: plugins[0]: plugin '{name}' is not trusted: plugins run code, so "
            "only entry points of group shengji.plugins load by default; to run module "
            f"'{name}', pass --allow-plugin {name} (or set SHENGJI_ALLOW_PLUGINS={name})")


def test_check_refuses_an_untrusted_plugin_without_importing_it(plugin, capsys):
    name, marker = plugin
    assert main(["variants", "check", "house.yaml"]) == 1
    out, err = capsys.readouterr()
    assert err.splitlines() == [refused(name)]
    assert "0 ok, 1 with errors" in out
    assert not marker.exists(), "the plugin's code ran although it was refused"


def test_check_with_allow_plugin_says_which_module_it_ran(plugin, capsys):
    name, marker = plugin
    assert main(["variants", "check", "--allow-plugin", name, "house.yaml"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"house.yaml: ok (house); ran plugin code: {name} ({name}.py)"
    assert marker.exists()
    # the allowance lasted for that command only
    assert name not in plugins_mod.allowed_plugins()
    with pytest.raises(VariantError, match="is not trusted"):
        load_variant("house.yaml")


def test_allow_plugin_before_the_subcommand_and_in_the_environment(plugin, capsys,
                                                                    monkeypatch):
    name, _ = plugin
    assert main(["--allow-plugin", name, "variants", "show", "house.yaml"]) == 0
    assert "start_level: '5'" in capsys.readouterr().out  # rank index 3 = '5'
    monkeypatch.setenv("SHENGJI_ALLOW_PLUGINS", f"other, {name}")
    assert load_variant("house.yaml").start_level() == 3


def test_api_allow_plugins(plugin):
    name, marker = plugin
    with pytest.raises(VariantError) as info:
        load_variant("house.yaml")
    assert str(info.value) == refused(name)
    assert not marker.exists()
    assert load_variant("house.yaml", allow_plugins=[name]).start_level() == 3


def test_saved_game_naming_a_variant_file_with_plugins(plugin):
    """Loading a saved game whose `variant` is a YAML path imported its plugins."""
    name, marker = plugin
    record = {"format": 1, "variant": "house.yaml", "seed": 1, "max_deals": 1, "actions": []}
    with pytest.raises(VariantError, match=f"plugin '{name}' is not trusted"):
        Game.from_dict(json.loads(json.dumps(record)))
    assert not marker.exists()


def test_entry_point_plugins_need_no_allowance(monkeypatch, plugin):
    """Installing a package is the trust decision: an entry point of group
    shengji.plugins loads without --allow-plugin (the name here is not a module)."""
    name, _ = plugin
    module = load_variant("house.yaml", allow_plugins=[name]).plugins[0]

    class EP:
        value = name

        def __init__(self, ep_name):
            self.name = ep_name

        def load(self):
            return module

    monkeypatch.setattr(plugins_mod, "entry_points",
                        lambda group: [EP("fives")] if group == plugins_mod.PLUGIN_GROUP else [])
    path = plugin[1].parent / "ep.yaml"
    path.write_text("extends: two-deck-80\nplugins: [fives]\n", encoding="utf-8")
    assert load_variant(path).start_level() == 3


def test_a_shipped_variant_may_name_its_own_modules(monkeypatch, plugin):
    """A variant an installed package registers (group shengji.variants) is as trusted as
    the package: the modules its own `plugins:` names load."""
    from shengji.variants import registry

    name, marker = plugin
    src = registry.Source("pkg-house", "entry point",
                          mapping={"extends": "two-deck-80", "plugins": [name]})
    monkeypatch.setattr(registry, "entry_point_sources", lambda: [src])
    assert load_variant("pkg-house").start_level() == 3
    # a file of the user's that extends it may not add modules of its own
    other = marker.parent / "more.yaml"
    other.write_text("extends: pkg-house\nplugins: [os]\n", encoding="utf-8")
    with pytest.raises(VariantError, match="plugin 'os' is not trusted"):
        load_variant(other)
