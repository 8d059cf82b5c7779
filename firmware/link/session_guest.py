"""The guest's side of a versus session: looking for a host, joining, committing and
revealing its random, proposing its actions in a sealed game and checking the host's game
at the end (firmware/link/session.py says how a session works).
"""

from __future__ import annotations

import json
import logging
import zlib
from typing import Any

from firmware.link.packet import LINK_PROTOCOL, Beacon
from firmware.link.session_codec import (
    ACTION,
    DIGEST_BYTES,
    SEAT,
    State,
    chunks,
    commit_of,
    seed_of,
)
from firmware.link.session_departures import Departures
from firmware.match import ActionError, Played, SealedView

log = logging.getLogger("twinfold.link")


class GuestSide(Departures):
    """The guest's messages and duties (the match it drives is the core's)."""

    def look(self, game: str, rules_version: int = 1) -> None:
        self.role, self.game, self.state = "guest", game, State.LOOKING
        self.rules_version = rules_version

    def hosts(self) -> list[Beacon]:
        """Nearby units offering this session's game with a free seat (also those this unit
        cannot play with: `mismatch` says which, and the lobby shows them so)."""
        return [
            b
            for b in self.radio.nearby_units()
            if b.hosting and b.game == self.game and b.seats_free
        ]

    def mismatch(self, beacon: Beacon) -> str | None:
        """Why this unit cannot play with the host of `beacon` ("version"), or None."""
        if beacon.protocol != LINK_PROTOCOL or beacon.rules != self.rules_version:
            return "version"
        return None

    def join(self, host: bytes) -> bool:
        """Join a host; False if not paired with it yet (pair first) or if it needs another
        version (then `failure` says so)."""
        if host not in self.radio.paired():
            return False
        seen = self.radio.nearby.get(host)
        if seen is not None and self.mismatch(seen[0]) is not None:
            self._fail("version")
            return False
        self.failure, self.note = "", ""
        self.host, self.state = host, State.JOINING
        self._joined_at = self.radio.tick_no
        self.radio.connect(host)
        self._send_join()
        return True

    def _send_join(self) -> None:
        assert self.host is not None
        versions = bytes([LINK_PROTOCOL, self.rules_version & 0xFF])
        self.radio.send(self.host, b"J" + versions + self.game.encode())

    def commits_known(self) -> bool:
        """A guest: the host has everyone it starts with (its random or every commitment
        arrived), so the start is under way."""
        return bool(self._host_reveal or self._commits)

    def _guest_message(self, kind: bytes, body: bytes) -> None:
        if kind == b"W":
            if body[3] != LINK_PROTOCOL or body[4] != self.rules_version:
                assert self.host is not None
                self.radio.send(self.host, b"B")
                self._look_again("version")
                return
            self._logged = ""  # welcomed: a later failure is news again
            self.seat, self.seats, self.sealed = body[0], body[1], bool(body[2] & 1)
            self._host_commit = body[5:21]
            self.options = {str(k): str(v) for k, v in json.loads(body[21:]).items()}
            assert self.host is not None
            self.rejoined = bool(body[2] & 2) and self.sealed  # back into a running match
            if not self.rejoined:
                self.radio.send(self.host, b"C" + commit_of(self._secret))
        elif kind == b"R" and self.sealed:
            commits = chunks(body)
            mine = commit_of(self._secret)
            ours = self.rejoined or (self.seat is not None and self.seat < len(commits)
                                     and commits[self.seat] == mine)
            if not (commits and commits[0] == self._host_commit and ours):
                self.radio.reject("illegal", "the commitments leave out ours or the host's")
                return
            self._commits, self.seats = commits, len(commits)
            assert self.host is not None
            if not self.rejoined:  # a unit joining again had its random in its last life
                self.radio.send(self.host, b"V" + self._secret)
        elif kind == b"G" and self.sealed:
            if self._commits:
                self._start([b"public", *self._commits])
        elif kind == b"N":
            names = json.loads(body)
            if not (isinstance(names, list) and len(names) <= 4
                    and all(isinstance(n, str) and len(n) <= 24 for n in names)):
                raise ValueError("unit names are a list of up to 4 short strings")
            self.names = names
        elif kind == b"U" and self.sealed:
            self._reveals = chunks(body)
            self._check_over()
        elif kind == b"R":
            if commit_of(body) != self._host_commit:
                self.radio.reject("illegal", "the host's random does not match its commitment")
                return
            self._host_reveal = body
            assert self.host is not None
            self.radio.send(self.host, b"V" + self._secret)
        elif kind == b"G":
            reveals = chunks(body)
            if not reveals or reveals[0] != self._host_reveal or self._secret not in reveals:
                self.radio.reject("illegal", "the agreed randoms leave out ours or the host's")
                return
            self.seats = len(reveals)  # the host may have started with fewer units
            self._start(reveals)
        elif kind == b"L":
            self._reported_lost = sorted(set(body) & set(range(1, self.seats)))
            for seat in [s for s in self.countdown if s and s not in self._reported_lost]:
                del self.countdown[seat]  # back before the computer took its seat
        elif kind in (b"T", b"H"):
            self._seat_news(kind, *SEAT.unpack_from(body))
        elif kind == b"O":
            self.offered = True
            log.info("versus: the host offers this unit its seat back")
        elif kind == b"A":
            self._action(body)
        elif kind == b"S":
            k, n = body[0], body[1]
            self._parts[k] = body[2:]
            if len(self._parts) == n and all(i in self._parts for i in range(n)):
                blob = b"".join(self._parts[i] for i in range(n))
                self._parts.clear()
                self._adopt(blob)
        elif kind == b"E":
            assert self.host is not None
            self._final[self.host] = body[:DIGEST_BYTES]
            self._settle_result()

    def _propose(self, action: Any) -> None:
        """A sealed guest's own action goes to the host, which applies it and echoes it."""
        if self.match is None or self.host is None or self.seat is None:
            return
        if self.seat in self.standins:
            return  # the computer plays this seat until the host hands it back
        queued = sum(len(r.inbox) for r in self._remote.values())
        head = ACTION.pack(len(self.match.history) + queued, self.seat, bytes(DIGEST_BYTES))
        self.radio.send(self.host, b"P" + head + self.match.rules.encode(action))

    def _unseal(self) -> bool:
        """A sealed guest at the end: check the randoms against the commitments, deal the
        game again, replay every action through the whole rules, and compare with what this
        unit saw; on success adopt the whole game (the record shows every hand)."""
        if self._unsealed():
            return True
        if not self._reveals or self.match is None or self.cheated:
            return False
        view = self.match.rules
        reason = self._check_reveals()
        full: Any = None
        history: list[Played] = []
        if reason is None and (self.dealer is None or not isinstance(view, SealedView)):
            reason = "this game cannot check the host's deal"
        if reason is None:
            assert isinstance(view, SealedView)
            self.deal_seed = seed_of(self._reveals)
            full = self.dealer(self.deal_seed)
            try:
                for p in self.match.history:
                    data = view.plain(p.data)
                    action = full.decode(data)
                    why = full.check(p.seat, action)
                    if why is not None:
                        raise ActionError(f"action {len(history)} of seat {p.seat}: {why}")
                    full.apply(p.seat, action)
                    # the digest this unit compared (the public one): a whole-game digest
                    # per action would cost most of the check, and nothing reads them now
                    history.append(Played(p.seat, data, p.digest))
            except ActionError as exc:
                reason = str(exc)
            reason = reason or view.unseal(full)
        if reason is not None:
            self.cheated = True
            self.abandon()  # the host is told; the result is not recorded
            self.note = f"the host's game does not check out: {reason}"
            log.warning("versus: %s", self.note)
            self.radio.reject("illegal", self.note)
            return False
        self.match.replace_rules(full)
        self.match.history = history
        return True

    def _unsealed(self) -> bool:
        return self.match is not None and not isinstance(self.match.rules, SealedView)

    def _check_reveals(self) -> str | None:
        if len(self._reveals) != len(self._commits) or not self._commits:
            return "the host revealed a different number of randoms"
        if any(commit_of(r) != c for r, c in zip(self._reveals, self._commits, strict=True)):
            return "a revealed random does not match its commitment"
        if self.seat is None or (not self.rejoined and self._reveals[self.seat] != self._secret):
            return "the revealed randoms leave out ours"
        return None

    def _take_opening(self, blob: bytes) -> None:
        try:
            data = json.loads(zlib.decompress(blob))
            if not isinstance(data, dict) or not isinstance(data.get("rules"), dict):
                raise ValueError("not a saved match")
        except (ValueError, zlib.error) as exc:
            self.radio.reject("illegal", f"the host's deal did not load: {exc}")
            return
        self.opening = data

    def _look_again(self, why: str) -> None:
        """A guest whose host never answered, refused or went away before the start looks
        again; `failure` (shown in the lobby, logged) says why."""
        self.state = State.LOOKING
        self._fail(why)
        if self.host is not None:
            self.radio.disconnect(self.host)
        self.host, self.seat, self._host_commit, self._host_reveal = None, None, b"", b""
        self._commits, self._reveals = [], []

    # ------------------------------------------------- seats of units that are gone
    def _seat_news(self, kind: bytes, seat: int, wait: int, index: int) -> None:
        """The host's word about a seat: the computer takes it in `wait` ticks, or plays it
        from action `index` (`T`); its unit plays it again from action `index` (`H`)."""
        if not 0 < seat < self.units:
            raise ValueError(f"seat {seat} is not another unit's")
        if kind == b"T" and wait:
            self.countdown[seat] = self.radio.tick_no + wait
            return
        self.countdown.pop(seat, None)
        if kind == b"T":
            self.standins[seat] = index
            self._part(seat, "", index)
            log.info(
                "versus: the computer plays %s's seat (seat %d) from action %d",
                self.name_of(seat), seat, index,
            )
        else:
            self.standins.pop(seat, None)
            self.departed.pop(seat, None)
            self._part(seat, self.name_of(seat), index)
            log.info("versus: %s plays its seat again from action %d", self.name_of(seat), index)
            if seat == self.seat:
                self.offered = False
        if seat != self.seat:
            self.news.append(("takeover" if kind == b"T" else "back", seat))

    def accept_seat(self) -> bool:
        """Yes to the host's offer: this unit plays its seat again from the next turn
        boundary (the host sends its state first)."""
        if not self.offered or self.host is None:
            return False
        self.offered = False
        log.info("versus: taking the seat back")
        self.radio.send(self.host, b"Y")
        return True

    def _watch_host(self) -> None:
        """A guest whose host is lost waits twice the grace period for it, with the time
        left shown; then the match is over for it (the host holds the deal), or, two
        units, it may finish alone."""
        if self.host is None:
            return
        if not self._lost(self.host):
            self.countdown.pop(0, None)
            return
        now = self.radio.tick_no
        if 0 not in self.countdown:
            self.countdown[0] = now + 2 * self.grace_ticks
        elif now >= self.countdown[0]:
            del self.countdown[0]
            self._depart(0, "lost")
            self._partner_gone("host_gone")
