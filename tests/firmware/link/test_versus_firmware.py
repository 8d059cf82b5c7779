"""Two firmware instances in one test, on simulated air: pairing, a whole Reversi game,
a link cut mid-game, and a divergence repaired from the host's state."""

from __future__ import annotations

import pygame
import pytest

from firmware.boot import BootConfig, boot
from firmware.link.session import State
from firmware.scenes.versus import LobbyScene, start_versus
from firmware.storage import Store
from games.reversi.robot import MachinePair as Pair
from games.reversi.robot import Robot
from hal.backends.headless import headless_hal
from hal.link.air import Impairments


@pytest.fixture(autouse=True)
def _pygame() -> None:
    pygame.init()


def test_two_units_pair_and_play_a_whole_reversi_game_over_lossy_air(tmp_path) -> None:  # type: ignore[no-untyped-def]
    imp = Impairments(
        baud=9600, loss=0.1, corrupt=0.002, dup=0.01, delay_ms=20, jitter_ms=10, seed=11
    )
    pair = Pair(tmp_path, imp)
    pair.start()
    host, guest = pair.machines
    assert host.dump()["game"]["seat"] == "black" and guest.dump()["game"]["seat"] == "white"
    assert host.dump()["link"]["partner"] == "Ken" and guest.dump()["link"]["partner"] == "Hana"
    pair.run(60 * 600, until=lambda: all(g.reported for g in pair.games()))
    a, b = pair.games()
    assert a.game.over and b.game.over
    assert a.game.position.rows() == b.game.position.rows()
    assert a.game.moves == b.game.moves and len(a.game.moves) > 8
    ra = host.store.list_records("reversi")
    rb = guest.store.list_records("reversi")
    assert len(ra) == len(rb) == 1
    assert ra[0].record["game"] == rb[0].record["game"]
    assert ra[0].record["result"] == rb[0].record["result"]
    assert ra[0].record["players"] == rb[0].record["players"] == {"black": "Hana", "white": "Ken"}
    sa, sb = host.store.get_stats("reversi"), guest.store.get_stats("reversi")
    assert sa["played"] == sb["played"] == 1
    outcomes = {ra[0].record["outcome"], rb[0].record["outcome"]}
    assert outcomes in ({"win", "loss"}, {"draw"})
    assert host.link.session.state is State.OVER and host.link.session.agreed


def test_a_link_cut_shows_waiting_on_both_and_play_resumes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pair = Pair(tmp_path, Impairments(baud=9600, delay_ms=20, seed=3))
    pair.start()
    pair.run(60 * 60, until=lambda: len(pair.games()[0].game.moves) >= 3)
    moves_before = len(pair.games()[0].game.moves)
    assert moves_before >= 3 and not pair.games()[0].game.over
    pair.medium.cut = True
    pair.run(60 * 10, draw=True)
    assert [m.scene.name for m in pair.machines] == ["waiting", "waiting"]
    assert [m.dump()["link"]["state"] for m in pair.machines] == ["waiting", "waiting"]
    pair.medium.cut = False
    pair.run(60 * 30, until=lambda: [m.scene.name for m in pair.machines] == ["reversi"] * 2)
    assert [m.scene.name for m in pair.machines] == ["reversi", "reversi"]
    pair.run(60 * 600, until=lambda: all(g.reported for g in pair.games()))
    a, b = pair.games()
    assert a.game.over and a.game.moves == b.game.moves


