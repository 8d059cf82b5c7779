"""The Arimaa Engine Interface (AEI v1) for the built-in computer player (R-ARI-AEI).

`AeiEngine` is the protocol state machine: `handle(line)` takes one controller line, output
goes through the `send` callback, and a running search advances in slices via `poll()`, so
`stop`, `isready` and `quit` are answered while thinking. `serve()` wires it to stdin/stdout
with a reader thread (the only place with I/O).
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

from ..ai.levels import DEFAULT_LEVEL, LEVELS, searcher_for
from ..ai.search import Limits, Searcher
from ..rules.game import Game, IllegalStep
from ..rules.notation import NotationError, apply_move, parse_short, write_setup, write_turn
from ..rules.position import named_setup
from ..rules.steps import Boards

ENGINE_NAME = "Twinfold Arimaa"
#: Time-control options (seconds) the controller sends; AEI v1 names.
TIME_OPTIONS = (
    "tcmove",
    "tcreserve",
    "tcpercent",
    "tcmax",
    "tctotal",
    "tcturns",
    "tcturntime",
    "greserve",
    "sreserve",
    "gused",
    "sused",
    "lastmoveused",
    "moveused",
)
INFO_OPTIONS = ("opponent", "opponent_rating", "rating", "rated", "event")
SLICE_NODES = 500


class AeiEngine:
    """One engine session."""

    def __init__(self, send: Callable[[str], None], clock: Callable[[], float] = time.monotonic):
        self.send = send
        self.clock = clock
        self.game = Game()
        self.options: dict[str, float] = {}
        self.depth: int | None = None
        self.level = DEFAULT_LEVEL
        self.search: Searcher | None = None
        self.pondering = False
        self.deadline: float | None = None
        self.started = False
        self._line = ""

    # ---- protocol lines ------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Process one line; False once the engine should exit."""
        words = line.split()
        if not words:
            return True
        self._line = line
        command = words[0]
        if not self.started:
            if command != "aei":
                self.log(f"Error: expected 'aei' first, got {command!r}")
                return True
            self.started = True
            self.send("protocol-version 1")
            self.send(f"id name {ENGINE_NAME}")
            self.send("id author Twinfold")
            self.send("id version 1")
            self.send("aeiok")
            return True
        handler = {
            "aei": lambda _w: self.log("Warning: already in AEI mode"),
            "isready": lambda _w: self.send("readyok"),
            "newgame": self._newgame,
            "setposition": self._setposition,
            "setoption": self._setoption,
            "makemove": self._makemove,
            "go": self._go,
            "stop": self._stop,
        }.get(command)
        if command == "quit":
            self._abandon_search()
            self.log("Debug: exiting on quit")
            return False
        if handler is None:
            self.log(f"Error: unknown command {command!r}")
            return True
        handler(words)
        return True

    def log(self, message: str) -> None:
        self.send(f"log {message}")

    def _busy(self, command: str) -> bool:
        if self.search is not None and not self.pondering:
            self.log(f"Error: {command} while searching; send stop first")
            return True
        self._abandon_search()
        return False

    def _newgame(self, _words: list[str]) -> None:
        if not self._busy("newgame"):
            self.game = Game()

    def _setposition(self, words: list[str]) -> None:
        if self._busy("setposition"):
            return
        line = self._line
        start = line.find("[")
        if len(words) < 3 or start < 0:
            self.log("Error: setposition needs a side (g/s) and a [board]")
            return
        try:
            pos = parse_short(words[1], line[start:].rstrip())
        except NotationError as exc:
            self.log(f"Error: setposition: {exc}")
            return
        self.game = Game(start=pos)

    def _setoption(self, words: list[str]) -> None:
        if len(words) < 3 or words[1] != "name":
            self.log("Error: setoption name <id> [value <x>]")
            return
        name = words[2].lower()
        value = " ".join(words[4:]) if len(words) > 4 and words[3] == "value" else None
        if name in INFO_OPTIONS:
            return
        if name in TIME_OPTIONS or name in ("depth", "level"):
            try:
                number = float(value) if value is not None else None
            except ValueError:
                number = None
            if number is None or number < 0:
                self.log(f"Error: option {name} needs a non-negative number, got {value!r}")
                return
            if name == "depth":
                self.depth = int(number) if number else None
            elif name == "level":
                if int(number) not in LEVELS:
                    self.log(f"Error: level must be one of {sorted(LEVELS)}")
                    return
                self.level = int(number)
            else:
                self.options[name] = number
            return
        self.log(f"Warning: unrecognised option {name}")

    def _makemove(self, words: list[str]) -> None:
        if self._busy("makemove"):
            return
        text = " ".join(words[1:])
        try:
            apply_move(self.game, text)
        except NotationError as exc:
            self.log(f"Error: illegal move {text!r}: {exc}")

    def _go(self, words: list[str]) -> None:
        if self._busy("go"):
            return
        ponder = len(words) > 1 and words[1] == "ponder"
        game = self.game
        if game.result is not None:
            self.log("Warning: go after the game ended")
            return
        if game.in_setup:
            if not ponder:
                side = game.side_to_move
                self.send(f"bestmove {write_setup(side, named_setup(side, 'default'))}")
            return
        self.pondering = ponder
        self.deadline = None
        on_iteration = self._report
        if ponder:
            limits = Limits(depth=self.depth or 64, nodes=0)
            self.search = Searcher(*_root3(game, limits), on_iteration=on_iteration)
            return
        budget = self._time_budget()
        if budget is not None:
            self.deadline = self.clock() + budget
            # the whole-turn rules (issue 36): a deeper look never trades a safe turn for
            # one that hangs a piece the static check sees
            limits = Limits(depth=self.depth or 64, nodes=0, full_turn=True)
            self.search = Searcher(
                *_root3(game, limits),
                should_stop=self._past_deadline,
                on_iteration=on_iteration,
            )
        elif self.depth is not None:
            self.search = Searcher(
                *_root3(game, Limits(depth=self.depth, nodes=0)), on_iteration=on_iteration
            )
        else:
            self.search = searcher_for(game, self.level, on_iteration=on_iteration)

    def _stop(self, _words: list[str]) -> None:
        if self.search is None:
            return
        if self.pondering:
            self._abandon_search()
            return
        self.search.stop()
        self._finish()

    # ---- searching -----------------------------------------------------------------------
    @property
    def searching(self) -> bool:
        return self.search is not None

    def poll(self, slice_nodes: int = SLICE_NODES) -> None:
        """Advance the current search by one slice; send bestmove when it finishes."""
        if self.search is None:
            return
        if self.search.think(slice_nodes) and not self.pondering:
            self._finish()
        elif self.search.done and self.pondering:
            pass  # a finished ponder waits quietly for stop

    def _finish(self) -> None:
        search = self.search
        assert search is not None
        self.search = None
        steps = search.best_steps or []
        if not steps:
            self.log("Warning: no legal move (immobilised)")
            self.send("bestmove")
            return
        scratch = Game(start=self.game.position)
        try:
            for frm, to in steps:
                scratch.step(frm, to)
        except IllegalStep as exc:  # pragma: no cover - the searcher only plays legal steps
            self.log(f"Error: internal move error {exc}")
        self.send(f"info nodes {search.nodes}")
        self.send(f"bestmove {write_turn(scratch.turn_steps)}")

    def _report(self, search: Searcher) -> None:
        self.send(f"info depth {search.depth_done}")
        self.send(f"info score {search.score}")
        self.send(f"info nodes {search.nodes}")

    def _abandon_search(self) -> None:
        if self.search is not None:
            self.search.stop()
        self.search = None
        self.pondering = False

    def _past_deadline(self) -> bool:
        return self.deadline is not None and self.clock() >= self.deadline

    def _time_budget(self) -> float | None:
        """Seconds to think under the controller's time control, or None without one."""
        opts = self.options
        move = opts.get("tcmove")
        if move is None and "tcturntime" not in opts:
            return None
        side = self.game.side_to_move
        reserve = opts.get("greserve" if side == 0 else "sreserve", opts.get("tcreserve", 0.0))
        available = (move or 0.0) + reserve
        if opts.get("tcturntime"):
            available = min(available, opts["tcturntime"])
        available -= opts.get("moveused", 0.0)
        target = (move or 0.0) * 0.6 + reserve / 20
        return max(0.1, min(target, available * 0.7 - 0.5))


def _root(game: Game) -> tuple[Boards, int, frozenset[Boards]]:
    """Searcher arguments for the side to move: boards, side, limits placeholder, and the
    positions the repetition rule forbids."""
    pos = game.position
    forbidden = frozenset(
        b for (b, side), n in game.repetitions.items() if side != pos.side and n >= 2
    )
    return pos.boards, pos.side, forbidden


def _root3(game: Game, limits: Limits) -> tuple[Boards, int, Limits, frozenset[Boards]]:
    boards, side, forbidden = _root(game)
    return boards, side, limits, forbidden


def serve(stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run an AEI session on the given streams (default: the process's standard streams,
    looked up at call time) until `quit` or end of input."""
    stdin = stdin if stdin is not None else sys.stdin
    out_stream = stdout if stdout is not None else sys.stdout
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        for raw in stdin:
            lines.put(raw.rstrip("\r\n"))
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()

    def send(text: str) -> None:
        out_stream.write(text + "\n")
        out_stream.flush()

    engine = AeiEngine(send)
    while True:
        if engine.searching:
            try:
                line = lines.get_nowait()
            except queue.Empty:
                engine.poll()
                continue
        else:
            line = lines.get()
        if line is None:
            return 0
        if not engine.handle(line):
            return 0
