"""A bot told to stop (SIGTERM: a deploy, ``docker stop``) loses no press it has taken.

Telegram forgets an update once the bot's next ``getUpdates`` confirms it, so a press
the bot took before the signal exists only in the stopping process.
"""

from __future__ import annotations

from pathlib import Path

from bot.bench.fake_telegram import FakeTelegram
from tests.bot.chats import group_of
from tests.e2e.harness import hand_message
from tests.e2e.process import ChildBot


async def test_a_press_taken_before_sigterm_is_answered_and_kept(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    fake = fake_telegram
    child = ChildBot(fake, tmp_path / "bot.sqlite3")
    async with child:
        group, (ann, ben) = await group_of(fake, "Ann", "Ben")
        await ann.send(group, "/new deberts")
        lobby = await fake.wait_for_message(group)
        # Ann's press holds the table while Telegram is slow with the lobby edit
        gate = fake.hold("editMessageText", count=1)
        await ann.press(lobby, "+ Hard bot")
        await gate.wait_arrived(timeout=30)
        join = await ben.press(lobby, "Join")
        await fake.wait_for(lambda: not fake.pending_updates, what="Ben's press confirmed")
        assert join.answered is None  # his Join waits for Ann's press
        child.terminate()
        # Telegram answers Ann's edit once the bot has stopped taking updates: while
        # it finishes the ones it took, or once it is gone
        await child.wait_logged("updates taken are being handled")
        gate.release()
        await child.stop()
        assert (await join.answer()).text == "You joined the table."

        mark = fake.mark()
        await child.start()
        await fake.wait_idle(timeout=30)
        again = [
            u["update_id"] for c in fake.calls("getUpdates", since=mark) for u in c.result or []
        ]
        assert join.update_id not in again
        await (await ann.press(lobby, "Start")).answer(timeout=30)
        await fake.wait_for(lambda: hand_message(fake, ben), what="Ben's hand", timeout=30)
