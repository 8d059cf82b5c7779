"""Arimaa's computer player against an outside AEI engine (issue 36: bot_Sharp at depth 4).

    .venv/bin/python bench/arimaa_outside.py --engine "/tmp/sharp/sharp aei" \
        --option depth=4 [--games 8] [--first 0] [--level 5] [--profile desktop-worker] \
        [--max-turns 120] [--record DIR]

The engine is any program that speaks AEI on stdin/stdout; `--option NAME=VALUE` sends it
`setoption name NAME value VALUE` (Sharp's `depth 4`: one turn and its extensions). Game `i`
(from `--first`) gives our side gold when `i` is even and silver when odd, so colours
alternate; a fresh engine process plays each game. Every move of both sides, setups
included, is checked by `pyrimaa.board` (the AEI package's reference rules) and by
Twinfold's rules; a move either refuses stops the match with a message (exit 2).

Our side plays as the computer seat does on the chosen device profile (`seat_turn`: the
level, the profile's per-turn work cap, the pool's parts where the profile has several
cores, the setup from the seed); its wait is what the seat shows, `max(24, ceil(units /
tick budget))` ticks at 60 Hz (the parts' makespan when split), which depends only on the
code and the profile, not on this machine's load. A game still going after `--max-turns`
turns is scored by claim 29's material score, as a game limit would.

Prints one line per game (winner, reason, turns, our waits), then our wins and waits.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from seat_search import split_decision, think_through
from ticktime import waits_line

from firmware.match.profiles import PROFILES, DeviceProfile
from games.arimaa.ai.levels import LEVELS, TOP_LEVEL
from games.arimaa.match import ArimaaAction, ArimaaComputer, ArimaaRules
from games.arimaa.rules.notation import NotationError, apply_move, write_record
from games.arimaa.rules.score import score_winner

MIN_THINK_TICKS = 24  # the seat's shortest pause (firmware/game_api.py)
ANSWER_SECONDS = 900.0  # an engine that says nothing for this long is stuck


class MatchError(Exception):
    """A move one side's rules refused, or an engine that broke the protocol."""


def seat_turn(
    rules: ArimaaRules, level: int, seed: int, profile: DeviceProfile
) -> tuple[ArimaaAction, int]:
    """`level`'s action as the computer seat plays it on `profile`, and the work units that
    fix its landing tick (the pool's parts' makespan where the profile has several cores)."""
    core_budget = profile.budget(ArimaaComputer.core_units_per_tick)
    computer = ArimaaComputer(level, seed, core_budget, profile.native)
    seat = rules.game.side_to_move
    split = split_decision(computer, rules, seat, profile)
    if split is not None:
        action, units = split
        return action, units
    thinker = computer.start(rules, seat)
    action = think_through(thinker)
    return action, thinker.units


