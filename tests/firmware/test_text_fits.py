"""Labels that fit their boxes (issue 24, item 6): the launcher's tiles show whole titles,
and every option's name and value sit apart on the setup screen."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from firmware import cartridges
from firmware.game_api import rule_broken
from firmware.gfx import text
from firmware.scenes.launcher import TILE_W
from firmware.scenes.menu import LABEL_GAP
from firmware.testing import description_problems
from hal.interfaces import SCREEN_W

OPTION_ROW = SCREEN_W - 92 - 12  # the value row of a menu (menu.py) less its margins


@pytest.fixture(autouse=True)
def _pygame() -> None:
    pygame.init()


@pytest.mark.parametrize("game_id", sorted(cartridges.discover()))
def test_every_tile_title_is_shown_whole(game_id: str) -> None:
    cart = cartridges.discover()[game_id]
    lines = text.wrap(cart.title, TILE_W - 6)
    fits = len(lines) <= 2 and all(text.size(line)[0] <= TILE_W - 4 for line in lines)
    assert fits, f"{game_id}: {cart.title!r} as {lines}: {rule_broken('G3')}"
    assert " ".join(lines) == cart.title, rule_broken("G3")  # nothing cut, no "…"


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("game_id", sorted(cartridges.discover()))
def test_every_option_name_and_value_fit_apart(game_id: str, language: str) -> None:
    """In both languages (issue 34: Reversi's "あなたの い…" was shortened to fit)."""
    for opt in cartridges.discover()[game_id].options:
        label = opt.label_ja if language == "ja" else opt.label
        for choice in opt.choices:
            for remembered in (True, False):
                value = opt.shown(choice, language, remembered)
                width = text.size(label)[0] + LABEL_GAP + text.size(value)[0]
                assert width <= OPTION_ROW, f"{label!r} {value!r}: {width}: {rule_broken('G3')}"


@pytest.mark.parametrize("game_id", sorted(cartridges.discover()))
def test_every_description_says_how_it_is_played_and_fits(game_id: str) -> None:
    """Issue 24, item 7: on one unit, against the computer, over the link (how many units)."""
    problems = description_problems(cartridges.discover()[game_id])
    assert not problems, "\n".join(problems)


def test_a_description_that_breaks_rule_g2_is_named() -> None:
    cart = cartridges.discover()["reversi"]
    bad = replace(cart, description="Play it. " * 40, description_ja="あそぶ")
    problems = description_problems(bad)
    assert len(problems) == 5 and all("rule G2" in p for p in problems), problems
