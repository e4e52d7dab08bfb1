"""Every ended deal leaves its record: the cards as dealt and every move, which replayed
from the game's seed play the same game again, down to its scoresheet."""

from __future__ import annotations

import random

import pytest

from bot.engine import load_game, new_game
from bot.engine.base import DealLog, Game
from bot.engine.deberts import Deberts, DebertsConventions
from bot.engine.thousand import ThousandGame
from bot.engine.thousand.rules import ThousandConventions


def _play(
    game: Game, rng: random.Random, *, round_trip_every: int = 0, deals: int = 12
) -> tuple[Game, list[DealLog]]:
    """Random legal moves to the end or ``deals`` deals (random players rarely reach a
    thousand); each deal's record read after the move ending it."""
    logs: list[DealLog] = []
    moves = 0
    while (seat := game.current_seat()) is not None and len(logs) < deals:
        before = game.deal_no
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        moves += 1
        if game.deal_no != before or game.is_over:
            log = game.ended_deal()
            assert log is not None and log.deal_no == before
            logs.append(log)
        if round_trip_every and moves % round_trip_every == 0:
            game = load_game(game.to_json())
    return game, logs


def _replay(name: str, seats: int, conventions: object, seed: int, logs: list[DealLog]) -> Game:
    game = new_game(name, seats, conventions, seed)  # type: ignore[arg-type]
    for log in logs:
        assert game.deal_no == log.deal_no
        assert game.dealer == log.dealer  # type: ignore[attr-defined]
        assert log.moves is not None
        for seat, action in log.moves:
            game.apply(seat, action)
    return game


CASES = [
    ("deberts", 2, DebertsConventions()),
    ("deberts", 3, DebertsConventions(four_sevens_redeal=True, order_obligatory=True)),
    ("deberts", 3, DebertsConventions(target=301, seven_swap=True)),
    ("thousand", 2, ThousandConventions()),
    ("thousand", 3, ThousandConventions()),
    ("thousand", 4, ThousandConventions()),
]


@pytest.mark.parametrize(("name", "seats", "conventions"), CASES)
def test_replaying_the_logged_moves_gives_the_same_game(
    name: str, seats: int, conventions: object
) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        game = new_game(name, seats, conventions, seed)  # type: ignore[arg-type]
        # every few moves the game goes through its JSON form, as a table's does
        game, logs = _play(game, rng, round_trip_every=7)
        replayed = _replay(name, seats, conventions, seed, logs)
        assert replayed.is_over == game.is_over
        assert replayed.scoresheet() == game.scoresheet()
        assert replayed.to_json() == game.to_json()
        assert [log.deal_no for log in logs] == list(range(1, len(logs) + 1))
        for log in logs:
            assert DealLog.from_json(log.to_json()) == log


def test_a_deberts_record_holds_the_hands_open_card_auction_and_tricks() -> None:
    game = Deberts.new(3, seed=11)
    dealt = [game.hand(s) for s in range(3)]
    open_card = game.view(None)["open_card"]
    _, logs = _play_one_deal(game, random.Random(5))
    log = logs[-1]
    assert not log.redeal
    for seat in range(3):
        # the six dealt before the auction, three more after the order
        assert set(dealt[seat]) < set(log.hands[seat]) and len(log.hands[seat]) == 9
    stock = dict(log.stock)
    assert stock["open"] == (open_card,)
    played = [card for trick in log.tricks for _, card in trick.cards]
    assert len(played) == 27
    assert set(played) <= {c for hand in log.hands for c in hand} | {open_card}
    assert log.auction == tuple(m for m in log.moves or () if not m[1].startswith("c"))
    # each trick's winner leads the next
    for before, after in zip(log.tricks, log.tricks[1:], strict=False):
        assert after.cards[0][0] == before.winner


def test_a_thousand_record_holds_the_talon_and_the_give_away() -> None:
    game = ThousandGame.new(3, seed=4)
    dealt = [game.hand(s) for s in range(3)]
    _, logs = _play_one_deal(game, random.Random(2))
    log = logs[-1]
    assert [list(hand) for hand in log.hands] == dealt
    ((name, talon),) = log.stock
    assert name == "talon" and len(talon) == 3
    bidder = log.gives[0][0]
    assert sorted(taker for _, taker, _ in log.gives) == [s for s in range(3) if s != bidder]
    # the bidder gave away cards from the hand and talon it held
    assert {card for _, _, card in log.gives} <= set(log.hands[bidder]) | set(talon)
    assert len(log.tricks) in (0, 8)


def _play_one_deal(game: Game, rng: random.Random) -> tuple[Game, list[DealLog]]:
    logs: list[DealLog] = []
    while not logs or logs[-1].redeal:
        seat = game.current_seat()
        assert seat is not None
        before = game.deal_no
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        if game.deal_no != before:
            log = game.ended_deal()
            assert log is not None
            logs.append(log)
    return game, logs


def test_thousands_view_lists_the_last_deal_played_out() -> None:
    # A seat with a good memory knows how the others played the last deal: the full
    # view lists every trick of it, as the deal's record holds them, through a save.
    game = ThousandGame.new(2, seed=7)
    rng = random.Random(7)
    assert game.view(0)["played_out"] is None
    while game.rows_scored == 0:
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    log = game.ended_deal()
    assert log is not None and not log.redeal
    last = game.view(0)["last_deal"]
    out = game.view(0)["played_out"]
    assert last is not None and not last["redeal"]
    assert out is not None and out["bidder"] == last["bidder"]
    assert out["tricks"] == _tricks(log)
    assert sum(len(trick.cards) for trick in log.tricks) == 24 - 2  # all but two left out
    assert load_game(game.to_json()).view(1) == game.view(1)


def _tricks(log: DealLog) -> list[dict[str, object]]:
    return [
        {"cards": [{"seat": s, "card": c} for s, c in trick.cards], "winner": trick.winner}
        for trick in log.tricks
    ]


def test_a_conceded_or_redealt_thousand_deal_keeps_the_last_deal_played_out() -> None:
    # A deal conceded or dealt again shows nothing of how the others play: the view
    # keeps listing the last deal that was played out, whatever ended since.
    rng = random.Random(3)
    kept = {"conceded": 0, "redeal": 0}
    for seed in range(40):
        game = ThousandGame.new(2, seed=seed)
        played: list[dict[str, object]] | None = None
        while (seat := game.current_seat()) is not None and game.deal_no < 12:
            before = game.deal_no
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            if game.deal_no == before:
                continue
            log = game.ended_deal()
            last = game.view(0)["last_deal"]
            assert log is not None and last is not None
            kind = "redeal" if last["redeal"] else last["result"]
            if kind in kept:
                kept[kind] += played is not None
            else:
                played = _tricks(log)
            out = game.view(1)["played_out"]
            assert (out and out["tricks"]) == played
            assert load_game(game.to_json()).view(1)["played_out"] == out
    assert kept["conceded"] and kept["redeal"]
