"""Thousand (Тысяча) for 2 or 3 players on the shared state API.

A deal moves through the phases ``auction`` → ``talon`` (2 players) → ``give``
→ ``redeal`` (only when someone may ask) → ``contract`` → ``play``; it is then
scored and the next deal is dealt at once, until someone makes the barrel
contract (``game_over``). Hands are bitmasks; the whole state is plain JSON.
"""

from __future__ import annotations

from typing import Any, Self

from bot.engine.base import Game, IllegalAction, JsonDict, ScoreRow, Scoresheet
from bot.engine.cards import SUIT_MASKS, codes_to_mask, popcount
from bot.engine.thousand import view as views
from bot.engine.thousand.codes import (
    BID_CODES,
    CARD_CODES,
    CONTRACT_CODES,
    GIVE_CODES,
    PLAY_INDEX,
    card_of,
    number_of,
    play_codes,
)
from bot.engine.thousand.rules import (
    ACE_MARRIAGE_POINTS,
    ACES,
    BARREL_CONTRACT,
    DECK,
    GOLDEN_DEALS,
    MARRIAGE_POINTS,
    NINES,
    OPENING_BID,
    RANKING,
    ThousandConventions,
    bid_limit,
    card_points,
    next_bid_floor,
)
from bot.engine.thousand.scoring import DealOutcome, settle
from bot.engine.tricks import NO_TRUMP, deal_seed, shuffled, trick_winner

__all__ = ["ThousandGame"]

AUCTION = "auction"
TALON = "talon"
GIVE = "give"
REDEAL = "redeal"
CONTRACT = "contract"
PLAY = "play"
GAME_OVER = "game_over"

_QUEEN, _KING, _ACE = 5, 6, 7  # rank offsets within a suit's 8 slots: 9 is 2, A is 7


