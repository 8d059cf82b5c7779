"""Drawing Region Select's two screens for every phase, from a `RegionsView` the scene builds
each frame (the drawing reads nothing else and changes nothing)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from games.regions.rules.catalogue import entry
from games.regions.rules.play import Puzzle
from games.regions.scene import layout
from games.regions.scene import surfaces as srf
from games.regions.scene.records import Best
from games.regions.scene.surface_view import GREY, WHITE, SurfaceView, colour, draw_surface


@dataclass(frozen=True)
class RegionsView:
    """What both screens show this frame. Fields a phase does not show keep their defaults
    (the scene computes only what is drawn: records and solutions cost)."""

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
    # choosing
    pattern_count: int = 0
    pattern_best: Best | None = None
    page: int = 0
    pages: int = 0
    random_n: int = 0
    surface_bests: dict[str, Best | None] = field(default_factory=dict)  # this page's rows
    # drawing a curve
    stroke: tuple[tuple[int, int], ...] = ()
    mark: tuple[float, float] | None = None
    # playing, clear and replay
    surface: SurfaceView | None = None
    puzzle: Puzzle | None = None
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
    clear_buttons: dict[str, pygame.Rect] = field(default_factory=dict)
    replay_at: tuple[int, int] | None = None  # (index, total) of a replay
    replay_ends: tuple[bool, bool] = (False, False)  # (at start, at end)

CLEAR_BG = (30, 96, 84)
CLEAR_STRIPE = (36, 110, 96)
VARIANT_NAMES = {
    "classic": ("White / grey", "しろ / はいいろ"),
    "three": ("Three states, alternating", "3しょく(こうご)"),
    "three-random": ("Three states, random", "3しょく(ランダム)"),
    "cyclic3": ("Cycle of 3 (Z/3)", "3しょく じゅんかん"),
    "cyclic4": ("Cycle of 4 (Z/4)", "4しょく じゅんかん"),
}


def clock(ticks: int) -> str:
    """m:ss.t from ticks at 60 Hz."""
    tenths = ticks // 6
    return f"{tenths // 600}:{tenths // 10 % 60:02d}.{tenths % 10}"


def _wrap_lines(
    surf: pygame.Surface, msg: str, x: int, y: int, w: int, color: tuple[int, int, int]
) -> int:
    for line in text.wrap(msg, w)[:4]:
        text.draw(surf, line, (x, y), color)
        y += text.LINE_H + 1
    return y


# ------------------------------------------------------------------------- upper screen
def draw_top(top: pygame.Surface, view: RegionsView) -> None:
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
        _working(top, view.age)
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


def _goal_word(view: RegionsView) -> str:
    if view.variant == "classic":
        return view.tr("grey", "はいいろ")
    if view.variant.startswith("three"):
        return "ABC"[view.goal]
    return "0"


def _top_help(top: pygame.Surface, view: RegionsView, lines: list[str]) -> None:
    y = 24
    for line in lines:
        y = _wrap_lines(top, line, 10, y, 236, pal.TEXT) + 6


def _top_pattern(top: pygame.Surface, view: RegionsView) -> None:
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


def _surface_title(view: RegionsView) -> str:
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


def _top_replay(top: pygame.Surface, view: RegionsView) -> None:
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


def _top_play(top: pygame.Surface, view: RegionsView) -> None:
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
        text.draw(top, tr(f"Partner {name}: {partner.selections} selections, {left} to go",
                          f"あいて {name}: {partner.selections} かい、のこり {left}"),
                  (20, y), pal.TEAL)
        y += 14
    if view.phase == "clear":
        if view.is_best:
            y = headline(top, tr("New best!", "ベスト きろく!"), 128, y, pal.ACCENT, 2) + 4
        b = view.best_before
        if b is not None:
            text.draw(top, tr(f"Before: {clock(b.ticks)}, {b.selections} selections",
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


def _legend(top: pygame.Surface, view: RegionsView, y: int) -> None:
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


def _state_name(view: RegionsView, state: int) -> str:
    if view.variant == "classic":
        return view.tr("grey", "はいいろ") if state == 0 else view.tr("white", "しろ")
    if view.variant.startswith("three"):
        return "ABC"[state]
    return str(state)


def _working(surf: pygame.Surface, tick: int) -> None:
    """The "working" animation: a box with orbiting dots."""
    box = pygame.Rect(78, 120, 100, 26)
    widgets.panel(surf, box, pal.PANEL_HI)
    text.draw(surf, "working", (box.x + 8, box.y + 9), pal.TEXT)
    for i in range(3):
        on = (tick // 8) % 3 == i
        dot = (box.x + 70 + 9 * i, box.y + 13)
        pygame.draw.circle(surf, pal.ACCENT if on else pal.TEXT_DIM, dot, 3)


# ------------------------------------------------------------------------- lower screen
def draw_bottom(bottom: pygame.Surface, view: RegionsView) -> None:
    tr = view.tr
    if view.phase == "draw":
        _bottom_draw(bottom, view)
    elif view.phase == "choose" and view.step == "surface":
        _bottom_list(bottom, view)
    else:
        _bottom_surface(bottom, view)
    if view.busy:
        widgets.dim(bottom, 90)
        _working(bottom, view.age)
    del tr


def _bar(bottom: pygame.Surface) -> None:
    pygame.draw.rect(bottom, pal.PANEL_LO, (0, int(layout.SURFACE_RECT[3]), 256, 24))


def _bottom_surface(bottom: pygame.Surface, view: RegionsView) -> None:
    tr = view.tr
    _bar(bottom)
    if view.surface is not None:
        draw_surface(bottom, view.surface)
    if view.phase == "play":
        puzzle = view.puzzle
        assert puzzle is not None
        labels = {
            "button:undo": tr("Undo", "もどす"),
            "button:hint": tr("Hint", "ヒント"),
            "button:solution": tr("Solution", "こたえ"),
            "button:help": "?",
        }
        for name, rect in layout.PLAY_BUTTONS.items():
            disabled = name == "button:undo" and not puzzle.moves
            widgets.button(bottom, rect, labels[name], disabled=disabled)
    elif view.phase == "replay":
        labels = {"button:first": "|<", "button:back": "<", "button:forward": ">",
                  "button:last": ">|"}
        if view.replay_at is not None:
            at_start, at_end = view.replay_ends
            for name, rect in layout.REPLAY_BUTTONS.items():
                off = (name in ("button:first", "button:back") and at_start) or (
                    name in ("button:forward", "button:last") and at_end)
                widgets.button(bottom, rect, labels[name], disabled=off)
    elif view.phase == "clear":
        widgets.dim(bottom, 110, CLEAR_BG)
        pygame.draw.rect(bottom, CLEAR_BG, (20, 40, 216, 132), border_radius=6)
        pygame.draw.rect(bottom, pal.ACCENT, (20, 40, 216, 132), 2, border_radius=6)
        title = tr("Clear!", "クリア!")
        if view.partner is not None:
            won = view.race_won
            title = tr("You win!", "かち!") if won else tr("Partner first", "あいての かち")
        text.draw(bottom, title, (128, 50), pal.WHITE, scale=2, align="center",
                  shadow=pal.OUTLINE)
        labels = {
            "choice:another": tr("Choose another surface", "べつの めん"),
            "choice:new-pattern": tr("Same surface, new pattern", "おなじ めん、べつの パターン"),
            "choice:quit": tr("Quit", "やめる"),
        }
        for name, rect in view.clear_buttons.items():
            if name in labels:
                widgets.button(bottom, rect, labels[name])
    else:
        labels = {
            "choice:back": tr("Back", "もどる"),
            "choice:pattern:less10": "-10",
            "choice:pattern:less": "-",
            "choice:pattern:more": "+",
            "choice:pattern:more10": "+10",
            "choice:pattern:random": tr("Random", "ランダム"),
            "choice:start": tr("Start", "スタート"),
        }
        for name, rect in layout.PATTERN_BUTTONS.items():
            face = pal.OK if name == "choice:start" else pal.BUTTON
            widgets.button(bottom, rect, labels[name], face=face)


def _bottom_list(bottom: pygame.Surface, view: RegionsView) -> None:
    tr = view.tr
    widgets.background(bottom)
    widgets.title_bar(bottom, tr("Choose a surface", "めんを えらぶ")
                      + f"  {view.page + 1}/{view.pages}")
    widgets.button(bottom, layout.HELP_LIST_BUTTON, "?")
    names = srf.catalogue_names()
    for slot in range(layout.ROWS):
        i = view.page * layout.ROWS + slot
        if i >= len(names):
            break
        name = names[i]
        rect = layout.row_rect(slot)
        widgets.bevel_rect(bottom, rect, pal.PANEL_HI if slot % 2 else pal.PANEL)
        n = entry(name).shadow.crossings
        _mini_regions(bottom, rect.x + 4, rect.y + 4, n)
        text.draw(bottom, name, (rect.x + 40, rect.y + 6), pal.WHITE)
        text.draw(bottom, tr(f"{n} regions", f"{n} りょういき"), (rect.x + 116, rect.y + 6),
                  pal.TEXT_DIM)
        best = view.surface_bests.get(name)
        shown = f"{clock(best.ticks)}  {best.selections}" if best else "-"
        text.draw(bottom, shown, (rect.right - 6, rect.y + 6),
                  pal.OK if best else pal.TEXT_DIM, align="right")
    labels: dict[str, str | list[str]] = {
        "choice:page:prev": "<",
        "choice:page:next": ">",
        "choice:random:less": "-",
        "choice:random": [tr("Random", "ランダム"), f"N = {view.random_n}"],
        "choice:random:more": "+",
        "choice:draw": [tr("Draw", "じぶんで"), tr("your own", "かく")],
    }
    for name, rect in layout.LIST_BUTTONS.items():
        face = pal.ACCENT_LO if name in ("choice:random", "choice:draw") else pal.BUTTON
        widgets.button(bottom, rect, labels[name], face=face)


def _mini_regions(surf: pygame.Surface, x: int, y: int, n: int) -> None:
    """A little row of squares standing for the number of regions (up to 10)."""
    for i in range(min(n, 10)):
        c = WHITE if i % 2 == 0 else GREY
        surf.fill(c, (x + (i % 5) * 6, y + (i // 5) * 6, 5, 5))


def _bottom_draw(bottom: pygame.Surface, view: RegionsView) -> None:
    tr = view.tr
    bottom.fill((244, 242, 232), layout.DRAW_RECT)
    for gx in range(0, 256, 16):
        pygame.draw.line(bottom, (226, 224, 212), (gx, 0), (gx, layout.DRAW_RECT.bottom - 1))
    for gy in range(0, layout.DRAW_RECT.bottom, 16):
        pygame.draw.line(bottom, (226, 224, 212), (0, gy), (255, gy))
    if len(view.stroke) >= 2:
        pygame.draw.lines(bottom, (36, 46, 78), False, view.stroke, 2)
    if view.stroke:
        sx, sy = view.stroke[0]
        pygame.draw.circle(bottom, (60, 170, 90), (sx, sy), 6, 2)  # where to come back to
    if view.mark is not None:
        mx, my = round(view.mark[0]), round(view.mark[1])
        pygame.draw.circle(bottom, pal.DANGER, (mx, my), 10, 3)
        pygame.draw.line(bottom, pal.DANGER, (mx - 14, my), (mx + 14, my), 1)
        pygame.draw.line(bottom, pal.DANGER, (mx, my - 14), (mx, my + 14), 1)
    _bar(bottom)
    labels = {"choice:back": tr("Back", "もどる"), "choice:draw:clear": tr("Erase", "けす")}
    for name, rect in layout.DRAW_BUTTONS.items():
        widgets.button(bottom, rect, labels[name])
