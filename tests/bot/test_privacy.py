"""No message to a group or to another player's chat ever shows a card still hidden in a hand.

Random complete deals are driven through the table service against the fake Bot
API; after every action each message the bot sent or edited is checked against
the hands as they are at that moment.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from aiogram.client.default import DefaultBotProperties

from bot.app import create_app
from bot.bench.fake_telegram import FakeTelegram
from bot.engine.base import Game
from bot.i18n import Translator, make_i18n
from bot.render.cards import card_label, last_trick_line
from bot.tables import Person
from bot.tables.outcomes import Moved, Opened
from tests.e2e.harness import VirtualClock

_CARD = re.compile(r"\b[789TJQKA][SCDH]\b")


def hidden_cards(game: Game, viewer: int | None) -> set[str]:
    """Cards in other seats' hands that the viewer's view of the game (the public one for
    the group) does not reveal: a Thousand bidder, say, knows the cards it gave away."""
    known = {k: v for k, v in game.view(viewer).items() if k != "last_deal"}
    revealed = set(_CARD.findall(json.dumps(known)))
    cards: set[str] = set()
    for seat in range(game.seats):
        if seat != viewer:
            cards |= set(game.view(seat, brief=True)["hand"])
    return cards - revealed


class Hidden:
    """:func:`hidden_cards` of one state of a game, for each viewer when first asked."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.of: dict[int | None, set[str]] = {}

    def __call__(self, viewer: int | None) -> set[str]:
        if viewer not in self.of:
            self.of[viewer] = hidden_cards(self.game, viewer)
        return self.of[viewer]


def leaks(blob: str, hidden: set[str]) -> list[str]:
    found = []
    for code in hidden:
        shown = (card_label(code, "en"), card_label(code, "ru"), f":c{code}")
        if any(s in blob for s in shown):
            found.append(code)
    return found


@pytest.mark.parametrize(
    ("game_name", "seats", "seed"),
    [
        ("deberts", 2, 1),
        ("deberts", 3, 2),
        ("thousand", 2, 3),
        ("thousand", 3, 4),
        ("thousand", 4, 5),
    ],
)
async def test_no_hidden_card_reaches_the_group_or_another_player(
    fake_telegram: FakeTelegram, tmp_path: Path, game_name: str, seats: int, seed: int
) -> None:
    fake = fake_telegram
    bot = fake.make_bot(default=DefaultBotProperties(parse_mode="HTML"))
    clock = VirtualClock()
    app = await create_app(
        bot,
        tmp_path / "bot.sqlite3",
        default_locale="en",
        seed_source=lambda: seed,
        sleep=clock.sleep,
        clock=clock,
    )
    tr = Translator(make_i18n("en"), "en")
    try:
        users = [fake.add_user(f"P{i}") for i in range(seats)]
        group = fake.add_group("Cards", members=users)
        people = [Person(u.id, u.first_name) for u in users]
        for user in users:
            await app.tables.people.seen(user.id, user.first_name, "en", private=True)
        opened = await app.tables.lobby.open(group.id, people[0], game_name, "en")
        assert isinstance(opened, Opened)
        record = opened.table
        for who in people[1:]:
            await app.tables.lobby.press(record.id, 0, who, "join", -1)
        fresh = await app.tables.store.repo.get(record.id)
        assert fresh is not None
        await app.tables.lobby.press(record.id, fresh.version, people[0], "start", -1)
        seat_of_chat = {u.id: i for i, u in enumerate(users)}
        rng = random.Random(seed)
        checked = 0
        mark = 0
        before: Hidden | None = None
        for _ in range(400):
            fresh = await app.tables.store.repo.get(record.id)
            assert fresh is not None
            game = app.tables.store.load(fresh)
            now = Hidden(game)
            hands = [set(game.view(seat, brief=True)["hand"]) for seat in range(game.seats)]
            assert any(hands) or game.is_over
            # a deal's result names its final trick, whose cards may be dealt anew by now
            final = (game.view(None).get("last_deal") or {}).get("last_trick")
            shown = last_trick_line(final, [p.name for p in people], tr)
            for call in fake.calls(since=mark):
                if call.method not in ("sendMessage", "editMessageText"):
                    continue
                chat = call.params["chat_id"]
                viewer = None if chat == group.id else seat_of_chat[chat]
                blob = json.dumps(call.params, ensure_ascii=False)
                if shown and "is over." in blob:
                    blob = blob.replace(shown, "")
                # An edit held back by the throttle may go out during the next move,
                # still showing the state before it (a talon shown before it was taken).
                hidden = now(viewer) & (before or now)(viewer)
                assert not leaks(blob, hidden), blob
                checked += 1
            before = now
            if game.is_over:
                break
            mark = fake.mark()
            seat = game.current_seat()
            assert seat is not None
            code = rng.choice(game.legal_actions(seat))
            outcome = await app.tables.play.act(record.id, fresh.version, people[seat], code)
            assert isinstance(outcome, Moved), outcome
            await app.tables.publish(record.id)
        assert checked > 100
    finally:
        await app.close()
        await bot.session.close()


def test_the_check_itself_sees_a_planted_card() -> None:
    from bot.engine import new_game

    game = new_game("deberts", 2, seed=5)
    secret = sorted(hidden_cards(game, 0))
    assert secret and set(secret) <= set(game.view(1)["hand"])
    blob = f"<b>table</b> {card_label(secret[0], 'ru')}"
    assert leaks(blob, set(secret)) == [secret[0]]
    assert leaks("nothing here", set(secret)) == []
