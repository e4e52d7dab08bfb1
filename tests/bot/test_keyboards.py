"""Keyboards built without pydantic's validation are the ones validation would give."""

from __future__ import annotations

import random
from typing import Any

import pytest
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, User
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.db.models import TableRecord, TableStatus
from bot.engine import new_game
from bot.engine.thousand import ThousandConventions, complete_deal, from_hands
from bot.i18n import Translator, make_i18n
from bot.render.cards import action_label
from bot.render.common import convention_value, game_title, option_label, phase_label
from bot.render.keyboards.callbacks import (
    Act,
    Lobby,
    TableButton,
    act_data,
    lobby_data,
    packed,
    table_button_data,
)
from bot.render.keyboards.layout import Keyboard, keyboard, rows
from bot.render.lobby import lobby_keyboard, settings_keyboard
from bot.render.table import hand_alert, hand_keyboard, hand_text, table_keyboard
from tests.engine.test_thousand_rules import ACES_TWO_HANDS, ACES_TWO_TALONS

BIG = 2**40

CASES: list[tuple[str, CallbackData]] = [
    (act_data(7, 3, "cTH"), Act(table_id=7, version=3, action="cTH")),
    (act_data(7, 0, "pass"), Act(table_id=7, version=0, action="pass")),
    (act_data(BIG, 10**9, "gTH2"), Act(table_id=BIG, version=10**9, action="gTH2")),
    (act_data(12, 5, "b105"), Act(table_id=12, version=5, action="b105")),
    (act_data(12, 5, ""), Act(table_id=12, version=5, action="")),
    (table_button_data(3, 9, "hand"), TableButton(table_id=3, version=9, show="hand")),
    (table_button_data(3, 9, "last"), TableButton(table_id=3, version=9, show="last")),
    (lobby_data(4, 2, "join"), Lobby(table_id=4, version=2, action="join")),
    (lobby_data(4, 2, "opt", 11), Lobby(table_id=4, version=2, action="opt", option=11)),
]


@pytest.mark.parametrize(("data", "model"), CASES)
def test_packed_strings_are_what_pack_gives_and_parse_back(data: str, model: CallbackData) -> None:
    assert data == model.pack()
    assert type(model).unpack(data) == model


def test_a_bool_packs_as_pack_does() -> None:
    assert packed(Act.__prefix__, True, False, "x") == "a:1:0:x"


@pytest.mark.parametrize(
    ("build", "model"),
    [
        (lambda: act_data(1, 2, "a:b"), lambda: Act(table_id=1, version=2, action="a:b")),
        (lambda: act_data(1, 2, "x" * 60), lambda: Act(table_id=1, version=2, action="x" * 60)),
    ],
)
def test_what_pack_refuses_is_refused(build: Any, model: Any) -> None:
    with pytest.raises(ValueError):
        model().pack()
    with pytest.raises(ValueError):
        build()


async def test_the_handlers_filters_accept_packed_strings() -> None:
    user = User(id=1, is_bot=False, first_name="Ann")
    for data, model in CASES:
        query = CallbackQuery(id="1", from_user=user, chat_instance="1", data=data)
        found = await type(model).filter()(query)
        assert found == {"callback_data": model}
        others = [m for _, m in CASES if type(m) is not type(model)]
        for other in others:
            assert not await type(other).filter()(query)


def test_a_keyboard_is_the_markup_and_json_validation_would_give() -> None:
    kb = keyboard(
        [
            ("▶ 10♥", "a:1:2:cTH"),
            ("B", Act(table_id=1, version=1, action="y")),
            ("Pass", "a:1:2:pass"),
        ],
        (2,),
    )
    validated = InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text="▶ 10♥", callback_data="a:1:2:cTH"),
                InlineKeyboardButton(text="B", callback_data="a:1:1:y"),
            ],
            [InlineKeyboardButton(text="Pass", callback_data="a:1:2:pass")],
        ]
    )
    assert kb.as_markup() == validated
    assert kb.as_json() == validated.model_dump(mode="json", exclude_none=True)
    assert kb == Keyboard(
        rows([("▶ 10♥", "a:1:2:cTH"), ("B", "a:1:1:y"), ("Pass", "a:1:2:pass")], (2,))
    )
    assert hash(kb) == hash(Keyboard(kb.rows))
    assert (kb + keyboard([("x", "y")])).rows == (*kb.rows, (("x", "y"),))
    assert keyboard([]).as_json() == {"inline_keyboard": []}


