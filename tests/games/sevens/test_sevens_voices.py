"""Voices: every personality has several lines per situation in both languages, drawn
reproducibly; human seats get plain announcements."""

from __future__ import annotations

import random
import re

import pytest

from games.sevens.ai.personalities import PERSONALITIES
from games.sevens.ai.voices import BIG_KILL, LINES, SITUATIONS, Narrator, pick_line
from games.sevens.simulator import play_game

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.mark.parametrize("key", PERSONALITIES)
def test_each_personality_has_several_lines_per_situation(key: str) -> None:
    assert set(LINES[key]) == set(SITUATIONS)
    for situation in SITUATIONS:
        lines = LINES[key][situation]
        assert len(lines) >= 3, (key, situation)
        assert len(set(lines)) == len(lines)
        for en, ja in lines:
            assert en.strip() and ja.strip()
            assert not JAPANESE.search(en)
            assert JAPANESE.search(ja)


def test_personalities_do_not_share_lines() -> None:
    seen: dict[str, str] = {}
    for key in PERSONALITIES:
        for lines in LINES[key].values():
            for en, _ in lines:
                assert seen.setdefault(en, key) == key, en


def test_coward_apologises_for_small_kills_and_turns_bold_after_big_ones() -> None:
    small = " ".join(en.lower() for en, _ in LINES["coward"]["small_kill"])
    assert "sorry" in small or "forgive" in small
    for en, ja in LINES["coward"]["big_kill"]:
        assert "!" in en and "！" in ja


def test_lines_are_drawn_reproducibly() -> None:
    a = [pick_line("hitman", "play", random.Random(4)) for _ in range(5)]
    b = [pick_line("hitman", "play", random.Random(4)) for _ in range(5)]
    assert a == b
    drawn = {pick_line("hitman", "play", random.Random(s)) for s in range(50)}
    assert len(drawn) == len(LINES["hitman"]["play"])


def _narrate(seats: list[str], seed: int):  # type: ignore[no-untyped-def]
    game = play_game(["cool", "hitman", "coward", "brute"], seed)
    narrator = Narrator(seats, random.Random(seed))
    return game, narrator.react(game.events)


def test_narration_follows_the_game() -> None:
    for seed in range(5):
        game, speech = _narrate(["cool", "hitman", "coward", "brute"], seed)
        said = [(s.seat, s.situation) for s in speech]
        assert said[:4] == [(s, "start") for s in range(4)]
        winner = game.ranking()[0]
        assert (winner, "win") in said
        assert all((s, "lose") in said for s in game.ranking()[1:])
        for s in range(4):
            if game.killed_count[s]:
                assert (s, "killed") in said
        for sp in speech:
            assert sp.en in {en for en, _ in LINES[sp.personality][sp.situation]}
            if sp.situation == "big_kill":
                assert sp.personality is not None
        # same seed, same words
        assert _narrate(["cool", "hitman", "coward", "brute"], seed)[1] == speech


def test_big_and_small_kills_are_told_apart() -> None:
    narrator = Narrator(["brute", "cool", "cool", "cool"], random.Random(0))
    small = narrator.react(
        [
            {"type": "play", "seat": 0, "card": "AH"},
            {"type": "kill", "killer": 0, "cards": ["AS"], "victims": [1]},
        ]
    )
    assert [(s.seat, s.situation) for s in small] == [(0, "small_kill"), (1, "killed")]
    cards = ["2S", "3S", "2H", "3H"][:BIG_KILL]
    big = narrator.react(
        [
            {"type": "play", "seat": 0, "card": "4H"},
            {"type": "kill", "killer": 0, "cards": cards, "victims": [2] * BIG_KILL},
        ]
    )
    assert [(s.seat, s.situation) for s in big] == [(0, "big_kill"), (2, "killed")]


def test_human_seats_get_plain_announcements() -> None:
    narrator = Narrator(["human", "cool", "cool", "cool"], random.Random(0))
    out = narrator.react(
        [
            {"type": "play", "seat": 0, "card": "AH"},
            {"type": "kill", "killer": 0, "cards": ["AS"], "victims": [0]},
            {"type": "pass", "seat": 0},
        ]
    )
    assert all(s.personality is None for s in out)
    assert out[0].en == "Player 1 lost A♠."
    assert out[0].ja == "プレイヤー1のスペードのAが殺されました。"
    assert out[1].en == "Player 1 passes."
    with pytest.raises(ValueError):
        Narrator(["robot", "cool", "cool", "cool"], random.Random(0))
