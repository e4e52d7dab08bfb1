"""Thousand's hard level: positions from played games where a sound player's choice is clear."""

from __future__ import annotations

from bot.ai.players import choose
from bot.ai.thousand.cards import mask_of_codes
from bot.ai.thousand.solver import Endgame
from bot.engine.thousand import ThousandGame


def test_hard_leads_the_only_card_that_can_still_make_the_contract() -> None:
    # Seat 1 bid 100, took the talon AC 9D, gave QD away and named 250. With 236
    # points and J♠ 9♦ 10♦ left, leading 9♦ fails in every layout it cannot tell
    # apart, J♠ makes the contract in some of them.
    hands = [
        ["9S", "TS", "KS", "9C", "JC", "JD", "KD", "AD", "9H", "JH"],
        ["JS", "TC", "QC", "KC", "TD", "QD", "TH", "QH", "KH", "AH"],
    ]
    game = ThousandGame.from_hands(
        hands, [["AC", "9D"], ["QS", "AS"]], dealer=0, totals=[-135, 200]
    )
    moves = "b100 pass t0 gQD0 k250 cTC c9C cQC cJC cQH c9H cKH cJH cTH c9S cAC cJD cAH cKS cKC cTS"
    for move in moves.split():
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, move)
    view = game.view(1)
    assert view["hand"] == ["JS", "9D", "TD"] and view["points"][1] == 236
    assert [choose(game, 1, "hard", seed=seed) for seed in range(3)] == ["cJS"] * 3


def test_endgame_counts_a_marriage_led_and_plays_the_defence_best() -> None:
    # Seat 0 (bidder) leads; K♥ Q♥ in hand: leading either declares hearts (100).
    hands = [mask_of_codes(["KH", "QH", "9S"]), mask_of_codes(["AS", "TS", "9H"])]
    endgame = Endgame(2, 0)
    king = mask_of_codes(["KH"]).bit_length() - 1
    nine = mask_of_codes(["9S"]).bit_length() - 1
    # K♥ declares 100 and takes the 9♥ (4). Q♥ next draws the defender's cheaper
    # spade (3 + 10), the 9♠ last loses; 9♠ next instead, the defender takes it with
    # the ace and leads the ten into the trump queen (3 + 10): 117 either way.
    assert endgame.after(hands, 0, -1, [], king) == 100 + 4 + 13
    # 9♠ first: the defender wins it and leads a spade before the bidder can declare;
    # hearts never become trump, and the bidder takes only the last trick (K♥ 9♥).
    assert endgame.after(hands, 0, -1, [], nine) == 4
