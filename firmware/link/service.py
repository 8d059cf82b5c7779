"""The link as the machine sees it: one radio per unit, at most one versus session, ticked
once per machine tick (also under the pause menu and with the lid closed, so keep-alives
and retransmissions never stop), plus the `link` object of the state dump.

It is given the three things it reads (the store for its pairing keys, the settings for the
radio name, the machine's tick), not the machine."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from firmware.link.keyring import StoreKeyring
from firmware.link.radio import Radio
from firmware.link.session import GRACE_TICKS, Session, State
from firmware.settings import Settings
from firmware.storage import Store
from hal.interfaces import ByteLink

log = logging.getLogger("twinfold.link")

GOODBYE_TICKS = 45  # a unit switching off waits at most this long for its goodbye's ack
ANNOUNCE_TICKS = 240  # a seat that changed hands is announced over the game for 4 s


def default_name(unit: bytes) -> str:
    return f"Unit-{unit.hex()[:4].upper()}"


class LinkService:
    def __init__(
        self,
        link: ByteLink,
        store: Store,
        settings: Settings,
        tick: Callable[[], int],
        name: str = "",
    ) -> None:
        self._tick = tick  # the machine's tick now (the goodbye at shutdown is sent at it)
        keyring = StoreKeyring(store)
        self.radio = Radio(link, keyring, "")
        self.radio.name = name or settings.radio_name or default_name(self.radio.id)
        self.session: Session | None = None
        # the units gone from the last match, as (seat, name, why): kept after its session
        # ended (the notice and the dump still name them)
        self.gone: list[tuple[int, str, str]] = []
        self.auto_accept = False  # --accept-pairing: headless scripted runs only
        self.versus_plan: tuple[str, str, dict[str, str]] | None = None  # (role, game, opts)
        # ticks a lost unit's seat is waited for (--link-grace: tests wait less)
        self.grace_ticks = GRACE_TICKS
        # the latest seat that changed hands, announced over the game: (kind, seat, until tick)
        self.announced: tuple[str, int, int] | None = None

    def rename(self, name: str) -> None:
        self.radio.name = name or default_name(self.radio.id)

    def new_session(self) -> Session:
        self.end_session()
        self.gone = []
        self.announced = None
        self.session = Session(self.radio, grace_ticks=self.grace_ticks)
        return self.session

    def end_session(self) -> None:
        if self.session is not None:
            self.gone = self.session.gone() or self.gone
            self.session.close()
        self.session = None

    def shutdown(self, wait: Callable[[], None] | None = None) -> None:
        """The unit is switching off (the emulator's quit, the end of a headless run, the
        device's shutdown): abandon a running match and send the goodbye ("quit") now, and
        keep the radio going until the others acknowledged it, for at most GOODBYE_TICKS
        (a goodbye lost on the air would leave them to notice the silence, 2.5 s later,
        as a lost link). `wait` lets a tick's time pass (a sixtieth of a second; tests
        step their simulated air)."""
        s = self.session
        if s is None or s.agreed or s.state in (State.IDLE, State.ABANDONED):
            return
        s.abandon("quit")
        pause = wait or (lambda: time.sleep(1 / 60))
        tick = self._tick()
        for n in range(GOODBYE_TICKS):
            channels = [c for c in map(self.radio.peers.get, s.partners) if c is not None]
            for c in channels:
                c.rel.hurry()
            self.radio.tick(tick + n)
            if all(c.rel.pending == 0 or c.rel.lost for c in channels):
                break
            pause()

    def tick(self, tick: int) -> None:
        self.radio.tick(tick)
        if self.session is not None:
            self.session.tick()
            for kind, seat in self.session.news:
                who = self.session.name_of(seat)
                log.info("versus: announced on this unit: %s %s", kind, who)
                self.announced = (kind, seat, self._tick() + ANNOUNCE_TICKS)
            self.session.news.clear()
        pairing = self.radio.pairing
        if self.auto_accept and pairing is not None and pairing.code and not pairing.local_yes:
            pairing.confirm(True)

    def seat_parts(self, game_id: str) -> tuple[str, str, dict[str, Any]] | None:
        """A versus match of `game_id` whose seats changed hands (the computer took a gone
        unit's seat, or the unit took it back): the result's words for it in English and
        Japanese, and each seat's parts as [name or "computer", from action] for the
        record; None when every seat was played by its unit throughout."""
        s = self.session
        if s is None or s.game != game_id or not s.seat_parts:
            return None
        en, ja = [], []
        for seat, parts in sorted(s.seat_parts.items()):
            name = s.name_of(seat)
            en.append(f"{name}'s seat: " + ", ".join(
                f"{who or 'the computer'} from move {at + 1}" for who, at in parts
            ))
            ja.append(f"{name}の せき: " + "、".join(
                f"{at + 1}手めから {who or 'コンピュータ'}" for who, at in parts
            ))
        stored = {
            str(seat): [[who or "computer", at] for who, at in parts]
            for seat, parts in s.seat_parts.items()
        }
        return "; ".join(en), "、".join(ja), stored

    def dump(self) -> dict[str, Any]:
        s = self.session
        c = self.radio.counters
        pairing = self.radio.pairing
        state = "idle" if s is None else s.state.value
        if (
            pairing is not None
            and not pairing.done
            and (s is None or s.state in (State.HOSTING, State.LOOKING, State.PAIRING))
        ):
            state = "pairing"
        return {
            "state": state,
            "role": s.role if s is not None and s.role else None,
            "partner": (s.partner_name() or None) if s is not None else None,
            "code": pairing.code if pairing is not None and not pairing.done else None,
            "rtt_ms": s.rtt_ms() if s is not None else None,
            "frames": {"sent": c.sent, "received": c.received, "retransmitted": c.retransmitted},
            "rejected": dict(c.rejected),
            # the units gone from the match (left, or lost now), named, with why
            "gone": [
                {"seat": seat, "name": name, "why": why}
                for seat, name, why in (s.gone() if s is not None else self.gone)
            ],
            "name": self.radio.name,
            # issue 33: the seats the computer plays for units that are gone, the time left
            # before the wait for a lost unit ends, this unit offered its seat back, the
            # latest announcement, and whether this unit finishes a two-unit match alone
            "computer": sorted(s.standins) if s is not None else [],
            "time_left": s.time_left() if s is not None else None,
            "offered": bool(s is not None and s.offered),
            "announced": (
                {"kind": self.announced[0], "seat": self.announced[1]}
                if self.announced is not None else None
            ),
            "alone": bool(s is not None and s.alone),
            "grace_ticks": s.grace_ticks if s is not None else self.grace_ticks,
            "parts": {
                str(seat): [[who or "computer", at] for who, at in parts]
                for seat, parts in (s.seat_parts.items() if s is not None else [])
            },
        }
