"""Replicas behind a webhook: any update may reach any of them, some arrive twice, a
replica dies and comes back (with more than one, another dies for good), and every
game ends as if one process had handled the presses in order.

:func:`run_scenario` runs bot processes serving one webhook on one database; the fake
Bot API hands the updates to them in turn and delivers every command, and every third
other update, twice. Here it runs with one process on a SQLite file, the default
set-up. A Deberts and a Thousand table are played at the same time, each in its own
group, by people who press only the buttons they received. Beside each table the test
keeps the same game in the engine, dealt from the same seed (every table gets one
seed, whichever process opens it): it is the undisturbed run. After every press the
stored game is read back and must be that game after the press, once, or after the
press and the moves the turn timer made; at the end the two are the same to the last
card and score. On the way:

- the first replica is killed (SIGKILL) while it answers a press it has saved, in the
  first deal of Deberts, and started again; with more than one, the last is killed
  while it shows a Thousand move and never comes back: the presses they held are
  delivered again to the others;
- each game has one turn the player lets run out: the bot moves for them once, with
  one notice, and nothing moves again for the same turn;
- no group gets more than 20 messages or edits in any minute by when Telegram got
  them, summed over replicas and across the restart;
- no message shows a chat a card it may not see (a group no hidden card, a player no
  card of another's hand).
"""

from __future__ import annotations

import asyncio
import json
import re
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.bench.fake_telegram import FakeTelegram
from bot.bench.fake_telegram.models import Button, FakeChat, FakeMessage, FakeUser
from bot.db.database import database_url
from bot.engine import game_class, new_game
from bot.engine.base import Game
from tests.bot.test_privacy import hidden_cards, leaks
from tests.e2e.clock import FastClock
from tests.e2e.harness import cautious_choice, code_of, hand_message, legal_buttons, version_of
from tests.e2e.replica import Replica, serving

SEED = 16
"""Every table's seed: Thousand ends in ten deals as these people play it."""
DEBERTS_SALT = 45
"""What the Deberts players' choices are mixed with: the game ends in three deals."""
TURN_TIMER = 4
"""Seconds a turn may take: far more than a press takes here, so only the turn each
game lets run out times out."""
GROUP_MINUTE = 20
SPEED = 20
"""How many times faster than the wall the clock runs that the replicas pace their
messages by and Telegram times their calls by: a group's minute passes in seconds."""
MAX_MOVES = 1500
MAX_CATCH_UP = 12
"""Most moves the stored game may be ahead of the test's copy when the test reads it:
the press, last cards played by the table, turns a slow machine let time out."""
FREE_STEPS = 3
"""Of those, the most not told by the stored deal's log (every legal move is tried)."""
COUNTED = ("sendMessage", "editMessageText", "editMessageReplyMarkup", "sendPhoto", "sendDocument")
"""What Telegram counts against a group's 20 messages a minute."""
TIME_IS_UP = "⏰ Time is up for"
FAILURE = "Something went wrong"
_DEAL = re.compile(r"· deal (\d+) ·|Deal (\d+) is over\.")


def deberts_choice(codes: list[str], moves: int) -> str:
    """Any legal action, chosen by what is on offer and how far the game is."""
    return codes[zlib.crc32(f"{DEBERTS_SALT}|{moves}|{','.join(codes)}".encode()) % len(codes)]


def thousand_choice(codes: list[str], moves: int) -> str:
    return cautious_choice(codes)


def last_card(game: Game, seat: int) -> bool:
    """Whether ``seat`` holds one card in the last trick, its only move: the table plays
    it for them after a moment (autoplay, on by default)."""
    view = game.view(seat, brief=True)
    legal = game.legal_actions(seat)
    return view["phase"] == "play" and len(view["hand"]) == 1 and len(legal) == 1


def canonical(data: object) -> Any:
    return json.loads(json.dumps(data))


Reached = tuple[Game, Any, list[tuple[int, str]], int]
"""A game the catch-up reached: the game, its state as stored, the moves that reached it
and how many of them the stored log did not tell."""


