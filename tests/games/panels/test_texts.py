"""Panel Link's result sentence reads right for the person and for anyone else."""

from games.panels.scene import texts as tx


def english(en: str, ja: str) -> str:
    return en


def japanese(en: str, ja: str) -> str:
    return ja


def test_the_person_wins_in_the_second_person():
    assert tx.win_line(english, "You") == "You win!"
    assert tx.win_line(japanese, "あなた") == "あなた の かち!"


def test_anyone_else_wins_in_the_third_person():
    assert tx.win_line(english, "CPU 3") == "CPU 3 wins!"
    assert tx.win_line(english, "Player 2") == "Player 2 wins!"
    assert tx.win_line(japanese, "プレイヤー2") == "プレイヤー2 の かち!"
