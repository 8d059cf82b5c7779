"""`twinfold regions-gen`: write a Region Select surface as JSON and/or PNG for puzzle makers."""

from __future__ import annotations

import argparse

from firmware.arguments import count_argument, seed_argument


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    gen = sub.add_parser(
        "regions-gen",
        help="make a Region Select surface (JSON and PNG)",
        description="Make a Region Select surface: random (--crossings, --seed), from the "
        "built-in catalogue (--from-catalogue NAME) or from a surface file (--from-json), "
        "and write it as JSON and/or a PNG picture of the lower screen.",
    )
    src = gen.add_mutually_exclusive_group(required=True)
    src.add_argument(
        "--crossings", type=count_argument(3, 15), metavar="N", help="random surface, N = 3..15"
    )
    src.add_argument(
        "--from-catalogue", metavar="NAME", help="a catalogue surface ('list' lists them)"
    )
    src.add_argument("--from-json", metavar="FILE", help="re-read a surface file")
    gen.add_argument(
        "--seed",
        type=seed_argument,
        default=0,
        metavar="N",
        help="seed of a random surface (0..2**63-1, default 0)",
    )
    gen.add_argument(
        "--json", metavar="FILE", help="write the surface as JSON here ('-': standard output)"
    )
    gen.add_argument(
        "--png",
        metavar="FILE",
        help="write a PNG picture here, whatever the file is called ('-': standard output)",
    )
    gen.set_defaults(handler=_generate)


def _generate(args: argparse.Namespace) -> int:
    import json
    import random

    from firmware.arguments import (
        STDOUT,
        CommandError,
        read_text_input,
        writable_output,
        write_text_output,
    )
    from games.regions.rules import catalogue, export
    from games.regions.rules.generate import GenerationError, random_surface
    from games.regions.rules.layout import DrawingError
    from games.regions.rules.puzzle import Board
    from games.regions.rules.solver import Unsolvable
    from games.regions.rules.surface import Surface

    if args.json == STDOUT and args.png == STDOUT:
        raise CommandError("--json and --png cannot both go to standard output ('-')")
    if args.json:
        writable_output(args.json, "surface")
    if args.png:
        writable_output(args.png, "picture")
    name = ""
    try:
        if args.crossings is not None:
            surface, drawing = random_surface(args.crossings, random.Random(args.seed))
            name = f"random-{args.crossings}-{args.seed}"
        elif args.from_catalogue is not None:
            if args.from_catalogue == "list":
                for e in catalogue.CATALOGUE:
                    print(f"{e.name:12} {e.shadow.crossings:2}  {e.description}")
                return 0
            try:
                entry = catalogue.entry(args.from_catalogue)
            except KeyError:
                raise CommandError(
                    f"no catalogue surface {args.from_catalogue!r} (try --from-catalogue list)"
                ) from None
            surface = Surface(entry.shadow)
            drawing = catalogue.drawing(entry.name)
            name = entry.name
        else:
            try:
                data = json.loads(read_text_input(args.from_json, "surface file"))
            except json.JSONDecodeError as exc:
                raise CommandError(f"{args.from_json} is not valid JSON: {exc}") from None
            if not isinstance(data, dict):
                raise CommandError(f"{args.from_json} is not a surface file (not an object)")
            surface, drawing = export.from_json(data)
            name = str(data.get("name", ""))
        Board(surface)  # proves every start pattern solvable before anything is written
    except (GenerationError, DrawingError, Unsolvable, export.SurfaceFileError) as exc:
        raise CommandError(str(exc)) from None
    if not args.json and not args.png:
        raise CommandError("nothing to write: give --json FILE and/or --png FILE")
    text = json.dumps(export.to_json(surface, drawing, name), indent=1)
    if args.json:
        write_text_output(args.json, text + "\n", "surface")
    if args.png:
        import sys

        from games.regions.render import render_png

        try:
            render_png(surface, drawing, sys.stdout.buffer if args.png == STDOUT else args.png)
        except Exception as exc:  # pygame reports unwritable paths and formats this way
            raise CommandError(f"cannot write {args.png}: {exc}") from None
    return 0