def logged_next(mine: Any, stored: Any) -> tuple[int, str] | None:
    """The move after those of ``mine`` (a game's state) in the stored game's log of the
    deal, when both are in the same deal and the log holds more than ``mine`` played."""
    logged = stored["moves"]
    done = len(mine["moves"])
    if mine["deal_no"] != stored["deal_no"] or logged[:done] != mine["moves"]:
        return None
    if len(logged) <= done:
        return None
    seat, code = logged[done]
    return int(seat), str(code)


@dataclass
class Table:
    """One table as its players and the test see it."""

    game: str
    group: FakeChat
    users: list[FakeUser]
    choose: Callable[[list[str], int], str]
    let_run_out_at: int
    """The move whose turn the player lets run out (the first turn from there on that
    is a player's: the timer may have made that move already)."""
    mirror: Game
    """The same game, played in the engine with the same moves: the undisturbed run."""
    table_id: int = 0
    ran_out: bool = False
    moves: int = 0
    presses: int = 0
    timed_out: int = 0
    """Moves the turn timer made, as the stored game showed them."""
    played_itself: int = 0
    """Last cards the table played for their holders (a press slower than the moment
    it waits), which no notice tells of."""
    stale: int = 0
    """Presses refused because the timer had moved first."""
    hidden: dict[int, dict[int | None, set[str]]] = field(default_factory=dict)
    """Per deal and viewer (``None``: the group), the cards hidden from them in every
    state of the deal seen so far."""
    checked_from: int = 0
    messages_checked: int = 0

    def seat_of_chat(self, chat_id: int) -> int | bool | None:
        """The viewer a chat is (``None``: the group), or ``False`` for another chat."""
        if chat_id == self.group.id:
            return None
        for seat, user in enumerate(self.users):
            if user.id == chat_id:
                return seat
        return False


Hook = Callable[[FakeUser, FakeMessage, Button], Awaitable[None]]
"""Makes a press in a way of its own."""


