"""`twinfold headless`: the firmware on the headless backend (P-BE-1, P-4)."""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from firmware.arguments import CommandError, writable_output, write_text_output
from firmware.boot import BootConfig, boot
from firmware.boot_arguments import apply_movie_args, movie_argument, start_versus_from_args
from firmware.machine import Machine
from firmware.match.profiles import PROFILES, DeviceProfile
from firmware.movie import Movie, MoviePlayer
from hal.backends.headless import headless_hal
from hal.interfaces import ByteLink

if TYPE_CHECKING:
    from hal.link.serial_link import SerialLink


OVER_LINGER = 120  # ticks a unit keeps its link up after the end (its last acks go out)


def match_over(machine: Machine) -> bool:
    """Every unit of the versus match agreed on its end (`--until-over`)."""
    service = machine.link
    session = service.session if service is not None else None
    return session is not None and session.agreed


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
    seed: int | None = 0,
    options: dict[str, str] | None = None,
    log: bool = False,
    profile: DeviceProfile | None = None,
    link: ByteLink | None = None,
    link_name: str = "",
    ask_language: bool = False,
    offer_resume: bool = False,
) -> Machine:
    """A headless machine, fed by `movie` (if any), booted through `firmware.boot`; `link`
    is its radio (`link_name` overrides the stored radio name); `ask_language` offers the
    first start's language choice as the handheld and the emulator's window do, and
    `offer_resume` a boot game's waiting saved game (Continue / New game) as they do.

    Raises BootError (a one-line CommandError) for a bad store, game or option.
    """
    player = MoviePlayer(movie) if movie is not None else None
    hal = headless_hal(data_dir, player.input_at if player is not None else None)
    if link is not None:
        hal.link = link
    config = BootConfig(
        store_path=store_path,
        log=log,
        game=game,
        options=options or {},
        seed=seed,
        profile=profile,
        ask_language=ask_language,
        offer_resume=offer_resume,
    )
    machine = boot(hal, config)
    machine.pacing.script = player  # late worker answers the movie recorded
    if link_name and machine.link is not None:
        machine.link.rename(link_name)
    return machine


def open_link(args: argparse.Namespace) -> SerialLink | None:
    """`--link URL` as the radio (None without one); a bad URL or port is one line."""
    if not getattr(args, "link", None):
        if getattr(args, "versus", None):
            raise CommandError("--versus needs --link and --game")
        return None
    if getattr(args, "versus", None) and not args.game:
        raise CommandError("--versus needs --link and --game")
    from hal.link.serial_link import LinkError, SerialLink

    try:
        return SerialLink.open(args.link)
    except LinkError as exc:
        raise CommandError(str(exc)) from None


def save_shots(machine: Machine, directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    pygame.image.save(machine.top, str(directory / "top.png"))
    pygame.image.save(machine.bottom, str(directory / "bottom.png"))


def check_shots_folder(path: str) -> None:
    """Refuse a --shots path that cannot become a folder, before running any frame."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise CommandError(f"cannot write screenshots into {path}: it is a file, not a folder")
    for parent in target.parents:
        if parent.exists():
            if not parent.is_dir():
                raise CommandError(f"cannot write screenshots into {path}: {parent} is a file")
            if not os.access(parent, os.W_OK):
                raise CommandError(f"cannot write screenshots into {path}: permission denied")
            break


def run_from_args(args: argparse.Namespace) -> int:
    movie = movie_argument(args.movie) if args.movie else None
    if movie is not None:
        apply_movie_args(args, movie, args.movie)
    if args.shots:
        check_shots_folder(args.shots)
    if args.dump:  # it may go into the --shots folder, made (before the dump) at the end
        writable_output(args.dump, "state dump", created=args.shots)
    frames = args.frames or (movie_length(movie) if movie is not None else 1)
    link = open_link(args)
    versus = getattr(args, "versus", None)
    with tempfile.TemporaryDirectory(prefix="twinfold-") as tmp:
        store_path = Path(args.store) if args.store else None
        machine = build_machine(
            Path(tmp),
            store_path=store_path,
            movie=movie,
            game=None if versus else args.game,
            seed=args.seed,
            options={} if versus else dict(args.option),
            log=True,
            profile=PROFILES[getattr(args, "profile", None) or "desktop"],
            link=link,
            link_name=getattr(args, "name", "") or "",
            ask_language=bool(getattr(args, "first_start", False)),
            offer_resume=bool(getattr(args, "first_start", False)),
        )
        try:
            if versus:
                start_versus_from_args(machine, args)
            start = time.monotonic()
            until_over = bool(getattr(args, "until_over", False))
            over_at: int | None = None
            for n in range(frames):
                if link is not None:  # with a link, the real 60 Hz pace (the partner's is)
                    delay = start + n / 60 - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)
                machine.step()
                machine.render()
                machine.present()
                if until_over and over_at is None and match_over(machine):
                    over_at = n
                if over_at is not None and n - over_at >= OVER_LINGER:
                    break
            try:
                if args.shots:
                    save_shots(machine, Path(args.shots))
            except (OSError, pygame.error) as exc:
                raise CommandError(f"cannot write screenshots into {args.shots}: {exc}") from None
            if args.dump:
                text = json.dumps(machine.dump(), indent=1) + "\n"
                write_text_output(args.dump, text, "state dump")
        finally:
            if machine.link is not None:
                machine.link.shutdown()
            machine.store.close()
            if link is not None:
                link.close()
    return 0
