"""Thousand (Тысяча) for 2, 3 or 4 players on the shared state API.

With four, the dealer sits the deal out "on the talon" and writes its points; the
other three play it exactly as three players do.

A deal moves through the phases ``auction`` → ``talon`` (2 players) → ``give``
→ ``redeal`` (only when someone may ask) → ``contract`` → ``play``; it is then
scored and the next deal is dealt at once, until someone makes the barrel
contract (``game_over``). Hands are bitmasks; the whole state is plain JSON.
"""

from __future__ import annotations

from typing import Any, Literal, Self, overload

from bot.engine.base import (
    Conventions,
    DealLog,
    Game,
    IllegalAction,
    JsonDict,
    LoggedTrick,
    ScoreRow,
    Scoresheet,
    json_copy,
)
from bot.engine.cards import codes_to_mask, popcount
from bot.engine.thousand import view as views
from bot.engine.thousand.auction import Auction
from bot.engine.thousand.codes import (
    BID_VALUES,
    CARD_CODES,
    CONTRACT_VALUES,
    GIVE_INDEX,
    PLAY_BY_BYTE,
    PLAY_INDEX,
    play_codes,
)
from bot.engine.thousand.deal import deal_bits
from bot.engine.thousand.handover import Handover
from bot.engine.thousand.play import DECLARE_NEEDS, CardPlay
from bot.engine.thousand.rules import (
    BARREL_CONTRACT,
    DECK,
    GOLDEN_DEALS,
    ThousandConventions,
    card_points,
    talon_points,
)
from bot.engine.thousand.scoring import settle_deal, settle_tallies
from bot.engine.thousand.state import AUCTION, CONTRACT, GAME_OVER, GIVE, PLAY, REDEAL, TALON
from bot.engine.thousand.view import ThousandBriefView, ThousandView
from bot.engine.tricks import NO_TRUMP, deal_seed

__all__ = ["ThousandGame"]