class Scenario:
    def __init__(self, fake: FakeTelegram, replicas: list[Replica], db: AsyncEngine) -> None:
        self.fake = fake
        self.replicas = replicas
        self.db = db
        self.hooks: dict[tuple[str, int], Hook] = {}
        self.background: set[asyncio.Task[None]] = set()

    def route(self) -> None:
        """Deliver to the replicas alive, in turn, as a load balancer that checks health."""
        self.fake.webhook_targets = [r.url for r in self.replicas if r.alive]

    async def open(
        self, game: str, names: list[str], choose: Callable[[list[str], int], str], out_at: int
    ) -> Table:
        group, users = await self.seat(game, names)
        conventions = game_class(game).new(len(users)).conventions
        if game == "deberts":
            conventions = conventions.replace("target", 301)
        table = Table(
            game, group, users, choose, out_at, new_game(game, len(users), conventions, SEED)
        )
        async with self.db.connect() as conn:
            row = (
                await conn.execute(
                    sa.text("SELECT id FROM tables WHERE chat_id = :chat"), {"chat": group.id}
                )
            ).one()
        table.table_id = int(row.id)
        return table

    async def seat(self, game: str, names: list[str]) -> tuple[FakeChat, list[FakeUser]]:
        """A group where ``names`` open a table, Deberts to 301, and start it. Each press
        waits for the lobby to show it: the answer may come before the edit."""
        fake = self.fake
        users = [fake.add_user(name) for name in names]
        group = fake.add_group(game.title(), members=users)
        for user in users:
            await user.start_private()
            await fake.wait_for_message(user)
        await users[0].send(group, f"/new {game}")

        def lobby() -> FakeMessage | None:
            found = [m for m in fake.messages(group, from_bot=True) if "a new table" in m.text]
            return found[-1] if found else None

        async def press(user: FakeUser, label: str, then: Callable[[FakeMessage], bool]) -> None:
            def offered() -> FakeMessage | None:
                message = lobby()
                return (
                    message if message and any(b.text == label for b in message.buttons) else None
                )

            message = await fake.wait_for(offered, timeout=30, what=f"the lobby's {label}")
            answer = await (await user.press(message, label)).answer(timeout=30)
            assert not answer.show_alert, answer
            await fake.wait_for(lambda: then(lobby()), timeout=30, what=f"the lobby after {label}")

        for user in users[1:]:
            await press(user, "Join", lambda m, u=user: u.first_name in m.text)
        if game == "deberts":
            await press(users[0], "Settings", lambda m: True)
            await press(users[0], "Target: 501", lambda m: "• Target: 301" in m.text)
            await press(users[0], "« Back", lambda m: True)
        await press(users[0], "Start", lambda m: hand_message(fake, users[0]) is not None)
        return group, users

    async def stored(self, table: Table) -> tuple[int, object]:
        async with self.db.connect() as conn:
            row = (
                await conn.execute(
                    sa.text("SELECT version, state FROM tables WHERE id = :id"),
                    {"id": table.table_id},
                )
            ).one()
        return int(row.version), json.loads(row.state)

    def catch_up(self, table: Table, stored: Any, pressed: tuple[int, str] | None) -> None:
        """Play on the mirror what the stored game has had since: the press (once), then
        moves the table made itself (a turn timer's, a last card's); anything else fails.

        Within one deal the stored game's log says which move came next; only where it
        cannot (the stored game is in a later deal) is every legal move tried, press
        first, for at most :data:`FREE_STEPS` moves. How many moves the timer made is
        checked against the notices in the group at the end (:meth:`problems`)."""
        mirror = table.mirror
        data = canonical(mirror.to_json())
        if data == stored:
            return
        # breadth first over the games reached
        reached: list[Reached] = [(mirror, data, [], 0)]
        for _ in range(MAX_CATCH_UP):
            longer: list[Reached] = []
            for game, data, path, free in reached:
                seat = game.current_seat()
                if seat is None:
                    continue
                told = logged_next(data, stored)
                if told is not None:
                    codes = [told[1]] if told[0] == seat else []
                elif free < FREE_STEPS:
                    codes = game.legal_actions(seat)
                    if pressed is not None and not path and pressed[0] == seat:
                        codes = [pressed[1], *[c for c in codes if c != pressed[1]]]
                    free += 1
                else:
                    codes = []
                for code in codes:
                    after = game.clone()
                    after.apply(seat, code)
                    step = [*path, (seat, code)]
                    state = canonical(after.to_json())
                    if state == stored:
                        self._apply(table, step, pressed)
                        return
                    longer.append((after, state, step, free))
            reached = longer
        raise AssertionError(f"{table.game}: the stored game is not the mirror after its moves")

    def _apply(self, table: Table, moves: list[tuple[int, str]], pressed: object) -> None:
        for i, (seat, code) in enumerate(moves):
            # what follows the press was played by the table: a last card, or a timeout
            if not (i == 0 and (seat, code) == pressed):
                if last_card(table.mirror, seat):
                    table.played_itself += 1
                else:
                    table.timed_out += 1
            table.mirror.apply(seat, code)
            table.moves += 1
            self.seen(table, table.mirror)

    def seen(self, table: Table, game: Game) -> None:
        deal = game.view(None)["deal_no"]
        hidden = table.hidden.setdefault(deal, {})
        for viewer in (None, *range(game.seats)):
            cards = hidden_cards(game, viewer)
            hidden[viewer] = hidden[viewer] & cards if viewer in hidden else cards

    def check_privacy(self, table: Table, upto: int) -> None:
        """No message sent so far shows a chat of this table a card hidden from it in every
        state of its deal the test has seen (cards are only ever revealed within a deal,
        so an edit that went out late shows no more than the latest state)."""
        latest = max(table.hidden)
        for call in self.fake.calls(since=table.checked_from):
            if call.seq > upto or call.method not in ("sendMessage", "editMessageText"):
                continue
            viewer = table.seat_of_chat(int(call.params.get("chat_id", 0)))
            if viewer is False:
                continue
            text = str(call.params.get("text", ""))
            found = _DEAL.search(text)
            deal = int(found.group(1) or found.group(2)) if found else latest
            if deal not in table.hidden:
                continue  # a deal dealt after the state read: checked next time
            # a deal's result names its final trick: those cards are played
            text = "\n".join(line for line in text.split("\n") if "Last trick" not in line)
            blob = text + json.dumps(call.params.get("reply_markup"), ensure_ascii=False)
            assert not leaks(blob, table.hidden[deal][viewer]), (table.game, viewer, blob)
            table.messages_checked += 1
        table.checked_from = upto

    def shown(
        self, table: Table, version: int
    ) -> tuple[FakeUser, FakeMessage, list[Button]] | None:
        """The player whose hand offers the buttons of the stored ``version``."""
        for user in table.users:
            message = hand_message(self.fake, user)
            if message is None:
                continue
            buttons = [b for b in legal_buttons(message) if version_of(b) == version]
            if buttons:
                return user, message, buttons
        return None

    async def play(self, table: Table) -> None:
        fake = self.fake
        pressed: tuple[int, str] | None = None
        while table.moves < MAX_MOVES:
            # marked before the read: every message sent by then shows a state saved by
            # then (marked after, a timer's move saved meanwhile could show a card played
            # that no state read so far has on the table)
            mark = fake.mark()
            version, stored = await self.stored(table)
            self.catch_up(table, stored, pressed)
            self.seen(table, table.mirror)
            pressed = None
            self.check_privacy(table, mark)
            if table.mirror.is_over:
                return
            # the hands show the stored state a moment after it is saved
            found = await fake.wait_for(
                lambda v=version: self.shown(table, v) or self.overtaken(table, v),
                timeout=60,
                what=f"{table.game}: buttons of version {version}",
            )
            if found is True:
                continue  # the timer moved meanwhile: read the game again
            user, message, buttons = found
            seat = table.users.index(user)
            mirror = table.mirror
            assert mirror.current_seat() == seat
            codes = sorted(code_of(b) for b in buttons)
            assert codes == sorted(mirror.legal_actions(seat)), (codes, table.game)
            if table.moves >= table.let_run_out_at and not table.ran_out:
                table.ran_out = True
                await self.let_run_out(table)
                continue
            code = table.choose(codes, table.moves)
            (button,) = [b for b in buttons if code_of(b) == code]
            pressed = (seat, code)
            # at the first press from that move on (the timer may have made that one)
            due = [key for key in self.hooks if key[0] == table.game and key[1] <= table.moves]
            hook = self.hooks.pop(due[0]) if due else None
            if hook is not None:
                await hook(user, message, button)  # answered by whoever takes it again
                table.presses += 1
                continue
            answer = await fake.callback_query(user, message, button.callback_data or "").answer(
                timeout=60
            )
            table.presses += 1
            if answer.show_alert:
                # only a move the timer made first may have made the button stale: a
                # timeout, or a last card the table played itself
                table.stale += 1
                played_itself = last_card(mirror, seat)
                assert played_itself or TIME_IS_UP in "".join(self.group_texts(table)), answer
        raise AssertionError(f"{table.game} is not over after {MAX_MOVES} moves")

    def problems(self, table: Table) -> list[str]:
        """What the chats of ``table`` show that one process handling each update once,
        in order, would not have."""
        fake, name = self.fake, table.game
        found = []
        texts = self.group_texts(table)
        sheet = table.mirror.scoresheet()
        deals = [int(m.group(1)) for t in texts if (m := re.match(r"Deal (\d+) is over\.", t))]
        if deals != [row.deal_no for row in sheet.rows]:
            found.append(f"{name}: deal results posted {deals}")
        if sum(t.startswith("Game over.") for t in texts) != 1:
            finals = sum(t.startswith("Game over.") for t in texts)
            found.append(f"{name}: the final result posted {finals} times")
        lobbies = sum(
            "a new table" in str(c.params.get("text"))
            for c in fake.calls("sendMessage")
            if c.params.get("chat_id") == table.group.id
        )
        if lobbies != 1:
            found.append(f"{name}: {lobbies} lobby messages")
        for user in table.users:
            welcomes = sum("at your table" in m.text for m in fake.messages(user, from_bot=True))
            if welcomes != 1:
                found.append(f"{name}: {user.first_name} welcomed {welcomes} times")
        # the turn let run out timed out, once; another only if a press was that slow
        # timeouts shown together come as one message, a line each
        notices = sum(t.count(TIME_IS_UP) for t in texts)
        if table.timed_out < 1 or notices != table.timed_out:
            said = [t for t in texts if TIME_IS_UP in t]
            found.append(f"{name}: {table.timed_out} moves by the timer, notices {said}")
        if [t for t in texts if FAILURE in t]:
            found.append(f"{name}: a failure was shown")
        self.check_privacy(table, fake.mark())
        shown = [
            c
            for c in fake.calls()
            if c.method in ("sendMessage", "editMessageText")
            and table.seat_of_chat(int(c.params.get("chat_id", 0))) is not False
        ]
        assert table.messages_checked == len(shown)
        back = edited_back(fake, {table.group.id, *(u.id for u in table.users)})
        if back:
            found.append(f"{name}: edited back to an older state {back}")
        most, minute = most_in_a_minute(fake, table.group)
        if most > GROUP_MINUTE:
            found.append(f"{name}: {most} group messages in a minute: {minute}")
        return found

    def overtaken(self, table: Table, version: int) -> bool:
        """Some hand shows a state newer than ``version``: the stored game moved on."""
        for user in table.users:
            message = hand_message(self.fake, user)
            if message is not None and any(version_of(b) > version for b in message.buttons):
                return True
        return False

    def group_texts(self, table: Table) -> list[str]:
        return [m.text for m in self.fake.messages(table.group, from_bot=True)]

    async def let_run_out(self, table: Table) -> None:
        """Press nothing: the turn timer moves for the player, once."""
        before = sum(TIME_IS_UP in t for t in self.group_texts(table))
        await self.fake.wait_for(
            lambda: sum(TIME_IS_UP in t for t in self.group_texts(table)) > before,
            timeout=TURN_TIMER + 60,
            what=f"{table.game}: the turn timer",
        )

    async def kill_answering(
        self, victim: Replica, user: FakeUser, message: FakeMessage, button: Button
    ) -> None:
        """Have ``victim`` take the press, and kill it once it has saved the move and is
        answering: the press is delivered again to the others."""
        self.fake.webhook_targets = [victim.url]
        press = self.fake.callback_query(user, message, button.callback_data or "")
        gate = self.fake.hold(
            "answerCallbackQuery", count=1, when=lambda p: p.get("callback_query_id") == press.id
        )
        await gate.wait_arrived(timeout=60)
        await victim.kill()
        self.route()
        gate.drop()

    async def kill_showing(
        self, victim: Replica, user: FakeUser, message: FakeMessage, button: Button
    ) -> None:
        """Have ``victim`` take the press, and kill it while it shows the move."""
        self.fake.webhook_targets = [victim.url]
        gate = self.fake.hold("editMessageText", count=1)
        self.fake.callback_query(user, message, button.callback_data or "")
        await gate.wait_arrived(timeout=60)
        await victim.kill()
        self.route()
        gate.drop()

    def restart(self, replica: Replica) -> None:
        async def start() -> None:
            await serving(self.fake, [replica])
            self.route()

        task = asyncio.create_task(start())
        self.background.add(task)
        task.add_done_callback(self.background.discard)


