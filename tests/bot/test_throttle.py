"""Edits of one message: at once at the pace of people, coalesced when they come faster."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.telegram.throttle import EditThrottle
from tests.e2e.harness import ManualClock


class Recorder:
    """Stands in for the Sender: records edits; a message in ``gone`` cannot be edited."""

    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        self.sleep = clock.sleep
        self.edits: list[tuple[int, int, str]] = []
        self.gone: set[tuple[int, int]] = set()

    def slot_wait(self, chat_id: int, *, routine: bool = False) -> float:
        return 0.0  # no chat limit here: the Sender's own tests cover it

    async def edit(
        self, chat_id: int, message_id: int, text: str, markup: Any = None, *, routine: bool = False
    ) -> bool:
        if (chat_id, message_id) in self.gone:
            return False
        self.edits.append((chat_id, message_id, text))
        return True


def make(
    on_lost: Callable[[int, int], Awaitable[None]] | None = None,
) -> tuple[EditThrottle, Recorder, ManualClock]:
    clock = ManualClock()
    sender = Recorder(clock)
    return EditThrottle(sender, on_lost=on_lost), sender, clock  # type: ignore[arg-type]


async def advance(clock: ManualClock, throttle: EditThrottle, seconds: float) -> None:
    await asyncio.sleep(0)  # the waiting tasks start their sleeps
    clock.advance(seconds)
    async with asyncio.timeout(5):
        await throttle.settle()


async def test_edits_at_the_pace_of_people_go_out_at_once() -> None:
    throttle, sender, clock = make()
    for n in range(3):
        assert await throttle.edit(1, 10, f"state {n}", None, interval=1.0)
        clock.advance(1.5)
    assert [text for *_, text in sender.edits] == ["state 0", "state 1", "state 2"]


async def test_fast_edits_are_coalesced_into_the_latest_one_when_the_interval_is_up() -> None:
    throttle, sender, clock = make()
    await throttle.edit(1, 10, "first", None, interval=3.0)
    clock.advance(0.5)
    await throttle.edit(1, 10, "second", None, interval=3.0)
    await throttle.edit(1, 10, "third", None, interval=3.0)
    await asyncio.sleep(0)
    assert [text for *_, text in sender.edits] == ["first"]
    await advance(clock, throttle, 2.5)
    assert [text for *_, text in sender.edits] == ["first", "third"]


async def test_an_edit_that_must_not_wait_supersedes_the_waiting_one() -> None:
    throttle, sender, clock = make()
    await throttle.edit(1, 10, "old", None, interval=1.0)
    await throttle.edit(1, 10, "waiting", None, interval=1.0)
    await throttle.edit(1, 10, "your turn", None, interval=0)
    await advance(clock, throttle, 5)
    # the waiting content is older than what was sent: it never goes out
    assert [text for *_, text in sender.edits] == ["old", "your turn"]


async def test_a_waiting_edit_counts_its_interval_from_an_edit_that_did_not_wait() -> None:
    # a hand: shown at its owner's turn, played from, their turn again, played from
    throttle, sender, clock = make()
    for text, interval, then in [
        ("turn 1", 0.0, 0.5),
        ("played 1", 2.0, 1.0),
        ("turn 2", 0.0, 0.5),
        ("played 2", 2.0, 0.5),  # now 2 s after "turn 1", only 0.5 s after "turn 2"
    ]:
        await throttle.edit(1, 10, text, None, interval=interval)
        await asyncio.sleep(0)  # a delayed edit starts waiting
        clock.advance(then)
    for _ in range(5):
        await asyncio.sleep(0)
    assert [text for *_, text in sender.edits] == ["turn 1", "turn 2"]
    await advance(clock, throttle, 1.0)
    assert [text for *_, text in sender.edits] == ["turn 1", "turn 2", "played 2"]


async def test_a_message_just_sent_is_edited_once_its_interval_is_up() -> None:
    # a group's table sent anew as a deal starts: the moves right after it are one edit
    throttle, sender, clock = make()
    throttle.sent(-1, 20)
    clock.advance(1.0)
    await throttle.edit(-1, 20, "first bid", None, interval=4.0)
    clock.advance(1.0)
    await throttle.edit(-1, 20, "second bid", None, interval=4.0)
    await asyncio.sleep(0)
    assert sender.edits == []
    await advance(clock, throttle, 2.0)
    assert [text for *_, text in sender.edits] == ["second bid"]
    # one that must not wait does not
    throttle.sent(1, 30)
    await throttle.edit(1, 30, "your turn", None, interval=0)
    assert sender.edits[-1] == (1, 30, "your turn")


async def test_other_messages_are_not_held_up() -> None:
    throttle, sender, _ = make()
    await throttle.edit(1, 10, "a", None, interval=3.0)
    await throttle.edit(1, 11, "b", None, interval=3.0)
    await throttle.edit(2, 10, "c", None, interval=3.0)
    assert len(sender.edits) == 3


async def test_a_forgotten_message_gets_no_late_edit() -> None:
    throttle, sender, clock = make()
    await throttle.edit(1, 10, "shown", None, interval=1.0)
    await throttle.edit(1, 10, "late", None, interval=1.0)
    throttle.forget(1, 10)
    await advance(clock, throttle, 5)
    assert [text for *_, text in sender.edits] == ["shown"]


async def test_forgotten_messages_leave_no_locks_behind() -> None:
    # a bot up for days edits and then deletes ever new messages: hands, reminders
    throttle, _, clock = make()
    for n in range(3):
        await throttle.edit(1, 10 + n, "hand", None, interval=0)
        await throttle.edit(1, 10 + n, "late", None, interval=1.0)
        throttle.forget(1, 10 + n)
        clock.advance(0.5)
    await advance(clock, throttle, 5)
    assert not throttle._locks


async def test_an_edit_under_way_when_its_message_is_forgotten_is_not_overtaken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    throttle, sender, _ = make()
    slot = asyncio.Event()
    real = sender.edit

    async def waits_for_a_slot(
        chat_id: int, message_id: int, text: str, markup: Any = None, *, routine: bool = False
    ) -> bool:
        if text != "second":  # it would find a slot at once
            await slot.wait()
        return await real(chat_id, message_id, text, markup, routine=routine)

    monkeypatch.setattr(sender, "edit", waits_for_a_slot)
    first = asyncio.create_task(throttle.edit(1, 10, "first", None, interval=0))
    await asyncio.sleep(0)  # it holds the message's lock, waiting for a slot
    throttle.forget(1, 10)
    second = asyncio.create_task(throttle.edit(1, 10, "second", None, interval=0))
    for _ in range(5):
        await asyncio.sleep(0)
    slot.set()
    async with asyncio.timeout(5):
        await asyncio.gather(first, second)
    assert [text for *_, text in sender.edits] == ["first", "second"]

    # forgotten while the last edit holds it, the lock goes when that edit is done
    slot.clear()
    last = asyncio.create_task(throttle.edit(1, 10, "last", None, interval=0))
    await asyncio.sleep(0)
    throttle.forget(1, 10)
    assert throttle._locks
    slot.set()
    async with asyncio.timeout(5):
        await last
    assert not throttle._locks


async def test_a_late_edit_of_a_message_gone_meanwhile_reports_it() -> None:
    lost: list[tuple[int, int]] = []

    async def on_lost(chat_id: int, message_id: int) -> None:
        lost.append((chat_id, message_id))

    throttle, sender, clock = make(on_lost)
    await throttle.edit(-5, 10, "shown", None, interval=3.0)
    await throttle.edit(-5, 10, "late", None, interval=3.0)
    sender.gone.add((-5, 10))
    await advance(clock, throttle, 3)
    assert lost == [(-5, 10)]


async def test_close_drops_what_waits() -> None:
    throttle, sender, clock = make()
    await throttle.edit(1, 10, "shown", None, interval=1.0)
    await throttle.edit(1, 10, "late", None, interval=1.0)
    await throttle.close()
    clock.advance(5)
    await asyncio.sleep(0)
    assert [text for *_, text in sender.edits] == ["shown"]