def _views() -> list[dict[str, Any]]:
    """Hands of both games at many points: auction, talon, play, with and without legal moves."""
    views = []
    for name, seats in (("deberts", 2), ("thousand", 3), ("thousand", 2)):
        for seed in range(12):
            game = new_game(name, seats, seed=seed)
            rng = random.Random(seed)
            for _ in range(rng.randrange(0, 40)):
                if game.is_over:
                    break
                seat = game.current_seat()
                assert seat is not None
                legal = game.view(seat).get("legal") or []
                if not legal:
                    break
                game.apply(seat, rng.choice(legal))
            views += [game.view(seat) for seat in range(seats)]
    return views + _long_views()


def _long_views() -> list[dict[str, Any]]:
    """Thousand turns with more than 30 bids or contracts to choose from (and Concede)."""
    views = []
    for seats in (2, 3):
        for seed in range(16):
            game = new_game("thousand", seats, seed=seed)
            rng = random.Random(seed)
            for _ in range(40):
                seat = game.current_seat()
                assert seat is not None
                view = game.view(seat)
                if len(view["legal"]) > 30:
                    views.append(view)
                game.apply(seat, rng.choice(view["legal"]))
    phases = {view["phase"] for view in views}
    assert {"auction", "contract"} <= phases, phases
    return views + _ace_marriage_views()


def _ace_marriage_views() -> list[dict[str, Any]]:
    """The most bids and contracts the rules offer: more than 100 with the cards."""
    aces = ThousandConventions(ace_marriage=True, redeal=False)
    two = from_hands(ACES_TWO_HANDS, ACES_TWO_TALONS, dealer=1, conventions=aces)
    views = [two.view(0)]  # 10 cards, b100 to b560: no Pass for the first hand
    two.apply(0, "b100")
    views.append(two.view(1))  # Pass and b105 to b120
    for seat, action in ((1, "pass"), (0, "t0"), (0, "gQS1")):
        two.apply(seat, action)
    views.append(two.view(0))  # 11 cards, k100 to k560 and Concede
    three_hands, three_talons = complete_deal(3, {1: ["AS", "AC", "AD", "AH", "KH", "QH"]})
    three = from_hands(three_hands, three_talons, dealer=2, conventions=aces)
    three.apply(0, "b100")
    views.append(three.view(1))  # 7 cards, Pass and b105 to b420
    assert [len(v["hand"]) + len(v["legal"]) for v in views] == [103, 15, 105, 72]
    return views


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_hand_keyboards_are_validated_act_buttons(locale: str) -> None:
    tr = Translator(make_i18n(locale), locale)
    names = ["Ann", "Ben", "Cid"]
    for view in _views():
        kb = hand_keyboard(42, 17, view, names, tr).as_markup()
        hand = set(view.get("hand") or [])
        buttons = [b for row in kb.inline_keyboard for b in row]
        codes = []
        for b in buttons:
            assert b.callback_data is not None
            act = Act.unpack(b.callback_data)
            assert b.callback_data == Act(table_id=42, version=17, action=act.action).pack()
            assert (act.table_id, act.version) == (42, 17)
            codes.append(act.action)
        cards = [c for c in codes if c.startswith("c") and c[1:] in hand]
        legal = view.get("legal") or []
        extras = [c for c in legal if not (c.startswith("c") and c[1:] in hand)]
        # every bid, contract and concede included, in order (a give-away's a card a row)
        giving = any(c.startswith("g") for c in extras)
        assert (sorted(codes[len(cards) :]) if giving else codes[len(cards) :]) == (
            sorted(extras) if giving else extras
        )
        listed = tr("Your cards: {cards}", cards="") in hand_text(view, names, tr)
        if len(hand) + len(extras) <= 100 and not giving:
            assert sorted(cards) == sorted("c" + card for card in hand)
            assert not listed
        else:
            # too many for buttons beside the actions, or a give-away whose buttons each
            # name their card: the message lists the cards
            assert not cards and listed
            assert hand_alert(view, tr) in hand_text(view, names, tr)
        # Telegram's limits: 100 buttons in all, 8 in a row
        assert len(buttons) <= 100
        assert all(len(row) <= 8 for row in kb.inline_keyboard)
        for b, code in zip(buttons[len(cards) :], codes[len(cards) :], strict=True):
            assert b.text == action_label(code, tr, names)


