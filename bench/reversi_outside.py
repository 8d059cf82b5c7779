"""Reversi's strongest level against an outside engine over the NBoard protocol.

    .venv/bin/python bench/reversi_outside.py --engine "CMD [ARGS]" [--depth N]
        [--openings 20] [--seed 1] [--profile desktop] [--level strong]

The engine is any program that speaks NBoard (version 2) on stdin/stdout; `--depth N`
sends it `set depth N` (Egaroucid's level, Edax's depth...). Every game starts from one of
`--openings` random 8-ply openings drawn from `--seed` (distinct, not finished), and each
opening is played twice, our level black and then white. The engine gets the whole game so
far as GGF (`set game`) and `go` before each of its moves, with a fresh engine process per
game, so every game depends only on its opening and colour; its answer (`=== F5/...`) must
be a legal move by our rules, or the match stops with a message (exit 2).

Our side plays the chosen level as the computer seat does on the chosen device profile
(`reversi_levels.seat_move`: the work budgets follow the profile's speed, as on the
handheld, and a worker profile with several cores splits the search into the pool's parts);
its wait is what the seat shows, `max(24, ceil(units / tick budget))` ticks at 60 Hz (of the
parts' makespan when split). Our moves are node-limited
and seeded (seed = opening number), so this side is reproducible on any machine; the
engine's side is as reproducible as the engine.

Prints one line per game, then W-D-L from our side, the score, an Elo-style difference with
its 95% interval (binomial error of the score), and our side's waits.
"""

from __future__ import annotations

import argparse
import contextlib
import queue
import random
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reversi_levels import MIN_THINK_TICKS, score_text, seat_move
from ticktime import waits_line

from firmware.match.profiles import PROFILES, DeviceProfile
from games.reversi.ai import LEVEL_NAMES
from games.reversi.ggf import GgfGame, format_ggf
from games.reversi.match import UNITS_PER_TICK
from games.reversi.rules import Game

OPENING_PLIES = 8
ANSWER_SECONDS = 600.0  # an engine that says nothing for this long is stuck


class EngineError(Exception):
    """The engine broke the protocol (no answer, an illegal or unreadable move, exited)."""


class Engine:
    """One NBoard engine process; lines are read on a thread so a silent engine times out."""

    def __init__(self, command: list[str], depth: int | None) -> None:
        try:
            self.proc = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as exc:
            raise EngineError(f"cannot start {shlex.join(command)}: {exc}") from exc
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("nboard 2")
        if depth is not None:
            self.send(f"set depth {depth}")
        self.send("ping 1")
        self.wait_for("pong 1")

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except OSError as exc:
            raise EngineError(f"the engine stopped reading its input ({exc})") from exc

    def wait_for(self, prefix: str) -> str:
        while True:
            try:
                line = self.lines.get(timeout=ANSWER_SECONDS)
            except queue.Empty:
                raise EngineError(
                    f"no {prefix!r} from the engine in {ANSWER_SECONDS:.0f} s"
                ) from None
            if line is None:
                raise EngineError(f"the engine exited before answering {prefix!r}")
            if line.startswith(prefix):
                return line

    def move(self, game: Game) -> str:
        """The engine's move in `game` (its side is to move and has a legal move)."""
        self.send("set game " + format_ggf(GgfGame(game, "Twinfold", "engine")))
        self.send("go")
        answer = self.wait_for("===").split()
        if len(answer) < 2:
            raise EngineError(f"unreadable answer {' '.join(answer)!r}")
        move = answer[1].split("/")[0].lower()
        if not game.is_legal(move):
            raise EngineError(
                f"illegal move {move!r} from the engine after {' '.join(game.moves) or 'the start'}"
            )
        return move

    def close(self) -> None:
        with contextlib.suppress(EngineError):
            self.send("quit")
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def openings(count: int, seed: int) -> list[Game]:
    """`count` distinct random 8-ply openings (none finished), from `seed`."""
    rng = random.Random(f"reversi-outside:{seed}")
    seen: set[tuple[str, ...]] = set()
    out: list[Game] = []
    while len(out) < count:
        g = Game()
        for _ in range(OPENING_PLIES):
            if g.over:
                break
            g.play(rng.choice(sorted(g.legal())))
        key = tuple(g.moves)
        if not g.over and key not in seen:
            seen.add(key)
            out.append(g)
    return out


def play(
    start: Game, ours_black: bool, command: list[str], depth: int | None, level: int,
    seed: int, profile: DeviceProfile,
) -> tuple[int, list[float], float]:  # fmt: skip
    """One game: our disc margin, our waits (s) and our CPU time (s)."""
    g = Game.from_json(start.to_json())
    ours = "black" if ours_black else "white"
    budget = profile.budget(UNITS_PER_TICK)
    waits: list[float] = []
    cpu = 0.0
    engine = Engine(command, depth)
    try:
        while not g.over:
            if g.turn == ours:
                c = time.process_time()
                move, units = seat_move(g, level, seed, profile)
                cpu += time.process_time() - c
                waits.append(max(MIN_THINK_TICKS, -(-units // budget)) / 60)
            else:
                move = engine.move(g)
            g.play(move)
    finally:
        engine.close()
    s = g.score()
    margin = s["black"] - s["white"]
    return (margin if ours_black else -margin), waits, cpu


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", required=True, help="the engine's command line (NBoard)")
    ap.add_argument("--depth", type=int, help="send the engine `set depth N`")
    ap.add_argument("--openings", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", default="desktop", choices=sorted(PROFILES))
    ap.add_argument("--level", default="strong", choices=sorted(LEVEL_NAMES))
    args = ap.parse_args(argv)
    command = shlex.split(args.engine)
    if not command or args.openings < 1:
        print("reversi_outside: need an engine command and at least one opening", file=sys.stderr)
        return 2
    budget = PROFILES[args.profile].budget(UNITS_PER_TICK)
    level = LEVEL_NAMES[args.level]
    print(
        f"{args.level} on {args.profile} ({budget} units a tick) vs {args.engine!r}"
        f"{f' depth {args.depth}' if args.depth is not None else ''}; "
        f"{args.openings} openings of {OPENING_PLIES} plies from seed {args.seed}, both colours",
        flush=True,
    )
    wins = draws = losses = 0
    waits: list[float] = []
    cpu = 0.0
    for i, start in enumerate(openings(args.openings, args.seed)):
        for ours_black in (True, False):
            try:
                margin, w, c = play(
                    start, ours_black, command, args.depth, level, i, PROFILES[args.profile]
                )  # fmt: skip
            except EngineError as exc:
                print(f"reversi_outside: opening {i}: {exc}", file=sys.stderr)
                return 2
            waits += w
            cpu += c
            wins += margin > 0
            draws += margin == 0
            losses += margin < 0
            print(
                f"opening {i:2} ({' '.join(start.moves)}) "
                f"ours {'black' if ours_black else 'white'}: {margin:+d}",
                flush=True,
            )
    print(f"result (ours first): {score_text(wins, draws, losses)}")
    print(waits_line(waits, cpu))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
