"""Game buttons: a move, a player coming back to their seat, the hand and last trick."""

from __future__ import annotations

from bot.db.models import Seat, TableRecord, TableStatus
from bot.tables.lifecycle import Lifecycle
from bot.tables.notices import CameBack
from bot.tables.outcomes import (
    AlreadyPlayed,
    Cancelled,
    GameOver,
    HandShown,
    LastTrickShown,
    Moved,
    NotSeated,
    OtherChat,
    Refused,
    TableGone,
    WelcomeBack,
)
from bot.tables.person import Person
from bot.tables.ports import Presenter

__all__ = ["Look", "Play", "Press"]

Press = Moved | Refused | TableGone | GameOver | Cancelled | NotSeated | AlreadyPlayed | WelcomeBack
"""What a game button comes to."""
Look = HandShown | LastTrickShown | TableGone | Cancelled | NotSeated | OtherChat | WelcomeBack
"""What "my hand" or "last trick" comes to."""


class Play:
    """The buttons of a game under way."""

    def __init__(self, lifecycle: Lifecycle, presenter: Presenter) -> None:
        self.lifecycle = lifecycle
        self.store = lifecycle.store
        self.presenter = presenter

    async def act(self, table_id: int, version: int, who: Person, code: str) -> Press:
        """A game button: the change is committed, not yet shown; the caller answers the
        press, then calls :meth:`~bot.tables.Tables.publish`."""
        async with self.store.lock(table_id).state:
            record = await self.store.repo.get(table_id)
            if record is None or record.state is None:
                return TableGone()
            if record.status == TableStatus.CANCELLED:
                return Cancelled()
            if record.status != TableStatus.PLAYING:
                return GameOver()
            seat = record.seat_of(who.id)
            if seat is None:
                if record.away_seat_of(who.id) is not None:
                    return await self._come_back(record, who.id, defer=True)
                return NotSeated()
            if version != record.version:
                return AlreadyPlayed()
            return await self.lifecycle.move(record, seat, code, defer=True)

    async def _come_back(
        self, record: TableRecord, user_id: int, *, defer: bool = False
    ) -> WelcomeBack:
        """A person a bot was playing for pressed a button: the seat is theirs again."""
        seat = record.away_seat_of(user_id)
        assert seat is not None and record.state is not None
        old = record.seats[seat]
        record.seats[seat] = Seat(name=old.name, user_id=old.user_id)
        record.timeouts.pop(seat, None)
        game = self.store.load(record)
        await self.lifecycle.commit(
            record,
            game,
            rows_before=game.rows_scored,
            to_act_before=game.current_seat(),
            notice=CameBack(old.name),
            defer=defer,
        )
        return WelcomeBack()

    async def _read(self, table_id: int, who: Person) -> TableRecord | WelcomeBack | None:
        """The table as a button of it finds it; or, as any button of the table gives an
        away player their seat back, the welcome when the presser was away."""
        record = await self.store.repo.get(table_id)
        if record is None or record.away_seat_of(who.id) is None:
            return record
        async with self.store.lock(table_id):
            record = await self.store.repo.get(table_id)
            if (
                record is not None
                and record.status == TableStatus.PLAYING
                and record.away_seat_of(who.id) is not None
            ):
                return await self._come_back(record, who.id)
        return record  # a press just before took it back

    async def hand(self, table_id: int, who: Person) -> Look:
        """The presser's hand; at their turn the hand message comes again too, as it may
        have been deleted and nothing else would bring its buttons back."""
        record = await self._read(table_id, who)
        if isinstance(record, WelcomeBack):
            return record
        if record is None or record.state is None:
            return TableGone()
        if record.status == TableStatus.CANCELLED:
            return Cancelled()  # its cards mean nothing any more
        seat = record.seat_of(who.id)
        if seat is None:
            return NotSeated()
        game = self.store.peek(record)
        if (
            record.status == TableStatus.PLAYING
            and game.current_seat() == seat
            and self.presenter.may_resend_hand(table_id, who.id)
        ):
            async with self.store.lock(table_id):
                fresh = await self.store.repo.get(table_id)
                if fresh is not None and fresh.version == record.version:
                    await self.presenter.hand(fresh, game, seat, resend=True)
                    await self.store.repo.save(fresh)
        return HandShown(game.view(seat, brief=True))

    async def last_trick(
        self, table_id: int, *, who: Person | None = None, chat_id: int | None = None
    ) -> Look:
        """The last trick, for the table's chat and its players only."""
        record = await (self.store.repo.get(table_id) if who is None else self._read(table_id, who))
        if isinstance(record, WelcomeBack):
            return record
        if record is None or record.state is None:
            return TableGone()
        if record.status == TableStatus.CANCELLED:
            return Cancelled()
        seated = who is not None and record.seat_of(who.id) is not None
        if chat_id is not None and chat_id != record.chat_id and not seated:
            return OtherChat()
        game = self.store.peek(record)
        view = game.view(None, brief=True)
        previous = None if view.get("last_trick") else game.view(None).get("last_deal")
        return LastTrickShown(view, tuple(record.names()), previous)
