"""Between auction and play: the give-away, the redeal window and the contract."""

from __future__ import annotations

from bot.engine.base import IllegalAction
from bot.engine.thousand.codes import CARD_CODES, CONTRACT_CODES, card_of, give_codes, number_of
from bot.engine.thousand.rules import NINES, bid_limit, card_points
from bot.engine.thousand.state import CONTRACT, PLAY, REDEAL, DealState

__all__ = ["Handover"]


class Handover(DealState):
    """The bidder's give-away, the redeal requests and naming (or conceding) the contract."""

    def _give_actions(self, seat: int) -> tuple[str, ...]:
        mask = self._hands[seat]
        out: tuple[str, ...] = ()
        sitting_out = self._sitting_out
        for target in range(self._n):
            if target != seat and target != sitting_out and not self._received[target]:
                out += give_codes(mask, target)
        return out

    def _give(self, seat: int, action: str) -> None:
        card = card_of(action[1:3])
        target_text = action[3:]
        if card is None or not target_text.isdigit() or len(action) != 4:
            raise IllegalAction("unknown_action", f"{action!r} is not a give-away.", action=action)
        target = int(target_text)
        if target == seat or target >= self._n or target == self._sitting_out:
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
        self._give_card(seat, card, target)

    def _give_card(self, seat: int, card: int, target: int) -> None:
        """Hand over a card already checked (by ``_give`` or the legal list)."""
        hands = self._hands
        bit = 1 << card
        hands[seat] ^= bit
        hands[target] |= bit
        received = self._received
        received[target] = True
        self._gifts[target] = card
        if received.count(True) == self._players - 1:
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
        return [seat for seat in self._active() if self._redeal_reason(seat) is not None]

    def _redeal_reason(self, seat: int) -> str | None:
        """Why ``seat`` may ask for a redeal after the give-away: ``"nines"`` (all four
        in hand), ``"points"`` (under 14 card points), ``"talon"`` (the talon was all
        nines); ``None``: it may not."""
        hand = self._hands[seat]
        if hand & NINES == NINES:
            return "nines"
        if card_points(hand) < 14:
            return "points"
        if self._talon_cards & ~NINES == 0:
            return "talon"
        return None

    def _answer_redeal(self, seat: int, action: str) -> None:
        if action == "redeal":
            self._close_deal(True)
            # In turn with the settled deals still to be written (``_write_rows``).
            self._unwritten.append(
                {
                    "deal_no": self.deal_no - self._redeals,
                    "redeal": True,
                    "asked_by": seat,
                    "why": self._redeal_reason(seat),  # the cards are dealt anew: no secret
                    "written": [0] * self._n,
                    "deltas": [0] * self._n,
                    "marks": ["redeal"] * self._n,
                }
            )
            self._redeals += 1
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
        high = self._highest_bid
        assert high is not None
        return high, max(high, bid_limit(self._hands[seat], self._conv.ace_marriage))

    def _may_concede(self, seat: int) -> bool:
        return self._conv.concede and seat != self._barrel_seat

    def _contract_actions(self, seat: int) -> tuple[str, ...]:
        # ``_contract_bounds``, ``next_bid_floor`` and ``_may_concede`` written out:
        # this runs once a deal.
        low = self._highest_bid
        assert low is not None
        conv = self._conv
        high = max(low, bid_limit(self._hands[seat], conv.ace_marriage))
        out = (CONTRACT_CODES[low], *CONTRACT_CODES[(low // 5 + 1) * 5 : high + 1 : 5])
        if conv.concede and seat != self._barrel_seat:
            out += ("concede",)
        return out

    def _name_contract(self, seat: int, action: str) -> None:
        if action == "concede":
            if not self._conv.concede:
                raise IllegalAction("concede_not_allowed", "Conceding is off at this table.")
            if seat == self._barrel_seat:
                raise IllegalAction("concede_on_barrel", "No conceding on the barrel.")
            self._concede()
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
        self._set_contract(seat, amount)

    def _concede(self) -> None:
        self._contract = self._highest_bid
        self._finish_deal(conceded=True)

    def _set_contract(self, seat: int, amount: int) -> None:
        self._contract = amount
        self._phase = PLAY
        self._to_act = seat
