"""Hand-written card play: cash masters, draw trumps, take points cheaply, discard low.

:func:`greedy_card` reads only the acting seat's hand and public facts from the
:class:`~bot.ai.deberts.table.Table` (cards gone, the trick, voids shown), so the
same function serves the easy level and the rollouts of the hard level.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.ai.deberts.table import (
    BEATERS,
    FULL,
    POINTS,
    STRENGTH,
    TRUMPS,
    Table,
    top_unplayed,
)
from bot.engine.cards import SUIT_BYTE_CARDS, SUIT_MASKS, mask_cards
from bot.engine.deberts.rules import RANKING, legal_mask

__all__ = ["greedy_card", "lowest_card", "opponents_may_hold"]


def lowest_card(mask: int, trump: int) -> int:
    """The card of ``mask`` that costs least to give away: few points, weak, not a trump."""
    return _least_card(mask, _LOWEST[trump])


def _cheapest_beater(beaters: int, trump: int) -> int:
    """The weakest of ``beaters``, a plain card before a trump."""
    return _least_card(beaters, _WEAKEST[trump])


def _least_card(mask: int, least: tuple[tuple[tuple[int, int], ...], ...]) -> int:
    """The card of ``mask`` of least cost by ``least`` (a table :func:`_least` made), or -1."""
    best = -1
    best_key = 1 << 30
    for suit in range(4):
        byte = mask >> (suit * 8) & 0xFF
        if byte:
            card, key = least[suit][byte]
            if key < best_key:
                best, best_key = card, key
    return best


def opponents_may_hold(table: Table, seat: int, suit_mask: int, after: Sequence[int]) -> int:
    """Cards of ``suit_mask`` not gone, not ``seat``'s, and not ruled out for all of ``after``."""
    unknown = suit_mask & FULL & ~(table.gone | table.hands[seat])
    if not unknown or not after:
        return 0
    possible = 0
    for other in after:
        possible |= unknown & ~table.voids[other]
    return possible


_OTHERS = {n: tuple(tuple(s for s in range(n) if s != seat) for seat in range(n)) for n in (2, 3)}
"""Per number of seats, the seats other than each."""
_AFTER = {
    n: tuple(
        tuple(tuple((seat + i) % n for i in range(1, n - k)) for k in range(n)) for seat in range(n)
    )
    for n in (2, 3)
}
"""Per number of seats, seat and cards in the trick: the seats to play after it."""


def _opponents(table: Table, seat: int) -> tuple[int, ...]:
    """Seats playing against ``seat`` in this deal: everybody, except a fellow whistler."""
    n = table.n
    if seat == table.bidder or n == 2:
        return _OTHERS[n][seat]
    return (table.bidder,)


def _give_cost(trump: int, card: int) -> int:
    """What giving ``card`` away costs: its points, then its strength; a trump costs most."""
    return POINTS[trump][card] * 64 + STRENGTH[trump][card] + (2000 if card >> 3 == trump else 0)


def _beat_cost(trump: int, card: int) -> int:
    """What taking a trick with ``card`` costs: its strength; a trump costs more."""
    return STRENGTH[trump][card] + (100 if card >> 3 == trump else 0)


def _lead_cost(trump: int, card: int) -> int:
    """What leading ``card`` of a plain suit costs: its points, then its strength."""
    return POINTS[trump][card] * 40 + STRENGTH[trump][card]


