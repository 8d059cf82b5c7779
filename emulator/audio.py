"""The emulator's sound: the synthesised effects live in `hal.sdl_audio` (shared with the
device backend); this module keeps the emulator's import path."""

from hal.sdl_audio import DEFAULT, EFFECTS, RATE, SynthAudio, make_audio, synthesise

__all__ = ["DEFAULT", "EFFECTS", "RATE", "SynthAudio", "make_audio", "synthesise"]
