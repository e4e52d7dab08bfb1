"""A lean bitmask simulator of the Deberts card play, for bot search and benchmarks.

It knows every hand (bots feed it sampled hands), plays from the first trick or
from any later trick boundary, and scores the deal exactly as the engine does:
card points, last trick, the combination winner's terz/berz if they take a
trick, bella.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.engine.cards import SUIT_MASKS, mask_cards
from bot.engine.deberts import rules
from bot.engine.deberts.scoring import seat_order

__all__ = ["SimDeal", "combination_award", "random_playout"]


def combination_award(
    hands: Sequence[int], trump: int, dealer: int, moscow: bool
) -> tuple[int, int]:
    """(seat, points) of the combination winner from the hands at their first card, or (-1, 0)."""
    best: tuple[int, int, int, int] | None = None
    winner = -1
    for position, seat in enumerate(seat_order(dealer, len(hands))):
        key = rules.best_key(rules.combinations(hands[seat]), trump, moscow)
        if key is not None and (best is None or (*key, -position) > best):
            best = (*key, -position)
            winner = seat
    if winner < 0:
        return -1, 0
    return winner, sum(c.points for c in rules.combinations(hands[winner]))


class SimDeal:
    """The play of one deal on bitmasks; ``play`` trusts its caller to pass a legal card."""

    __slots__ = (
        "bella",
        "card_points",
        "combo_points",
        "combo_winner",
        "hands",
        "last_winner",
        "leader",
        "seats",
        "to_act",
        "trick",
        "tricks_taken",
        "trump",
    )

    def __init__(
        self,
        hands: Sequence[int],
        trump: int,
        leader: int,
        *,
        combo_winner: int = -1,
        combo_points: int = 0,
        bella: Sequence[bool] | None = None,
    ) -> None:
        self.seats = len(hands)
        self.hands = list(hands)
        self.trump = trump
        self.leader = leader
        self.to_act = leader
        self.trick: list[int] = []
        self.card_points = [0] * self.seats
        self.tricks_taken = [0] * self.seats
        self.combo_winner = combo_winner
        self.combo_points = combo_points
        pair = rules.bella_mask(trump)
        self.bella = list(bella) if bella is not None else [h & pair == pair for h in hands]
        self.last_winner = -1

    @classmethod
    def start(
        cls, hands: Sequence[int], trump: int, dealer: int, *, moscow: bool = True
    ) -> SimDeal:
        """A deal before its first card, its combinations settled from the full hands."""
        winner, points = combination_award(hands, trump, dealer, moscow)
        return cls(
            hands,
            trump,
            (dealer + 1) % len(hands),
            combo_winner=winner,
            combo_points=points,
        )

    @property
    def done(self) -> bool:
        return not self.hands[self.to_act] and not self.trick

    def legal(self) -> int:
        return rules.legal_mask(self.hands[self.to_act], self.trick, self.trump)

    def play(self, card: int) -> int:
        """Play ``card`` for the seat to act; the trick's winner once it is complete, else -1."""
        seat = self.to_act
        self.hands[seat] &= ~(1 << card)
        trick = self.trick
        trick.append(card)
        if len(trick) < self.seats:
            self.to_act = (seat + 1) % self.seats
            return -1
        winner = (self.leader + rules.winning_position(trick, self.trump)) % self.seats
        points = rules.POINTS[self.trump]
        self.card_points[winner] += sum([points[c] for c in trick])
        self.tricks_taken[winner] += 1
        self.trick = []
        self.leader = self.to_act = self.last_winner = winner
        return winner

    def deal_points(self) -> list[int]:
        """Each seat's deal points once every card is played."""
        points = list(self.card_points)
        points[self.last_winner] += rules.LAST_TRICK_POINTS
        if self.combo_winner >= 0 and self.tricks_taken[self.combo_winner]:
            points[self.combo_winner] += self.combo_points
        for seat, bella in enumerate(self.bella):
            if bella:
                points[seat] += rules.BELLA_POINTS
        return points


def random_playout(
    hands: Sequence[int], trump: int, leader: int, random: Callable[[], float]
) -> tuple[list[int], int]:
    """Play whole tricks with uniformly random legal cards: (card points per seat, last winner).

    The hot loop of bot search: one flat function, table look-ups only.
    """
    seats = len(hands)
    hands = list(hands)
    points = rules.POINTS[trump]
    keys_by_led = rules.WIN_KEYS[trump]
    stronger = rules.RANKING.trump_stronger
    trump_mask = SUIT_MASKS[trump]
    card_points = [0] * seats
    seat = leader
    while hands[seat]:
        hand = hands[seat]
        cards = mask_cards(hand)
        lead = cards[int(random() * len(cards))]
        hands[seat] = hand ^ (1 << lead)
        led = lead >> 3
        keys = keys_by_led[led]
        led_mask = SUIT_MASKS[led]
        best, best_key, best_seat = lead, keys[lead], seat
        total = points[lead]
        for step in range(1, seats):
            other = (seat + step) % seats
            hand = hands[other]
            legal = hand & led_mask
            if legal:
                if led == trump:
                    legal = legal & stronger[best] or legal
            else:
                legal = hand & trump_mask or hand
            cards = mask_cards(legal)
            card = cards[int(random() * len(cards))]
            hands[other] = hand ^ (1 << card)
            total += points[card]
            if keys[card] > best_key:
                best, best_key, best_seat = card, keys[card], other
        card_points[best_seat] += total
        seat = best_seat
    return card_points, seat
