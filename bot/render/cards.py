"""Card, suit and action labels in the reader's language."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise, permutations

from bot.engine.base import PlayedCard, Trick
from bot.i18n import Translator
from bot.render.common import LISTED_NAME, cut, labels_for, name_of

__all__ = [
    "action_label",
    "card_label",
    "cards_line",
    "last_trick_line",
    "sort_codes",
    "suit_order",
    "suit_symbol",
    "trick_line",
]

_SUITS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
_RANKS = {
    "ru": {"T": "10", "J": "В", "Q": "Д", "K": "К", "A": "Т"},
    "en": {"T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"},
}
_RANK_ORDER = "789TJQKA"

_SUIT_ORDER = "SHCD"
"""Suits as a hand holds them without a trump: black, red, black, red."""
_RED = frozenset("HD")

_HELD_RANKS = {
    "thousand": "ATKQJ9",
    "deberts": "ATKQJ987",
}
"""Ranks within a suit as the hand holds them, strongest first. One direction for both
games, and the order in which the cards count too (in Thousand A 11, 10, K 4, Q 3, J 2,
9 0), so a player reads their winners and their points from the left."""
_HELD_TRUMPS = {"deberts": "J9ATKQ87"}
"""Trump ranks where the trump suit ranks its cards otherwise (Deberts: J, then 9)."""


def suit_symbol(code: str | None) -> str:
    return _SUITS.get(code or "", "—")


def card_label(code: str, locale: str) -> str:
    """``"TH"`` → ``"10♥"``; ``"QS"`` → ``"Д♠"`` in Russian, ``"Q♠"`` in English."""
    ranks = _RANKS.get(locale, _RANKS["en"])
    return ranks.get(code[0], code[0]) + suit_symbol(code[1])


def suit_order(suits: Iterable[str], trump: str | None = None) -> list[str]:
    """The suits held, in the order a hand shows them: the trump first, then colours
    alternating as far as the suits held allow (♠ ♥ ♣ ♦ without a trump)."""
    held = sorted(set(suits), key=_SUIT_ORDER.find)
    first = [trump] if trump in held else []
    rest = [suit for suit in held if suit != trump]

    def clashes(order: tuple[str, ...]) -> int:
        return sum((a in _RED) == (b in _RED) for a, b in pairwise(order))

    best = min(
        permutations(rest),
        key=lambda order: (clashes((*first, *order)), [_SUIT_ORDER.find(s) for s in order]),
    )
    return [*first, *best]


def sort_codes(codes: Sequence[str], game: str = "", trump: str | None = None) -> list[str]:
    """Cards in the order a player holds them (see :func:`suit_order` and
    ``_HELD_RANKS``); without a game, the ranks from the ace down as in Deberts."""
    suits = {suit: i for i, suit in enumerate(suit_order((c[1] for c in codes), trump))}
    plain = _HELD_RANKS.get(game, _HELD_RANKS["deberts"])
    trumps = _HELD_TRUMPS.get(game, plain)
    return sorted(
        codes, key=lambda c: (suits[c[1]], (trumps if c[1] == trump else plain).find(c[0]))
    )


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
