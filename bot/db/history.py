"""Players' history in the store: deal records, finished games' results and ratings.

What a move leaves here is written by :meth:`HistoryRepo.writer` inside the same
transaction as the table's row (:meth:`bot.db.repo.TableRepo.save`), so a deal's record
and a game's results are never missing from, nor ahead of, the state that ended them.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from bot import jsonio
from bot.db.database import Database
from bot.db.models import TableRecord
from bot.db.schema import deal_logs, ratings, results
from bot.engine.base import DealLog, Game
from bot.history import ratings as rating_rules
from bot.history.ratings import INITIAL, Entrant, Rating
from bot.history.stats import COUNTERS, seat_counters

__all__ = ["GameLine", "HistoryRepo", "PlayerStats", "PoolRating", "TopLine", "Writer"]

Writer = Callable[[AsyncConnection], Awaitable[None]]
"""Statements run inside a table save's transaction, after its row is written."""

_R = results.c
_K = ratings.c
_D = deal_logs.c


def _insert_missing(dialect: str, rows: list[dict[str, Any]]) -> sa.Insert:
    """Rows of ``ratings``, each but those there already (``ON CONFLICT DO NOTHING``)."""
    if dialect == "postgresql":
        return postgresql.insert(ratings).values(rows).on_conflict_do_nothing()
    return sqlite.insert(ratings).values(rows).on_conflict_do_nothing()


@dataclass(frozen=True)
class PoolRating:
    game: str
    seats: int
    rating: Rating
    games: int
    trend: tuple[float, ...]
    """The ordinal after each of the last rated games, oldest first."""


@dataclass(frozen=True)
class PlayerStats:
    name: str
    counters: dict[str, dict[str, int]]
    """Per game, the summed counters of :mod:`bot.history.stats`."""
    ratings: tuple[PoolRating, ...]


@dataclass(frozen=True)
class TopLine:
    name: str
    seats: int
    ordinal: float
    games: int


@dataclass(frozen=True)
class GameLine:
    table_id: int
    game: str
    finished_at: float
    players: tuple[tuple[str, int, int], ...]
    """Each seat's name, place and final total, in seat order."""
    deals: int
    """Deals played, as the scoresheet numbers them (a deal dealt anew not counted)."""


def player_key(record: TableRecord, seat: int) -> str:
    s = record.seats[seat]
    if s.user_id is not None:
        return f"u{s.user_id}"
    return f"bot:{s.bot or 'random'}"


class HistoryRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    # -- writing, inside a table save ----------------------------------------------

    def writer(
        self, record: TableRecord, game: Game, logs: Sequence[DealLog], *, finished: bool
    ) -> Writer | None:
        """What the save of ``record`` must also write: the records of the deals its moves
        ended and, when ``finished`` (the game ended with this save), the results."""
        if not logs and not finished:
            return None
        now = time.time()
        rows = [
            {
                "table_id": record.id,
                "deal_no": log.deal_no,
                "chat_id": record.chat_id,
                "record": jsonio.dumps(log.to_json()),
                "created_at": now,
            }
            for log in logs
        ]

        async def write(conn: AsyncConnection) -> None:
            if rows:
                await conn.execute(sa.insert(deal_logs), rows)
            if finished:
                await self._finish(conn, record, game, now)

        return write

    async def _finish(
        self, conn: AsyncConnection, record: TableRecord, game: Game, now: float
    ) -> None:
        sheet = game.scoresheet()
        n = sheet.seats
        forfeited = [
            s
            for s, seat in enumerate(record.seats)
            if seat.user_id is not None and seat.bot is not None
        ]
        places = rating_rules.places(sheet.totals, sheet.winner, forfeited)
        keys = [player_key(record, s) for s in range(n)]
        people = sorted(k for k in keys if not k.startswith("bot:"))
        if people:
            # a newcomer's row, at the initial rating and no games yet, is made first: a
            # game of theirs ending at the same moment elsewhere then waits for this one
            # (its insert for the commit of this, the lock below for its end) and rates
            # from its result, where both found no row and both inserted one
            fresh = _insert_missing(
                conn.dialect.name,
                [
                    {
                        "game": sheet.game,
                        "seats": n,
                        "player": key,
                        "mu": INITIAL.mu,
                        "sigma": INITIAL.sigma,
                        "games": 0,
                    }
                    for key in people
                ],
            )
            await conn.execute(fresh)
        found = {
            row.player: Rating(row.mu, row.sigma)
            for row in await conn.execute(
                sa.select(_K.player, _K.mu, _K.sigma)
                .where(_K.game == sheet.game, _K.seats == n, _K.player.in_(people))
                # another game of theirs ending meanwhile waits for this one's ratings;
                # locked in one order, as the rows were made
                .order_by(_K.player)
                .with_for_update()
            )
        }
        entrants = [
            Entrant.of_bot(k[4:]) if k.startswith("bot:") else Entrant(k, found.get(k, INITIAL))
            for k in keys
        ]
        after = rating_rules.rate(entrants, places)
        since = now - rating_rules.SAME_LINE_UP_WINDOW
        out: list[dict[str, Any]] = []
        for seat, entrant in enumerate(entrants):
            earlier = [
                (row.finished_at, row.line_up)
                for row in await conn.execute(
                    sa.select(_R.finished_at, _R.line_up).where(
                        _R.player == entrant.key,
                        _R.game == sheet.game,
                        _R.seats == n,
                        _R.rated == 1,
                        _R.finished_at > since,
                    )
                )
            ]
            rated = rating_rules.counts(entrants, seat, now, earlier)
            new = after[seat] if rated else entrant.rating
            if rated:
                await conn.execute(
                    sa.update(ratings)
                    .where(_K.game == sheet.game, _K.seats == n, _K.player == entrant.key)
                    .values(mu=new.mu, sigma=new.sigma, games=_K.games + 1)
                )
            out.append(
                {
                    "table_id": record.id,
                    "seat": seat,
                    "chat_id": record.chat_id,
                    "game": sheet.game,
                    "seats": n,
                    "player": entrant.key,
                    "user_id": record.seats[seat].user_id,
                    "name": record.seats[seat].name,
                    "place": places[seat],
                    "rated": int(rated),
                    "line_up": rating_rules.line_up(entrants, seat),
                    "mu": new.mu,
                    "sigma": new.sigma,
                    "counters": jsonio.dumps(seat_counters(sheet, seat)),
                    "finished_at": now,
                }
            )
        await conn.execute(sa.insert(results), out)

    # -- reading ----------------------------------------------------------------------

    async def _rows(self, stmt: sa.Executable) -> list[Any]:
        async with self.db.connect() as conn:
            return list(await conn.execute(stmt))

    async def stats(self, user_id: int) -> PlayerStats | None:
        rows = await self._rows(
            sa.select(_R.game, _R.seats, _R.name, _R.counters, _R.rated, _R.mu, _R.sigma)
            .where(_R.user_id == user_id)
            .order_by(_R.finished_at)
        )
        if not rows:
            return None
        counters: dict[str, dict[str, int]] = {}
        trends: dict[tuple[str, int], list[float]] = {}
        for row in rows:
            mine = counters.setdefault(row.game, dict.fromkeys(COUNTERS, 0))
            for key, value in jsonio.loads(row.counters).items():
                mine[key] = mine.get(key, 0) + value
            if row.rated:
                trends.setdefault((row.game, row.seats), []).append(
                    Rating(row.mu, row.sigma).ordinal
                )
        pools = await self._rows(
            sa.select(_K.game, _K.seats, _K.mu, _K.sigma, _K.games)
            # a row with no games: made for a first game that did not count
            .where(_K.player == f"u{user_id}", _K.games > 0)
            .order_by(_K.game, _K.seats)
        )
        return PlayerStats(
            name=rows[-1].name,
            counters=counters,
            ratings=tuple(
                PoolRating(
                    p.game,
                    p.seats,
                    Rating(p.mu, p.sigma),
                    p.games,
                    tuple(trends.get((p.game, p.seats), [])[-5:]),
                )
                for p in pools
            ),
        )

    async def top(self, game: str, chat_id: int | None, limit: int = 10) -> list[TopLine]:
        """The board of ``game``: people by the conservative rating, each in the table
        size they are rated best at; ``chat_id``: only those who played in that chat."""
        stmt = (
            sa.select(_K.player, _K.seats, _K.mu, _K.sigma, _K.games)
            .where(
                _K.game == game,
                _K.games >= rating_rules.BOARD_MIN_GAMES,
                _K.player.not_like("bot:%"),
            )
            .order_by((_K.mu - 3 * _K.sigma).desc())
        )
        if chat_id is not None:
            played = sa.select(_R.player).where(_R.chat_id == chat_id, _R.game == game)
            stmt = stmt.where(_K.player.in_(played))
        best: dict[str, TopLine] = {}
        for row in await self._rows(stmt):
            if row.player not in best:
                best[row.player] = TopLine("", row.seats, row.mu - 3 * row.sigma, row.games)
            if len(best) >= limit:
                break
        if not best:
            return []
        names = {
            row.player: row.name
            for row in await self._rows(
                sa.select(_R.player, _R.name)
                .where(_R.player.in_(list(best)))
                .order_by(_R.finished_at)
            )
        }
        return [
            TopLine(names.get(key, key), line.seats, line.ordinal, line.games)
            for key, line in best.items()
        ]

    async def recent(self, chat_id: int, limit: int = 10) -> list[GameLine]:
        """The chat's last finished games, the latest first."""
        ids = [
            row.table_id
            for row in await self._rows(
                sa.select(_R.table_id, sa.func.max(_R.finished_at).label("at"))
                .where(_R.chat_id == chat_id)
                .group_by(_R.table_id)
                .order_by(sa.desc("at"))
                .limit(limit)
            )
        ]
        if not ids:
            return []
        by_table: dict[int, list[Any]] = {}
        for row in await self._rows(
            sa.select(results).where(_R.table_id.in_(ids)).order_by(_R.table_id, _R.seat)
        ):
            by_table.setdefault(row.table_id, []).append(row)
        return [
            GameLine(
                table_id,
                by_table[table_id][0].game,
                by_table[table_id][0].finished_at,
                tuple(
                    (r.name, r.place, jsonio.loads(r.counters)["points"])
                    for r in by_table[table_id]
                ),
                jsonio.loads(by_table[table_id][0].counters)["deals"],
            )
            for table_id in ids
        ]

    async def deal(self, table_id: int, deal_no: int) -> DealLog | None:
        rows = await self._rows(
            sa.select(_D.record).where(_D.table_id == table_id, _D.deal_no == deal_no)
        )
        return DealLog.from_json(jsonio.loads(rows[0].record)) if rows else None

    async def deals(self, table_id: int) -> list[DealLog]:
        rows = await self._rows(
            sa.select(_D.record).where(_D.table_id == table_id).order_by(_D.deal_no)
        )
        return [DealLog.from_json(jsonio.loads(row.record)) for row in rows]