def test_a_divergence_is_detected_and_repaired_from_the_host(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pair = Pair(tmp_path, Impairments(baud=9600, delay_ms=20, seed=4))
    pair.start()
    pair.run(60 * 6)
    host, guest = pair.machines
    g = guest.game_scene().game
    pair.run(600, until=lambda: g.game.turn == "white" and len(g.game.moves) >= 5)
    # Corrupt the guest's state behind the match's back: two moves vanish (its turn still).
    from games.reversi.match import ReversiRules

    g.match.replace_rules(ReversiRules.from_json(_drop_moves(g.match.rules.to_json(), 2)))
    pair.run(60 * 600, until=lambda: all(x.reported for x in pair.games()))
    a, b = pair.games()
    assert a.game.moves == b.game.moves and a.game.over
    assert guest.link.session.resyncs + host.link.session.divergences >= 1


def _drop_moves(data, n):  # type: ignore[no-untyped-def]
    import copy

    out = copy.deepcopy(data)
    assert isinstance(out.get("moves"), list), out
    out["moves"] = out["moves"][:-n]
    return out


def test_an_illegal_action_from_the_paired_partner_is_refused_and_counted(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from firmware.link.session import ACTION

    pair = Pair(tmp_path, Impairments(baud=9600, delay_ms=20, seed=5))
    pair.start()
    host, guest = pair.machines
    hg, gg = pair.games()
    pair.robots[1].machine = None  # the guest's player stops; its radio will cheat instead
    pair.run(60 * 30, until=lambda: hg.game.turn == "white" and hg.anim is None)
    moves = list(hg.game.moves)
    illegal = next(sq for sq in ("a1", "h8", "a8", "h1", "d4") if not hg.game.is_legal(sq))
    index = len(hg.match.history)
    guest.link.radio.send(
        host.link.radio.id, b"A" + ACTION.pack(index, 1, bytes(6)) + illegal.encode()
    )
    pair.run(120)
    assert host.dump()["link"]["rejected"]["illegal"] >= 1
    assert hg.game.moves == moves  # nothing changed
    # the guest's own player takes over again and the game goes on to the same end
    pair.robots[1].machine = guest
    pair.run(60 * 600, until=lambda: all(g.reported for g in pair.games()))
    assert hg.game.over and hg.game.moves == gg.game.moves


def test_a_third_unit_on_the_channel_neither_disturbs_nor_joins(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pair = Pair(tmp_path, Impairments(baud=9600, delay_ms=20, seed=6))
    robot = Robot()
    hal = headless_hal(tmp_path / "third", robot)
    hal.link = pair.medium.attach()
    third = boot(
        hal,
        BootConfig(log=False, seed=0, show_boot=False, link_name="Mio"),
        store=Store.open_in_memory(),
    )
    third.link.auto_accept = True
    pair.start()
    pair.machines.append(third)
    start_versus(third, "join", "reversi", {})
    assert isinstance(third.scene, LobbyScene)
    third.scene.auto_join = True  # it would join the first host offering Reversi
    pair.run(60 * 600, until=lambda: all(g.reported for g in pair.games()[:2]))
    a, b = pair.games()[:2]
    assert a.game.over and a.game.moves == b.game.moves
    assert third.game_scene() is None and third.link.session.state is State.LOOKING
    assert not third.link.radio.paired()
    assert pair.machines[0].link.session.guests and len(pair.machines[0].link.session.guests) == 1


def test_a_closed_lid_keeps_the_link_alive_and_nothing_is_suspended(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from hal.interfaces import RawInput

    pair = Pair(tmp_path, Impairments(baud=9600, delay_ms=20, seed=12))
    pair.start()
    host, guest = pair.machines
    robot = pair.robots[1]
    closed = {"until": -1}

    def lidded(tick: int) -> RawInput:
        if tick < closed["until"]:
            return RawInput(lid_closed=True)
        return robot(tick)

    guest.hal.input.script = lidded
    pair.run(60 * 20, until=lambda: len(pair.games()[0].game.moves) >= 2)
    closed["until"] = pair.tick + 60 * 8  # eight seconds shut: longer than link-loss time
    pair.run(60 * 8)
    assert host.scene.name == "reversi" and host.dump()["link"]["state"] == "playing"
    assert guest.store.load_suspend() is None  # a versus game cannot resume alone
    pair.run(60 * 600, until=lambda: all(g.reported for g in pair.games()))
    a, b = pair.games()
    assert a.game.over and a.game.moves == b.game.moves


def test_quitting_a_versus_game_tells_the_partner_and_save_states_are_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pair = Pair(tmp_path, Impairments(baud=9600, delay_ms=20, seed=13))
    pair.start()
    host, guest = pair.machines
    slot = guest.snapshot()
    assert slot is not None
    with pytest.raises(ValueError, match="link match"):
        guest.restore(slot)
    guest.to_launcher()  # what Quit and Save and quit in the pause menu do
    assert guest.link.session is None
    # issue 33: the one left of two may finish against the computer, or leave
    pair.run(60 * 5, until=lambda: host.scene.name == "alone")
    assert host.scene.name == "alone" and host.scene.message.endswith("left the game.")
    host.scene.leave()
    assert host.game_scene() is None and host.link.session is None


def test_a_second_match_after_the_first_uses_the_stored_pairing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pair = Pair(tmp_path, Impairments(baud=9600, delay_ms=20, seed=14))
    pair.start()
    pair.run(60 * 600, until=lambda: all(g.reported for g in pair.games()))
    host, guest = pair.machines
    pairings_before = host.store.list_pairings()
    host.to_launcher()
    pair.run(30)
    guest.to_launcher()
    pair.run(200)
    for m in pair.machines:  # both drop their channel once the goodbyes are through
        m.link.auto_accept = False  # a second pairing would need a player now
    pair.start()
    pair.run(60 * 600, until=lambda: all(g.reported for g in pair.games()))
    a, b = pair.games()
    assert a.game.over and a.game.moves == b.game.moves
    assert host.store.list_pairings() == pairings_before
    assert len(host.store.list_records("reversi")) == 2


def test_units_rebooted_on_their_stores_play_again_without_pairing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Pair and play, switch both units off, boot them again on the same stores (new
    epochs, stored pairing) and play a second match; then only the guest reboots."""
    from firmware.testing import scripted_machine

    pair = Pair(tmp_path, Impairments(baud=9600, delay_ms=20, seed=15))
    pair.start()
    pair.run(60 * 600, until=lambda: all(g.reported for g in pair.games()))
    for m in pair.machines:
        m.link.shutdown()
        m.store.close()

    def reboot(index: int) -> None:
        robot = Robot()
        name = ("Hana", "Ken")[index]
        m = scripted_machine(tmp_path / name, robot, link=pair.medium.attach(), link_name=name)
        m.to_launcher()
        robot.machine = m
        pair.machines[index], pair.robots[index] = m, robot

    reboot(0)
    reboot(1)
    pair.medium.links[:] = pair.medium.links[2:]  # the old radios are switched off
    pair.start()
    pair.run(60 * 600, until=lambda: all(g.reported for g in pair.games()))
    a, b = pair.games()
    assert a.game.over and a.game.moves == b.game.moves
    for m in pair.machines:
        m.to_launcher()
    pair.run(200)
    pair.machines[1].store.close()
    pair.medium.links.remove(pair.machines[1].hal.link)
    reboot(1)
    pair.start()
    pair.run(60 * 600, until=lambda: all(g.reported for g in pair.games()))
    a, b = pair.games()
    assert a.game.over and a.game.moves == b.game.moves
    assert len(pair.machines[0].store.list_records("reversi")) == 3


def test_the_link_keeps_running_under_the_pause_menu(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from firmware.scenes.pause import PauseScene

    pair = Pair(tmp_path, Impairments(baud=9600, delay_ms=20, seed=16))
    pair.start()
    host, guest = pair.machines
    pair.run(60 * 20, until=lambda: len(pair.games()[0].game.moves) >= 2)
    guest.push(PauseScene(guest, guest.game_scene()))
    sent = guest.link.radio.counters.sent
    pair.run(60 * 6)  # longer than link-loss detection
    assert guest.scene.name == "pause" and host.scene.name == "reversi"
    assert host.dump()["link"]["state"] == "playing"
    assert guest.link.radio.counters.sent > sent  # acks and keep-alives went on
    guest.pop()
    pair.run(60 * 600, until=lambda: all(g.reported for g in pair.games()))
    a, b = pair.games()
    assert a.game.over and a.game.moves == b.game.moves


def test_the_pause_menu_of_a_match_only_resumes_or_leaves_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A versus match is neither restarted (it went on as a local game while the partner
    played on) nor saved (nothing was) on one unit: its pause menu offers Resume and
    Leave, and leaving tells the partner."""
    from firmware.scenes.pause import PauseScene

    pair = Pair(tmp_path, Impairments(baud=9600, delay_ms=20, seed=18))
    pair.start()
    host, guest = pair.machines
    pair.run(60 * 20, until=lambda: len(pair.games()[0].game.moves) >= 2)
    guest.push(PauseScene(guest, guest.game_scene()))
    assert [item.key for item in guest.scene.items] == ["resume", "quit"]
    guest.scene.quit()
    assert guest.scene.name == "launcher" and guest.link.session is None
    pair.run(60 * 10, until=lambda: host.scene.name == "alone")  # finish alone, or leave
    assert host.scene.name == "alone"
    host.scene.leave()
    assert host.game_scene() is None


def test_abandoning_while_the_link_is_cut_reaches_the_partner_when_it_returns(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pair = Pair(tmp_path, Impairments(baud=9600, delay_ms=20, seed=17))
    pair.start()
    host, guest = pair.machines
    pair.run(60 * 60, until=lambda: len(pair.games()[0].game.moves) >= 3)
    pair.medium.cut = True
    pair.run(60 * 4, until=lambda: host.scene.name == "waiting" and guest.scene.name == "waiting")
    assert host.scene.name == "waiting"
    host.scene.abandon()  # the host's player gives up; the goodbye cannot get through
    pair.run(60 * 5)  # the host's unit stops trying
    assert host.scene.name == "launcher" and guest.scene.name == "waiting"
    pair.medium.cut = False
    pair.run(60 * 10, until=lambda: guest.scene.name == "alone")  # finish alone, or leave
    assert guest.scene.name == "alone" and "Hana (the host)" in guest.scene.message
    guest.scene.leave()
    assert guest.game_scene() is None and guest.link.session is None
