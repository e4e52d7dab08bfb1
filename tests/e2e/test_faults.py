"""Telegram misbehaving and the bot dying: a game goes on to the same end as an undisturbed one.

Players here choose deterministically from what they see (the hand message and its
legal buttons), so two runs with the same table seed play the same game exactly:
an accepted press lost on the way, a message not posted or a press applied twice
would show as a different result or scoresheet.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.bench.fake_telegram import FakeTelegram, Gate
from bot.bench.fake_telegram.models import Button, FakeChat, FakeMessage, FakeUser, PressHandle
from bot.tables import SHOW_AGAIN
from bot.telegram.sender import _MAX_ATTEMPTS as _SENDER_ATTEMPTS
from tests.e2e.fixtures import Launch
from tests.e2e.harness import (
    BotProcess,
    code_of,
    hand_message,
    newer_legal,
    texts,
    turn_ready,
    version_of,
    wait_turn,
)
from tests.e2e.process import ChildBot
from tests.e2e.test_games import seat_players

SEED = 3
MAX_PRESSES = 3000
NAMES = ["Ann", "Ben"]
_reference: list[str] = []

Fault = Callable[[FakeTelegram, int], None]


def next_press(
    fake: FakeTelegram, users: list[FakeUser], after: int
) -> tuple[FakeUser, FakeMessage, Button] | None:
    """Whoever has legal buttons newer than the state ``after``, and the one they pick:
    a function of what they see."""
    for user in users:
        message = hand_message(fake, user)
        if message is None:
            continue
        buttons = newer_legal(message, after)
        if buttons:
            seen = message.text + "|" + ",".join(code_of(b) for b in buttons)
            return user, message, buttons[zlib.crc32(seen.encode()) % len(buttons)]
    return None


class Turns:
    """The players of one table, pressing each new state's buttons once."""

    def __init__(self, fake: FakeTelegram, users: list[FakeUser]) -> None:
        self.fake = fake
        self.users = users
        self.version = -1

    async def next(self, wait: float = 10) -> tuple[FakeUser, FakeMessage, Button] | None:
        """The next press, once the state after the latest one is shown; ``None`` at the end."""
        await wait_turn(self.fake, self.users, self.version, timeout=wait)
        return next_press(self.fake, self.users, self.version)

    async def press(self, user: FakeUser, message: FakeMessage, button: Button) -> PressHandle:
        self.version = version_of(button)
        return await user.press(message, lambda b: b.callback_data == button.callback_data)


async def play_out(turns: Turns, fault: Fault | None = None, wait: float = 10) -> int:
    """Press until the game is over; every press must be answered, and never with an alert."""
    presses = 0
    while (found := await turns.next(wait)) is not None:
        assert presses < MAX_PRESSES
        if fault is not None:
            fault(turns.fake, presses)
        answer = await (await turns.press(*found)).answer(timeout=wait)
        assert not answer.show_alert, (found[2], answer)
        presses += 1
    return presses


def results(fake: FakeTelegram, group: FakeChat) -> list[str]:
    """Every deal result (with its scoresheet) and the final result, in order."""
    return [t for t in texts(fake, group) if "is over." in t or t.startswith("Game over.")]


async def reference(tmp_path: Path) -> list[str]:
    """The results of the same game with nothing going wrong (played once per worker)."""
    if not _reference:
        async with FakeTelegram() as fake:
            proc = BotProcess(fake, tmp_path / "reference.sqlite3", seed=SEED)
            await proc.start()
            try:
                group, users, _ = await seat_players(fake, "deberts", NAMES, target_301=True)
                await play_out(Turns(fake, users))
                _reference.extend(results(fake, group))
            finally:
                await proc.stop()
    assert _reference[-1].startswith("Game over.")
    assert sum("is over." in t for t in _reference) >= 2
    return _reference


async def faulty_game(fake: FakeTelegram, tmp_path: Path, fault: Fault) -> BotProcess:
    expected = await reference(tmp_path)
    proc = BotProcess(fake, tmp_path / "bot.sqlite3", seed=SEED)
    await proc.start()
    try:
        group, users, _ = await seat_players(fake, "deberts", NAMES, target_301=True)
        await play_out(Turns(fake, users), fault)
        assert results(fake, group) == expected
    finally:
        await proc.stop()  # a failed game stops its bot too, rather than leave it polling
    return proc


