"""The fields of a Thousand game and the deal in progress, shared by the phase modules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.engine.base import DealLog, JsonDict, Move
from bot.engine.thousand.rules import ThousandConventions
from bot.engine.tricks import NO_TRUMP

if TYPE_CHECKING:
    from bot.engine.thousand.view import Announcement

__all__ = [
    "AUCTION",
    "CONTRACT",
    "GAME_OVER",
    "GIVE",
    "PLAY",
    "REDEAL",
    "TALON",
    "DealState",
]

AUCTION = "auction"
TALON = "talon"
GIVE = "give"
REDEAL = "redeal"
CONTRACT = "contract"
PLAY = "play"
GAME_OVER = "game_over"


class DealState:
    """Every field of the game as plain data; the phases read and change them in place."""

    def __init__(self, seats: int, conventions: ThousandConventions, seed: int) -> None:
        if seats not in (2, 3, 4):
            raise ValueError("Thousand is played by 2, 3 or 4 players")
        self._n = seats
        # Players in a deal: with four the dealer sits out (on the talon), three play.
        self._players = min(seats, 3)
        self._conv = conventions
        self._conv_json: JsonDict | None = None
        self._seed = seed
        self.deal_no = 0
        # Deals dealt again on request: each takes a fresh shuffle, so ``deal_no``
        # counts it, but it keeps the number of the deal it replaced.
        self._redeals = 0
        self.is_over = False
        self._set_dealer(0)
        self._totals = [0] * seats
        self._bolts = [0] * seats
        self._barrel_seat: int | None = None
        self._barrel_attempts = 0
        self._rows: list[JsonDict] = []
        self._start_totals = [0] * seats
        self._earlier_deals = 0
        self._winner: int | None = None
        self._last_deal: JsonDict | None = None
        # Deals settled (and redeals) whose rows and summary are not written yet
        # (``_write_rows``).
        self._unwritten: list[tuple[Any, ...] | JsonDict] = []
        self._unwritten_rows = 0
        # The legal codes of the seat to act, listed once per state; ``apply`` clears them.
        self._legal: tuple[str, ...] | None = None
        # The deal that ended last: its facts until someone asks for its record.
        self._ended: tuple[Any, ...] | DealLog | None = None
        # The last deal played to its last trick (not conceded, not dealt again), which
        # may be before the deal that ended last: its bidder, tricks and their winners.
        self._played_out: tuple[int, list[list[list[int]]], list[int]] | None = None
        # The hands and talons as dealt (``_begin_auction``).
        self._dealt: tuple[list[int], list[int]] = ([], [])
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
        if self._sitting_out >= 0:
            # the dealer sitting out takes no part in the auction: as if passed from the start
            self._passed[self._sitting_out] = True
        self._auto_passed: list[int] = []
        self._highest_bid: int | None = None
        self._bidder: int | None = None
        self._received = [False] * n
        self._redeal_queue: list[int] = []
        self._contract: int | None = None
        self._trump = NO_TRUMP
        self._trick: list[list[int]] = []
        self._last_trick: list[list[int]] | None = None
        self._last_winner: int | None = None
        self._taken = [0] * n
        self._tricks_taken = [0] * n
        self._marriages = [0] * n
        self._announcements: list[Announcement] = []
        self._tricks_played = 0
        # Completed tricks of this deal and who won each: what a seat with a good
        # memory knows, so bot players can reason from the view alone.
        self._played: list[list[list[int]]] = []
        self._played_winners: list[int] = []
        self._gifts = [-1] * n
        # Every action of the deal, and whether its first ones were not kept (a deal
        # under way in a state saved before moves were kept).
        self._moves: list[Move] = []
        self._moves_lost = False

    def _set_dealer(self, dealer: int) -> None:
        """The dealer, the seat sitting the deal out and the order of play around them."""
        n = self._n
        self._dealer = dealer
        out = self._sitting_out = dealer if n == 4 else -1
        follow = []
        for seat in range(n):
            nxt = (seat + 1) % n
            follow.append((nxt + 1) % n if nxt == out else nxt)
        # ``_follow[seat]``: who acts after ``seat`` in the auction's and the play's order.
        self._follow: tuple[int, ...] = tuple(follow)

    def _active(self) -> list[int]:
        """The seats playing the deal, from the first hand (left of the dealer) on."""
        n, out = self._n, self._sitting_out
        seats = ((self._dealer + 1 + k) % n for k in range(n))
        return [seat for seat in seats if seat != out]

    def _first_hand(self) -> int:
        return (self._dealer + 1) % self._n

    def _finish_deal(self, conceded: bool) -> None:
        raise NotImplementedError

    def _close_deal(self, redeal: bool) -> None:
        raise NotImplementedError

    def _write_rows(self) -> None:
        raise NotImplementedError

    def _start_deal(self, dealer: int) -> None:
        raise NotImplementedError
