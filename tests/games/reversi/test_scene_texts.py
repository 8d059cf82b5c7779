"""The Japanese texts are the seed's wording (004_d1e342fe7b68d326), shown when the language
is Japanese (the firmware ships its own Japanese font)."""

from __future__ import annotations

from reversi_driver import Driver, position_before_pass

from games.reversi.rules import Game, Position
from games.reversi.scene import texts as tx


def japanese(d: Driver) -> Driver:
    d.m.settings.language = "ja"
    d.frames(1)
    return d


def test_seed_wording_of_buttons_and_levels():
    def ja(en: str, ja_text: str) -> str:
        return ja_text

    assert tx.restart_label(ja) == ["はじめから", "やりなおす"]
    assert "".join(tx.restart_label(ja)) == "はじめからやりなおす"
    assert [tx.hint_label(ja, lv) for lv in tx.HINT_LEVELS] == [
        ["おしえて!", "ヒントなし"],
        ["おしえて!", "おけるばしょ"],
        ["おしえて!", "ぜんぶヒント"],
    ]
    assert ja(*tx.TO_MOVE) == "のばん" and ja(*tx.PASSED) == "はパスしました"
    assert ja(*tx.WINS) == "の勝ち!" and ja(*tx.DRAW) == "引き分け"
    assert ja(*tx.PLAY_AGAIN) == "もう一度プレイ"


def test_japanese_pass_and_result_messages(tmp_path):
    game, square, passer = position_before_pass(seed=3)
    d = japanese(Driver(tmp_path / "a"))
    d.restore(game)
    d.play(square)
    assert d.game["message"] == {"black": "黒", "white": "白"}[passer] + "はパスしました"
    rows = ["BW......"] + ["........"] * 7
    d.restore(Game(Position.from_rows(rows, "black")))
    d.play("c1")
    assert d.game["message"] == "黒の勝ち!"
    d.frames(2)  # the overlay draws in Japanese without trouble
