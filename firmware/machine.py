"""The running firmware: scene stack, input path, lid and sleep, suspend, crash guard, dump.

One `Machine` per unit. `step()` is one tick (poll, update), `render()` draws both logical
screens, `present()` hands them to the display (swapped if the setting says so).

The machine imports no scene and finds no game: the boot path (firmware/boot.py) gives it
the cartridges and the system's own scenes (`SystemScenes`); the scenes see the machine as a
`firmware.scene.Host`.
"""

from __future__ import annotations

import gc
import hashlib
import logging
import secrets
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import pygame

from firmware.battery import BatteryMonitor
from firmware.cursor import HotspotCursor
from firmware.game_api import Cartridge, Game, GameContext, GameResult, Versus
from firmware.gfx import battery as battery_gfx
from firmware.gfx import palette as pal
from firmware.gfx import widgets
from firmware.input import InputTracker
from firmware.match.pacing import Pacing
from firmware.match.profiles import DEFAULT_PROFILE, DeviceProfile
from firmware.match.worker import close_all as stop_workers
from firmware.scene import Host, RunningGame, Scene
from firmware.settings import Settings
from firmware.storage import Store
from firmware.store_rescue import StoreNotice
from firmware.wifi import WifiService
from hal.interfaces import SCREEN_SIZE, Hal, NoLink, RawInput
from hal.touch import Calibration, CalibrationError, TouchFilterConfig, TouchPipeline

if TYPE_CHECKING:
    from firmware.link.service import LinkService

log = logging.getLogger("twinfold")
BANNER_TICKS = {"low": 4 * 60, "critical": 90}  # how long each battery warning shows

SEED_LIMIT = 2**63  # seeds are 0 .. 2**63-1 everywhere (--seed, stored seeds)


def settle_heap() -> None:
    """Collect once, then move every surviving object out of the collector's reach.

    Called at scene changes (boot, game start), where a pause is invisible. The firmware,
    fonts, sprites and the game's tables are long-lived; without this, a full collection
    pass over them (10-20 ms) can land in any later tick and break its budget (P-LOOP-3).
    """
    gc.collect()
    gc.freeze()


@dataclass(frozen=True)
class SystemScenes:
    """The firmware's own scenes the machine opens by itself, given to it at boot
    (`firmware.boot.system_scenes()` fills this from firmware/scenes/)."""

    boot: Callable[[Host], Scene]  # the power-on animation
    launcher: Callable[[Host, str | None], Scene]  # the game list, this game selected
    game: Callable[[Host, Cartridge, GameContext, Game], Scene]  # a running game
    error: Callable[[Host, str, Exception], Scene]  # a crash (P-FW-3): where, what
    watch_link: Callable[[Host], None]  # every tick with the radio on: a lost partner
    # a boot game (`--game`, the config's): the language at a first start, then Continue /
    # New game when a saved game of it waits, else the game (firmware/scenes/boot.py)
    open_boot_game: Callable[[Host, str, dict[str, str]], None]


