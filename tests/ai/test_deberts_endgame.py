"""Deberts endgames solved exactly: alpha-beta gives the values of a plain minimax."""

from __future__ import annotations

import pytest

from bot.ai.deberts.endgame import card_values
from bot.ai.deberts.knowledge import read_view
from bot.ai.deberts.outlook import Stakes
from bot.ai.deberts.search import table_for
from bot.ai.deberts.table import Table, Worth, deal_result
from bot.ai.players import choose
from bot.engine.cards import codes_to_mask, iter_mask
from bot.engine.deberts import Deberts, DebertsConventions


def _minimax(table: Table, me: int, worth: Worth | None = None) -> float:
    seat = table.turn
    if not table.hands[seat]:
        points = table.deal_points()
        return worth(points, table.bidder) if worth else deal_result(points, table.bidder, me)
    values = []
    for card in iter_mask(table.legal(seat)):
        child = table.copy()
        child.play(card)
        values.append(_minimax(child, me, worth))
    return max(values) if seat == me else min(values)


def _late_positions(seats: int, seed: int, cards_left: int) -> list[tuple[Deberts, int]]:
    """Positions of a game played by easy once each hand holds ``cards_left`` or fewer."""
    game = Deberts.new(seats, DebertsConventions(), seed=seed)
    found = []
    for step in range(2000):
        seat = game.current_seat()
        if seat is None:
            break
        hand = game.view(seat)["hand"]
        legal = [a for a in game.legal_actions(seat) if a.startswith("c")]
        if game.phase == "play" and len(hand) <= cards_left and len(legal) > 1:
            found.append((game.clone(), seat))
            if len(found) >= 6:
                break
        game.apply(seat, choose(game, seat, "easy", seed=step))
    return found


def _table(game: Deberts, seat: int) -> Table:
    """The table as it really lies: every hand filled in."""
    hands = [codes_to_mask(game.view(s)["hand"]) for s in range(game.seats)]
    return table_for(read_view(game.view(seat)), hands)


@pytest.mark.parametrize(("seats", "cards_left"), [(2, 4), (3, 3)])
def test_alpha_beta_finds_the_minimax_values(seats: int, cards_left: int) -> None:
    checked = 0
    for seed in range(6):
        for game, seat in _late_positions(seats, seed, cards_left):
            table = _table(game, seat)
            cards = list(iter_mask(table.legal(seat)))
            values, nodes = card_values(table, cards)
            expected = []
            for card in cards:
                child = table.copy()
                child.play(card)
                expected.append(_minimax(child, seat))
            assert values == pytest.approx(expected)
            assert nodes > 0
            checked += 1
    assert checked >= 10


def test_alpha_beta_is_exact_for_a_deal_valued_against_the_game() -> None:
    """Valued by the chance to win the game, near its end, a deal's leaves are no longer
    its margin; the search still returns the minimax values."""
    checked = differ = 0
    for seed in range(6):
        for game, seat in _late_positions(2, seed, 4):
            table = _table(game, seat)
            cards = list(iter_mask(table.legal(seat)))
            worth = Stakes(seat, [430, 470] if seat == 0 else [470, 430], 501).value
            values, _ = card_values(table, cards, worth)
            expected = []
            for card in cards:
                child = table.copy()
                child.play(card)
                expected.append(_minimax(child, seat, worth))
            assert values == pytest.approx(expected)
            differ += values != card_values(table, cards)[0]
            checked += 1
    assert checked >= 10
    assert differ