def edited_back(fake: FakeTelegram, chats: set[int]) -> list[tuple[int, int, int, int]]:
    """Edits that showed a message's buttons at an older table version than it showed
    before: ``(chat, message, shown, then)``."""
    newest: dict[tuple[int, int], int] = {}
    back = []
    for call in fake.calls():
        if call.method not in ("editMessageText", "editMessageReplyMarkup") or not call.ok:
            continue
        chat = int(call.params.get("chat_id", 0))
        if chat not in chats:
            continue
        markup = json.dumps(call.params.get("reply_markup") or {})
        versions = [int(v) for v in re.findall(r'"a:\d+:(\d+):', markup)]
        if not versions:
            continue
        key = (chat, int(call.params["message_id"]))
        if key in newest and max(versions) < newest[key]:
            back.append((*key, newest[key], max(versions)))
        newest[key] = max(newest.get(key, 0), *versions)
    return back


def most_in_a_minute(fake: FakeTelegram, chat: FakeChat) -> tuple[int, list[str]]:
    """The most messages and edits the group got in a minute, by when Telegram got
    them, and those of the first such minute (each as its method and its second)."""
    calls = sorted(
        (c.at, c.method)
        for c in fake.calls()
        if c.method in COUNTED and c.ok and c.params.get("chat_id") == chat.id
    )
    most: list[tuple[float, str]] = []
    for i, (start, _) in enumerate(calls):
        minute = [call for call in calls[i:] if call[0] - start < 60]
        if len(minute) > len(most):
            most = minute
    return len(most), [f"{method} {at - most[0][0]:.2f}" for at, method in most]


