"""Invariants over random complete games, and the simulator agreeing with the engine."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.engine.base import IllegalAction
from bot.engine.cards import CARDS, codes_to_mask
from bot.engine.deberts import Deberts, DebertsConventions
from bot.engine.deberts.playout import SimDeal
from bot.engine.deberts.rules import POINTS, mask_codes
from bot.engine.deberts.scoring import settle

CODES = {card.code for card in CARDS}
SUITS = "SCDH"

conventions = st.builds(
    DebertsConventions,
    target=st.sampled_from((301, 501)),
    winner_takes_all=st.booleans(),
    order_obligatory=st.booleans(),
    seven_swap=st.booleans(),
    hanging_separately=st.booleans(),
    trump_in_combination=st.sampled_from(("moscow", "kharkov")),
    four_sevens_redeal=st.booleans(),
)


def shown_cards(data: Any, skip: str = "last_deal") -> set[str]:
    """Every card code anywhere in a view, outside the previous deal's record."""
    found: set[str] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if key != skip:
                found |= shown_cards(value)
    elif isinstance(data, list):
        for value in data:
            found |= shown_cards(value)
    elif isinstance(data, str) and data in CODES:
        found.add(data)
    return found


def check_views(game: Deberts) -> None:
    public = {c for a in game.view(None)["announcements"] for c in a["cards"]}
    for seat in range(game.seats):
        view = game.view(seat)
        assert view["hand"] == game.hand(seat)
        for other in range(game.seats):
            if other != seat:
                hidden = set(game.hand(other)) - public
                assert not hidden & shown_cards(view)
    assert game.view(None)["hand"] == [] and game.view(None)["legal"] == []
    assert not (
        shown_cards(game.view(None))
        & (set().union(*map(set, map(game.hand, range(game.seats)))) - public)
    )


@settings(max_examples=25, deadline=None)
@given(seats=st.sampled_from((2, 3)), conv=conventions, seed=st.integers(0, 10**6))
def test_random_games_keep_every_invariant(seats: int, conv: DebertsConventions, seed: int) -> None:
    game = Deberts.new(seats, conv, seed)
    rng = random.Random(seed)
    played: list[str] = []
    trump = None
    deals_scored = 0
    steps = 0
    while not game.is_over and steps < 400:
        steps += 1
        seat = game.current_seat()
        assert seat is not None
        legal = game.legal_actions(seat)
        assert legal and all(game.legal_actions(s) == [] for s in range(seats) if s != seat)
        action = rng.choice(legal)
        deal_before = game.deal_no
        rows_before = len(game.scoresheet().rows)
        if action.startswith("c"):
            played.append(action[1:])
            trump = game.view(None)["trump"]
        game.apply(seat, action)
        data = game.to_json()
        assert Deberts.from_json(json.loads(json.dumps(data))).to_json() == data
        if steps % 7 == 0:
            check_views(game)
        if game.deal_no != deal_before or game.is_over:
            if len(game.scoresheet().rows) > rows_before:
                deals_scored += 1
                deal = game.view(None)["last_deal"]
                assert len(played) == len(set(played)) == 9 * seats
                t = SUITS.index(trump)
                card_points = sum(POINTS[t][codes_to_mask([c]).bit_length() - 1] for c in played)
                assert sum(deal["card_points"]) == card_points
                assert sum(deal["points"]) == (
                    card_points + 10 + sum(deal["combination_points"]) + sum(deal["bella_points"])
                )
            played = []
    assert game.is_over or steps == 400


@settings(max_examples=20, deadline=None)
@given(seats=st.sampled_from((2, 3)), conv=conventions, seed=st.integers(0, 10**6))
@example(  # over within its first moves
    seats=2,
    conv=DebertsConventions(
        target=301,
        winner_takes_all=True,
        seven_swap=False,
        trump_in_combination="moscow",
        four_sevens_redeal=False,
    ),
    seed=4680,
)
def test_clone_and_json_copy_behave_identically(
    seats: int, conv: DebertsConventions, seed: int
) -> None:
    game = Deberts.new(seats, conv, seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(60)):
        seat = game.current_seat()
        if seat is None:
            break  # three baits can end a game to 301 within 60 moves
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    copies = [game.clone(), Deberts.from_json(game.to_json())]
    for _ in range(40):
        seat = game.current_seat()
        if seat is None:
            break
        action = rng.choice(game.legal_actions(seat))
        for g in [game, *copies]:
            g.apply(seat, action)
    assert copies[0].to_json() == copies[1].to_json() == game.to_json()


