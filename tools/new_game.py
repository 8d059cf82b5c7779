"""`twinfold new-game ID`: a new game in this checkout, from the template in
tools/game_template/, that passes every check as written (ruff, the layer and cycle checks,
mypy, the match contract, the sweeps; tests/tools/test_new_game.py proves it).

    .venv/bin/twinfold new-game connect [--title "Connect"] [--title-ja "つなげ"] [--dir D]
    .venv/bin/python tools/new_game.py connect      # the same

It writes a two-seat board game (three in a row on 3x3) with a computer player, two
players on one unit, versus over the link, records and their replay, saved games, a
screenshot movie and its own tests:

    games/ID/        rules.py (pure), ai.py, match.py, scene/play.py, cartridge.py
    docs/movies/ID-play.txt
    tests/games/ID/test_ID.py

In the checkout (not as a package of its own): there the house's checks hold the game to
the layers (`game-layers`, `pure-rules` apply to `games.*` only), mypy and ruff cover it
and `python3 run.py test` runs its tests and sweeps it, with nothing configured. Moving it
into a package later is docs/game-packages.md.

The template is files with placeholders (`__game__` the id, `__Game__` the class prefix,
`__TITLE__`, `__TITLE_JA__`); everything is checked before anything is written, and a bad
id, title or an existing file is refused in one line with nothing written.
"""

from __future__ import annotations

import keyword
import re
import sys
from dataclasses import dataclass
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent / "game_template"
SUFFIX = ".tmpl"
GAME_ID = re.compile(r"[a-z][a-z0-9]{1,15}")
# rule G4: a Japanese title has no English word (2+ Latin letters, full-width ones too), an
# English title no Japanese
LATIN_WORD = re.compile(r"[A-Za-zＡ-Ｚａ-ｚ]{2,}")
JAPANESE = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")
DEFAULT_TITLE_JA = "みっつ ならべ"  # "line up three", the template's game


@dataclass(frozen=True)
class NewGame:
    """What the template is filled with."""

    id: str
    title: str
    title_ja: str

    @property
    def class_prefix(self) -> str:
        """`connect4` -> `Connect4`: the scene is `Connect4Scene`, the rules `Connect4Rules`."""
        return self.id[0].upper() + self.id[1:]

    def fill(self, text: str) -> str:
        """The template text with the placeholders replaced."""
        return (
            text.replace("__Game__", self.class_prefix)
            .replace("__game__", self.id)
            .replace("__TITLE_JA__", self.title_ja)
            .replace("__TITLE__", self.title)
        )


def id_problem(game_id: str) -> str | None:
    """Why `game_id` cannot name a game (None: it can)."""
    if not GAME_ID.fullmatch(game_id):
        return (
            f"{game_id!r} is not a game id: 2 to 16 lowercase letters and digits, starting "
            "with a letter (it names games/ID/ and the package games.ID)"
        )
    if keyword.iskeyword(game_id):
        return f"{game_id!r} is a Python keyword: it cannot name a package"
    return None


def title_problem(title: str, title_ja: str) -> str | None:
    """Why the titles cannot be used (None: they can): rule G4 (one language each) and G3
    (the launcher's tile shows a title whole on at most two lines)."""
    for name, value in (("--title", title), ("--title-ja", title_ja)):
        if not value.strip() or not value.isprintable():
            return f"{name} must be printable text, not {value!r}"
        if '"' in value or "\\" in value:  # it goes into the source between quotes as it is
            return f"{name} {value!r} may not hold a double quote or a backslash"
    if JAPANESE.search(title):
        return f"--title {title!r} has Japanese in it: give that as --title-ja (rule G4)"
    if LATIN_WORD.search(title_ja):
        return f"--title-ja {title_ja!r} has English words in it (rule G4)"
    import pygame

    from firmware.gfx import text
    from firmware.scenes.launcher import TILE_W

    pygame.font.init()  # the text measures; no display or sound needed
    for name, value in (("--title", title), ("--title-ja", title_ja)):
        lines = text.wrap(value, TILE_W - 6)
        if len(lines) > 2 or any(text.size(line)[0] > TILE_W - 4 for line in lines):
            return f"{name} {value!r} does not fit the launcher's tile in two lines (rule G3)"
    return None


def taken_by(root: Path, game_id: str) -> str | None:
    """Which game already uses `game_id`, as the checkout and the installed games say."""
    if (root / "games" / game_id).exists():
        return f"games/{game_id}/ is there"
    from firmware.cartridges import discover_all

    found, _ = discover_all(report=False)
    cart = found.get(game_id)
    return None if cart is None else f"{cart.title} is installed with it"


def planned(root: Path, game: NewGame) -> dict[Path, str]:
    """Every file to write (under `root`) and its text."""
    out: dict[Path, str] = {}
    for source in sorted(TEMPLATE.rglob(f"*{SUFFIX}")):
        relative = source.relative_to(TEMPLATE).as_posix()[: -len(SUFFIX)]
        out[root / game.fill(relative)] = game.fill(source.read_text(encoding="utf-8"))
    return out


def new_game(root: Path, game_id: str, title: str = "", title_ja: str = "") -> list[Path]:
    """Write the new game into the checkout at `root`; returns the files written. Raises
    ValueError (one line, nothing written) for a bad id or title, a taken id, an existing
    file or a folder that is not a Twinfold checkout."""
    if not (root / "games" / "__init__.py").is_file() or not (root / "firmware").is_dir():
        raise ValueError(
            f"{root} is not a Twinfold checkout (no games/__init__.py): run this in the "
            "checkout or give it as --dir"
        )
    problem = id_problem(game_id)
    if problem is not None:
        raise ValueError(problem)
    owner = taken_by(root, game_id)
    if owner is not None:
        raise ValueError(f"the id {game_id!r} is taken ({owner}): nothing written")
    game = NewGame(game_id, title or game_id.capitalize(), title_ja or DEFAULT_TITLE_JA)
    problem = title_problem(game.title, game.title_ja)
    if problem is not None:
        raise ValueError(problem)
    files = planned(root, game)
    for path in files:
        if path.exists():
            where = path.relative_to(root).as_posix()
            raise ValueError(f"{where} is already there: nothing written")
    written: list[Path] = []
    try:
        for path, content in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
            written.append(path)
    except OSError:
        for path in written:  # all or nothing: a half-written game would fail every check
            path.unlink(missing_ok=True)
        raise
    return written


if __name__ == "__main__":  # `python tools/new_game.py ID`: `twinfold new-game` on this checkout
    CHECKOUT = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(CHECKOUT))
    from firmware.cli import main

    here = [] if "--dir" in sys.argv else ["--dir", str(CHECKOUT)]
    sys.exit(main(["new-game", *sys.argv[1:], *here]))
