"""Handlers of the Killing Sevens commands (see commands.py): argument checking and output
(the progress display is the shared one, firmware.progress)."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from firmware.arguments import STDOUT, CommandError, read_text_input, writable_output
from games.sevens.ai.personalities import NAMES_EN, PERSONALITIES
from games.sevens.rules.options import MAX_KILL_CHOICES, Options

if TYPE_CHECKING:
    from games.sevens.rules.game import Event, Game

_BOOL_WORDS = {"on": True, "true": True, "yes": True, "1": True}
_BOOL_WORDS.update({"off": False, "false": False, "no": False, "0": False})
_OPTION_NAMES = {
    "max-kill": "max_kill",
    "three-walls": "three_walls",
    "sevens-first": "sevens_laid_out",
    "extra-turn": "extra_turn",
}


def parse_options(items: list[str]) -> Options:
    """Options from repeated NAME[=VALUE] words; CommandError on anything unknown."""
    values: dict[str, Any] = {}  # Options' keyword arguments (int or bool, checked above)
    for item in items:
        name, _, value = item.partition("=")
        key = _OPTION_NAMES.get(name.strip().lower())
        if key is None:
            raise CommandError(f"unknown option {name!r} (choose from {', '.join(_OPTION_NAMES)})")
        if key == "max_kill":
            if not value.strip().isdigit() or int(value) not in MAX_KILL_CHOICES:
                raise CommandError(
                    f"max-kill must be one of {', '.join(map(str, MAX_KILL_CHOICES))}"
                )
            values[key] = int(value)
        elif not value:
            values[key] = True
        elif value.strip().lower() in _BOOL_WORDS:
            values[key] = _BOOL_WORDS[value.strip().lower()]
        else:
            raise CommandError(f"option {name} takes on or off, not {value!r}")
    return Options(**values)


def parse_seats(text: str) -> list[str]:
    seats = [s.strip().lower() for s in text.split(",")]
    if len(seats) != 4:
        raise CommandError(f"--seats needs four personalities, got {len(seats)}")
    for s in seats:
        if s not in PERSONALITIES:
            raise CommandError(
                f"unknown personality {s!r} (choose from {', '.join(PERSONALITIES)})"
            )
    return seats


def run_sim(args: argparse.Namespace) -> int:
    from firmware.progress import progress, wanted
    from games.sevens.simulator import simulate

    seats = parse_seats(args.seats)
    options = parse_options(args.option)
    with progress(args.games, "games", show=wanted(args.progress, json_output=args.json)) as bar:
        result = simulate(args.games, seats, args.seed, options, bar)
    data = result.to_json()
    if args.json:
        print(json.dumps(data))
        return 0
    print(f"{data['games']} games, seed {args.seed}, options {_options_text(options)}")
    print(
        f"{'seat':<5}{'personality':<13}{'wins':>7}{'win %':>8}{'avg killed':>12}"
        f"{'avg kills':>11}{'avg place':>11}"
    )
    for i, s in enumerate(data["seats"]):
        pct = 100.0 * s["wins"] / data["games"]
        print(
            f"{i + 1:<5}{NAMES_EN[s['personality']]:<13}{s['wins']:>7}{pct:>7.1f}%"
            f"{s['avg_killed']:>12.2f}{s['avg_kills']:>11.2f}{s['avg_place']:>11.2f}"
        )
    return 0


def _options_text(o: Options) -> str:
    flags = [f"max-kill={o.max_kill}"]
    flags += [n for n, k in _OPTION_NAMES.items() if k != "max_kill" and getattr(o, k)]
    return " ".join(flags)


def run_game(args: argparse.Namespace) -> int:
    import random

    from games.sevens.ai.voices import Narrator
    from games.sevens.records import save_record
    from games.sevens.rules.record import record_of
    from games.sevens.simulator import play_game

    seats = parse_seats(args.seats)
    options = parse_options(args.option)
    if args.save:
        writable_output(args.save, "record")  # before the game, not after it
    game = play_game(seats, args.seed, 0, options)
    if args.save == STDOUT:  # the record is the output: nothing else on stdout
        print(json.dumps(record_of(game, seats), ensure_ascii=False, indent=1))
        return 0
    narrator = Narrator(seats, random.Random(f"sevens-voice:{args.seed}"))
    names = [NAMES_EN[s] for s in seats]
    for group in action_groups(game.events):
        for e in group:
            line = _event_text(e, names)
            if line:
                print(line)
        for speech in narrator.react(group):
            print(f"     {names[speech.seat]}: {speech.text(args.lang)}")
    print(_result_text(game, names))
    if args.save:
        try:
            save_record(args.save, game, seats)
        except OSError as exc:
            raise CommandError(f"cannot write {args.save}: {exc.strerror or exc}") from None
        print(f"record saved to {args.save}")
    return 0


def action_groups(events: list[Event]) -> list[list[Event]]:
    """Events split so that each group starts with a play or pass (the opening first)."""
    groups: list[list[Event]] = [[]]
    for e in events:
        if e["type"] in ("play", "pass") and groups[-1]:
            groups.append([])
        groups[-1].append(e)
    return groups


def _event_text(e: Event, names: list[str]) -> str:
    from games.sevens.rules.cards import card_label, parse_card

    kind = e["type"]
    if kind == "play":
        return f"  {names[e['seat']]} plays {card_label(parse_card(e['card']))}"
    if kind == "pass":
        return f"  {names[e['seat']]} passes"
    if kind == "kill":
        lost = ", ".join(
            f"{card_label(parse_card(c))} ({names[v]})"
            for c, v in zip(e["cards"], e["victims"], strict=True)
        )
        return f"  ** {names[e['killer']]} kills {lost}"
    if kind == "finish":
        return f"  {names[e['seat']]} goes out (#{e['place']})"
    if kind == "extra_turn":
        return f"  {names[e['seat']]} plays again"
    if kind == "layout":
        return "  the sevens are laid out"
    return ""


def _result_text(game: Game, names: list[str]) -> str:
    lines = ["result (fewest killed, then most kills, then first out):"]
    for place, s in enumerate(game.ranking(), 1):
        lines.append(
            f"  {place}. {names[s]:<10} killed {game.killed_count[s]:>2}  "
            f"kills {game.kills_count[s]:>2}  out #{game.finish_order.index(s) + 1}"
        )
    return "\n".join(lines)


def _seat_names(path: str) -> list[str]:
    """The players' names: their personalities where the record names them."""
    try:
        seats = json.loads(read_text_input(path, "record")).get("seats")
    except (CommandError, ValueError, AttributeError):
        seats = None
    if isinstance(seats, list) and len(seats) == 4 and all(s in NAMES_EN for s in seats):
        return [f"{NAMES_EN[s]} (seat {i + 1})" for i, s in enumerate(seats)]
    return [f"Player {i + 1}" for i in range(4)]


def run_replay(args: argparse.Namespace) -> int:
    from games.sevens.records import load_record
    from games.sevens.rules.record import RecordError

    try:
        game = load_record(args.record)
    except RecordError as exc:
        raise CommandError(str(exc)) from None
    if args.json:
        print(json.dumps(game.to_json(), ensure_ascii=False))
        return 0
    names = _seat_names(args.record)
    if game.over or game.current is None:
        status = "finished"
    else:
        status = f"in progress ({names[game.current]} to move)"
    print(f"record replays correctly: {len(game.events)} events, game {status}")
    if game.over:
        print(_result_text(game, names))
    return 0
