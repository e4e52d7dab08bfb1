"""Thousand bot players at a table of four: the three playing a deal play it as three."""

from __future__ import annotations

import random

import pytest

from bot.ai.players import choose
from bot.ai.thousand.four import three_seat_view
from bot.engine import new_game
from bot.engine.thousand import ThousandConventions, from_hands
from bot.sim import MatchSpec, main, play_game

HANDS = [
    ["9S", "TS", "JS", "QS", "9C", "TC", "JC"],
    ["KS", "AS", "QC", "KD", "9D", "TD", "9H"],
    ["KC", "AC", "JD", "QD", "AD", "TH", "JH"],
]
TALON = [["QH", "KH", "AH"]]


def _to_four(code: str, real: list[int]) -> str:
    return code[:3] + str(real[int(code[3])]) if code[:1] == "g" else code


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_a_four_seat_view_read_as_three_is_the_three_player_deal(dealer: int) -> None:
    """The same cards dealt to three players, and to the three playing at a table of
    four: every view of the four, read as three, is the view at the table of three."""
    conventions = ThousandConventions(show_talon_on_hundred=False)
    three = from_hands(HANDS, TALON, dealer=2, conventions=conventions)
    real = [(dealer + k) % 4 for k in (1, 2, 3)]
    four_hands: list[list[str]] = [[], [], [], []]
    for i, seat in enumerate(real):
        four_hands[seat] = HANDS[i]
    four = from_hands(four_hands, TALON, dealer=dealer, conventions=conventions)
    rng = random.Random(dealer)
    steps = 0
    while three.deal_no == 1:
        seat = three.current_seat()
        assert seat is not None and four.current_seat() == real[seat]
        for i in range(3):
            seen, seating = three_seat_view(four.view(real[i]))
            assert seating == real
            assert seen == {**three.view(i), "last_deal": None, "played_out": None}
        # played out to the last trick: no conceding, no redeal
        action = rng.choice(
            [a for a in three.legal_actions(seat) if a not in ("concede", "redeal")]
        )
        three.apply(seat, action)
        four.apply(real[seat], _to_four(action, real))
        steps += 1
    assert steps > 25
    row3, row4 = three.scoresheet().rows[0], four.scoresheet().rows[0]
    assert [row4.deltas[s] for s in real] == list(row3.deltas)


def test_every_level_plays_a_table_of_four_legally() -> None:
    phases = set()
    for seed in range(2):
        game = new_game("thousand", 4, seed=seed)
        rng = random.Random(seed)
        for step in range(220):
            seat = game.current_seat()
            assert seat is not None and seat != game.dealer
            level = rng.choice(["easy", "hard", "random"])
            action = choose(game, seat, level, seed=step, budget_ms=4.0)
            assert action in game.legal_actions(seat)
            phases.add(game.phase)
            game.apply(seat, action)
    assert {"auction", "give", "contract", "play"} <= phases


def test_the_match_runner_seats_four_levels_for_thousand_only() -> None:
    record = play_game(MatchSpec("thousand", ("hard", "easy", "easy", "easy"), 3, 1, budget_ms=2))
    assert record.seat_levels == ("easy", "hard", "easy", "easy")
    assert len(record.totals) == 4 and record.winner is not None
    assert record.totals[record.winner] >= 1000
    with pytest.raises(SystemExit):
        main(["--game", "deberts", "--levels", "easy,easy,easy,easy", "--games", "1"])
