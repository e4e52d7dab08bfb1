"""Thousand bot players: legal in every phase, deterministic, reading the view only."""

from __future__ import annotations

import random

import pytest

from bot.ai.players import choose, random_policy
from bot.ai.thousand.cards import SUIT, mask_of_codes
from bot.ai.thousand.easy import easy_policy
from bot.ai.thousand.hard import hard_policy
from bot.ai.thousand.knowledge import read
from bot.ai.thousand.sampling import sample_hands
from bot.engine import new_game
from bot.engine.thousand import ThousandGame

BUDGET = 4.0  # a small budget: the least work the hard level does


def _run(seats: int, seed: int, levels: tuple[str, ...], max_steps: int) -> list[str]:
    """Play ``max_steps`` actions (or to the end); every bot decision must be legal."""
    game = new_game("thousand", seats, seed=seed)
    phases = []
    rng = random.Random(seed)
    for step in range(max_steps):
        seat = game.current_seat()
        if seat is None:
            break
        level = levels[seat]
        legal = game.legal_actions(seat)
        if level == "mixed":
            level = rng.choice(["easy", "hard", "random"])
        action = choose(game, seat, level, seed=seed * 1000 + step, budget_ms=BUDGET)
        assert action in legal, (game.phase, action, legal)
        phases.append(game.phase)
        game.apply(seat, action)
    return phases


@pytest.mark.parametrize("seats", [2, 3])
def test_easy_plays_whole_games_legally(seats: int) -> None:
    for seed in range(3):
        phases = _run(seats, seed, ("easy",) * seats, 5000)
        assert {"auction", "give", "contract", "play"} <= set(phases)


@pytest.mark.parametrize("seats", [2, 3])
def test_every_level_decides_every_phase_legally(seats: int) -> None:
    seen: set[str] = set()
    for seed in range(2):
        seen |= set(_run(seats, 100 + seed, ("mixed",) * seats, 260))
    expected = {"auction", "give", "contract", "play"} | ({"talon"} if seats == 2 else set())
    assert expected <= seen


def test_redeal_and_concede_decisions_are_legal() -> None:
    # a hand of four nines lets its holder ask for a redeal after the give-away
    hands = [
        ["9S", "9C", "9D", "9H", "JS", "JC", "JD", "QS", "QC", "KS"],
        ["AS", "TS", "AC", "TC", "AD", "TD", "AH", "TH", "KH", "QH"],
    ]
    talons = [["KC", "KD"], ["QD", "JH"]]
    for level in ("easy", "hard"):
        game = ThousandGame.from_hands(hands, talons, dealer=1)
        # seat 0 opens at 100, seat 1 (strong) outbids
        game.apply(0, "b100")
        game.apply(1, choose(game, 1, level, seed=1, budget_ms=BUDGET))
        while game.phase in ("auction", "talon", "give", "redeal", "contract"):
            seat = game.current_seat()
            assert seat is not None
            action = choose(game, seat, level, seed=2, budget_ms=BUDGET)
            assert action in game.legal_actions(seat)
            game.apply(seat, action)


def _mid_play_game(seats: int, seed: int, plays: int) -> ThousandGame:
    game = ThousandGame.new(seats, seed=seed)
    step = 0
    while game.phase != "play" or plays > 0:
        seat = game.current_seat()
        assert seat is not None
        if game.phase == "play":
            plays -= 1
        game.apply(seat, choose(game, seat, "easy", seed=step))
        step += 1
    return game


@pytest.mark.parametrize("level", ["easy", "hard"])
@pytest.mark.parametrize("seats", [2, 3])
def test_same_seed_same_decision(level: str, seats: int) -> None:
    game = _mid_play_game(seats, seed=11, plays=5)
    seat = game.current_seat()
    assert seat is not None
    first = choose(game, seat, level, seed=99, budget_ms=20)
    again = choose(game.clone(), seat, level, seed=99, budget_ms=20)
    assert first == again


def _two_deals_same_view() -> tuple[ThousandGame, ThousandGame]:
    """Seat 0 holds the same cards; the opponents' hidden cards differ."""
    mine = ["AS", "TS", "KS", "QS", "AC", "9C", "KH", "QH", "9D", "JD", "TH"]
    rest_a = ["9S", "JS", "TC", "KC", "QC", "JC", "AD", "TD", "KD", "QD", "AH"]
    rest_b = ["9S", "JS", "TC", "KC", "QC", "JC", "AD", "TD", "KD", "9H", "AH"]
    a = ThousandGame.from_play([mine, rest_a], bidder=0, contract=120, first_lead_done=True)
    b = ThousandGame.from_play([mine, rest_b], bidder=0, contract=120, first_lead_done=True)
    return a, b


def test_decisions_read_the_view_only() -> None:
    a, b = _two_deals_same_view()
    assert a.view(0) == b.view(0)
    for level in ("easy", "hard"):
        first = choose(a, 0, level, seed=5, budget_ms=20)
        assert first == choose(b, 0, level, seed=5, budget_ms=20)


