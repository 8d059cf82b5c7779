"""`twinfold panels-sim`: computer-versus-computer Panel Link games and their statistics."""

from __future__ import annotations

import argparse

from firmware.arguments import count_argument, report_arguments, seed_argument

GAMES_MAX = 100_000
TARGET_RANGE = (10, 100_000)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sim = sub.add_parser(
        "panels-sim",
        help="play Panel Link games between computer levels and print win rates",
        description="Play seeded Panel Link games between two computer levels (1-4).",
    )
    sim.add_argument(
        "--games",
        type=count_argument(1, GAMES_MAX),
        required=True,
        metavar="N",
        help=f"number of games (1..{GAMES_MAX})",
    )
    sim.add_argument("--levels", default="4,1", help="two levels A,B, each 1..4 (default 4,1)")
    sim.add_argument(
        "--seed",
        type=seed_argument,
        default=0,
        metavar="N",
        help="seed of the first game; game i uses seed+i (0..2**63-1, default 0)",
    )
    sim.add_argument(
        "--target",
        type=count_argument(*TARGET_RANGE),
        default=None,
        metavar="POINTS",
        help=f"target score ({TARGET_RANGE[0]}..{TARGET_RANGE[1]}, default 300)",
    )
    sim.add_argument("--removal", action="store_true", help="cards forming yaku leave the field")
    report_arguments(sim, json_help="print the statistics as JSON (no progress display)")
    sim.set_defaults(handler=_run_sim)


def _parse_levels(text: str) -> tuple[int, int]:
    from firmware.arguments import CommandError
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

    from firmware.arguments import SEED_LIMIT, CommandError
    from firmware.progress import progress, wanted
    from games.panels.ai.match import simulate
    from games.panels.rules.game import DEFAULT_TARGET

    levels = _parse_levels(args.levels)
    target = DEFAULT_TARGET if args.target is None else args.target
    if args.seed + args.games > SEED_LIMIT:
        raise CommandError(f"--seed {args.seed} leaves no room for {args.games} game seeds")
    show = wanted(args.progress, json_output=args.json)
    with progress(args.games, "games", show=show) as update:
        result = simulate(
            args.games,
            levels,
            seed=args.seed,
            target=target,
            removal=args.removal,
            progress=update,
        )
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
