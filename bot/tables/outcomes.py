"""What became of a press or a command: the domain says what happened, ``bot.render``
says it in words."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.db.models import TableRecord
from bot.engine.base import IllegalAction
from bot.engine.views import BriefView, LastDeal

__all__ = [
    "AlreadyOpen",
    "AlreadyPlayed",
    "AlreadySeated",
    "Cancelled",
    "Done",
    "GameOver",
    "GameUnderWay",
    "HandShown",
    "Joined",
    "LanguageChosen",
    "LastTrickShown",
    "Left",
    "LeftGame",
    "Moved",
    "NeedsPrivateChat",
    "NoTable",
    "NobodySeated",
    "NotAllowed",
    "NotMember",
    "NotPossible",
    "NotSeated",
    "Opened",
    "OtherChat",
    "OutOfDate",
    "Outcome",
    "Refused",
    "SeatAsked",
    "SeatsWanted",
    "Started",
    "TableFull",
    "TableGone",
    "WelcomeBack",
]


@dataclass(frozen=True)
class Done:
    """Done; the table's messages show it."""


@dataclass(frozen=True)
class Opened:
    """A table was opened (a private game is dealt already)."""

    table: TableRecord


@dataclass(frozen=True)
class AlreadyOpen:
    """The chat has an open table already: this one."""

    table: TableRecord


@dataclass(frozen=True)
class Moved:
    """The move ``action`` was made; ``shown_later``: the mover's hand shows it only in a
    while (it was edited moments ago), so the answer is to say it was taken."""

    action: str
    names: tuple[str, ...]
    shown_later: bool = False


@dataclass(frozen=True)
class Refused:
    """The rules do not allow the move, for the reason ``error`` gives."""

    error: IllegalAction
    names: tuple[str, ...] = ()
    """The seats' names, so a refusal may say who is to move."""


@dataclass(frozen=True)
class TableGone:
    """The table is closed, or there is no such table."""


@dataclass(frozen=True)
class GameOver:
    """The table's game has ended."""


@dataclass(frozen=True)
class OtherChat:
    """The button was pressed in a chat that is not the table's."""


@dataclass(frozen=True)
class OutOfDate:
    """The button's message is older than the table (shown anew if it was the lobby)."""


@dataclass(frozen=True)
class AlreadyPlayed:
    """A game button of an older state of the table: the move was made, or is no more."""


@dataclass(frozen=True)
class NotAllowed:
    """Only the host or an admin of the chat may do that."""


@dataclass(frozen=True)
class TableFull:
    """Every seat is taken."""


@dataclass(frozen=True)
class SeatsWanted:
    """The table cannot start with the players seated."""

    least: int
    most: int


@dataclass(frozen=True)
class NobodySeated:
    """Only bots sit at the table: a person has to join before it starts."""


@dataclass(frozen=True)
class Started:
    """The game has started."""


@dataclass(frozen=True)
class Cancelled:
    """The table was cancelled."""


@dataclass(frozen=True)
class NotPossible:
    """Nothing of the kind can be done now."""


@dataclass(frozen=True)
class NotMember:
    """The table is in a group the person is not a member of."""


@dataclass(frozen=True)
class AlreadySeated:
    """The person sits at the table already."""


@dataclass(frozen=True)
class NeedsPrivateChat:
    """The person has not opened the private chat their cards are to go to; once they
    do, the join of ``table_id`` completes."""

    table_id: int


@dataclass(frozen=True)
class Joined:
    """The person took a seat at ``table``."""

    table: TableRecord | None = field(default=None, compare=False)


@dataclass(frozen=True)
class GameUnderWay:
    """The table's game has started: no seat is to be had until it ends."""

    table: TableRecord


@dataclass(frozen=True)
class SeatAsked:
    """The person will have a seat at the table the game of ``table`` is played again
    at, when its "Play again" opens it."""

    table: TableRecord


@dataclass(frozen=True)
class NotSeated:
    """The person does not sit at the table."""


@dataclass(frozen=True)
class Left:
    """The person left the lobby."""


@dataclass(frozen=True)
class LeftGame:
    """The person left the game: a bot plays their seat, and the table says so."""


@dataclass(frozen=True)
class NoTable:
    """The chat has no open table."""


@dataclass(frozen=True)
class WelcomeBack:
    """A person a bot was playing for pressed a button of the table: the seat is theirs
    again."""


@dataclass(frozen=True)
class LanguageChosen:
    """The chat (or, in a private chat, the person) speaks ``lang`` from now on."""

    lang: str


@dataclass(frozen=True)
class HandShown:
    """The presser's hand, as their seat's ``view`` (brief) shows it."""

    view: BriefView


@dataclass(frozen=True)
class LastTrickShown:
    """The trick taken last (``view``: everyone's brief view), or the previous deal's
    final one at the start of a deal."""

    view: BriefView
    names: tuple[str, ...]
    previous_deal: LastDeal | None


Outcome = (
    Done
    | Opened
    | AlreadyOpen
    | Moved
    | Refused
    | TableGone
    | GameOver
    | OtherChat
    | OutOfDate
    | AlreadyPlayed
    | NotAllowed
    | TableFull
    | SeatsWanted
    | NobodySeated
    | Started
    | Cancelled
    | NotPossible
    | NotMember
    | AlreadySeated
    | NeedsPrivateChat
    | Joined
    | GameUnderWay
    | SeatAsked
    | NotSeated
    | Left
    | LeftGame
    | NoTable
    | WelcomeBack
    | LanguageChosen
    | HandShown
    | LastTrickShown
)
"""Any of them."""
