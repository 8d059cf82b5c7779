"""Arimaa's input: what a tap, a drag's release and each button do in the setup, during a
turn (select, step, undo, done, resign), on the help pages and in a replay. `play.py`'s
`update` picks the phase; the scene is reached through `InputTarget`, never by importing
`play.py`.
"""

from __future__ import annotations

import random
from typing import Protocol

import pygame

from firmware.input import InputState
from firmware.match import Match
from firmware.match.replay import ReplayCursor
from firmware.scene import hit
from firmware.turn_game import replay_step
from games.arimaa.match import ArimaaAction, ArimaaRules, setup_action, turn_action
from games.arimaa.records import placement_of
from games.arimaa.rules.board import HOME_RANKS, parse_square
from games.arimaa.rules.position import named_setup, random_setup
from games.arimaa.scene import texts as tx
from games.arimaa.scene.animation import Fade, TurnAnimation
from games.arimaa.scene.setup_names import SETUP_NAMES
from games.arimaa.scene.views import ViewSource


class InputTarget(ViewSource, Protocol):
    """What the input reads and changes (the scene satisfies it)."""

    ai_seed: int
    rules: ArimaaRules
    match: Match[ArimaaAction]
    replay: ReplayCursor[ArimaaAction] | None
    arrangement: dict[int, dict[int, int]]
    random_count: int
    drag_from: int | None
    help_page: int | None
    resign_armed: bool
    last_rows: dict[int, tuple[str, str]]
    games_played: int

    def hotspots(self) -> dict[str, pygame.Rect]: ...
    def _new_game(self) -> None: ...
    def _offer(self, action: ArimaaAction) -> None: ...
    def _adopt_replay(self) -> None: ...


def on_hotspot(scene: InputTarget, name: str) -> None:
    kind, _, arg = name.partition(":")
    if scene.help_page is not None:
        on_help(scene, arg)
        return
    if arg == "play-again":
        if scene.versus is not None:
            return  # a versus match is not restarted alone (Back, or quit from the menu)
        scene.games_played += 1
        scene._new_game()
        return
    if arg == "back":
        for seat in scene.match.seats:
            seat.close()
        scene.ctx.quit()
        return
    if arg == "help" and scene.phase != "setup":
        scene.help_page = 0
        return
    if scene.anim is not None or not scene.local_to_move():
        return
    if scene.phase == "setup":
        on_setup(scene, kind, arg)
    elif kind == "square":
        on_square(scene, parse_square(arg), tap=True)
    elif arg == "undo":
        undo(scene)
    elif arg == "done":
        done(scene)
    elif arg == "resign":
        resign(scene)


def on_help(scene: InputTarget, arg: str) -> None:
    assert scene.help_page is not None
    if arg == "close":
        scene.help_page = None
    elif arg == "next" and scene.help_page < len(tx.HELP_PAGES) - 1:
        scene.help_page += 1
    elif arg == "prev" and scene.help_page > 0:
        scene.help_page -= 1


def on_release(scene: InputTarget, x: int, y: int) -> None:
    """The end of a drag: a release on another square acts as a tap there."""
    for name, rect in scene.hotspots().items():
        if name.startswith("square:") and rect.collidepoint(x, y):
            sq = parse_square(name.removeprefix("square:"))
            if sq != scene.drag_from and scene.local_to_move():
                if scene.phase == "setup":
                    on_setup(scene, "square", name.removeprefix("square:"), drag=True)
                else:
                    on_square(scene, sq, tap=False)
            return


def on_setup(scene: InputTarget, kind: str, arg: str, drag: bool = False) -> None:
    side = scene.game.side_to_move
    placement = scene._arrangement(side)
    if kind == "choice":
        if arg in SETUP_NAMES:
            scene.arrangement[side] = named_setup(side, SETUP_NAMES[arg])
        elif arg == "random":
            rng = random.Random(f"{scene.ctx.seed}:{scene.ai_seed}:random:{scene.random_count}")
            scene.random_count += 1
            scene.arrangement[side] = random_setup(side, rng)
        elif arg == "last" and side in scene.last_rows:
            scene.arrangement[side] = placement_of(side, scene.last_rows[side])
        else:
            return
        scene.setup_sel = None
        scene.ctx.play("select")
    elif kind == "button" and arg == "ok":
        scene._offer(setup_action(side, placement, scene.rules.turn_used()))
    elif kind == "square":
        sq = parse_square(arg)
        if not HOME_RANKS[side] >> sq & 1:
            return
        if scene.setup_sel is None:
            scene.setup_sel = sq
            scene.drag_from = sq
        elif scene.setup_sel == sq:
            if not drag:
                scene.setup_sel = None
        else:
            a = scene.setup_sel
            placement[a], placement[sq] = placement[sq], placement[a]
            scene.setup_sel = None
            scene.ctx.play("place")


def on_square(scene: InputTarget, sq: int, tap: bool) -> None:
    legal = scene._legal()
    if scene.selected is not None and sq in legal.get(scene.selected, {}):
        step(scene, scene.selected, sq)
        return
    if not tap:
        return
    if sq == scene.selected:
        scene.selected = None
        return
    if sq in legal:
        scene.selected = sq
        scene.drag_from = sq
        scene.notice = None
        scene.resign_armed = False
        scene.ctx.play("select")


def step(scene: InputTarget, frm: int, to: int) -> None:
    step = scene._draft().step(frm, to)
    scene.draft_steps.append((frm, to))
    scene.selected = None
    scene.notice = None
    scene.resign_armed = False
    if step.captured is not None:
        sq, side, kind = step.captured
        scene.fades.append(Fade(sq, side, kind))
        scene.ctx.play("pop")
    else:
        scene.ctx.play("place")


def undo(scene: InputTarget) -> None:
    if not scene.draft_steps:
        return
    scene._draft().undo_step()
    scene.draft_steps.pop()
    scene.selected = None
    scene.notice = None
    scene.resign_armed = False
    scene.fades = []


def done(scene: InputTarget) -> None:
    scene.resign_armed = False
    ok, why = scene._draft().can_end_turn()
    if not ok:
        scene.notice = why
        scene.ctx.play("error")
        return
    scene._offer(turn_action(scene.draft_steps, scene.rules.turn_used()))


def resign(scene: InputTarget) -> None:
    if not scene.resign_armed:
        scene.resign_armed = True
        return
    scene._offer(ArimaaAction("resign", scene.rules.turn_used()))


def update_replay(scene: InputTarget, inp: InputState) -> None:
    if scene.anim is not None:
        scene.anim.step()
        if scene.anim.done:
            scene.anim = None
    if scene.stored is None:
        return
    before = scene.game.position.boards
    events = replay_step(scene.replay, hit(scene.hotspots(), inp), inp)
    if events is not None:
        steps = [(e["from"], e["to"], -1 if e["captured"] is None else e["captured"][0])
                 for e in events if e["type"] == "step"]
        scene.anim = TurnAnimation(before, steps) if steps else None
    scene._adopt_replay()

