"""The seed's worked example (FIG. 2, 4, 5): selecting X4 then X3 clears the pattern."""

from games.regions.rules.catalogue import entry
from games.regions.rules.puzzle import Board, Game
from games.regions.rules.surface import Surface


def test_trefoil_has_the_seeds_incidence_and_x4_then_x3_clears_fig2():
    surface = Surface(entry("3_1").shadow)
    assert surface.point_count == 5 and len(surface.lines) == 6 and surface.region_count == 3
    # Seed: X4 touches Z1, Z2, Z3; X3 touches Z1, Z2 but not Z3; a line B3 joins X3 and X4.
    x4 = next(p for p in range(5) if len(surface.touches[p]) == 3)
    x3 = next(
        p
        for p in range(5)
        if len(surface.touches[p]) == 2 and any({ln.a, ln.b} == {p, x4} for ln in surface.lines)
    )
    z1, z2 = sorted(surface.touches[x3])
    (z3,) = set(range(3)) - {z1, z2}
    assert surface.touches[x4] == {z1, z2, z3}
    assert z3 not in surface.touches[x3]
    # FIG. 2: Z1 and Z2 grey (0), Z3 white (1).
    board = Board(surface)
    cells = [0, 0, 0]
    cells[z3] = 1
    number = board.pattern_number(tuple(cells))
    game = Game(board, number)
    game.select(x4)  # FIG. 4: Z1, Z2 white, Z3 grey
    after = list(game.cells)
    assert after[z1] == 1 and after[z2] == 1 and after[z3] == 0
    assert not game.clear
    game.select(x3)  # FIG. 5: all grey
    assert game.clear
    assert board.shortest_solution(tuple(cells)) and len(board.shortest_solution(tuple(cells))) <= 2
