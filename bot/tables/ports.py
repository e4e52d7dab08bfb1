"""What the domain needs from the outside, as it needs it: whoever shows tables to
people (the Telegram publisher) and whoever knows a group's members."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from bot.db.models import TableRecord
from bot.engine.base import Game
from bot.tables.notices import Notice

__all__ = ["Members", "Presenter", "Unreachable"]


class Unreachable(Exception):
    """The people could not be shown the table for now (Telegram out of reach past its
    retries): the change is saved and is shown again later."""


class Presenter(Protocol):
    """Shows tables to their chat and players. A method that changes where a table's
    messages are writes it to the record given (the caller saves it)."""

    async def lobby(
        self, record: TableRecord, *, settings: dict[str, tuple[Any, ...]] | None = None
    ) -> None:
        """The lobby message, with the settings when ``settings`` (the options) are given;
        a cancelled lobby's says so."""

    def lobby_over(self, record: TableRecord) -> None:
        """The game replaces the lobby."""

    async def game(
        self,
        record: TableRecord,
        game: Game,
        *,
        rows_before: int,
        to_act_before: int | None,
        notices: Sequence[Notice] = (),
    ) -> None:
        """Everything a change of state shows: the results of scoresheet rows from
        ``rows_before`` on, ``notices``, the table and the hands. Raises
        :class:`Unreachable`."""

    async def hand(self, record: TableRecord, game: Game, seat: int, *, resend: bool) -> None:
        """One player's hand message alone."""

    def hand_waits(self, record: TableRecord, user_id: int) -> bool:
        """Whether a waiting player's hand would be edited only in a while."""

    def may_resend_hand(self, table_id: int, user_id: int) -> bool:
        """Whether a press may have the player's hand message sent anew (once a while)."""

    async def cancelled(
        self, record: TableRecord, game: Game | None, notice: Notice | None = None
    ) -> None:
        """The table was cancelled (``game``: where its game stood), for the reason
        ``notice`` gives if any: its messages say so."""

    async def chat_closed(self, record: TableRecord) -> None:
        """The table's chat is gone: its players' hands say the table was cancelled."""

    async def expired(self, record: TableRecord) -> None:
        """The lobby was not started in time: its message says so."""

    async def remind(self, record: TableRecord, user_id: int, seconds_left: int) -> None:
        """The player's turn is running out."""

    async def timed_out(
        self, record: TableRecord, user_id: int, message_id: int, action: str
    ) -> None:
        """The reminder ``message_id`` says that a bot made the move ``action``."""

    async def next_table(self, record: TableRecord, user_id: int) -> None:
        """``record``, a table "Play again" opened, has a seat for a person who asked for
        one while the game before it was on (or it is full, if they are not at it)."""

    async def left(self, record: TableRecord, user_id: int, message_id: int) -> None:
        """The hand message ``message_id`` of a person who left says so."""

    async def forget(self, record: TableRecord) -> None:
        """The table will not be played again: what was kept about its messages goes."""

    async def delete(self, chat_id: int, message_id: int) -> None:
        """A table's message that a new one replaced."""

    def chat_moved(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: what is sent to the old one goes to the new one."""

    def bot_name(self, number: int, lang: str) -> str:
        """The name of a table's ``number``-th bot player."""


class Members(Protocol):
    """Who belongs to a group."""

    async def is_member(self, chat_id: int, user_id: int) -> bool:
        """Whether the user is a member of the group."""