def play(
    index: int, command: list[str], options: list[tuple[str, str]], level: int,
    profile: DeviceProfile, max_turns: int, record: Path | None = None,
) -> tuple[bool, str, int, list[float], float]:  # fmt: skip
    """One game: (we won, how, turns, our waits in s, our CPU s here); its record (Arimaa
    notation) goes to `record`/game-<index>.txt if given."""
    from pyrimaa import aei
    from pyrimaa import board as pb

    ours = index % 2  # 0 gold, 1 silver
    rules = ArimaaRules()
    ref = pb.Position(pb.Color.GOLD, 4, pb.BLANK_BOARD)
    budget = profile.budget(ArimaaComputer.units_per_tick)  # the seat's pace (a worker's core)
    waits: list[float] = []
    cpu = 0.0
    engine = aei.EngineController(aei.StdioEngine(shlex.join(command)))
    try:
        for name, value in options:
            engine.setoption(name, value)
        engine.newgame()
        engine.isready(ANSWER_SECONDS)
        turns = 0
        while rules.game.result is None and not (turns >= 2 and ref.is_end_state()):
            side = rules.game.side_to_move
            if turns >= max_turns + 2:
                break
            if side == ours:
                c = time.process_time()
                action, units = seat_turn(rules, level, index, profile)
                cpu += time.process_time() - c
                if action.kind == "turn":
                    waits.append(max(MIN_THINK_TICKS, -(-units // budget)) / 60)
                events = rules.apply(side, action)
                text = next(e["notation"] for e in events if "notation" in e)
            else:
                engine.go()
                text = _bestmove(engine)
                if text.lower() == "resign":
                    return True, f"{'gs'[ours]} by the engine's resignation", turns - 2, waits, cpu
                try:
                    apply_move(rules.game, text)
                except NotationError as exc:
                    raise MatchError(
                        f"Twinfold's rules refuse the engine's {text!r}: {exc}"
                    ) from exc
            try:
                ref = ref.do_move_str(text, strict_checks=True)
            except Exception as exc:  # pyrimaa raises its own IllegalMove
                who = "our" if side == ours else "the engine's"
                raise MatchError(f"pyrimaa.board refuses {who} move {text!r}: {exc}") from exc
            engine.makemove(text)
            turns += 1
    finally:
        engine.quit()
        engine.cleanup()
        if record is not None:
            record.mkdir(parents=True, exist_ok=True)
            (record / f"game-{index}.txt").write_text(write_record(rules.game))
    result = rules.game.result
    if result is not None:
        winner, how = result.winner, result.reason
    else:
        winner, how = score_winner(rules.game.position.boards), f"score after {max_turns} turns"
    return (
        winner == ours,
        f"{'gs'[winner] if winner is not None else 'nobody'} by {how}",
        (turns - 2),
        waits,
        cpu,
    )


def _bestmove(engine: Any) -> str:
    deadline = time.monotonic() + ANSWER_SECONDS
    while time.monotonic() < deadline:
        resp = engine.get_response(ANSWER_SECONDS)
        if resp.type == "bestmove":
            return str(resp.move)
    raise MatchError(f"no bestmove from the engine in {ANSWER_SECONDS:.0f} s")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", required=True, help="the engine's command line (AEI)")
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE for setoption")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--first", type=int, default=0, help="first game number (colour, seed)")
    ap.add_argument("--level", type=int, default=TOP_LEVEL, choices=sorted(LEVELS))
    ap.add_argument("--profile", default="desktop-worker", choices=sorted(PROFILES))
    ap.add_argument("--max-turns", type=int, default=120)
    ap.add_argument("--record", type=Path, help="write each game's record into this folder")
    args = ap.parse_args(argv)
    command = shlex.split(args.engine)
    options = []
    for opt in args.option:
        name, sep, value = opt.partition("=")
        if not sep or not name:
            print(f"arimaa_outside: --option needs NAME=VALUE, got {opt!r}", file=sys.stderr)
            return 2
        options.append((name, value))
    if not command or args.games < 1:
        print("arimaa_outside: need an engine command and at least one game", file=sys.stderr)
        return 2
    profile = PROFILES[args.profile]
    print(
        f"level {args.level} on {args.profile} vs {args.engine!r} {options}; games "
        f"{args.first}..{args.first + args.games - 1}, ours gold in the even ones",
        flush=True,
    )
    wins = 0
    waits: list[float] = []
    cpu = 0.0
    for i in range(args.first, args.first + args.games):
        t0 = time.monotonic()
        try:
            won, how, turns, w, c = play(
                i, command, options, args.level, profile, args.max_turns, args.record
            )  # fmt: skip
        except MatchError as exc:
            print(f"arimaa_outside: game {i}: {exc}", file=sys.stderr)
            return 2
        wins += won
        waits += w
        cpu += c
        print(
            f"game {i:2} ours {'gs'[i % 2]}: {'won' if won else 'lost'} ({how}, {turns} turns); "
            f"our waits median {statistics.median(w) if w else 0:.2f} s, max "
            f"{max(w, default=0):.2f} s; CPU here {c:.0f} s; {time.monotonic() - t0:.0f} s wall",
            flush=True,
        )
    print(f"result: {wins} of {args.games} won ({100 * wins / args.games:.0f}%)")
    if waits:
        print(waits_line(waits, cpu, "turn"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