def test_table_keyboard_buttons() -> None:
    tr = Translator(make_i18n("en"), "en")
    kb = table_keyboard(5, 8, tr).as_markup()
    assert kb == InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text="🂠 My hand", callback_data="t:5:8:hand"),
                InlineKeyboardButton(text="Last trick", callback_data="t:5:8:last"),
            ]
        ]
    )


def test_a_group_table_keyboard_links_to_the_private_chat() -> None:
    tr = Translator(make_i18n("en"), "en")
    kb = table_keyboard(5, 8, tr, cards_with="CardsBot")
    link = InlineKeyboardButton(text="💬 My cards in private chat", url="https://t.me/CardsBot")
    assert kb.as_markup().inline_keyboard[1] == [link]
    # the JSON sent to Telegram is aiogram's own, link and callback buttons alike
    assert kb.as_json() == kb.as_markup().model_dump(exclude_none=True)
    assert hash(kb) == hash(table_keyboard(5, 8, tr, cards_with="CardsBot"))


def test_labels_follow_the_locale_of_each_translator() -> None:
    i18n = make_i18n("ru")
    ru, en = Translator(i18n, "ru"), Translator(i18n, "en")
    for _ in range(2):  # the second round comes from the cache
        assert action_label("pass", ru) == "Пас"
        assert action_label("pass", en) == "Pass"
        assert phase_label("play", en) == "play"
        assert phase_label("play", ru) == ru("play") != "play"
        assert game_title("deberts", en) == "Deberts"
        assert game_title("deberts", ru) == ru("Deberts") != "Deberts"
        assert phase_label("odd_phase", ru) == "odd phase"


def _builder_markup(buttons: list[tuple[str, CallbackData]], *widths: int) -> InlineKeyboardMarkup:
    """The keyboard as aiogram's builder makes it: the reference for the lobby's."""
    kb = InlineKeyboardBuilder()
    for text, data in buttons:
        kb.button(text=text, callback_data=data)
    kb.adjust(*widths)
    return kb.as_markup()


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_lobby_keyboards_are_what_the_builder_made(locale: str) -> None:
    tr = Translator(make_i18n(locale), locale)
    record = TableRecord(
        id=31,
        chat_id=-5,
        game="thousand",
        status=TableStatus.LOBBY,
        host_id=1,
        seats=[],
        conventions={"target": 1000, "golden_round": True, "odd_option": "x"},
        lang=locale,
        turn_timer=90,
        version=4,
    )
    lobby = [
        (tr("Join"), Lobby(table_id=31, version=4, action="join")),
        (tr("Leave"), Lobby(table_id=31, version=4, action="leave")),
        (tr("+ Easy bot"), Lobby(table_id=31, version=4, action="bot", option=0)),
        (tr("+ Hard bot"), Lobby(table_id=31, version=4, action="bot", option=1)),
        (tr("Settings"), Lobby(table_id=31, version=4, action="settings")),
        (tr("Start"), Lobby(table_id=31, version=4, action="start")),
        (tr("Cancel"), Lobby(table_id=31, version=4, action="cancel")),
    ]
    assert lobby_keyboard(record, tr).as_markup() == _builder_markup(lobby, 2, 2, 2, 2)
    options: dict[str, tuple[Any, ...]] = {
        "target": (1000, 500),
        "golden_round": (True, False),
        "odd_option": ("x", "y"),
    }
    settings = [
        (
            f"{option_label(name, tr)}: {convention_value(value, tr)}",
            Lobby(table_id=31, version=4, action="opt", option=i),
        )
        for i, (name, value) in enumerate(record.conventions.items())
    ]
    settings.append(
        (
            f"{option_label('turn_timer', tr)}: {tr('{n} s', n=90)}",
            Lobby(table_id=31, version=4, action="opt", option=3),
        )
    )
    settings.append(
        (
            f"{option_label('autoplay', tr)}: {tr('yes')}",
            Lobby(table_id=31, version=4, action="opt", option=4),
        )
    )
    settings.append((tr("« Back"), Lobby(table_id=31, version=4, action="back")))
    assert settings_keyboard(record, options, tr).as_markup() == _builder_markup(settings, 1)
    assert option_label("odd_option", tr) == "Odd option"
