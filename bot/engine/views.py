"""The views every game's ``view()`` returns, as one type each for the bot's messages
and players.

A view is plain JSON data (dicts, lists, scalars), typed with ``TypedDict``s per game:
``game`` (``"deberts"`` or ``"thousand"``) tells which one a view is, so that a reader
of either narrows it with ``view["game"] == "deberts"``. The brief view (``brief=True``)
leaves out the deal's history; the full one holds it too.
"""

from __future__ import annotations

from bot.engine.base import Trick
from bot.engine.deberts.view import DealSummary as DebertsDealSummary
from bot.engine.deberts.view import DebertsBriefView, DebertsView
from bot.engine.thousand.view import LastDeal as ThousandLastDeal
from bot.engine.thousand.view import ThousandBriefView, ThousandView

__all__ = ["BriefView", "LastDeal", "View", "final_trick"]

View = DebertsView | ThousandView
"""A seat's whole view of either game: what a bot player decides from."""

BriefView = DebertsBriefView | ThousandBriefView
"""A seat's view without the deal's history: what the table and hand messages show."""

LastDeal = DebertsDealSummary | ThousandLastDeal
"""The summary of the last deal of either game (a full view's ``last_deal``)."""


def final_trick(deal: LastDeal | None) -> Trick | None:
    """The last trick of the deal summed up; ``None`` if it had none (a redeal, or a
    Thousand deal conceded)."""
    return deal["last_trick"] if deal is not None and "last_trick" in deal else None
