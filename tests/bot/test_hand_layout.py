"""A hand as players hold it and buttons that say what they do: the order of the cards,
the trump and marriage marks, the legal-card marker only where it tells something, and
the deal's lines once play starts."""

from __future__ import annotations

from bot.engine import new_game
from bot.engine.base import IllegalAction
from bot.engine.deberts.state import Deberts
from bot.engine.thousand.game import ThousandGame
from bot.i18n import Translator, make_i18n
from bot.render.cards import sort_codes, suit_order
from bot.render.refusals import refusal
from bot.render.table import hand_keyboard, hand_text, table_text

NAMES = ["Ann", "Ben", "Cid"]
EN = Translator(make_i18n("en"), "en")
RU = Translator(make_i18n("en"), "ru")


def _labels(view: object, tr: Translator = EN) -> list[list[str]]:
    return [[label for label, _ in row] for row in hand_keyboard(1, 1, view, NAMES, tr).rows]  # type: ignore[arg-type]


def test_suits_alternate_colours_with_the_trump_first() -> None:
    assert suit_order("SCDH") == ["S", "H", "C", "D"]
    assert suit_order("SCDH", "D") == ["D", "S", "H", "C"]
    assert suit_order("SCH", "H") == ["H", "S", "C"]  # two black suits: trump first wins
    assert suit_order("SCH") == ["S", "H", "C"]


def test_ranks_are_held_strongest_first_as_each_game_ranks_them() -> None:
    spades = ["7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]
    assert sort_codes(spades, "deberts") == ["AS", "TS", "KS", "QS", "JS", "9S", "8S", "7S"]
    assert sort_codes(spades, "deberts", "S") == ["JS", "9S", "AS", "TS", "KS", "QS", "8S", "7S"]
    assert sort_codes(spades[2:], "thousand") == ["AS", "TS", "KS", "QS", "JS", "9S"]


def _deberts_play(trump: str, open_card: str) -> Deberts:
    hands = [
        ["JH", "9H", "KH", "QH", "AS", "TS", "7C", "8D", "KD"],
        ["AH", "TH", "8H", "7H", "KS", "QS", "JS", "AC", "TC"],
        ["9S", "8S", "7S", "KC", "QC", "JC", "9C", "AD", "TD"],
    ]
    return Deberts.from_position(hands, dealer=2, trump=trump, open_card=open_card)


def test_a_deberts_hand_shows_the_trump_first_marked_and_the_bella() -> None:
    game = _deberts_play("H", "QD")
    view = game.view(0, brief=True)
    rows = _labels(view)
    cards = [label for row in rows for label in row]
    # everything may be led: no marker; trumps first and starred, the bella's pair ringed
    assert cards == ["J♥★", "9♥★", "K♥★ 💍", "Q♥★ 💍", "A♠", "10♠", "K♦", "8♦", "7♣"]
    assert rows[0] == ["J♥★", "9♥★", "K♥★ 💍", "Q♥★ 💍"]  # a suit is not split when it fits
    # the auction is over: one line says who plays in what; the open card of another
    # suit than the trump named says nothing any more
    lines = table_text(game.view(None, brief=True), NAMES, EN).splitlines()
    assert "Bidder: Ann · trump ♥" in lines
    assert not any(line.startswith(("Open card", "Auction", "Trump:")) for line in lines)
    assert "Играет: Ann · козырь ♥" in table_text(game.view(None, brief=True), NAMES, RU)


def test_the_legal_marker_shows_only_when_some_card_may_not_be_played() -> None:
    game = _deberts_play("H", "QD")
    game.apply(0, "cAS")  # Ben holds spades: he must follow
    view = game.view(1, brief=True)
    cards = [label for row in _labels(view) for label in row]
    assert "▶ K♠" in cards and "· A♥★ ·" in cards
    # Ann waits for Ben: a card she presses is refused, and the alert names him
    try:
        game.apply(0, "cJH")
    except IllegalAction as error:
        refused = error
    assert refusal(refused, EN, NAMES) == "It is not your turn: Ben is to move."
    assert refusal(refused, RU, NAMES) == "Сейчас не ваш ход, ходит Ben."


def test_play_names_its_suit_and_the_swap_both_cards() -> None:
    game = new_game("deberts", 3, seed=1)
    seat = game.current_seat()
    assert seat is not None
    view = game.view(seat, brief=True)
    suit = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}[view["open_card"][1]]  # type: ignore[typeddict-item,index]
    actions = _labels(view)[-1]
    assert actions == [f"Play {suit}", "Pass"]
    assert _labels(view, RU)[-1] == [f"Играю {suit}", "Пас"]
    hands = [["7H", "AS"], ["AH", "KS"], ["9S", "KC"]]
    swap = Deberts.from_position(hands, dealer=2, trump="H", open_card="QH")
    offered = _labels(swap.view(0, brief=True))[-1]
    assert "Swap 7♥ for Q♥" in offered
    # the open card of the trump suit stays in view: it may be swapped for
    assert "Open card: Q♥" in table_text(swap.view(None, brief=True), NAMES, EN).splitlines()


def test_a_thousand_king_that_declares_a_marriage_is_ringed_when_led() -> None:
    hands = [["KH", "QH", "AS", "9C"], ["AH", "TS", "KS", "9D"], ["TH", "QS", "AC", "TD"]]
    first = ThousandGame.from_play(hands, bidder=0, contract=120)
    assert not any("💍" in label for row in _labels(first.view(0, brief=True)) for label in row)
    later = ThousandGame.from_play(hands, bidder=0, contract=120, first_lead_done=True)
    cards = [label for row in _labels(later.view(0, brief=True)) for label in row]
    assert cards == ["A♠", "K♥ 💍", "Q♥ 💍", "9♣"]
    lines = table_text(later.view(None, brief=True), NAMES, EN).splitlines()
    assert "Bidder: Ann · contract 120 · no trump yet" in lines


def test_the_forced_opening_says_why_there_is_no_pass() -> None:
    game = new_game("thousand", 3, seed=1)
    seat = game.current_seat()
    assert seat is not None and "pass" not in game.legal_actions(seat)
    text = hand_text(game.view(seat, brief=True), NAMES, EN)
    assert "You open the bidding: the first bid is compulsory, so there is no Pass." in text