class ThousandGame(Auction, Handover, CardPlay, Game):
    name = "thousand"
    conventions_type = ThousandConventions
    max_seats = 4  # with four, the dealer sits each deal out
    # Plain attributes kept up to date by the game rather than properties: a driver
    # reads both after every action, and an attribute read costs a fraction of a call.
    deal_no: int = 0
    is_over: bool = False

    # ----------------------------------------------------------------- building

    @classmethod
    def new(
        cls,
        seats: int,
        conventions: Conventions | None = None,
        seed: int = 0,
    ) -> Self:
        game = cls(seats, _conventions(conventions), seed)
        # The first dealer is drawn by lot from the seed, as every deal is.
        game._set_dealer(deal_seed(seed, 0) % seats)
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
        game.deal_no = deal_no
        game._set_dealer(dealer)
        game._totals = list(totals) if totals is not None else [0] * seats
        game._bolts = list(bolts) if bolts is not None else [0] * seats
        if barrel is not None:
            game._barrel_seat, game._barrel_attempts = barrel
        game._start_totals = list(game._totals)
        game._earlier_deals = scored_deals
        masks = [codes_to_mask(h) for h in hands]
        talon_masks = [codes_to_mask(t) for t in talons]
        _check_deal(seats, masks, talon_masks, game._sitting_out)
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
        game.deal_no = 1 + scored_deals
        game._set_dealer(dealer)
        game._totals = list(totals) if totals is not None else [0] * seats
        game._bolts = list(bolts) if bolts is not None else [0] * seats
        if barrel is not None:
            game._barrel_seat, game._barrel_attempts = barrel
        game._start_totals = list(game._totals)
        game._earlier_deals = scored_deals
        game._hands = [codes_to_mask(h) for h in hands]
        if len({popcount(h) for s, h in enumerate(game._hands) if s != game._sitting_out}) != 1:
            raise ValueError("every hand must hold the same number of cards")
        if game._sitting_out >= 0 and game._hands[game._sitting_out]:
            raise ValueError("the dealer sitting out holds no cards")
        union = 0
        for mask in game._hands:
            if union & mask or mask & ~DECK:
                raise ValueError("the hands must hold distinct cards of the 24 (9..A)")
            union |= mask
        game._bidder = bidder
        game._highest_bid = contract
        game._contract = contract
        game._trump = "SCDH".index(trump) if trump else NO_TRUMP
        game._tricks_played = 1 if first_lead_done else 0
        game._phase = PLAY
        game._to_act = bidder if leader is None else leader
        return game

    # ---------------------------------------------------------------- the API

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
            if self._phase == PLAY:
                # Follow suit; void, trump if you can; else anything (as ``_legal_mask``),
                # one suit's codes by one look-up. Inline: this runs once per card.
                hand = self._hands[seat]
                trick = self._trick
                if trick:
                    led = trick[0][1] >> 3
                    follow = hand >> (led << 3) & 0xFF
                    if follow:
                        legal = PLAY_BY_BYTE[led][follow]
                    else:
                        trump = self._trump
                        trumps = hand >> (trump << 3) & 0xFF if trump >= 0 else 0
                        legal = PLAY_BY_BYTE[trump][trumps] if trumps else play_codes(hand)
                else:
                    spades, clubs, diamonds, hearts = PLAY_BY_BYTE
                    legal = (
                        spades[hand & 0xFF]
                        + clubs[hand >> 8 & 0xFF]
                        + diamonds[hand >> 16 & 0xFF]
                        + hearts[hand >> 24 & 0xFF]
                    )
            else:
                legal = self._compute_legal(seat)
            self._legal = legal
        return [*legal]

    def _compute_legal(self, seat: int) -> tuple[str, ...]:
        """Every phase's codes but the card play's (``legal_actions`` has those)."""
        phase = self._phase
        if phase == AUCTION:
            return self._auction_actions(seat)
        if phase == GIVE:
            return self._give_actions(seat)
        if phase == CONTRACT:
            return self._contract_actions(seat)
        if phase == TALON:
            return ("t0", "t1")
        if phase == REDEAL:
            return ("redeal", "keep")
        return ()

    def apply(self, seat: int, action: str) -> None:
        legal = self._legal
        if legal is not None and seat == self._to_act and action in legal:
            # The cached codes were listed for this very state and seat (any change
            # clears them), so the card needs no second check.
            self._legal = None
            self._moves.append((seat, action))
            phase = self._phase
            if phase == PLAY:
                # ``_play_card`` written out up to a full trick: a call per card is
                # a noticeable share of a whole deal.
                card = PLAY_INDEX[action]
                hands = self._hands
                hand = hands[seat]
                hands[seat] = hand ^ (1 << card)
                trick = self._trick
                if not trick:
                    need = DECLARE_NEEDS[card]
                    if need and hand & need == need and self._tricks_played:
                        self._declare(seat, card, hand)
                    trick.append([seat, card])
                    self._to_act = self._follow[seat]
                    return
                trick.append([seat, card])
                if len(trick) < self._players:
                    self._to_act = self._follow[seat]
                    return
                self._end_trick(trick)
                return
            if phase == GIVE:
                card, target = GIVE_INDEX[action]
                self._give_card(seat, card, target)
                return
            if phase == AUCTION:
                self._record_bid(seat, action, None if action == "pass" else BID_VALUES[action])
                return
            if phase == CONTRACT:
                if action == "concede":
                    self._concede()
                else:
                    self._set_contract(seat, CONTRACT_VALUES[action])
                return
            if phase == TALON:
                self._take_talon(seat, 0 if action == "t0" else 1)
                return
            # The redeal window is the only phase left with actions.
            self._answer_redeal(seat, action)
            return
        if self._winner is not None:
            raise IllegalAction("game_over", "The game is over.")
        if seat != self._to_act:
            raise IllegalAction(
                "not_your_turn", "It is not this seat's turn.", seat=seat, to_act=self._to_act
            )
        phase = self._phase
        head = action[:1]
        self._legal = None
        # The deal's list, kept by its record should this action end the deal.
        moves = self._moves
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
        moves.append((seat, action))

    @overload
    def view(self, seat: int | None, *, brief: Literal[False] = False) -> ThousandView: ...

    @overload
    def view(self, seat: int | None, *, brief: bool) -> ThousandBriefView: ...

    def view(self, seat: int | None, *, brief: bool = False) -> ThousandBriefView:
        return views.build(self, seat, brief=brief)

    def last_row(self) -> ScoreRow | None:
        self._write_rows()
        return ScoreRow.from_json(self._rows[-1]) if self._rows else None

    def scoresheet(self) -> Scoresheet:
        self._write_rows()
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
        self.deal_no += 1
        self._set_dealer(dealer)
        bits = deal_bits(deal_seed(self._seed, self.deal_no))
        players = self._players
        hands = [0] * self._n
        dealt = 21 if players == 3 else 20
        # with four the dealer gets no cards, and the last card goes to the talon
        for k, seat in enumerate(self._active()):
            hands[seat] = sum(bits[k:dealt:players])
        talons = [sum(bits[21:])] if players == 3 else [sum(bits[20:22]), sum(bits[22:])]
        self._begin_auction(hands, talons)

    # ----------------------------------------------------------------- scoring

    @property
    def rows_scored(self) -> int:
        return len(self._rows) + self._unwritten_rows

    @property
    def deal_played(self) -> int:
        return self.deal_no - self._redeals

    def _scored_deals(self) -> int:
        return self._earlier_deals + self.rows_scored

    def deal_points(self) -> list[int]:
        """Each seat's card points in tricks plus declared marriages, this deal."""
        return [card_points(self._taken[s]) + self._marriages[s] for s in range(self._n)]

    def _close_deal(self, redeal: bool) -> None:
        # The deal's lists are replaced, never changed, by the next deal: keep them.
        self._ended = (
            self.deal_no,
            self._dealer,
            self._n,
            self._dealt,
            self._auction,
            self._bidder,
            self._gifts,
            self._played,
            self._played_winners,
            None if self._moves_lost else self._moves,
            redeal,
        )

    def ended_deal(self) -> DealLog | None:
        ended = self._ended
        if isinstance(ended, tuple):
            ended = self._ended = _deal_log(*ended)
        return ended

    def _finish_deal(self, conceded: bool) -> None:
        self._close_deal(False)
        bidder, contract = self._bidder, self._contract
        assert bidder is not None and contract is not None
        if not conceded:
            self._played_out = (bidder, self._played, self._played_winners)
        conv = self._conv
        golden = conv.golden_round and self._scored_deals() < GOLDEN_DEALS
        taken = self._taken
        marriages = self._marriages
        points: tuple[int, ...] = ()
        for seat in range(self._n):
            points += (card_points(taken[seat]) + marriages[seat],)
        tricks = self._tricks_taken
        totals, bolts, barrel_seat, barrel_attempts = (
            self._totals,
            self._bolts,
            self._barrel_seat,
            self._barrel_attempts,
        )
        out = self._sitting_out
        # the sitting-out dealer writes the talon as dealt: its card points and a marriage
        talon = talon_points(self._talons[0]) if out >= 0 else 0
        # on the barrel, a bid raised above its 121 (barrel trading) is lost in full if failed
        raised = (
            conv.barrel_trading
            and bidder == barrel_seat
            and (self._highest_bid or 0) > BARREL_CONTRACT
        )
        extra = (out, talon, raised)
        new_totals, self._bolts, self._barrel_seat, self._barrel_attempts, winner = settle_tallies(
            bidder,
            contract,
            conceded,
            points,
            tricks,
            golden,
            conv,
            totals,
            bolts,
            barrel_seat,
            barrel_attempts,
            sitting_out=out,
            talon=talon,
            raised=raised,
        )
        self._totals = new_totals
        # The scoresheet row and the last deal's summary are only read now and then
        # (a view, the JSON form, the scoresheet), so the deal keeps what they are
        # made from and :meth:`_write_rows` writes them when first asked. Nothing
        # kept here is changed later: the lists are replaced, never changed in place.
        self._unwritten_rows += 1
        self._unwritten.append(
            (
                (
                    bidder,
                    contract,
                    conceded,
                    points,
                    tricks,
                    golden,
                    conv,
                    totals,
                    bolts,
                    barrel_seat,
                    barrel_attempts,
                ),
                extra,
                self.deal_no - self._redeals,
                self._highest_bid,
                self._dealer,
                self._trump,
                self._last_trick,
                self._last_winner,
                tuple(marriages),  # declaring adds to the deal's list in place
            )
        )
        if winner is not None:
            self._winner = winner
            self.is_over = True
            self._phase = GAME_OVER
            self._to_act = None
            return
        self._start_deal((self._dealer + 1) % self._n)

    def _write_rows(self) -> None:
        """Write the scoresheet rows and last deal of the deals settled since last asked."""
        unwritten = self._unwritten
        if not unwritten:
            return
        self._unwritten = []
        self._unwritten_rows = 0
        for entry in unwritten:
            if isinstance(entry, dict):
                # A redeal: no row, only the last deal's summary.
                self._last_deal = entry
                continue
            settle_args, extra, deal_no, high, dealer, trump, trick, trick_winner, declared = entry
            conceded = settle_args[2]
            out, talon_points, raised = extra
            totals, _, _, _, _, deltas, notes = settle_deal(
                *settle_args, sitting_out=out, talon=talon_points, raised=raised
            )
            notes["bid"] = high
            notes["dealer"] = dealer
            notes["trump"] = "SCDH"[trump] if trump >= 0 else None
            notes["marriages"] = list(declared)
            self._rows.append(
                {
                    "deal_no": deal_no,
                    "cells": list(map(str, totals)),
                    "totals": totals[:],
                    "deltas": deltas[:],
                    "notes": notes,
                }
            )
            last = self._last_deal = {"deal_no": deal_no, "redeal": False, **notes}
            last["deltas"] = deltas
            last["last_trick"] = (
                None
                if conceded or trick is None
                else {
                    "cards": [{"seat": s, "card": CARD_CODES[c]} for s, c in trick],
                    "winner": trick_winner,
                }
            )

    # ------------------------------------------------------------ persistence

    def to_json(self) -> JsonDict:
        self._write_rows()
        return {
            "game": self.name,
            "seats": self._n,
            "conventions": self.conventions_json(),
            "seed": self._seed,
            "deal_no": self.deal_no,
            "redeals": self._redeals,
            "dealer": self._dealer,
            "totals": list(self._totals),
            "bolts": list(self._bolts),
            "barrel_seat": self._barrel_seat,
            "barrel_attempts": self._barrel_attempts,
            "rows": [json_copy(row) for row in self._rows],
            "start_totals": list(self._start_totals),
            "earlier_deals": self._earlier_deals,
            "winner": self._winner,
            "last_deal": json_copy(self._last_deal),
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
            "high": self._highest_bid,
            "bidder": self._bidder,
            "received": list(self._received),
            "redeal_queue": list(self._redeal_queue),
            "contract": self._contract,
            "trump": self._trump,
            "trick": [list(e) for e in self._trick],
            "last_trick": None if self._last_trick is None else [list(e) for e in self._last_trick],
            "last_winner": self._last_winner,
            "taken": list(self._taken),
            "tricks": list(self._tricks_taken),
            "marriages": list(self._marriages),
            "announcements": json_copy(self._announcements),
            "tricks_played": self._tricks_played,
            "played": [[list(e) for e in trick] for trick in self._played],
            "played_winners": list(self._played_winners),
            "gifts": list(self._gifts),
            "dealt": [list(self._dealt[0]), list(self._dealt[1])],
            "moves": None if self._moves_lost else [[s, a] for s, a in self._moves],
            "ended": None if (ended := self.ended_deal()) is None else ended.to_json(),
            "played_out": None
            if (out := self._played_out) is None
            else {
                "bidder": out[0],
                "tricks": [[list(e) for e in trick] for trick in out[1]],
                "winners": list(out[2]),
            },
        }

    @classmethod
    def from_json(cls, data: JsonDict) -> Self:
        if data.get("game") != cls.name:
            raise ValueError(f"not a {cls.name} state")
        game = cls(data["seats"], ThousandConventions.from_json(data["conventions"]), data["seed"])
        game.deal_no = data["deal_no"]
        game._redeals = data.get("redeals", 0)  # saved before redeals were counted: none
        game._set_dealer(data["dealer"])
        game._totals = list(data["totals"])
        game._bolts = list(data["bolts"])
        game._barrel_seat = data["barrel_seat"]
        game._barrel_attempts = data["barrel_attempts"]
        game._rows = [json_copy(row) for row in data["rows"]]
        game._start_totals = list(data["start_totals"])
        game._earlier_deals = data["earlier_deals"]
        game._winner = data["winner"]
        game.is_over = game._winner is not None
        game._last_deal = json_copy(data["last_deal"])
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
        game._highest_bid = data["high"]
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
        game._tricks_taken = list(data["tricks"])
        game._marriages = list(data["marriages"])
        game._announcements = json_copy(data["announcements"])
        game._tricks_played = data["tricks_played"]
        game._played = [[list(e) for e in trick] for trick in data["played"]]
        game._played_winners = list(data["played_winners"])
        game._gifts = list(data["gifts"])
        # States saved before deals kept their record have none of these keys.
        dealt = data.get("dealt")
        if dealt is not None:
            game._dealt = (list(dealt[0]), list(dealt[1]))
        moves = data.get("moves")
        game._moves = [(s, a) for s, a in moves or ()]
        game._moves_lost = moves is None and bool(game._auction)
        ended = data.get("ended")
        game._ended = None if ended is None else DealLog.from_json(ended)
        out = data.get("played_out")  # saved before it was kept: none
        game._played_out = (
            None
            if out is None
            else (
                out["bidder"],
                [[list(e) for e in t] for t in out["tricks"]],
                list(out["winners"]),
            )
        )
        return game

    def clone(self) -> Self:
        """An independent copy, cheap enough for bot search.

        Nested values (auction entries, trick entries, rows, announcements) are
        replaced, never changed in place, so copying each top-level list suffices.
        """
        other = object.__new__(type(self))
        other.__dict__.update(
            {k: v[:] if isinstance(v, list) else v for k, v in self.__dict__.items()}
        )
        return other


