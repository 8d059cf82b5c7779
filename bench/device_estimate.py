"""Device backend (issue 12): does every tick fit a Raspberry Pi Zero 2 W's 16.7 ms?

    .venv/bin/python bench/device_estimate.py [--frames N] [--games N] [--profile NAME]

No board is needed: the estimate is the desktop's measured CPU time per tick divided by the
profile's relative speed (`handheld.app.RELATIVE_SPEED`, default the Zero
2 W), the same factor the computer players' budgets are scaled by. Run on a real board,
the script's first line (the reference benchmark) gives that board's true factor: the
desktop's reference time divided by the board's.

1. reference: a fixed mix of Twinfold work (1000 launcher ticks with random input, and the
   Reversi engine choosing 6 moves at its middle level), CPU seconds;
2. every firmware scene and the demo game (bench/firmware_ticks.py's measurement: random
   input, p99 and max of the tick's CPU time), plus the device `present` of both panels
   (bench/device_present.py: RGB565 game frames, p99), each divided by the speed;
3. every computer player at its device budget: the machine boots with the profile in its
   "sliced" mode (the search inside the tick: the worst case for the loop; on a board the
   match layer runs it in a worker process instead), so the game's `ctx.computer_budget`
   gives it the profile's smaller slices (Reversi, strongest level, a whole game against
   first-legal-square play); every tick while it thinks.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

from benchenv import ROOT

from firmware.testing import scripted_input

sys.path.insert(0, str(ROOT / "tests" / "firmware"))

TICK_MS = 1000 / 60


def reference() -> float:
    """CPU seconds of the reference mix (compare this figure between machines)."""
    from test_chaos import chaos_script

    from firmware.testing import machine_from_movie
    from games.reversi.ai.players import choose_move
    from games.reversi.rules import Position

    c0 = time.process_time()
    with tempfile.TemporaryDirectory() as tmp:
        m = machine_from_movie(Path(tmp), seed=1)
        scripted_input(m).script = chaos_script(12, lid=False)
        for _ in range(1000):
            m.step()
            m.render()
            m.present()
        m.store.close()
    position = Position.start()
    for i in range(6):
        move = choose_move(position, 3, seed=i)
        position = position.play(move)
    return time.process_time() - c0


def thinking_ticks(profile_name: str, speed: float, games: int, mode: str) -> list[float]:
    """CPU ms (this thread) of every tick in which the strongest Reversi level thinks at its
    device budget, in the profile mode given: "sliced" runs the search inside the tick (the
    worst case for the loop), "worker" in a worker process on a spare core (the boards)."""
    import firmware.machine
    from firmware.match.profiles import DeviceProfile

    firmware.machine.DEFAULT_PROFILE = DeviceProfile(profile_name, speed, mode)
    import reversi_scene

    timer, _ = reversi_scene.strongest_thinking(games)
    return timer.cpu


def main(argv: list[str]) -> int:
    from firmware.match.profiles import PROFILES as MATCH_PROFILES
    from handheld.app import RELATIVE_SPEED

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=2000, help="ticks per firmware scene")
    parser.add_argument("--games", type=int, default=1, help="Reversi games at the strongest level")
    parser.add_argument("--profile", default="pi-zero-2w", choices=sorted(RELATIVE_SPEED))
    args = parser.parse_args(argv)
    speed = RELATIVE_SPEED[args.profile]
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; profile {args.profile}: relative speed {speed}"
    )
    ref = reference()
    print(f"reference mix: {ref:.2f} s CPU (on a board: this figure / the board's = its speed)")

    import device_present
    import firmware_ticks

    present = device_present.present_costs(600)
    present_p99 = max(r[4] for r in present if r[0] == "RGB565" and r[2] == "game")
    print(f"device present, both panels, RGB565 game frames: p99 {present_p99:.3f} ms")
    print(
        f"{'scene':14} {'cpu p99':>8} {'cpu max':>8}   {args.profile + ' p99':>16} "
        f"{'(+present)':>11}   (ms; budget {TICK_MS:.1f})"
    )
    worst = 0.0
    for name, _p50, p99, cmax, *_wall in firmware_ticks.scene_costs(args.frames):
        board = (p99 + present_p99) / speed
        worst = max(worst, board)
        print(f"{name:14} {p99:8.3f} {cmax:8.3f}   {p99 / speed:16.2f} {board:11.2f}")
    board_mode = MATCH_PROFILES[args.profile].mode
    for mode in ("sliced", "worker"):
        ticks = thinking_ticks(args.profile, speed, args.games, mode)
        ordered = sorted(ticks)
        p99 = ordered[int(len(ordered) * 0.99)]
        board = (p99 + present_p99) / speed
        if mode == board_mode:
            worst = max(worst, board)
        print(
            f"{'reversi ' + mode:14} {p99:8.3f} {ordered[-1]:8.3f}   {p99 / speed:16.2f}"
            f" {board:11.2f}   ({len(ticks)} thinking ticks at the {args.profile} budget"
            + ("; the board's mode)" if mode == board_mode else ")")
        )
    verdict = "within" if worst <= TICK_MS else "OVER"
    print(
        f"estimate: worst p99 tick on {args.profile} (its {board_mode} mode) {worst:.2f} ms: "
        f"{verdict} {TICK_MS:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
