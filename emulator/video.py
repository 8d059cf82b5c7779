"""MP4 clips with sound, through PyAV (FFmpeg's libraries in a wheel: the `video` extra).

Two encodings, both H.264 in MP4 with the sound as AAC (FFmpeg's own encoder, 22 050 Hz
mono, as the effects are synthesised):

- `exact` (default): libx264rgb at quantiser 0, lossless RGB (High 4:4:4 Predictive). Every
  decoded frame is the firmware's frame, pixel for pixel; pixel art stays crisp. Players
  that only know 4:2:0 H.264 (web browsers, QuickTime) do not play it.
- `compatible`: libx264 in yuv420p (constant quality 16), which every player plays; colour
  is stored at half resolution and lossy, so edges between coloured pixels soften. The
  frame is padded to even sides with the backdrop (4:2:0 needs them).

Every tick is one frame at 60 per second (an unchanged frame costs a few bytes in H.264).
PyAV is imported only when an MP4 is written: GIF and APNG clips do not need it.
"""

from __future__ import annotations

import array
import contextlib
import os
from pathlib import Path
from typing import Any

import pygame
from PIL import Image

from emulator.soundtrack import RATE, sample_at
from firmware.arguments import CommandError
from hal.interfaces import TICK_HZ

MP4_MODES = ("exact", "compatible")
BACKDROP = (54, 56, 66)  # the padding of a `compatible` frame with an odd side


def load_av() -> Any:
    """The PyAV module, or a one-line CommandError naming the extra to install."""
    try:
        import av
    except ImportError:
        raise CommandError(
            "MP4 clips need PyAV: pip install 'twinfold[video]' (GIF and APNG need nothing)"
        ) from None
    return av


class Mp4Writer:
    """Encodes composed frames (one per tick) as they come, then the sound, into an MP4."""

    carries_sound = True

    def __init__(
        self, path: Path, size: tuple[int, int], mode: str = "exact", sound: bool = True
    ) -> None:
        if mode not in MP4_MODES:
            raise ValueError(f"MP4 mode must be one of {', '.join(MP4_MODES)}")
        self._av = load_av()
        self.path = path
        self.mode = mode
        self.size = size
        self._tmp = path.with_name(path.name + ".tmp")
        self.frames = 0
        self._sound: array.array[int] | None = None
        self._out: Any = self._av.open(str(self._tmp), "w", format="mp4")
        if mode == "exact":
            self._video = self._out.add_stream(
                "libx264rgb", rate=TICK_HZ, options={"qp": "0", "preset": "veryfast"}
            )
            self._video.pix_fmt = "rgb24"
            self._padded = size
        else:
            self._video = self._out.add_stream(
                "libx264", rate=TICK_HZ, options={"crf": "16", "preset": "veryfast"}
            )
            self._video.pix_fmt = "yuv420p"
            self._padded = (size[0] + size[0] % 2, size[1] + size[1] % 2)
        self._video.width, self._video.height = self._padded
        # every stream is added before the first packet is written (the MP4 header)
        self._audio: Any = self._out.add_stream("aac", rate=RATE, layout="mono") if sound else None

    def add(self, surface: pygame.Surface) -> None:
        """The frame for the next tick."""
        if self._padded != surface.get_size():
            padded = pygame.Surface(self._padded)
            padded.fill(BACKDROP)
            padded.blit(surface, (0, 0))
            surface = padded
        image = Image.frombytes("RGB", self._padded, pygame.image.tobytes(surface, "RGB"))
        frame = self._av.VideoFrame.from_image(image)
        frame.pts = self.frames
        self._out.mux(self._video.encode(frame))
        self.frames += 1

    def add_sound(self, samples: array.array[int]) -> None:
        """The clip's sound: signed 16-bit mono at `RATE`, from its first frame on."""
        self._sound = samples

    def _encode_sound(self) -> None:
        """The sound track, as long as the frames (silence where no sound was given)."""
        length = sample_at(self.frames)
        samples = array.array("h", (self._sound or array.array("h"))[:length])
        samples.extend([0] * (length - len(samples)))
        frame = self._av.AudioFrame(format="s16", layout="mono", samples=length)
        frame.planes[0].update(samples.tobytes())
        frame.sample_rate = RATE
        frame.pts = 0
        self._out.mux(self._audio.encode(frame))
        self._out.mux(self._audio.encode(None))

    def write(self) -> Path:
        """Finish the file (a failure leaves no half clip)."""
        try:
            if not self.frames:
                raise ValueError("a clip needs at least one frame")
            self._out.mux(self._video.encode(None))
            if self._audio is not None:
                self._encode_sound()
            self._out.close()
            self._out = None
            os.replace(self._tmp, self.path)
        finally:
            self.discard()
        return self.path

    def discard(self) -> None:
        """Drop the unfinished file (an error while rendering)."""
        if self._out is not None:
            with contextlib.suppress(Exception):  # a broken container: nothing to keep
                self._out.close()
            self._out = None
        if self._tmp.exists():
            self._tmp.unlink()
