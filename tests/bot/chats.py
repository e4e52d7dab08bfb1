"""Who talks to the bot in the tests that drive it through the fake Bot API: people who
have opened their private chat with it, a group of them, and the menu a private /new
brings."""

from __future__ import annotations

from typing import Any

from bot.bench.fake_telegram import FakeTelegram
from bot.bench.fake_telegram.models import FakeChat, FakeMessage, FakeUser

__all__ = ["group_of", "person", "private_menu"]


async def person(fake: FakeTelegram, name: str, **user: Any) -> FakeUser:
    """``name`` (``user``: more of the user, e.g. ``language_code``), who has opened the
    private chat with the bot and had its welcome."""
    added = fake.add_user(name, **user)
    await added.start_private()
    await fake.wait_for_message(added)
    return added


async def group_of(
    fake: FakeTelegram,
    *names: str,
    started: bool = True,
    supergroup: bool = False,
    admins: tuple[FakeUser, ...] = (),
) -> tuple[FakeChat, list[FakeUser]]:
    """A group "Cards" of ``names`` (its first member owns it, unless ``admins`` are
    given); ``started``: each has opened the private chat with the bot."""
    users = [fake.add_user(n) for n in names]
    group = fake.add_group("Cards", members=users, admins=admins, supergroup=supergroup)
    if started:
        for user in users:
            await user.start_private()
            await fake.wait_for_message(user)
    return group, users


async def private_menu(fake: FakeTelegram, user: FakeUser, command: str = "/new") -> FakeMessage:
    """The menu the bot answers ``command`` with in ``user``'s private chat (its first
    message with buttons since)."""
    mark = fake.mark()
    await user.send(user.id, command)
    return await fake.wait_for_message(user, lambda m: bool(m.buttons), since=mark)
