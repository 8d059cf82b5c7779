"""Sound effects through SDL (P-HW-6): short chiptune blips synthesised at start-up.

Shared by the emulator and the device backend (`emulator.audio` re-exports it).

Games name an effect (`ctx.play("pop")`); each name maps to a few square-wave notes with a
fast decay, rendered once into a pygame `Sound`. Unknown names get a soft default blip. If
the host has no audio device, the unit stays silent (`make_audio` returns None and the
HAL keeps its silent default).
"""

from __future__ import annotations

import array
import logging

import pygame

from hal.interfaces import Audio

log = logging.getLogger("twinfold")

RATE = 22050
# effect -> notes as (frequency Hz, milliseconds)
EFFECTS: dict[str, tuple[tuple[float, int], ...]] = {
    "select": ((880.0, 30),),
    "place": ((523.3, 40), (784.0, 50)),
    "pop": ((1046.5, 25), (1568.0, 35)),
    "miss": ((330.0, 60), (220.0, 90)),
    "pass": ((440.0, 60), (440.0, 60)),
    "win": ((523.3, 70), (659.3, 70), (784.0, 70), (1046.5, 140)),
    "lose": ((392.0, 90), (329.6, 90), (261.6, 180)),
    "error": ((196.0, 160),),
    "kill": ((1318.5, 30), (220.0, 50), (146.8, 70), (98.0, 140)),
}
DEFAULT = ((660.0, 25),)


def synthesise(notes: tuple[tuple[float, int], ...], rate: int = RATE) -> array.array[int]:
    """Signed 16-bit mono samples: square waves with a linear decay per note."""
    samples = array.array("h")
    for freq, ms in notes:
        count = rate * ms // 1000
        period = rate / freq
        for i in range(count):
            level = 0.35 * (1.0 - i / count)
            high = (i % period) < period / 2
            samples.append(int((level if high else -level) * 32767))
    return samples


class SynthAudio(Audio):
    """Plays the synthesised effects through pygame's mixer."""

    def __init__(self) -> None:
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        opened = pygame.mixer.get_init()
        if opened is None:
            raise pygame.error("SynthAudio needs an open mixer (make_audio opens it)")
        _, _, channels = opened
        for name, notes in {**EFFECTS, "": DEFAULT}.items():
            mono = synthesise(notes)
            if channels == 1:
                data = mono
            else:  # the mixer wants interleaved channels
                data = array.array("h", (s for s in mono for _ in range(channels)))
            self._sounds[name] = pygame.mixer.Sound(buffer=data.tobytes())

    def play(self, effect: str, volume: float) -> None:
        sound = self._sounds.get(effect) or self._sounds[""]
        sound.set_volume(max(0.0, min(1.0, volume)))
        sound.play()


def make_audio() -> SynthAudio | None:
    """Open the mixer (16-bit mono at 22 kHz where allowed); None when there is no audio."""
    try:
        pygame.mixer.init(frequency=RATE, size=-16, channels=1, buffer=512)
        opened = pygame.mixer.get_init()
        if opened is None:
            raise pygame.error("the mixer did not open")
        frequency, size, _ = opened
        if frequency != RATE or size != -16:
            pygame.mixer.quit()
            log.info("audio: the mixer offers %s Hz / %s bits; staying silent", frequency, size)
            return None
        return SynthAudio()
    except (pygame.error, TypeError, ValueError) as exc:
        log.info("audio: no sound device (%s); staying silent", exc)
        return None
