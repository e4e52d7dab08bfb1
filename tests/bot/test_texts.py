"""/rules says what RULINGS.md says, in both languages, in one message."""

from __future__ import annotations

import re

import pytest
from aiogram.filters import Command

from bot.engine import GAME_NAMES
from bot.i18n import Translator, make_i18n
from bot.render.keyboards.layout import Link
from bot.render.menus import command_menu
from bot.render.texts import help_text, rules_keyboard, rules_text
from bot.telegram.handlers import routers
from bot.telegram.handlers.info import rules_asked

TELEGRAM_LIMIT = 4096
GAMES = list(GAME_NAMES)

_I18N = make_i18n("en")


def _rules(game: str, locale: str) -> str:
    # one line: the catalog wraps nothing, but the checks should not care where lines break
    return " ".join(rules_text(game, Translator(_I18N, locale)).split())


def _says(text: str, said: list[str], not_said: list[str]) -> None:
    assert [phrase for phrase in said if phrase not in text] == []
    assert [phrase for phrase in not_said if phrase in text] == []


def test_both_games_rules_fit_in_one_message() -> None:
    for locale in ("en", "ru"):
        both = "\n\n".join(
            rules_text(g, Translator(_I18N, locale)) for g in ("deberts", "thousand")
        )
        assert len(re.sub(r"<[^>]+>", "", both)) <= TELEGRAM_LIMIT


@pytest.mark.parametrize(
    ("locale", "said", "not_said"),
    [
        (
            "en",
            [
                # rule 8: the bidder against the whistlers' points together
                "more points than the other players together",
                "their points go to the others",
                "for whoever scores the most in the next deal",
                # rule 10: several past the target
                "the highest total wins; an exact tie goes to whoever took that deal's last trick",
                # rule 7
                "bella, 20, even without a trick",
                # rule 6: how runs compare and split
                "a berz beats a terz, then the higher top card, then (Moscow) the trump run",
                "seven as a berz and a terz, eight as two berz",
                # rule 5: void of both
                "with neither, any card",
            ],
            ["more than the others,", "The first to reach the target wins"],
        ),
        (
            "ru",
            [
                "больше очков, чем у остальных вместе",
                "его очки достаются остальным",
                "достаются тому, у кого будет больше всех очков в следующей сдаче",
                "побеждает тот, у кого больше всего очков; при равенстве — тот, за кем "
                "последняя взятка этой сдачи",
                # rule 6: how runs compare and split
                "берц старше терца",
                "семь — берцем и терцем, восемь — двумя берцами",
                "бела, 20 очков, даже без взяток",
            ],
            ["больше остальных", "Побеждает первый"],
        ),
    ],
)
def test_deberts_rules(locale: str, said: list[str], not_said: list[str]) -> None:
    _says(_rules("deberts", locale), said, not_said)


@pytest.mark.parametrize(
    ("locale", "said", "not_said"),
    [
        (
            "en",
            [
                # rule 6: no marriage on the very first lead
                "leading a K or Q while holding its partner, except on the first lead of the deal",
                "makes its suit trump until the next one",
                # rule 1: talons
                "a talon of 3 is left (two players: 10 cards each and two talons of 2; four"
                " players: the dealer sits the deal out and writes the talon's points)",
                # rule 2: any multiple of 5 by default, not a step of 5
                "Bids are multiples of 5 and only rise",
                "a pass is final",
                # rules 7 to 9
                "every third bolt costs 120",
                "exactly 555 or −555 becomes 0",
                "At 880 or more your total stops at 880",
                "while you play one the others get neither points nor bolts",
                # rule 7: rounding
                "rounded to the nearest 5 (ending in 1, 2, 6, 7 down; 3, 4, 8, 9 up)",
                "Failing costs nothing, but after three deals there, or when another player "
                "reaches the barrel, you drop off with −120",
            ],
            ["until someone leads", "in steps of 5", "the first to 1000 wins"],
        ),
        (
            "ru",
            [
                "кто заходит с короля или дамы, имея пару (кроме самого первого хода сдачи)",
                "козырной до следующего марьяжа",
                "остаётся прикуп из 3 карт (вдвоём — по 10 карт и два прикупа по 2; вчетвером"
                " сдающий не играет, а пишет очки прикупа)",
                "Ставки кратны 5 и только растут",
                "спасовавший больше не торгуется",
                "каждый третий болт стоит 120",
                "Ровно 555 или −555 очков превращаются в 0",
                "При 880 и больше счёт останавливается на 880",
                "пока идёт такой заказ, остальным не пишутся ни очки, ни болты",
                "Неудача на бочке ничего не стоит, но после трёх сдач на бочке или когда на "
                "бочку попадает другой игрок, с неё слетают с −120",
                "округлённые до ближайшего кратного 5",
            ],
            ["пока кто-то не зайдёт", "шагом 5", "первый, набравший 1000"],
        ),
    ],
)
def test_thousand_rules(locale: str, said: list[str], not_said: list[str]) -> None:
    _says(_rules("thousand", locale), said, not_said)


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        (
            "en",
            "/leave — leave a game (in a group a bot takes your seat; in a private game "
            "against bots the game ends)",
        ),
        (
            "ru",
            "/leave — выйти из игры (в группе ваше место займёт бот; в личной игре против "
            "ботов игра закончится)",
        ),
    ],
)
def test_help_says_what_leave_does_in_a_group_and_in_a_private_game(locale: str, said: str) -> None:
    # in a private game the bots would play on alone, so the table closes instead
    assert said in " ".join(help_text(Translator(_I18N, locale)).split())


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_help_lists_every_command_of_the_menu_in_its_order(locale: str) -> None:
    tr = Translator(_I18N, locale)
    listed = re.findall(r"^/(\w+)", help_text(tr), flags=re.MULTILINE)
    for private in (True, False):
        assert listed == [command for command, _ in command_menu(tr, private=private)]


def test_every_command_the_menu_offers_is_handled() -> None:
    handled = set()
    for router in routers():
        for handler in router.message.handlers:
            for flt in handler.filters or ():
                if isinstance(flt.callback, Command):
                    handled |= {c for c in flt.callback.commands if isinstance(c, str)}
    menu = {command for command, _ in command_menu(Translator(_I18N, "en"), private=True)}
    assert menu <= handled


@pytest.mark.parametrize(
    ("games", "payload"),
    [(["deberts"], "rules_deberts"), (["thousand"], "rules_thousand"), (GAMES, "rules")],
)
def test_the_rules_button_of_a_group_asks_for_the_games_it_shows(
    games: list[str], payload: str
) -> None:
    keyboard = rules_keyboard(games, "TablesBot", Translator(_I18N, "en"))
    (link,) = (b for row in keyboard.rows for b in row)
    assert isinstance(link, Link)
    assert link.url == f"https://t.me/TablesBot?start={payload}"
    assert rules_asked(payload) == games
