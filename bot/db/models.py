"""Plain records the repositories read and write."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = ["Seat", "TableRecord", "TableStatus"]


class TableStatus(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass
class Seat:
    """A person (``user_id``) or a bot player (``bot`` = its level).

    ``away``: a bot plays for a person who let their turn time out too often; the
    seat is still theirs, and any press of theirs at the table takes it back.
    """

    name: str
    user_id: int | None = None
    bot: str | None = None
    away: bool = False

    @property
    def is_bot(self) -> bool:
        return self.bot is not None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "user_id": self.user_id, "bot": self.bot}
        if self.away:
            data["away"] = True
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        return cls(
            name=data["name"],
            user_id=data.get("user_id"),
            bot=data.get("bot"),
            away=bool(data.get("away", False)),
        )


@dataclass
class TableRecord:
    id: int
    chat_id: int
    game: str
    status: TableStatus
    host_id: int
    seats: list[Seat]
    conventions: dict[str, Any]
    lang: str
    solo: bool = False
    turn_timer: int = 0
    autoplay: bool = True
    """Whether a forced last card plays itself after a short pause."""
    state: str | None = None
    """The engine's ``to_json()`` as JSON text; parsed only when the game is needed."""
    version: int = 0
    table_msg_id: int | None = None
    hand_msgs: dict[int, int] = field(default_factory=dict)
    seed: int = 0
    unposted_from: int | None = None
    """Set while the deal results from this scoresheet row on (and the end of the game)
    may not all be posted yet; ``None`` once they are. One past the last row: every
    result and the end of the game were posted, what follows them may not be shown yet."""
    deadline: float | None = None
    """When the lobby expires or the seat to act times out (wall clock); ``None``: no timer."""
    remind_at: float | None = None
    """When to remind the seat to act; ``None`` once reminded."""
    timeouts: dict[int, int] = field(default_factory=dict)
    """Turns each seat has let time out in a row."""
    reminders: dict[int, int] = field(default_factory=dict)
    """The turn reminder each player has in their chat (user id: message id), deleted
    once the turn is over: kept here, a restart does not leave one behind."""
    stored_version: int | None = field(default=None, compare=False, repr=False)
    """The version the stored row had when this record was read or last saved (``None``:
    not read from the database). Saving the game's side checks the row still has it,
    so a writer holding an older read fails (:class:`~bot.db.repo.StaleTable`) instead
    of overwriting a change made since."""
    shown_stored: tuple[Any, ...] | None = field(default=None, compare=False, repr=False)
    """Where this record last read or wrote the table's messages to be (:meth:`shown`):
    writing them again as they are is skipped."""

    def shown(self) -> tuple[Any, ...]:
        """Where the table's messages are: its chat, the table message, each hand and
        reminder (the columns :meth:`~bot.db.repo.TableRepo.save_shown` writes)."""
        return (
            self.chat_id,
            self.table_msg_id,
            tuple(sorted(self.hand_msgs.items())),
            tuple(sorted(self.reminders.items())),
        )

    @property
    def is_open(self) -> bool:
        return self.status in (TableStatus.LOBBY, TableStatus.PLAYING)

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and not seat.is_bot:
                return index
        return None

    def away_seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and seat.away:
                return index
        return None

    def names(self) -> list[str]:
        """The seats' names, in seat order."""
        return [s.name for s in self.seats]

    def humans(self) -> list[tuple[int, Seat]]:
        return [(i, s) for i, s in enumerate(self.seats) if not s.is_bot and s.user_id is not None]
