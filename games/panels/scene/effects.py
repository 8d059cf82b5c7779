"""From what an action did (the match's events) to what the player sees: glides, rotations,
yaku lighting up group by group, removals and notes (P-GAME-4, R-PAN-YAKU)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.panels.rules import Card, GameState
from games.panels.scene import layout
from games.panels.scene.animation import Anim

GLIDE_LOCAL, GLIDE_OTHER = 8, 16  # ticks: one's own card is quick, the opponent's followable
ROTATE_LOCAL, ROTATE_OTHER = 6, 12
YAKU_TICKS = 54  # each group's announcement
REMOVE_TICKS = 20
ARRIVE_TICKS = 14
NOTE_TICKS = 40


@dataclass
class Effects:
    anims: list[Anim] = field(default_factory=list)
    log: list[list[Any]] = field(default_factory=list)  # [seat, yaku, cards, points]
    sounds: list[str] = field(default_factory=list)


def log_entries(event: dict[str, Any]) -> list[list[Any]]:
    """The game's yaku list entries of one `fixed` event."""
    return [[event["player"], y["kind"], len(y["squares"]), y["points"]] for y in event["yaku"]]


def final_card(events: list[dict[str, Any]], state: GameState) -> Card | None:
    """The card as it ends up: fixed by these events, or still provisional in `state`."""
    for e in events:
        if e["type"] == "fixed":
            return Card.from_json(e["card"])
    return state.provisional_card()


def animations(
    events: list[dict[str, Any]],
    before: dict[str, Any],
    state: GameState,
    *,
    local: bool,
    seen_here: bool,
) -> Effects:
    """The animations, log entries and sounds of one applied action. `before` describes the
    state before it (cells, provisional, selected, mover, scores); `state` is after it;
    `local`: the mover is at this unit; `seen_here`: the mover's stock is shown here."""
    out = Effects()
    mover = before["mover"]
    glide, turn_ticks = (GLIDE_LOCAL, ROTATE_LOCAL) if local else (GLIDE_OTHER, ROTATE_OTHER)
    final = final_card(events, state)
    rotations_left = sum(e["type"] == "rotated" for e in events)
    prov_from = before["provisional"][0] if before["provisional"] else None
    selected = before["selected"]
    later: list[Anim] = []
    for e in events:
        kind = e["type"]
        if kind == "selected":
            selected = e["stock"]
            out.sounds.append("select")
        elif kind == "provisional" and final is not None:
            card = final.rotated(-rotations_left)
            if prov_from is not None:
                origin = list(layout.square_rect(*prov_from).topleft)
            elif seen_here and selected is not None:
                origin = list(layout.stock_rect(selected).topleft)
            else:
                origin = list(layout.OPPONENT_ORIGIN)
            data = {"square": e["square"], "from": origin, "card": card.to_json(), "own": local}
            out.anims.append(Anim("glide", glide, data))
            prov_from = tuple(e["square"])
            out.sounds.append("place")
        elif kind == "rotated" and final is not None and prov_from is not None:
            card = final.rotated(-rotations_left)
            rotations_left -= 1
            data = {"square": list(prov_from), "card": card.to_json(), "own": local}
            out.anims.append(Anim("rotate", turn_ticks, data))
        elif kind == "fixed":
            _yaku(e, before, out)
        elif kind == "removed":
            cells = before["cells"]
            cards = []
            for r, c in e["squares"]:
                card = cells[state.field.index((r, c))]
                if card is not None:  # the new card was not on the field before
                    cards.append([r, c, card.to_json()])
            fixed = next(x for x in events if x["type"] == "fixed")
            cards.append([*fixed["square"], fixed["card"]])
            out.anims.append(Anim("remove", REMOVE_TICKS, {"cards": cards}))
        elif kind == "item_earned":  # told after the yaku and the removal
            data = {"text": "item", "item": e["item"], "kept": e["kept"], "seat": mover}
            later.append(Anim("note", NOTE_TICKS, data))
        elif kind == "item_used":
            data = {"text": "used", "item": e["item"], "seat": mover}
            out.anims.append(Anim("note", NOTE_TICKS // 2, data))
            out.sounds.append("pop")
        elif kind == "passed":
            out.anims.append(Anim("note", NOTE_TICKS, {"text": "passed", "seat": mover}))
            out.sounds.append("pass")
    out.anims += later
    return out


def _yaku(event: dict[str, Any], before: dict[str, Any], out: Effects) -> None:
    """Each combined group that formed yaku lights up in turn, all its yaku at once."""
    groups: list[dict[str, Any]] = []
    for y in event["yaku"]:
        if groups and groups[-1]["squares"] == y["squares"]:
            groups[-1]["kinds"].append(y["kind"])
            groups[-1]["each"].append(y["points"])
            groups[-1]["points"] += y["points"]
        else:
            groups.append({"squares": y["squares"], "kinds": [y["kind"]],
                           "each": [y["points"]], "points": y["points"]})
    out.log += log_entries(event)
    score = before["scores"][event["player"]]
    for group in groups:
        group["seat"], group["from"] = event["player"], score
        group["card"], group["at"] = event["card"], event["square"]
        out.anims.append(Anim("yaku", YAKU_TICKS, group))
        score += group["points"]
    if groups:
        out.sounds.append("win" if len(groups) > 1 or groups[0]["points"] >= 60 else "pop")
