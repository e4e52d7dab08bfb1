"""The history in the store: a game played through the table service leaves every
deal's record and its results, saved with the moves that ended them; a process killed
inside that save leaves neither the move nor its record."""

from __future__ import annotations

import asyncio
import csv
import io
import os
import signal
import sys
import textwrap
from pathlib import Path

from bot import jsonio
from bot.app import App
from bot.bench.fake_telegram import FakeTelegram
from bot.db.database import open_database
from bot.db.history import HistoryRepo
from bot.db.models import Seat, TableRecord, TableStatus
from bot.engine import new_game
from bot.engine.deberts import Deberts, DebertsConventions
from bot.history import ratings as rating_rules
from bot.history.ratings import INITIAL, Entrant
from bot.i18n import Translator, make_i18n
from bot.render.history import (
    deal_review_keyboard,
    deal_review_text,
    history_keyboard,
    history_text,
    scoresheet_csv,
    stats_text,
)
from bot.tables.records import DealReview, NotAllowed, played_numbers
from tests.bot.test_replicas import blocked_on_a_lock, named
from tests.bot.test_service import act, saved_game, service, started_table
from tests.e2e.harness import VirtualClock
from tests.history.test_pure import played_out


async def test_a_finished_game_leaves_its_deals_results_and_ratings(
    fake_telegram: FakeTelegram, tmp_path: Path, database_url: str
) -> None:
    fake = fake_telegram
    async with service(fake, tmp_path, VirtualClock(), seed=8, database=database_url) as (
        app,
        tr,
    ):
        group, people, record = await started_table(app, fake, ["Ann", "Ben"], tr)
        records = app.tables.records
        ann = people[0].id
        while True:
            current, playing = await saved_game(app, record.id)
            seat = playing.current_seat()
            if seat is None:
                break
            legal = playing.legal_actions(seat)
            # everyone passes the first deal twice: it is dealt anew, still deal 1
            redeal = playing.deal_no <= 2 and "pass" in legal
            await act(
                app, record.id, current.version, people[seat], "pass" if redeal else legal[0], tr
            )
            await app.tables.publish(record.id)
            _, playing = await saved_game(app, record.id)
            if playing.is_over:
                continue
            # the deal being played has no record to show, to anyone: a deal dealt anew
            # in its place, over, may be shown
            shown = await records.deal(
                record.id, playing.deal_played, chat_id=group.id, user_id=ann
            )
            assert shown is None or (
                isinstance(shown, DealReview)
                and all(log.redeal and log.deal_no < playing.deal_no for log in shown.logs)
            )
        finished, game = await saved_game(app, record.id)
        assert game.is_over
        history = HistoryRepo(app.tables.store.repo.db)
        logs = await history.deals(record.id)
        assert [log.deal_no for log in logs] == list(range(1, game.deal_no + 1))
        # numbered as the results are: the redeal keeps the number of the deal it replaced
        assert [log.redeal for log in logs[:3]] == [True, True, False]
        rows = [row.deal_no for row in game.scoresheet().rows]
        assert rows == list(range(1, len(rows) + 1))
        assert played_numbers(logs) == [1, 1, *rows]
        # the records replayed from the game's seed play the same game
        state = jsonio.loads(finished.state or "")
        conventions = DebertsConventions.from_json(state["conventions"])
        replay = new_game("deberts", 2, conventions, state["seed"])
        for log in logs:
            assert log.moves is not None
            for seat, action in log.moves:
                replay.apply(seat, action)
        assert replay.scoresheet() == game.scoresheet()

        winner = game.scoresheet().winner
        assert winner is not None
        stats = [await history.stats(p.id) for p in people]
        assert all(s is not None for s in stats)
        wins = [s.counters["deberts"]["wins"] for s in stats if s is not None]
        assert wins == [int(seat == winner) for seat in range(2)]
        ratings = [s.ratings[0] for s in stats if s is not None]
        # the first game between two new people counts: the winner goes up
        assert ratings[winner].rating.mu > 25 > ratings[1 - winner].rating.mu
        recent = await history.recent(group.id)
        assert [line.table_id for line in recent] == [record.id]
        assert sorted(place for _, place, _ in recent[0].players) == [1, 2]
        await _texts_of_a_finished_game(app, group.id, record.id, people[0].id)


_KILLED = textwrap.dedent(
    """
    import asyncio, os, sys, time
    from bot.db.database import open_database
    from bot.db.repo import TableRepo
    from bot.db.schema import deal_logs
    import sqlalchemy as sa

    async def main():
        db = await open_database(sys.argv[1])
        repo = TableRepo(db)
        record = await repo.get(int(sys.argv[2]))
        record.version += 1
        record.state = '{"moved": true}'

        async def also(conn):
            await conn.execute(sa.insert(deal_logs).values(
                table_id=record.id, deal_no=1, chat_id=record.chat_id, record="{}",
                created_at=0.0))
            print("inside", flush=True)
            time.sleep(60)  # killed here: the row and the record are written, not committed

        await repo.save(record, also=also)

    asyncio.run(main())
    """
)