def _least(trump: int, cost: Callable[[int, int], int]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per suit and set of its cards (rank bits): the card of least ``cost`` with ``trump``
    (the lowest card on a tie) and that cost."""
    table = []
    for suit in range(4):
        row = [(-1, 1 << 30)]
        for byte in range(1, 256):
            costs = [(cost(trump, card), card) for card in SUIT_BYTE_CARDS[suit][byte]]
            least, card = min(costs)
            row.append((card, least))
        table.append(tuple(row))
    return tuple(table)


_LOWEST = tuple(_least(t, _give_cost) for t in TRUMPS)
"""Per trump (the last: none): :func:`_least` by :func:`_give_cost`."""
_WEAKEST = tuple(_least(t, _beat_cost) for t in TRUMPS)
"""Per trump (the last: none): :func:`_least` by :func:`_beat_cost`."""
_CHEAPEST = tuple(_least(t, _lead_cost) for t in TRUMPS)
"""Per trump (the last: none): :func:`_least` by :func:`_lead_cost`."""


def greedy_card(table: Table, seat: int) -> int:
    hand = table.hands[seat]
    legal = legal_mask(hand, table.trick, table.trump)
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    if not table.trick:
        return _lead(table, seat, hand)
    return _follow(table, seat, legal)


def _lead(table: Table, seat: int, hand: int) -> int:
    trump = table.trump
    gone = table.gone
    pts = POINTS[trump]
    cheapest = _CHEAPEST[trump]
    opps = _opponents(table, seat)
    voids = table.voids
    trump_mask = SUIT_MASKS[trump]
    my_trumps = hand & trump_mask
    their_trumps = opponents_may_hold(table, seat, trump_mask, opps)
    if my_trumps and their_trumps:
        top = top_unplayed(trump, gone, trump)
        n_mine = my_trumps.bit_count()
        if top >= 0 and hand >> top & 1 and (seat == table.bidder or n_mine >= 2):
            return top
        if seat == table.bidder and n_mine >= 3 and n_mine > their_trumps.bit_count() // 2:
            # Long trumps without the top: push a small one to draw theirs.
            low = lowest_card(my_trumps, trump)
            if pts[low] == 0:
                return low
    # Cash a master of a plain suit nobody will ruff.
    ruffers = 0  # suits some opponent is void in while perhaps holding trumps
    if their_trumps:
        for o in opps:
            if not voids[o] & trump_mask:
                ruffers |= voids[o]
    all_void = -1
    for o in opps:
        all_void &= voids[o]
    best_master = -1
    best_value = -1
    best = -1
    best_key = 1 << 30
    for suit in range(4):
        if suit == trump:
            continue
        suit_mask = SUIT_MASKS[suit]
        mine = hand & suit_mask
        if not mine:
            continue
        top = top_unplayed(suit, gone, trump)
        if mine >> top & 1 and not ruffers & suit_mask:
            value = pts[top] * 4 + (suit_mask & ~gone & ~hand).bit_count()
            if value > best_value:
                best_master, best_value = top, value
        # The small card this suit offers.
        length = mine.bit_count()
        base = 0
        ten = suit * 8 + 3
        ace = ten + 4
        if mine >> ten & 1 and not (gone | mine) >> ace & 1:
            base += 150 if length <= 2 else 40
        if my_trumps and length == 1:
            base -= 8
        if all_void & suit_mask and their_trumps:
            base += 60
        card, key = cheapest[suit][mine >> (suit * 8) & 0xFF]
        if base + key < best_key:
            best, best_key = card, base + key
    if best_master >= 0 and pts[best_master] > 0:
        return best_master
    if best >= 0:
        return best
    # Only trumps left.
    top = top_unplayed(trump, gone, trump)
    if top >= 0 and hand >> top & 1:
        return top
    return lowest_card(hand, trump)


def _follow(table: Table, seat: int, legal: int) -> int:
    trump = table.trump
    pts = POINTS[trump]
    trick = table.trick
    best_card = trick[table.best]
    best_seat = table.best_seat
    n = table.n
    after = _AFTER[n][seat][len(trick)]
    opps = _opponents(table, seat)
    trick_points = sum(map(pts.__getitem__, trick))
    friendly = best_seat not in opps
    if friendly:
        # A fellow whistler wins: give points if nobody after us can take them back.
        if not any(s in opps for s in after):
            return _smear(table, seat, legal)
        return lowest_card(legal, trump)
    beaters = legal & BEATERS[trump][best_card]
    if not beaters:
        return lowest_card(legal, trump)
    later_opps = [s for s in after if s in opps]
    if not later_opps:
        return _take_last(table, legal, beaters, trick_points)
    led = trick[0] >> 3
    if best_card >> 3 == led and led != trump:
        in_suit = beaters & SUIT_MASKS[led]
        if in_suit:
            top = top_unplayed(led, table.gone, trump)
            if top >= 0 and in_suit >> top & 1:
                ruff = any(
                    table.voids[o] & SUIT_MASKS[led]
                    and opponents_may_hold(table, seat, SUIT_MASKS[trump], [o])
                    for o in later_opps
                )
                if not ruff:
                    return top
            return lowest_card(legal, trump)
    # Ruffing, or a trump over a trump: take with a trump they cannot beat, if any.
    trumps = beaters & SUIT_MASKS[trump]
    if trumps:
        their = opponents_may_hold(table, seat, SUIT_MASKS[trump], later_opps)
        safe = [c for c in mask_cards(trumps) if not their & RANKING.trump_stronger[c]]
        if safe:
            return min(safe, key=lambda c: STRENGTH[trump][c])
        if trick_points >= 10 or led == trump:
            return _cheapest_beater(trumps, trump)
        alternatives = legal & ~trumps
        if alternatives:
            return lowest_card(alternatives, trump)
        return _cheapest_beater(trumps, trump)
    return lowest_card(legal, trump)


def _take_last(table: Table, legal: int, beaters: int, trick_points: int) -> int:
    """Nobody against us plays after: take with the card that wastes least."""
    trump = table.trump
    pts = POINTS[trump]
    led = table.trick[0] >> 3
    in_suit = beaters & SUIT_MASKS[led] if led != trump else 0
    if in_suit:
        ten = led * 8 + 3
        ace = led * 8 + 7
        if in_suit >> ten & 1 and not (table.gone | in_suit) >> ace & 1:
            return ten  # the ten would fall to the ace later
        # The biggest points that are not the suit's master, else the cheapest.
        top = top_unplayed(led, table.gone, trump)
        cards = [c for c in mask_cards(in_suit) if c != top]
        if cards:
            return max(cards, key=lambda c: (pts[c], STRENGTH[trump][c]))
        return top
    trumps = beaters & SUIT_MASKS[trump]
    cheapest = _cheapest_beater(trumps or beaters, trump)
    alternatives = legal & ~beaters
    if trick_points == 0 and pts[cheapest] >= 10 and alternatives:
        return lowest_card(alternatives, trump)
    return cheapest


def _smear(table: Table, seat: int, legal: int) -> int:
    """Give a friend the most points without throwing a master card away."""
    trump = table.trump
    pts = POINTS[trump]
    best = -1
    best_key = -1
    for card in mask_cards(legal):
        suit = card >> 3
        if suit == trump and pts[card] >= 10:
            continue
        if card == top_unplayed(suit, table.gone, trump) and pts[card] >= 10:
            continue
        if pts[card] > best_key:
            best, best_key = card, pts[card]
    return best if best >= 0 else lowest_card(legal, trump)
