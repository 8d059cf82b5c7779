"""`twinfold panels-sim`: computer-versus-computer Panel Link games and their statistics."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    sim = sub.add_parser(
        "panels-sim",
        help="play Panel Link games between computer levels and print win rates",
        description="Play seeded Panel Link games between two computer levels (1-4).",
    )
    sim.add_argument("--games", type=int, required=True, help="number of games (1-100000)")
    sim.add_argument("--levels", default="4,1", help="two levels A,B (default 4,1)")
    sim.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    sim.add_argument("--target", type=int, default=None, help="target score (default 300)")
    sim.add_argument("--removal", action="store_true", help="cards forming yaku leave the field")
    sim.add_argument("--json", action="store_true", help="print the statistics as JSON")
    sim.set_defaults(handler=_run_sim)


def _parse_levels(text: str) -> tuple[int, int]:
    from firmware.cli import CommandError
    from games.panels.ai.player import LEVELS

    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise CommandError(f"--levels must be two levels like 4,1: {text!r}")
    a, b = (int(p) for p in parts)
    for level in (a, b):
        if level not in LEVELS:
            raise CommandError(f"unknown level {level} (levels are {LEVELS[0]}-{LEVELS[-1]})")
    return a, b


def _run_sim(args: argparse.Namespace) -> int:
    import json

    from firmware.cli import CommandError
    from games.panels.ai.match import simulate
    from games.panels.rules.game import DEFAULT_TARGET

    if not 1 <= args.games <= 100_000:
        raise CommandError(f"--games must be 1-100000: {args.games}")
    levels = _parse_levels(args.levels)
    target = DEFAULT_TARGET if args.target is None else args.target
    if not 10 <= target <= 100_000:
        raise CommandError(f"--target must be 10-100000: {target}")
    result = simulate(args.games, levels, seed=args.seed, target=target, removal=args.removal)
    data = result.to_json()
    if args.json:
        print(json.dumps(data))
        return 0
    print(
        f"{args.games} games, target {target}, seeds {args.seed}-{args.seed + args.games - 1}"
        f"{', removal rule' if args.removal else ''}"
    )
    print(
        f"{'level':>5} {'wins':>6} {'draws':>6} {'win rate':>9} {'avg score':>10} {'avg yaku':>9}"
    )
    for p in data["players"]:
        print(
            f"{p['level']:>5} {p['wins']:>6} {p['draws']:>6} {p['win_rate']:>9.1%} "
            f"{p['avg_score']:>10.1f} {p['avg_yaku']:>9.2f}"
        )
    print(f"average turns per game: {data['avg_turns']:.1f}")
    return 0
