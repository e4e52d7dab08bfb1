"""Pieces every message shares: game titles, phase names, convention labels."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any
from weakref import WeakKeyDictionary

from aiogram.utils.i18n import I18n

from bot.i18n import Translator

__all__ = [
    "LISTED_NAME",
    "MINUS",
    "convention_value",
    "cut",
    "game_title",
    "labels_for",
    "level_label",
    "name_of",
    "number",
    "option_label",
    "phase_label",
    "signed",
]

Labels = Callable[[Translator], dict[str, str]]

_LABELS: WeakKeyDictionary[I18n, dict[tuple[str, Labels], dict[str, str]]] = WeakKeyDictionary()


def labels_for(tr: Translator, build: Labels) -> dict[str, str]:
    """``build(tr)``, made once per catalog and locale.

    The label tables are rebuilt for every message otherwise, a dozen catalog
    look-ups each, to use one entry.
    """
    per_catalog = _LABELS.get(tr.i18n)
    if per_catalog is None:
        per_catalog = _LABELS[tr.i18n] = {}
    key = (tr.locale, build)
    labels = per_catalog.get(key)
    if labels is None:
        labels = per_catalog[key] = build(tr)
    return labels


def _game_titles(tr: Translator) -> dict[str, str]:
    return {"deberts": tr("Deberts"), "thousand": tr("Thousand")}


def game_title(game: str, tr: Translator) -> str:
    return labels_for(tr, _game_titles).get(game, game)


LISTED_NAME = 24
"""Characters of a player's name in a game's messages: a Telegram name may be 129 long,
and in full at every call, card, score and fact of a deal it would take a message past
Telegram's 4,096 characters. Every line cuts it the same, so one player reads the same
everywhere."""


def cut(text: str, limit: int) -> str:
    """``text`` as it fits in ``limit`` characters, with "…" where it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _level_labels(tr: Translator) -> dict[str, str]:
    return {"random": tr("Random"), "easy": tr("Easy"), "hard": tr("Hard")}


def level_label(level: str, tr: Translator) -> str:
    """A bot player's level as the players read it: "Easy", not "easy"."""
    return labels_for(tr, _level_labels).get(level, level)


def name_of(names: Sequence[str], seat: int | None) -> str:
    """The seat's name as a game's messages show it: cut to :data:`LISTED_NAME`, then
    escaped for HTML (so that no escape is cut in half)."""
    if seat is None or not 0 <= seat < len(names):
        return "—"
    return escape(cut(names[seat], LISTED_NAME))


def _phase_labels(tr: Translator) -> dict[str, str]:
    return {
        "bidding": tr("bidding"),
        "auction": tr("bidding"),
        "redeal": tr("a redeal may be asked for"),
        "bidding_1": tr("bidding on the open card"),
        "bidding_2": tr("bidding: naming a suit"),
        "talon": tr("taking the talon"),
        "give": tr("giving away cards"),
        "contract": tr("naming the contract"),
        "declare": tr("declarations"),
        "play": tr("play"),
        "game_over": tr("game over"),
        "over": tr("game over"),
    }


def phase_label(phase: str, tr: Translator) -> str:
    return labels_for(tr, _phase_labels).get(phase, phase.replace("_", " "))


def _option_labels(tr: Translator) -> dict[str, str]:
    return {
        "target": tr("Target"),
        "winner_takes_all": tr("Winner takes all"),
        "order_obligatory": tr("Order obligatory"),
        "seven_swap": tr("Seven swap"),
        "hanging_separately": tr("Hanging separately"),
        "trump_in_combination": tr("Trump in combinations"),
        "combination_trump": tr("Trump in combinations"),
        "four_sevens": tr("Four sevens redeal"),
        "four_sevens_redeal": tr("Four sevens redeal"),
        "redeal": tr("Redeal"),
        "barrel_trading": tr("Barrel trading"),
        "ace_marriage": tr("Ace marriage"),
        "minus_limit": tr("Bidding in the minus"),
        "bidding_in_minus": tr("Bidding in the minus"),
        "minus_threshold": tr("Bidding in the minus"),
        "show_talon": tr("Show the talon at 100"),
        "show_talon_on_hundred": tr("Show the talon at 100"),
        "concede": tr("Conceding"),
        "concede_penalty": tr("Penalty on concede"),
        "penalty_on_concede": tr("Penalty on concede"),
        "dump_truck": tr("Dump truck (555)"),
        "golden_round": tr("Golden round"),
        "bid_step": tr("Bid step"),
        "turn_timer": tr("Turn timer"),
        "autoplay": tr("Forced last cards play themselves"),
    }


def option_label(name: str, tr: Translator) -> str:
    return labels_for(tr, _option_labels).get(name, name.replace("_", " ").capitalize())


def convention_value(value: Any, tr: Translator) -> str:
    if value is True:
        return tr("yes")
    if value is False:
        return tr("no")
    labels = {
        "moscow": tr("Moscow"),
        "kharkov": tr("Kharkov"),
        "any5": tr("any multiple of 5"),
        "any": tr("any multiple of 5"),
        "plus5": tr("exactly +5"),
        "exact5": tr("exactly +5"),
    }
    if isinstance(value, str):
        return labels.get(value, value)
    if isinstance(value, int):
        return signed(value)
    return str(value)


MINUS = "\u2212"
"""The minus sign the texts write ("−120"), not the hyphen Python's ``str`` gives."""


def signed(value: int, *, plus: bool = False) -> str:
    """A number as the players read it: "−300"; with ``plus``, "+40" and "0" too."""
    if value < 0:
        return f"{MINUS}{-value}"
    return f"+{value}" if plus and value > 0 else str(value)


def number(value: Any) -> str:
    """A number with the minus sign the texts use ("−120"); anything else as it is,
    escaped for HTML."""
    if isinstance(value, int) and not isinstance(value, bool):
        return signed(value)
    return escape(str(value))
