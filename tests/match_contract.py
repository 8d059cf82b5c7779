"""The match-protocol contract every game's adapter passes (issue 10), shared by the games'
tests so all five are held to the same checks.

A game's test provides `make(seed) -> rules` (a fresh match, its shared randomness drawn from
`seed`) and `pick(rules, rng) -> action` (a random legal action of the seat to move).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware.match import MAX_ACTION_BYTES, ActionError, MatchRules

ROOT = Path(__file__).resolve().parents[1]

Make = Callable[[int], Any]
Pick = Callable[[Any, random.Random], Any]


def lockstep(make: Make, pick: Pick, seed: int, max_actions: int = 400) -> list[str]:
    """Random legal actions through the wire encoding into two independent instances: the
    same digest after every action, JSON round trips, every encoding within one frame.
    Returns the digest sequence."""
    a: MatchRules[Any] = make(seed)
    b: MatchRules[Any] = make(seed)
    rng = random.Random(seed)
    digests = [a.digest()]
    assert a.digest() == b.digest(), "two fresh instances from one seed differ"
    for _ in range(max_actions):
        seat = a.to_move()
        assert seat == b.to_move()
        if seat is None:
            assert a.result() is not None and a.result() == b.result()
            break
        assert a.result() is None
        action = pick(a, rng)
        assert a.check(seat, action) is None, f"picked an illegal action {action!r}"
        data = a.encode(action)
        assert isinstance(data, bytes) and 0 < len(data) <= MAX_ACTION_BYTES, data
        decoded = b.decode(data)
        assert b.encode(decoded) == data
        a.apply(seat, action)
        b.apply(seat, decoded)
        assert a.digest() == b.digest()
        clone = type(a).from_json(json.loads(json.dumps(a.to_json())))
        assert clone.digest() == a.digest()
        assert clone.to_move() == a.to_move()
        digests.append(a.digest())
    return digests


def refuses_garbage(rules: MatchRules[Any], data: bytes) -> None:
    """Arbitrary bytes are refused (ActionError or a reason) or are a legal action; a refused
    action changes nothing."""
    before = rules.digest()
    seat = rules.to_move()
    try:
        action = rules.decode(data)
    except ActionError:
        assert rules.digest() == before
        return
    if seat is None:
        assert rules.check(0, action) is not None
        return
    for other in range(rules.seats):
        if other == seat:
            continue
        assert rules.check(other, action) is not None, "an action out of turn was accepted"
        try:
            rules.apply(other, action)
        except ActionError:
            pass
        else:
            raise AssertionError("apply() accepted an action out of turn")
        assert rules.digest() == before
    if rules.check(seat, action) is not None:
        try:
            rules.apply(seat, action)
        except ActionError:
            pass
        else:
            raise AssertionError("apply() accepted an action check() refused")
        assert rules.digest() == before


def refuses_illegal(rules: MatchRules[Any], action: Any) -> None:
    """A well-formed action that check() refuses is refused by apply() and changes nothing."""
    seat = rules.to_move()
    if seat is None or rules.check(seat, action) is None:
        return
    before = rules.digest()
    try:
        rules.apply(seat, action)
    except ActionError:
        pass
    else:
        raise AssertionError(f"apply() accepted {action!r} that check() refused")
    assert rules.digest() == before


def digests_in_subprocess(factory: str, seed: int, actions: int, hashseed: str) -> list[str]:
    """Run `lockstep` in a fresh interpreter with PYTHONHASHSEED=`hashseed`.

    `factory` names a module-level function `(seed) -> (make, pick)`, e.g.
    `"tests.games.reversi.test_match:contract"`."""
    module, attr = factory.split(":")
    code = (
        "import json, importlib, sys\n"
        "from tests.match_contract import lockstep\n"
        f"make, pick = getattr(importlib.import_module({module!r}), {attr!r})()\n"
        f"print(json.dumps(lockstep(make, pick, {seed}, {actions})))\n"
    )
    env = dict(os.environ, PYTHONHASHSEED=hashseed, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=300, check=True,
    )
    return list(json.loads(out.stdout.strip().splitlines()[-1]))


def split_decision(computer: Any, rules: Any, seat: int) -> tuple[Any, list[int]]:
    """A split computer player's decision made in one process, every part thought to its
    end and then joined, with each part's work units: the compiled searches' tests compare
    it with and without the library."""
    parts = computer.split(rules, seat)
    assert parts is not None and all(part.native for part in parts)
    thinkers = [part.start(rules, seat) for part in parts]
    results = [t.think(1 << 40) for t in thinkers]
    while any(r is None for r in results):
        results = [t.think(1 << 40) for t in thinkers]
    return computer.join(rules, seat, results), [t.units for t in thinkers]
