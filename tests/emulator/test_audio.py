"""The emulator's sound effects: synthesised correctly, played through the mixer, optional."""

import array
import itertools

import pygame

from emulator.audio import DEFAULT, EFFECTS, RATE, SynthAudio, make_audio, synthesise


def test_synthesised_note_has_the_right_length_pitch_and_decay():
    samples = synthesise(((441.0, 100),))
    assert len(samples) == RATE // 10
    # a square wave of 441 Hz changes sign 2 * 44.1 times in 100 ms
    flips = sum(1 for a, b in itertools.pairwise(samples) if (a > 0) != (b > 0))
    assert 86 <= flips <= 90
    assert abs(samples[0]) > abs(samples[-1])  # decays
    assert max(abs(s) for s in samples) < 32767 * 0.4  # never clips


def test_every_effect_is_made_and_unknown_names_use_the_default():
    pygame.mixer.quit()
    audio = make_audio()  # SDL_AUDIODRIVER=dummy in tests: a mixer without a device
    if audio is None:
        import pytest

        pytest.skip("no SDL audio driver at all on this machine")
    try:
        assert set(EFFECTS) <= set(audio._sounds)
        audio.play("pop", 0.5)
        audio.play("no-such-effect", 2.0)  # clamped volume, default blip
        assert audio._sounds["pop"].get_num_channels() == 1  # it is playing
        assert audio._sounds[""].get_num_channels() == 1
        assert audio._sounds["select"].get_num_channels() == 0
        assert abs(audio._sounds["pop"].get_volume() - 0.5) < 0.01
        assert audio._sounds[""].get_volume() == 1.0
        expected = len(synthesise(DEFAULT)) * 2  # 16-bit mono bytes
        assert audio._sounds[""].get_raw().__len__() == expected
    finally:
        pygame.mixer.quit()


def test_no_audio_device_means_silence(monkeypatch):
    def fail(*args, **kwargs):
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "init", fail)
    assert make_audio() is None


def test_synthaudio_is_the_hal_audio_interface():
    from hal.interfaces import Audio

    assert issubclass(SynthAudio, Audio)
    assert isinstance(synthesise(DEFAULT), array.array)
