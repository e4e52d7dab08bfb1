"""The number of updates handled at once follows the load of the bot's thread."""

from __future__ import annotations

import pytest

from bot.telegram.intake import BUSY, SPARE, WINDOW, Intake


class Thread:
    """A clock and the thread's CPU time, moved by hand a window at a time."""

    def __init__(self) -> None:
        self.now = 0.0
        self.used = 0.0

    def window(self, load: float) -> None:
        self.now += WINDOW
        self.used += WINDOW * load


def intake(base: int = 12, most: int = 200) -> tuple[Intake, Thread]:
    thread = Thread()
    return Intake(base, most=most, cpu=lambda: thread.used, clock=lambda: thread.now), thread


def run(subject: Intake, thread: Thread, load: float, *, windows: int, backlog: bool) -> None:
    for _ in range(windows):
        thread.window(load)
        subject.polled(10, 10 if backlog else 3)


def test_it_grows_while_telegram_has_updates_waiting_and_the_thread_has_time_to_spare() -> None:
    subject, thread = intake()
    seen = [subject.limit]
    for _ in range(40):
        run(subject, thread, 0.2, windows=1, backlog=True)
        seen.append(subject.limit)
    assert seen == sorted(seen)
    assert seen[1] > seen[0] == 12
    assert seen[-1] == 200  # and no further
    # by an eighth each time: from 12 to 200 in seconds, not minutes
    assert seen.index(200) * WINDOW < 15


def test_it_holds_without_a_backlog() -> None:
    subject, thread = intake()
    run(subject, thread, 0.1, windows=20, backlog=False)
    assert subject.limit == 12


def test_it_shrinks_to_the_base_once_the_thread_is_busy_and_never_below() -> None:
    subject, thread = intake()
    run(subject, thread, 0.2, windows=20, backlog=True)
    grown = subject.limit
    assert grown > 40
    run(subject, thread, 0.95, windows=6, backlog=True)
    assert 12 < subject.limit < grown
    run(subject, thread, 0.95, windows=60, backlog=True)
    assert subject.limit == 12


@pytest.mark.parametrize("load", [SPARE + 0.05, (SPARE + BUSY) / 2, BUSY - 0.05])
def test_between_spare_and_busy_it_holds(load: float) -> None:
    subject, thread = intake()
    run(subject, thread, 0.2, windows=10, backlog=True)
    run(subject, thread, load, windows=20, backlog=True)  # the smoothed load gets there
    grown = subject.limit
    assert grown > 12
    run(subject, thread, load, windows=40, backlog=True)
    assert subject.limit == grown
    assert subject.load == pytest.approx(load, abs=0.01)


def test_one_quiet_window_does_not_make_a_busy_thread_look_idle() -> None:
    subject, thread = intake()
    run(subject, thread, 0.95, windows=20, backlog=True)
    run(subject, thread, 0.0, windows=1, backlog=True)
    assert subject.limit == 12
    assert subject.load > SPARE


def test_polls_within_a_window_move_nothing() -> None:
    subject, thread = intake()
    for _ in range(50):
        thread.now += WINDOW / 100
        subject.polled(10, 10)
    assert subject.limit == 12
    thread.now += WINDOW
    subject.polled(10, 10)
    assert subject.limit > 12  # the backlog seen in the window counts


def test_the_base_is_checked() -> None:
    with pytest.raises(ValueError, match="base"):
        Intake(0)
    with pytest.raises(ValueError, match="base"):
        Intake(20, most=10)


def test_it_is_strained_while_busy_with_updates_waiting_and_until_it_keeps_up() -> None:
    subject, thread = intake()
    run(subject, thread, 0.95, windows=20, backlog=False)
    assert not subject.strained  # busy, but Telegram holds nothing back: it keeps up
    run(subject, thread, 0.95, windows=1, backlog=True)
    assert subject.strained
    # shedding work brings the load down; between spare and busy the state holds
    run(subject, thread, (SPARE + BUSY) / 2, windows=20, backlog=True)
    assert subject.strained
    run(subject, thread, (SPARE + BUSY) / 2, windows=1, backlog=False)
    assert not subject.strained  # nothing waits any more
    run(subject, thread, (SPARE + BUSY) / 2, windows=20, backlog=True)
    assert not subject.strained  # and coming back takes a busy thread
    run(subject, thread, 0.95, windows=20, backlog=True)
    assert subject.strained
    run(subject, thread, 0.1, windows=20, backlog=True)
    assert not subject.strained  # the load fell below spare: the backlog is being taken