_ATTEMPTS = _SENDER_ATTEMPTS + 1
_METHODS = ("sendMessage", "editMessageText", "answerCallbackQuery", "deleteMessage")


async def test_429_answers_are_waited_out_and_the_game_ends_as_without_them(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    def fault(fake: FakeTelegram, n: int) -> None:
        if n % 3 == 0:
            # 7 s: longer than any wait of the bot's own between two edits of a message
            fake.fail_next(_METHODS[n // 3 % len(_METHODS)], 429, retry_after=7)

    proc = await faulty_game(fake_telegram, tmp_path, fault)
    refused = [c for c in fake_telegram.calls() if c.status == 429]
    assert {c.method for c in refused} >= {"sendMessage", "editMessageText", "answerCallbackQuery"}
    # each 429 cost its retry_after on the bot's clock, and nothing more
    assert proc.clock.waited.count(7) == len(refused)


async def test_server_errors_are_retried_and_the_game_ends_as_without_them(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    def fault(fake: FakeTelegram, n: int) -> None:
        if n % 3 == 1:
            status = (500, 502, 503, 504)[n // 3 % 4]
            fake.fail_next(_METHODS[n // 3 % len(_METHODS)], status)

    await faulty_game(fake_telegram, tmp_path, fault)
    failed = {c.method for c in fake_telegram.calls() if c.status is not None and c.status >= 500}
    assert failed >= {"sendMessage", "editMessageText", "answerCallbackQuery"}


async def test_slow_answers_only_slow_the_game_down(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    def fault(fake: FakeTelegram, n: int) -> None:
        if n % 5 == 2:
            fake.delay(_METHODS[n // 5 % len(_METHODS)], 0.3, count=1)

    await faulty_game(fake_telegram, tmp_path, fault)
    assert {c.method for c in fake_telegram.calls() if c.fault == "delay"} >= {
        "sendMessage",
        "editMessageText",
        "answerCallbackQuery",
    }


async def test_dropped_connections_are_retried_and_the_game_ends_as_without_them(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    def fault(fake: FakeTelegram, n: int) -> None:
        if n == 7:
            fake.drop_next("getUpdates")  # the bot's polling backs off and asks again
        elif n % 3 == 2:
            fake.drop_next(_METHODS[n // 3 % len(_METHODS)])

    await faulty_game(fake_telegram, tmp_path, fault)
    assert any(c.fault == "drop" for c in fake_telegram.calls("getUpdates"))
    assert {c.method for c in fake_telegram.calls() if c.fault == "drop"} >= {
        "sendMessage",
        "editMessageText",
        "answerCallbackQuery",
    }


async def test_an_outage_longer_than_the_senders_retries_is_shown_later_and_the_game_goes_on(
    fake_telegram: FakeTelegram, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    outage = _ATTEMPTS + 3  # every attempt at the next hand fails, and the first retries too

    def fault(fake: FakeTelegram, n: int) -> None:
        if n == 3:  # early in the first deal: no result is being posted
            # the hands' edits: the table's, edited later in its own time, are not shown again
            fake.fail_next(
                "editMessageText", 502, count=outage, when=lambda params: params["chat_id"] > 0
            )

    proc = await faulty_game(fake_telegram, tmp_path, fault)
    assert len([c for c in fake_telegram.calls("editMessageText") if c.fault]) == outage
    # shown again once, after the first pause (the group's minute has pauses of its own)
    again = [r for r in caplog.records if r.name == "bot.tables.showing"]
    assert [r.getMessage().endswith("it will be again") for r in again] == [True]
    assert SHOW_AGAIN[0] in proc.clock.waited


async def test_a_move_whose_answer_cannot_be_sent_is_shown_and_the_game_goes_on(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    def fault(fake: FakeTelegram, n: int) -> None:
        if n == 3:  # the press is saved, then every attempt at its answer fails
            fake.fail_next("answerCallbackQuery", 502, count=_ATTEMPTS)

    await faulty_game(fake_telegram, tmp_path, fault)
    assert len([c for c in fake_telegram.calls("answerCallbackQuery") if c.fault]) == _ATTEMPTS


@pytest.mark.parametrize(
    "shown_next",
    [
        # the publish that posts deal 1's result goes on to show deal 2
        "deal 2 ·",
        # the publish that posts 'Game over.' goes on to show the final table
        "🏆 Winner",
    ],
)
async def test_a_result_posted_before_an_outage_is_not_posted_again(
    fake_telegram: FakeTelegram, tmp_path: Path, shown_next: str
) -> None:
    fake_telegram.fail_next(
        "editMessageText",
        502,
        count=_ATTEMPTS,
        when=lambda params: shown_next in str(params.get("text")),
    )
    proc = await faulty_game(fake_telegram, tmp_path, lambda fake, n: None)
    assert len([c for c in fake_telegram.calls("editMessageText") if c.fault]) == _ATTEMPTS
    assert SHOW_AGAIN[0] in proc.clock.waited


async def test_a_result_telegram_refuses_is_left_out_and_the_game_goes_on(
    fake_telegram: FakeTelegram, tmp_path: Path, launch: Launch
) -> None:
    expected = await reference(tmp_path)
    proc = await launch(seed=SEED)
    group, users, _ = await seat_players(fake_telegram, "deberts", NAMES, target_301=True)
    fake_telegram.fail_next(
        "sendMessage",
        400,
        description="Bad Request: message is too long",
        when=lambda params: "Deal 1 is over." in str(params.get("text")),
    )
    await play_out(Turns(fake_telegram, users))
    assert [c.status for c in fake_telegram.calls("sendMessage") if c.fault] == [400]
    assert results(fake_telegram, group) == expected[1:]
    await proc.stop()


def _is_card(button: Button) -> bool:
    return code_of(button)[:1] == "c" and len(code_of(button)) == 3


async def test_a_bot_killed_in_the_auction_mid_trick_and_posting_a_result_ends_as_never_killed(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    fake = fake_telegram
    expected = await reference(tmp_path)
    # Played at a test's speed, the group gets more than its 20 messages a minute, and
    # each restarted bot would wait out the minute it finds used: not what this is about.
    settings = {"GROUP_MESSAGES_PER_MINUTE": "1000"}
    child = ChildBot(fake, tmp_path / "bot.sqlite3", seed=SEED, settings=settings)

    async def kill_while_held(gate: Gate) -> None:
        """The move is committed and its messages are on their way: the power goes."""
        await gate.wait_arrived(timeout=30)
        await child.kill()
        gate.drop()
        await child.start()
        await fake.wait_idle(timeout=30)

    async with child:
        group, users, _ = await seat_players(fake, "deberts", NAMES, target_301=True)
        turns = Turns(fake, users)
        # 1: the first press of the game is a bid
        found = await turns.next()
        assert found is not None
        assert not _is_card(found[2])
        gate = fake.hold("editMessageText", count=1)
        await turns.press(*found)
        await kill_while_held(gate)
        # 2: the first card led: the trick is half played
        while (found := await turns.next(30)) is not None and not _is_card(found[2]):
            answer = await (await turns.press(*found)).answer(timeout=30)
            assert not answer.show_alert
        assert found is not None
        gate = fake.hold("editMessageText", count=1)
        await turns.press(*found)
        await kill_while_held(gate)
        # 3: the last card of a deal is played and the deal result is being posted
        gate = fake.hold(
            "sendMessage", count=1, when=lambda params: "is over." in str(params.get("text"))
        )
        while True:
            await fake.wait_for(
                lambda: gate.arrived or turn_ready(fake, users, turns.version), timeout=30
            )
            if gate.arrived:
                break
            found = next_press(fake, users, turns.version)
            assert found is not None
            await turns.press(*found)
        await kill_while_held(gate)
        await play_out(turns, wait=30)
        assert results(fake, group) == expected
