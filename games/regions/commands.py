"""`twinfold regions-gen`: write a Region Select surface as JSON and/or PNG for puzzle makers."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    gen = sub.add_parser(
        "regions-gen",
        help="make a Region Select surface (JSON and PNG)",
        description="Make a Region Select surface: random (--crossings, --seed), from the "
        "built-in catalogue (--from-catalogue NAME) or from a surface file (--from-json), "
        "and write it as JSON and/or a PNG picture of the lower screen.",
    )
    src = gen.add_mutually_exclusive_group(required=True)
    src.add_argument("--crossings", type=int, metavar="N", help="random surface, N = 3..15")
    src.add_argument(
        "--from-catalogue", metavar="NAME", help="a catalogue surface ('list' lists them)"
    )
    src.add_argument("--from-json", metavar="FILE", help="re-read a surface file")
    gen.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    gen.add_argument("--json", metavar="FILE", help="write the surface as JSON here ('-': stdout)")
    gen.add_argument("--png", metavar="FILE", help="write a picture here")
    gen.set_defaults(handler=_generate)


def _generate(args: argparse.Namespace) -> int:
    import json
    import random

    from firmware.cli import CommandError
    from games.regions.rules import catalogue, export
    from games.regions.rules.generate import GenerationError, random_surface
    from games.regions.rules.layout import DrawingError
    from games.regions.rules.puzzle import Board
    from games.regions.rules.solver import Unsolvable
    from games.regions.rules.surface import Surface

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
                with open(args.from_json, encoding="utf-8") as fh:
                    data = json.load(fh)
            except OSError as exc:
                raise CommandError(f"cannot read {args.from_json}: {exc.strerror}") from None
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise CommandError(f"{args.from_json} is not valid JSON: {exc}") from None
            surface, drawing = export.from_json(data)
            name = str(data.get("name", ""))
        Board(surface)  # proves every start pattern solvable before anything is written
    except (GenerationError, DrawingError, Unsolvable, export.SurfaceFileError) as exc:
        raise CommandError(str(exc)) from None
    if not args.json and not args.png:
        raise CommandError("nothing to write: give --json FILE and/or --png FILE")
    text = json.dumps(export.to_json(surface, drawing, name), indent=1)
    if args.json == "-":
        print(text)
    elif args.json:
        _write(args.json, text)
    if args.png:
        from games.regions.render import render_png

        try:
            render_png(surface, drawing, args.png)
        except Exception as exc:  # pygame reports unwritable paths and formats this way
            raise CommandError(f"cannot write {args.png}: {exc}") from None
    return 0


def _write(path: str, text: str) -> None:
    from firmware.cli import CommandError

    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror}") from None
