"""Region Select's registration with the firmware: titles, icon and options."""

from __future__ import annotations

import pygame

from firmware.game_api import Cartridge, Option, SceneAt
from games.regions.scene import surfaces as srf
from games.regions.scene.surface_view import GREY, LINE, POINT, WHITE


def draw_icon(surf: pygame.Surface) -> None:
    """32x32: a trefoil surface in white and grey with its red points."""
    pygame.draw.rect(surf, GREY, (0, 0, 32, 32), border_radius=6)
    pts = [(16, 5), (27, 24), (5, 24), (16, 17)]
    pygame.draw.polygon(surf, WHITE, [pts[0], pts[1], pts[3]])
    pygame.draw.polygon(surf, WHITE, [pts[1], pts[2], pts[3]])
    pygame.draw.polygon(surf, GREY, [pts[2], pts[0], pts[3]])
    for a, b in ((0, 1), (1, 2), (2, 0), (0, 3), (1, 3), (2, 3)):
        pygame.draw.line(surf, LINE, pts[a], pts[b], 2)
    for p in pts:
        pygame.draw.circle(surf, WHITE, p, 3)
        pygame.draw.circle(surf, POINT, p, 2)


def _pattern_number(value: str) -> bool:
    return value.isdigit() and 1 <= int(value) <= 3**15


SURFACES = ("choose", "draw", *srf.catalogue_names(), *(f"random:{n}" for n in srf.RANDOM_SIZES))

CARTRIDGE = Cartridge(
    id="regions",
    title="Region Select",
    title_ja="リージョン セレクト",
    description="A knot-theory puzzle: tap a point to switch the regions around it and turn "
    "them all grey; every puzzle has a solution. Pick a surface, a random one or draw a "
    "curve. On one unit: solo, with hints. Versus: a race of two units over the link.",
    description_ja="てんを タッチすると まわりの りょういきの いろが かわる。ぜんぶ はいいろに "
    "しよう。かならず とけます。1だいで ひとりで。たいせん: 2だいで おなじ もんだいを "
    "きょうそう。",
    draw_icon=draw_icon,
    create=SceneAt("games.regions.scene.play:RegionsScene"),
    players=(1, 2),
    replay=SceneAt("games.regions.scene.play:RegionsScene"),  # opened on a record
    versus=True,  # the race over the link (`ctx.versus`)
    versus_options=("variant", "goal", "unselectable", "surface", "pattern"),
    # the link bars alone, at the end of the surface's row: the partner's line names the
    # partner, and a badge at the top centre hid "Selections" and the race's headline
    versus_badge=(238, 17),
    versus_badge_names=False,
    options=(
        Option("mode", "Mode", ("solo",), "solo", label_ja="モード",
               choice_labels={"solo": "Solo"}, choice_labels_ja={"solo": "ひとりで"}),
        Option(
            "variant",
            "Rule",
            ("classic", "three", "three-random", "cyclic3", "cyclic4"),
            "classic",
            label_ja="ルール",
            choice_labels={
                "classic": "White/grey",
                "three": "3 states, in turn",
                "three-random": "3 states, random",
                "cyclic3": "Cycle of 3",
                "cyclic4": "Cycle of 4",
            },
            choice_labels_ja={
                "classic": "しろ/はいいろ",
                "three": "3しょく じゅんばん",
                "three-random": "3しょく ランダム",
                "cyclic3": "3の わ",
                "cyclic4": "4の わ",
            },
        ),
        Option("goal", "Goal (3 states)", ("A", "B", "C"), "A", label_ja="ゴール(3しょく)"),
        Option("unselectable", "One point blocked", ("off", "on"), "off",
               label_ja="えらべない てん"),
        Option("targets", "Targets", ("normal", "large"), "normal", label_ja="まと",
               choice_labels={"normal": "Normal", "large": "Large"},
               choice_labels_ja={"normal": "ふつう", "large": "おおきい"}),
        Option("surface", "Surface", SURFACES, "choose", label_ja="めん",
               choice_labels_ja={"draw": "かく", **{f"random:{n}": f"ランダム:{n}"
                                                     for n in srf.RANDOM_SIZES}}),
        Option("pattern", "Pattern", ("choose", "random"), "choose", label_ja="パターン",
               accepts=_pattern_number),
    ),
    launcher_order=40,  # where the launcher shows it (Cartridge.launcher_order)
)
