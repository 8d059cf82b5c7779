"""Killing Sevens' input per phase: the help pages, the members and options dialogs, play
(cards, pass, the hand-off, skipping a line), the game-over dialog and the replay buttons.
`play.py`'s `update` picks the phase; the scene is reached through `InputTarget`, never by
importing `play.py`.
"""

from __future__ import annotations

from typing import Protocol

from firmware.game_api import GameContext
from firmware.input import InputState
from firmware.match import Match, ReplayCursor
from firmware.turn_game import replay_step
from games.sevens.match import PASS
from games.sevens.rules import Game as Table
from games.sevens.rules import Tally, card_name, parse_card
from games.sevens.scene.animation import Anim
from games.sevens.scene.setup import TALLY_KEY, Setup
from games.sevens.scene.talk import Talk
from hal.interfaces import Button


class InputTarget(Protocol):
    """What the input reads and changes (the scene satisfies it)."""

    ctx: GameContext
    phase: str
    help_page: int | None
    setup: Setup
    draft: Setup
    focus: str
    anim: Anim | None
    talk: Talk
    selected: int | None
    holder: int | None
    handoff: bool
    match: Match[str] | None
    cursor: ReplayCursor[str] | None

    @property
    def table(self) -> Table | None: ...
    def human_to_move(self) -> bool: ...
    def _new_game(self) -> None: ...
    def _offer(self, action: str) -> None: ...
    def _advance(self) -> None: ...


def update_help(scene: InputTarget, name: str | None) -> None:
    assert scene.help_page is not None
    if name == "button:next":
        scene.help_page += 1
    elif name == "button:back":
        scene.help_page -= 1
    elif name == "button:ok":
        scene.help_page = None
    else:
        return
    scene.ctx.play("select")


def update_members(scene: InputTarget, name: str | None) -> None:
    if name is not None and name.startswith("choice:seat"):
        scene.draft = scene.draft.cycle_seat(int(name[-1]) - 1)
        scene.ctx.play("select")
    elif name == "button:ok":
        scene.phase = "options"
        scene.ctx.play("select")


def update_options(scene: InputTarget, name: str | None) -> None:
    if name is not None and name.startswith("choice:"):
        scene.focus = name.removeprefix("choice:")
        scene.draft = scene.draft.cycle(scene.focus)
        scene.ctx.play("select")
    elif name == "button:ok":
        scene.setup = scene.draft
        scene.ctx.play("select")
        scene._new_game()


def update_over(scene: InputTarget, name: str | None) -> None:
    if name == "button:play-again":
        scene._new_game()
    elif name == "button:members":
        scene.draft = scene.setup
        scene.phase = "members"
    elif name == "button:reset":
        scene.ctx.save_data(TALLY_KEY, Tally().to_json())
        scene.ctx.play("select")


def update_play(scene: InputTarget, name: str | None, inp: InputState) -> None:
    skip = Button.A in inp.pressed and name is None
    if scene.anim is not None and (skip or inp.tapped_at() is not None):
        scene.anim = None  # a tap or A skips the animation; cards wait for it to end
        if name is None or name.startswith("card:"):
            name = None
    if name == "button:skip":
        scene.talk.skip()
    elif name == "button:ok" and scene.handoff:
        scene.handoff = False
        scene.holder = scene.match.to_move if scene.match else None
        scene.ctx.play("select")
    elif name is not None and name.startswith("card:"):
        tap_card(scene, parse_card(name.removeprefix("card:")))
    elif name == "button:pass" and scene.human_to_move():
        scene._offer(PASS)
    scene._advance()


def tap_card(scene: InputTarget, card: int) -> None:
    """First tap: show the card's place (yellow or red frame); second tap: play it."""
    if not scene.human_to_move() or scene.table is None:
        return
    if scene.selected != card:
        scene.selected = card
        scene.ctx.play("select")
        return
    if card in scene.table.legal_cards():
        scene._offer(card_name(card))
    else:
        scene.ctx.play("error")  # a red-framed card: nothing happens


def update_replay(scene: InputTarget, name: str | None, inp: InputState) -> None:
    if scene.anim is not None:
        scene.anim.age += 1
        if scene.anim.done:
            scene.anim = None
    cursor = scene.cursor
    if cursor is None:
        return
    events = replay_step(cursor, name, inp)
    if events is not None:
        plays = [e for e in events if e["type"] == "play"]
        killed = [parse_card(c) for e in events if e["type"] == "kill" for c in e["cards"]]
        scene.anim = (
            Anim(parse_card(plays[0]["card"]), killed, 0, plays[0]["seat"]) if plays else None
        )
    scene.match = cursor.match

