"""The games. Each game is a package `games/<id>/` discovered by the firmware at run time.

A game package may hold:
- `commands.py` with `register(subparsers)`: extra `twinfold` subcommands (engine protocols,
  simulators, tools). Keep its top level light: import heavy modules inside the handlers.
- `cartridge.py` with `CARTRIDGE`: the game's registration for the launcher (firmware game API).
"""
