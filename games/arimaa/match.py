"""Arimaa behind the match protocol (issues 10 and 13).

Seats: 0 = gold, 1 = silver. An action (`ArimaaAction`) is one of

- `setup`: the side's 16 pieces, as the piece kinds of its home squares in square order
  (gold a1..h1, a2..h2; silver a7..h7, a8..h8);
- `turn`: a whole turn, 1 to 4 steps `(from, to)` (squares 0..63, a1 = 0) in the order
  notation writes them; the steps inside a turn stay in the scene until the turn is done;
- `resign`;
- `flag`: the mover's own clock ran out (turn time, or the game limit G): the unit that owns
  the clock says so, since each unit's clock is authoritative for its own player.

Every action carries `used`: the ticks the mover spent on it (0 in casual games). Applying
an action sets the mover's turn time to `used` before settling the clock, so both units of
a link reach the same clock whatever they showed meanwhile.

Wire encoding (bytes, big-endian): `kind` (1 byte: 0 setup, 1 turn, 2 resign, 3 flag),
`used` (4 bytes, unsigned ticks), then for `setup` the 16 kinds packed two to a byte (high
nibble first; 8 bytes) and for `turn` the step count (1 byte) and one byte per square
(2 per step). Worst case 14 bytes (a 4-step turn), within MAX_ACTION_BYTES = 48.

Digest: `canonical_digest` of `Game.to_json()` (time control, setups, turns, clock, result:
the whole rules state). Events (dicts with "type"): `setup`, one `step` per step, `turn`,
`time`, `resign`, and `over` when the action ended the game.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Self

from firmware.match import ActionError, ComputerSeat, Event, MatchResult, canonical_digest
from firmware.match.driver import Match
from firmware.match.profiles import WORKER_UNITS_PER_TICK
from firmware.match.seats import Seat
from games.arimaa.ai.levels import LEVELS, seat_searcher
from games.arimaa.ai.native import NativeSearcher
from games.arimaa.ai.search import Searcher
from games.arimaa.ai.split import Iterations, join
from games.arimaa.rules import Game, IllegalStep, TimeControl
from games.arimaa.rules.board import HOME_RANKS, KIND_LETTERS, SIDE_NAMES, piece_letter
from games.arimaa.rules.notation import write_setup, write_turn
from games.arimaa.rules.position import NAMED_SETUPS, named_setup, random_setup
from games.arimaa.rules.score import score

KINDS = ("setup", "turn", "resign", "flag")
HOME_SQUARES: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(sq for sq in range(64) if HOME_RANKS[0] >> sq & 1),
    tuple(sq for sq in range(64) if HOME_RANKS[1] >> sq & 1),
)
MAX_USED = 2**32 - 1


@dataclass(frozen=True)
class ArimaaAction:
    """One match action. `setup` holds 16 kinds (home squares in order); `steps` a turn."""

    kind: str
    used: int = 0
    setup: tuple[int, ...] = ()
    steps: tuple[tuple[int, int], ...] = ()

    def placement(self, side: int) -> dict[int, int]:
        return dict(zip(HOME_SQUARES[side], self.setup, strict=True))


def setup_action(side: int, placement: dict[int, int], used: int = 0) -> ArimaaAction:
    """The action placing `placement` (square -> kind, the side's home squares)."""
    return ArimaaAction("setup", used, tuple(placement.get(sq, 15) for sq in HOME_SQUARES[side]))


def turn_action(steps: Sequence[tuple[int, int]], used: int = 0) -> ArimaaAction:
    return ArimaaAction("turn", used, steps=tuple((int(a), int(b)) for a, b in steps))


def encode_action(action: ArimaaAction) -> bytes:
    head = struct.pack(">BI", KINDS.index(action.kind), action.used)
    if action.kind == "setup":
        kinds = action.setup
        return head + bytes((kinds[i] << 4) | kinds[i + 1] for i in range(0, 16, 2))
    if action.kind == "turn":
        return head + bytes([len(action.steps)]) + bytes(sq for step in action.steps for sq in step)
    return head


def decode_action(data: bytes) -> ArimaaAction:
    if len(data) < 5:
        raise ActionError("an Arimaa action is at least 5 bytes (kind and time used)")
    kind_code, used = struct.unpack(">BI", data[:5])
    if kind_code >= len(KINDS):
        raise ActionError(f"unknown Arimaa action kind {kind_code}")
    kind, body = KINDS[kind_code], data[5:]
    if kind == "setup":
        if len(body) != 8:
            raise ActionError("a setup is 8 bytes of packed piece kinds")
        kinds = tuple(k for byte in body for k in (byte >> 4, byte & 15))
        if any(k >= len(KIND_LETTERS) for k in kinds):
            raise ActionError("a setup holds piece kinds 0..5 only")
        return ArimaaAction(kind, used, setup=kinds)
    if kind == "turn":
        if not body or not 1 <= body[0] <= 4 or len(body) != 1 + 2 * body[0]:
            raise ActionError("a turn is a step count 1..4 and two squares per step")
        if any(sq >= 64 for sq in body[1:]):
            raise ActionError("a square is 0..63")
        squares = body[1:]
        return ArimaaAction(kind, used, steps=tuple(zip(squares[::2], squares[1::2], strict=True)))
    if body:
        raise ActionError(f"a {kind} action has nothing after the time used")
    return ArimaaAction(kind, used)


class ArimaaRules:
    """An Arimaa game as a `MatchRules[ArimaaAction]`; `game` is the engine for the scene.

    Between actions the scene advances the mover's clock with `tick_clock` (never deciding
    the game itself); a run-out clock becomes a `flag` action from the mover's seat."""

    game_id: str = "arimaa"
    seats: int = 2

    def __init__(self, game: Game | None = None) -> None:
        self.game = game if game is not None else Game()

    @classmethod
    def new(cls, control: str | None) -> ArimaaRules:
        return cls(Game(TimeControl.parse(control) if control else None))

    # ------------------------------------------------------------------- protocol
    def to_move(self) -> int | None:
        return None if self.game.result is not None else self.game.side_to_move

    def legal_actions(self) -> Sequence[ArimaaAction] | None:
        return None  # setups and turns are far too many to list; check() decides

    def check(self, seat: int, action: ArimaaAction) -> str | None:
        try:
            self._play(self.game.copy(), seat, action)
        except (IllegalStep, ActionError) as exc:
            return str(exc)
        return None

    def apply(self, seat: int, action: ArimaaAction) -> list[Event]:
        twin = self.game.copy()
        try:
            events = self._play(twin, seat, action)
        except IllegalStep as exc:
            raise ActionError(str(exc)) from None
        self.game = twin
        return events

    def _play(self, game: Game, seat: int, action: ArimaaAction) -> list[Event]:
        """Play `action` on `game` (a copy); raises IllegalStep/ActionError with the reason."""
        if not isinstance(action, ArimaaAction) or action.kind not in KINDS:
            raise ActionError("not an Arimaa action")
        if game.result is not None:
            raise ActionError("the game is over")
        if game.side_to_move != seat:
            raise ActionError("not this seat's turn")
        if not 0 <= action.used <= MAX_USED:
            raise ActionError("time used out of range")
        if game.turn_steps:
            raise ActionError("a turn is in progress")
        if action.kind == "flag":
            return self._flag(game, seat, action.used)
        self._set_used(game, action.used)
        if game.clock is not None and game.clock.turn_used > game.clock.allowed(seat):
            raise ActionError("the time for this turn had already run out")
        events: list[Event]
        if action.kind == "resign":
            game.resign(seat)
            events = [{"type": "resign", "seat": seat}]
        elif action.kind == "setup":
            if not game.in_setup:
                raise ActionError("setup is over")
            if len(action.setup) != 16:
                raise ActionError("a setup places 16 pieces")
            placement = action.placement(seat)
            game.setup(placement)
            events = [{"type": "setup", "seat": seat, "notation": write_setup(seat, placement)}]
        else:
            if game.in_setup:
                raise ActionError(f"{SIDE_NAMES[seat]} must set up first")
            if not 1 <= len(action.steps) <= 4:
                raise ActionError("a turn is 1 to 4 steps")
            label = game.turn_label
            game.play_turn(list(action.steps))
            played = game.turns[-1]
            events = [
                {
                    "type": "step",
                    "seat": seat,
                    "from": s.frm,
                    "to": s.to,
                    "piece": piece_letter(s.side, s.kind),
                    "role": s.role,
                    "captured": None
                    if s.captured is None
                    else [s.captured[0], piece_letter(s.captured[1], s.captured[2])],
                }
                for s in played
            ]
            events.append(
                {"type": "turn", "seat": seat, "label": label, "notation": write_turn(played)}
            )
        if game.result is not None:
            events.append(self._over(game))
        return events

    @staticmethod
    def _set_used(game: Game, used: int) -> None:
        clock = game.clock
        if clock is None:
            if used:
                raise ActionError("a casual game has no clock: time used must be 0")
            return
        base = clock.game_used - clock.turn_used
        clock.turn_used, clock.game_used = used, base + used

    def _flag(self, game: Game, seat: int, used: int) -> list[Event]:
        clock = game.clock
        if clock is None:
            raise ActionError("a casual game has no clock to run out")
        self._set_used(game, 0)
        if game.tick(used) is None:
            raise ActionError("the clock has not run out")
        return [{"type": "time", "seat": seat, "used": used}, self._over(game)]

    @staticmethod
    def _over(game: Game) -> Event:
        assert game.result is not None
        return {"type": "over", "winner": game.result.winner, "reason": game.result.reason}

    def result(self) -> MatchResult | None:
        res = self.game.result
        if res is None:
            return None
        boards = self.game.position.boards
        scores = (score(boards, 0), score(boards, 1))
        return MatchResult(res.winner, res.reason, scores=scores, draw=res.winner is None)

    def digest(self) -> str:
        return canonical_digest(self.game.to_json())

    def to_json(self) -> dict[str, Any]:
        return self.game.to_json()

    @classmethod
    def from_json(cls, data: Any) -> Self:
        if not isinstance(data, dict):
            raise ValueError("a saved Arimaa game is an object")
        return cls(Game.from_json(data))

    def encode(self, action: ArimaaAction) -> bytes:
        return encode_action(action)

    def decode(self, data: bytes) -> ArimaaAction:
        return decode_action(bytes(data))

    # ------------------------------------------------------------ the scene's clock
    def tick_clock(self, ticks: int = 1) -> None:
        """Spend `ticks` of the mover's time (display and flag detection; never decides)."""
        clock = self.game.clock
        if clock is not None and self.game.result is None:
            clock.turn_used += ticks
            clock.game_used += ticks

    def turn_used(self) -> int:
        return 0 if self.game.clock is None else self.game.clock.turn_used

    def clock_ran_out(self) -> bool:
        """The mover's turn time is over, or the game limit G is reached."""
        clock = self.game.clock
        if clock is None or self.game.result is not None:
            return False
        side = self.game.side_to_move
        if clock.turn_used > clock.allowed(side):
            return True
        return bool(clock.control.game_time and clock.game_used >= clock.control.game_time)


# ---------------------------------------------------------------------------- computer
#: Work units (about a microsecond of the development machine each, issue 18) per search
#: work unit (a node, or four goal-check states): measured about 20 us (bench/arimaa_scene.py),
#: 35% more since leaves weigh captures and goal threats (issue 36: 74 against 55 us CPU per
#: unit side by side on the loaded machine, bench/arimaa_parallel.py --part levels).
SEARCH_UNIT_COST = 27
#: The same for the compiled search (games/arimaa/ai/native.py), on a profile whose unit runs
#: it (`native`): a compiled node costs 0.016-0.019 of a pure-Python one (`bench/node_cost.py
#: arimaa --native`, docs/performance.md), about 0.5 units; counted as 1, twice that, for
#: the boards' other cores and the call's overhead.
NATIVE_SEARCH_UNIT_COST = 1
#: About 2 ms of search per in-loop tick on the development machine (a tick's other work and
#: the collector's passes stay within the 8 ms bar).
UNITS_PER_TICK = 2_000
#: The longest a level's turn may take on a unit, in seconds of one of its cores (issue 36:
#: the strongest level within 5 s a turn on a Raspberry Pi Zero 2 W): a cap on the search's
#: work that cuts even the whole own turn where that core is too slow for it. On the
#: development machine's core the levels rarely reach it.
TURN_SECONDS = {1: 4.5, 2: 4.5, 3: 2.5, 4: 3.5, 5: 4.5}
TICKS_PER_SECOND = 60


def work_cap(level: int, core_budget: int | None, unit_cost: int = SEARCH_UNIT_COST) -> int:
    """The search work (nodes) `level` may do on a unit whose core does `core_budget` work
    units a tick (`ctx.computer_budget(ArimaaComputer.core_units_per_tick)`), each search
    work unit costing `unit_cost` of them; 0 (no cap) for None, the reference players of
    tools and tests. In a split search each part gets it: the parts run side by side on the
    profile's cores."""
    if core_budget is None:
        return 0
    return max(300, int(TURN_SECONDS[level] * core_budget * TICKS_PER_SECOND / unit_cost))


class _SetupThinker:
    """The computer's setup: a named setup or a random one, from the seed."""

    units = 1

    def __init__(self, side: int, seed: int) -> None:
        rng = random.Random(f"{seed}:setup:{side}")
        choice = rng.choice([*NAMED_SETUPS, "random"])
        placement = random_setup(side, rng) if choice == "random" else named_setup(side, choice)
        self.action = setup_action(side, placement)

    def think(self, budget: int) -> ArimaaAction | None:
        return self.action


class _TurnThinker:
    """A turn search; its work counted at `unit_cost` units (the profile's: compiled or not,
    whichever engine runs it, so the landing tick never depends on the library)."""

    def __init__(
        self, searcher: Searcher | NativeSearcher, unit_cost: int = SEARCH_UNIT_COST
    ) -> None:
        self.searcher = searcher
        self.unit_cost = unit_cost

    @property
    def units(self) -> int:
        return self.searcher.work * self.unit_cost

    def think(self, budget: int) -> ArimaaAction | None:
        if not self.searcher.think(-(-budget // self.unit_cost)):
            return None
        return turn_action(self.searcher.best_steps or [])


class _PartThinker(_TurnThinker):
    """One part of a split turn search (ai/split.py), in a pool process: its iterations."""

    def think(self, budget: int) -> Iterations | None:  # type: ignore[override]
        if not self.searcher.think(-(-budget // self.unit_cost)):
            return None
        return self.searcher.iterations


@dataclass(frozen=True)
class ArimaaPart:
    """Part `index` of `SPLIT_PARTS` of the level's turn search (picklable: a pool process
    starts it on its own copy of the rules)."""

    level: int
    index: int
    work_cap: int = 0
    native: bool = False

    def start(self, rules: Any, seat: int) -> _PartThinker:
        assert isinstance(rules, ArimaaRules)
        searcher = seat_searcher(
            rules.game, self.level, (self.index, SPLIT_PARTS), self.work_cap, self.native
        )
        return _PartThinker(searcher, NATIVE_SEARCH_UNIT_COST if self.native else SEARCH_UNIT_COST)


#: The parts a split turn search always has, whatever the number of processes running them
#: (three: the cores a Raspberry Pi gives the computer), so every profile plays the same move.
SPLIT_PARTS = 3


class ArimaaComputer:
    """The computer player at one level (1-5) for the match layer's computer seat."""

    units_per_tick = UNITS_PER_TICK
    #: what `core_budget` is measured in: a whole core's units per tick on the profile,
    #: whether the search runs in the loop or in a worker (the same moves either way)
    core_units_per_tick = WORKER_UNITS_PER_TICK

    def __init__(
        self, level: int, seed: int, core_budget: int | None = None, native: bool = False
    ) -> None:
        """`core_budget`: work units a tick of one of the unit's cores (its device profile:
        `ctx.computer_budget(core_units_per_tick)`), which bounds each turn's work
        (`work_cap`); None: no bound (tools, tests, the AEI engine). `native`: the
        profile's (`ctx.computer_native`): the work is counted at the compiled search's cost
        (NATIVE_SEARCH_UNIT_COST), so a turn may do more of it in the same wait, and the
        compiled search makes it when the library is there (the same turn either way)."""
        if level not in LEVELS:
            raise ValueError(f"unknown level {level}")
        if core_budget is not None and core_budget < 1:
            raise ValueError("core_budget must be positive")
        self.level, self.seed, self.native = level, seed, native
        self.unit_cost = NATIVE_SEARCH_UNIT_COST if native else SEARCH_UNIT_COST
        self.work_cap = work_cap(level, core_budget, self.unit_cost)

    def start(self, rules: Any, seat: int) -> _SetupThinker | _TurnThinker:
        assert isinstance(rules, ArimaaRules)
        if rules.game.in_setup:
            return _SetupThinker(seat, self.seed)
        searcher = seat_searcher(rules.game, self.level, work_cap=self.work_cap, native=self.native)
        return _TurnThinker(searcher, self.unit_cost)

    def split(self, rules: Any, seat: int) -> list[ArimaaPart] | None:
        """The turn search as SPLIT_PARTS parts for a pool (levels that search the whole
        turn; None for setup and the small levels, which stay in one process)."""
        assert isinstance(rules, ArimaaRules)
        if rules.game.in_setup or not LEVELS[self.level].full_turn:
            return None
        return [
            ArimaaPart(self.level, i, self.work_cap, self.native) for i in range(SPLIT_PARTS)
        ]

    def join(self, rules: Any, seat: int, results: list[Iterations]) -> ArimaaAction:
        """The turn the parts' iterations agree on (ai/split.py)."""
        assert isinstance(rules, ArimaaRules)
        pos = rules.game.position
        steps, _, _ = join(pos.boards, pos.side, results)
        return turn_action(steps)


class ClockedSeat(Seat[ArimaaAction]):
    """Wraps a computer seat so that its action carries the time its turn took (the clock
    the computer ran on is this unit's, like a person's)."""

    kind = ComputerSeat.kind  # it is the computer's seat, as the inner one says

    def __init__(self, inner: ComputerSeat[ArimaaAction]) -> None:
        self.inner = inner

    def begin(self, match: Match[ArimaaAction], seat: int) -> None:
        self.inner.begin(match, seat)

    def poll(self, match: Match[ArimaaAction], seat: int) -> ArimaaAction | None:
        action = self.inner.poll(match, seat)
        if action is None:
            return None
        rules = match.rules
        assert isinstance(rules, ArimaaRules)
        return replace(action, used=rules.turn_used())

    def cancel(self) -> None:
        self.inner.cancel()

    def close(self) -> None:
        self.inner.close()

    def save(self) -> dict[str, Any]:
        return self.inner.save()

    def load(self, data: dict[str, Any], match: Match[ArimaaAction], seat: int) -> None:
        self.inner.load(data, match, seat)

    @property
    def thinking(self) -> bool:
        return self.inner.thinking

    @property
    def calls(self) -> int:
        return self.inner.calls
