"""Ratings (as openskill says, with the farming rule), statistics and the score picture."""

from __future__ import annotations

import io
import random
import struct

from openskill.models import PlackettLuce

from bot.engine.deberts import Deberts
from bot.engine.thousand import ThousandGame
from bot.history import chart, ratings, stats
from bot.history.ratings import INITIAL, Entrant, Rating


def person(key: str, rating: Rating = INITIAL) -> Entrant:
    return Entrant(key, rating)


def test_ratings_move_as_the_library_says() -> None:
    a, b, c = person("u1"), person("u2", Rating(30, 5)), person("u3", Rating(20, 7))
    got = ratings.rate([a, b, c], [2, 1, 3])
    model = PlackettLuce()
    want = model.rate(
        [[model.rating(mu=25, sigma=25 / 3)], [model.rating(30, 5)], [model.rating(20, 7)]],
        ranks=[2, 1, 3],
    )
    assert [(r.mu, r.sigma) for r in got] == [(t[0].mu, t[0].sigma) for t in want]
    assert got[1].mu > 30 and got[2].mu < 20


def test_bots_are_fixed_references() -> None:
    hard = Entrant.of_bot("hard")
    after = ratings.rate([person("u1"), hard], [1, 2])
    assert after[1] == ratings.BOT_RATINGS["hard"]
    # beating the hard bot is worth more than beating the easy one
    easy = ratings.rate([person("u1"), Entrant.of_bot("easy")], [1, 2])
    assert after[0].mu > easy[0].mu > INITIAL.mu


def test_places_winner_first_ties_shared_forfeits_last() -> None:
    assert ratings.places([120, 530, 300], winner=1) == [3, 1, 2]
    assert ratings.places([510, 510, 10], winner=1) == [2, 1, 3]
    assert ratings.places([300, 300, 600], winner=2) == [2, 2, 1]
    # the seat a bot finished for its absent player is last, even with the best total
    assert ratings.places([700, 530, 300], winner=0, forfeited=[0]) == [3, 1, 2]


def _farm(opponent: Entrant, games: int, gap: float) -> tuple[Rating, int]:
    """A person beating ``opponent`` ``games`` times, ``gap`` seconds apart, rated only
    when :func:`ratings.counts` says so."""
    me = INITIAL
    earlier: list[tuple[float, str]] = []
    rated = 0
    for i in range(games):
        now = 1000.0 + i * gap
        entrants = [person("u1", me), opponent]
        if ratings.counts(entrants, 0, now, earlier):
            me = ratings.rate(entrants, [1, 2])[0]
            earlier.append((now, ratings.line_up(entrants, 0)))
            rated += 1
    return me, rated


def test_farming_the_same_account_stops_counting() -> None:
    twin = person("u2")
    me, rated = _farm(twin, 50, gap=60)
    assert rated == ratings.SAME_LINE_UP_LIMIT
    three, _ = _farm(twin, ratings.SAME_LINE_UP_LIMIT, gap=60)
    assert me == three
    # a week later the same pair counts again, as new games
    _, spread = _farm(twin, 10, gap=ratings.SAME_LINE_UP_WINDOW / 2)
    assert spread > ratings.SAME_LINE_UP_LIMIT


def test_beating_the_random_player_never_counts() -> None:
    me, rated = _farm(Entrant.of_bot("random"), 30, gap=3600 * 24 * 8)
    assert rated == 0 and me == INITIAL
    # a person among the opponents makes it a real game
    entrants = [person("u1"), person("u2"), Entrant.of_bot("random")]
    assert ratings.counts(entrants, 0, 0.0, [])
    assert not ratings.counts(entrants, 2, 0.0, [])


def played_out(game: Deberts | ThousandGame, seed: int, cap: int = 4000) -> None:
    rng = random.Random(seed)
    while (seat := game.current_seat()) is not None and cap:
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        cap -= 1


def test_stats_add_up_the_scoresheet() -> None:
    game = Deberts.new(3, seed=3)
    played_out(game, 3)
    assert game.is_over
    sheet = game.scoresheet()
    counters = [stats.seat_counters(sheet, s) for s in range(3)]
    assert sum(c["wins"] for c in counters) == 1
    assert counters[sheet.winner or 0]["wins"] == 1
    assert [c["points"] for c in counters] == list(sheet.totals)
    played = sum(1 for r in sheet.rows if "bidder" in r.notes)
    assert all(c["deals"] == played for c in counters)
    assert sum(c["made"] + c["failed"] for c in counters) == played
    assert sum(c["baits"] + c["hangings"] for c in counters) == sum(c["failed"] for c in counters)


def test_thousand_stats_count_bolts() -> None:
    game = ThousandGame.new(3, seed=1)
    played_out(game, 1, cap=600)
    sheet = game.scoresheet()
    counters = [stats.seat_counters(sheet, s) for s in range(3)]
    bolts = [sum(r.notes["bolts"][s] for r in sheet.rows if "bolts" in r.notes) for s in range(3)]
    assert [c["bolts"] for c in counters] == bolts
    assert sum(bolts) > 0


def _png_size(data: bytes) -> tuple[int, int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height, _depth, colour = struct.unpack(">IIBB", data[16:26])
    return width, height, colour


def test_the_score_picture_is_a_phone_sized_png() -> None:
    png = chart.score_chart(
        ["Ann", "Ben", "Бот"],
        [[10, 50, 20], [100, 60, -20], [520, 260, 190]],
        target=501,
        title="Деберц",
        deal_label="Раздача",
    )
    width, height, colour = _png_size(png)
    assert (width, height) == (chart.WIDTH, chart.HEIGHT)
    assert colour in (2, 6)  # RGB or RGBA
    assert 10_000 < len(png) < 300_000
    # opaque everywhere, so it reads the same in a light and a dark chat
    from matplotlib import image

    pixels = image.imread(io.BytesIO(png), format="png")
    if pixels.shape[2] == 4:
        assert pixels[:, :, 3].min() == 1.0


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def test_the_picture_text_has_contrast() -> None:
    light, dark = _luminance(chart.TEXT), _luminance(chart.BACKGROUND)
    assert (light + 0.05) / (dark + 0.05) >= 7  # WCAG AAA for text
