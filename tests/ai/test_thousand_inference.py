"""What the others' plays say about their cards: the plays of the heuristic card play are
explained exactly by the real hands, and less well by the layouts the search deals."""

from __future__ import annotations

import random
import statistics

import pytest

from bot.ai.opponents import LIKELIHOOD, PLAIN_PRIOR
from bot.ai.players import choose
from bot.ai.thousand import hard
from bot.ai.thousand.cards import mask_of_codes
from bot.ai.thousand.inference import (
    earlier,
    judge,
    misses,
    observed,
    plain_before,
    weight,
)
from bot.ai.thousand.knowledge import read
from bot.ai.thousand.sampling import sample_hands
from bot.engine.thousand import ThousandGame


@pytest.mark.parametrize("seats", [2, 3])
def test_the_real_hands_explain_every_play_of_the_easy_level(seats: int) -> None:
    # Each play is replayed with what its player could see then (its hand as it was,
    # the trick, the trump in force, the voids shown so far): easy plays the heuristic,
    # so the real layout misses none, while the layouts dealt at random miss some.
    checked = dealt_misses = dealt = 0
    for seed in range(6):
        game = ThousandGame.new(seats, seed=seed)
        step = 0
        while not game.is_over and game.rows_scored < 2:
            seat = game.current_seat()
            assert seat is not None
            if game.phase == "play" and seat == 0:
                know = read(game.view(0))
                seen = observed(know)
                real = [mask_of_codes(game.hand(s)) for s in range(seats)]
                assert misses(seen, real, know) == 0
                checked += len(seen)
                layout = sample_hands(know, random.Random(step))
                dealt_misses += misses(seen, layout, know)
                dealt += 1
            game.apply(seat, choose(game, seat, "easy", seed=seed * 1000 + step))
            step += 1
    assert checked > 100
    assert dealt_misses / dealt > 0.2


def test_a_defender_that_let_a_ten_through_is_unlikely_to_hold_the_ace() -> None:
    # Seat 0 (bidder) leads 10♠; seat 1, last to play, throws 9♠. Holding A♠ it would
    # have taken the ten: a layout giving it the ace is weighed down, one that leaves
    # the ace out of play (four cards are) is not.
    game = ThousandGame.from_play(
        [
            ["TS", "KS", "9C", "TC", "KC", "AC", "9D", "QD", "KD", "AD"],
            ["9S", "JS", "JC", "QC", "TD", "JD", "9H", "TH", "KH", "AS"],
        ],
        bidder=0,
        contract=100,
    )
    game.apply(0, "cTS")
    game.apply(1, "c9S")
    know = read(game.view(0))
    seen = observed(know)
    assert [(s.seat, s.card) for s in seen] == [(1, mask_of_codes(["9S"]).bit_length() - 1)]
    with_ace = [know.hand, mask_of_codes(game.hand(1))]
    without = [know.hand, with_ace[1] & ~mask_of_codes(["AS"]) | mask_of_codes(["AH"])]
    assert weight(seen, with_ace, know) == LIKELIHOOD
    assert weight(seen, without, know) == 1.0


@pytest.mark.parametrize(("level", "plain"), [("easy", True), ("random", False)])
def test_the_search_tells_a_player_who_plays_by_the_heuristic_from_one_who_does_not(
    level: str, plain: bool
) -> None:
    # Seat 0 watches seat 1 play five tricks: easy makes the heuristic's choice every
    # time, a random player seldom. The chance the search gives to the heuristic's
    # replies follows, over the layouts seat 0 deals (in which the others' hands, and
    # so what the heuristic would have played, differ).
    chances = []
    for seed in range(4):
        game = ThousandGame.new(2, seed=seed)
        step = 0
        while game.phase != "play" or len(game.view(0)["played"]) < 5:
            seat = game.current_seat()
            assert seat is not None
            game.apply(seat, choose(game, seat, "easy" if seat == 0 else level, seed=step))
            step += 1
        know = read(game.view(0))
        pool = [sample_hands(know, random.Random(i)) for i in range(32)]
        chances.append(judge(observed(know), pool, know)[1])
    if plain:
        assert statistics.fmean(chances) > 0.8
    else:
        assert statistics.fmean(chances) < 0.2


def _after_one_deal(level: str, seed: int) -> ThousandGame:
    """A two-player game once ``level`` has played a deal out in both seats."""
    game = ThousandGame.new(2, seed=seed)
    step = 0
    while game.view(0)["played_out"] is None:
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, choose(game, seat, level, seed=step))
        step += 1
    return game


def test_the_last_deal_shows_who_plays_by_the_heuristic() -> None:
    # Every card of the last deal was played, so the hands it was played from are
    # known: they explain every play of easy's, not all of a random player's. Hard
    # values its bidding by the heuristic's play-outs only after seeing the first.
    for seed in range(4):
        view = _after_one_deal("easy", seed).view(0)
        missed, choices = earlier(view)
        assert missed == 0 and choices > 0
        assert plain_before(view) >= hard.PLAIN_BIDDING
        view = _after_one_deal("random", seed).view(0)
        missed, choices = earlier(view)
        assert missed > 0
        assert plain_before(view) < hard.PLAIN_BIDDING
    # nothing seen yet: the look ahead values the first deal
    fresh = ThousandGame.new(2, seed=1).view(0)
    assert earlier(fresh) == (0, 0) and plain_before(fresh) == PLAIN_PRIOR < hard.PLAIN_BIDDING


def test_a_concession_does_not_hide_how_the_others_played_before() -> None:
    # A conceded deal shows no plays; hard still judges from the deal played out before
    # it, so after easy concedes it values its bidding as easy plays, not by looking ahead.
    for seed in range(40):
        game = ThousandGame.new(2, seed=seed)
        step = 0
        while not game.is_over:
            seat = game.current_seat()
            assert seat is not None
            action = choose(game, seat, "easy", seed=step)
            step += 1
            played_before = game.view(0)["played_out"] is not None
            game.apply(seat, action)
            if action == "concede" and played_before:
                last = game.view(0)["last_deal"]
                assert last is not None and not last["redeal"] and last["conceded"]
                view = game.view(seat)
                assert earlier(view)[1] > 0
                assert plain_before(view) >= hard.PLAIN_BIDDING
                return
    raise AssertionError("easy never conceded after a deal played out")
