"""Instant-replay clips: frames rendered after the fact, written as an animated image or MP4.

A clip is never captured from the window while playing: the firmware is deterministic, so
the frames are rebuilt from a starting state and the input that followed (the rewind
history for the emulator's clip hotkey, a movie for `twinfold clip`), composed at a layout
and scale like the window (nearest neighbour), and written as animated GIF or PNG (APNG)
by Pillow, or as MP4 by PyAV (emulator.video) with the sound: the effects the firmware
played during those ticks, rendered after the fact too (emulator.soundtrack). GIF and APNG
carry no sound, so those clips are silent.

In GIF and APNG, frames that repeat the previous one are merged into a longer frame
(pixel-art games hold still most of the time), which keeps both the memory while rendering
and the file small. GIF stores delays in hundredths of a second, so a GIF clip keeps every
third tick (20 frames per second, exactly 50 ms each); APNG and MP4 keep every tick.
"""

from __future__ import annotations

import argparse
import array
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pygame
from PIL import Image

from emulator.layout import DEFAULT_GAP, Geometry, Layout, LayoutError
from emulator.soundtrack import SoundLog, mix
from firmware.arguments import CommandError
from firmware.boot_arguments import apply_movie_args, movie_argument
from firmware.machine import Machine
from firmware.match.profiles import PROFILES
from hal.interfaces import TICK_HZ

if TYPE_CHECKING:
    from emulator.rewind import Frame
    from emulator.video import Mp4Writer

BACKDROP = (54, 56, 66)  # the window's bezel colour (emulator.display)
CLIP_SECONDS = 30
FORMATS = {".gif": "GIF", ".png": "PNG", ".apng": "PNG", ".mp4": "MP4"}
# The emulator's clip hotkey (`--clip-format`): name -> (extension, MP4 encoding).
CLIP_FORMATS = {
    "gif": (".gif", "exact"),
    "apng": (".png", "exact"),
    "mp4": (".mp4", "exact"),
    "mp4-compatible": (".mp4", "compatible"),
}
GIF_EVERY = 3  # ticks per GIF frame: 50 ms, a whole number of GIF's 10 ms units


def clip_format(path: Path) -> str:
    """Pillow's format name for an output file, from its extension (CommandError if none)."""
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        known = ", ".join(FORMATS)
        raise CommandError(f"cannot write a clip as {path.name!r}: the name must end in {known}")
    return fmt


def compose(upper: pygame.Surface, lower: pygame.Surface, geometry: Geometry) -> pygame.Surface:
    """Both panels placed and scaled (nearest neighbour) as the window shows them."""
    out = pygame.Surface(geometry.size)
    out.fill(BACKDROP)
    for name, rect in geometry.panels():
        source = upper if name == "upper" else lower
        out.blit(pygame.transform.scale(source, (rect.w, rect.h)), (rect.x, rect.y))
    return out


def compose_frame(frame: Frame, geometry: Geometry) -> pygame.Surface:
    if frame.blank:
        black = pygame.Surface(frame.top.get_size())
        return compose(black, black, geometry)
    upper, lower = (frame.bottom, frame.top) if frame.swap else (frame.top, frame.bottom)
    return compose(upper, lower, geometry)


@dataclass
class ClipWriter:
    """Collects composed frames (one per tick) and writes them as one animated image."""

    path: Path
    fmt: str
    every: int = 1
    _images: list[Image.Image] = field(default_factory=list)
    _ticks: list[int] = field(default_factory=list)  # ticks each kept image lasts
    _last: bytes = b""
    _seen: int = 0

    @classmethod
    def for_path(cls, path: Path) -> ClipWriter:
        fmt = clip_format(path)
        return cls(path, fmt, GIF_EVERY if fmt == "GIF" else 1)

    def add(self, surface: pygame.Surface) -> None:
        """The frame for the next tick (a GIF keeps every third)."""
        self._seen += 1
        if (self._seen - 1) % self.every:
            self._ticks[-1] += 1
            return
        data = pygame.image.tobytes(surface, "RGB")
        if self._images and data == self._last:
            self._ticks[-1] += 1
            return
        self._last = data
        image = Image.frombytes("RGB", surface.get_size(), data)
        if self.fmt == "GIF":
            image = image.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        self._images.append(image)
        self._ticks.append(1)

    carries_sound = False

    @property
    def frames(self) -> int:
        return self._seen

    def add_sound(self, samples: array.array[int]) -> None:
        """An animated image has no sound track: clips in it are silent."""

    def discard(self) -> None:
        """Nothing is written before `write`."""

    def durations(self) -> list[int]:
        """Milliseconds per kept image, rounded so the running total stays exact."""
        out, start = [], 0
        for ticks in self._ticks:
            end = start + ticks
            out.append(round(end * 1000 / TICK_HZ) - round(start * 1000 / TICK_HZ))
            start = end
        return out

    def write(self) -> Path:
        """Write the clip (through a temporary file, so a failure leaves no half clip)."""
        if not self._images:
            raise ValueError("a clip needs at least one frame")
        tmp = self.path.with_name(self.path.name + ".tmp")
        first, *rest = self._images
        durations = self.durations()
        try:
            first.save(
                tmp,
                format=self.fmt,
                save_all=True,
                append_images=rest,
                duration=durations if len(durations) > 1 else durations[0],
                loop=0,
                optimize=False,
                **({"disposal": 1} if self.fmt == "GIF" else {}),
            )
            os.replace(tmp, self.path)
        finally:
            if tmp.exists():
                tmp.unlink()
        return self.path


