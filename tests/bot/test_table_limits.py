"""The table and hand messages fit in one Telegram message with the longest names."""

from __future__ import annotations

import random
import re
from html import unescape

import pytest

from bot.engine import new_game
from bot.engine.base import Game
from bot.engine.thousand import ThousandConventions, from_hands
from bot.i18n import Translator, make_i18n
from bot.render.table import hand_text, table_text

TELEGRAM_LIMIT = 4096

# Telegram names are up to 64 + 1 + 64 characters; "&" and "<" grow when escaped,
# wherever a shortened name is cut.
NAMES = [
    ("Ал&<ексан" * 8)[:64] + " " + ("Константинопольская" * 4)[:64],
    ("Bartholomew-" * 6)[:64] + " " + ("&lt;" * 16),
    ("Kristina " * 8)[:64] + " " + ("Wolfeschlegelsteinhausen" * 3)[:64],
]
assert all(len(name) == 129 for name in NAMES)

# The longest auction the rules allow: seat 0 holds the four aces and the spades
# marriage, seat 1 the other three marriages, so both may bid up to 360 (ace marriage on).
THREE_HANDS = [
    ["AS", "AC", "AD", "AH", "KS", "QS", "9S"],
    ["KH", "QH", "KD", "QD", "KC", "QC", "9H"],
    ["TS", "TC", "TD", "TH", "JS", "JC", "JD"],
]
THREE_TALON = [["JH", "9C", "9D"]]
TWO_HANDS = [
    ["AS", "AC", "AD", "AH", "KS", "QS", "9S", "TS", "JS", "9C"],
    ["KH", "QH", "KD", "QD", "KC", "QC", "9H", "TH", "JH", "9D"],
]
TWO_TALONS = [["TC", "JC"], ["TD", "JD"]]


def _visible(html: str) -> str:
    """What Telegram counts: the text once the HTML markup is parsed."""
    return unescape(re.sub(r"<[^>]+>", "", html))


_I18N = make_i18n("en")
TRANSLATORS = [Translator(_I18N, "en"), Translator(_I18N, "ru")]


def _check(game: Game, names: list[str]) -> None:
    for tr in TRANSLATORS:
        texts = [table_text(game.view(None, brief=True), names, tr)]
        texts += [hand_text(game.view(seat), names, tr) for seat in range(game.seats)]
        for text in texts:
            # a name cut short keeps its escapes whole, or Telegram refuses the markup
            assert not re.search(r"&(?!(amp|lt|gt|quot|#x27);)", text)
            assert len(_visible(text)) <= TELEGRAM_LIMIT, text


def _pick(legal: list[str], rng: random.Random) -> str:
    """The longest auction (lowest bid) and the highest contract; anything else at random."""
    bids = [a for a in legal if a.startswith("b")]
    if bids:
        return min(bids, key=lambda a: int(a[1:]))
    contracts = [a for a in legal if a.startswith("k")]
    if contracts:
        return max(contracts, key=lambda a: int(a[1:]))
    return rng.choice(legal)


def _play_deal(game: Game, names: list[str], seed: int) -> int:
    """Plays ``game`` to the end of its deal, checking every step; the most calls bid."""
    rng = random.Random(seed)
    scored = game.rows_scored
    calls = 0
    while game.rows_scored == scored and not game.is_over:
        _check(game, names)
        calls = max(calls, len(game.view(None, brief=True)["auction"]))
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, _pick(game.legal_actions(seat), rng))
    _check(game, names)
    return calls


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("barrel", [False, True])
def test_the_longest_thousand_auction_fits_with_three_long_names(seed: int, barrel: bool) -> None:
    game = from_hands(
        THREE_HANDS,
        THREE_TALON,
        dealer=2,
        conventions=ThousandConventions(ace_marriage=True, barrel_trading=True),
        totals=[-295, -290, 880 if barrel else 875],
        bolts=[2, 2, 2],
        barrel=(2, 2) if barrel else None,
        seed=seed,
    )
    # 100 to 360 by fives, the third seat's calls and the passes (from 121 on the barrel)
    assert _play_deal(game, NAMES, seed) == (51 if barrel else 55)


@pytest.mark.parametrize("seed", range(3))
def test_the_longest_two_player_thousand_auction_fits(seed: int) -> None:
    game = from_hands(
        TWO_HANDS,
        TWO_TALONS,
        dealer=1,
        conventions=ThousandConventions(ace_marriage=True),
        totals=[-295, 875],
        bolts=[2, 2],
        seed=seed,
    )
    assert _play_deal(game, NAMES[:2], seed) == 54


@pytest.mark.parametrize(("name", "seats"), [("deberts", 3), ("deberts", 2), ("thousand", 3)])
def test_random_games_fit_with_long_names(name: str, seats: int) -> None:
    for seed in range(4):
        game = new_game(name, seats, seed=seed)
        for _ in range(3):
            if game.is_over:
                break
            _play_deal(game, NAMES[:seats], seed)


def test_a_long_auction_shows_its_latest_calls_with_names_cut() -> None:
    game = from_hands(
        THREE_HANDS, THREE_TALON, dealer=2, conventions=ThousandConventions(ace_marriage=True)
    )
    rng = random.Random(0)
    while game.phase == "auction":
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, _pick(game.legal_actions(seat), rng))
    tr = TRANSLATORS[0]
    line = next(
        line
        for line in table_text(game.view(None, brief=True), NAMES, tr).splitlines()
        if line.startswith("Auction: ")
    )
    # seat 0 bids 125, 135... and seat 1 130, 140... once seat 2 passes at 125
    aces, kings = (unescape(name[:23]) + "…" for name in NAMES[:2])
    assert unescape(line) == (
        f"Auction: …, {kings}: 340, {aces}: 345, {kings}: 350, {aces}: 355, "
        f"{kings}: 360, {aces}: Pass"
    )
