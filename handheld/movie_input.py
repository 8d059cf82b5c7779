"""`twinfold device --movie F`: the handheld's input taken from an input movie (P-MOV), the
format `headless` and `emu` play, so a unit (or an emulated one in QEMU) can be driven
exactly and its panels compared with `twinfold headless` playing the same movie.

The live devices keep being read while the movie plays, so they stay open and drained and
a long POWER press still shuts the unit down; what they report reaches the firmware only
after the movie's last event, as in the emulator.
"""

from __future__ import annotations

from dataclasses import replace

from firmware.movie import Movie, MoviePlayer
from hal.interfaces import InputSource, RawInput


class MovieInput(InputSource):
    """The movie's input up to its last event, then the live devices'."""

    def __init__(self, live: InputSource, movie: Movie) -> None:
        self.live = live
        self.player = MoviePlayer(movie)
        self.end = movie.last_frame

    def playing(self, tick: int) -> bool:
        return tick <= self.end

    def poll(self, tick: int) -> RawInput:
        raw = self.live.poll(tick)
        if not self.playing(tick):
            return raw
        return replace(self.player.input_at(tick), quit_requested=raw.quit_requested)

    def close(self) -> None:
        close = getattr(self.live, "close", None)
        if close is not None:
            close()