@pytest.mark.parametrize("seats", [2, 3])
def test_sampling_respects_what_the_seat_knows(seats: int) -> None:
    game = _mid_play_game(seats, seed=21, plays=2 * seats + 1)
    seat = game.current_seat()
    assert seat is not None
    know = read(game.view(seat))
    assert know.played.bit_count() == know.tricks_done * seats + len(know.trick)
    rng = random.Random(3)
    for _ in range(200):
        hands = sample_hands(know, rng)
        assert hands[seat] == know.hand
        for s in range(seats):
            if s == seat:
                continue
            assert hands[s] & know.hand == 0
            assert hands[s] & know.played == 0
            assert hands[s].bit_count() == know.hand_sizes[s]
            assert hands[s] & know.known[s] == know.known[s]
            for suit in range(4):
                if know.voids[s] >> suit & 1:
                    assert hands[s] & SUIT[suit] == 0
        for s in range(seats):
            for t in range(s + 1, seats):
                assert hands[s] & hands[t] == 0


def test_voids_come_from_every_trick_of_the_deal() -> None:
    # seat 1 shows a spade void in the first trick; two tricks later the view
    # read afresh (a game replayed from JSON) still knows it
    hands = [["AS", "KS", "9C", "JC"], ["AH", "TH", "JH", "9H"]]
    game = ThousandGame.from_play(hands, bidder=0, contract=100)
    for seat, action in [(0, "cAS"), (1, "c9H"), (0, "c9C"), (1, "cJH")]:
        game.apply(seat, action)
    replayed = ThousandGame.from_json(game.to_json())
    know = read(replayed.view(0))
    assert know.voids[1] & 1  # spades
    assert know.played == mask_of_codes(["AS", "9H", "9C", "JH"])
    assert know.tricks_done == 2


def test_a_follower_is_not_void_in_a_trump_declared_after_its_trick() -> None:
    # seat 1 discards a heart on a spade lead while there is no trump; seat 0
    # then declares clubs: seat 1 is void in spades, not in clubs
    hands = [["AS", "KC", "QC", "9D"], ["9H", "JC", "TD", "JD"]]
    game = ThousandGame.from_play(hands, bidder=0, contract=100, first_lead_done=True)
    for seat, action in [(0, "cAS"), (1, "c9H"), (0, "cKC")]:
        game.apply(seat, action)
    know = read(game.view(1))
    assert know.trump == 1
    assert know.voids[1] == 0b0001
    assert know.known[0] == mask_of_codes(["QC"])  # the marriage's other card


def _to_play_with_gifts(seats: int, seed: int) -> ThousandGame:
    game = ThousandGame.new(seats, seed=seed)
    step = 0
    while game.phase != "play":
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, choose(game, seat, "easy", seed=step))
        step += 1
    return game


@pytest.mark.parametrize("seats", [2, 3])
def test_the_bidder_knows_where_its_gifts_went(seats: int) -> None:
    game = _to_play_with_gifts(seats, seed=7)
    view = game.view(None)
    bidder = view["bidder"]
    know = read(game.view(bidder))
    assert len(know.given) == seats - 1
    for card, target in know.given.items():
        assert target != bidder
        assert know.known[target] >> card & 1
    assert know.hand_before_give.bit_count() == know.hand.bit_count() + seats - 1
    receiver = (bidder + 1) % seats
    mine = read(game.view(receiver))
    assert list(mine.given.values()) == [receiver]
    assert mine.known[bidder] & mine.hand == 0


def _random_actions(seats: int, seed: int, plays: int) -> list[str]:
    """Actions of the random level (which reads nothing of this package) into the play."""
    game = ThousandGame.new(seats, seed=seed)
    actions: list[str] = []
    while game.phase != "play" or plays > 0:
        seat = game.current_seat()
        assert seat is not None
        plays -= game.phase == "play"
        action = choose(game, seat, "random", seed=len(actions))
        actions.append(action)
        game.apply(seat, action)
    return actions


@pytest.mark.parametrize("seats", [2, 3])
def test_a_decision_depends_on_the_view_and_the_seed_only(seats: int) -> None:
    actions = _random_actions(seats, seed=31, plays=3 * seats + 1)
    fresh = ThousandGame.new(seats, seed=31)
    for action in actions:
        seat = fresh.current_seat()
        assert seat is not None
        fresh.apply(seat, action)
    # the first thing read in this game: its position rebuilt from JSON
    rebuilt = ThousandGame.from_json(fresh.to_json())
    seat = rebuilt.current_seat()
    assert seat is not None
    first = read(rebuilt.view(seat))
    decisions = {lvl: choose(rebuilt, seat, lvl, seed=9, budget_ms=20) for lvl in ("easy", "hard")}
    # the same deal again, every seat's bots asked about every view on the way
    again = ThousandGame.new(seats, seed=31)
    for step, action in enumerate(actions):
        s = again.current_seat()
        assert s is not None
        for lvl in ("easy", "hard"):
            choose(again, s, lvl, seed=step, budget_ms=BUDGET)
        again.apply(s, action)
    assert again.view(seat) == rebuilt.view(seat)
    know = read(again.view(seat))
    assert know == first
    assert know.tricks_done == 3
    assert know.played.bit_count() == 3 * seats + 1
    for lvl, decision in decisions.items():
        assert choose(again, seat, lvl, seed=9, budget_ms=20) == decision


def test_random_baseline_is_legal() -> None:
    game = new_game("thousand", 2, seed=3)
    seat = game.current_seat()
    assert seat is not None
    view = game.view(seat)
    assert random_policy(view, random.Random(1), 1.0) in view["legal"]
    assert easy_policy(view, random.Random(1), 1.0) in view["legal"]
    assert hard_policy(view, random.Random(1), BUDGET) in view["legal"]
