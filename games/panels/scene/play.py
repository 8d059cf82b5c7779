"""Panel Link on the handheld: one scene for play (against the computer, two on one unit)
and for replaying a stored record turn by turn (issue 16).

Every move goes through a `Match` (firmware.match): taps become the turn machine's actions
offered to the local player's seat, the computer's come from its `ComputerSeat` one step at
a time (select, place, each rotation, determine) so they can be followed, a replay's from
`ReplaySeat`s. The scene never changes the rules state itself. Events from each applied
action become animations (`animation.Anim`), played one after another; while one plays the
match waits and a tap or A only skips it (P-GAME-4).

The input of a turn is in `controls.py`, linked play in `link.py`, what the screens show in
`views.py`, dump, suspend and resume in `saved.py` (docs/architecture.md, "Inside a game").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from firmware.game_api import Game, GameContext, GameResult, Versus
from firmware.input import InputState
from firmware.match import (
    ComputerSeat,
    LocalSeat,
    Match,
    RemoteSeat,
    ReplaySeat,
    ReplaySource,
)
from firmware.match.replay import replay_command
from firmware.match.seats import Seat
from firmware.scene import hit
from games.panels.match import MatchAction, PanelsComputer, PanelsRules, decode_action
from games.panels.records import StoredGame, make_record, read_record, turn_boundaries
from games.panels.rules import (
    GameConfig,
    GameState,
    Pass,
)
from games.panels.scene import controls, effects, layout, saved, views
from games.panels.scene import help as help_pages
from games.panels.scene import link as link_glue
from games.panels.scene import texts as tx
from games.panels.scene.animation import Anim
from games.panels.scene.bottom_view import BottomView, draw_bottom
from games.panels.scene.controls import item_hotspot_names
from games.panels.scene.options import config_from_options
from games.panels.scene.saved import MODES
from games.panels.scene.top_view import TopView, draw_top
from hal.interfaces import Button

HUMAN = 0  # against the computer the person plays blue (player 1); option `first` says who begins
REPLAY_STEP_TICKS = 14  # between the steps of a replayed turn
COMPUTER_STEP_TICKS = 18  # each step of the computer's turn shows for at least 0.3 s


class PanelsScene(Game):
    """Play (modes `cpu`, `two`) or, with `record`, the replay viewer."""

    draws_thinking = True  # the upper screen's message box says the computer is thinking

    def __init__(self, ctx: GameContext, record: dict[str, Any] | None = None) -> None:
        super().__init__(ctx)
        opts = ctx.options
        self.mode = opts.get("mode", "cpu") if opts.get("mode") in MODES else "cpu"
        level = opts.get("level", "3")
        self.level = int(level) if level in ("1", "2", "3", "4") else 3
        self.record_data: dict[str, Any] | None = record
        self.record_error: str | None = None
        self.help_page: int | None = None
        self.clock = 0  # ticks of this game (blinking, dots): saved, unlike the machine's
        self.draft: PanelsRules | None = None  # link mode: this unit's provisional steps
        self.link_seat = 0
        # a versus match over the peer link (firmware.link's session), where the firmware has it
        self.versus: Versus | None = ctx.versus
        self._rules_seen: object = None
        if record is not None:
            self._open_record(record)
        elif self.versus is not None:
            link_glue.start_versus(self, self.versus, self._computer_seat)
        else:
            self._new_game(ctx.rng.randrange(2**31))

    # ------------------------------------------------------------------ set-up
    def _computer_seat(self, seat: int) -> Seat[MatchAction]:
        """The computer at this game's level (a versus partner's side, finishing alone)."""
        player = PanelsComputer(self.level, self.ai_seed)
        self.computer: PanelsComputer | None = player
        return self.ctx.computer_seat(player, COMPUTER_STEP_TICKS)

    def _new_game(self, game_seed: int) -> None:
        if getattr(self, "match", None) is not None:
            self.match.close()  # a computer's worker process of the game left behind
        self.game_seed = game_seed
        self.ai_seed = self.ctx.rng.randrange(2**31)
        config = config_from_options(self.ctx.options, game_seed)
        rules = PanelsRules.new(config)
        self.computer = None
        self.locals: dict[int, LocalSeat[MatchAction]] = {}
        seats: list[Seat[MatchAction]] = []
        for seat in range(config.players):
            if self.mode == "cpu" and seat != HUMAN:
                seats.append(self._computer_seat(seat))
            else:
                self.locals[seat] = LocalSeat()
                seats.append(self.locals[seat])
        self.match: Match[MatchAction] = Match(rules, seats)
        self.source: ReplaySource | None = None
        self._reset_view()

    def _reset_view(self) -> None:
        self._rules_seen = self.match.rules
        self.draft = None
        self.anims: list[Anim] = []
        self.shown_scores = [p.score for p in self.state.players]
        self.yaku_log: list[list[Any]] = []  # [seat, kind, cards, points] of the whole game
        self.item_armed: int | None = None  # slot tapped once (its help is shown)
        self.item_target: str | None = None  # "stock", "card" or "delta" while using an item
        self.item_square: tuple[int, int] | None = None
        self.drag: int | None = None  # stock card being dragged
        self.drag_pos: tuple[int, int] | None = None
        self.reported = False
        self.replay_wait = 0

    def _open_record(self, data: dict[str, Any]) -> None:
        self.game_seed, self.ai_seed = 0, 0
        self.computer = None
        self.locals = {}
        try:
            stored = read_record(data)
            self.mode, self.level = stored.mode, stored.level
            self.boundaries = turn_boundaries(stored.config, stored.actions)
        except (KeyError, TypeError, ValueError) as exc:
            self.record_error = str(exc)
            stored = StoredGame(GameConfig(seed=0), [], self.mode, self.level)
            self.boundaries = [0]
        self.replay_config = stored.config
        self.replay_actions = stored.actions
        self._seek(0)

    def _seek(self, count: int) -> None:
        """Replay: the position after `count` actions, shown at once (no animations)."""
        config = self.replay_config
        rules = PanelsRules.new(config)
        yaku_log: list[list[Any]] = []
        for seat, data in self.replay_actions[:count]:
            for event in rules.apply(seat, decode_action(data)):
                if event["type"] == "fixed":
                    yaku_log += effects.log_entries(event)
        self.source = ReplaySource(self.replay_actions)
        self.source.index = self.source.released = count
        seats = [ReplaySeat[MatchAction](self.source) for _ in range(config.players)]
        self.match = Match(rules, seats)
        self._reset_view()
        self.yaku_log = yaku_log

    @property
    def rules(self) -> PanelsRules:
        """The match's rules: the one truth (a link resync may replace them)."""
        rules = self.match.rules
        assert isinstance(rules, PanelsRules)
        return rules

    @property
    def state(self) -> GameState:
        """What is shown and played on: the match's state, or in link mode during this
        unit's turn its local draft (the provisional steps that never travel)."""
        return self.draft.state if self.draft is not None else self.rules.state

    # ------------------------------------------------------------------ link mode (link.py)
    def start_link(
        self, config: GameConfig, seat: int, send: Callable[[bytes, str], None]
    ) -> RemoteSeat[MatchAction]:
        return link_glue.start_link(self, config, seat, send)

    @property
    def is_replay(self) -> bool:
        return self.record_data is not None

    @property
    def view_seat(self) -> int:
        """Whose stock the lower screen shows: the person's against the computer, else the
        player to move (two on one unit pass it; a replay follows the mover)."""
        if self.mode == "cpu" and not self.is_replay:
            return HUMAN
        if self.mode == "link":
            return self.link_seat
        return self.state.current

    @property
    def me(self) -> int:
        """The person's seat where this unit has one (against the computer, linked)."""
        return self.link_seat if self.mode == "link" else HUMAN

    def local_to_move(self) -> bool:
        st = self.state
        return not st.over and not self.is_replay and st.current in self.locals

    @property
    def thinking(self) -> bool:
        seat = self.match.seats[self.state.current] if not self.state.over else None
        return isinstance(seat, ComputerSeat) and not self.anims

    def thinking_ticks(self) -> int:
        seat = self.match.seats[self.state.current] if not self.state.over else None
        if isinstance(seat, ComputerSeat) and seat.thinking and not self.anims:
            return seat.calls
        return 0

    @property
    def animating(self) -> bool:
        return bool(self.anims)

    # ------------------------------------------------------------------ hotspots
    def hotspots(self) -> dict[str, pygame.Rect]:
        if self.help_page is not None:
            return help_pages.hotspots(self.help_page)
        spots: dict[str, pygame.Rect] = {}
        st = self.state
        if self.is_replay:
            spots.update({f"button:{n}": r for n, r in layout.REPLAY_RECTS.items()})
            spots["button:help"] = layout.REPLAY_HELP_RECT
            return spots
        if st.over and not self.anims:
            if self.mode == "link":  # a new linked game is the session's to start
                return {"button:help": layout.HELP_RECT}
            return {"button:play-again": layout.PLAY_AGAIN_RECT}
        fld = st.field
        for i in range(fld.rows * fld.cols):
            if fld.usable[i]:
                r, c = fld.square(i)
                spots[f"square:{r},{c}"] = layout.square_rect(r, c)
        stock = st.players[self.view_seat].stock
        for i in range(len(stock)):
            spots[f"stock:{i}"] = layout.stock_rect(i)
        for slot, name in enumerate(item_hotspot_names(st.players[self.view_seat].items)):
            spots[name] = layout.item_rect(slot)
        if self.item_target == "delta":
            spots["button:plus"] = layout.PLUS_RECT
            spots["button:minus"] = layout.MINUS_RECT
        if self.local_to_move() and self.rules.check(st.current, Pass(st.current)) is None:
            spots["button:pass"] = layout.DETERMINE_RECT  # no stock card fits anywhere
        else:
            spots["button:determine"] = layout.DETERMINE_RECT
        spots["button:back"] = layout.BACK_RECT
        spots["button:help"] = layout.HELP_RECT
        return spots

    # ------------------------------------------------------------------ the tick
    def update(self, inp: InputState) -> None:
        self.clock += 1
        if self.help_page is not None:
            self.help_page = help_pages.update(self.help_page, hit(self.hotspots(), inp), inp)
            return
        name = hit(self.hotspots(), inp)
        if self.anims and (inp.touch_down or Button.A in inp.pressed):
            own = all(a.data.get("own") for a in self.anims)
            self._skip_animations()  # a tap or A skips the opponent's; it does nothing else
            if own and name is not None and name != "button:help":
                controls.local_input(self, name, inp)  # a quick player's next tap still counts
            name = None
        elif name == "button:help":
            self.help_page = 0
            return
        elif self.is_replay:
            self._replay_input(name, inp)
        elif name == "button:play-again":
            self._new_game(self.ctx.rng.randrange(2**31))
            return
        elif not self.anims:
            controls.local_input(self, name, inp)
        self._advance()

    def _advance(self) -> None:
        if self.match.rules is not self._rules_seen:  # new rules: a game, or a link resync
            if self._rules_seen is not None:
                self.draft = None  # this unit's provisional steps no longer apply
                self._clear_item()
            self._rules_seen = self.match.rules
        if self.anims:
            anim = self.anims[0]
            anim.t += 1
            if anim.done:
                self.anims.pop(0)
                self._finished(anim)
            return
        self.shown_scores = [p.score for p in self.state.players]
        if self.state.over:
            agreed = self.versus is None or bool(getattr(self.versus, "agreed", True))
            if not self.reported and not self.is_replay and agreed:
                self._report()  # in a versus match, once every unit has the same result
            return
        if self.is_replay:
            if self.replay_wait > 0:
                self.replay_wait -= 1
                return
            if self.source is not None and self.source.index < self.source.released:
                self._step()
                self.replay_wait = REPLAY_STEP_TICKS
            return
        if not self.local_to_move():
            self._step()

    def _skip_animations(self) -> None:
        while self.anims:
            anim = self.anims.pop(0)
            self._finished(anim)
        self.shown_scores = [p.score for p in self.state.players]

    def _finished(self, anim: Anim) -> None:
        if anim.kind == "yaku":
            seat = anim.data["seat"]
            self.shown_scores[seat] = anim.data["from"] + anim.data["points"]

    # ------------------------------------------------------------------ input
    def _clear_item(self) -> None:
        self.item_armed, self.item_target, self.item_square = None, None, None

    def _submit(self, action: MatchAction, link: bool = True) -> bool:
        """Offer a local action; False (and a short "no") when it is refused."""
        seat = self.locals.get(self.state.current)
        if seat is None:
            return False
        if link and self.mode == "link":
            return link_glue.submit_link(self, action)
        if self.rules.check(self.state.current, action) is not None:
            self.ctx.play("error")  # refused: nothing changes (P-GAME-2)
            return False
        seat.offer(action)
        self._step()
        return True

    # ------------------------------------------------------------------ match steps
    def _before(self, st: GameState) -> dict[str, Any]:
        """What the animations need from the state before an action."""
        return {
            "cells": list(st.field.cells),
            "stock": [list(p.stock) for p in st.players],
            "turns": [p.turns for p in st.players],
            "provisional": st.provisional,
            "selected": st.selected,
            "mover": st.current,
            "scores": [p.score for p in st.players],
        }

    def _step(self) -> None:
        """Let the seat to move act once; animate what its action did."""
        before = self._before(self.rules.state)
        events = self.match.step()
        if events:
            self._animate(events, before)

    def _animate(self, events: list[dict[str, Any]], before: dict[str, Any]) -> None:
        mover = before["mover"]
        local = mover in self.locals
        made = effects.animations(
            events, before, self.state, local=local, seen_here=mover == self.view_seat or local
        )
        self.anims += made.anims
        self.yaku_log += made.log
        for sound in made.sounds:
            self.ctx.play(sound)
        # a new turn began: its card arrives in the stock (where that stock is shown)
        st = self.state
        if not st.over and st.players[st.current].turns != before["turns"][st.current]:
            cur = st.current
            grew = len(st.players[cur].stock) > len(before["stock"][cur])
            if grew and cur == self.view_seat and (cur in self.locals or self.is_replay):
                data = {"slot": len(st.players[cur].stock) - 1}
                self.anims.append(Anim("arrive", effects.ARRIVE_TICKS, data))

    # ------------------------------------------------------------------ replay
    def _replay_input(self, name: str | None, inp: InputState) -> None:
        if self.record_error is not None or self.source is None:
            return
        action = replay_command(name, inp)
        if action is None:
            return
        done = self.source.released
        turn = max(i for i, b in enumerate(self.boundaries) if b <= done)
        if action == "forward" and turn + 1 < len(self.boundaries):
            if self.source.index < self.source.released:  # still stepping: finish at once
                self._seek(self.source.released)
            self.source.release(self.boundaries[turn + 1] - done)
        elif action == "back":
            target = self.boundaries[turn - 1] if done == self.boundaries[turn] and turn else (
                self.boundaries[turn])
            self._seek(target)
        elif action == "first":
            self._seek(0)
        elif action == "last":
            self._seek(self.boundaries[-1])

    def replay_turn(self) -> tuple[int, int]:
        if self.source is None:
            return 0, 0
        done = self.source.index
        turn = max(i for i, b in enumerate(self.boundaries) if b <= done)
        return turn, len(self.boundaries) - 1

    # ------------------------------------------------------------------ the end
    def _report(self) -> None:
        self.reported = True
        st = self.state
        result = self.rules.result()
        assert result is not None
        outcome = None
        if self.mode in ("cpu", "link"):
            outcome = "draw" if result.draw else "win" if result.winner == self.me else "loss"
        names = [tx.player_name(lambda en, ja: en, self.mode, s, self.me, self.level)
                 for s in range(st.config.players)]
        record = make_record(st.config, self.mode, self.level, names, self.match.history, result)
        summary = " - ".join(f"{n} {s}" for n, s in zip(names, result.scores, strict=True))
        names_ja = [tx.player_name(lambda en, ja: ja, self.mode, s, self.me, self.level)
                    for s in range(st.config.players)]
        summary_ja = " - ".join(f"{n} {s}" for n, s in zip(names_ja, result.scores, strict=True))
        self.ctx.finish(
            GameResult(outcome, result.scores[self.me] if outcome else None, summary,
                       record, summary_ja)
        )
        self.ctx.play("lose" if outcome == "loss" else "win")

    # ------------------------------------------------------------------ views (views.py)
    def names(self) -> list[str]:
        return views.player_names(self)

    def top_view(self) -> TopView:
        return views.top_view(self)

    def bottom_view(self) -> BottomView:
        return views.bottom_view(self)

    def permitted(self) -> set[tuple[int, int]] | None:
        return views.permitted(self)

    # ------------------------------------------------------------------ dump and state (saved.py)
    def dump(self) -> dict[str, Any]:
        return saved.dump(self)

    def announcement(self) -> list[str] | None:
        return saved.announcement(self)

    def save_state(self) -> dict[str, Any]:
        return saved.save_state(self)

    def load_state(self, state: dict[str, Any]) -> None:
        saved.load_state(self, state)

    # ------------------------------------------------------------------ drawing
    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        tr = self.ctx.tr
        if self.help_page is not None:
            help_pages.draw(top, bottom, self.help_page, tr)
            return
        draw_top(top, self.top_view(), tr)
        draw_bottom(bottom, self.bottom_view(), tr)
