"""Panel Link's input in play: what a tap, a drag and each button do on this unit's turn
(select, place, rotate, determine, pass, back, the items). Every action goes to the scene's
`_submit` (the match, or in link mode the local draft); the scene is reached through
`InputTarget`, never by importing `play.py`.
"""

from __future__ import annotations

from typing import Protocol

import pygame

from firmware.game_api import GameContext
from firmware.input import InputState
from games.panels.match import MatchAction
from games.panels.rules import Back, Determine, GameState, Pass, Place, Rotate, Select, UseItem
from games.panels.rules import items as it


def item_hotspot_names(items: list[str]) -> list[str]:
    """`item:<name>` per held item; a second one of a kind is `item:<name>-2`, and so on."""
    seen: dict[str, int] = {}
    out = []
    for kind in items:
        seen[kind] = seen.get(kind, 0) + 1
        out.append(f"item:{kind}" if seen[kind] == 1 else f"item:{kind}-{seen[kind]}")
    return out


class InputTarget(Protocol):
    """What the input reads and changes (the scene satisfies it)."""

    ctx: GameContext
    item_armed: int | None
    item_target: str | None
    item_square: tuple[int, int] | None
    drag: int | None
    drag_pos: tuple[int, int] | None

    @property
    def state(self) -> GameState: ...
    def local_to_move(self) -> bool: ...
    def hotspots(self) -> dict[str, pygame.Rect]: ...
    def _clear_item(self) -> None: ...
    def _submit(self, action: MatchAction, link: bool = True) -> bool: ...


def local_input(scene: InputTarget, name: str | None, inp: InputState) -> None:
    if not scene.local_to_move():
        return
    st = scene.state
    p = st.current
    if scene.drag is not None:
        if inp.touch is not None:
            scene.drag_pos = (inp.touch.x, inp.touch.y)
        elif inp.touch_up:
            drop(scene, inp)
            return
    if name is None:
        return
    if name.startswith("stock:"):
        index = int(name.removeprefix("stock:"))
        if scene.item_target == "stock":
            use_item(scene, UseItem(p, scene.item_armed or 0, stock=index))
            return
        scene._clear_item()
        if index != st.selected or st.provisional is not None:
            scene._submit(Select(p, index))
        if scene.state.selected == index:  # (link mode: the draft is a new object)
            scene.drag, scene.drag_pos = index, None
    elif name.startswith("square:"):
        r, c = (int(v) for v in name.removeprefix("square:").split(","))
        tap_square(scene, (r, c))
    elif name.startswith("item:"):
        tap_item(scene, name)
    elif name == "button:determine":
        scene._clear_item()
        scene._submit(Determine(p))
    elif name == "button:pass":
        scene._clear_item()
        scene._submit(Pass(p))
    elif name == "button:back":
        if scene.item_armed is not None or scene.item_target is not None:
            scene._clear_item()
        else:
            scene._submit(Back(p))
    elif name in ("button:plus", "button:minus") and scene.item_square is not None:
        delta = 1 if name == "button:plus" else -1
        use_item(scene, UseItem(p, scene.item_armed or 0, scene.item_square, delta))


def tap_square(scene: InputTarget, square: tuple[int, int]) -> None:
    st = scene.state
    p = st.current
    if scene.item_target == "card":
        kind = st.players[p].items[scene.item_armed or 0]
        if kind == it.RENUMBER:
            probe = UseItem(p, scene.item_armed or 0, square, 1)
            if st.check(probe) is None:
                scene.item_square, scene.item_target = square, "delta"
            else:
                scene.ctx.play("error")
        else:
            use_item(scene, UseItem(p, scene.item_armed or 0, square))
        return
    scene._clear_item()
    if st.provisional is not None and st.provisional[0] == square:
        scene._submit(Rotate(p))
    else:
        scene._submit(Place(p, square))


def tap_item(scene: InputTarget, name: str) -> None:
    st = scene.state
    names = item_hotspot_names(st.players[st.current].items)
    slot = names.index(name)
    if scene.item_armed != slot:
        scene._clear_item()
        scene.item_armed = slot  # the first tap shows what it does
        return
    kind = st.players[st.current].items[slot]
    if kind == it.RESHUFFLE:
        use_item(scene, UseItem(st.current, slot))
    elif st.item_used or st.provisional is not None:
        scene.ctx.play("error")  # refused: items come before placing, one per turn
    else:
        scene.item_target = "stock" if kind == it.PRISM else "card"


def use_item(scene: InputTarget, action: UseItem) -> None:
    if scene._submit(action):
        scene._clear_item()  # a refused target leaves the choice open


def drop(scene: InputTarget, inp: InputState) -> None:
    """The stylus left a dragged stock card: over a square it is placed there."""
    point, scene.drag, scene.drag_pos = inp.last_touch, None, None
    if point is None:
        return
    for name, rect in scene.hotspots().items():
        if name.startswith("square:") and rect.collidepoint(point.x, point.y):
            r, c = (int(v) for v in name.removeprefix("square:").split(","))
            st = scene.state
            if st.provisional is None or st.provisional[0] != (r, c):
                scene._submit(Place(st.current, (r, c)))
            return

