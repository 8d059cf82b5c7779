"""Panel Link on the handheld: one scene for play (against the computer, two on one unit)
and for replaying a stored record turn by turn (issue 16).

Every move goes through a `Match` (firmware.match): taps become the turn machine's actions
offered to the local player's seat, the computer's come from its `ComputerSeat` one step at
a time (select, place, each rotation, determine) so they can be followed, a replay's from
`ReplaySeat`s. The scene never changes the rules state itself. Events from each applied
action become animations (`animation.Anim`), played one after another; while one plays the
match waits and a tap or A only skips it (P-GAME-4).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pygame

from firmware.game_api import Game, GameContext, GameResult
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
from games.panels.match import Fix, MatchAction, PanelsComputer, PanelsRules, decode_action
from games.panels.records import StoredGame, make_record, read_record, turn_boundaries
from games.panels.rules import (
    Back,
    Determine,
    GameConfig,
    GameState,
    Pass,
    Place,
    Rotate,
    Select,
    UseItem,
)
from games.panels.rules import items as it
from games.panels.rules.field import SHAPE_NAMES
from games.panels.scene import effects, layout
from games.panels.scene import help as help_pages
from games.panels.scene import texts as tx
from games.panels.scene.animation import Anim
from games.panels.scene.bottom_view import BottomView, draw_bottom
from games.panels.scene.top_view import TopView, draw_top
from hal.interfaces import Button

STATE_VERSION = 1
MODES = ("cpu", "two")
LEVELS = (1, 2, 3, 4)
TARGETS = ("100", "200", "300", "500")
HUMAN = 0  # against the computer the person plays blue (player 1); option `first` says who begins
REPLAY_STEP_TICKS = 14  # between the steps of a replayed turn
COMPUTER_STEP_TICKS = 18  # each step of the computer's turn shows for at least 0.3 s


def config_from_options(opts: dict[str, str], seed: int) -> GameConfig:
    """The rules config the options describe (invalid values fall back to defaults)."""
    target = int(opts["target"]) if opts.get("target") in TARGETS else 300
    shape = opts.get("field") if opts.get("field") in SHAPE_NAMES else None
    return GameConfig(
        seed=seed,
        target=target,
        removal=opts.get("removal") == "on",
        shape=shape,
        first_player=1 if opts.get("first") == "2" else 0,
        items=opts.get("items", "on") != "off",
    )


def item_hotspot_names(items: list[str]) -> list[str]:
    """`item:<name>` per held item; a second one of a kind is `item:<name>-2`, and so on."""
    seen: dict[str, int] = {}
    out = []
    for kind in items:
        seen[kind] = seen.get(kind, 0) + 1
        out.append(f"item:{kind}" if seen[kind] == 1 else f"item:{kind}-{seen[kind]}")
    return out


def _rng_state(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


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
        self.versus: Any = getattr(ctx, "versus", None)
        self._rules_seen: object = None
        if record is not None:
            self._open_record(record)
        elif self.versus is not None:
            self._start_versus(self.versus)
        else:
            self._new_game(ctx.rng.randrange(2**31))

    # ------------------------------------------------------------------ set-up
    def _new_game(self, game_seed: int) -> None:
        if getattr(self, "match", None) is not None:
            self.match.close()  # a computer's worker process of the game left behind
        self.game_seed = game_seed
        self.ai_seed = self.ctx.rng.randrange(2**31)
        config = config_from_options(self.ctx.options, game_seed)
        rules = PanelsRules.new(config)
        self.computer: PanelsComputer | None = None
        self.locals: dict[int, LocalSeat[MatchAction]] = {}
        seats: list[Seat[MatchAction]] = []
        for seat in range(config.players):
            if self.mode == "cpu" and seat != HUMAN:
                self.computer = PanelsComputer(self.level, self.ai_seed)
                seats.append(self.ctx.computer_seat(self.computer, COMPUTER_STEP_TICKS))
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

    # ------------------------------------------------------------------ link mode
    def start_link(
        self, config: GameConfig, seat: int, send: Callable[[bytes, str], None]
    ) -> RemoteSeat[MatchAction]:
        """Link mode: this unit plays `seat` of a game both units build from `config` (the
        session shares it). Select, place, rotate and back stay on this unit (a local draft
        of the match state); determine sends one `Fix` (R-PAN-TURN-6); items and passes go
        as themselves. `send(data, digest)` carries each of this unit's actions with the
        digest after it; the other unit's arrive through the returned remote seat."""
        if getattr(self, "match", None) is not None:
            self.match.close()
        self.mode, self.link_seat, self.record_data = "link", seat, None
        rules = PanelsRules.new(config)
        local: LocalSeat[MatchAction] = LocalSeat()
        remote: RemoteSeat[MatchAction] = RemoteSeat()
        self.locals = {seat: local}
        self.computer = None
        seats: list[Seat[MatchAction]] = [
            local if s == seat else remote for s in range(config.players)
        ]
        self.match = Match(rules, seats)

        def outgoing(played: Any, events: list[dict[str, Any]]) -> None:
            if played.seat == seat:
                send(played.data, played.digest)

        self.match.listeners.append(outgoing)
        self.source = None
        self._reset_view()
        return remote

    def _start_versus(self, session: Any) -> None:
        """Link mode with the peer link's session: it agreed the options and the shared seed
        (`ctx.seed`, so `ctx.rng` draws the same game seed on every unit), makes a local seat
        for this unit's player and remote seats for the others, and carries this unit's
        actions out (`attach`). The drafting of provisional steps is the same as in
        `start_link`."""
        self.mode, self.link_seat, self.record_data = "link", int(session.seat or 0), None
        self.game_seed, self.ai_seed = self.ctx.rng.randrange(2**31), 0
        config = config_from_options(self.ctx.options, self.game_seed)
        seats = session.make_seats()
        self.locals = {i: seat for i, seat in enumerate(seats) if isinstance(seat, LocalSeat)}
        self.computer = None
        self.match = Match(PanelsRules.new(config), seats)
        session.attach(self.match)
        self.source = None
        self._reset_view()

    def _submit_link(self, action: MatchAction) -> bool:
        """This unit's action in link mode: steps into the draft, the rest into the match."""
        p = self.state.current
        if isinstance(action, Select | Place | Rotate | Back):
            draft = self.draft or PanelsRules.from_json(self.rules.to_json())
            if draft.check(p, action) is not None:
                self.ctx.play("error")
                return False
            before = self._before(draft.state)
            events = draft.apply(p, action)
            busy = draft.state.selected is not None or draft.state.provisional is not None
            self.draft = draft if busy else None
            self._animate(events, before)
            return True
        if isinstance(action, Determine):
            st = self.state
            if st.provisional is None or st.selected is None:
                self.ctx.play("error")
                return False
            square, turns = st.provisional
            fix = Fix(p, st.selected, square, turns)
            self.draft = None
            before = self._before(self.rules.state)
            self.locals[p].offer(fix)
            events = self.match.step()
            shown = ("selected", "provisional", "rotated")  # seen here already
            self._animate([e for e in events if e["type"] not in shown], before)
            return True
        if self.draft is not None and self.draft.state.provisional is not None:
            self.ctx.play("error")  # items come before placing (press back first)
            return False
        if self.rules.check(p, action) is not None:
            self.ctx.play("error")
            return False
        self.draft = None
        return self._submit(action, link=False)

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
                self._local_input(name, inp)  # a quick player's next tap still counts
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
            self._local_input(name, inp)
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
    def _local_input(self, name: str | None, inp: InputState) -> None:
        if not self.local_to_move():
            return
        st = self.state
        p = st.current
        if self.drag is not None:
            if inp.touch is not None:
                self.drag_pos = (inp.touch.x, inp.touch.y)
            elif inp.touch_up:
                self._drop(inp)
                return
        if name is None:
            return
        if name.startswith("stock:"):
            index = int(name.removeprefix("stock:"))
            if self.item_target == "stock":
                self._use_item(UseItem(p, self.item_armed or 0, stock=index))
                return
            self._clear_item()
            if index != st.selected or st.provisional is not None:
                self._submit(Select(p, index))
            if self.state.selected == index:  # (link mode: the draft is a new object)
                self.drag, self.drag_pos = index, None
        elif name.startswith("square:"):
            r, c = (int(v) for v in name.removeprefix("square:").split(","))
            self._tap_square((r, c))
        elif name.startswith("item:"):
            self._tap_item(name)
        elif name == "button:determine":
            self._clear_item()
            self._submit(Determine(p))
        elif name == "button:pass":
            self._clear_item()
            self._submit(Pass(p))
        elif name == "button:back":
            if self.item_armed is not None or self.item_target is not None:
                self._clear_item()
            else:
                self._submit(Back(p))
        elif name in ("button:plus", "button:minus") and self.item_square is not None:
            delta = 1 if name == "button:plus" else -1
            self._use_item(UseItem(p, self.item_armed or 0, self.item_square, delta))

    def _tap_square(self, square: tuple[int, int]) -> None:
        st = self.state
        p = st.current
        if self.item_target == "card":
            kind = st.players[p].items[self.item_armed or 0]
            if kind == it.RENUMBER:
                probe = UseItem(p, self.item_armed or 0, square, 1)
                if st.check(probe) is None:
                    self.item_square, self.item_target = square, "delta"
                else:
                    self.ctx.play("error")
            else:
                self._use_item(UseItem(p, self.item_armed or 0, square))
            return
        self._clear_item()
        if st.provisional is not None and st.provisional[0] == square:
            self._submit(Rotate(p))
        else:
            self._submit(Place(p, square))

    def _tap_item(self, name: str) -> None:
        st = self.state
        names = item_hotspot_names(st.players[st.current].items)
        slot = names.index(name)
        if self.item_armed != slot:
            self._clear_item()
            self.item_armed = slot  # the first tap shows what it does
            return
        kind = st.players[st.current].items[slot]
        if kind == it.RESHUFFLE:
            self._use_item(UseItem(st.current, slot))
        elif st.item_used or st.provisional is not None:
            self.ctx.play("error")  # refused: items come before placing, one per turn
        else:
            self.item_target = "stock" if kind == it.PRISM else "card"

    def _use_item(self, action: UseItem) -> None:
        if self._submit(action):
            self._clear_item()  # a refused target leaves the choice open

    def _clear_item(self) -> None:
        self.item_armed, self.item_target, self.item_square = None, None, None

    def _drop(self, inp: InputState) -> None:
        """The stylus left a dragged stock card: over a square it is placed there."""
        point, self.drag, self.drag_pos = inp.last_touch, None, None
        if point is None:
            return
        for name, rect in self.hotspots().items():
            if name.startswith("square:") and rect.collidepoint(point.x, point.y):
                r, c = (int(v) for v in name.removeprefix("square:").split(","))
                st = self.state
                if st.provisional is None or st.provisional[0] != (r, c):
                    self._submit(Place(st.current, (r, c)))
                return

    def _submit(self, action: MatchAction, link: bool = True) -> bool:
        """Offer a local action; False (and a short "no") when it is refused."""
        seat = self.locals.get(self.state.current)
        if seat is None:
            return False
        if link and self.mode == "link":
            return self._submit_link(action)
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
    def names(self) -> list[str]:
        tr = self.ctx.tr
        stored = (self.record_data or {}).get("names")
        players = self.state.config.players
        if isinstance(stored, list) and len(stored) == players and all(
            isinstance(n, str) for n in stored
        ):
            return [n[:16] for n in stored]  # a replay shows the names it was played with
        human = self.me
        if self.versus is not None:  # the radio names of this unit and its partner
            me = str(self.versus.radio.name)
            partner = str(self.versus.partner_name() or tr("Opponent", "あいて"))
            return [me if s == human else partner for s in range(players)]
        return [tx.player_name(tr, self.mode, s, human, self.level)
                for s in range(self.state.config.players)]

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
        self.ctx.finish(
            GameResult(outcome, result.scores[self.me] if outcome else None, summary,
                       record)
        )
        self.ctx.play("lose" if outcome == "loss" else "win")

    # ------------------------------------------------------------------ drawing
    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        tr = self.ctx.tr
        if self.help_page is not None:
            help_pages.draw(top, bottom, self.help_page, tr)
            return
        draw_top(top, self.top_view(), tr)
        draw_bottom(bottom, self.bottom_view(), tr)

    def top_view(self) -> TopView:
        """The upper screen's view for its drawing code: everything it shows, nothing more."""
        st = self.state
        return TopView(
            state=st,
            anims=tuple(self.anims),
            clock=self.clock,
            mode=self.mode,
            is_replay=self.is_replay,
            local_to_move=self.local_to_move(),
            thinking=self.thinking,
            names=self.names(),
            result=self.rules.result() if st.over else None,
            shown_scores=list(self.shown_scores),
            yaku_log=self.yaku_log,
            item_armed=self.item_armed,
            item_target=self.item_target,
            record_error=self.record_error,
            replay_turn=self.replay_turn() if self.is_replay else (0, 0),
        )

    def bottom_view(self) -> BottomView:
        """The lower screen's view for its drawing code."""
        st = self.state
        local = self.local_to_move()
        return BottomView(
            state=st,
            anims=tuple(self.anims),
            clock=self.clock,
            view_seat=self.view_seat,
            mode=self.mode,
            is_replay=self.is_replay,
            local_to_move=local,
            names=self.names(),
            result=self.rules.result() if st.over else None,
            item_armed=self.item_armed,
            item_target=self.item_target,
            drag=self.drag,
            drag_pos=self.drag_pos,
            permitted=None if self.anims else self.permitted(),
            can_pass=local and not self.anims and "button:pass" in self.hotspots(),
        )

    def permitted(self) -> set[tuple[int, int]] | None:
        """Squares the selected card may go to (None: no selection to show)."""
        st = self.state
        if st.selected is None or st.over or self.is_replay or not self.local_to_move():
            return None
        return set(st.permitted_squares(st.current, st.selected))

    # ------------------------------------------------------------------ dump
    def dump(self) -> dict[str, Any]:
        st = self.state
        fld = st.field
        prov = st.provisional_card()
        rows = []
        for r in range(fld.rows):
            row: list[Any] = []
            for c in range(fld.cols):
                if not fld.is_usable((r, c)):
                    row.append("unusable")
                    continue
                card = fld.get((r, c))
                if card is not None:
                    row.append({**card.to_json(), "state": "fixed"})
                elif prov is not None and st.provisional is not None and st.provisional[0] == (
                    r, c
                ):
                    row.append({**prov.to_json(), "state": "provisional"})
                else:
                    row.append("empty")
            rows.append(row)
        view = self.view_seat
        result = self.rules.result()
        out: dict[str, Any] = {
            "phase": "over" if st.over else "play",
            "turn": st.current,
            "seat": view,
            "field": rows,
            "stock": [c.to_json() for c in st.players[view].stock],
            "stock_counts": [len(p.stock) for p in st.players],
            "selected": st.selected if st.current == view else None,
            "items": list(st.players[view].items),
            "scores": [p.score for p in st.players],
            "target": st.config.target,
            "yaku": [
                {
                    "name": y.kind,
                    "cards": [list(s) for s in y.squares],
                    "points": y.points,
                }
                for y in st.last_yaku
            ],
            "mode": "replay" if self.is_replay else self.mode,
            "level": self.level if self.mode == "cpu" else None,
            "field_shape": st.config.field_shape,
            "removal": st.config.removal,
            "items_on": st.config.items,
            "winner": None if result is None else result.winner,
            "result": None if result is None else result.to_json(),
            "animating": bool(self.anims),
            "animation": self.anims[0].kind if self.anims else None,
            "announce": self.announcement(),
            "item_mode": self.item_target or ("armed" if self.item_armed is not None else None),
            "help_page": self.help_page,
            "refused": dict(self.match.refused),
        }
        if self.is_replay:
            turn, total = self.replay_turn()
            out["replay"] = {"turn": turn, "turns": total, "error": self.record_error}
        return out

    def announcement(self) -> list[str] | None:
        """The yaku being announced now: names with points, e.g. ["same_number +30"]."""
        if not self.anims or self.anims[0].kind != "yaku":
            return None
        d = self.anims[0].data
        return [f"{k} +{p}" for k, p in zip(d["kinds"], d["each"], strict=True)]

    # ------------------------------------------------------------------ persistence
    def save_state(self) -> dict[str, Any]:
        base = {
            "version": STATE_VERSION,
            "anims": [a.to_json() for a in self.anims],
            "shown_scores": list(self.shown_scores),
            "yaku_log": self.yaku_log,
            "help_page": self.help_page,
            "reported": self.reported,
            "clock": self.clock,
        }
        if self.is_replay:
            return {
                **base,
                "replay": self.record_data,
                "done": self.source.index if self.source else 0,
                "released": self.source.released if self.source else 0,
                "replay_wait": self.replay_wait,
            }
        return {
            **base,
            "mode": self.mode,
            "level": self.level,
            "game_seed": self.game_seed,
            "ai_seed": self.ai_seed,
            "match": self.match.save(),
            "rng": _rng_state(self.ctx.rng),  # the next game's seeds (play again)
            "draft": None if self.draft is None else self.draft.to_json(),
            "item": [self.item_armed, self.item_target,
                     None if self.item_square is None else list(self.item_square)],
        }

    def load_state(self, state: dict[str, Any]) -> None:
        try:
            if not isinstance(state, dict) or state.get("version") != STATE_VERSION:
                raise ValueError("unknown version")
            if "replay" in state:
                self.record_data = state["replay"]
                self._open_record(state["replay"])
                self._seek(int(state["done"]))
                if self.source is not None:
                    self.source.released = int(state["released"])
                self.replay_wait = int(state["replay_wait"])
            else:
                self._load_play(state)
            self.anims = [Anim.from_json(a) for a in state["anims"]]
            self.shown_scores = [int(s) for s in state["shown_scores"]]
            self.yaku_log = [list(e) for e in state["yaku_log"]]
            self.help_page = state["help_page"]
            self.reported = bool(state["reported"])
            self.clock = int(state["clock"])
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ValueError(f"not a Panel Link save: {exc}") from None

    def _load_play(self, state: dict[str, Any]) -> None:
        mode, level = state["mode"], int(state["level"])
        if mode == "link":
            raise ValueError("a linked game continues only through its link session")
        if mode not in MODES or level not in LEVELS:
            raise ValueError("bad mode or level")
        self.mode, self.level = mode, level
        self.record_data = None
        self.ctx.options = {**self.ctx.options, "mode": mode, "level": str(level)}
        self._new_game(int(state["game_seed"]))
        self.ai_seed = int(state["ai_seed"])
        if self.computer is not None:
            self.computer.seed = self.ai_seed
            self.computer.warm(PanelsRules.from_json(state["match"]["rules"]))
        self.match.load(state["match"])
        self._rules_seen = self.match.rules
        version, internal, gauss = state["rng"]
        self.ctx.rng.setstate((int(version), tuple(int(v) for v in internal), gauss))
        armed, target, square = state["item"]
        self.item_armed = None if armed is None else int(armed)
        self.item_target = target if target in (None, "stock", "card", "delta") else None
        self.item_square = None if square is None else (int(square[0]), int(square[1]))
