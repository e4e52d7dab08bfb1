"""Deberts bot players: a few tactical decisions and the consistency of hard's sampling."""

from __future__ import annotations

import random

import pytest

from bot.ai.deberts import easy_policy, hard_policy
from bot.ai.deberts.knowledge import read_view
from bot.ai.deberts.sampling import sample_hands
from bot.ai.players import choose
from bot.engine.cards import SUIT_MASKS, codes_to_mask
from bot.engine.deberts import Deberts, DebertsConventions, from_decks, from_position, stacked_deck

BUDGET = 20.0


def _auction(seat_0: str, seat_1: str, open_card: str, dealer: int = 1) -> Deberts:
    first = [seat_0.split(), seat_1.split()]
    return from_decks(2, [stacked_deck(dealer, first, open_card)], dealer=dealer)


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_passes_a_hopeless_hand(level: str) -> None:
    game = _auction("7S 8C 9D 7H 8H QD", "AS AC JH 9H TD KC", "JC")
    assert game.current_seat() == 0
    assert choose(game, 0, level, seed=1, budget_ms=BUDGET) == "pass"
    game.apply(0, "pass")
    game.apply(1, "pass")
    assert game.phase == "bidding_2"
    assert choose(game, 0, level, seed=1, budget_ms=BUDGET) == "pass"


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_orders_a_strong_trump_hand(level: str) -> None:
    game = _auction("JS 9S AS TS AH TH", "7C 8C 9D 7H 8H QD", "7S")
    assert choose(game, 0, level, seed=1, budget_ms=BUDGET) == "play"


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_names_its_long_suit_in_round_two(level: str) -> None:
    game = _auction("JH 9H AH TH AC 7D", "7C 8C 9D 7S 8S QD", "KS")
    game.apply(0, "pass")
    game.apply(1, "pass")
    assert choose(game, 0, level, seed=1, budget_ms=BUDGET) == "tH"


def _following(hand_1: list[str], hand_0: list[str], lead: str, trump: str = "S") -> Deberts:
    game = from_position([hand_0, hand_1], dealer=1, trump=trump, bidder=0, open_card="7D")
    game.apply(0, "c" + lead)
    return game


def test_easy_takes_points_with_the_lowest_winning_card() -> None:
    game = _following(
        ["KH", "AH", "7C", "8C", "9C", "7S", "8S", "JD", "QD"],
        ["QH", "8H", "9H", "AC", "TC", "KC", "JS", "9S", "AS"],
        "QH",
    )
    assert choose(game, 1, "easy", seed=1) == "cKH"


def test_easy_throws_its_cheapest_card_when_it_cannot_win() -> None:
    game = _following(
        ["7C", "TC", "AD", "KD", "JD", "9H", "QH", "TD", "9D"],
        ["AH", "8H", "7H", "AC", "KC", "JS", "9S", "AS", "QC"],
        "AH",
    )
    assert choose(game, 1, "easy", seed=1) == "c9H"


def test_easy_ruffs_a_big_card_with_its_smallest_trump() -> None:
    game = _following(
        ["7C", "TC", "AD", "KD", "8S", "JS", "QC", "TD", "9D"],
        ["AH", "8H", "7H", "AC", "KC", "QS", "9S", "AS", "KH"],
        "AH",
    )
    assert choose(game, 1, "easy", seed=1) == "c8S"


@pytest.mark.parametrize("level", ["easy", "hard", "ismcts"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_takes_a_ten_with_the_ace_rather_than_give_it_away(level: str, seed: int) -> None:
    """At the first trick, so at twice the other tests' budget: at 20 ms the reference's
    random walks (about 145 of them here) miss the ten for two seeds of eight."""
    game = _following(
        ["AH", "7H", "7C", "TC", "AD", "KD", "8S", "QC", "9D"],
        ["TH", "8H", "KH", "AC", "KC", "JS", "9S", "AS", "QH"],
        "TH",
    )
    assert choose(game, 1, level, seed=seed, budget_ms=2 * BUDGET) == "cAH"


def test_easy_leads_the_master_trump_as_bidder() -> None:
    game = from_position(
        [
            ["JS", "9S", "7S", "AH", "TC", "8C", "9D", "8D", "KH"],
            ["AS", "TS", "KS", "QS", "7H", "8H", "AC", "KC", "QD"],
        ],
        dealer=1,
        trump="S",
        bidder=0,
        open_card="7D",
    )
    assert choose(game, 0, "easy", seed=3) == "cJS"


def test_hard_sampling_respects_what_the_seat_knows() -> None:
    """Sampled hands: right sizes, no card held/seen, voids and known cards respected."""
    conventions = DebertsConventions()
    for seed in range(8):
        game = Deberts.new(3, conventions, seed=seed)
        rng = random.Random(seed)
        for _ in range(60):
            seat = game.current_seat()
            if seat is None:
                break
            view = game.view(seat)
            if game.phase == "play":
                k = read_view(view)
                seen = k.hand | k.gone
                for card in (view["open_card"], view["bottom_card"]):
                    if card:
                        seen |= codes_to_mask([card])
                for _ in range(10):
                    hands = sample_hands(k, rng)
                    assert hands[seat] == k.hand
                    for other in range(3):
                        if other == seat:
                            continue
                        assert hands[other].bit_count() == view["hand_sizes"][other]
                        assert not hands[other] & seen
                        assert not hands[other] & k.voids[other]
                        assert hands[other] & k.known[other] == k.known[other]
                    assert not hands[0] & hands[1] and not hands[1] & hands[2]
                    assert not hands[0] & hands[2]
                # Every void the seat infers is true of the real hands.
                actual = game.to_json()["hands"]
                for other in range(3):
                    assert not codes_to_mask(actual[other]) & k.voids[other]
            game.apply(seat, easy_policy(view, random.Random(seed), 0.0))


def test_voids_are_inferred_from_play() -> None:
    game = _following(
        ["7C", "TC", "AD", "KD", "8S", "JS", "QC", "TD", "9D"],
        ["AH", "8H", "7H", "AC", "KC", "QS", "9S", "AS", "KH"],
        "AC",
    )
    for seat, code in [(1, "c7C"), (0, "cAH"), (1, "c8S")]:
        game.apply(seat, code)  # seat 0 wins the clubs and leads hearts; seat 1 must trump
    k0 = read_view(game.view(0))
    assert k0.voids[1] & SUIT_MASKS[3] == SUIT_MASKS[3]
    assert k0.voids[0] == 0
    view = game.view(game.current_seat() or 0)
    assert hard_policy(view, random.Random(2), BUDGET) in view["legal"]
