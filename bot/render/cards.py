"""Card, suit and action labels in the reader's language."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.base import PlayedCard, Trick
from bot.i18n import Translator
from bot.render.common import LISTED_NAME, cut, labels_for, name_of

__all__ = [
    "action_label",
    "card_label",
    "cards_line",
    "last_trick_line",
    "sort_codes",
    "suit_symbol",
    "trick_line",
]

_SUITS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
_RANKS = {
    "ru": {"T": "10", "J": "В", "Q": "Д", "K": "К", "A": "Т"},
    "en": {"T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"},
}
_SUIT_ORDER = "SCDH"
_RANK_ORDER = "789TJQKA"


def suit_symbol(code: str | None) -> str:
    return _SUITS.get(code or "", "—")


def card_label(code: str, locale: str) -> str:
    """``"TH"`` → ``"10♥"``; ``"QS"`` → ``"Д♠"`` in Russian, ``"Q♠"`` in English."""
    ranks = _RANKS.get(locale, _RANKS["en"])
    return ranks.get(code[0], code[0]) + suit_symbol(code[1])


def sort_codes(codes: Sequence[str]) -> list[str]:
    return sorted(codes, key=lambda c: (_SUIT_ORDER.find(c[1]), _RANK_ORDER.find(c[0])))


def cards_line(codes: Sequence[str], locale: str) -> str:
    return " ".join(card_label(c, locale) for c in codes) or "—"


def trick_line(trick: Sequence[PlayedCard], names: list[str], locale: str) -> str:
    """A trick's cards in the order played: "Ann K♠ · Ben A♠"."""
    return " · ".join(f"{name_of(names, p['seat'])} {card_label(p['card'], locale)}" for p in trick)


def last_trick_line(last: Trick | None, names: list[str], tr: Translator) -> str | None:
    """The trick taken last and who took it, if there is one."""
    if last is None or not last["cards"]:
        return None
    return tr(
        "Last trick: {cards} → {name}",
        cards=trick_line(last["cards"], names, tr.locale),
        name=name_of(names, last["winner"]),
    )


def _is_card(text: str) -> bool:
    return len(text) == 2 and text[0] in _RANK_ORDER and text[1] in _SUITS


def _fixed_actions(tr: Translator) -> dict[str, str]:
    return {
        "play": tr("Play"),
        "pass": tr("Pass"),
        "swap7": tr("Swap the seven"),
        "sevens": tr("Four sevens: redeal"),
        "redeal": tr("Redeal"),
        "concede": tr("Concede"),
        "play_on": tr("Play on"),
        "keep": tr("Play this deal"),
    }


def action_label(code: str, tr: Translator, names: Sequence[str] = ()) -> str:
    """A button label for an engine action code; unknown codes show as they are."""
    fixed = labels_for(tr, _fixed_actions)
    if code in fixed:
        return fixed[code]
    head, rest = code[:1], code[1:]
    if head == "c" and _is_card(rest):
        return card_label(rest, tr.locale)
    if head == "t" and rest in _SUITS:
        return tr("Trump {suit}", suit=_SUITS[rest])
    if head == "b" and rest.isdigit():
        return rest
    if head == "k" and rest.isdigit():
        return rest  # the hand message asks for the contract: the buttons are numbers
    if head == "t" and rest.isdigit():
        return tr("Talon {n}", n=int(rest) + 1)
    if head == "g" and _is_card(rest[:2]) and rest[2:].isdigit():
        seat = int(rest[2:])
        who = cut(names[seat], LISTED_NAME) if seat < len(names) else str(seat + 1)
        return f"{card_label(rest[:2], tr.locale)} → {who}"
    return code
