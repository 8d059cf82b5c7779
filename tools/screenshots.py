"""Render the README's screenshots headless from the input movies in docs/movies/.

    .venv/bin/python tools/screenshots.py            # all of them
    .venv/bin/python tools/screenshots.py launcher   # just one
    .venv/bin/python tools/screenshots.py --japanese [NAME ...]   # in Japanese, docs/img/ja/

Each movie `docs/movies/NAME.txt` may carry a line `# args: --game reversi --seed 3`: the
movie format's own arguments, which `twinfold headless --movie` applies (so each picture is
also `twinfold headless --movie docs/movies/NAME.txt --shots DIR`). The picture shows both
screens as on the handheld, at 2x. The Versus pictures need two units on one radio medium:
`tools/versus_screenshots.py` draws them (all of them, or by name: `versus-pairing`), from
the two movies in docs/movies/versus/.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

ROOT = Path(__file__).resolve().parent.parent
MOVIES = ROOT / "docs" / "movies"
OUT = ROOT / "docs" / "img"


def compose(top: pygame.Surface, bottom: pygame.Surface, scale: int = 2) -> pygame.Surface:
    """Both screens in a handheld-like shell: top panel, hinge, bottom panel."""
    pad, hinge = 10, 14
    w = 256 + 2 * pad
    h = 192 * 2 + 2 * pad * 2 + hinge
    shell = pygame.Surface((w, h))
    shell.fill((40, 44, 56))
    pygame.draw.rect(shell, (58, 64, 80), (0, 0, w, 192 + 2 * pad), border_radius=8)
    pygame.draw.rect(
        shell, (58, 64, 80), (0, 192 + 2 * pad + hinge, w, 192 + 2 * pad), border_radius=8
    )
    shell.blit(top, (pad, pad))
    shell.blit(bottom, (pad, 192 + 3 * pad + hinge))
    return pygame.transform.scale(shell, (w * scale, h * scale))


def _store_in(language: str, tmp: str) -> str:
    """A store whose settings say `language` (what the first start's choice leaves)."""
    from firmware.headless import build_machine

    store = Path(tmp) / "store.db"
    machine = build_machine(Path(tmp) / "setup", store_path=store)
    machine.settings.language = language
    machine.save_settings()
    machine.store.close()
    return str(store)


def render(name: str, language: str = "en") -> Path:
    from firmware.cli import main

    movie = MOVIES / f"{name}.txt"
    with tempfile.TemporaryDirectory() as tmp:
        store = ["--store", _store_in(language, tmp)] if language != "en" else []
        rc = main(["headless", "--movie", str(movie), "--shots", tmp, *store])
        if rc != 0:
            raise SystemExit(f"{name}: headless run failed ({rc})")
        top = pygame.image.load(f"{tmp}/top.png")
        bottom = pygame.image.load(f"{tmp}/bottom.png")
    folder = OUT if language == "en" else OUT / language
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"{name}.png"
    pygame.image.save(compose(top, bottom), str(out))
    return out


# The README's Japanese pictures: the launcher and one screen of each game (docs/img/ja/).
JAPANESE = (
    "launcher",
    "settings",
    "reversi-over",
    "arimaa-cpu",
    "panels-play",
    "regions-play",
    "sevens-play",
)


def main(names: list[str]) -> int:
    from tools import versus_screenshots

    if names[:1] == ["--japanese"]:
        for name in names[1:] or JAPANESE:
            print(render(name, "ja").relative_to(ROOT))
        return 0

    versus = [n for n in names if n in versus_screenshots.SHOTS]
    single = [n for n in names if n not in versus]
    if not names:
        single = sorted(p.stem for p in MOVIES.glob("*.txt"))
    for name in single:
        print(render(name).relative_to(ROOT))
    if versus or not names:
        for out in versus_screenshots.render(versus):
            print(out.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main(sys.argv[1:]))