class ThousandGame(Game):
    name = "thousand"
    conventions_type = ThousandConventions

    def __init__(self, seats: int, conventions: ThousandConventions, seed: int) -> None:
        if seats not in (2, 3):
            raise ValueError("Thousand is played by 2 or 3 players")
        self._n = seats
        self._conv = conventions
        self._conv_json: JsonDict | None = None
        self._seed = seed
        self._deal_no = 0
        self._dealer = 0
        self._totals = [0] * seats
        self._bolts = [0] * seats
        self._barrel_seat: int | None = None
        self._barrel_attempts = 0
        self._rows: list[JsonDict] = []
        self._start_totals = [0] * seats
        self._earlier_deals = 0
        self._winner: int | None = None
        self._last_deal: JsonDict | None = None
        self._legal: list[str] | None = None
        self._clear_deal()

    def _clear_deal(self) -> None:
        n = self._n
        self._phase = AUCTION
        self._to_act: int | None = None
        self._hands = [0] * n
        self._talons: list[int] = []
        self._talon_taken: int | None = None
        self._talon_cards = 0
        self._talon_shown = False
        self._auction: list[list[Any]] = []
        self._passed = [False] * n
        self._auto_passed: list[int] = []
        self._high: int | None = None
        self._bidder: int | None = None
        self._received = [False] * n
        self._redeal_queue: list[int] = []
        self._contract: int | None = None
        self._trump = NO_TRUMP
        self._trick: list[list[int]] = []
        self._last_trick: list[list[int]] | None = None
        self._last_winner: int | None = None
        self._taken = [0] * n
        self._tricks = [0] * n
        self._marriages = [0] * n
        self._announcements: list[JsonDict] = []
        self._tricks_played = 0

    # ----------------------------------------------------------------- building

    @classmethod
    def new(
        cls,
        seats: int,
        conventions: Any = None,
        seed: int = 0,
    ) -> Self:
        game = cls(seats, _conventions(conventions), seed)
        # The first dealer is drawn by lot from the seed, as every deal is.
        game._dealer = deal_seed(seed, 0) % seats
        game._start_deal(game._dealer)
        return game

    @classmethod
    def from_hands(
        cls,
        hands: list[list[str]],
        talons: list[list[str]],
        *,
        dealer: int = 0,
        conventions: ThousandConventions | None = None,
        seed: int = 0,
        deal_no: int = 1,
        totals: list[int] | None = None,
        bolts: list[int] | None = None,
        barrel: tuple[int, int] | None = None,
        scored_deals: int = 0,
    ) -> Self:
        """A deal about to start its auction with the given cards and tallies.

        ``barrel`` is ``(seat, attempts)`` of the player sitting on the barrel;
        ``scored_deals`` is how many deals were scored before (for the golden round).
        """
        seats = len(hands)
        game = cls(seats, _conventions(conventions), seed)
        game._deal_no = deal_no
        game._dealer = dealer
        game._totals = list(totals) if totals is not None else [0] * seats
        game._bolts = list(bolts) if bolts is not None else [0] * seats
        if barrel is not None:
            game._barrel_seat, game._barrel_attempts = barrel
        game._start_totals = list(game._totals)
        game._earlier_deals = scored_deals
        masks = [codes_to_mask(h) for h in hands]
        talon_masks = [codes_to_mask(t) for t in talons]
        _check_deal(seats, masks, talon_masks)
        game._begin_auction(masks, talon_masks)
        return game

    @classmethod
    def from_play(
        cls,
        hands: list[list[str]],
        *,
        bidder: int,
        contract: int,
        leader: int | None = None,
        trump: str | None = None,
        first_lead_done: bool = False,
        dealer: int = 0,
        conventions: ThousandConventions | None = None,
        seed: int = 0,
        totals: list[int] | None = None,
        bolts: list[int] | None = None,
        barrel: tuple[int, int] | None = None,
        scored_deals: int = 0,
    ) -> Self:
        """A deal in its play phase: hands after the give-away, contract named.

        With ``first_lead_done`` the deal's first lead counts as already made,
        so marriages may be declared at once.
        """
        seats = len(hands)
        game = cls(seats, _conventions(conventions), seed)
        game._deal_no = 1 + scored_deals
        game._dealer = dealer
        game._totals = list(totals) if totals is not None else [0] * seats
        game._bolts = list(bolts) if bolts is not None else [0] * seats
        if barrel is not None:
            game._barrel_seat, game._barrel_attempts = barrel
        game._start_totals = list(game._totals)
        game._earlier_deals = scored_deals
        game._hands = [codes_to_mask(h) for h in hands]
        if len({popcount(h) for h in game._hands}) != 1:
            raise ValueError("every hand must hold the same number of cards")
        game._bidder = bidder
        game._high = contract
        game._contract = contract
        game._trump = "SCDH".index(trump) if trump else NO_TRUMP
        game._tricks_played = 1 if first_lead_done else 0
        game._phase = PLAY
        game._to_act = bidder if leader is None else leader
        return game

    # ---------------------------------------------------------------- the API

    @property
    def deal_no(self) -> int:
        return self._deal_no

    @property
    def seats(self) -> int:
        return self._n

    @property
    def conventions(self) -> ThousandConventions:
        return self._conv

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def is_over(self) -> bool:
        return self._winner is not None

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def winner(self) -> int | None:
        return self._winner

    @property
    def totals(self) -> list[int]:
        return list(self._totals)

    def conventions_json(self) -> JsonDict:
        """The conventions as JSON data, worked out once per game (``asdict`` is slow)."""
        if self._conv_json is None:
            self._conv_json = self._conv.to_json()
        return dict(self._conv_json)

    def current_seat(self) -> int | None:
        return self._to_act

    def hand(self, seat: int) -> list[str]:
        """The cards ``seat`` holds now (for tests and bot players acting for it)."""
        return views.codes(self._hands[seat])

    def legal_actions(self, seat: int) -> list[str]:
        if seat != self._to_act:
            return []
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal(seat)
        return legal[:]

    def _compute_legal(self, seat: int) -> list[str]:
        phase = self._phase
        if phase == PLAY:
            return play_codes(self._legal_mask(seat))
        if phase == AUCTION:
            return self._auction_actions(seat)
        if phase == GIVE:
            return self._give_actions(seat)
        if phase == CONTRACT:
            return self._contract_actions(seat)
        if phase == TALON:
            return ["t0", "t1"]
        if phase == REDEAL:
            return ["redeal", "keep"]
        return []

    def apply(self, seat: int, action: str) -> None:
        if self._winner is not None:
            raise IllegalAction("game_over", "The game is over.")
        if seat != self._to_act:
            raise IllegalAction(
                "not_your_turn", "It is not this seat's turn.", seat=seat, to_act=self._to_act
            )
        phase = self._phase
        head = action[:1]
        legal = self._legal
        if legal is not None and phase == PLAY and action in legal:
            # The cached list was computed for this very state and seat: no need to re-check.
            self._legal = None
            self._play_card(seat, PLAY_INDEX[action])
            return
        self._legal = None
        if phase == PLAY and head == "c":
            self._play(seat, action)
        elif phase == AUCTION and (head == "b" or action == "pass"):
            self._bid(seat, action)
        elif phase == GIVE and head == "g":
            self._give(seat, action)
        elif phase == CONTRACT and (head == "k" or action == "concede"):
            self._name_contract(seat, action)
        elif phase == TALON and action in ("t0", "t1"):
            self._take_talon(seat, int(action[1]))
        elif phase == REDEAL and action in ("redeal", "keep"):
            self._answer_redeal(seat, action)
        else:
            raise IllegalAction(
                "unknown_action",
                f"{action!r} is not an action of the {phase} phase.",
                action=action,
                phase=phase,
            )

    def view(self, seat: int | None) -> JsonDict:
        return views.build(self, seat)

    def scoresheet(self) -> Scoresheet:
        rows = tuple(ScoreRow.from_json(row) for row in self._rows)
        return Scoresheet(
            game=self.name,
            seats=self._n,
            rows=rows,
            totals=tuple(self._totals),
            winner=self._winner,
            notes={
                "start_totals": list(self._start_totals),
                "bolts": list(self._bolts),
                "barrel": {"seat": self._barrel_seat, "attempts": self._barrel_attempts},
            },
        )

    # ------------------------------------------------------------------ deals

    def _start_deal(self, dealer: int) -> None:
        self._deal_no += 1
        self._dealer = dealer
        cards = shuffled(DECK, deal_seed(self._seed, self._deal_no))
        n = self._n
        hands = [0] * n
        dealt = 21 if n == 3 else 20
        for k in range(n):
            mask = 0
            for card in cards[k:dealt:n]:
                mask |= 1 << card
            hands[(dealer + 1 + k) % n] = mask
        if n == 3:
            talons = [(1 << cards[21]) | (1 << cards[22]) | (1 << cards[23])]
        else:
            talons = [(1 << cards[20]) | (1 << cards[21]), (1 << cards[22]) | (1 << cards[23])]
        self._begin_auction(hands, talons)

    def _begin_auction(self, hands: list[int], talons: list[int]) -> None:
        self._clear_deal()
        self._hands = hands
        self._talons = talons
        barrel = self._barrel_seat
        if barrel is not None:
            self._high = BARREL_CONTRACT
            self._bidder = barrel
            self._auction.append([barrel, BID_CODES[BARREL_CONTRACT]])
            if not self._conv.barrel_trading:
                self._end_auction()
                return
        self._to_act = self._first_hand()
        if barrel is not None and self._to_act == barrel:
            self._to_act = self._next_bidder(barrel)
        self._auto_pass()

    def _first_hand(self) -> int:
        return (self._dealer + 1) % self._n

    # ---------------------------------------------------------------- auction

    def _bid_range(self, seat: int) -> tuple[int, int]:
        floor = next_bid_floor(self._high)
        limit = bid_limit(self._hands[seat], self._conv.ace_marriage)
        if self._conv.bid_step == "plus5":
            limit = min(limit, floor)
        return floor, limit

    def _must_open(self, seat: int) -> bool:
        return self._high is None and seat == self._first_hand()

    def _auction_actions(self, seat: int) -> list[str]:
        floor, limit = self._bid_range(seat)
        out = [] if self._must_open(seat) else ["pass"]
        out.extend(BID_CODES[floor : limit + 1 : 5])
        return out

    def _bid(self, seat: int, action: str) -> None:
        if action == "pass":
            if self._must_open(seat):
                raise IllegalAction(
                    "must_open", "The first hand must open the bidding with at least 100."
                )
            self._passed[seat] = True
        else:
            amount = number_of(action[1:])
            if amount is None:
                raise IllegalAction("unknown_action", f"{action!r} is not a bid.", action=action)
            floor, limit = self._bid_range(seat)
            if amount % 5:
                raise IllegalAction("bid_not_multiple_of_5", "Bids are multiples of 5.", bid=amount)
            if amount < floor:
                raise IllegalAction(
                    "bid_too_low", f"The bid must be at least {floor}.", bid=amount, minimum=floor
                )
            if amount > limit:
                if self._conv.bid_step == "plus5" and amount > floor:
                    raise IllegalAction(
                        "bid_step_plus5", f"Only a bid of {floor} is allowed now.", bid=amount
                    )
                raise IllegalAction(
                    "bid_above_limit",
                    f"The bid may not exceed {limit}: 120 plus the marriages in hand.",
                    bid=amount,
                    limit=limit,
                )
            self._high = amount
            self._bidder = seat
        self._auction.append([seat, action])
        self._after_auction_step(seat)

    def _after_auction_step(self, seat: int) -> None:
        active = self._passed.count(False)
        if active == 0 or (active == 1 and self._high is not None):
            self._end_auction()
            return
        self._to_act = self._next_bidder(seat)
        self._auto_pass()

    def _next_bidder(self, seat: int) -> int:
        n = self._n
        nxt = (seat + 1) % n
        while self._passed[nxt] or nxt == self._bidder:
            nxt = (nxt + 1) % n
        return nxt

    def _auto_pass(self) -> None:
        """Players below the minus limit pass without being asked."""
        limit = self._conv.minus_limit
        while self._phase == AUCTION:
            seat = self._to_act
            assert seat is not None
            if self._totals[seat] >= limit:
                return
            self._passed[seat] = True
            self._auto_passed.append(seat)
            self._auction.append([seat, "pass"])
            active = self._passed.count(False)
            if active == 0 or (active == 1 and self._high is not None):
                self._end_auction()
                return
            self._to_act = self._next_bidder(seat)

    def _end_auction(self) -> None:
        if self._high is None:
            # Everyone passed (the first hand automatically): the first hand plays 100.
            self._high = OPENING_BID
            self._bidder = self._first_hand()
        bidder = self._bidder
        assert bidder is not None
        bids = [entry for entry in self._auction if entry[1] != "pass"]
        on_hundred = self._high == OPENING_BID and bidder == self._first_hand() and len(bids) <= 1
        self._talon_shown = not on_hundred or self._conv.show_talon_on_hundred
        self._to_act = bidder
        if self._n == 2:
            self._phase = TALON
        else:
            self._take_talon(bidder, 0)

    def _take_talon(self, seat: int, index: int) -> None:
        talon = self._talons[index]
        self._talon_taken = index
        self._talon_cards = talon
        self._hands[seat] |= talon
        self._phase = GIVE
        self._to_act = seat

    # --------------------------------------------------------------- give-away

    def _give_actions(self, seat: int) -> list[str]:
        targets = [s for s in range(self._n) if s != seat and not self._received[s]]
        mask = self._hands[seat]
        out: list[str] = []
        while mask:
            low = mask & -mask
            codes = GIVE_CODES[low.bit_length() - 1]
            for target in targets:
                out.append(codes[target])
            mask ^= low
        return out

    def _give(self, seat: int, action: str) -> None:
        card = card_of(action[1:3])
        target_text = action[3:]
        if card is None or not target_text.isdigit() or len(action) != 4:
            raise IllegalAction("unknown_action", f"{action!r} is not a give-away.", action=action)
        target = int(target_text)
        if target == seat or target >= self._n:
            raise IllegalAction(
                "not_an_opponent", "Cards are given to the opponents.", target=target
            )
        if self._received[target]:
            raise IllegalAction(
                "already_given", "That opponent already has their card.", target=target
            )
        if not self._hands[seat] >> card & 1:
            raise IllegalAction(
                "card_not_in_hand", "That card is not in the hand.", card=CARD_CODES[card]
            )
        self._hands[seat] ^= 1 << card
        self._hands[target] |= 1 << card
        self._received[target] = True
        if self._received.count(True) == self._n - 1:
            self._after_give()

    def _after_give(self) -> None:
        if self._conv.redeal:
            queue = self._redeal_askers()
            if queue:
                self._redeal_queue = queue
                self._phase = REDEAL
                self._to_act = queue[0]
                return
        self._phase = CONTRACT
        self._to_act = self._bidder

    def _redeal_askers(self) -> list[int]:
        n = self._n
        order = [(self._dealer + 1 + i) % n for i in range(n)]
        if self._talon_cards & ~NINES == 0:
            return order
        return [
            s for s in order if self._hands[s] & NINES == NINES or card_points(self._hands[s]) < 14
        ]

    def _answer_redeal(self, seat: int, action: str) -> None:
        if action == "redeal":
            self._last_deal = {
                "deal_no": self._deal_no,
                "redeal": True,
                "asked_by": seat,
                "written": [0] * self._n,
                "deltas": [0] * self._n,
                "marks": ["redeal"] * self._n,
            }
            self._start_deal(self._dealer)
            return
        self._redeal_queue.pop(0)
        if self._redeal_queue:
            self._to_act = self._redeal_queue[0]
        else:
            self._phase = CONTRACT
            self._to_act = self._bidder

    # ---------------------------------------------------------------- contract

    def _contract_bounds(self, seat: int) -> tuple[int, int]:
        high = self._high
        assert high is not None
        return high, max(high, bid_limit(self._hands[seat], self._conv.ace_marriage))

    def _may_concede(self, seat: int) -> bool:
        return self._conv.concede and seat != self._barrel_seat

    def _contract_actions(self, seat: int) -> list[str]:
        low, high = self._contract_bounds(seat)
        out = [CONTRACT_CODES[low]]
        out.extend(CONTRACT_CODES[next_bid_floor(low) : high + 1 : 5])
        if self._may_concede(seat):
            out.append("concede")
        return out

    def _name_contract(self, seat: int, action: str) -> None:
        if action == "concede":
            if not self._conv.concede:
                raise IllegalAction("concede_not_allowed", "Conceding is off at this table.")
            if seat == self._barrel_seat:
                raise IllegalAction("concede_on_barrel", "No conceding on the barrel.")
            self._contract = self._high
            self._finish_deal(conceded=True)
            return
        amount = number_of(action[1:])
        if amount is None:
            raise IllegalAction("unknown_action", f"{action!r} is not a contract.", action=action)
        low, high = self._contract_bounds(seat)
        if amount < low:
            raise IllegalAction(
                "contract_below_bid",
                f"The contract must be at least the bid, {low}.",
                contract=amount,
                minimum=low,
            )
        if amount > high:
            raise IllegalAction(
                "contract_above_limit",
                f"The contract may not exceed {high}: 120 plus the marriages in hand.",
                contract=amount,
                limit=high,
            )
        if amount != low and amount % 5:
            raise IllegalAction(
                "contract_not_multiple_of_5", "Contracts are multiples of 5.", contract=amount
            )
        self._contract = amount
        self._phase = PLAY
        self._to_act = seat

    # -------------------------------------------------------------------- play

    def _legal_mask(self, seat: int) -> int:
        """Follow suit; void, trump if you can; else anything (``tricks.legal_plays``)."""
        hand = self._hands[seat]
        if not self._trick:
            return hand
        follow = hand & SUIT_MASKS[self._trick[0][1] >> 3]
        if follow:
            return follow
        trump = self._trump
        if trump >= 0:
            trumps = hand & SUIT_MASKS[trump]
            if trumps:
                return trumps
        return hand

    def _play(self, seat: int, action: str) -> None:
        card = card_of(action[1:]) if len(action) == 3 else None
        if card is None:
            raise IllegalAction("unknown_action", f"{action!r} is not a card.", action=action)
        hand = self._hands[seat]
        if not hand >> card & 1:
            raise IllegalAction(
                "card_not_in_hand", "That card is not in the hand.", card=CARD_CODES[card]
            )
        if not self._legal_mask(seat) >> card & 1:
            self._refuse_card(seat, card)
        self._play_card(seat, card)

    def _play_card(self, seat: int, card: int) -> None:
        hands = self._hands
        hand = hands[seat]
        trick = self._trick
        if not trick and self._tricks_played:
            self._declare(seat, card, hand)
        hands[seat] = hand ^ (1 << card)
        trick.append([seat, card])
        n = self._n
        if len(trick) < n:
            self._to_act = seat + 1 if seat + 1 < n else 0
            return
        winner = trick[trick_winner([c for _, c in trick], self._trump, RANKING)][0]
        won = 0
        for _, c in trick:
            won |= 1 << c
        self._taken[winner] |= won
        self._tricks[winner] += 1
        self._tricks_played += 1
        self._last_trick = trick
        self._last_winner = winner
        self._trick = []
        self._to_act = winner
        if not hands[winner]:
            self._finish_deal(conceded=False)

    def _refuse_card(self, seat: int, card: int) -> None:
        led = self._trick[0][1] >> 3
        code = CARD_CODES[card]
        if self._hands[seat] & SUIT_MASKS[led]:
            raise IllegalAction(
                "must_follow_suit", "You must follow the suit led.", card=code, suit="SCDH"[led]
            )
        raise IllegalAction(
            "must_trump",
            "Void in the suit led, you must play a trump.",
            card=code,
            trump="SCDH"[self._trump],
        )

    def _declare(self, seat: int, card: int, hand: int) -> None:
        """Marriage or ace marriage declared by leading one of its cards."""
        suit, offset = card >> 3, card & 7
        if offset in (_KING, _QUEEN):
            partner = card + (_QUEEN - _KING if offset == _KING else _KING - _QUEEN)
            if hand >> partner & 1:
                self._trump = suit
                self._marriages[seat] += MARRIAGE_POINTS[suit]
                pair = sorted((card, partner), reverse=True)
                self._announcements.append(
                    {
                        "seat": seat,
                        "kind": "marriage",
                        "cards": [CARD_CODES[c] for c in pair],
                        "points": MARRIAGE_POINTS[suit],
                        "suit": "SCDH"[suit],
                    }
                )
        elif offset == _ACE and self._conv.ace_marriage and hand & ACES == ACES:
            self._marriages[seat] += ACE_MARRIAGE_POINTS
            self._announcements.append(
                {
                    "seat": seat,
                    "kind": "ace_marriage",
                    "cards": views.codes(ACES),
                    "points": ACE_MARRIAGE_POINTS,
                }
            )

    # ----------------------------------------------------------------- scoring

    def _scored_deals(self) -> int:
        return self._earlier_deals + len(self._rows)

    def deal_points(self) -> list[int]:
        """Each seat's card points in tricks plus declared marriages, this deal."""
        return [card_points(self._taken[s]) + self._marriages[s] for s in range(self._n)]

    def _finish_deal(self, conceded: bool) -> None:
        bidder, contract = self._bidder, self._contract
        assert bidder is not None and contract is not None
        golden = self._conv.golden_round and self._scored_deals() < GOLDEN_DEALS
        outcome = DealOutcome(
            bidder=bidder,
            contract=contract,
            conceded=conceded,
            points=tuple(self.deal_points()),
            tricks=tuple(self._tricks),
            golden=golden,
        )
        result = settle(
            outcome,
            self._conv,
            self._totals,
            self._bolts,
            self._barrel_seat,
            self._barrel_attempts,
        )
        self._totals = result.totals
        self._bolts = result.bolts
        self._barrel_seat = result.barrel_seat
        self._barrel_attempts = result.barrel_attempts
        notes = result.notes
        notes["bid"] = self._high
        notes["dealer"] = self._dealer
        notes["trump"] = "SCDH"[self._trump] if self._trump >= 0 else None
        self._rows.append(
            {
                "deal_no": self._deal_no,
                "cells": [str(t) for t in result.totals],
                "totals": list(result.totals),
                "deltas": list(result.deltas),
                "notes": notes,
            }
        )
        self._last_deal = {"deal_no": self._deal_no, "redeal": False, **notes}
        self._last_deal["deltas"] = list(result.deltas)
        self._last_deal["last_trick"] = (
            None
            if conceded or self._last_trick is None
            else {
                "cards": [{"seat": s, "card": CARD_CODES[c]} for s, c in self._last_trick],
                "winner": self._last_winner,
            }
        )
        if result.winner is not None:
            self._winner = result.winner
            self._phase = GAME_OVER
            self._to_act = None
            return
        self._start_deal((self._dealer + 1) % self._n)

    # ------------------------------------------------------------ persistence

    def to_json(self) -> JsonDict:
        return {
            "game": self.name,
            "seats": self._n,
            "conventions": self.conventions_json(),
            "seed": self._seed,
            "deal_no": self._deal_no,
            "dealer": self._dealer,
            "totals": list(self._totals),
            "bolts": list(self._bolts),
            "barrel_seat": self._barrel_seat,
            "barrel_attempts": self._barrel_attempts,
            "rows": [views.copy_json(row) for row in self._rows],
            "start_totals": list(self._start_totals),
            "earlier_deals": self._earlier_deals,
            "winner": self._winner,
            "last_deal": views.copy_json(self._last_deal),
            "phase": self._phase,
            "to_act": self._to_act,
            "hands": list(self._hands),
            "talons": list(self._talons),
            "talon_taken": self._talon_taken,
            "talon_cards": self._talon_cards,
            "talon_shown": self._talon_shown,
            "auction": [list(e) for e in self._auction],
            "passed": list(self._passed),
            "auto_passed": list(self._auto_passed),
            "high": self._high,
            "bidder": self._bidder,
            "received": list(self._received),
            "redeal_queue": list(self._redeal_queue),
            "contract": self._contract,
            "trump": self._trump,
            "trick": [list(e) for e in self._trick],
            "last_trick": None if self._last_trick is None else [list(e) for e in self._last_trick],
            "last_winner": self._last_winner,
            "taken": list(self._taken),
            "tricks": list(self._tricks),
            "marriages": list(self._marriages),
            "announcements": views.copy_json(self._announcements),
            "tricks_played": self._tricks_played,
        }

    @classmethod
    def from_json(cls, data: JsonDict) -> Self:
        if data.get("game") != cls.name:
            raise ValueError(f"not a {cls.name} state")
        game = cls(data["seats"], ThousandConventions.from_json(data["conventions"]), data["seed"])
        game._deal_no = data["deal_no"]
        game._dealer = data["dealer"]
        game._totals = list(data["totals"])
        game._bolts = list(data["bolts"])
        game._barrel_seat = data["barrel_seat"]
        game._barrel_attempts = data["barrel_attempts"]
        game._rows = [views.copy_json(row) for row in data["rows"]]
        game._start_totals = list(data["start_totals"])
        game._earlier_deals = data["earlier_deals"]
        game._winner = data["winner"]
        game._last_deal = views.copy_json(data["last_deal"])
        game._phase = data["phase"]
        game._to_act = data["to_act"]
        game._hands = list(data["hands"])
        game._talons = list(data["talons"])
        game._talon_taken = data["talon_taken"]
        game._talon_cards = data["talon_cards"]
        game._talon_shown = data["talon_shown"]
        game._auction = [list(e) for e in data["auction"]]
        game._passed = list(data["passed"])
        game._auto_passed = list(data["auto_passed"])
        game._high = data["high"]
        game._bidder = data["bidder"]
        game._received = list(data["received"])
        game._redeal_queue = list(data["redeal_queue"])
        game._contract = data["contract"]
        game._trump = data["trump"]
        game._trick = [list(e) for e in data["trick"]]
        last = data["last_trick"]
        game._last_trick = None if last is None else [list(e) for e in last]
        game._last_winner = data["last_winner"]
        game._taken = list(data["taken"])
        game._tricks = list(data["tricks"])
        game._marriages = list(data["marriages"])
        game._announcements = views.copy_json(data["announcements"])
        game._tricks_played = data["tricks_played"]
        return game

    def clone(self) -> Self:
        return type(self).from_json(self.to_json())


_DEFAULT_CONVENTIONS = ThousandConventions()


def _conventions(conventions: Any) -> ThousandConventions:
    if conventions is None:
        return _DEFAULT_CONVENTIONS
    if not isinstance(conventions, ThousandConventions):
        raise TypeError("Thousand needs ThousandConventions")
    return conventions


def _check_deal(seats: int, hands: list[int], talons: list[int]) -> None:
    sizes = (7, [3]) if seats == 3 else (10, [2, 2])
    if seats not in (2, 3) or any(popcount(h) != sizes[0] for h in hands):
        raise ValueError("hands must hold 7 cards each (3 players) or 10 (2 players)")
    if [popcount(t) for t in talons] != sizes[1]:
        raise ValueError("talons must be one of 3 cards (3 players) or two of 2 (2 players)")
    union = 0
    for mask in [*hands, *talons]:
        union |= mask
    if union != DECK:
        raise ValueError("the hands and talons must hold the 24 cards 9..A, each once")
