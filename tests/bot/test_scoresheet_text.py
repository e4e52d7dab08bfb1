"""A long game's deal results and scoresheet still fit in one Telegram message."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable, Iterator

import pytest

from bot.engine import new_game
from bot.engine.base import Conventions, Game, ScoreRow, Scoresheet
from bot.engine.deberts import DebertsConventions
from bot.engine.thousand.rules import ThousandConventions
from bot.i18n import Translator, make_i18n
from bot.render.common import LISTED_NAME, cut
from bot.render.scores import RESULT_ROWS, SHEET_ROWS, deal_result_text, final_text, scoresheet_text
from tests.bot.test_table_limits import NAMES as LONG_NAMES
from tests.engine.test_thousand_properties import random_start

TELEGRAM_LIMIT = 4096
NAMES = ["Ann", "Ben", "Cid"]


def _visible(html: str) -> str:
    """What Telegram counts: the text once the HTML markup is parsed."""
    text = re.sub(r"<[^>]+>", "", html)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def play_at_random(game: Game, seed: int, until: Callable[[Game], bool]) -> Game:
    """``game`` played on with random legal moves until ``until`` holds or it is over."""
    rng = random.Random(seed)
    while not until(game) and not game.is_over:
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def _first_deals(name: str, seats: int, deals: int) -> Scoresheet:
    game = new_game(name, seats, seed=7)
    rng = random.Random(7)
    while len(game.scoresheet().rows) < deals and not game.is_over:
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game.scoresheet()


@pytest.mark.parametrize(("name", "seats"), [("thousand", 3), ("deberts", 3), ("thousand", 2)])
@pytest.mark.parametrize("locale", ["en", "ru"])
def test_a_two_hundred_deal_game_fits_in_a_message(name: str, seats: int, locale: str) -> None:
    real = _first_deals(name, seats, 3)
    # the real rows over and over: a game far longer than any played
    rows = tuple(
        dataclasses.replace(real.rows[n % len(real.rows)], deal_no=n + 1) for n in range(200)
    )
    sheet = dataclasses.replace(real, rows=rows)
    names = ["Алексан" * 9, "Bartholomew-" * 5, "Kristina " * 7][:seats]
    tr = Translator(make_i18n("en"), locale)

    text = deal_result_text(rows[-1], sheet, names, tr)
    whole = scoresheet_text(sheet, names, tr)
    assert len(_visible(text)) <= TELEGRAM_LIMIT
    assert len(_visible(whole)) <= TELEGRAM_LIMIT
    # the latest deals are listed, the earliest left to the totals; a deal's result,
    # posted every deal, lists the last few, /score more
    for shown, rows_listed in ((whole, SHEET_ROWS), (text, RESULT_ROWS)):
        listed = {int(n) for n in re.findall(r"^ *(\d+) ", shown, re.M)}
        assert listed == set(range(200 - rows_listed + 1, 201))
        assert "…" in shown


def test_a_short_game_lists_every_deal() -> None:
    sheet = _first_deals("thousand", 3, 3)
    text = scoresheet_text(sheet, ["A", "B", "C"], Translator(make_i18n("en"), "en"))
    assert all(re.search(rf"^{row.deal_no:>3} ", text, re.M) for row in sheet.rows)
    assert "…" not in text


def test_long_names_keep_the_columns_apart() -> None:
    sheet = _first_deals("thousand", 3, 2)
    names = ["Bartholomew", "Kristina Ivanova", "Al"]
    text = _visible(scoresheet_text(sheet, names, Translator(make_i18n("en"), "en")))
    header = text.splitlines()[1]
    # each name, cut to fit, stands apart from its neighbours and over its own column
    assert header.split() == ["Barthol…", "Kristin…", "Al"]
    for row in text.splitlines()[2:]:
        assert len(row) == len(header)


def test_the_final_result_names_the_players_marsed() -> None:
    """Mars is a list of seats: seat 0 marsed, or a later seat, is named as such."""
    names = ["Ann", "Ben", "Cid"]
    tr = Translator(make_i18n("en"), "en")
    seen: set[tuple[int, ...]] = set()
    for seed in range(40):
        game = new_game("deberts", 3, DebertsConventions(target=301), seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.current_seat()
            assert seat is not None
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        sheet = game.scoresheet()
        marsed = tuple(sheet.notes["mars"])
        seen.add(marsed)
        line = [x for x in final_text(sheet, names, tr).split("\n") if x.startswith("Mars:")]
        assert line == ([f"Mars: {', '.join(names[s] for s in marsed)}"] if marsed else [])
    assert (0,) in seen and any(marsed and 0 not in marsed for marsed in seen)


def test_separate_hanging_amounts_are_a_queue_not_a_score_per_player() -> None:
    conventions = DebertsConventions(hanging_separately=True)
    for seed in range(2000):
        game = new_game("deberts", 2, conventions, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and len(game.scoresheet().notes["hanging"]) < 2:
            seat = game.current_seat()
            assert seat is not None
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        if not game.is_over:
            break
    sheet = game.scoresheet()
    queue = sheet.notes["hanging"]
    assert len(queue) == 2  # as many amounts as players: what used to pass for one each
    names = ["Ann", "Ben"]
    tr = Translator(make_i18n("en"), "en")
    latest = _visible(deal_result_text(sheet.rows[-1], sheet, names, tr)).splitlines()
    hanging = [line for line in latest if line.startswith("Hanging")]
    # said once: the scoresheet under the deal's result lists the same queue
    assert hanging == [f"Hanging: {queue[0]}, {queue[1]}"]
    earlier = next(row for row in sheet.rows if row.notes["hanging_left"] == queue[:1])
    lines = _visible(deal_result_text(earlier, sheet, names, tr)).splitlines()
    assert f"Hanging: {queue[0]}" in lines
    assert not any(line.startswith(("Hanging: Ann", "Висят: Ann")) for line in lines)


def _played(
    name: str, seats: int, conventions: Conventions | None = None, seeds: int = 30
) -> Iterator[tuple[Game, bool]]:
    """Whole games played at random: the game after each action, and whether it ended a deal."""
    for seed in range(seeds):
        game = new_game(name, seats, conventions, seed=seed)
        rng = random.Random(seed)
        rows = 0
        while not game.is_over and game.deal_no < 60:
            seat = game.current_seat()
            assert seat is not None
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            ended = game.rows_scored > rows
            rows = game.rows_scored
            yield game, ended


def _latest_result(game: Game) -> tuple[ScoreRow, list[str]]:
    """The game's latest deal result, as its visible lines."""
    sheet = game.scoresheet()
    tr = Translator(make_i18n("en"), "en")
    text = deal_result_text(sheet.rows[-1], sheet, NAMES[: game.seats], tr)
    return sheet.rows[-1], _visible(text).splitlines()