class Machine:
    def __init__(
        self,
        hal: Hal,
        store: Store,
        *,
        cartridges: Mapping[str, Cartridge],
        scenes: SystemScenes,
        seed: int | None = 0,
        boot_game: str | None = None,
        boot_options: dict[str, str] | None = None,
        touch_profile: TouchFilterConfig | None = None,
        profile: DeviceProfile | None = None,
        show_boot: bool = True,
        ask_language: bool = False,
        offer_resume: bool = False,
        link_name: str = "",
        left_out: int = 0,
    ) -> None:
        self.hal = hal
        self.store = store
        self.seed = seed  # None: each game start draws a fresh seed (see `game_seed`)
        self.tick = 0
        self.top = pygame.Surface(SCREEN_SIZE)
        self.bottom = pygame.Surface(SCREEN_SIZE)
        self.cartridges = cartridges
        self.system_scenes = scenes
        stored_settings = store.get_setting("settings", None)
        self.settings = Settings.from_json(stored_settings)
        # A store that never held settings: the boot screen offers the language first.
        self.ask_language = ask_language and stored_settings is None
        # A boot game with a saved game of it waiting: offer Continue / New game first.
        self.offer_resume = offer_resume
        self.touch_profile = touch_profile or TouchFilterConfig.NONE
        self.profile: DeviceProfile = profile or DEFAULT_PROFILE
        # when computer answers from worker processes were applied (kept by the emulator's
        # rewind history, so replayed ticks apply them alike: firmware.match.pacing)
        self.pacing = Pacing(self._tick)
        self.touch = TouchPipeline(self._stored_calibration(), self.touch_profile)
        self.tracker = InputTracker()
        self.cursor = HotspotCursor()
        self.scenes: list[Scene] = []
        self.lid_closed = False
        self.asleep = False
        self._power_was_down = False
        self.quit_requested = False
        # the battery (P-HW-8): a critical charge saves the game and asks the frontend to
        # shut the unit down, as a long POWER press does (handheld/app.py runs the command)
        self.battery = BatteryMonitor(hal.battery)
        self.wifi = WifiService(hal.wifi)  # a match's own Wi-Fi network (issue 32)
        self.shutdown_requested = False
        self._battery_banner: tuple[str, int] | None = None  # ("low"/"critical", until tick)
        self.last_error: str | None = None
        self.notice: StoreNotice | None = store.notice
        self.version_note: tuple[str, str] | None = None  # set by the device (handheld/app.py)
        # games that could not be loaded (firmware.cartridges.discover_all): the boot screen
        # says how many, once; the log says which and why
        self.left_out = left_out
        self.saved: set[str] = store.suspended_ids()  # games with a saved game waiting
        self.link: LinkService | None = None  # the radio, when the unit has one
        if not isinstance(hal.link, NoLink):
            # the link stack (and its cryptography) loads only on a unit with a radio
            from firmware.link.service import LinkService

            self.link = LinkService(hal.link, store, self.settings, self._tick, link_name)
        if boot_game is not None:
            self.scenes.append(scenes.launcher(self, None))
            if boot_game not in cartridges:  # (as start_game says it, for every path)
                raise ValueError(f"no game {boot_game!r} (games: {', '.join(sorted(cartridges))})")
            scenes.open_boot_game(self, boot_game, boot_options or {})
        elif show_boot:
            self.scenes.append(scenes.boot(self))
        else:
            self.scenes.append(scenes.launcher(self, None))
        self._scene_logged = ""
        self._log_scene()
        from firmware.gfx import japanese

        japanese.characters()  # the glyph table loads at boot, not on a frame (about 10 ms)
        settle_heap()

    def _tick(self) -> int:
        return self.tick

    # ----------------------------------------------------------------- services for scenes
    def tr(self, en: str, ja: str) -> str:
        if self.settings.language == "ja" and ja:
            return ja
        return en

    def play(self, effect: str) -> None:
        if self.settings.volume > 0:
            self.hal.audio.play(effect, self.settings.volume / 10)

    def save_settings(self) -> None:
        self.store.set_setting("settings", self.settings.to_json())

    def set_calibration(self, calibration: Calibration) -> None:
        self.store.set_calibration(calibration.to_json())
        self.touch = TouchPipeline(calibration, self.touch_profile)

    def _stored_calibration(self) -> Calibration:
        data = self.store.get_calibration()
        if data is None:
            return Calibration.identity()
        try:
            return Calibration.from_json(data)
        except CalibrationError:
            log.warning("stored touch calibration is invalid; using the identity")
            return Calibration.identity()

    @property
    def scene(self) -> Scene:
        return self.scenes[-1]

    def push(self, scene: Scene) -> None:
        self.scenes.append(scene)
        self.cursor.reset()

    def pop(self) -> None:
        if len(self.scenes) > 1:
            self.scenes.pop()
            self.cursor.reset()
            self.scene.on_enter()

    def replace(self, scene: Scene) -> None:
        self.scenes[-1] = scene
        self.cursor.reset()

    def to_launcher(self, selected: str | None = None) -> None:
        stop_workers()  # a computer still searching for the game left behind stops at once
        self._leave_versus()
        self.scenes = [self.system_scenes.launcher(self, selected)]
        self.cursor.reset()

    def game_scene(self) -> RunningGame | None:
        """The scene running a game (the topmost one), None in the system's own screens."""
        for scene in reversed(self.scenes):
            game = scene.running_game()
            if game is not None:
                return game
        return None

    def game_seed(self) -> int:
        """The seed for a game starting now: the pinned one (`--seed`), else a fresh one.

        A fresh seed comes from the operating system, so two starts differ; it is kept in
        the game's context, its suspend data and its record, so resumes and replays are exact.
        """
        if self.seed is not None:
            return self.seed
        return secrets.randbelow(SEED_LIMIT)

    def new_context(
        self, cartridge: Cartridge, options: dict[str, str], seed: int | None = None
    ) -> GameContext:
        """A game's context with its seed (`seed`: a stored one, for resumes and replays)."""
        return GameContext(self, cartridge, options, self.game_seed() if seed is None else seed)

    def start_game(
        self,
        game_id: str,
        options: dict[str, str],
        state: dict[str, Any] | None = None,
        seed: int | None = None,
        versus: Versus | None = None,
        resumed: bool = False,
    ) -> None:
        """Start (or, with `state` and its `seed`, resume) a game on top of the launcher;
        `versus` (a link session) makes it a match against other units, on its shared seed.
        `resumed`: the state is the game's saved game, so saving again replaces it."""
        cartridge = self.cartridges.get(game_id)
        if cartridge is None:
            raise ValueError(f"no game {game_id!r} (games: {', '.join(sorted(self.cartridges))})")
        if seed is not None and not (isinstance(seed, int) and 0 <= seed < SEED_LIMIT):
            raise ValueError(f"the stored seed {seed!r} is not valid")
        resolved = cartridge.resolve_options(options)
        ctx = self.new_context(cartridge, resolved, versus.seed if versus is not None else seed)
        ctx.versus = versus
        try:
            game = cartridge.create(ctx)
        except Exception as exc:  # a broken game (one installed as a package...) at its start
            self._start_failed(cartridge, exc, versus)
            return
        if state is not None:
            game.load_state(state)
        self.to_launcher(selected=game_id)
        scene = self.system_scenes.game(self, cartridge, ctx, game)
        running = scene.running_game()
        if running is not None:
            # Only the game resumed from the saved game (or one started with no saved game
            # waiting, or after the player agreed to discard it) may replace or end it: a
            # link match, a save state or a `--game` start beside a waiting one never does.
            running.owns_slot = versus is None and (resumed or game_id not in self.saved)
        self.push(scene)
        settle_heap()

    def _leave_versus(self) -> None:
        """Leaving a running versus game (quit, save and quit, a crash) abandons its session,
        so the partner is told at once instead of waiting for a move that never comes."""
        game = self.game_scene()
        if self.link is not None and game is not None and game.ctx.versus is not None:
            session = self.link.session
            if game.ctx.versus is session and not session.agreed:
                session.abandon()
            self.link.end_session()

    def suspend_game(self) -> bool:
        """Save the running game as its game's saved game; True if one was saved.
        A versus game is not stored: it cannot continue without its partner (lockstep); nor
        is a game that does not own its game's slot (another saved game waits there)."""
        scene = self.game_scene()
        if scene is None or scene.ctx.versus is not None:
            return False
        if not scene.owns_slot:
            log.warning(
                "%s is not saved: a saved game of it is waiting and is kept",
                scene.cartridge.title,
            )
            return False
        try:
            state = scene.game.save_state()
            meta = {"options": scene.ctx.options, "seed": scene.ctx.seed, "tick": self.tick}
            self.store.save_suspend(scene.cartridge.id, state, meta)
            self.saved.add(scene.cartridge.id)
        except Exception:
            log.exception("could not save the suspended game")
            return False
        return True

    def snapshot(self) -> dict[str, Any] | None:
        """The running game as a state slot (emulator save states); None outside a game."""
        scene = self.game_scene()
        if scene is None:
            return None
        return {
            "game": scene.cartridge.id,
            "options": dict(scene.ctx.options),
            "seed": scene.ctx.seed,
            "state": scene.game.save_state(),
        }

    def restore(self, slot: dict[str, Any]) -> None:
        """Continue from `snapshot()`; raises ValueError for a slot that does not fit."""
        try:
            game_id, options, state = slot["game"], slot["options"], slot["state"]
        except (KeyError, TypeError):
            raise ValueError("not a Twinfold state slot") from None
        game = self.game_scene()
        if game is not None and game.ctx.versus is not None:
            raise ValueError(
                "save states cannot be loaded during a link match (the partner's unit would"
                " disagree)"
            )
        self.start_game(game_id, options, state, seed=slot.get("seed"))

    def discard_suspend(self, game_id: str) -> None:
        """Forget `game_id`'s saved game (writing to the store only when there is one).
        Called only where the player agreed, or where the game it saved has finished."""
        if game_id in self.saved:
            self.store.clear_suspend(game_id)
            self.saved.discard(game_id)
            log.info("the saved game of %s was discarded", game_id)

    def saved_game_at_risk(self) -> str | None:
        """The running game's id when ending it (quit, restart) would discard its saved
        game, which the player must confirm first; else None."""
        scene = self.game_scene()
        if scene is None or not scene.owns_slot or scene.cartridge.id not in self.saved:
            return None
        return str(scene.cartridge.id)

    def record_result(self, game_id: str, result: GameResult, seed: int | None = None) -> None:
        self.store.record_result(game_id, result.outcome, result.score)
        log.info("%s: result recorded (%s)", game_id, result.outcome or "no winner")
        parts = self.link.seat_parts(game_id) if self.link is not None else None
        if parts is not None:  # a versus match: who played which part of each seat
            en, ja, stored = parts
            result = replace(
                result,
                summary=f"{result.summary} ({en})",
                summary_ja=f"{result.summary_ja or result.summary} ({ja})",
                record=None if result.record is None else {**result.record, "seat_parts": stored},
            )
        if result.record is not None:
            header: dict[str, Any] = {"summary": result.summary, "outcome": result.outcome}
            if result.summary_ja:
                header["summary_ja"] = result.summary_ja
            if seed is not None:
                header["seed"] = seed
            self.store.add_record(game_id, {**header, **result.record})
        scene = self.game_scene()
        if scene is not None and scene.cartridge.id == game_id and scene.owns_slot:
            self.discard_suspend(game_id)  # the saved game went on to this end
        self.store.backup("game")  # a safe moment: the store has just committed a result

    # ------------------------------------------------------------------------ the tick
    def step(self) -> None:
        if self.link is not None:  # every tick: also paused, closed or asleep
            self.link.tick(self.tick)
        raw = self.hal.input.poll(self.tick)
        was_off = self.lid_closed or self.asleep
        self._system_switches(raw)
        if raw.quit_requested:
            self.quit_requested = True
        if self.lid_closed or self.asleep or was_off:
            # While closed nothing runs; the opening tick only wakes the unit, so the first
            # frame after opening is exactly the last one before closing.
            self.tracker.reset()
            self.touch.reset()
        else:
            # Touch belongs to the physical lower panel (P-HW-1): with the screens swapped it
            # shows the top image, which has no targets, so the stylus is not passed on.
            touch = self.touch.process(raw.touch)
            if self.settings.swap:
                touch = None
            inp = self.tracker.next(self.tick, raw, touch)
            scene = self.scene
            if not scene.uses_dpad and self.cursor.engaged(inp):
                inp = self.cursor.filter(inp, self._hotspots(scene))
            self._guard(scene, scene.update, inp)
            if self.link is not None:
                self.system_scenes.watch_link(self)
        if self.battery.present:
            self._watch_battery()
        if self.wifi.active and self.wifi.tick(self.tick) and self.link is not None:
            self.link.radio.link.refresh()  # lan:// finds the network's interface anew
        self.tick += 1
        if self.scenes[-1].name != self._scene_logged:
            self._log_scene()

    def _log_scene(self) -> None:
        """The log says which screen the unit shows from which tick (what a person saw, for
        a bug report; what a test driving a real window waits for before its next tap)."""
        self._scene_logged = self.scenes[-1].name
        log.info("scene: %s at tick %d", self._scene_logged, self.tick)

    def _watch_battery(self) -> None:
        """Act on the battery monitor's events (firmware/battery.py): a low charge warns once;
        a critical one saves the game now and, after its banner was seen (at once when the
        screens are off), quits and asks for the shutdown."""
        event = self.battery.tick(self.tick)
        if event is not None:
            log.warning("battery %s: %d%%", event, self.battery.level or 0)
            off = self.lid_closed or self.asleep
            shown = 0 if off else BANNER_TICKS[event]
            self._battery_banner = (event, self.tick + shown)
            if event == "critical":
                self.suspend_game()
        banner = self._battery_banner
        if banner is not None and self.tick >= banner[1]:
            self._battery_banner = None
            if banner[0] == "critical":
                self.quit_requested = self.shutdown_requested = True

    def _system_switches(self, raw: RawInput) -> None:
        """Lid (P-HW-4) and the power button's short press: suspend, blank, resume."""
        if raw.lid_closed and not self.lid_closed:
            self.lid_closed = True
            self.suspend_game()
        elif not raw.lid_closed and self.lid_closed:
            self.lid_closed = False
        if raw.power_pressed and not self._power_was_down:
            self.asleep = not self.asleep
            if self.asleep:
                self.suspend_game()
        self._power_was_down = raw.power_pressed

    def render(self) -> None:
        if self.lid_closed or self.asleep:
            self.top.fill((0, 0, 0))
            self.bottom.fill((0, 0, 0))
            return
        scene = self.scene
        self._guard(scene, scene.draw, self.top, self.bottom)
        if scene is not self.scene:  # the draw crashed: show the error screen at once
            self.scene.draw(self.top, self.bottom)
            return
        if not scene.uses_dpad and self.cursor.visible:
            rect = self.cursor.rect(self._hotspots(scene))
            if rect is not None:
                widgets.cursor(self.bottom, rect, self.tick)
        if self.battery.present:
            self._draw_battery()

    def _draw_battery(self) -> None:
        """The icon (while the charge is known, on the system's own screens: a game owns all
        of its screens, so during play only the warnings show) and any warning, over the top
        screen."""
        monitor, policy = self.battery, self.battery.policy
        if monitor.level is not None and self.game_scene() is None:
            battery_gfx.draw_icon(
                self.top, monitor.level, monitor.charging, policy.low, policy.critical
            )
        if self._battery_banner is None:
            return
        level = monitor.level or 0
        if self._battery_banner[0] == "low":
            words = self.tr(
                f"Battery low: {level}%. Plug in the charger soon.",
                f"でんちが すくなく なりました ({level}%)。じゅうでん してください。",
            )
            battery_gfx.draw_banner(self.top, words, pal.ACCENT)
        else:
            words = self.tr(
                "Battery empty: the game is saved and the unit turns off.",
                "でんちが きれそうです。ゲームを セーブして でんげんを きります。",
            )
            battery_gfx.draw_banner(self.top, words, pal.DANGER)

    def present(self) -> None:
        if self.lid_closed or self.asleep:
            self.hal.display.blank()
            return
        upper, lower = (self.bottom, self.top) if self.settings.swap else (self.top, self.bottom)
        self.hal.display.present(upper, lower)

    def _hotspots(self, scene: Scene) -> dict[str, pygame.Rect]:
        try:
            return scene.hotspots()
        except Exception as exc:
            self._crash(scene, exc)
            return {}

    def _guard(self, scene: Scene, fn: Any, *args: Any) -> None:
        try:
            fn(*args)
        except Exception as exc:
            self._crash(scene, exc)

    def _start_failed(
        self, cartridge: Cartridge, exc: Exception, versus: Versus | None = None
    ) -> None:
        """A game that raised as it was made: logged, and the error screen over the launcher
        (as for a crash in play), wherever the start came from (the launcher, a boot game,
        a versus match, whose session is abandoned: the partners are told at once)."""
        trace = "".join(traceback.format_exception(exc))
        log.error("game %s failed to start at tick %d:\n%s", cartridge.id, self.tick, trace)
        self.last_error = trace
        if self.link is not None and versus is not None and versus is self.link.session:
            self.link.session.abandon()
            self.link.end_session()
        self.to_launcher(selected=cartridge.id)
        self.push(self.system_scenes.error(self, cartridge.title, exc))

    def _crash(self, scene: Scene, exc: Exception) -> None:
        """P-FW-3: log the trace, show the error screen over the launcher."""
        trace = "".join(traceback.format_exception(exc))
        log.error("scene %s crashed at tick %d:\n%s", scene.name, self.tick, trace)
        self.last_error = trace
        game = self.game_scene()
        where = game.cartridge.title if game is not None else scene.name
        # A saved game of the crashed game stays (an older point of it, or another game):
        # the launcher offers it again, and New game asks before discarding it.
        self.to_launcher(selected=game.cartridge.id if game is not None else None)
        self.push(self.system_scenes.error(self, where, exc))

    # ------------------------------------------------------------------- inspection
    def dump(self) -> dict[str, Any]:
        """P-DUMP: the state description written by `--dump`."""
        scene = self.scene
        game = self.game_scene()
        hotspots = self._hotspots(scene)
        return {
            "frame": self.tick,
            "seed": game.ctx.seed if game is not None else self.seed,
            "scene": scene.name,
            "hotspots": {name: [r.x, r.y, r.w, r.h] for name, r in hotspots.items()},
            "game": game.game.dump() if game is not None else scene.dump(),
            "cursor": self.cursor.current if self.cursor.visible else None,
            "lid": "closed" if self.lid_closed else "open",
            "asleep": self.asleep,
            "settings": self.settings.to_json(),
            "notice": self.notice.en if self.notice is not None else None,
            **({"link": self.link.dump()} if self.link is not None else {}),
            **({"battery": self._battery_dump()} if self._battery_known() else {}),
            **({"wifi": self.wifi.dump()} if self.wifi.state != "off" else {}),
        }

    def _battery_known(self) -> bool:
        """A battery was found (a unit whose gauge finds none dumps and draws as headless)."""
        return self.battery.present and (
            self.battery.level is not None or self._battery_banner is not None
            or self.shutdown_requested
        )

    def _battery_dump(self) -> dict[str, object]:
        return {
            "level": self.battery.level,
            "charging": self.battery.charging,
            "warning": self._battery_banner[0] if self._battery_banner is not None else None,
            "shutdown": self.shutdown_requested,
        }

    def frame_hash(self) -> str:
        """Digest of both logical screens (determinism checks)."""
        return screens_hash(self.top, self.bottom)


def screens_hash(top: pygame.Surface, bottom: pygame.Surface) -> str:
    """Digest of a pair of screens: `Machine.frame_hash`, also for frames shown elsewhere
    (the emulator's rewound frames, decoded clips)."""
    h = hashlib.blake2b(digest_size=16)
    h.update(pygame.image.tobytes(top, "RGB"))
    h.update(pygame.image.tobytes(bottom, "RGB"))
    return h.hexdigest()