# ------------------------------------------------------------------ `twinfold clip`
def movie_machine(path: Path, data_dir: Path, profile: str | None = None) -> Machine:
    """A headless machine playing the movie at `path` with its `# args:` (one-line
    CommandError for a bad movie, game or option)."""
    from firmware.headless import build_machine  # sets SDL's dummy drivers: headless only

    movie = movie_argument(str(path))
    args = argparse.Namespace(game=None, seed=None, option=[], profile=profile)
    apply_movie_args(args, movie, str(path))
    return build_machine(
        data_dir,
        movie=movie,
        game=args.game,
        seed=args.seed if args.seed is not None else 0,
        options=dict(args.option),
        profile=PROFILES[args.profile or "desktop"],
    )


def movie_frames(machine: Machine, first: int, last: int) -> Iterator[tuple[int, Frame]]:
    """The frame shown after each of `first`..`last` ticks of the machine's movie."""
    from emulator.rewind import frame_of

    while machine.tick < first:
        machine.step()
    machine.render()
    yield machine.tick, frame_of(machine)
    while machine.tick < last:
        machine.step()
        machine.render()
        yield machine.tick, frame_of(machine)


def open_writer(
    path: Path, size: tuple[int, int], mp4: str = "exact", sound: bool = True
) -> ClipWriter | Mp4Writer:
    """The writer for `path`'s format (CommandError for an unknown extension, or an MP4
    without PyAV)."""
    if clip_format(path) == "MP4":
        from emulator.video import Mp4Writer

        return Mp4Writer(path, size, mp4, sound)
    return ClipWriter.for_path(path)


def write_clip(
    frames: Iterable[tuple[int, Frame]],
    out: Path,
    geometry: Geometry,
    on_frame: Callable[[int], None] = lambda done: None,
    *,
    sound: SoundLog | None = None,
    mp4: str = "exact",
) -> Path:
    """Compose and write `frames` to `out` (its extension picks the format). `sound`: the
    log the machine played into while `frames` ran; a format with sound carries its mix."""
    writer = open_writer(out, geometry.size, mp4, sound is not None)
    first: int | None = None
    try:
        for tick, frame in frames:
            first = tick if first is None else first
            writer.add(compose_frame(frame, geometry))
            on_frame(writer.frames)
        if sound is not None and writer.carries_sound and first is not None:
            writer.add_sound(mix(sound.cues, first, writer.frames))
        return writer.write()
    except BaseException:
        writer.discard()
        raise


def check_output(path: Path) -> None:
    """Refuse, before rendering, an output that cannot be written."""
    from firmware.arguments import writable_output

    if clip_format(path) == "MP4":
        from emulator.video import load_av

        load_av()
    writable_output(str(path), "clip")


def clip_from_args(args: argparse.Namespace) -> int:
    """`twinfold clip MOVIE --out FILE [--from F] [--to F] [--layout L] [--scale N]`."""
    import tempfile

    from firmware.headless import movie_length
    from firmware.progress import progress, wanted

    out = Path(args.out)
    check_output(out)
    movie = movie_argument(args.movie)
    last = args.to if args.to is not None else movie_length(movie)
    if args.start > last:
        raise CommandError(f"--from {args.start} is after --to {last}")
    try:
        layout = Layout(args.layout, args.scale, DEFAULT_GAP)
    except LayoutError as exc:
        raise CommandError(str(exc)) from None
    with tempfile.TemporaryDirectory(prefix="twinfold-clip-") as tmp:
        machine = movie_machine(Path(args.movie), Path(tmp), args.profile)
        sound = SoundLog(lambda: machine.tick)  # the effects the movie's ticks play
        machine.hal.audio = sound
        try:
            total = last - args.start + 1
            with progress(total, "frames", show=wanted(args.progress)) as update:
                write_clip(
                    movie_frames(machine, args.start, last),
                    out,
                    layout.geometry(),
                    update,
                    sound=sound,
                    mp4=args.mp4,
                )
        except OSError as exc:
            raise CommandError(f"cannot write the clip to {out}: {exc}") from None
        finally:
            machine.store.close()
    return 0
