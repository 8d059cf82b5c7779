"""The game API's option checks, a game leaving by its own Quit, and the scenes a cartridge
names (SceneAt), imported only when a game starts."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys

import pytest

from firmware.cartridges import discover
from firmware.game_api import Cartridge, Game, Option, SceneAt
from firmware.testing import machine_from_movie, run


def _cartridge(*options: Option) -> Cartridge:
    return Cartridge("x", "X", "", lambda s: None, lambda ctx: None, options=options)  # type: ignore[arg-type, return-value]


def test_free_form_values_pass_only_through_accepts():
    number = Option("n", "N", ("choose",), "choose", accepts=lambda v: v.isdigit())
    fixed = Option("m", "M", ("a", "b"), "a")
    cart = _cartridge(number, fixed)
    assert cart.resolve_options({"n": "42"}) == {"n": "42", "m": "a"}
    assert cart.resolve_options({}) == {"n": "choose", "m": "a"}
    with pytest.raises(ValueError, match="option n must be one of choose"):
        cart.resolve_options({"n": "x1"})
    with pytest.raises(ValueError, match=r"option m must be one of a, b$"):
        cart.resolve_options({"m": "7"})


def test_a_game_quits_to_the_launcher_and_its_saved_game_stays(tmp_path):
    m = machine_from_movie(tmp_path, game="pop")
    run(m, 2, draw=False)
    scene = m.game_scene()
    m.suspend_game()
    scene.ctx.quit()
    # a game's own quit button never discards a saved game (issue 24): it waits
    assert m.scene.name == "launcher" and m.store.load_suspend("pop") is not None


def test_every_rule_a_check_holds_a_game_to_is_written_in_the_architecture_doc() -> None:
    """Issue 37, item 2: the rules live in the game API and in docs/architecture.md, not only
    inside tests; each check's failure names its rule and the section."""
    from pathlib import Path

    from firmware.game_api import GAME_RULES, RULES_SECTION, rule_broken

    doc = (Path(__file__).resolve().parents[2] / "docs" / "architecture.md").read_text()
    heading = RULES_SECTION.split('"')[1]
    assert f"### {heading}\n" in doc
    section = doc.split(f"### {heading}\n")[1].split("\n## ")[0]
    for key in GAME_RULES:
        assert f"\n| {key} | " in section, key
        assert key in rule_broken(key) and RULES_SECTION in rule_broken(key)


def test_reading_the_cartridges_imports_no_games_scene():
    """Every start of the unit reads every cartridge to fill the launcher; the scenes (and
    the computer players they pull in) are imported only when a game starts (SceneAt)."""
    code = (
        "import sys\n"
        "from firmware.cartridges import discover\n"
        "found = discover()\n"
        "scenes = sorted(m for m in sys.modules if m.startswith('games.')"
        " and (m.endswith('.scene.play') or m == 'games.pop.scene'))\n"
        "print(len(found), scenes)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy"},
    ).stdout.split(maxsplit=1)  # fmt: skip
    assert int(out[0]) >= 6 and out[1].strip() == "[]"


def test_every_cartridges_scene_is_found_where_it_says():
    """A SceneAt names a class by text: each shipped one must be a game's scene class (a typo
    would only show when a player starts that game)."""
    for cartridge in discover().values():
        for factory in (cartridge.create, cartridge.replay):
            if isinstance(factory, SceneAt):
                module, _, name = factory.target.partition(":")
                scene = getattr(importlib.import_module(module), name)
                assert isinstance(scene, type) and issubclass(scene, Game), factory.target
    missing = SceneAt("games.reversi.scene.play:NoSuchScene")
    with pytest.raises(AttributeError, match="NoSuchScene"):
        missing(None)  # type: ignore[arg-type]
