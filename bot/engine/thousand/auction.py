"""The auction: obligatory opening, rising bids, limits, automatic passes, the talon."""

from __future__ import annotations

from bot.engine.base import IllegalAction
from bot.engine.thousand.codes import BID_CODES, number_of
from bot.engine.thousand.rules import BARREL_CONTRACT, OPENING_BID, bid_limit, next_bid_floor
from bot.engine.thousand.state import GIVE, TALON, DealState

__all__ = ["Auction"]


class Auction(DealState):
    """Bidding up to the talon pick (the barrel player's 121 included)."""

    def _begin_auction(self, hands: list[int], talons: list[int]) -> None:
        self._clear_deal()
        self._dealt = (list(hands), list(talons))
        self._hands = hands
        self._talons = talons
        barrel = self._barrel_seat
        if barrel is not None and barrel == self._sitting_out:
            # a dealer on the barrel sits the deal out: no attempt, an ordinary auction
            barrel = None
        if barrel is not None:
            self._highest_bid = BARREL_CONTRACT
            self._bidder = barrel
            self._auction.append([barrel, BID_CODES[BARREL_CONTRACT]])
            if not self._conv.barrel_trading:
                self._end_auction()
                return
        self._to_act = self._first_hand()
        if barrel is not None and self._to_act == barrel:
            self._to_act = self._next_bidder(barrel)
        self._auto_pass()

    def _bid_range(self, seat: int) -> tuple[int, int]:
        floor = next_bid_floor(self._highest_bid)
        limit = bid_limit(self._hands[seat], self._conv.ace_marriage)
        if self._conv.bid_step == "plus5":
            limit = min(limit, floor)
        return floor, limit

    def _must_open(self, seat: int) -> bool:
        return self._highest_bid is None and seat == self._first_hand()

    def _auction_actions(self, seat: int) -> tuple[str, ...]:
        floor, limit = self._bid_range(seat)
        bids = BID_CODES[floor : limit + 1 : 5]
        return bids if self._must_open(seat) else ("pass", *bids)

    def _bid(self, seat: int, action: str) -> None:
        if action == "pass":
            if self._must_open(seat):
                raise IllegalAction(
                    "must_open", "The first hand must open the bidding with at least 100."
                )
            amount = None
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
        self._record_bid(seat, action, amount)

    def _record_bid(self, seat: int, action: str, amount: int | None) -> None:
        """A bid (``amount``) or pass (``None``) already checked, and what follows it."""
        if amount is None:
            self._passed[seat] = True
        else:
            self._highest_bid = amount
            self._bidder = seat
        self._auction.append([seat, action])
        self._after_auction_step(seat)

    def _after_auction_step(self, seat: int) -> None:
        active = self._passed.count(False)
        if active == 0 or (active == 1 and self._highest_bid is not None):
            self._end_auction()
            return
        self._to_act = self._next_bidder(seat)
        self._auto_pass()

    def _next_bidder(self, seat: int) -> int:
        follow = self._follow
        nxt = follow[seat]
        while self._passed[nxt] or nxt == self._bidder:
            nxt = follow[nxt]
        return nxt

    def _auto_pass(self) -> None:
        """Players below the minus limit pass without being asked."""
        # Only called in the auction, which ends (and the loop with it) in ``_end_auction``.
        limit = self._conv.minus_limit
        totals = self._totals
        seat = self._to_act
        assert seat is not None
        if totals[seat] >= limit:
            return
        passed = self._passed
        while True:
            passed[seat] = True
            self._auto_passed.append(seat)
            self._auction.append([seat, "pass"])
            active = passed.count(False)
            if active == 0 or (active == 1 and self._highest_bid is not None):
                self._end_auction()
                return
            seat = self._to_act = self._next_bidder(seat)
            if totals[seat] >= limit:
                return

    def _end_auction(self) -> None:
        if self._highest_bid is None:
            # Everyone passed (the first hand automatically): the first hand plays 100.
            self._highest_bid = OPENING_BID
            self._bidder = self._first_hand()
        bidder = self._bidder
        assert bidder is not None
        # Every pass is a seat's only pass, so the bids are the entries less the passes
        # (the dealer sitting out is marked as passed without an entry).
        bids = len(self._auction) - self._passed.count(True) + (self._sitting_out >= 0)
        on_hundred = self._highest_bid == OPENING_BID and bidder == self._first_hand() and bids <= 1
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
