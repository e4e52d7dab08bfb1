"""The card play: following, trumping, trick winners and marriages declared on lead."""

from __future__ import annotations

from bot.engine.base import IllegalAction
from bot.engine.cards import SUIT_MASKS
from bot.engine.thousand import view as views
from bot.engine.thousand.codes import CARD_CODES, card_of
from bot.engine.thousand.rules import (
    ACE_MARRIAGE_POINTS,
    ACES,
    KINGS,
    MARRIAGE_POINTS,
    QUEENS,
    RANKING,
)
from bot.engine.thousand.state import DealState

__all__ = ["DECLARE_NEEDS", "CardPlay"]

_QUEEN, _KING, _ACE = 5, 6, 7  # rank offsets within a suit's 8 slots: 9 is 2, A is 7
_STRENGTH = RANKING.plain_strength  # Thousand ranks trumps as plain suits: A 10 K Q J 9
# ``_WIN_KEYS[trump + 1][led][card]``: the higher key takes the trick. A trump is above
# every card of the suit led, any other suit below both (it can never win).
_WIN_KEYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            16 + _STRENGTH[card]
            if card >> 3 == trump
            else _STRENGTH[card]
            if card >> 3 == led
            else -1
            for card in range(32)
        )
        for led in range(4)
    )
    for trump in range(-1, 4)
)
# The other cards a lead needs in hand to declare anything: a king its queen, a queen
# its king, an ace the other three aces (if the table plays the ace marriage); every
# other lead, and most of these, skip :meth:`CardPlay._declare` at once.
DECLARE_NEEDS: tuple[int, ...] = tuple(
    1 << (card - 1)
    if KINGS >> card & 1
    else 1 << (card + 1)
    if QUEENS >> card & 1
    else ACES & ~(1 << card)
    if ACES >> card & 1
    else 0
    for card in range(32)
)


class CardPlay(DealState):
    """Tricks on bitmask hands; a finished deal goes to ``_finish_deal``."""

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
        hands[seat] = hand ^ (1 << card)
        if not trick:
            need = DECLARE_NEEDS[card]
            if need and hand & need == need and self._tricks_played:
                self._declare(seat, card, hand)
            trick.append([seat, card])
            # A lead never completes a trick: there are at least two players.
            self._to_act = self._follow[seat]
            return
        trick.append([seat, card])
        if len(trick) < self._players:
            self._to_act = self._follow[seat]
            return
        self._end_trick(trick)

    def _end_trick(self, trick: list[list[int]]) -> None:
        """Give the full ``trick`` to its winner; the deal ends with the last one."""
        # The highest trump, else the highest card of the suit led (``tricks.trick_winner``).
        winner, best = trick[0]
        won = 1 << best
        keys = _WIN_KEYS[self._trump + 1][best >> 3]
        top = keys[best]
        for other, c in trick[1:]:
            won |= 1 << c
            if keys[c] > top:
                winner, top = other, keys[c]
        self._taken[winner] |= won
        self._tricks_taken[winner] += 1
        self._tricks_played += 1
        self._last_trick = trick
        self._played.append(trick)
        self._played_winners.append(winner)
        self._last_winner = winner
        self._trick = []
        self._to_act = winner
        if not self._hands[winner]:
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
