"""Killing Sevens' scene to and from JSON: `dump` (the P-DUMP state tests and movies read),
`save_state` (suspend) and `load_state` (resume, refusing anything that does not check).
Reads and restores the scene through `SaveSource`, never imports `play.py`.
"""

from __future__ import annotations

from typing import Any, Protocol

import pygame

from firmware.game_api import GameContext
from firmware.match import Match
from firmware.turn_game import check_version, replay_save, save_reader
from games.sevens.match import SevensRules
from games.sevens.rules import Game as Table
from games.sevens.rules import board, card_name
from games.sevens.scene import help as help_pages
from games.sevens.scene.animation import Anim
from games.sevens.scene.setup import OPTION_KEYS, Setup
from games.sevens.scene.talk import Talk
from games.sevens.scene.views import ViewSource

STATE_VERSION = 1
PHASES = ("members", "options", "play", "over", "replay")


class SaveSource(ViewSource, Protocol):
    """What dump, suspend and resume read and restore (the scene satisfies it)."""

    ctx: GameContext
    setup: Setup
    base: str
    games: int
    holder: int | None
    reported: bool
    help_page: int | None
    focus: str
    match: Match[str] | None
    record_data: dict[str, Any] | None
    record_error: str | None

    @property
    def mode(self) -> str: ...
    def playable(self) -> list[int]: ...
    def hotspots(self) -> dict[str, pygame.Rect]: ...
    def _ja(self) -> bool: ...
    def _match_for(self, seed: str, setup: Setup, members: list[str]) -> Match[str]: ...
    def _open_record(self, data: dict[str, Any]) -> None: ...
    def _replay_to(self, index: int) -> None: ...


def dump(scene: SaveSource) -> dict[str, Any]:
    dialog = scene.phase in ("members", "options")
    game = None if dialog else scene.table
    options = scene.draft if dialog else scene.setup
    out: dict[str, Any] = {
        "phase": scene.phase,
        "mode": ("two" if options.humans > 1 else "cpu") if dialog else scene.mode,
        "members": ["human", *options.seats] if dialog else list(scene.members),
        "options": options.to_json(),
        "line": None,
        "turn": None,
        "seat": 0 if dialog else scene.local_seat,
        "hand": [],
        "playable": [],
        "table": ["." * 13] * 4,
        "cards_left": [13] * 4,
        "killed": [0] * 4,
        "kills": [0] * 4,
        "finished": [],
        "ranking": [],
        "selected": None,
        "frame": None,
        "handoff": None,
        "animating": scene.anim is not None,
        "pass": False,
        "help": scene.help_page,
    }
    last = scene.talk.last
    if last is not None:
        out["line"] = last.text(scene._ja())
    if scene.record_error is not None:
        out["message"] = scene.ctx.tr(
            "This record cannot be read.", "このきろくは よみこめません。"
        )
    if game is None:
        return out
    seat = scene.local_seat
    out.update(
        turn=game.current,
        hand=[card_name(c) for c in game.hand(seat)],
        playable=[card_name(c) for c in scene.playable()],
        table=table_rows(game),
        cards_left=[game.cards_left(s) for s in range(4)],
        killed=list(game.killed_count),
        kills=list(game.kills_count),
        finished=list(game.finish_order),
        ranking=game.ranking(),
        selected=card_name(scene.selected) if scene.selected is not None else None,
        handoff=scene.names()[game.current]
        if scene.handoff and game.current is not None
        else None,
        names=scene.names(),
        pass_="button:pass" in scene.hotspots(),
    )
    out["pass"] = out.pop("pass_")
    if scene.selected is not None:
        out["frame"] = "yellow" if game.is_playable(scene.selected) else "red"
    if scene.phase == "replay":
        out["hands"] = [[card_name(c) for c in game.hand(s)] for s in range(4)]
        out["replay"] = {"index": scene.replay_index, "total": len(scene.replay_actions)}
    return out


def save_state(scene: SaveSource) -> dict[str, Any]:
    if scene.phase == "replay":
        return replay_save(STATE_VERSION, scene.record_data, scene.replay_index, "phase")
    return {
        "version": STATE_VERSION,
        "phase": scene.phase,
        "setup": scene.setup.to_json(),
        "draft": scene.draft.to_json(),
        "base": scene.base,
        "games": scene.games,
        "members": list(scene.members),
        "match": scene.match.save() if scene.match is not None else None,
        "talk": scene.talk.to_json(),
        "anim": scene.anim.to_json() if scene.anim is not None else None,
        "selected": scene.selected,
        "holder": scene.holder,
        "handoff": scene.handoff,
        "reported": scene.reported,
        "help": scene.help_page,
        "focus": scene.focus,
    }


def load_state(scene: SaveSource, state: dict[str, Any]) -> None:
    with save_reader("a Killing Sevens save", AttributeError):
        if check_version(state, STATE_VERSION)["phase"] == "replay":
            scene.phase = "replay"
            scene._open_record(state["record"])
            if scene.record_error is None:
                index = int(state["index"])
                if not 0 <= index <= len(scene.replay_actions):
                    raise ValueError("bad replay position")
                scene._replay_to(index)
            return
        _load_play(scene, state)


def _load_play(scene: SaveSource, state: dict[str, Any]) -> None:
    phase = state["phase"]
    if phase not in PHASES:
        raise ValueError(f"unknown phase {phase!r}")
    setup = Setup.from_json(state["setup"])
    draft = Setup.from_json(state["draft"])
    games, base = int(state["games"]), str(state["base"])
    members = [str(m) for m in state["members"]]
    talk = Talk()
    talk.load(state["talk"])
    anim = Anim.from_json(state["anim"]) if state["anim"] is not None else None
    selected, holder = state["selected"], state["holder"]
    match = None
    if state["match"] is not None:
        match = scene._match_for(f"{base}:{games}", setup, members)
        match.load(state["match"])
        rules = match.rules
        if not isinstance(rules, SevensRules) or rules.game.options != setup.rules:
            raise ValueError("the saved game's options differ from its setup")
    elif phase in ("play", "over"):
        raise ValueError("a game in play needs its match")
    if selected is not None and (match is None or selected not in range(52)):
        raise ValueError("bad selection")
    if holder is not None and holder not in range(4):
        raise ValueError("bad holder")
    focus = state.get("focus", OPTION_KEYS[0])
    if focus not in OPTION_KEYS:
        raise ValueError("bad option focus")
    help_page = state.get("help")
    if help_page is not None and help_page not in range(len(help_pages.PAGES)):
        raise ValueError("bad help page")
    scene.setup, scene.draft, scene.games, scene.members = setup, draft, games, members
    scene.base = base
    scene.match = match
    scene.phase, scene.talk, scene.anim = phase, talk, anim
    scene.selected, scene.holder = selected, holder
    scene.handoff, scene.reported = bool(state["handoff"]), bool(state["reported"])
    scene.help_page = help_page
    scene.focus = focus



def table_rows(game: Table) -> list[str]:
    """The table as 4 rows of 13: `.` unplayed, the rank letter played, `x` killed."""
    rows = []
    for r in range(4):
        row = ""
        for c in range(13):
            bit = board.BIT[r * 13 + c]
            row += (
                "x" if game.killed & bit else card_name(r * 13 + c)[0] if game.played & bit else "."
            )
        rows.append(row)
    return rows