def _results(
    name: str, seats: int, conventions: Conventions | None = None, seeds: int = 30
) -> Iterator[tuple[ScoreRow, list[str]]]:
    """Every deal result of whole games played at random, as its visible lines."""
    for game, ended in _played(name, seats, conventions, seeds):
        if ended:
            yield _latest_result(game)


def test_a_thousand_result_tells_of_bolts_only_in_a_deal_with_one() -> None:
    penalties = quiet = 0
    for row, lines in _results("thousand", 3):
        bolted = [NAMES[s] for s, b in enumerate(row.notes["bolts"]) if b]
        # a fine with the minus sign the texts use, not a hyphen
        fined = [f"{NAMES[s]} −{-p}" for s, p in enumerate(row.notes["bolt_penalties"]) if p]
        if bolted:
            assert f"Bolt this deal: {', '.join(bolted)}" in lines
        else:
            assert not any(line.startswith("Bolt this deal") for line in lines)
            # the scoresheet's running counts, and nothing more
            assert sum(line.startswith("Bolts:") for line in lines) <= 1
            quiet += any(row.notes["bolt_counts"])
        if fined:
            assert f"Third bolt: {', '.join(fined)}" in lines
            penalties += 1
        else:
            assert not any(line.startswith("Third bolt") for line in lines)
    assert penalties and quiet  # both cases came up


def test_a_thousand_result_says_when_the_golden_round_doubled_it() -> None:
    golden = plain = 0
    for row, lines in _results("thousand", 3, ThousandConventions(golden_round=True), seeds=5):
        said = "Golden round: the deal's points count double." in lines
        assert said == row.notes["golden"]
        golden += said
        plain += not said
    assert golden and plain


