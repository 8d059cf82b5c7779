"""`twinfold headless`: the firmware on the headless backend (P-BE-1, P-4)."""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from firmware.cli import CommandError, movie_argument
from firmware.logs import setup_logging
from firmware.machine import Machine
from firmware.movie import Movie, MoviePlayer
from firmware.storage import Store
from hal.backends.headless import headless_hal
from hal.interfaces import ByteLink


def movie_length(movie: Movie) -> int:
    """Frames a movie spans: through its last event and any tap's release."""
    last_event = max((ev.frame for ev in movie.events), default=0)
    return max(last_event, movie.last_frame) + 1


def build_machine(
    data_dir: Path,
    *,
    store_path: Path | None = None,
    movie: Movie | None = None,
    game: str | None = None,
    seed: int = 0,
    options: dict[str, str] | None = None,
    link: ByteLink | None = None,
    link_name: str = "",
) -> Machine:
    """A headless machine, fed by `movie` (if any). Raises ValueError for a bad game/option."""
    store = Store.open(store_path or data_dir / "store.db")
    player = MoviePlayer(movie) if movie is not None else None
    hal = headless_hal(data_dir, player.input_at if player is not None else None)
    if link is not None:
        hal.link = link
    return Machine(
        hal, store, seed=seed, boot_game=game, boot_options=options or {}, link_name=link_name
    )


def save_shots(machine: Machine, directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    pygame.image.save(machine.top, str(directory / "top.png"))
    pygame.image.save(machine.bottom, str(directory / "bottom.png"))


def run_from_args(args: argparse.Namespace) -> int:
    movie = movie_argument(args.movie) if args.movie else None
    frames = args.frames or (movie_length(movie) if movie is not None else 1)
    with tempfile.TemporaryDirectory(prefix="twinfold-") as tmp:
        setup_logging(Path(args.store).parent if args.store else Path(tmp))
        link = None
        if getattr(args, "link", None):
            from hal.link.serial_link import LinkError, SerialLink

            try:
                link = SerialLink.open(args.link)
            except LinkError as exc:
                raise CommandError(str(exc)) from None
        versus = getattr(args, "versus", None)
        if versus and (link is None or not args.game):
            raise CommandError("--versus needs --link and --game")
        try:
            machine = build_machine(
                Path(tmp),
                store_path=Path(args.store) if args.store else None,
                movie=movie,
                game=None if versus else args.game,
                seed=args.seed,
                options={} if versus else dict(args.option),
                link=link,
                link_name=getattr(args, "name", "") or "",
            )
            if versus and machine.link is not None:
                from firmware.scenes.versus import LobbyScene, start_versus

                machine.link.auto_accept = bool(args.accept_pairing)
                start_versus(machine, versus, args.game, dict(args.option))
                if isinstance(machine.scene, LobbyScene):
                    machine.scene.auto_join = versus == "join"
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        import time

        start = time.monotonic()
        for n in range(frames):
            if link is not None:  # with a link, the real 60 Hz pace (the partner's is real)
                delay = start + n / 60 - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
            machine.step()
            machine.render()
            machine.present()
        try:
            if args.shots:
                save_shots(machine, Path(args.shots))
            if args.dump:
                Path(args.dump).write_text(json.dumps(machine.dump(), indent=1) + "\n")
        except OSError as exc:
            raise CommandError(f"cannot write output: {exc}") from None
        machine.store.close()
    return 0