_DEFAULT_CONVENTIONS = ThousandConventions()


def _conventions(conventions: Conventions | None) -> ThousandConventions:
    if conventions is None:
        return _DEFAULT_CONVENTIONS
    if not isinstance(conventions, ThousandConventions):
        raise TypeError("Thousand needs ThousandConventions")
    return conventions


def _deal_log(
    deal_no: int,
    dealer: int,
    n: int,
    dealt: tuple[list[int], list[int]],
    auction: list[list[Any]],
    bidder: int | None,
    gifts: list[int],
    played: list[list[list[int]]],
    winners: list[int],
    moves: list[tuple[int, str]] | None,
    redeal: bool,
) -> DealLog:
    hands, talons = dealt
    # A deal set up in play (``from_play``) has no talon on record.
    names = ("talon",) if len(talons) == 1 else ("talon0", "talon1")[: len(talons)]
    gives: tuple[tuple[int, int, str], ...] = ()
    if bidder is not None:
        gives = tuple(
            (bidder, seat, CARD_CODES[card]) for seat, card in enumerate(gifts) if card >= 0
        )
    return DealLog(
        game="thousand",
        deal_no=deal_no,
        dealer=dealer,
        hands=tuple(tuple(views.codes(hand)) for hand in hands),
        stock=tuple(
            (name, tuple(views.codes(talon))) for name, talon in zip(names, talons, strict=True)
        ),
        auction=tuple((seat, action) for seat, action in auction),
        gives=gives,
        tricks=tuple(
            LoggedTrick(tuple((seat, CARD_CODES[card]) for seat, card in trick), winner)
            for trick, winner in zip(played, winners, strict=True)
        ),
        moves=None if moves is None else tuple(moves),
        redeal=redeal,
    )


def _check_deal(seats: int, hands: list[int], talons: list[int], out: int) -> None:
    sizes = (10, [2, 2]) if seats == 2 else (7, [3])
    if any(popcount(h) != (0 if s == out else sizes[0]) for s, h in enumerate(hands)):
        raise ValueError(
            "hands must hold 7 cards each (3 or 4 players, the dealer of four none)"
            " or 10 (2 players)"
        )
    if [popcount(t) for t in talons] != sizes[1]:
        raise ValueError("talons must be one of 3 cards (3 or 4 players) or two of 2 (2 players)")
    union = 0
    for mask in [*hands, *talons]:
        union |= mask
    if union != DECK:
        raise ValueError("the hands and talons must hold the 24 cards 9..A, each once")
