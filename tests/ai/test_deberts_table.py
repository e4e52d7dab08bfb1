"""The Deberts search table's look-up tables against the engine's ranking of the cards."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.ai.deberts.heuristics import lowest_card
from bot.ai.deberts.table import beats, top_unplayed
from bot.engine.cards import iter_mask
from bot.engine.deberts.rules import RANKING

trumps = st.sampled_from([0, 1, 2, 3, -1])
cards = st.integers(0, 31)
masks = st.integers(0, (1 << 32) - 1)


@given(cards, cards, trumps)
def test_a_card_beats_the_best_by_following_higher_or_by_a_trump(
    card: int, best: int, trump: int
) -> None:
    if card >> 3 == best >> 3:
        expected = RANKING.strength(card, trump) > RANKING.strength(best, trump)
    else:
        expected = card >> 3 == trump
    assert beats(card, best, trump) == expected


@given(st.integers(0, 3), masks, trumps)
def test_the_top_unplayed_card_is_the_strongest_of_the_suit_not_gone(
    suit: int, gone: int, trump: int
) -> None:
    left = [c for c in range(suit * 8, suit * 8 + 8) if not gone >> c & 1]
    expected = max(left, key=lambda c: RANKING.strength(c, trump)) if left else -1
    assert top_unplayed(suit, gone, trump) == expected


@given(masks, trumps)
def test_the_lowest_card_gives_away_the_fewest_points_then_the_weakest_plain_card(
    mask: int, trump: int
) -> None:
    def cost(card: int) -> tuple[bool, int, int, int]:
        points, strength = RANKING.points(card, trump), RANKING.strength(card, trump)
        return card >> 3 == trump, points, strength, card

    held = list(iter_mask(mask))
    assert lowest_card(mask, trump) == (min(held, key=cost) if held else -1)
