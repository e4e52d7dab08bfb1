"""Deberts bot players: legal in every phase, deterministic, reading only their own view."""

from __future__ import annotations

import random

import pytest

from bot.ai.deberts import easy_policy, hard_policy, ismcts_policy
from bot.ai.deberts.knowledge import read_view
from bot.ai.players import choose
from bot.engine.cards import codes_to_mask
from bot.engine.deberts import Deberts, DebertsConventions, from_position

LEVELS = ("easy", "hard", "ismcts")
# Search at a small budget keeps these tests fast; the logic is the same.
SMALL_BUDGET = 1.0


def _walk(seats: int, seed: int, conventions: DebertsConventions, steps: int) -> list[Deberts]:
    """Positions of one game driven by random legal actions."""
    game = Deberts.new(seats, conventions, seed=seed)
    rng = random.Random(seed)
    positions = []
    for _ in range(steps):
        seat = game.current_seat()
        if seat is None:
            break
        positions.append(game.clone())
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
    return positions


@pytest.mark.parametrize("seats", [2, 3])
@pytest.mark.parametrize(
    "conventions",
    [
        DebertsConventions(),
        DebertsConventions(order_obligatory=True, four_sevens_redeal=True, seven_swap=True),
        DebertsConventions(trump_in_combination="kharkov", seven_swap=False),
    ],
)
def test_every_decision_is_legal(seats: int, conventions: DebertsConventions) -> None:
    phases: set[str] = set()
    for seed in range(4):
        for game in _walk(seats, seed, conventions, steps=80):
            seat = game.current_seat()
            assert seat is not None
            legal = game.legal_actions(seat)
            phases.add(game.phase)
            for level in LEVELS:
                action = choose(game, seat, level, seed=seed, budget_ms=SMALL_BUDGET)
                assert action in legal, (level, game.phase, action, legal)
    assert {"bidding_1", "bidding_2", "play"} <= phases


@pytest.mark.parametrize("seats", [2, 3])
def test_bots_finish_whole_games(seats: int) -> None:
    game = Deberts.new(seats, DebertsConventions(target=301), seed=11)
    levels = ["hard", "easy", "easy"][:seats]
    for step in range(3000):
        seat = game.current_seat()
        if seat is None:
            break
        game.apply(seat, choose(game, seat, levels[seat], seed=step, budget_ms=SMALL_BUDGET))
    assert game.is_over and game.winner is not None


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_decision(level: str) -> None:
    for game in _walk(2, 4, DebertsConventions(), steps=40)[::3]:
        seat = game.current_seat()
        assert seat is not None
        first = choose(game, seat, level, seed=99, budget_ms=SMALL_BUDGET)
        again = choose(game.clone(), seat, level, seed=99, budget_ms=SMALL_BUDGET)
        assert first == again


SEAT_0 = ["AS", "TS", "KS", "7H", "8H", "AC", "TC", "AD", "TD"]
SEAT_1 = (
    ["JS", "9S", "AH", "TH", "7C", "8D", "KD", "QC", "9C"],
    ["QS", "8S", "9H", "AH", "JC", "7D", "9D", "9C", "JH"],
)


def _pair(played: int) -> tuple[Deberts, Deberts]:
    """Two deals that differ only in seat 1's hidden cards, after the same ``played`` cards."""
    games = []
    for hand in SEAT_1:
        game = from_position([SEAT_0, hand], dealer=1, trump="S", bidder=1, open_card="8C")
        for seat, code in [(0, "c7H"), (1, "cAH"), (1, "c9C")][:played]:
            game.apply(seat, code)
        games.append(game)
    return games[0], games[1]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("played", [0, 3])
def test_decision_depends_only_on_the_view(level: str, played: int) -> None:
    one, two = _pair(played)
    assert one.current_seat() == two.current_seat() == 0
    assert one.view(0) == two.view(0)
    for seed in range(4):
        assert choose(one, 0, level, seed=seed, budget_ms=SMALL_BUDGET) == choose(
            two, 0, level, seed=seed, budget_ms=SMALL_BUDGET
        )


def test_policies_take_only_a_view() -> None:
    one, _ = _pair(3)
    view = one.view(0)
    for policy in (easy_policy, hard_policy, ismcts_policy):
        assert policy(view, random.Random(1), SMALL_BUDGET) in view["legal"]


def test_knowledge_rebuilds_the_tricks_seen() -> None:
    one, _ = _pair(3)
    k = read_view(one.view(0))
    assert [[c for _, c in t] for t in k.history] == [[8 * 3 + 0, 8 * 3 + 7]]
    # Seat 1 followed hearts, so nothing is known void; the clubs lead is in the trick.
    assert k.trick == [(1, 8 * 1 + 2)]
    assert k.points == [0, 11]


def test_knowledge_reads_the_played_tricks_of_the_view() -> None:
    one, _ = _pair(3)
    view = one.view(0)
    view["last_trick"] = None  # the list of played tricks is enough
    k = read_view(view)
    assert k.points == [0, 11]
    assert k.gone == codes_to_mask(["7H", "AH", "9C"])
