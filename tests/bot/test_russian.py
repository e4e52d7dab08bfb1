"""The Russian texts read right with any player's name, and use one term for one thing."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from bot.engine.base import ScoreRow, Scoresheet
from bot.i18n import LOCALES_DIR, Translator, make_i18n
from bot.render.common import option_label
from bot.render.scores import deal_result_text, final_text, scoresheet_text
from bot.render.table import last_trick_text

RU = Translator(make_i18n("ru"), "ru")
NAMES = ["Аня", "Борис", "Cid_42"]


def _catalog() -> dict[str, str]:
    po_path = LOCALES_DIR / "ru" / "LC_MESSAGES" / "messages.po"
    with po_path.open("rb") as po_file:
        return {
            m.id: m.string
            for m in read_po(po_file)
            if m.id and isinstance(m.id, str) and isinstance(m.string, str)
        }


def test_no_translation_guesses_the_players_gender() -> None:
    # "вышел(а)", "Победил(а)": a name is not declined and its gender is unknown
    guessed = [
        text
        for text in _catalog().values()
        if any(mark in text for mark in ("(а)", "(ась)", "(неё)", "(она)", "он(а)"))
    ]
    assert guessed == []


@pytest.mark.parametrize("name", NAMES)
def test_notices_about_a_player_keep_the_name_in_the_nominative(name: str) -> None:
    assert (
        RU("⏰ Time is up for {name}: a bot made the move for them.", name=name)
        == f"⏰ {name}: время на ход вышло, ход сделал бот."
    )
    missed = RU(
        "⏰ {name} missed {n} turns in a row: a bot plays for them until they press"
        " any button of this table.",
        name=name,
        n=3,
    )
    assert missed.startswith(f"⏰ {name}: пропущено ходов подряд — 3. ")
    assert (
        RU("{name} left the table; a bot plays for them now.", name=name)
        == f"{name} выходит из-за стола; дальше вместо этого игрока играет бот."
    )
    assert RU("{name} is back and plays again.", name=name) == f"{name} снова в игре."


@pytest.mark.parametrize("winner", [0, 1])
def test_the_winner_and_a_trick_taker_are_named_without_a_verb_of_one_gender(
    winner: int,
) -> None:
    sheet = Scoresheet("deberts", 2, (), (510, 120), winner=winner)
    first = final_text(sheet, NAMES[:2], RU).splitlines()[0]
    assert first == f"<b>Игра окончена.</b> 🏆 Победитель — {NAMES[winner]}!"
    view = {"last_trick": {"cards": [{"seat": 0, "card": "7S"}], "winner": winner}}
    assert last_trick_text(view, NAMES, RU).endswith(f"Взятку забирает {NAMES[winner]}.")


@pytest.mark.parametrize(
    ("outcome", "said"),
    [
        ("made", "Итог: заказ сыгран"),
        ("failed", "Итог: заказ не сыгран"),
        ("conceded", "Итог: роспись"),
        ("hanging", "Итог: очки висят"),
    ],
)
def test_a_deal_result_names_the_bidder_and_the_outcome_without_a_gender(
    outcome: str, said: str
) -> None:
    row = ScoreRow(1, ("120", "0"), (120, 0), (120, 0), {"bidder": 0, "outcome": outcome})
    sheet = Scoresheet("thousand", 2, (row,), (120, 0))
    lines = deal_result_text(row, sheet, NAMES[:2], RU).splitlines()
    assert "Играет: Аня" in lines
    assert said in lines


def test_the_golden_round_has_the_name_its_setting_has() -> None:
    row = ScoreRow(1, ("240", "0"), (240, 0), (240, 0), {"golden": True})
    sheet = Scoresheet("thousand", 2, (row,), (240, 0))
    lines = deal_result_text(row, sheet, NAMES[:2], RU).splitlines()
    assert option_label("golden_round", RU) == "Золотой кон"
    assert "Золотой кон: очки сдачи удваиваются." in lines


def test_a_trickless_deal_is_a_bolt_everywhere() -> None:
    # the Thousand seed says both «болт» and «палка»; the bot says «болт» throughout
    texts = _catalog().values()
    assert [text for text in texts if "палк" in text.lower()] == []
    conceded = RU("Conceded: the others get half the contract each, the bidder a bolt.")
    assert conceded.endswith("заказавшему — болт.")


def test_bella_is_spelt_bela() -> None:
    assert RU("bella") == "бела"
    assert RU("Bella: {line}", line="Аня 20") == "Бела: Аня 20"
    assert not [text for text in _catalog().values() if "бэл" in text.lower()]


def test_a_thousand_result_names_who_the_dump_truck_took_and_not_who_it_did_not() -> None:
    """Not "Самосвал (555 → 0): Аня нет, Борис да"; the barrel said once, not per seat."""
    notes = {
        "bidder": 1,
        "contract": 120,
        "outcome": "made",
        "dump_truck": [False, True],
        "on_barrel": [False, True],
        "barrel_events": [{"seat": 1, "event": "climbed"}],
    }
    row = ScoreRow(4, ("555", "880"), (0, 880), (0, 120), notes)
    sheet = Scoresheet("thousand", 2, (row,), (0, 880), notes={"barrel": {"seat": 1}})
    lines = deal_result_text(row, sheet, NAMES[:2], RU).splitlines()
    assert "Самосвал (555 → 0): Борис" in lines
    assert "На бочку, 880: Борис" in lines
    # who sits on the barrel: once, under the scoresheet, with the attempt
    assert [line for line in lines if line.startswith("На бочке")] == [
        "На бочке: Борис (попытка 1)"
    ]
    assert not any(" да" in line or " нет" in line for line in lines)


def test_the_scoresheet_of_a_game_won_on_the_barrel_has_nobody_on_it() -> None:
    row = ScoreRow(9, ("700", "1001"), (700, 1001), (0, 121), {})
    barrel = {"barrel": {"seat": 1, "attempts": 1}}
    won = Scoresheet("thousand", 2, (row,), (700, 1001), winner=1, notes=barrel)
    text = scoresheet_text(won, NAMES[:2], RU)
    assert "На бочке" not in text
    playing = Scoresheet("thousand", 2, (row,), (700, 880), notes=barrel)
    assert "На бочке: Борис (попытка 2)" in scoresheet_text(playing, NAMES[:2], RU)


def test_a_conceded_deal_says_so_once() -> None:
    notes = {"bidder": 0, "contract": 120, "outcome": "conceded", "conceded": True}
    row = ScoreRow(1, ("0", "60"), (0, 60), (0, 60), notes)
    lines = deal_result_text(row, Scoresheet("thousand", 2, (row,), (0, 60)), NAMES[:2], RU)
    assert "Итог: роспись" in lines.splitlines()
    assert "Заказавший расписал." not in lines


def test_deberts_marks_keep_the_russian_bait_and_lose_the_nested_brackets() -> None:
    bait = ScoreRow(1, ("БТ", "96"), (0, 96), (0, 96), {"bidder": 0, "outcome": "bait"})
    hanging = ScoreRow(2, ("40", "vs(83)"), (40, 96), (40, 0), {"bidder": 1})
    sheet = Scoresheet("deberts", 2, (bait, hanging), (40, 96))
    assert "Аня 0 (БТ) · Борис +96" in deal_result_text(bait, sheet, NAMES[:2], RU).splitlines()
    assert "Аня +40 · Борис 0 (vs 83)" in deal_result_text(hanging, sheet, NAMES[:2], RU)
    table = scoresheet_text(sheet, NAMES[:2], RU)
    assert "      БТ" in table and "   vs 83" in table and "vs(" not in table


def test_a_dump_truck_says_which_of_555_and_minus_555_it_took_back_to_zero() -> None:
    notes = {"bidder": 0, "contract": 200, "outcome": "failed", "dump_truck": [-555, 555]}
    row = ScoreRow(3, ("-200", "45"), (0, 0), (-200, 45), notes)
    sheet = Scoresheet("thousand", 2, (row,), (0, 0), notes={})
    lines = deal_result_text(row, sheet, NAMES[:2], RU).splitlines()
    assert "Самосвал (−555 → 0): Аня" in lines
    assert "Самосвал (555 → 0): Борис" in lines


def test_a_received_card_names_its_giver_without_declining_the_name() -> None:
    """Not "от Света": names stay as written, so the giver is the sentence's subject."""
    said = RU("You got {card} from {name}.", card="Д♠", name="Света")
    assert said == "Света отдаёт вам Д♠."