async def test_a_kill_between_the_move_and_its_record_leaves_neither(database_url: str) -> None:
    from bot.db.models import Seat, TableRecord, TableStatus
    from bot.db.repo import TableRepo

    db = await open_database(database_url)
    repo = TableRepo(db)
    record = await repo.create(
        TableRecord(
            id=0,
            chat_id=-5,
            game="deberts",
            status=TableStatus.PLAYING,
            host_id=1,
            seats=[Seat("Ann", 1), Seat("Ben", 2)],
            conventions={},
            lang="en",
            state='{"moved": false}',
        )
    )
    await db.close()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        _KILLED,
        database_url,
        str(record.id),
        stdout=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None
    assert await asyncio.wait_for(proc.stdout.readline(), 60) == b"inside\n"
    os.kill(proc.pid, signal.SIGKILL)
    await proc.wait()
    db = await open_database(database_url)
    try:
        row = await db.fetchone(
            "SELECT state, version FROM tables WHERE id = :id", {"id": record.id}
        )
        assert row["state"] == '{"moved": false}' and row["version"] == record.version
        assert await db.fetchall("SELECT * FROM deal_logs") == []
    finally:
        await db.close()


async def _texts_of_a_finished_game(app: App, group_id: int, table_id: int, ann: int) -> None:
    """What /stats, /history, a deal's review and the export say of the game."""
    records = app.tables.records
    ru = Translator(make_i18n("ru"), "ru")
    en = Translator(make_i18n("en"), "en")
    stats = await records.stats(ann)
    assert "Партий: 1" in stats_text(stats, "Ann", ru)
    assert "Games: 1" in stats_text(stats, "Ann", en)
    export = await records.export(group_id)
    assert export is not None
    deals = len(export.sheet.rows)
    recent = await records.recent(group_id)
    assert f"Deberts #{table_id}, deals: {deals}: " in history_text(recent, en)
    assert f"Деберц #{table_id}, сдач: {deals}: " in history_text(recent, ru)
    replay = history_keyboard(recent, en)
    assert replay is not None and replay.rows == (
        ((f"▶ Deberts #{table_id}", f"v:{table_id}:1:0"),),
    )
    # deal 1 was dealt anew twice: shown after those two, as one deal
    review = await records.deal(table_id, 1, chat_id=group_id, user_id=ann)
    assert isinstance(review, DealReview)
    assert [log.redeal for log in review.logs] == [True, True, False]
    assert (review.deal_no, review.last, review.over) == (1, deals, True)
    text = deal_review_text(review, en)
    assert text.startswith("<b>Deal 1</b>") and "Ann:" in text and "Ben:" in text
    assert text.count("<b>Deal 1</b>") == 3 and text.count("The cards were dealt anew.") == 2
    assert "1. " in text.split("\n\n")[-1]  # the deal played has its tricks
    assert deal_review_text(review, ru).startswith("<b>Сдача 1</b>")
    pages = deal_review_keyboard(review, en)
    assert pages is not None and pages.rows == ((("Deal 2 »", f"v:{table_id}:2:1"),),)
    last = await records.deal(table_id, None, chat_id=group_id, user_id=ann)
    assert isinstance(last, DealReview) and last.deal_no == deals
    assert deal_review_text(last, en).endswith("The game's last deal.")
    pages = deal_review_keyboard(last, en)
    assert pages is not None and pages.rows == (
        ((f"« Deal {deals - 1}", f"v:{table_id}:{deals - 1}:1"),),
    )
    assert await records.deal(table_id, deals + 1, chat_id=group_id, user_id=ann) is None
    # another chat's stranger is not shown the deal; a player of it is, anywhere
    assert isinstance(await records.deal(table_id, 1, chat_id=77, user_id=99), NotAllowed)
    assert isinstance(await records.deal(table_id, 1, chat_id=ann, user_id=ann), DealReview)
    data = jsonio.loads(export.data)
    assert data["scoresheet"] == export.sheet.to_json()
    # the scoresheet as a CSV table: a row per deal, numbered as the results are
    table = list(
        csv.reader(io.StringIO(scoresheet_csv(export.sheet, export.names, en).decode("utf-8-sig")))
    )
    assert table[0] == ["Deal", "Ann: points", "Ann: total", "Ben: points", "Ben: total", "Notes"]
    for line, row in zip(table[1:-1], export.sheet.rows, strict=True):
        assert line[:5] == [
            str(row.deal_no),
            str(row.deltas[0]),
            str(row.totals[0]),
            str(row.deltas[1]),
            str(row.totals[1]),
        ]
    assert table[-1] == [
        "Total",
        "",
        str(export.sheet.totals[0]),
        "",
        str(export.sheet.totals[1]),
        "",
    ]
    assert any(
        line[5].startswith(("Ann: ", "Ben: ")) for line in table[1:-1]
    )  # a bait or a hanging
    russian = scoresheet_csv(export.sheet, export.names, ru).decode("utf-8-sig")
    assert russian.startswith("Сдача,Ann: очки,Ann: итог,") and "\r\nИтого," in russian
    # the export numbers the deals as the scoresheet does
    assert [d["deal_no"] for d in data["deals"]] == [1, 1, *range(1, deals + 1)]
    assert [d["deal_no"] for d in data["deals"] if not d["redeal"]] == [
        row["deal_no"] for row in data["scoresheet"]["rows"]
    ]


