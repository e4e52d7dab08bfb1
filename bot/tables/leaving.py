"""/leave and /cancel: a person leaving their table, or the one who runs it closing it."""

from __future__ import annotations

from bot.db.models import Seat, TableStatus
from bot.tables.lifecycle import Lifecycle
from bot.tables.lobby import Lobbies, LobbyPress, host_left, may_manage
from bot.tables.notices import WentBot
from bot.tables.outcomes import Cancelled, LeftGame, NoTable, NotAllowed, NotSeated
from bot.tables.person import Person
from bot.tables.ports import Presenter

__all__ = ["Leaving"]


class Leaving:
    """The chat's open table left by a person, or cancelled."""

    def __init__(
        self, lifecycle: Lifecycle, lobbies: Lobbies, presenter: Presenter, *, bot_level: str
    ) -> None:
        self.lifecycle = lifecycle
        self.store = lifecycle.store
        self.lobbies = lobbies
        self.presenter = presenter
        self.bot_level = bot_level

    async def cancel(self, chat_id: int, who: Person) -> Cancelled | NoTable | NotAllowed:
        """The chat's open table closes, if ``who`` runs it."""
        record = await self.store.repo.open_in_chat(chat_id)
        if record is None:
            return NoTable()
        async with self.store.lock(record.id):
            record = await self.store.repo.get(record.id)
            if record is None or not record.is_open:
                return NoTable()
            if not await may_manage(record, who):
                return NotAllowed()
            await self.lifecycle.cancel(record)
        return Cancelled()

    async def leave(self, chat_id: int, who: Person) -> LobbyPress | NoTable | LeftGame:
        """``who`` leaves the chat's open table: in a game a bot takes the seat; with
        nobody left the table closes."""
        record = await self.store.repo.open_in_chat(chat_id)
        if record is None:
            return NoTable()
        if record.status == TableStatus.LOBBY:
            return await self.lobbies.press(record.id, record.version, who, "leave", -1)
        async with self.store.lock(record.id):
            record = await self.store.repo.get(record.id)
            if record is None or record.status != TableStatus.PLAYING:
                return NoTable()
            seat = record.seat_of(who.id)
            if seat is None:
                seat = record.away_seat_of(who.id)  # a bot plays for them, the seat is theirs
            if seat is None:
                return NotSeated()
            old = record.seats[seat]
            record.seats[seat] = Seat(name=old.name, user_id=old.user_id, bot=self.bot_level)
            host_left(record, who.id)
            message_id = record.hand_msgs.pop(who.id, None)
            if message_id is not None:
                await self.presenter.left(record, who.id, message_id)
            if not record.humans():
                await self.lifecycle.cancel(record)  # which tells the chat
                return LeftGame()
            game = self.store.load(record)
            await self.lifecycle.commit(
                record,
                game,
                rows_before=game.rows_scored,
                to_act_before=game.current_seat(),
                notice=WentBot(old.name),
            )
        return LeftGame()
