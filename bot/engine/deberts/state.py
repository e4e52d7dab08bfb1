"""The Deberts table: deals, the two bidding rounds, play, deal scoring and game end.

Hands are bitmasks and the hot paths (``legal_actions``/``apply`` in play) use
precomputed code tables, so random whole deals run fast enough for benchmarks
and bot search through this very API.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import add
from typing import Any, Literal, Self, cast, overload

from bot.engine.base import (
    Conventions,
    DealLog,
    Game,
    IllegalAction,
    JsonDict,
    LoggedTrick,
    Move,
    ScoreRow,
    Scoresheet,
    choice,
    json_copy,
)
from bot.engine.cards import DECK_32, SUIT_MASKS, codes_to_mask, parse_index
from bot.engine.deberts import rules, scoring
from bot.engine.deberts import view as views
from bot.engine.deberts.deck import shuffled_deck
from bot.engine.deberts.results import (
    DealRecord,
    announcement,
    row_of,
    summary_of,
    swap_record,
    with_given,
)
from bot.engine.deberts.rules import (
    BELLA_MASKS,
    BELLA_POINTS,
    BERZ,
    CARD_CODES,
    COMBO_POINTS,
    LAST_TRICK_POINTS,
    ONE_SUIT_CODES,
    PLAY_CODES,
    POINTS,
    SEVENS,
    SUIT_BYTE_CODES,
    SUIT_CODES,
    WIN_KEYS,
    Combination,
    card_codes,
    combinations,
    legal_mask,
)
from bot.engine.deberts.scoring import SEAT_ORDERS
from bot.engine.deberts.view import (
    Announcement,
    DealSummary,
    DebertsBriefView,
    DebertsView,
    Redeal,
)
from bot.engine.tricks import deal_seed

__all__ = ["Deberts", "DebertsConventions", "Phase"]


class Phase:
    BIDDING_1 = "bidding_1"
    BIDDING_2 = "bidding_2"
    PLAY = "play"
    GAME_OVER = "game_over"


# Module constants: a global load is cheaper than a class attribute on the hot paths.
_PLAY = Phase.PLAY
_BIDDING_1 = Phase.BIDDING_1
_BIDDING_2 = Phase.BIDDING_2
_GAME_OVER = Phase.GAME_OVER


@dataclass(frozen=True)
class DebertsConventions(Conventions):
    target: int = choice(501, (501, 301))
    winner_takes_all: bool = choice(False, (False, True))
    order_obligatory: bool = choice(False, (False, True))
    seven_swap: bool = choice(True, (True, False))
    hanging_separately: bool = choice(False, (False, True))
    trump_in_combination: str = choice("moscow", ("moscow", "kharkov"))
    four_sevens_redeal: bool = choice(False, (False, True))


_ROUND_1 = ("play", "pass")
# Every king and queen: only these can open a bella.
_KINGS_QUEENS = BELLA_MASKS[0] | BELLA_MASKS[1] | BELLA_MASKS[2] | BELLA_MASKS[3]
# A play code's card, its bit and whether it is a king or queen (only these can open a
# bella), worked out once rather than for every card played.
_PLAYS: dict[str, tuple[int, int, bool]] = {
    code: (card, 1 << card, bool(1 << card & _KINGS_QUEENS)) for code, card in PLAY_CODES.items()
}
_ROUND_2 = tuple(tuple(f"t{c}" for c in SUIT_CODES if c != SUIT_CODES[s]) for s in range(4))
_SUIT_OF_ORDER = {f"t{c}": s for s, c in enumerate(SUIT_CODES)}
_HAND_SIZE = 9
# _NEXT_SEAT[seats][seat]: the seat to the left, by a look-up the interpreter specialises.
_NEXT_SEAT = ((), (), (1, 0), (1, 2, 0))
# _HAS_STARTED[started][seat]: whether the seat has played a card this deal. Tuple
# look-ups are specialised by the interpreter where shifts and masks are not, and the
# hot paths ask this for every card.
_HAS_STARTED = tuple(tuple(bool(started >> seat & 1) for seat in range(3)) for started in range(8))
_SPADE_CODES, _CLUB_CODES, _DIAMOND_CODES, _HEART_CODES = SUIT_BYTE_CODES


def _combo_json(combo: Combination) -> list[Any]:
    return [combo.kind, combo.suit, combo.top, combo.mask]


# An ended deal's facts: deal_no, dealer, seats, deck, open card, whether trump was
# named, auction, tricks (leader first), last trick's winner, moves (None: not all
# kept), whether it was dealt anew.
_EndedDeal = tuple[
    int,
    int,
    int,
    list[int],
    int,
    bool,
    list[tuple[int, str]],
    list[list[int]],
    int,
    list[Move] | None,
    bool,
]

# Which cards of the deck each seat is dealt, the first seat being the dealer's left:
# three each twice, the open card, then three each after the order.
_DEALT = {
    2: (((0, 1, 2, 6, 7, 8), (13, 14, 15)), ((3, 4, 5, 9, 10, 11), (16, 17, 18))),
    3: (
        ((0, 1, 2, 9, 10, 11), (19, 20, 21)),
        ((3, 4, 5, 12, 13, 14), (22, 23, 24)),
        ((6, 7, 8, 15, 16, 17), (25, 26, 27)),
    ),
}
_OPEN_AT = {2: 12, 3: 18}


def _deal_log(ended: _EndedDeal) -> DealLog:
    deal_no, dealer, n, deck, open_card, ordered, auction, tricks, last_winner, moves, redeal = (
        ended
    )
    hands: list[tuple[str, ...]] = [()] * n
    stock: tuple[tuple[str, tuple[str, ...]], ...] = ()
    if deck:
        for k, (first, second) in enumerate(_DEALT[n]):
            places = first + second if ordered else first
            hands[(dealer + 1 + k) % n] = tuple(card_codes(sum(1 << deck[i] for i in places)))
        stock = (("open", (CARD_CODES[deck[_OPEN_AT[n]]],)),)
        if ordered:
            stock += (("bottom", (CARD_CODES[deck[31]],)),)
    elif open_card >= 0:
        stock = (("open", (CARD_CODES[open_card],)),)
    # Each trick's winner leads the next; the last one's is the deal's last winner.
    winners = [trick[0] for trick in tricks[1:]] + [last_winner] if tricks else []
    logged = tuple(
        LoggedTrick(
            tuple(((trick[0] + i) % n, CARD_CODES[c]) for i, c in enumerate(trick[1:])), winner
        )
        for trick, winner in zip(tricks, winners, strict=True)
    )
    return DealLog(
        game="deberts",
        deal_no=deal_no,
        dealer=dealer,
        hands=tuple(hands),
        stock=stock,
        auction=tuple(auction),
        gives=(),
        tricks=logged,
        moves=None if moves is None else tuple(moves),
        redeal=redeal,
    )


class Deberts(Game):
    """Deberts for 2 or 3 players, each for themselves."""

    name = "deberts"
    conventions_type = DebertsConventions
    max_seats = 3

    # More attributes than an instance dictionary shares keys for (30 in CPython 3.11):
    # without slots every attribute access on the hot paths takes the slower dict path.
    __slots__ = (
        "_announcements",
        "_auction",
        "_bella",
        "_bidder",
        "_bottom_card",
        "_card_points",
        "_combo_winner",
        "_conv",
        "_dealer",
        "_deck",
        "_declared",
        "_ended",
        "_hands",
        "_hanging",
        "_last_deal",
        "_leader",
        "_legal_cards",
        "_mars",
        "_moves",
        "_moves_lost",
        "_n",
        "_open_card",
        "_phase",
        "_redeal",
        "_redeals",
        "_rows",
        "_seed",
        "_stacked",
        "_started",
        "_swapped",
        "_to_act",
        "_totals",
        "_trick",
        "_tricks",
        "_tricks_taken",
        "_trump",
        "_winner",
        "deal_no",
    )

    _n: int
    _conv: DebertsConventions
    _seed: int
    # A slot rather than a property: read after every action by callers that
    # play deal by deal, and a property call costs several slot reads.
    deal_no: int
    _dealer: int
    _phase: str
    _to_act: int
    _deck: list[int]
    _stacked: list[list[int]]
    _hands: list[int]
    _open: int
    _bottom: int
    _auction: list[tuple[int, str]]
    _bidder: int
    _trump: int
    _leader: int
    _trick: list[int]
    # The legal cards of the seat to act while in play, or -1 until asked for: a
    # caller usually lists the legal actions and then applies one, so the mask is
    # worked out once for both. Every change to a hand, the trick or the turn resets it.
    _legal: int
    _tricks: list[list[int]]
    _card_points: list[int]
    _tricks_taken: list[int]
    _started: int
    _declared: list[list[Combination]]
    _combo_winner: int
    _bella: list[bool]
    _announcements: list[Announcement]
    _swapped: int
    _redeal: Redeal | None
    # Deals dealt again (everyone passed, four sevens): each takes a fresh shuffle, so
    # ``deal_no`` counts it, but it keeps the number of the deal it replaced.
    _redeals: int
    _totals: list[int]
    # Deals not yet asked for stay records until the scoresheet or JSON needs them.
    _rows: list[ScoreRow | DealRecord]
    _hanging: list[int]
    _last_deal: DealSummary | DealRecord | None
    _winner: int
    _mars: list[int]
    # Every action of the deal in progress, and whether its first ones were not kept
    # (a deal under way in a state saved before moves were kept).
    _moves: list[Move]
    _moves_lost: bool
    # The deal that ended last: its facts until someone asks for its record.
    _ended: _EndedDeal | DealLog | None

    # -- construction ---------------------------------------------------------

    @classmethod
    def new(cls, seats: int, conventions: Conventions | None = None, seed: int = 0) -> Self:
        return cls._fresh(seats, conventions, seed, [], None)

    @classmethod
    def from_decks(
        cls,
        seats: int,
        decks: Sequence[Sequence[str]],
        *,
        dealer: int,
        conventions: Conventions | None = None,
        seed: int = 0,
    ) -> Self:
        """A game whose first deals use the given deck orders (top card first), then ``seed``.

        A deck is dealt 3 cards a seat from the dealer's left, twice; then the open
        card; then 3 more each after the order; its last card is the bottom card.
        """
        stacked = []
        for deck in decks:
            order = [parse_index(code) for code in deck]
            if sorted(order) != list(range(32)):
                raise ValueError("a stacked deck must hold each of the 32 cards once")
            stacked.append(order)
        return cls._fresh(seats, conventions, seed, stacked, dealer)

    @classmethod
    def from_position(
        cls,
        hands: Sequence[Sequence[str]],
        *,
        dealer: int,
        trump: str,
        bidder: int | None = None,
        open_card: str | None = None,
        bottom_card: str | None = None,
        conventions: Conventions | None = None,
        totals: Sequence[int] | None = None,
        hanging: Sequence[int] = (),
        seed: int = 0,
        deal_no: int = 1,
    ) -> Self:
        """A deal in play before the first card: the given hands, trump and bidder.

        Without ``open_card`` the open card is a card nobody holds outside the trump
        suit (as after an order in round 2).
        """
        masks = [codes_to_mask(hand) for hand in hands]
        seats = len(masks)
        used = 0
        for mask in masks:
            if used & mask:
                raise ValueError("a card is in two hands")
            used |= mask
        if len({m.bit_count() for m in masks}) != 1 or not 0 < masks[0].bit_count() <= 9:
            raise ValueError("every hand must hold the same number of cards, 1 to 9")
        trump_suit = SUIT_CODES.index(trump)
        if open_card is None:
            spare = DECK_32 & ~used & ~SUIT_MASKS[trump_suit]
            open_index = (spare & -spare).bit_length() - 1
        else:
            open_index = parse_index(open_card)
        if used >> open_index & 1:
            raise ValueError("the open card cannot be in a hand")
        game = cls._fresh(seats, conventions, seed, [], dealer, deal=False)
        game.deal_no = deal_no
        game._hands = masks
        game._open_card = open_index
        game._bottom_card = parse_index(bottom_card) if bottom_card is not None else -1
        game._bidder = (dealer + 1) % seats if bidder is None else bidder
        game._trump = trump_suit
        game._phase = Phase.PLAY
        game._to_act = game._leader = (dealer + 1) % seats
        if totals is not None:
            game._totals = list(totals)
        game._hanging = list(hanging)
        return game

    @classmethod
    def _fresh(
        cls,
        seats: int,
        conventions: Conventions | None,
        seed: int,
        stacked: list[list[int]],
        dealer: int | None,
        *,
        deal: bool = True,
    ) -> Self:
        if seats not in (2, 3):
            raise ValueError("Deberts is played by 2 or 3 players")
        if conventions is None:
            conventions = DebertsConventions()
        if not isinstance(conventions, DebertsConventions):
            raise TypeError("Deberts needs DebertsConventions")
        game = cls.__new__(cls)
        game._n = seats
        game._conv = conventions
        game._seed = seed
        game.deal_no = 0
        game._dealer = deal_seed(seed, 0) % seats if dealer is None else dealer
        game._stacked = stacked
        game._totals = [0] * seats
        game._rows = []
        game._hanging = []
        game._last_deal = None
        game._winner = -1
        game._mars = []
        game._redeal = None
        game._ended = None
        game._redeals = 0
        game._reset_deal()
        if deal:
            game._start_deal()
        return game

    def _reset_deal(self) -> None:
        n = self._n
        self._deck = []
        self._hands = [0] * n
        self._open_card = -1
        self._bottom_card = -1
        self._auction = []
        self._bidder = -1
        self._trump = -1
        self._leader = self._to_act = (self._dealer + 1) % n
        self._trick = []
        self._legal_cards = -1
        self._tricks = []
        self._card_points = [0] * n
        self._tricks_taken = [0] * n
        self._started = 0
        self._declared = [[], []] if n == 2 else [[], [], []]
        self._combo_winner = -1
        self._bella = [False] * n
        self._announcements = []
        self._swapped = -1
        self._moves = []
        self._moves_lost = False
        self._phase = _BIDDING_1

    def _start_deal(self) -> None:
        self.deal_no += 1
        self._reset_deal()
        d = (
            self._stacked.pop(0)
            if self._stacked
            else shuffled_deck(deal_seed(self._seed, self.deal_no))
        )
        self._deck = d
        # Three cards a seat in turn from the dealer's left, twice, then the open card;
        # written out per table size, as every deal starts here.
        if self._n == 3:
            first = 1 << d[0] | 1 << d[1] | 1 << d[2] | 1 << d[9] | 1 << d[10] | 1 << d[11]
            second = 1 << d[3] | 1 << d[4] | 1 << d[5] | 1 << d[12] | 1 << d[13] | 1 << d[14]
            third = 1 << d[6] | 1 << d[7] | 1 << d[8] | 1 << d[15] | 1 << d[16] | 1 << d[17]
            dealer = self._dealer
            if dealer == 0:
                self._hands = [third, first, second]
            elif dealer == 1:
                self._hands = [second, third, first]
            else:
                self._hands = [first, second, third]
            self._open_card = d[18]
        else:
            first = 1 << d[0] | 1 << d[1] | 1 << d[2] | 1 << d[6] | 1 << d[7] | 1 << d[8]
            second = 1 << d[3] | 1 << d[4] | 1 << d[5] | 1 << d[9] | 1 << d[10] | 1 << d[11]
            self._hands = [second, first] if self._dealer == 0 else [first, second]
            self._open_card = d[12]

    def _second_deal(self) -> None:
        # Three more cards a seat in turn from the dealer's left, past the open card.
        d = self._deck
        hands = self._hands
        if self._n == 3:
            first = 1 << d[19] | 1 << d[20] | 1 << d[21]
            second = 1 << d[22] | 1 << d[23] | 1 << d[24]
            third = 1 << d[25] | 1 << d[26] | 1 << d[27]
            dealer = self._dealer
            if dealer == 0:
                hands[1] |= first
                hands[2] |= second
                hands[0] |= third
            elif dealer == 1:
                hands[2] |= first
                hands[0] |= second
                hands[1] |= third
            else:
                hands[0] |= first
                hands[1] |= second
                hands[2] |= third
        else:
            first = 1 << d[13] | 1 << d[14] | 1 << d[15]
            second = 1 << d[16] | 1 << d[17] | 1 << d[18]
            if self._dealer == 0:
                hands[1] |= first
                hands[0] |= second
            else:
                hands[0] |= first
                hands[1] |= second
        self._bottom_card = d[31]

    # -- the state API ------------------------------------------------------------

    @property
    def seats(self) -> int:
        return self._n

    @property
    def conventions(self) -> DebertsConventions:
        return self._conv

    @property
    def is_over(self) -> bool:
        return self._phase == _GAME_OVER

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self._totals)

    @property
    def winner(self) -> int | None:
        return None if self._winner < 0 else self._winner

    def hand(self, seat: int) -> list[str]:
        return card_codes(self._hands[seat])

    def current_seat(self) -> int | None:
        return None if self._phase == _GAME_OVER else self._to_act

    def legal_actions(self, seat: int) -> list[str]:
        if seat != self._to_act:
            return []
        phase = self._phase
        if phase == _PLAY:
            legal = self._legal_cards
            if legal < 0:
                # legal_mask inline: this runs for every card of every deal.
                hand = self._hands[seat]
                trick = self._trick
                if not trick:
                    legal = hand
                else:
                    led = trick[0] >> 3
                    legal = hand & SUIT_MASKS[led]
                    if not legal:
                        legal = hand & SUIT_MASKS[self._trump] or hand
                    elif led == self._trump:
                        legal = legal_mask(hand, trick, led)
                self._legal_cards = legal
            one_suit = ONE_SUIT_CODES.get(legal)
            if one_suit is not None:
                codes = [*one_suit]
            else:
                codes = [
                    *_SPADE_CODES[legal & 0xFF],
                    *_CLUB_CODES[legal >> 8 & 0xFF],
                    *_DIAMOND_CODES[legal >> 16 & 0xFF],
                    *_HEART_CODES[legal >> 24],
                ]
            if not _HAS_STARTED[self._started][seat]:
                conv = self._conv
                hand = self._hands[seat]
                trump = self._trump
                # _can_swap inline; the trump 7 is card 8 * trump.
                if conv.seven_swap and trump == self._open_card >> 3 and hand >> (8 * trump) & 1:
                    codes.append("swap7")
                if conv.four_sevens_redeal and hand & SEVENS == SEVENS:
                    codes.append("sevens")
            return codes
        if phase == _BIDDING_1:
            return list(_ROUND_1)
        if phase == _BIDDING_2:
            codes = list(_ROUND_2[self._open_card >> 3])
            if not self._must_order(seat):
                codes.append("pass")
            return codes
        return []

    def _can_swap(self, seat: int) -> bool:
        return (
            self._conv.seven_swap
            and self._trump == self._open_card >> 3
            and bool(self._hands[seat] >> rules.seven_of(self._trump) & 1)
        )

    def _must_order(self, seat: int) -> bool:
        return self._conv.order_obligatory and seat == self._dealer

    def _forced_order(self) -> bool:
        """Whether the bidder named trump because it could not pass: the dealer, last in
        the second round, with order obligatory (a suit named there ends the auction, so
        the dealer's turn in it means everyone else passed)."""
        if not (self._conv.order_obligatory and self._bidder == self._dealer and self._auction):
            return False
        seat, action = self._auction[-1]
        return seat == self._dealer and action != "play"

    def apply(self, seat: int, action: str) -> None:
        # Playing a card is nearly every action of a deal, so it runs inline here,
        # with a seat's first card and the closing of a trick.
        if seat == self._to_act and self._phase == _PLAY:
            # In play nearly every action is a card: a failed look-up costs more
            # than .get, but only for the rare other actions.
            try:
                card, bit, king_or_queen = _PLAYS[action]
            except KeyError:
                pass
            else:
                hands = self._hands
                hand = hands[seat]
                legal = self._legal_cards
                if legal < 0:
                    legal = legal_mask(hand, self._trick, self._trump)
                if not legal & bit:
                    raise self._illegal_card(hand, card)
                self._legal_cards = -1
                self._moves.append((seat, action))
                n = self._n
                if not _HAS_STARTED[self._started][seat]:
                    # A seat's first card declares its combinations from the full hand.
                    self._declared[seat] = combinations(hand)
                    self._started = started = self._started | 1 << seat
                    if started == (1 << n) - 1:
                        self._resolve_combinations()
                if king_or_queen:
                    # Bella is announced with the first of the trump king and queen
                    # while holding both.
                    bella = BELLA_MASKS[self._trump]
                    if bit & bella and hand & bella == bella:
                        self._bella[seat] = True
                        self._announcements.append(announcement(seat, "bella", bella, BELLA_POINTS))
                hand ^= bit
                hands[seat] = hand
                trick = self._trick
                trick.append(card)
                after = _NEXT_SEAT[n][seat]
                if after != self._leader:
                    self._to_act = after
                    return
                # The trick is full: it scores to its winner, who leads next.
                # winning_position and the points unrolled for the two table sizes.
                trump = self._trump
                leader = self._leader
                keys = WIN_KEYS[trump][trick[0] >> 3]
                points = POINTS[trump]
                if n == 2:
                    first, second = trick
                    winner = (leader + 1) % 2 if keys[second] > keys[first] else leader
                    self._card_points[winner] += points[first] + points[second]
                else:
                    first, second, third = trick
                    top = keys[second] if keys[second] > keys[first] else keys[first]
                    if keys[third] > top:
                        winner = (leader + 2) % 3
                    elif top != keys[first]:
                        winner = (leader + 1) % 3
                    else:
                        winner = leader
                    self._card_points[winner] += points[first] + points[second] + points[third]
                self._tricks_taken[winner] += 1
                # The finished trick list becomes the history entry, its leader in front.
                trick.insert(0, leader)
                self._tricks.append(trick)
                self._trick = []
                self._leader = self._to_act = winner
                if not hand:
                    self._finish_deal(winner)
                return
        if self._phase == _GAME_OVER:
            raise IllegalAction("game_over", "The game is over.")
        if seat != self._to_act:
            raise IllegalAction(
                "not_your_turn", "It is not this seat's turn.", seat=seat, to_act=self._to_act
            )
        if action not in rules.ACTION_CODES:
            raise IllegalAction("unknown_action", "Unknown action.", action=action)
        # The deal's list, kept by its record should this action end the deal.
        moves = self._moves
        if self._phase == _PLAY:
            self._play_extra(seat, action)
        else:
            self._bid(seat, action)
        moves.append((seat, action))

    # -- bidding ------------------------------------------------------------------

    def _bid(self, seat: int, action: str) -> None:
        n = self._n
        open_suit = self._open_card >> 3
        if self._phase == _BIDDING_1:
            if action not in _ROUND_1:
                raise IllegalAction(
                    "wrong_phase", "Round 1 allows only play or pass.", action=action
                )
            self._auction.append((seat, action))
            if action == "play":
                self._order(seat, open_suit)
            elif seat == self._dealer:
                self._phase = _BIDDING_2
                self._to_act = (seat + 1) % n
            else:
                self._to_act = (seat + 1) % n
            return
        if action == "pass":
            if self._must_order(seat):
                raise IllegalAction(
                    "must_order", "The dealer must name a trump when the order is obligatory."
                )
            self._auction.append((seat, action))
            if seat == self._dealer:
                self._redeal = {"reason": "all_passed", "seat": seat}
                self._close_deal(True, -1)
                self._redeals += 1
                self._dealer = (self._dealer + 1) % n
                self._start_deal()
            else:
                self._to_act = (seat + 1) % n
            return
        suit = _SUIT_OF_ORDER.get(action)
        if suit is None:
            raise IllegalAction(
                "wrong_phase", "Round 2 allows only naming a suit or pass.", action=action
            )
        if suit == open_suit:
            raise IllegalAction(
                "open_suit_refused",
                "The open card's suit was refused in round 1.",
                suit=SUIT_CODES[suit],
            )
        self._auction.append((seat, action))
        self._order(seat, suit)

    def _order(self, seat: int, suit: int) -> None:
        self._bidder = seat
        self._trump = suit
        self._redeal = None
        self._second_deal()
        self._legal_cards = -1
        self._phase = _PLAY
        self._to_act = self._leader

    # -- play ---------------------------------------------------------------------

    def _play_extra(self, seat: int, action: str) -> None:
        if self._started >> seat & 1 or action not in ("swap7", "sevens"):
            raise IllegalAction("wrong_phase", "Only a card can be played now.", action=action)
        if action == "swap7":
            if not self._can_swap(seat):
                raise IllegalAction(
                    "swap_not_allowed",
                    "Only the trump 7 can be swapped for the open card of the trump suit.",
                )
            seven = rules.seven_of(self._trump)
            self._hands[seat] ^= 1 << seven | 1 << self._open_card
            self._legal_cards = -1
            self._swapped = seat
            self._announcements.append(swap_record(seat, self._open_card, seven))
            self._open_card = seven
            return
        if not self._conv.four_sevens_redeal or self._hands[seat] & SEVENS != SEVENS:
            raise IllegalAction("no_four_sevens", "A redeal needs all four sevens in hand.")
        self._redeal = {"reason": "sevens", "seat": seat}
        # the tricks taken so far: the last one's winner leads now
        self._close_deal(True, self._leader)
        self._redeals += 1
        self._start_deal()

    def _illegal_card(self, hand: int, card: int) -> IllegalAction:
        code = CARD_CODES[card]
        if not hand >> card & 1:
            return IllegalAction("card_not_in_hand", "That card is not in the hand.", card=code)
        led = self._trick[0] >> 3
        if hand & SUIT_MASKS[led]:
            if led == self._trump and card >> 3 == led:
                return IllegalAction(
                    "must_overtrump", "A higher trump must be played when trump is led.", card=code
                )
            return IllegalAction(
                "must_follow_suit",
                "The led suit must be followed.",
                card=code,
                suit=SUIT_CODES[led],
            )
        return IllegalAction(
            "must_trump",
            "Void in the led suit, a trump must be played.",
            card=code,
            suit=SUIT_CODES[self._trump],
        )

    def _resolve_combinations(self) -> None:
        """The best combination wins: berz over terz, then the top card, then trump (Moscow).

        Ties go to the seat earlier from the dealer's left, as a later seat must beat it.
        """
        trump_bonus = self._trump if self._conv.trump_in_combination == "moscow" else -1
        best = -1
        winner = -1
        declared = self._declared
        for seat in SEAT_ORDERS[self._n][self._dealer]:
            for combo in declared[seat]:
                key = (
                    (32 if combo.kind == BERZ else 0) + 2 * combo.top + (combo.suit == trump_bonus)
                )
                if key > best:
                    best = key
                    winner = seat
        if winner >= 0:
            self._combo_winner = winner
            for combo in declared[winner]:
                self._announcements.append(
                    announcement(winner, combo.kind, combo.mask, COMBO_POINTS[combo.kind])
                )

    def _close_deal(self, redeal: bool, last_winner: int) -> None:
        # The deal's lists are replaced, never changed, by the next deal: keep them.
        self._ended = (
            self.deal_no,
            self._dealer,
            self._n,
            self._deck,
            self._open_card,
            self._bidder >= 0,
            self._auction,
            self._tricks,
            last_winner,
            None if self._moves_lost else self._moves,
            redeal,
        )

    def ended_deal(self) -> DealLog | None:
        ended = self._ended
        if isinstance(ended, tuple):
            ended = self._ended = _deal_log(ended)
        return ended

    def _finish_deal(self, last_winner: int) -> None:
        self._close_deal(False, last_winner)
        conv = self._conv
        n = self._n
        card_points = self._card_points
        tricks_taken = self._tricks_taken
        points = list(card_points)
        points[last_winner] += LAST_TRICK_POINTS
        cw = self._combo_winner
        award = 0
        if cw >= 0 and tricks_taken[cw]:
            for combo in self._declared[cw]:
                award += COMBO_POINTS[combo.kind]
            points[cw] += award
        bella = self._bella
        if True in bella:
            for seat in range(n):
                if bella[seat]:
                    points[seat] += BELLA_POINTS
        bidder = self._bidder
        dealer = self._dealer
        outcome, written, paid, hanging, mark = scoring.settle_fields(
            points, bidder, dealer, self._hanging, conv.winner_takes_all, conv.hanging_separately
        )
        totals = list(map(add, self._totals, written))
        self._totals = totals
        self._hanging = list(hanging)
        # The row and the last deal's summary are read far less often than deals end:
        # keep the facts (the deal's lists are replaced, never changed, by the next
        # deal) and build them when asked for.
        record: DealRecord = (
            self.deal_no - self._redeals,
            dealer,
            bidder,
            self._trump,
            outcome,
            points,
            card_points,
            award,
            bella,
            tricks_taken,
            written,
            mark,
            paid,
            cw,
            self._announcements,
            self._tricks[-1],
            last_winner,
            totals,
            hanging,
        )
        self._rows.append(record)
        self._last_deal = record
        if max(totals) >= conv.target:
            winner = scoring.game_winner(totals, conv.target, last_winner, dealer)
            if winner is not None:
                self._winner = winner
                self._mars = scoring.mars(totals, winner, conv.target)
                self._phase = _GAME_OVER
                self._to_act = -1
                return
        self._dealer = scoring.next_dealer(written, outcome, bidder, dealer)
        self._start_deal()

    def _score_row(self, i: int) -> ScoreRow:
        """Scoresheet row ``i``, built once from its deal record."""
        row = self._rows[i]
        if isinstance(row, tuple):
            row = self._rows[i] = row_of(row, self._conv.winner_takes_all)
        return row

    def _score_rows(self) -> list[ScoreRow]:
        """The scoresheet rows, each built once from its deal record."""
        for i in range(len(self._rows)):
            self._score_row(i)
        return cast("list[ScoreRow]", self._rows)

    def _last_deal_json(self) -> DealSummary | None:
        last = self._last_deal
        if isinstance(last, tuple):
            last = self._last_deal = summary_of(last)
        return last

    @overload
    def view(self, seat: int | None, *, brief: Literal[False] = False) -> DebertsView: ...

    @overload
    def view(self, seat: int | None, *, brief: bool) -> DebertsBriefView: ...

    def view(self, seat: int | None, *, brief: bool = False) -> DebertsBriefView:
        return views.build(self, seat, brief=brief)

    @property
    def rows_scored(self) -> int:
        return len(self._rows)

    @property
    def deal_played(self) -> int:
        return self.deal_no - self._redeals

    def last_row(self) -> ScoreRow | None:
        return self._score_row(-1) if self._rows else None

    def scoresheet(self) -> Scoresheet:
        notes: JsonDict = {"hanging": list(self._hanging)}
        if self._winner >= 0:
            notes["mars"] = list(self._mars)
            if self._totals.count(max(self._totals)) > 1:
                # rule 10: the tie went to the last trick's taker, if one of the tied
                # took it; else to the tied player earliest from the dealer's left
                last = self._last_deal_json()
                taker = None if last is None else last["last_trick"]["winner"]
                notes["tie_break"] = "last_trick" if taker == self._winner else "seating"
        return Scoresheet(
            game=self.name,
            seats=self._n,
            rows=tuple(self._score_rows()),
            totals=tuple(self._totals),
            winner=self.winner,
            notes=notes,
        )

    # -- serialisation ----------------------------------------------------------------

    def to_json(self) -> JsonDict:
        return {
            "game": self.name,
            "seats": self._n,
            "conventions": self._conv.to_json(),
            "seed": self._seed,
            "deal_no": self.deal_no,
            "dealer": self._dealer,
            "phase": self._phase,
            "to_act": self._to_act,
            "deck": [CARD_CODES[c] for c in self._deck],
            "stacked": [[CARD_CODES[c] for c in deck] for deck in self._stacked],
            "hands": [card_codes(h) for h in self._hands],
            "open": self._open_card,
            "bottom": self._bottom_card,
            "auction": [[s, a] for s, a in self._auction],
            "bidder": self._bidder,
            "trump": self._trump,
            "leader": self._leader,
            "trick": [CARD_CODES[c] for c in self._trick],
            "tricks": [[t[0], *(CARD_CODES[c] for c in t[1:])] for t in self._tricks],
            "card_points": list(self._card_points),
            "tricks_taken": list(self._tricks_taken),
            "started": self._started,
            "declared": [[_combo_json(c) for c in combos] for combos in self._declared],
            "combo_winner": self._combo_winner,
            "bella": list(self._bella),
            "announcements": json_copy(self._announcements),
            "swapped": self._swapped,
            "redeal": json_copy(self._redeal),
            "redeals": self._redeals,
            "totals": list(self._totals),
            "rows": [row.to_json() for row in self._score_rows()],
            "hanging": list(self._hanging),
            "last_deal": json_copy(self._last_deal_json()),
            "winner": self._winner,
            "mars": list(self._mars),
            "moves": None if self._moves_lost else [[s, a] for s, a in self._moves],
            "ended": None if (ended := self.ended_deal()) is None else ended.to_json(),
        }

    @classmethod
    def from_json(cls, data: JsonDict) -> Self:
        if data.get("game") != cls.name:
            raise ValueError("not a Deberts state")
        game = cls.__new__(cls)
        game._n = data["seats"]
        game._conv = DebertsConventions.from_json(data["conventions"])
        game._seed = data["seed"]
        game.deal_no = data["deal_no"]
        game._dealer = data["dealer"]
        game._phase = data["phase"]
        game._to_act = data["to_act"]
        game._deck = [parse_index(c) for c in data["deck"]]
        game._stacked = [[parse_index(c) for c in deck] for deck in data["stacked"]]
        game._hands = [codes_to_mask(h) for h in data["hands"]]
        game._open_card = data["open"]
        game._bottom_card = data["bottom"]
        game._auction = [(s, a) for s, a in data["auction"]]
        game._bidder = data["bidder"]
        game._trump = data["trump"]
        game._leader = data["leader"]
        game._trick = [parse_index(c) for c in data["trick"]]
        game._legal_cards = -1
        game._tricks = [[t[0], *(parse_index(c) for c in t[1:])] for t in data["tricks"]]
        game._card_points = list(data["card_points"])
        game._tricks_taken = list(data["tricks_taken"])
        game._started = data["started"]
        game._declared = [[Combination(*c) for c in combos] for combos in data["declared"]]
        game._combo_winner = data["combo_winner"]
        game._bella = list(data["bella"])
        game._announcements = [with_given(json_copy(a)) for a in data["announcements"]]
        game._swapped = data["swapped"]
        game._redeal = json_copy(data["redeal"])
        game._redeals = data.get("redeals", 0)  # saved before redeals were counted: none
        game._totals = list(data["totals"])
        game._rows = [ScoreRow.from_json(r) for r in data["rows"]]
        game._hanging = list(data["hanging"])
        game._last_deal = json_copy(data["last_deal"])
        game._winner = data["winner"]
        game._mars = list(data["mars"])
        # States saved before moves were kept have neither key.
        moves = data.get("moves")
        game._moves = [(s, a) for s, a in moves or ()]
        game._moves_lost = moves is None and bool(game._auction)
        ended = data.get("ended")
        game._ended = None if ended is None else DealLog.from_json(ended)
        return game

    def clone(self) -> Self:
        game = self.__class__.__new__(self.__class__)
        for name in Deberts.__slots__:
            value = getattr(self, name)
            if name == "_stacked":
                value = [list(deck) for deck in value]
            elif name in ("_declared", "_tricks"):
                value = [list(item) for item in value]
            elif isinstance(value, list):
                value = list(value)
            setattr(game, name, value)
        # A subclass may keep more state in the instance dictionary.
        for name, value in self.__dict__.items():
            setattr(game, name, list(value) if isinstance(value, list) else value)
        return game