BARREL_LINES = {
    "climbed": "Onto the barrel at 880: {names}",
    "fell_off": "Below 880, off the barrel: {names}",
    "attempts_used": "Three attempts on the barrel used up, −120: {names}",
    "knocked_off": "Knocked off the barrel, −120: {names}",
    "rolled_off_together": "Reached the barrel together, all drop to 760: {names}",
    "raised_failed": "Raised above 121 on the barrel and failed, off the barrel: {names}",
}


def test_a_thousand_result_says_what_the_barrel_did_and_who_stood_still() -> None:
    """Totals that jump to 880, lose 120 or stay put for the barrel are explained."""
    tr = Translator(make_i18n("en"), "en")
    seen: set[str] = set()
    busiest: tuple[Scoresheet | None, list[str]] = (None, [])
    for seed in range(2000):
        rng = random.Random(seed)
        # mostly someone on the barrel; now and then two near it, so both reach it at once
        game = random_start(rng, rng.choice((2, 3, 4)), on_barrel=0.9 if seed % 3 else 0.3)
        rows = len(game.scoresheet().rows)
        while not game.is_over and len(game.scoresheet().rows) == rows:
            seat = game.current_seat()
            assert seat is not None
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        sheet = game.scoresheet()
        if len(sheet.rows) == rows:
            continue
        row = sheet.rows[-1]
        names = [*NAMES, "Dee"][: game.seats]
        lines = _visible(deal_result_text(row, sheet, names, tr)).splitlines()
        expected = []
        still = [names[s] for s, v in enumerate(row.notes["stood_still"]) if v]
        if still:
            expected.append(f"No points this deal, for the barrel: {', '.join(still)}")
            seen.add("stood_still")
        for kind, text in BARREL_LINES.items():
            who = [names[e["seat"]] for e in row.notes["barrel_events"] if e["event"] == kind]
            if who:
                expected.append(text.format(names=", ".join(who)))
                seen.add(kind)
        for event in row.notes["barrel_events"]:
            # the lines' figures are what the totals show
            total = row.totals[event["seat"]]
            assert event["event"] != "climbed" or total == 880
            assert event["event"] != "rolled_off_together" or total == 760
        told = [
            line
            for line in lines
            if line.startswith(
                ("No points this", *(t.split(":")[0] for t in BARREL_LINES.values()))
            )
        ]
        assert told == expected, (seed, row.notes["barrel_events"])
        if len(expected) >= len(busiest[1]) and game.seats == 3:
            busiest = (sheet, expected)
    # no bolt takes a player on the barrel below 880 any more: "fell_off" is only in
    # rows saved before, which still read as they did
    assert seen == {"stood_still", *BARREL_LINES} - {"fell_off"}

    # the busiest of them, with the longest names below a 200-deal scoresheet
    sheet = busiest[0]
    assert sheet is not None
    rows = tuple(dataclasses.replace(sheet.rows[-1], deal_no=n + 1) for n in range(200))
    sheet = dataclasses.replace(sheet, rows=rows)
    for locale in ("en", "ru"):
        text = deal_result_text(rows[-1], sheet, LONG_NAMES, Translator(make_i18n("en"), locale))
        assert len(_visible(text)) <= TELEGRAM_LIMIT


def test_a_thousand_result_of_four_says_the_dealer_sat_out_and_wrote_the_talon() -> None:
    tr = Translator(make_i18n("en"), "en")
    names = [*NAMES, "Dee"]
    game = play_at_random(new_game("thousand", 4, seed=5), 5, lambda g: g.rows_scored >= 4)
    sheet = game.scoresheet()
    told = 0
    for row in sheet.rows:
        out = row.notes["sitting_out"]
        lines = _visible(deal_result_text(row, sheet, names, tr)).splitlines()
        talon = row.notes["talon_points"]
        said = f"{names[out]} dealt and sat out: the talon's {talon} write {row.deltas[out]}"
        assert said in lines
        # the dealer played no card: their 0 is not among the deal points
        points = next(line for line in lines if line.startswith("Deal points"))
        assert names[out] not in points
        told += 1
    assert told == 4


