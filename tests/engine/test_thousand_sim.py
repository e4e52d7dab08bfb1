"""Thousand: the bitmask simulator agrees with the engine on every random deal."""

from __future__ import annotations

import random

import pytest

from bot.engine.cards import codes_to_mask, iter_mask, parse_index
from bot.engine.thousand import GAME, ThousandConventions, ThousandGame
from bot.engine.thousand.playout import SimDeal, random_playout
from bot.engine.thousand.rules import DECK, DUTY, RANKING
from bot.engine.tricks import legal_plays, shuffled, trick_winner


def _play_to_card_play(game: ThousandGame, rng: random.Random) -> bool:
    """Random actions until the card play starts; False if the deal ended before it."""
    deal = game.deal_no
    while game.phase != "play":
        if game.deal_no != deal or game.is_over:
            return False
        seat = game.current_seat()
        assert seat is not None
        legal = [a for a in game.legal_actions(seat) if a not in ("concede", "redeal")]
        game.apply(seat, rng.choice(legal))
    return game.deal_no == deal


def _replay(seats: int, seed: int) -> int:
    rng = random.Random(seed)
    ace = rng.random() < 0.5
    game = GAME.new(seats, ThousandConventions(ace_marriage=ace), seed=seed)
    if not _play_to_card_play(game, rng):
        return 0
    state = game.to_json()
    out = state["dealer"] if seats == 4 else -1
    sim = SimDeal(state["hands"], state["to_act"], ace_marriage=ace, sitting_out=out)
    deal = game.deal_no
    tricks = 0
    while game.deal_no == deal:
        seat = game.current_seat()
        assert seat == sim.to_act
        legal = game.legal_actions(seat)
        assert codes_to_mask(code[1:] for code in legal) == sim.legal()
        state = game.to_json()
        trick = [card for _, card in state["trick"]]
        assert sim.legal() == legal_plays(
            state["hands"][seat], trick, state["trump"], RANKING, DUTY
        )
        action = rng.choice(legal)
        game.apply(seat, action)
        winner = sim.play(parse_index(action[1:]))
        if winner >= 0:
            tricks += 1
            view = game.view(None)
            last = view["last_trick"] if not sim.done else view["last_deal"]["last_trick"]
            assert last["winner"] == winner
            cards = [parse_index(e["card"]) for e in last["cards"]]
            assert last["cards"][trick_winner(cards, sim.trump, RANKING)]["seat"] == winner
            if not sim.done:
                assert game.view(None)["trump"] == (None if sim.trump < 0 else "SCDH"[sim.trump])
    assert sim.done
    assert game.scoresheet().rows[-1].notes["points"] == sim.points
    return tricks


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_simulator_agrees_with_the_engine_on_random_deals(seats: int) -> None:
    deals = 500 if seats == 4 else 1500
    tricks = sum(_replay(seats, seed) for seed in range(deals))
    assert tricks > deals * 2 // 3 * (11 if seats == 2 else 8)


def test_simulator_declares_marriages_after_the_first_lead_only() -> None:
    hands = [codes_to_mask(["KH", "QH"]), codes_to_mask(["9S", "TS"]), codes_to_mask(["9D", "TD"])]
    sim = SimDeal(hands, 0)
    sim.play(parse_index("KH"))
    assert sim.trump == -1
    later = SimDeal(hands, 0, first_lead_done=True)
    later.play(parse_index("KH"))
    assert later.trump == 3
    assert later.points[0] == 100


def test_random_playout_counts_all_card_points_with_three_players() -> None:
    draw = random.Random(5).random
    for seed in range(200):
        deck = shuffled(DECK, seed)
        hands = [0, 0, 0]
        for i, card in enumerate(deck):
            hands[i % 3] |= 1 << card
        points = random_playout(hands, seed % 3, draw)
        assert sum(points) >= 120
        assert (sum(points) - 120) % 20 == 0


def test_random_playout_plays_as_the_step_by_step_simulator() -> None:
    for seed in range(300):
        seats = 2 + seed % 3
        out = seed % 4 if seats == 4 else -1  # with four, the dealer sits out with no cards
        players = [s for s in range(seats) if s != out]
        deck = shuffled(DECK, seed)
        size = 11 if seats == 2 else 8
        hands = [0] * seats
        for i, card in enumerate(deck[: size * len(players)]):
            hands[players[i % len(players)]] |= 1 << card
        leader = players[seed % len(players)]
        fast = random_playout(
            hands, leader, random.Random(seed).random, ace_marriage=True, sitting_out=out
        )
        draw = random.Random(seed).random
        sim = SimDeal(hands, leader, ace_marriage=True, sitting_out=out)
        while not sim.done:
            options = list(iter_mask(sim.legal()))
            sim.play(options[int(draw() * len(options))])
        assert fast == sim.points


def test_simulator_trick_winner_matches_the_core() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        cards = rng.sample(list(iter_mask(DECK)), 3)
        trump = rng.choice([-1, 0, 1, 2, 3])
        hands = [1 << c for c in cards]
        sim = SimDeal(hands, 0, trump, first_lead_done=False)
        for card in cards:
            winner = sim.play(card)
        assert winner == trick_winner(cards, trump, RANKING)
