"""NBoard protocol (version 2) engine: lets NBoard and other Othello GUIs use our player.

The GUI starts `twinfold nboard` and talks over stdin/stdout, one command per line:

    nboard 2            -> set myname Twinfold
    set depth 12        -> set myname Twinfold12   (midgame depth; exact from 14 empties)
    set depth strong    -> set myname Twinfold-strong   (a handheld level by name or
                        `set level 1..4`: it plays as on the handheld, noise and all)
    set game (;GM[Othello]...;)    position = end of that GGF game
    set contempt 0      draw value in discs (a proven draw counts as -contempt for us)
    move f5[/eval/time] play a move ("PA" acknowledges a pass)
    hint 3              -> search f5 1.25 0 12   (one line per candidate), then status
    go                  -> === f5/1.25/0.40      (the move is not played: the GUI sends move)
    ping 7              -> pong 7   (also while thinking: the search stops first)
    learn               -> learned   (no opening book: nothing else is stored)
    analyze             -> analysis <ply> <eval> for each position, last first, then status

Engine-to-GUI notices: `status <text>`, `set myname <name>`, `nodestats <nodes> <seconds>`.
Unknown commands are ignored as the protocol asks; malformed ones leave the state unchanged
and are explained on stderr (never on stdout, which belongs to the protocol).
`run` reads the input on a thread of its own, so a search (go, hint, analyze) runs in
slices and looks at the input between them: `ping` (the GUI is about to change the
position) stops it at once; its result is then not sent, and `pong` follows.
Other lines wait until the search is over. Searches are limited by nodes, never by time.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable

from games.reversi.ai import (
    LEVEL_NAMES,
    LEVELS,
    ComputerMove,
    RankedMove,
    Search,
    SearchResult,
    Thinker,
    learned_evaluator,
)
from games.reversi.ai.players import ranked_moves, ranking_search
from games.reversi.ggf import GgfError, parse_ggf
from games.reversi.rules import (
    PASS,
    Game,
    IllegalMoveError,
    NotationError,
    Position,
    square_name,
)

ENGINE_NAME = "Twinfold"
PROTOCOL_VERSION = 2
DEFAULT_DEPTH = 8
EXACT_EMPTIES = 14
NODES_PER_DEPTH = 60_000  # midgame node limit = depth x this (determinism: nodes, not time)
EXACT_NODE_LIMIT = 2_000_000
SLICE_NODES = 2_000  # nodes between looks at the input while searching (tens of ms)


class _Stopped(Exception):
    """A ping arrived while searching: the search's answer is dropped."""


