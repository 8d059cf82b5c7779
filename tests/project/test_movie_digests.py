"""Every screenshot movie (docs/movies/*.txt) replays to the same frames, the same final dump
and the same saved game as when its digest was recorded: a refactoring that should change no
behaviour (issue 37's turn-game base, a faster draw) proves it here, frame by frame.

The digests in movie_digests.json were written by the code BEFORE such a change (the turn-game
base's were recorded on main at 1745203, before any game moved onto it), never by the code
under test. A change meant to alter what a movie shows (a new look, a new rule) records them
again, deliberately, in its own commit:

    .venv/bin/python tests/project/test_movie_digests.py --write [MOVIE ...]
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIGESTS = Path(__file__).with_name("movie_digests.json")
MOVIES = sorted((ROOT / "docs" / "movies").glob("*.txt"))


def _canon(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def movie_digest(path: Path) -> dict[str, object]:
    """Plays `path` headless as `twinfold headless --movie` does: a digest of both screens on
    every frame, of the final dump and of the game's saved state (if a game is running)."""
    import pygame

    from firmware.boot_arguments import apply_movie_args, movie_argument
    from firmware.cli import build_parser
    from firmware.headless import build_machine, movie_length
    from firmware.match.profiles import PROFILES

    args = build_parser().parse_args(["headless", "--movie", str(path)])
    movie = movie_argument(str(path))
    apply_movie_args(args, movie, str(path))
    frames = args.frames or movie_length(movie)
    screens = hashlib.sha256()
    with tempfile.TemporaryDirectory(prefix="twinfold-digest-") as tmp:
        m = build_machine(
            Path(tmp),
            movie=movie,
            game=args.game,
            seed=args.seed,
            options=dict(args.option),
            profile=PROFILES[args.profile or "desktop"],
        )
        try:
            for _ in range(frames):
                m.step()
                m.render()
                m.present()
                screens.update(pygame.image.tobytes(m.top, "RGB"))
                screens.update(pygame.image.tobytes(m.bottom, "RGB"))
            scene = m.game_scene()
            saved = scene.game.save_state() if scene is not None else None
            return {
                "frames": frames,
                "screens": screens.hexdigest(),
                "dump": _canon(m.dump()),
                "saved": None if saved is None else _canon(saved),
            }
        finally:
            m.store.close()


@pytest.mark.slow
@pytest.mark.parametrize("movie", MOVIES, ids=[p.stem for p in MOVIES])
def test_movie_replays_to_its_recorded_digest(movie: Path) -> None:
    recorded = json.loads(DIGESTS.read_text(encoding="utf-8"))
    assert movie.name in recorded, (
        f"{movie.name} has no recorded digest: record it with "
        "`.venv/bin/python tests/project/test_movie_digests.py --write "
        f"{movie.name}` (see this file's docstring)"
    )
    assert movie_digest(movie) == recorded[movie.name], (
        f"{movie.name} no longer replays to the frames, dump or saved game recorded for it; "
        "if the change is meant to alter them, record them again (this file's docstring)"
    )


def main(argv: list[str]) -> int:
    if not argv or argv[0] != "--write":
        print(__doc__)
        return 2
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    sys.path.insert(0, str(ROOT))
    chosen = [m for m in MOVIES if not argv[1:] or m.name in argv[1:]]
    recorded = json.loads(DIGESTS.read_text(encoding="utf-8")) if DIGESTS.exists() else {}
    for movie in chosen:
        recorded[movie.name] = movie_digest(movie)
        print(movie.name, recorded[movie.name]["screens"], flush=True)
    DIGESTS.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