@settings(max_examples=15, deadline=None)
@given(seats=st.sampled_from((2, 3)), conv=conventions, seed=st.integers(0, 10**6))
@example(
    seats=2,
    conv=DebertsConventions(
        target=301, seven_swap=False, trump_in_combination="moscow", four_sevens_redeal=False
    ),
    seed=76916,  # the first deal is thrown in: everyone passed
)
def test_scoresheet_and_last_deal_read_late_match_those_read_at_once(
    seats: int, conv: DebertsConventions, seed: int
) -> None:
    """Rows and the last deal's summary are built when read: reading them late changes nothing."""
    eager = Deberts.new(seats, conv, seed)
    late = Deberts.new(seats, conv, seed)
    rng = random.Random(seed)
    sheets = []
    while (seat := eager.current_seat()) is not None:
        action = rng.choice(eager.legal_actions(seat))
        deal_no, scored = eager.deal_no, len(eager.scoresheet().rows)
        eager.apply(seat, action)
        late.apply(seat, action)
        if eager.deal_no != deal_no or eager.is_over:
            sheets.append(json.dumps(eager.to_json()))
            # a deal thrown in (everyone passed) is not scored and has no summary
            if len(eager.scoresheet().rows) > scored:
                assert eager.view(None)["last_deal"] is not None
    assert sheets
    assert late.scoresheet() == eager.scoresheet()
    assert late.view(0) == eager.view(0)
    assert late.to_json() == eager.to_json()
    # Rows already built stay as they were once later deals are played.
    rows = json.loads(sheets[0])["rows"]
    assert late.to_json()["rows"][: len(rows)] == rows


def test_same_seed_same_game() -> None:
    def run(seed: int) -> dict[str, Any]:
        game = Deberts.new(3, seed=seed)
        rng = random.Random(1)
        while not game.is_over:
            seat = game.current_seat()
            assert seat is not None
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        return game.to_json()

    assert run(8) == run(8)
    assert run(8) != run(9)


def test_simulator_agrees_with_the_engine_on_thousands_of_deals() -> None:
    rng = random.Random(2024)
    deals = 0
    for seed in range(400):
        seats = 2 + seed % 2
        kharkov = seed % 3 == 0
        conv = DebertsConventions(
            seven_swap=False, trump_in_combination="kharkov" if kharkov else "moscow"
        )
        game = Deberts.new(seats, conv, seed)
        sim: SimDeal | None = None
        while not game.is_over:
            seat = game.current_seat()
            assert seat is not None
            legal = game.legal_actions(seat)
            if game.phase == "play" and sim is None:
                view = game.view(None)
                hands = [codes_to_mask(game.hand(s)) for s in range(seats)]
                sim = SimDeal.start(
                    hands, SUITS.index(view["trump"]), view["dealer"], moscow=not kharkov
                )
                bidder, dealer, hanging = view["bidder"], view["dealer"], view["hanging"]
            if sim is None:
                game.apply(seat, rng.choice(legal))
                continue
            assert sim.to_act == seat
            assert mask_codes(sim.legal()) == legal
            action = rng.choice(legal)
            winner = sim.play(codes_to_mask([action[1:]]).bit_length() - 1)
            deal = game.deal_no
            game.apply(seat, action)
            if winner >= 0 and game.deal_no == deal and not game.is_over:
                assert game.view(None)["last_trick"]["winner"] == winner
            if game.deal_no != deal or game.is_over:
                assert sim.done
                last = game.view(None)["last_deal"]
                assert sim.deal_points() == last["points"]
                result = settle(
                    sim.deal_points(),
                    bidder,
                    dealer,
                    hanging,
                    winner_takes_all=False,
                    hanging_separately=False,
                )
                assert list(result.written) == last["written"]
                deals += 1
                sim = None
    assert deals >= 2000


@settings(max_examples=20, deadline=None)
@given(seats=st.sampled_from((2, 3)), conv=conventions, seed=st.integers(0, 10**6))
def test_legal_cards_kept_between_listing_and_playing_never_go_stale(
    seats: int, conv: DebertsConventions, seed: int
) -> None:
    """The legal set a listing keeps for the next apply matches a copy that never listed."""
    game = Deberts.new(seats, conv, seed)
    rng = random.Random(seed)
    for _ in range(300):
        seat = game.current_seat()
        if seat is None:
            break
        fresh = Deberts.from_json(game.to_json())
        legal = game.legal_actions(seat)
        assert legal == fresh.legal_actions(seat)
        if game.phase == "play":
            in_hand = {f"c{code}" for code in game.hand(seat)}
            for code in sorted(in_hand - set(legal)):
                with pytest.raises(IllegalAction):
                    game.apply(seat, code)
        # A copy that never listed works the legal set out itself when it plays.
        action = rng.choice(legal)
        game.apply(seat, action)
        unlisted = Deberts.from_json(fresh.to_json())
        unlisted.apply(seat, action)
        assert game.to_json() == unlisted.to_json()