class NBoardSession:
    """One engine session: feed it lines with `handle`; it answers through `out`."""

    def __init__(
        self,
        out: Callable[[str], None],
        err: Callable[[str], None] = lambda _line: None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.out = out
        self.err = err
        self.clock = clock
        self.version = 0
        self.depth = DEFAULT_DEPTH
        self.level: int | None = None  # a handheld level chosen by name, else depth mode
        self.seed = 0  # the levels' random seed (their noise), fixed for the session
        self.contempt = 0.0
        self.game = Game()
        self.black = ""
        self.white = ""
        self._pass_pending = False  # an automatic pass the GUI has not yet sent "move PA" for
        self.running = True
        # While `run` drives the session: lines that arrived during a search, in order.
        self._inbox: queue.Queue[str | None] | None = None
        self._deferred: deque[str | None] = deque()

    # ------------------------------------------------------------------------------------
    def handle(self, line: str) -> None:
        """Process one command line."""
        words = line.split()
        if not words:
            return
        command, args = words[0], words[1:]
        handler = {
            "nboard": self._nboard,
            "set": self._set,
            "move": self._move,
            "hint": self._hint,
            "go": self._go,
            "ping": self._ping,
            "learn": self._learn,
            "analyze": self._analyze,
            "quit": self._quit,
        }.get(command)
        if handler is None and (len(command) == 2 and command[0].isalpha()):
            handler = self._move  # NBoard 1.1 sends a bare "F5" for "move F5"
            args = [command]
        if handler is None:
            self.err(f"ignored unknown command: {command}")
            return
        try:
            handler(args, line)
        except _Refused as exc:
            self.err(f"{command}: {exc}")

    def run(self, lines: Iterable[str]) -> None:
        """Handle lines until `quit` or the end of input; the input is read on a thread of
        its own so that `ping` is answered while a search runs."""
        inbox: queue.Queue[str | None] = queue.Queue()

        def read() -> None:
            for line in lines:
                inbox.put(line.rstrip("\r\n"))
            inbox.put(None)

        threading.Thread(target=read, name="nboard-input", daemon=True).start()
        self._inbox = inbox
        try:
            while self.running:
                line = self._deferred.popleft() if self._deferred else inbox.get()
                if line is None:
                    break
                self.handle(line)
        finally:
            self._inbox = None

    def _check_input(self) -> None:
        """Between search slices: keep arriving lines for later; a ping stops the search."""
        if self._inbox is None:
            return
        while True:
            try:
                line = self._inbox.get_nowait()
            except queue.Empty:
                return
            self._deferred.append(line)
            if line is not None and line.split()[:1] == ["ping"]:
                raise _Stopped

    def _finish(self, step: Callable[[int], SearchResult | str | None]) -> SearchResult | str:
        """Run a sliced search to the end, looking at the input between slices."""
        while True:
            result = step(SLICE_NODES)
            if result is not None:
                return result
            self._check_input()

    # --- commands -----------------------------------------------------------------------
    def _nboard(self, args: list[str], _line: str) -> None:
        self.version = _int(args, "nboard needs a protocol version")
        self.out(f"set myname {ENGINE_NAME}")

    def _set(self, args: list[str], line: str) -> None:
        if not args:
            raise _Refused("set needs a property")
        prop = args[0]
        if prop == "depth" and args[1:] and args[1].lower() in LEVEL_NAMES:
            self._set_level(args[1])
        elif prop == "depth":
            depth = _int(args[1:], "set depth needs a whole number or a level name")
            if not 1 <= depth <= 60:
                raise _Refused("depth must be 1..60")
            self.depth, self.level = depth, None
            self.out(f"set myname {ENGINE_NAME}{depth}")
        elif prop == "level":
            if not args[1:]:
                raise _Refused(f"set level needs a level: {level_choices()}")
            self._set_level(args[1])
        elif prop == "game":
            text = line.split("game", 1)[1].strip()
            try:
                parsed = parse_ggf(text)
            except GgfError as exc:
                raise _Refused(str(exc)) from None
            self.game, self.black, self.white = parsed.game, parsed.black, parsed.white
            self._pass_pending = False
        elif prop == "contempt":
            try:
                self.contempt = float(args[1])
            except (IndexError, ValueError):
                raise _Refused("set contempt needs a number") from None
        else:
            self.err(f"ignored unknown property: {prop}")

    def _set_level(self, word: str) -> None:
        level = parse_level(word)
        if level is None:
            raise _Refused(f"unknown level {word!r}: {level_choices()}")
        self.level = level
        self.out(f"set myname {ENGINE_NAME}-{LEVELS[level].name}")

    def _move(self, args: list[str], _line: str) -> None:
        if not args:
            raise _Refused("move needs a square")
        move = args[0].split("/")[0]
        if move.upper() == "PA":
            last_was_pass = bool(self.game.plies) and self.game.plies[-1] == PASS
            if not (self._pass_pending and last_was_pass):
                raise _Refused(f"{self.game.turn or 'nobody'} has a move and may not pass")
            self._pass_pending = False
            return
        try:
            outcome = self.game.play(move)
        except (IllegalMoveError, NotationError) as exc:
            raise _Refused(str(exc)) from None
        self._pass_pending = outcome.passed is not None

    def _hint(self, args: list[str], _line: str) -> None:
        count = _int(args, "hint needs a number of moves") if args else 1
        if count < 1:
            raise _Refused("hint needs a positive number")
        position = self.game.position
        self.out("status Analysing")
        if self.game.over:
            self.out("status")
            return
        thinker = Thinker(
            ranking_search(
                position,
                self.depth,
                node_limit=self.depth * NODES_PER_DEPTH,
                exact_empties=EXACT_EMPTIES,
                evaluator=learned_evaluator(),
            )
        )
        try:
            result = self._finish(thinker.think)
        except _Stopped:
            self.out("status")
            return
        assert isinstance(result, SearchResult)
        ranked: list[RankedMove] = ranked_moves(result)
        for move in ranked[:count]:
            depth = "100%" if move.exact else str(self.depth)
            self.out(f"search {move.square.upper()} {move.discs:.2f} 0 {depth}")
        self.out("status")

    def _go(self, _args: list[str], _line: str) -> None:
        position = self.game.position
        started = self.clock()
        self.out("status Thinking")
        if self.game.over:
            self.out("status")
            raise _Refused("the game is over")
        try:
            move, discs, nodes = self._best_move(position)
        except _Stopped:
            self.out("status")
            return
        elapsed = self.clock() - started
        self.out(f"nodestats {nodes} {elapsed:.2f}")
        self.out(f"=== {move}/{discs:.2f}/{elapsed:.2f}")
        self.out("status")

    def _ping(self, args: list[str], _line: str) -> None:
        self.out(f"pong {args[0] if args else 0}")

    def _learn(self, _args: list[str], _line: str) -> None:
        self.out("learned")  # no opening book: there is nothing to store

    def _analyze(self, _args: list[str], _line: str) -> None:
        """Evaluate every position of the game, from the last back to the first."""
        self.out("status Analysing")
        positions = self.game.positions()
        for ply in range(len(positions) - 1, -1, -1):
            position = positions[ply]
            if position.is_over():
                counts = position.counts()
                me = counts[position.turn]
                value = float(me - (sum(counts.values()) - me))
            elif not position.has_move():
                continue  # a pass position: the GUI evaluates the next one
            else:
                try:
                    _, value, _ = self._best_move(position)
                except _Stopped:
                    break
            self.out(f"analysis {ply} {value:.2f}")
        self.out("status")

    def _quit(self, _args: list[str], _line: str) -> None:
        self.running = False

    # --- engine -------------------------------------------------------------------------
    def _best_move(self, position: Position) -> tuple[str, float, int]:
        """(move as NBoard writes it, value in discs for the side to move, nodes)."""
        p, o = position.player, position.opponent
        if not position.has_move():
            return "PA", 0.0, 0
        if self.level is not None:
            job = ComputerMove(position, self.level, self.seed)
            chosen = self._finish(job.think)
            assert isinstance(chosen, str)
            value = job.result.discs if job.result is not None else 0.0
            return chosen.upper(), value, job.nodes
        empties = position.empties()
        with_contempt = self.contempt != 0 and empties <= EXACT_EMPTIES
        search = Search(
            p,
            o,
            max_depth=self.depth,
            node_limit=self.depth * NODES_PER_DEPTH,
            exact_empties=EXACT_EMPTIES,
            exact_node_limit=EXACT_NODE_LIMIT,
            evaluator=learned_evaluator(),
            all_moves=with_contempt,
        )
        result = self._finish(Thinker(search).think)
        assert isinstance(result, SearchResult)
        move, discs = result.move, result.discs
        if with_contempt and result.exact and result.scores:
            # A proven draw is worth -contempt to us: prefer a win, else a draw or loss.
            def valued(sq: int) -> float:
                v = result.scores[sq] / 100
                return -self.contempt if v == 0 else v

            move = max(sorted(result.scores), key=valued)
            discs = result.scores[move] / 100
        assert move is not None
        return square_name(move).upper(), discs, result.nodes


class _Refused(Exception):
    """A command that cannot be carried out; nothing was changed."""


def parse_level(word: str) -> int | None:
    """A handheld level from its name ("strong") or number ("4"); None if neither."""
    word = word.lower()
    if word in LEVEL_NAMES:
        return LEVEL_NAMES[word]
    if word.isdigit() and int(word) in LEVELS:
        return int(word)
    return None


def level_choices() -> str:
    return ", ".join(f"{n} {LEVELS[n].name}" for n in sorted(LEVELS))


def _int(args: list[str], message: str) -> int:
    try:
        return int(args[0])
    except (IndexError, ValueError):
        raise _Refused(message) from None
