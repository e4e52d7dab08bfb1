"""Thousand: the tallies settled at once agree with the full settlement written later."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.thousand import ThousandConventions, ThousandGame
from bot.engine.thousand.scoring import settle_deal, settle_tallies

_TOTALS = st.sampled_from([-600, -555, -300, -120, 0, 435, 555, 760, 875, 880, 995])


@settings(max_examples=400, deadline=None)
@given(
    seats=st.sampled_from([2, 3, 4]),
    data=st.data(),
    conceded=st.booleans(),
    golden=st.booleans(),
    penalty=st.booleans(),
    dump_truck=st.booleans(),
)
def test_settle_tallies_match_settle_deal(
    seats: int,
    data: st.DataObject,
    conceded: bool,
    golden: bool,
    penalty: bool,
    dump_truck: bool,
) -> None:
    bidder = data.draw(st.integers(0, seats - 1))
    contract = data.draw(st.sampled_from([100, 105, 120, 121, 160, 200, 300]))
    points = tuple(data.draw(st.lists(st.integers(0, 300), min_size=seats, max_size=seats)))
    tricks = data.draw(st.lists(st.integers(0, 3), min_size=seats, max_size=seats))
    totals = data.draw(st.lists(_TOTALS, min_size=seats, max_size=seats))
    bolts = data.draw(st.lists(st.integers(0, 2), min_size=seats, max_size=seats))
    barrel_seat = data.draw(st.sampled_from([None, *range(seats)]))
    if barrel_seat is not None:
        totals[barrel_seat] = 880
    attempts = data.draw(st.integers(0, 2)) if barrel_seat is not None else 0
    conv = ThousandConventions(concede_penalty=penalty, dump_truck=dump_truck)
    args = (bidder, contract, conceded, points, tricks, golden, conv)
    extra = {
        "sitting_out": data.draw(st.sampled_from([s for s in range(seats) if s != bidder]))
        if seats == 4
        else -1,
        "talon": data.draw(st.integers(0, 126)),
        "raised": data.draw(st.booleans()),
    }
    full = settle_deal(*args, totals[:], bolts[:], barrel_seat, attempts, **extra)
    assert settle_tallies(*args, totals[:], bolts[:], barrel_seat, attempts, **extra) == full[:5]


def test_rows_written_late_match_rows_read_every_deal() -> None:
    """A game read only at its end holds the same rows as one read after every action."""
    conv = ThousandConventions(redeal=True, golden_round=True, minus_limit=-1000)
    for seed in range(6):
        watched = ThousandGame.new(3 if seed % 2 else 2, conv, seed=seed)
        unread = ThousandGame.new(3 if seed % 2 else 2, conv, seed=seed)
        step = 0
        while watched.deal_no < 12 and (seat := watched.current_seat()) is not None:
            legal = watched.legal_actions(seat)
            action = legal[(step * 7919) % len(legal)]
            watched.apply(seat, action)
            unread.apply(seat, action)
            json.dumps(watched.to_json())
            step += 1
        assert unread.to_json() == watched.to_json()
        assert unread.scoresheet() == watched.scoresheet()
        assert len(unread.scoresheet().rows) >= 5