@pytest.mark.parametrize("seats", [2, 3])
def test_a_deberts_bait_says_the_bidders_points_go_to_the_others(seats: int) -> None:
    baits = 0
    for row, lines in _results("deberts", seats, seeds=10):
        bidder = row.notes["bidder"]
        b = row.notes["points"][bidder]
        others = [s for s in range(seats) if s != bidder]
        if seats == 2:
            said = f"The bidder's {b} go to {NAMES[others[0]]}."
        else:
            # halves, the odd point to the whistler first from the dealer's left
            dealer = row.notes["dealer"]
            first = min(others, key=lambda s: (s - dealer - 1) % seats)
            share = {s: (b + 1) // 2 if s == first else b // 2 for s in others}
            split = ", ".join(f"{NAMES[s]} {share[s]}" for s in others)
            said = f"The bidder's {b} are split: {split}."
        if row.notes["bait"] and b:
            assert said in lines
            baits += 1
        else:
            assert not any(line.startswith("The bidder's") for line in lines)
    assert baits


@pytest.mark.parametrize("takes_all", [False, True])
def test_a_deberts_result_says_when_the_winner_took_all(takes_all: bool) -> None:
    said = "Winner takes all: the bidder writes the whole deal."
    made = 0
    conventions = DebertsConventions(winner_takes_all=takes_all)
    for row, lines in _results("deberts", 3, conventions, seeds=5):
        assert (said in lines) == (takes_all and row.notes["outcome"] == "made")
        made += row.notes["outcome"] == "made"
    assert made


def test_a_deberts_result_names_the_combinations_and_bella_its_points_hold() -> None:
    combos = bellas = 0
    for seats in (2, 3):
        for game, ended in _played("deberts", seats, seeds=6):
            if not ended:
                continue
            _, lines = _latest_result(game)
            # the deal's summary, as the table's "last deal" has it; its deal points
            # are the cards taken, the last trick and what the lines name
            last = game.view(None)["last_deal"]
            for s, points in enumerate(last["points"]):
                last_trick = last["last_trick_points"] * (s == last["last_trick"]["winner"])
                held = last["combination_points"][s] + last["bella_points"][s]
                assert points == last["card_points"][s] + last_trick + held
            for key, label in (
                ("combination_points", "Combinations counted"),
                ("bella_points", "Bella"),
            ):
                said = [f"{NAMES[s]} {p}" for s, p in enumerate(last[key]) if p]
                if said:
                    assert f"{label}: {', '.join(said)}" in lines
                else:
                    assert not any(line.startswith(label + ":") for line in lines)
            combos += any(last["combination_points"])
            bellas += any(last["bella_points"])
    assert combos and bellas


def test_a_thousand_result_names_the_marriages_declared() -> None:
    declared = 0
    announced = [0, 0, 0]
    for game, ended in _played("thousand", 3, ThousandConventions(ace_marriage=True), seeds=8):
        if not ended:
            # the marriages the table has shown so far this deal
            announced = [0, 0, 0]
            for item in game.view(None)["announcements"]:
                announced[item["seat"]] += item["points"]
            continue
        _, lines = _latest_result(game)
        said = [f"{NAMES[s]} {p}" for s, p in enumerate(announced) if p]
        if said:
            assert f"Marriages declared: {', '.join(said)}" in lines
            declared += 1
        else:
            assert not any(line.startswith("Marriages declared") for line in lines)
        announced = [0, 0, 0]
    assert declared


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_a_result_with_every_fact_for_every_seat_fits_with_the_longest_names(locale: str) -> None:
    """More than any deal can hold: each per-seat fact and barrel event for all three."""
    real = _first_deals("thousand", 3, 3)
    everyone = [True] * 3
    events = ["climbed", "fell_off", "attempts_used", "knocked_off", "rolled_off_together"]
    notes = dict(
        real.rows[-1].notes,
        points=[120, 250, 130],
        marriages=[100, 200, 80],
        combination_points=[50, 50, 50],
        bella_points=[20, 20, 20],
        stood_still=everyone,
        bolts=everyone,
        bolt_penalties=[-120] * 3,
        dump_truck=everyone,
        on_barrel=everyone,
        hanging_paid=[40, 40, 40],
        barrel_events=[{"seat": s, "event": e} for e in events for s in range(3)],
        bait=True,
        takes_all=True,
        golden=True,
        conceded=True,
    )
    rows = tuple(
        dataclasses.replace(real.rows[n % len(real.rows)], deal_no=n + 1, notes=notes)
        for n in range(200)
    )
    sheet = dataclasses.replace(real, rows=rows, notes={"bolts": [2, 2, 2], "hanging": [40, 45]})
    tr = Translator(make_i18n("en"), locale)
    text = deal_result_text(rows[-1], sheet, LONG_NAMES, tr)
    assert len(_visible(text)) <= TELEGRAM_LIMIT
    # every line cuts a name the same
    assert LONG_NAMES[0] not in _visible(text)
    assert _visible(text).count(cut(LONG_NAMES[0], LISTED_NAME)) >= 2


def test_a_deberts_result_says_who_was_paid_the_hanging_points() -> None:
    paid_out = 0
    for row, lines in _results("deberts", 3):
        paid = [f"{NAMES[s]} {p}" for s, p in enumerate(row.notes["hanging_paid"]) if p]
        if paid:
            assert f"Hanging points paid: {', '.join(paid)}" in lines
            paid_out += 1
        else:
            assert not any(line.startswith("Hanging points paid") for line in lines)
    assert paid_out


def test_deberts_marks_read_in_english_and_keep_the_columns() -> None:
    """The engine's "БТ" and "vs(83)", kept in saved games, as an English player reads them."""
    tr = Translator(make_i18n("en"), "en")
    notes = {"bidder": 0, "outcome": "bait"}
    bait = ScoreRow(1, ("БТ", "96", "20"), (0, 96, 20), (0, 96, 20), notes)
    hanging = ScoreRow(2, ("40", "96", "vs(83)"), (40, 96, 20), (40, 0, 0), {"bidder": 2})
    sheet = Scoresheet("deberts", 3, (bait, hanging), (40, 96, 20))
    lines = _visible(deal_result_text(bait, sheet, NAMES, tr)).splitlines()
    assert "Ann 0 (bait) · Ben +96 · Cid +20" in lines
    assert "Outcome: bait" in lines  # the Russian "(БТ)" is for Russian players
    lines = _visible(deal_result_text(hanging, sheet, NAMES, tr)).splitlines()
    assert "Ann +40 · Ben 0 · Cid 0 (vs 83)" in lines
    table = _visible(scoresheet_text(sheet, NAMES, tr)).splitlines()[1:]
    assert table[1].split() == ["1", "bait", "96", "20"]
    assert table[2].split() == ["2", "40", "96", "vs", "83"]
    assert "БТ" not in "".join(table) and "vs(" not in "".join(table)
    assert len({len(row) for row in table}) == 1


def test_negative_scores_have_the_minus_sign_everywhere() -> None:
    """Not "-200" in one line and "−120" in the next."""
    tr = Translator(make_i18n("en"), "en")
    notes = {"bolt_penalties": [-120, 0, 0], "points": [0, 60, 60]}
    first = ScoreRow(1, ("-1000", "60", "60"), (-1000, 60, 60), (-1000, 60, 60), notes)
    sheet = Scoresheet("thousand", 3, (first,), (-1000, 60, 60), winner=1)
    lines = _visible(deal_result_text(first, sheet, NAMES, tr)).splitlines()
    assert "Ann −1000 · Ben +60 · Cid +60" in lines
    assert "Third bolt: Ann −120" in lines
    table = _visible(scoresheet_text(sheet, NAMES, tr)).splitlines()[1:]
    assert table[1] == "  1     −1000       60       60"
    assert table[2] == "Σ       −1000       60       60"
    assert "-" not in "".join(table)
    assert "Final scores: Ann −1000 · Ben 60 · Cid 60" in final_text(sheet, NAMES, tr)


def test_a_game_won_lists_no_points_as_still_hanging() -> None:
    """Deberts, seed 931: the last deal hangs and the game ends on it."""
    tr = Translator(make_i18n("en"), "en")
    game = new_game("deberts", 3, DebertsConventions(target=301), seed=931)
    sheet = play_at_random(game, 931, lambda g: False).scoresheet()
    assert sheet.winner is not None and any(sheet.notes["hanging"])
    for text in (
        deal_result_text(sheet.rows[-1], sheet, NAMES, tr),
        scoresheet_text(sheet, NAMES, tr),
    ):
        assert not any(line.startswith("Hanging:") for line in text.splitlines()), text
    # while the game goes on, they are listed
    running = dataclasses.replace(sheet, winner=None)
    assert "Hanging: " in scoresheet_text(running, NAMES, tr)


def test_a_bait_that_also_pays_out_hanging_points_splits_each_apart() -> None:
    """Deberts, 3 players, seed 23, deal 4: Cid bids, takes 17 and is baited; Ben deals,
    so Ann, first from his left, gets the odd point of both the 17 and the hanging 83."""
    game = new_game("deberts", 3, DebertsConventions(), seed=23)
    sheet = play_at_random(game, 23, lambda g: g.rows_scored >= 4).scoresheet()
    row = sheet.rows[3]
    assert row.notes["bait"] and row.notes["points"] == [112, 17, 17]
    assert row.notes["hanging_paid"] == [42, 41, 0]
    lines = deal_result_text(row, sheet, NAMES, Translator(make_i18n("en"), "en")).splitlines()
    assert "The bidder's 17 are split: Ann 9, Ben 8." in lines
    assert "Hanging points paid: Ann 42, Ben 41" in lines


def test_a_failed_barrel_attempt_is_said_to_cost_nothing() -> None:
    from bot.engine.thousand import from_play

    deck = [rank + suit for suit in "SCDH" for rank in "9TJQKA"]
    tr = Translator(make_i18n("en"), "en")
    for seed in range(200):
        rng = random.Random(seed)
        rng.shuffle(deck)
        hands = [deck[i * 8 : (i + 1) * 8] for i in range(3)]
        game = from_play(
            hands, bidder=2, contract=121, totals=[100, 200, 880], barrel=(2, 0), seed=seed
        )
        play_at_random(game, seed, lambda g: g.rows_scored > 0)
        row = game.scoresheet().rows[-1]
        if row.notes["outcome"] == "failed":
            break
    else:
        raise AssertionError("no seed failed the barrel contract")
    assert row.notes["marks"][2] == "attempt failed" and row.deltas[2] == 0
    lines = deal_result_text(row, game.scoresheet(), NAMES, tr).splitlines()
    assert "Barrel attempt failed, at no cost: Cid" in lines
    # a contract failed off the barrel gets no such line
    failed = 0
    for row, lines in _results("thousand", 3, seeds=3):
        said = any(line.startswith("Barrel attempt") for line in lines)
        assert said == ("attempt failed" in row.notes["marks"])
        failed += row.notes["outcome"] == "failed" and not said
    assert failed


def test_a_tie_at_the_target_says_what_broke_it() -> None:
    """Deberts, 2 players, target 301, seed 1387: 343 all, Ben took the last trick."""
    game = new_game("deberts", 2, DebertsConventions(target=301), seed=1387)
    sheet = play_at_random(game, 1387, lambda g: False).scoresheet()
    assert sheet.totals == (343, 343) and sheet.winner == 1
    tr = Translator(make_i18n("en"), "en")
    lines = final_text(sheet, NAMES[:2], tr).splitlines()
    assert "A tie at 343: Ben took the last trick." in lines
    # three players level at the top, the last trick taken by none of them: the seats
    # (the engine's tie break, tests/engine/test_deberts_rules.py)
    tied = dataclasses.replace(
        sheet,
        seats=3,
        totals=(310, 310, 200),
        winner=0,
        notes={**sheet.notes, "tie_break": "seating"},
    )
    lines = final_text(tied, NAMES, tr).splitlines()
    assert "A tie at 310: Ann sits first from the dealer's left." in lines
    # no tie, no such line
    notes = {k: v for k, v in sheet.notes.items() if k != "tie_break"}
    clear = dataclasses.replace(sheet, totals=(343, 300), notes=notes)
    assert "tie" not in final_text(clear, NAMES[:2], tr)


@pytest.mark.parametrize("penalty", [False, True])
def test_a_conceded_deal_says_what_conceding_cost(penalty: bool) -> None:
    conventions = ThousandConventions(concede_penalty=penalty)
    tr = Translator(make_i18n("en"), "en")
    for seed in range(50):
        game = new_game("thousand", 3, conventions, seed=seed)
        rng = random.Random(seed)
        while game.current_seat() is not None and game.rows_scored == 0:
            seat = game.current_seat()
            assert seat is not None
            legal = game.legal_actions(seat)
            if "concede" in legal:
                game.apply(seat, "concede")
                break
            game.apply(seat, rng.choice(legal))
        if game.rows_scored and game.scoresheet().rows[0].notes["conceded"]:
            break
    else:
        raise AssertionError("nobody conceded")
    sheet = game.scoresheet()
    lines = deal_result_text(sheet.rows[0], sheet, NAMES, tr).splitlines()
    lost = "Conceded: the others get half the contract each, the bidder loses it."
    bolt = "Conceded: the others get half the contract each, the bidder a bolt."
    assert (lost in lines, bolt in lines) == (penalty, not penalty)
