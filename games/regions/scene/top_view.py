"""Region Select's upper screen for every phase: what to do, the chosen surface and start
pattern, time, selections, bests, hints and the race partner's progress. Drawn from a
`TopView` the scene builds each frame (the drawing reads nothing else, changes nothing)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from games.regions.records import Best
from games.regions.rules.play import Puzzle
from games.regions.scene import surfaces as srf
from games.regions.scene.surface_view import colour

CLEAR_BG = (30, 96, 84)
CLEAR_STRIPE = (36, 110, 96)
VARIANT_NAMES = {
    "classic": ("White / grey", "しろ / はいいろ"),
    "three": ("Three states, alternating", "3しょく(こうご)"),
    "three-random": ("Three states, random", "3しょく(ランダム)"),
    "cyclic3": ("Cycle of 3 (Z/3)", "3しょく じゅんかん"),
    "cyclic4": ("Cycle of 4 (Z/4)", "4しょく じゅんかん"),
}


@dataclass(frozen=True)
class TopView:
    """What the upper screen shows this frame. Fields a phase does not show keep their
    defaults (the scene computes only what is drawn: records and solutions cost)."""

    tr: Callable[[str, str], str]
    phase: str  # "choose", "draw", "play", "clear" or "replay"
    step: str  # choose: "surface" list or "pattern"
    variant: str
    goal: int
    age: int  # ticks since the game began (animations)
    busy: bool  # a surface is being made or a pattern searched ("working")
    searching: bool
    message: str
    chosen: srf.Chosen | None
    pattern: int
    blocked: int | None
    pattern_count: int = 0  # choosing a pattern
    pattern_best: Best | None = None
    puzzle: Puzzle | None = None  # playing, clear and replay
    partner: Puzzle | None = None  # the partner's copy in a race
    partner_name: str = ""
    race_won: bool = False
    ticks: int = 0
    is_best: bool = False
    best_before: Best | None = None
    hints: int = 0
    solution_shown: bool = False
    solution_left: int = 0  # selections the shown solution still needs
    hint_point: int | None = None
    replay_at: tuple[int, int] | None = None  # (index, total) of a replay


def clock(ticks: int) -> str:
    """m:ss.t from ticks at 60 Hz."""
    tenths = ticks // 6
    return f"{tenths // 600}:{tenths // 10 % 60:02d}.{tenths % 10}"


def _wrap_lines(
    surf: pygame.Surface, msg: str, x: int, y: int, w: int, color: tuple[int, int, int]
) -> int:
    """Up to four lines from `y` (their top: Japanese lines, 12 rows, 14 apart)."""
    lines = text.wrap(msg, w)[:4]
    pitch = text.line_pitch(lines, minimum=text.LINE_H + 1)
    for line in lines:
        text.draw(surf, line, (x, y), color, valign="top")
        y += pitch
    return y


def draw_top(top: pygame.Surface, view: TopView) -> None:
    tr = view.tr
    if view.phase == "clear":
        widgets.background(top, CLEAR_BG, CLEAR_STRIPE)
    else:
        widgets.background(top)
    title = tr("Region Select", "リージョンセレクト")
    widgets.title_bar(top, title, tr(*VARIANT_NAMES[view.variant]))
    if view.phase == "replay":
        _top_replay(top, view)
    elif view.phase in ("play", "clear"):
        _top_play(top, view)
    elif view.phase == "draw":
        _top_help(top, view, [
            tr("Draw one closed curve in one stroke.", "ひとふでで とじた せんを かこう。"),
            tr("It may cross itself (each crossing a game region), but never three "
               "strands at one spot and never just touching.",
               "こうさは OK。3ほんが 1かしょで まじわったり、ふれるだけは だめ。"),
            tr("Lift the stylus at the start to finish.", "はじめの ところで ペンを はなそう。"),
        ])
    elif view.step == "pattern" and view.chosen is not None:
        _top_pattern(top, view)
    else:
        _top_help(top, view, [
            tr("Choose a surface.", "めんを えらぼう。"),
            tr("Tap a point to switch every game region around it; make them all "
               + _goal_word(view) + ".",
               "てんを タッチすると まわりの りょういきが かわる。ぜんぶ "
               + _goal_word(view) + " に しよう。"),
            tr("Random: a new curve with N crossings. Draw: your own curve.",
               "ランダム: N こうさの あたらしい めん。かく: じぶんの せん。"),
        ])
    if view.busy:
        working(top, view.age, tr("working", "けいさんちゅう"))
    if view.message:
        box = pygame.Rect(4, 150, 248, 38)
        widgets.panel(top, box, pal.PANEL_LO)
        _wrap_lines(top, view.message, 10, 154, 236, pal.ACCENT)


def headline(
    surf: pygame.Surface, line: str, cx: int, y: int, color: tuple[int, int, int], scale: int
) -> int:
    """A big centred line; Japanese (drawn from a 12 px font) at half the scale so it stays
    crisp and fits. Returns the y just below it."""
    if text.size(line)[1] > text.GLYPH_H:
        scale = max(1, scale // 2)
    rect = text.draw(surf, line, (cx, y), color, scale=scale, align="center", shadow=pal.OUTLINE)
    return rect.bottom


def _goal_word(view: TopView) -> str:
    if view.variant == "classic":
        return view.tr("grey", "はいいろ")
    if view.variant.startswith("three"):
        return "ABC"[view.goal]
    return "0"


def _top_help(top: pygame.Surface, view: TopView, lines: list[str]) -> None:
    y = 24
    for line in lines:
        y = _wrap_lines(top, line, 10, y, 236, pal.TEXT) + 6


def _top_pattern(top: pygame.Surface, view: TopView) -> None:
    tr = view.tr
    chosen = view.chosen
    assert chosen is not None
    text.draw(top, _surface_title(view), (10, 24), pal.ACCENT)
    n, m = chosen.surface.region_count, chosen.surface.point_count
    text.draw(top, tr(f"{n} game regions, {m} points", f"りょういき {n}、てん {m}"), (10, 36),
              pal.TEXT_DIM)
    text.draw(top, tr("Start pattern", "はじめの パターン"), (10, 58), pal.TEXT)
    if not view.searching:
        text.draw(top, f"{view.pattern}", (128, 74), pal.WHITE, scale=3, align="center")
        text.draw(top, tr(f"of 1..{view.pattern_count}", f"1..{view.pattern_count} の なか"),
                  (128, 100), pal.TEXT_DIM, align="center")
        best = view.pattern_best
        if best is not None:
            text.draw(top, tr(f"Best: {clock(best.ticks)}, {best.selections} selections",
                              f"ベスト: {clock(best.ticks)}、{best.selections} かい"),
                      (128, 116), pal.OK, align="center")
    if view.blocked is not None:
        text.draw(top, tr(f"Point {view.blocked} cannot be selected (crossed).",
                          f"てん {view.blocked} は えらべません(×)。"), (10, 134), pal.TEXT_DIM)


def _surface_title(view: TopView) -> str:
    chosen = view.chosen
    assert chosen is not None
    tr = view.tr
    if "catalogue" in chosen.params:
        return tr(f"Surface {chosen.sid}", f"めん {chosen.sid}")
    if "random" in chosen.params:
        return tr(f"Random surface, {chosen.params['random']} crossings",
                  f"ランダムな めん({chosen.params['random']} こうさ)")
    return tr(f"Your curve, {chosen.surface.crossings} crossings",
              f"あなたの せん({chosen.surface.crossings} こうさ)")


def _top_replay(top: pygame.Surface, view: TopView) -> None:
    tr = view.tr
    replay, puzzle = view.replay_at, view.puzzle
    if replay is None or puzzle is None:
        return
    index, total = replay
    text.draw(top, _surface_title(view) + f"  #{view.pattern}", (8, 20), pal.ACCENT)
    headline(top, tr(f"Replay {index}/{total}",
                     f"リプレイ {index}/{total}"), 128, 40, pal.WHITE, 2)
    text.draw(top, tr(f"Cleared in {clock(view.ticks)} with {total} selections",
                      f"{clock(view.ticks)}、{total} かいで クリア"), (128, 64),
              pal.TEXT_DIM, align="center")
    moves = puzzle.moves
    if moves:
        text.draw(top, tr(f"Last: point {moves[-1]}", f"さいご: てん {moves[-1]}"), (20, 84),
                  pal.TEXT)
    text.draw(top, tr("L / R: step back / forward", "L / R: もどる / すすむ"), (20, 100),
              pal.TEXT_DIM)
    _legend(top, view, 124)


def _top_play(top: pygame.Surface, view: TopView) -> None:
    tr = view.tr
    puzzle = view.puzzle
    assert puzzle is not None
    text.draw(top, _surface_title(view) + f"  #{view.pattern}", (8, 20), pal.ACCENT)
    partner = view.partner
    y = 34
    if view.phase == "clear" and partner is not None:
        won = view.race_won
        title = tr("You win!", "かち!") if won else tr("Partner first", "あいての かち")
        y = headline(top, title, 128, y, pal.WHITE, 3) + 6
    elif view.phase == "clear":
        y = headline(top, tr("Clear!", "クリア!"), 128, y, pal.WHITE, 4) + 6
    label_h = max(text.size(tr("Time", "タイム"))[1], text.size(tr("Selections", "せんたく"))[1])
    text.draw(top, tr("Time", "タイム"), (20, y), pal.TEXT_DIM)
    text.draw(top, clock(view.ticks), (20, y + label_h + 2), pal.WHITE, scale=2)
    text.draw(top, tr("Selections", "せんたく"), (140, y), pal.TEXT_DIM)
    text.draw(top, str(puzzle.selections), (140, y + label_h + 2), pal.WHITE, scale=2)
    y += label_h + 22
    if partner is not None:
        left = sum(1 for c in partner.cells if c != partner.setup.goal)
        name = view.partner_name
        n = partner.selections
        text.draw(top, tr(f"Partner {name}: {n} selection{'s' * (n != 1)}, {left} to go",
                          f"あいて {name}: {partner.selections} かい、のこり {left}"),
                  (20, y), pal.TEAL)
        y += 14
    if view.phase == "clear":
        if view.is_best:
            y = headline(top, tr("New best!", "ベスト きろく!"), 128, y, pal.ACCENT, 2) + 4
        b = view.best_before
        if b is not None:
            n = b.selections
            text.draw(top, tr(f"Before: {clock(b.ticks)}, {n} selection{'s' * (n != 1)}",
                              f"まえの ベスト: {clock(b.ticks)}、{b.selections} かい"),
                      (128, y), pal.TEXT_DIM, align="center")
            y += 12
        if view.hints or view.solution_shown:
            shown = view.solution_shown
            line = tr(f"Hints used: {view.hints}" + (", solution shown" if shown else ""),
                      f"ヒント {view.hints} かい" + ("、こたえ を みた" if shown else ""))
            text.draw(top, line, (128, y), pal.TEXT_DIM, align="center")
        return
    left = sum(1 for c in puzzle.cells if c != puzzle.setup.goal)
    text.draw(top, tr(f"Regions still to change: {left} of {len(puzzle.cells)}",
                      f"のこり りょういき: {left} / {len(puzzle.cells)}"), (20, y), pal.TEXT)
    y += 12
    b = view.best_before
    if b is not None:
        text.draw(top, tr(f"Best: {clock(b.ticks)}, {b.selections} selections",
                          f"ベスト: {clock(b.ticks)}、{b.selections} かい"), (20, y), pal.OK)
        y += 12
    if view.hint_point is not None:
        text.draw(top, tr(f"Hint: select point {view.hint_point} (ringed).",
                          f"ヒント: てん {view.hint_point}(わく)"), (20, y), pal.ACCENT)
        y += 12
    if view.solution_shown:
        n = view.solution_left
        text.draw(top, tr(f"Solution: {n} more selections (marked).",
                          f"こたえ: あと {n} かい(しるし)"), (20, y), pal.TEAL)
        y += 12
    _legend(top, view, 124)


def _legend(top: pygame.Surface, view: TopView, y: int) -> None:
    """The states and the goal: colour swatches with their names."""
    tr = view.tr
    k = {"classic": 2, "cyclic3": 3, "cyclic4": 4}.get(view.variant, 3)
    x = 20
    goal_label = tr("Goal:", "ゴール:")
    text.draw(top, goal_label, (x, y + 3), pal.TEXT_DIM)
    x += text.size(goal_label)[0] + 8
    order = [view.goal] + [s for s in range(k) if s != view.goal]
    for i, state in enumerate(order):
        rect = pygame.Rect(x, y, 14, 14)
        pygame.draw.rect(top, colour(view.variant, state), rect)
        pygame.draw.rect(top, pal.OUTLINE, rect, 1)
        name = _state_name(view, state)
        text.draw(top, name, (x + 18, y + 3), pal.TEXT if i == 0 else pal.TEXT_DIM)
        x += 24 + text.size(name)[0]
        if i == 0:
            text.draw(top, "|", (x - 4, y + 3), pal.TEXT_DIM)
            x += 6


def _state_name(view: TopView, state: int) -> str:
    if view.variant == "classic":
        return view.tr("grey", "はいいろ") if state == 0 else view.tr("white", "しろ")
    if view.variant.startswith("three"):
        return "ABC"[state]
    return str(state)


def working(surf: pygame.Surface, tick: int, label: str) -> None:
    """The "working" animation: a box with orbiting dots."""
    box = pygame.Rect(60, 120, 136, 26)
    widgets.panel(surf, box, pal.PANEL_HI)
    text.draw(surf, label, (box.x + 8, box.y + 9), pal.TEXT)
    for i in range(3):
        on = (tick // 8) % 3 == i
        dot = (box.x + 106 + 9 * i, box.y + 13)
        pygame.draw.circle(surf, pal.ACCENT if on else pal.TEXT_DIM, dot, 3)
