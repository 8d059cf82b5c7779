"""Panel Link's scene to and from JSON: `dump` (the P-DUMP state tests and movies read),
`save_state` (suspend) and `load_state` (resume, refusing anything that does not check).
Reads and restores the scene through `SaveSource`, never imports `play.py`.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from firmware.match import Match, ReplaySource
from firmware.turn_game import check_version, save_reader
from games.panels.match import MatchAction, PanelsComputer, PanelsRules
from games.panels.scene.animation import Anim
from games.panels.scene.views import ViewSource

STATE_VERSION = 1
MODES = ("cpu", "two")
LEVELS = (1, 2, 3, 4)


class SaveSource(ViewSource, Protocol):
    """What dump, suspend and resume read and restore (the scene satisfies it)."""

    game_seed: int
    ai_seed: int
    computer: PanelsComputer | None
    draft: PanelsRules | None
    match: Match[MatchAction]
    source: ReplaySource | None
    help_page: int | None
    item_square: tuple[int, int] | None
    reported: bool
    replay_wait: int
    _rules_seen: object

    def _new_game(self, game_seed: int) -> None: ...
    def _open_record(self, data: dict[str, Any]) -> None: ...
    def _seek(self, count: int) -> None: ...


def _rng_state(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def dump(scene: SaveSource) -> dict[str, Any]:
    st = scene.state
    fld = st.field
    prov = st.provisional_card()
    rows = []
    for r in range(fld.rows):
        row: list[Any] = []
        for c in range(fld.cols):
            if not fld.is_usable((r, c)):
                row.append("unusable")
                continue
            card = fld.get((r, c))
            if card is not None:
                row.append({**card.to_json(), "state": "fixed"})
            elif prov is not None and st.provisional is not None and st.provisional[0] == (
                r, c
            ):
                row.append({**prov.to_json(), "state": "provisional"})
            else:
                row.append("empty")
        rows.append(row)
    view = scene.view_seat
    result = scene.rules.result()
    out: dict[str, Any] = {
        "phase": "over" if st.over else "play",
        "turn": st.current,
        "seat": view,
        "field": rows,
        "stock": [c.to_json() for c in st.players[view].stock],
        "stock_counts": [len(p.stock) for p in st.players],
        "selected": st.selected if st.current == view else None,
        "items": list(st.players[view].items),
        "scores": [p.score for p in st.players],
        "target": st.config.target,
        "yaku": [
            {
                "name": y.kind,
                "cards": [list(s) for s in y.squares],
                "points": y.points,
            }
            for y in st.last_yaku
        ],
        "mode": "replay" if scene.is_replay else scene.mode,
        "level": scene.level if scene.mode == "cpu" else None,
        "field_shape": st.config.field_shape,
        "removal": st.config.removal,
        "items_on": st.config.items,
        "winner": None if result is None else result.winner,
        "result": None if result is None else result.to_json(),
        "animating": bool(scene.anims),
        "animation": scene.anims[0].kind if scene.anims else None,
        "announce": announcement(scene),
        "item_mode": scene.item_target or ("armed" if scene.item_armed is not None else None),
        "help_page": scene.help_page,
        "refused": dict(scene.match.refused),
    }
    if scene.is_replay:
        turn, total = scene.replay_turn()
        out["replay"] = {"turn": turn, "turns": total, "error": scene.record_error}
    return out


def announcement(scene: SaveSource) -> list[str] | None:
    """The yaku being announced now: names with points, e.g. ["same_number +30"]."""
    if not scene.anims or scene.anims[0].kind != "yaku":
        return None
    d = scene.anims[0].data
    return [f"{k} +{p}" for k, p in zip(d["kinds"], d["each"], strict=True)]


def save_state(scene: SaveSource) -> dict[str, Any]:
    base = {
        "version": STATE_VERSION,
        "anims": [a.to_json() for a in scene.anims],
        "shown_scores": list(scene.shown_scores),
        "yaku_log": scene.yaku_log,
        "help_page": scene.help_page,
        "reported": scene.reported,
        "clock": scene.clock,
    }
    if scene.is_replay:
        return {
            **base,
            "replay": scene.record_data,
            "done": scene.source.index if scene.source else 0,
            "released": scene.source.released if scene.source else 0,
            "replay_wait": scene.replay_wait,
        }
    return {
        **base,
        "mode": scene.mode,
        "level": scene.level,
        "game_seed": scene.game_seed,
        "ai_seed": scene.ai_seed,
        "match": scene.match.save(),
        "rng": _rng_state(scene.ctx.rng),  # the next game's seeds (play again)
        "draft": None if scene.draft is None else scene.draft.to_json(),
        "item": [scene.item_armed, scene.item_target,
                 None if scene.item_square is None else list(scene.item_square)],
    }


def load_state(scene: SaveSource, state: dict[str, Any]) -> None:
    with save_reader("a Panel Link save", IndexError):
        if "replay" in check_version(state, STATE_VERSION):
            scene.record_data = state["replay"]
            scene._open_record(state["replay"])
            scene._seek(int(state["done"]))
            if scene.source is not None:
                scene.source.released = int(state["released"])
            scene.replay_wait = int(state["replay_wait"])
        else:
            _load_play(scene, state)
        scene.anims = [Anim.from_json(a) for a in state["anims"]]
        scene.shown_scores = [int(s) for s in state["shown_scores"]]
        scene.yaku_log = [list(e) for e in state["yaku_log"]]
        scene.help_page = state["help_page"]
        scene.reported = bool(state["reported"])
        scene.clock = int(state["clock"])


def _load_play(scene: SaveSource, state: dict[str, Any]) -> None:
    mode, level = state["mode"], int(state["level"])
    if mode == "link":
        raise ValueError("a linked game continues only through its link session")
    if mode not in MODES or level not in LEVELS:
        raise ValueError("bad mode or level")
    scene.mode, scene.level = mode, level
    scene.record_data = None
    scene.ctx.options = {**scene.ctx.options, "mode": mode, "level": str(level)}
    scene._new_game(int(state["game_seed"]))
    scene.ai_seed = int(state["ai_seed"])
    if scene.computer is not None:
        scene.computer.seed = scene.ai_seed
        scene.computer.warm(PanelsRules.from_json(state["match"]["rules"]))
    scene.match.load(state["match"])
    scene._rules_seen = scene.match.rules
    version, internal, gauss = state["rng"]
    scene.ctx.rng.setstate((int(version), tuple(int(v) for v in internal), gauss))
    armed, target, square = state["item"]
    scene.item_armed = None if armed is None else int(armed)
    scene.item_target = target if target in (None, "stock", "card", "delta") else None
    scene.item_square = None if square is None else (int(square[0]), int(square[1]))

