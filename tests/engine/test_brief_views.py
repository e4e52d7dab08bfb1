"""A brief view is the full view less its history; the row count and the last row are the
scoresheet's."""

from __future__ import annotations

import random

import pytest

from bot.engine import game_class
from bot.engine.base import HISTORY_KEYS

CASES = [("deberts", 2), ("deberts", 3), ("thousand", 2), ("thousand", 3)]


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_brief_views_and_rows_follow_the_full_ones(name: str, seats: int) -> None:
    rng = random.Random(f"{name}{seats}")
    game = game_class(name).new(seats, seed=rng.randrange(2**32))
    rows_seen = 0
    history = HISTORY_KEYS - ({"played_out"} if name == "deberts" else set())
    for _ in range(1500):
        counted = game.rows_scored  # before a full view or the scoresheet writes rows out
        last = game.last_row()
        for seat in [None, *range(seats), seats]:  # the table, each seat, a stranger
            full = game.view(seat)
            assert full.keys() >= history
            brief = game.view(seat, brief=True)
            assert brief == {k: v for k, v in full.items() if k not in HISTORY_KEYS}
        sheet = game.scoresheet()
        rows = len(sheet.rows)
        assert counted == game.rows_scored == rows
        assert last == (sheet.rows[-1] if rows else None)
        rows_seen = max(rows_seen, rows)
        if game.is_over:
            break
        to_act = game.current_seat()
        assert to_act is not None
        game.apply(to_act, rng.choice(game.legal_actions(to_act)))
    assert rows_seen >= 2  # deals were scored along the way