async def test_a_transaction_commits_whole_or_not_at_all_and_autocommit_resumes(
    database_url: str,
) -> None:
    import sqlalchemy as sa

    from bot.db.schema import deal_logs

    def row(deal_no: int) -> dict[str, object]:
        return {"table_id": 1, "deal_no": deal_no, "chat_id": -5, "record": "{}", "created_at": 0}

    db, other = await open_database(database_url), await open_database(database_url)
    try:

        async def seen() -> list[int]:
            rows = await other.fetchall("SELECT deal_no FROM deal_logs ORDER BY deal_no")
            return [r["deal_no"] for r in rows]

        try:
            async with db.transaction() as conn:
                await conn.execute(sa.insert(deal_logs), [row(3)])
                raise RuntimeError("the move failed")
        except RuntimeError:
            pass
        assert await seen() == []
        async with db.transaction() as conn:
            await conn.execute(sa.insert(deal_logs), [row(1)])
            if db.dialect == "postgresql":  # SQLite's writer locks the file until it ends
                assert await seen() == []
            await conn.execute(sa.insert(deal_logs), [row(2)])
        assert await seen() == [1, 2]
        # a statement outside a transaction is committed as it runs again
        await db.write(
            "INSERT INTO deal_logs (table_id, deal_no, chat_id, record, created_at)"
            " VALUES (1, 4, -5, '{}', 0)"
        )
        assert await seen() == [1, 2, 4]
    finally:
        await other.close()
        await db.close()


async def test_a_newcomers_two_games_ending_at_once_rate_one_after_the_other(
    postgres_url: str,
) -> None:
    """Two games of a person with no rating yet end at the same moment on two replicas:
    the second waits for the first and rates from its result (neither finds the row
    missing and inserts it too)."""
    name = f"second-{os.getpid()}"
    one = await open_database(postgres_url)
    two = await open_database(named(postgres_url, name))
    games = []
    for seed in (3, 4):
        game = Deberts.new(2, seed=seed)
        played_out(game, seed)
        assert game.is_over
        games.append(game)
    records = [
        TableRecord(
            id=table_id,
            chat_id=-table_id,
            game="deberts",
            status=TableStatus.FINISHED,
            host_id=1,
            seats=[Seat("Ann", user_id=1), Seat("Bot", bot=level)],
            conventions={},
            lang="en",
        )
        for table_id, level in ((1, "easy"), (2, "hard"))
    ]
    try:
        first, second = (
            HistoryRepo(db).writer(record, game, [], finished=True)
            for db, record, game in zip((one, two), records, games, strict=True)
        )
        assert first is not None and second is not None

        async def end_second() -> None:
            async with two.transaction() as conn:
                await second(conn)

        async with one.transaction() as conn:
            await first(conn)
            ending = asyncio.create_task(end_second())
            await blocked_on_a_lock(one, name)
        await ending

        ann = INITIAL
        for game, level in zip(games, ("easy", "hard"), strict=True):
            sheet = game.scoresheet()
            places = rating_rules.places(sheet.totals, sheet.winner, [])
            ann = rating_rules.rate([Entrant("u1", ann), Entrant.of_bot(level)], places)[0]
        rows = await one.fetchall("SELECT player, mu, sigma, games FROM ratings")
        assert [dict(r) for r in rows] == [
            {"player": "u1", "mu": ann.mu, "sigma": ann.sigma, "games": 2}
        ]
        results = await one.fetchall("SELECT table_id FROM results ORDER BY table_id, seat")
        assert [r["table_id"] for r in results] == [1, 1, 2, 2]
    finally:
        await one.close()
        await two.close()
