"""Game buttons: a move, a player coming back to their seat, the hand and last trick."""

from __future__ import annotations

from html import escape

from bot.db.models import Seat, TableRecord, TableStatus
from bot.i18n import Translator
from bot.render.replies import Reply
from bot.render.table import hand_alert, last_trick_text
from bot.tables.lifecycle import Lifecycle
from bot.tables.person import Person
from bot.telegram.publisher import Publisher

__all__ = ["Play"]


class Play:
    """The buttons of a game under way."""

    def __init__(self, lifecycle: Lifecycle, publisher: Publisher) -> None:
        self.lifecycle = lifecycle
        self.store = lifecycle.store
        self.publisher = publisher

    async def act(
        self, table_id: int, version: int, who: Person, code: str, tr: Translator
    ) -> Reply:
        """A game button: the change is committed, not yet shown; the caller answers the
        press, then calls :meth:`~bot.tables.Tables.publish`."""
        async with self.store.lock(table_id).state:
            record = await self.store.repo.get(table_id)
            if record is None or record.state is None:
                return Reply(tr("This table is no longer open."))
            if record.status != TableStatus.PLAYING:
                return Reply(tr("This game is over."))
            seat = record.seat_of(who.id)
            if seat is None:
                if record.away_seat_of(who.id) is not None:
                    return await self._come_back(record, who.id, tr, defer=True)
                return Reply(tr("You are not at this table."), alert=True)
            if version != record.version:
                return Reply(tr("Already played, or this button is out of date."))
            return await self.lifecycle.move(record, seat, code, tr, defer=True)

    async def _come_back(
        self, record: TableRecord, user_id: int, tr: Translator, *, defer: bool = False
    ) -> Reply:
        """A person a bot was playing for pressed a button: the seat is theirs again."""
        seat = record.away_seat_of(user_id)
        assert seat is not None and record.state is not None
        old = record.seats[seat]
        record.seats[seat] = Seat(name=old.name, user_id=old.user_id)
        record.timeouts.pop(seat, None)
        game = self.store.load(record)
        table_tr = self.publisher.tr(record.lang)
        await self.lifecycle.commit(
            record,
            game,
            rows_before=game.rows_scored,
            to_act_before=game.current_seat(),
            notice=table_tr("{name} is back and plays again.", name=escape(old.name)),
            defer=defer,
        )
        return Reply(tr("Welcome back: you have your seat again."))

    async def _read(self, table_id: int, who: Person, tr: Translator) -> TableRecord | Reply | None:
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
                return await self._come_back(record, who.id, tr)
        return record  # a press just before took it back

    async def hand(self, table_id: int, who: Person, tr: Translator) -> Reply:
        """The presser's hand as an alert; at their turn the hand message comes again too,
        as it may have been deleted and nothing else would bring its buttons back."""
        record = await self._read(table_id, who, tr)
        if isinstance(record, Reply):
            return record
        if record is None or record.state is None:
            return Reply(tr("This table is no longer open."), alert=True)
        seat = record.seat_of(who.id)
        if seat is None:
            return Reply(tr("You are not at this table."), alert=True)
        game = self.store.peek(record)
        if (
            record.status == TableStatus.PLAYING
            and game.current_seat() == seat
            and self.publisher.may_resend_hand(table_id, who.id)
        ):
            async with self.store.lock(table_id):
                fresh = await self.store.repo.get(table_id)
                if fresh is not None and fresh.version == record.version:
                    await self.publisher.hand(fresh, game, seat, resend=True)
                    await self.store.repo.save(fresh)
        return Reply(hand_alert(game.view(seat, brief=True), tr), alert=True)

    async def last_trick(
        self,
        table_id: int,
        tr: Translator,
        *,
        who: Person | None = None,
        chat_id: int | None = None,
    ) -> Reply:
        """The last trick, for the table's chat and its players only."""
        record = await (
            self.store.repo.get(table_id) if who is None else self._read(table_id, who, tr)
        )
        if isinstance(record, Reply):
            return record
        if record is None or record.state is None:
            return Reply(tr("This table is no longer open."), alert=True)
        seated = who is not None and record.seat_of(who.id) is not None
        if chat_id is not None and chat_id != record.chat_id and not seated:
            return Reply(tr("This button belongs to another chat."), alert=True)
        game = self.store.peek(record)
        view = game.view(None, brief=True)
        previous = None if view.get("last_trick") else game.view(None).get("last_deal")
        names = record.names()
        return Reply(last_trick_text(view, names, tr, previous_deal=previous), alert=True)
