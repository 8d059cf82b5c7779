"""Shadows (validation, moves) and their dual surfaces (counts, incidence, hideable parts)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.regions.rules.catalogue import CATALOGUE, PD_CODES
from games.regions.rules.generate import random_shadow
from games.regions.rules.shadow import (
    Shadow,
    ShadowError,
    add_bigon,
    add_curl,
    from_pd,
    opposite,
    rot,
)
from games.regions.rules.surface import Surface


def _assert_counts(surface: Surface) -> None:
    n = surface.crossings
    assert surface.point_count == n + 2
    assert len(surface.lines) == 2 * n
    assert surface.region_count == n
    for r in range(n):
        corners = surface.corners[r]
        assert len(corners) == 4  # a game region comes from a crossing: four corners
        walk = surface.region_walk[r]
        assert [p for p, _ in walk] == list(corners)
        for i, (p, line) in enumerate(walk):
            q = walk[(i + 1) % 4][0]
            assert {surface.lines[line].a, surface.lines[line].b} == {p, q}
    # every line borders two region sides and every point's degree is its face's size
    ends = [0] * surface.point_count
    for ln in surface.lines:
        ends[ln.a] += 1
        ends[ln.b] += 1
    assert ends == list(surface.degree)
    assert sum(surface.degree) == 4 * n
    for p, regions in enumerate(surface.touches):
        assert regions == {r for r in range(n) if p in surface.corners[r]}


def test_every_catalogue_surface_has_the_right_counts():
    assert len(CATALOGUE) >= 20
    sizes = {e.shadow.crossings for e in CATALOGUE}
    assert min(sizes) == 3 and max(sizes) == 10
    assert set(range(3, 11)) <= sizes
    for e in CATALOGUE:
        _assert_counts(Surface(e.shadow))


@settings(max_examples=300, deadline=None)
@given(st.integers(3, 15), st.integers(0, 2**32 - 1))
def test_random_shadows_have_the_right_counts(n, seed):
    shadow = random_shadow(n, random.Random(seed))
    assert shadow.crossings == n
    _assert_counts(Surface(shadow))


def test_random_shadows_depend_only_on_the_seed():
    a = random_shadow(11, random.Random(5))
    b = random_shadow(11, random.Random(5))
    assert a == b


def _walk_length(shadow: Shadow) -> int:
    seen, d = 0, 0
    while True:
        seen += 1
        d = opposite(shadow.link[d])
        if d == 0:
            return seen


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 10**6)), min_size=1, max_size=8))
def test_reidemeister_moves_keep_one_plane_curve(moves):
    shadow = from_pd(PD_CODES["3_1"])
    for curl, pick in moves:
        before = shadow.crossings
        if curl:
            shadow = add_curl(shadow, pick % len(shadow.link))
            assert shadow.crossings == before + 1
        else:
            d1 = pick % len(shadow.link)
            face = shadow.face_of[rot(d1)]
            others = [
                d
                for d in range(len(shadow.link))
                if shadow.face_of[rot(d)] == face and d not in (d1, shadow.link[d1])
            ]
            if not others:
                continue
            shadow = add_bigon(shadow, d1, others[pick % len(others)])
            assert shadow.crossings == before + 2
        assert len(shadow.faces) == shadow.crossings + 2
        assert _walk_length(shadow) == 2 * shadow.crossings


def test_pd_validation_rejects_links_and_bad_labels():
    hopf = [[1, 4, 2, 3], [3, 2, 4, 1]]  # two components
    with pytest.raises(ShadowError, match="one closed curve"):
        from_pd(hopf)
    with pytest.raises(ShadowError, match="occurs 3 times"):
        from_pd([[1, 1, 1, 2], [2, 3, 3, 2]])
    with pytest.raises(ShadowError, match="4"):
        from_pd([[1, 2, 3]])
    with pytest.raises(ShadowError):
        from_pd([])


def test_link_validation_rejects_non_planar_and_unpaired():
    with pytest.raises(ShadowError, match="paired"):
        Shadow((1, 0, 3, 3))
    with pytest.raises(ShadowError):
        Shadow((1, 2, 0, 3))
    # a Gauss word 1 2 1 2 realised with both crossings "the same way": not planar
    bad = (6, 4, 7, 5, 1, 3, 0, 2)
    with pytest.raises(ShadowError):
        Shadow(bad)


def test_curls_are_hideable_and_touch_their_region_once():
    surface = Surface(add_curl(from_pd(PD_CODES["4_1"]), 0))
    hidden = surface.hidden_points
    assert len(hidden) == 1
    (p,) = hidden
    assert surface.degree[p] == 1 and len(surface.touches[p]) == 1
    (line,) = surface.hidden_lines
    ln = surface.lines[line]
    assert p in (ln.a, ln.b)
    (region,) = surface.touches[p]
    corners = surface.corners[region]
    other = ln.b if ln.a == p else ln.a
    assert corners.count(other) == 2  # the region meets the curl's neighbour twice


def test_shadow_json_round_trip_and_errors():
    shadow = from_pd(PD_CODES["5_2"])
    assert Shadow.from_json(shadow.to_json()) == shadow
    for bad in (None, {"link": "x"}, {"link": [1, 0, "a", 2]}, {"link": [True, 0, 3, 2]}):
        with pytest.raises(ShadowError):
            Shadow.from_json(bad)
