"""What a player reads, whole: the table message, a hand with its buttons and a deal's
result of each game, in Russian and English, checked against files read by a person.

A change to any of them shows here as a diff of the file; after reading the new text as
a player would, ``SNAPSHOTS=write pytest tests/bot/test_snapshots.py`` writes it."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from bot.engine import GAME_NAMES, new_game
from bot.engine.base import Game
from bot.i18n import Translator, make_i18n
from bot.render.history import deal_keyboard, deal_review_keyboard, deal_review_text
from bot.render.keyboards.layout import Keyboard, Link
from bot.render.scores import deal_result_text
from bot.render.table import hand_keyboard, hand_text, table_keyboard, table_text
from bot.render.texts import (
    help_keyboard,
    help_summary_text,
    help_text,
    rules_keyboard,
    rules_summary_text,
)
from bot.tables.lookups import TableRules
from bot.tables.records import DealReview

NAMES = ["Аня", "Ben", "Cid", "Dana"]
BOT = "TablesTestBot"
SNAPSHOTS = Path(__file__).parent / "snapshots"
_I18N = make_i18n("en")


def _mid_deal(name: str, seed: int, seats: int = 3) -> Game:
    """A game played at random past its first deal, to the fourth card of the next one's
    play, so the table has a result, a trick on it and a hand with a choice."""
    game = new_game(name, seats, seed=seed)
    rng = random.Random(seed)
    while True:
        seat = game.current_seat()
        assert seat is not None
        view = game.view(seat, brief=True)
        if game.rows_scored and view["phase"] == "play" and len(view["hand"]) < 6 and view["trick"]:
            return game
        legal = game.legal_actions(seat)
        # play on rather than give up, so the deal gets to its tricks
        game.apply(seat, rng.choice([a for a in legal if a != "concede"] or legal))


def _screens(game: Game, tr: Translator) -> str:
    seat = game.current_seat()
    assert seat is not None
    view = game.view(seat, brief=True)
    sheet = game.scoresheet()
    names = NAMES[: game.seats]
    parts = [
        "=== table message (group)",
        table_text(game.view(None, brief=True), names, tr, cards_with=BOT),
        _buttons(table_keyboard(1, 1, tr, cards_with=BOT)),
        f"=== hand of {names[seat]} (private chat)",
        hand_text(view, names, tr, result=sheet.rows[-1]),
        _buttons(hand_keyboard(1, 1, view, names, tr)),
    ]
    out = game.view(None, brief=True).get("sitting_out")
    if isinstance(out, int):
        dealer = game.view(out, brief=True)
        parts += [
            f"=== hand of {names[out]}, the dealer sitting out (private chat)",
            hand_text(dealer, names, tr),
            f"buttons: {len(hand_keyboard(1, 1, dealer, names, tr).rows)}",
        ]
    ended = game.ended_deal()
    assert ended is not None and not ended.redeal
    review = DealReview(1, game.name, tuple(names), sheet.rows[-1].deal_no, (ended,), 2, False)
    parts += [
        "=== the first deal's result (group)",
        deal_result_text(sheet.rows[0], sheet, names, tr),
        _buttons(deal_keyboard(1, sheet.rows[0].deal_no, tr)),
        "=== the deal shown by its button (group)",
        deal_review_text(review, tr),
        _buttons(deal_review_keyboard(review, tr)),
    ]
    return "\n".join(parts) + "\n"


def _buttons(keyboard: Keyboard | None) -> str:
    """A keyboard as rows of ``[label]``; a link shows where it goes."""
    if keyboard is None:
        return ""
    return "\n".join(
        " | ".join(f"[{b.text} → {b.url}]" if isinstance(b, Link) else f"[{b[0]}]" for b in row)
        for row in keyboard.rows
    )


@pytest.mark.parametrize("locale", ["ru", "en"])
@pytest.mark.parametrize(
    ("name", "seed", "seats", "file"),
    [("deberts", 4, 3, "deberts"), ("thousand", 2, 3, "thousand"), ("thousand", 2, 4, "thousand4")],
)
def test_what_a_player_reads(name: str, seed: int, seats: int, file: str, locale: str) -> None:
    shown = _screens(_mid_deal(name, seed, seats), Translator(_I18N, locale))
    path = SNAPSHOTS / f"{file}_{locale}.txt"
    if os.environ.get("SNAPSHOTS") == "write":
        path.write_text(shown, encoding="utf-8")
    assert shown == path.read_text(encoding="utf-8")


def _help_screens(tr: Translator) -> str:
    game = new_game("deberts", 3, seed=1)
    table = TableRules("deberts", game.conventions.to_json(), 60)
    return (
        "\n".join(
            [
                "=== /help in a group",
                help_summary_text(tr),
                _buttons(help_keyboard(BOT, tr)),
                "=== /help in the private chat (and its button)",
                help_text(tr),
                "=== /rules in a group, at a Deberts table",
                rules_summary_text(["deberts"], table, tr),
                _buttons(rules_keyboard(["deberts"], BOT, tr)),
                "=== /rules thousand in a group",
                rules_summary_text(["thousand"], table, tr),
                _buttons(rules_keyboard(["thousand"], BOT, tr)),
                "=== /rules in a group with no table",
                rules_summary_text(list(GAME_NAMES), None, tr),
                _buttons(rules_keyboard(list(GAME_NAMES), BOT, tr)),
            ]
        )
        + "\n"
    )


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_help_and_rules_as_read(locale: str) -> None:
    shown = _help_screens(Translator(_I18N, locale))
    path = SNAPSHOTS / f"help_{locale}.txt"
    if os.environ.get("SNAPSHOTS") == "write":
        path.write_text(shown, encoding="utf-8")
    assert shown == path.read_text(encoding="utf-8")