async def run_scenario(fake: FakeTelegram, url: str, tmp_path: Path, ports: list[int]) -> None:
    clock = FastClock(tmp_path / "clock.json", speed=SPEED)
    fake.clock = clock
    replicas = [
        Replica(
            fake,
            f"replica-{i}",
            port,
            database_url=url,
            log=tmp_path / f"replica-{i}.log",
            seed=SEED,
            turn_timer=TURN_TIMER,
            clock=clock,
        )
        for i, port in enumerate(ports)
    ]
    db = create_async_engine(database_url(url))
    scenario = Scenario(fake, replicas, db)
    # every command, and every third press or other update, is delivered twice
    fake.deliver_twice = lambda update: "message" in update or update["update_id"] % 3 == 0
    try:
        await serving(fake, replicas)
        scenario.route()
        deberts = await scenario.open("deberts", ["Ann", "Ben"], deberts_choice, 25)
        thousand = await scenario.open("thousand", ["Cid", "Dan"], thousand_choice, 120)

        async def restarted(user: FakeUser, message: FakeMessage, button: Button) -> None:
            await scenario.kill_answering(replicas[0], user, message, button)
            scenario.restart(replicas[0])

        async def lost(user: FakeUser, message: FakeMessage, button: Button) -> None:
            await scenario.kill_showing(replicas[-1], user, message, button)

        scenario.hooks[("deberts", 9)] = restarted
        if len(replicas) > 1:
            scenario.hooks[("thousand", 60)] = lost
        await asyncio.gather(scenario.play(deberts), scenario.play(thousand))
        assert not scenario.hooks, "every replica was killed"
        assert replicas[0].starts == 2

        problems: list[str] = []
        for table in (deberts, thousand):
            _, stored = await scenario.stored(table)
            assert stored == canonical(table.mirror.to_json()), table.game
            # the final result may wait for the group's minute
            await fake.wait_for(
                lambda t=table: any(s.startswith("Game over.") for s in scenario.group_texts(t)),
                timeout=70,
                what=f"{table.game}: the final result",
            )
            await fake.wait_idle(timeout=30)
            problems += scenario.problems(table)
        assert not problems, problems
    finally:
        for task in list(scenario.background):
            task.cancel()
        for replica in replicas:
            await replica.stop()
        await db.dispose()
        fake.deliver_twice = None


async def test_one_replica_on_sqlite_loses_and_doubles_nothing(
    fake_telegram: FakeTelegram, tmp_path: Path, unused_tcp_port_factory: Callable[[], int]
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    await run_scenario(fake_telegram, url, tmp_path, [unused_tcp_port_factory()])


async def test_three_replicas_on_postgresql_lose_and_double_nothing(
    fake_telegram: FakeTelegram,
    postgres_url: str,
    tmp_path: Path,
    unused_tcp_port_factory: Callable[[], int],
) -> None:
    ports = [unused_tcp_port_factory() for _ in range(3)]
    await run_scenario(fake_telegram, postgres_url, tmp_path, ports)
