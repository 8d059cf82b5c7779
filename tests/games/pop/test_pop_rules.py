from hypothesis import given, settings
from hypothesis import strategies as st

from games.pop.rules import LIVES, PopGame


def test_bubbles_escape_and_cost_lives_until_game_over():
    game = PopGame(7)
    for _ in range(20000):
        game.step()
        if game.s.over:
            break
    assert game.s.over and game.s.lives == 0 and game.s.escaped >= LIVES


def test_tap_on_bubble_pops_and_scores_miss_resets_combo():
    game = PopGame(3)
    while not game.s.bubbles:
        game.step()
    for _ in range(30):
        game.step()
    b = game.s.bubbles[0]
    x, y = game.position(b)
    assert game.tap(x, y) > 0
    assert game.s.popped == 1 and game.s.combo == 1 and b not in game.s.bubbles
    assert game.tap(0, 0) == 0 and game.s.combo == 0


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.tuples(st.integers(0, 255), st.integers(0, 191)),
                                       max_size=30), st.integers(1, 600))
def test_save_restore_continues_identically(seed, taps, split):
    a = PopGame(seed)
    for i in range(split):
        a.step()
        if i < len(taps):
            a.tap(*taps[i])
    b = PopGame.from_json(a.to_json())
    for _ in range(300):
        a.step()
        b.step()
    assert a.to_json() == b.to_json()
