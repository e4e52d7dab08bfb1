"""The shared core: card codes, bitmask sets, trick winners, legal plays, seeded dealing."""

from __future__ import annotations

import pytest

from bot.engine.cards import (
    CARDS,
    DECK_24,
    DECK_32,
    Card,
    Rank,
    Suit,
    codes_to_mask,
    iter_mask,
    mask_to_codes,
    parse_index,
)
from bot.engine.tricks import (
    NO_TRUMP,
    Obligations,
    Ranking,
    deal_seed,
    legal_plays,
    shuffled,
    trick_points,
    trick_winner,
)

DEBERTS = Ranking.build(
    "ATKQJ987",
    "J9ATKQ87",
    {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2},
    {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3},
)
DUTY = Obligations(overtrump_on_trump_lead=True)
C = Suit.CLUBS


def idx(*codes: str) -> list[int]:
    return [parse_index(c) for c in codes]


def legal(hand: str, trick: str, trump: int, duty: Obligations = DUTY) -> list[str]:
    mask = legal_plays(codes_to_mask(hand.split()), idx(*trick.split()), trump, DEBERTS, duty)
    return mask_to_codes(mask)


@pytest.mark.parametrize("card", CARDS)
def test_card_code_round_trips(card: Card) -> None:
    assert Card.parse(card.code) == card
    assert Card.from_index(card.index) == card
    assert parse_index(card.code) == card.index


def test_card_codes_read_rank_then_suit() -> None:
    assert Card.parse("TH") == Card(Rank.TEN, Suit.HEARTS)
    assert Card.parse("7S").index == 0
    assert Card.parse("AD").index == 2 * 8 + 7


@pytest.mark.parametrize("bad", ["", "T", "1H", "TX", "THH"])
def test_bad_card_codes_are_rejected(bad: str) -> None:
    with pytest.raises(ValueError):
        Card.parse(bad)


def test_masks_hold_sets_of_cards() -> None:
    mask = codes_to_mask(["AD", "7S", "TH"])
    assert mask_to_codes(mask) == ["7S", "AD", "TH"]
    assert list(iter_mask(mask)) == sorted(idx("AD", "7S", "TH"))
    assert DECK_32.bit_count() == 32
    assert DECK_24.bit_count() == 24
    with pytest.raises(ValueError):
        codes_to_mask(["7S", "7S"])


def test_plain_trick_goes_to_the_highest_card_of_the_led_suit() -> None:
    assert trick_winner(idx("KS", "AS", "AH"), C, DEBERTS) == 1
    assert trick_winner(idx("9S", "AH", "7S"), NO_TRUMP, DEBERTS) == 0


def test_any_trump_beats_the_led_suit() -> None:
    assert trick_winner(idx("AS", "7C", "TS"), C, DEBERTS) == 1


def test_trump_order_puts_jack_and_nine_on_top() -> None:
    assert trick_winner(idx("AC", "9C", "JC"), C, DEBERTS) == 2
    assert trick_winner(idx("AC", "9C"), C, DEBERTS) == 1
    assert trick_winner(idx("AS", "TS"), C, DEBERTS) == 0


def test_must_follow_suit() -> None:
    assert legal("7S AS KH JC", "TS", C) == ["7S", "AS"]


def test_void_in_the_led_suit_must_trump() -> None:
    assert legal("KH JC 7C", "TS", C) == ["7C", "JC"]


def test_void_of_led_suit_and_trump_plays_anything() -> None:
    assert legal("KH 7D", "TS", C) == ["7D", "KH"]


def test_trump_lead_must_be_beaten_when_possible() -> None:
    assert legal("7C AC JC", "9C", C) == ["JC"]
    assert legal("7C AC JC", "KC", C) == ["JC", "AC"]


def test_trump_lead_that_cannot_be_beaten_takes_any_trump() -> None:
    assert legal("7C AC", "JC", C) == ["7C", "AC"]


def test_no_overtrump_duty_when_a_plain_suit_was_led() -> None:
    assert legal("7C JC", "TS 9C", C) == ["7C", "JC"]


def test_overtrump_duty_is_an_obligation_parameter() -> None:
    assert legal("7C JC", "9C", C, Obligations()) == ["7C", "JC"]


def test_leader_may_play_anything() -> None:
    assert legal("7C JC AH", "", C) == ["7C", "JC", "AH"]


def test_trick_points_follow_the_trump() -> None:
    cards = codes_to_mask(["JC", "9C", "JS", "9S"])
    assert trick_points(cards, C, DEBERTS) == 20 + 14 + 2
    assert trick_points(DECK_32, C, DEBERTS) == 152


def test_deal_seed_differs_per_deal_and_repeats_per_game() -> None:
    assert deal_seed(7, 1) == deal_seed(7, 1)
    assert len({deal_seed(7, n) for n in range(50)}) == 50
    assert deal_seed(7, 1) != deal_seed(8, 1)


def test_shuffled_is_a_seeded_permutation() -> None:
    first = shuffled(DECK_32, 42)
    assert sorted(first) == list(range(32))
    assert shuffled(DECK_32, 42) == first
    assert shuffled(DECK_32, 43) != first
    assert sorted(shuffled(DECK_24, 1)) == list(iter_mask(DECK_24))
