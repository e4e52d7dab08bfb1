"""The people and group chats the bot has met: who they are, the language each speaks,
whether their private chat is open."""

from __future__ import annotations

from bot.db.repo import PeopleRepo

__all__ = ["People"]


class People:
    """What the bot knows of people and group chats, for those outside the domain."""

    def __init__(self, repo: PeopleRepo) -> None:
        self.repo = repo

    async def seen(
        self, user_id: int, name: str, tg_lang: str | None, *, private: bool = False
    ) -> str | None:
        """An update came from the user (``private``: a message in their private chat,
        which the bot may write to from now on); the language they chose, else their
        Telegram one (as :meth:`user_lang`)."""
        return await self.repo.seen_user(user_id, name, tg_lang, private=private)

    async def blocked(self, user_id: int) -> None:
        """The user blocked the bot: their hands are skipped until they come back."""
        await self.repo.set_blocked(user_id)

    async def has_private(self, user_id: int) -> bool:
        """Whether the bot may write to the user in their private chat."""
        return await self.repo.has_private(user_id)

    async def user_lang(self, user_id: int) -> str | None:
        """The language the user chose, else their Telegram one."""
        return await self.repo.user_lang(user_id)

    async def user_langs(self, user_ids: list[int]) -> dict[int, str | None]:
        """:meth:`user_lang` of each of them, asked together."""
        return await self.repo.user_langs(user_ids)

    async def chat_lang(self, chat_id: int) -> str | None:
        """The language the group chose, if it did."""
        return await self.repo.chat_lang(chat_id)

    async def set_user_lang(self, user_id: int, lang: str) -> None:
        await self.repo.set_user_lang(user_id, lang)

    async def set_chat_lang(self, chat_id: int, lang: str) -> None:
        await self.repo.set_chat_lang(chat_id, lang)

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its language goes along."""
        await self.repo.move_chat(old_chat_id, new_chat_id)
