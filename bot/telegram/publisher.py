"""Shows a table's state in Telegram: the lobby or table message, private hands, results,
notices (the domain's :class:`~bot.tables.ports.Presenter`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, Protocol

from aiogram.exceptions import TelegramAPIError, TelegramBadRequest
from aiogram.utils.i18n import I18n

from bot.bounded import keep
from bot.db.models import Seat, TableRecord, TableStatus
from bot.engine import game_class
from bot.engine.base import Game, ScoreRow, Scoresheet
from bot.engine.views import final_trick
from bot.i18n import Translator, pick_locale
from bot.render import history, notices, scores, table
from bot.render import lobby as lobby_render
from bot.render.outcomes import message_link
from bot.tables.autoplay import forced_card
from bot.tables.notices import Notice
from bot.tables.people import People
from bot.tables.ports import Unreachable
from bot.tables.rules import MIN_SEATS
from bot.telegram.rates import (
    GROUP_EDIT_INTERVAL,
    HAND_EDIT_INTERVAL,
    NOTIFY_AFTER,
    RESEND_HAND_AFTER,
    STRAINED_HAND_EDIT_INTERVAL,
)
from bot.telegram.sender import OUT_OF_REACH, Markup, Sender
from bot.telegram.throttle import EditThrottle, Shows

__all__ = ["Publisher"]

log = logging.getLogger(__name__)


_KEEP_RESENT = 4096
"""Players whose last resend is remembered, beyond the tables that end and forget theirs."""


def _last_result(record: TableRecord, game: Game) -> ScoreRow | None:
    """The last deal scored, for the hands of a group's table: a player who does not
    open the group still learns each result and the score. (A private game posts them
    in the same chat.)"""
    return None if record.solo else game.last_row()


class Claims(Protocol):
    """Results claimed by the process that posts them (:class:`~bot.db.posts.Posts`)."""

    async def claim(self, table_id: int, row_no: int) -> bool: ...

    async def done(self, table_id: int, row_no: int) -> None: ...

    async def give_back(self, table_id: int, row_no: int) -> None: ...

    async def deal_table(self, table_id: int, deal_no: int) -> bool: ...


class Versions(Protocol):
    """The table's version each message shows (:class:`~bot.db.shown.ShownVersions`)."""

    async def show(self, chat_id: int, message_id: int, table_id: int, version: int) -> bool: ...

    def showing(
        self, chat_id: int, message_id: int, table_id: int, version: int
    ) -> AbstractAsyncContextManager[bool]: ...

    async def shown_at(self, chat_id: int, message_id: int) -> float | None: ...


def _shows(record: TableRecord) -> Shows:
    return (record.id, record.version)


class Publisher:
    """``on_shown`` stores where a table's messages are, called as soon as one is sent
    anew (before the old one goes), so a crash leaves no live buttons nobody knows of;
    ``on_lost`` is called with ``(chat_id, message_id)`` when an edit held back finds its
    message gone; ``posts`` has each deal result and game end claimed before it is
    posted, so that processes sharing the database post it once; ``versions``, when
    they share it, keeps each table and hand message from going back to an older state
    of its table than one another process showed there (see :class:`EditThrottle`);
    ``stored`` reads a table's record as stored now, when other processes share the
    database: a message found gone may have been sent anew by one of them; ``strained``
    says whether the bot is overloaded now (:class:`~bot.telegram.strain.Strain`): the
    hands of players waiting for their turn are then edited less often."""

    def __init__(
        self,
        sender: Sender,
        people: People,
        i18n: I18n,
        *,
        on_shown: Callable[[TableRecord], Awaitable[None]],
        on_lost: Callable[[int, int], Awaitable[None]] | None = None,
        posts: Claims | None = None,
        versions: Versions | None = None,
        stored: Callable[[int], Awaitable[TableRecord | None]] | None = None,
        strained: Callable[[], bool] | None = None,
    ) -> None:
        self.sender = sender
        self.strained = strained
        self.stored = stored
        self.posts = posts
        self.versions = versions
        self.people = people
        self.i18n = i18n
        self.on_shown = on_shown
        self.throttle = EditThrottle(
            sender, on_lost=on_lost, guard=None if versions is None else versions.showing
        )
        self._hand_shown: dict[tuple[int, int], tuple[object, ...]] = {}
        self._turn_at: dict[tuple[int, int], float] = {}
        """Per table and player, when they were last called to it: their turn began, or
        their hand came as a new message (Telegram notified them of either)."""
        self._unreachable: set[tuple[int, int]] = set()
        self._hand_resent: dict[tuple[int, int], float] = {}
        """Per table and player, when a press last had their hand message sent anew."""
        self._deal_shown: dict[int, int] = {}
        """Per table, the deal (counting redeals) its table message shows."""

    def tr(self, locale: str) -> Translator:
        return Translator(self.i18n, locale)

    async def user_tr(self, user_id: int, fallback: str) -> Translator:
        lang = await self.people.user_lang(user_id)
        return self.tr(pick_locale(lang, default=fallback))

    async def seat_trs(self, record: TableRecord) -> dict[int, Translator]:
        """Each player's translator, their languages asked together."""
        ids = [seat.user_id for seat in record.seats if seat.user_id is not None]
        langs = await self.people.user_langs(ids)
        return {uid: self.tr(pick_locale(langs.get(uid), default=record.lang)) for uid in ids}

    async def lobby(
        self,
        record: TableRecord,
        *,
        settings: dict[str, tuple[Any, ...]] | None = None,
    ) -> None:
        """The lobby message, with the settings keyboard when ``settings`` are given."""
        tr = self.tr(record.lang)
        if record.status == TableStatus.CANCELLED:
            text = notices.cancelled_text(None, tr)
            markup = None
        else:
            explain = settings is not None
            most = game_class(record.game).max_seats
            text = lobby_render.lobby_text(record, tr, MIN_SEATS, most, explain=explain)
            markup = (
                lobby_render.settings_keyboard(record, settings, tr)
                if settings is not None
                else lobby_render.lobby_keyboard(record, tr, max_seats=most)
            )
        # through the throttle at once, so a group that used its minute does not keep
        # the press waiting: the lobby catches up when a slot frees
        record.table_msg_id = await self.show(
            record.chat_id, record.table_msg_id, text, markup, shows=_shows(record)
        )
        record.chat_id = self.sender.moved.get(record.chat_id, record.chat_id)

    def is_last(self, chat_id: int, message_id: int | None) -> bool:
        """Whether ``message_id`` is the newest message the bot sent to the group."""
        chat_id = self.sender.moved.get(chat_id, chat_id)
        return message_id is not None and self.sender.last_sent.get(chat_id) == message_id

    def lobby_over(self, record: TableRecord) -> None:
        """The game replaces the lobby: a lobby edit still waiting is dropped, and the
        table's first state goes out at once, not an interval after the last lobby edit."""
        if record.table_msg_id is not None:
            self.throttle.forget(record.chat_id, record.table_msg_id)

    async def game(
        self,
        record: TableRecord,
        game: Game,
        *,
        rows_before: int,
        to_act_before: int | None,
        notices: Sequence[Notice] = (),
    ) -> None:
        """Everything a change of state shows: deal results, the table, the hands.

        New messages go below the live ones, so after a deal result the table and
        hand messages in that chat are sent again (the old ones deleted) to stay last.
        Raises :class:`~bot.tables.ports.Unreachable` when Telegram stays out of reach.
        """
        try:
            await self._game(record, game, rows_before, to_act_before, notices)
        except OUT_OF_REACH as error:
            raise Unreachable(str(error)) from error

    async def _game(
        self,
        record: TableRecord,
        game: Game,
        rows_before: int,
        to_act_before: int | None,
        told: Sequence[Notice],
    ) -> None:
        names = record.names()
        tr = self.tr(record.lang)
        moved: set[int] = set()
        # the end of the game is posted as if it were one more row of the scoresheet
        end_due = game.is_over and rows_before <= game.rows_scored
        if game.rows_scored > rows_before or end_due:
            sheet = game.scoresheet()
            last_deal = game.view(None)["last_deal"]
            for posted, row in enumerate(sheet.rows[rows_before:], start=rows_before + 1):
                last_trick = (
                    final_trick(last_deal)
                    if last_deal is not None and last_deal["deal_no"] == row.deal_no
                    else None
                )
                text = scores.deal_result_text(row, sheet, names, tr, last_trick=last_trick)
                keyboard = history.deal_keyboard(record.id, row.deal_no, tr)
                async with self._claimed(record.id, posted - 1) as mine:
                    if mine:
                        await self._post(record.chat_id, text, keyboard)
                        moved.add(record.chat_id)
                record.unposted_from = posted  # should what follows fail, not posted again
            if end_due:
                async with self._claimed(record.id, game.rows_scored) as mine:
                    if mine:
                        # the picture goes first: the result and its button stay last, in view
                        await self._post_picture(record, sheet, names, tr)
                        final = scores.final_text(sheet, names, tr)
                        again = table.again_keyboard(record.id, tr)
                        await self._post(record.chat_id, final, again)
                        moved.add(record.chat_id)
                record.unposted_from = game.rows_scored + 1
        notice = notices.notices_text(told, tr)
        if notice:
            await self._post(record.chat_id, notice)
            moved.add(record.chat_id)
        to_act = game.current_seat()
        # a hand a bot plays for its away owner is kept up to date too, to come back to
        humans = record.humans() + [
            (i, s) for i, s in enumerate(record.seats) if s.away and s.user_id
        ]
        # the player to act next waits for their hand: in a group it goes first
        first = [] if record.solo else [(s, p) for s, p in humans if s == to_act]
        trs = await self.seat_trs(record) if humans else {}
        for seat, person in first:
            await self._seat_hand(record, game, seat, person, names, moved, to_act_before, trs)
        # A private game's table follows the results down, so it stays in view. In a
        # group it comes anew (the old one deleted) at the start of each deal, if other
        # messages came below it: a send instead of an edit, the same in the group's
        # minute; within a deal it is edited in place.
        new_deal = self._deal_shown.get(record.id) != game.deal_no
        keep(self._deal_shown, record.id, game.deal_no, _KEEP_RESENT)
        if record.solo:
            resend = record.chat_id in moved
        else:
            resend = (
                new_deal
                and await self._deal_table(record, game)
                and not self.is_last(record.chat_id, record.table_msg_id)
            )
        await self._table(record, game, names, tr, resend=resend)
        for seat, person in humans:
            if (seat, person) not in first:
                await self._seat_hand(record, game, seat, person, names, moved, to_act_before, trs)
        for person in record.seats:
            if person.is_bot and person.user_id is not None:
                # a bot plays this person's seat now (they left or are away)
                await self._drop_reminder(record, person.user_id)
        if game.is_over:
            await self.forget(record)

    async def _deal_table(self, record: TableRecord, game: Game) -> bool:
        """Whether this process decides where the table message of the deal now played
        goes (the first to show the deal does, see :meth:`Claims.deal_table`)."""
        if self.posts is None or self.versions is None or game.is_over:
            return not game.is_over  # one process alone decides for itself
        return await self.posts.deal_table(record.id, game.deal_no)

    @asynccontextmanager
    async def _claimed(self, table_id: int, row_no: int) -> AsyncIterator[bool]:
        """Whether this process is to post the table's scoresheet row ``row_no`` (the
        number of rows: the end of the game), claimed for the block; a block that
        raises gives the claim back, so the row is posted when shown again."""
        if self.posts is None:
            yield True
            return
        mine = await self.posts.claim(table_id, row_no)
        if not mine:
            log.info("table %s: row %s is posted by another process", table_id, row_no)
        try:
            yield mine
        except BaseException:
            if mine:
                await self.posts.give_back(table_id, row_no)
            raise
        if mine:
            await self.posts.done(table_id, row_no)

    async def forget(self, record: TableRecord) -> None:
        """The table is over: what was kept about its players' hands goes, and so do the
        reminders still in their chats."""
        self._deal_shown.pop(record.id, None)
        for seat in record.seats:
            if seat.user_id is None:
                continue
            key = (record.id, seat.user_id)
            self._hand_shown.pop(key, None)
            self._turn_at.pop(key, None)
            self._unreachable.discard(key)
            self._hand_resent.pop(key, None)
            await self._drop_reminder(record, seat.user_id)

    async def _drop_reminder(self, record: TableRecord, user_id: int) -> None:
        message_id = record.reminders.pop(user_id, None)
        if message_id is not None:
            await self.on_shown(record)
            await self.delete(user_id, message_id)

    async def _post_picture(
        self, record: TableRecord, sheet: Scoresheet, names: list[str], tr: Translator
    ) -> None:
        """The score over the deals, as a picture just above the final result."""
        target = int(
            record.conventions.get("target") or (1000 if sheet.game == "thousand" else 501)
        )
        png = await asyncio.to_thread(history.score_picture, sheet, names, target, tr)
        try:
            await self.sender.send_file(record.chat_id, "photo", "score.png", png)
        except TelegramBadRequest:
            log.exception("chat %s refused the score picture", record.chat_id)

    async def _post(self, chat_id: int, text: str, markup: Markup | None = None) -> None:
        """A result or notice for the table's chat. One Telegram refuses for good is logged
        and left out: the table and the hands after it are what lets the game go on."""
        try:
            await self.sender.send(chat_id, text, markup)
        except TelegramBadRequest:
            log.exception("chat %s refused a message; the game goes on without it", chat_id)

    async def _seat_hand(
        self,
        record: TableRecord,
        game: Game,
        seat: int,
        person: Seat,
        names: list[str],
        moved: set[int],
        to_act_before: int | None,
        trs: dict[int, Translator],
    ) -> None:
        """``trs``: the players' translators."""
        assert person.user_id is not None
        to_act = game.current_seat()
        cache_key = (record.id, person.user_id)
        # A reminder is out of date once its turn is over or a new turn of the same seat
        # has started (a move starts the time again and sets ``remind_at``); a restart or
        # someone else leaving keeps the running turn, and its reminder stays.
        if to_act != seat or record.remind_at is not None or record.deadline is None:
            await self._drop_reminder(record, person.user_id)
        user_tr = trs[person.user_id]
        view = game.view(seat, brief=True)
        forced = to_act == seat and forced_card(record, game) is not None
        text = table.hand_text(
            view,
            names,
            user_tr,
            table_above=record.solo,
            away=person.away,
            result=_last_result(record, game),
            plays_itself=forced,
        )
        # a game's last state stays above its result, whose button is to stay in view
        resend = person.user_id in moved and not game.is_over
        # a card that plays itself needs no message of its own to call its player
        if to_act == seat and to_act_before != seat and not record.solo and not forced:
            now = self.sender.clock()
            last = self._turn_at.get(cache_key)
            self._turn_at[cache_key] = now
            if not resend and (last is None or now - last >= NOTIFY_AFTER):
                resend = not await self._shown_lately(record, person.user_id, now)
        # A waiting player's hand message changes only when their own situation does;
        # the live trick is on the table message.
        key = (text, tuple(view.get("legal") or ()), game.is_over)
        if to_act != seat and not resend and self._hand_shown.get(cache_key) == key:
            return
        self._hand_shown[cache_key] = key
        markup: Markup | None
        if game.is_over:
            markup = None
        elif person.away:
            markup = table.away_keyboard(record.id, record.version, user_tr)
        else:
            markup = table.hand_keyboard(record.id, record.version, view, names, user_tr)
        await self._hand(record, person.user_id, text, markup, resend=resend, urgent=to_act == seat)
        await self._reachable(record, person.user_id, person.name)

    async def _shown_lately(self, record: TableRecord, user_id: int, now: float) -> bool:
        """Whether another process sharing the database sent or edited the player's hand
        message in the last :data:`NOTIFY_AFTER` seconds (it called them, or showed their
        own move): they are at the table, and their turn needs no new message to call
        them. This process knows only the turns it showed."""
        message_id = record.hand_msgs.get(user_id)
        if self.versions is None or message_id is None:
            return False
        shown_at = await self.versions.shown_at(user_id, message_id)
        return shown_at is not None and now - shown_at < NOTIFY_AFTER

    def hand_waits(self, record: TableRecord, user_id: int) -> bool:
        """Whether the hand of a player now waiting for their turn would be edited
        later, not at once: a move they just made does not show there yet."""
        message_id = record.hand_msgs.get(user_id)
        return message_id is not None and self.throttle.holds(
            user_id, message_id, self._hand_interval()
        )

    def _hand_interval(self) -> float:
        """Seconds between edits of a waiting player's hand, as the bot's load allows."""
        if self.strained is not None and self.strained():
            return STRAINED_HAND_EDIT_INTERVAL
        return HAND_EDIT_INTERVAL

    def may_resend_hand(self, table_id: int, user_id: int) -> bool:
        """Whether a press may have the player's hand message sent anew (once a while)."""
        now = self.sender.clock()
        key = (table_id, user_id)
        last = self._hand_resent.get(key)
        if last is not None and now - last < RESEND_HAND_AFTER:
            return False
        keep(self._hand_resent, key, now, _KEEP_RESENT)
        return True

    async def hand(self, record: TableRecord, game: Game, seat: int, *, resend: bool) -> None:
        """One player's hand message alone, e.g. once they can be written to again."""
        user_id = record.seats[seat].user_id
        assert user_id is not None
        names = record.names()
        user_tr = await self.user_tr(user_id, record.lang)
        view = game.view(seat, brief=True)
        markup = (
            None
            if game.is_over
            else table.hand_keyboard(record.id, record.version, view, names, user_tr)
        )
        self._hand_shown.pop((record.id, user_id), None)
        await self._hand(
            record,
            user_id,
            table.hand_text(
                view, names, user_tr, table_above=record.solo, result=_last_result(record, game)
            ),
            markup,
            resend=resend,
        )
        await self._reachable(record, user_id, record.seats[seat].name)

    async def remind(self, record: TableRecord, user_id: int, seconds_left: int) -> None:
        """The player's turn is running out: a new message, as Telegram notifies of those
        (an edit it does not). It goes once the turn is over, so slow turns leave no trail."""
        user_tr = await self.user_tr(user_id, record.lang)
        message_id = await self.sender.send(user_id, notices.reminder_text(seconds_left, user_tr))
        if message_id is not None:
            record.reminders[user_id] = message_id
            await self.on_shown(record)

    async def _reachable(self, record: TableRecord, user_id: int, name: str) -> None:
        """Tell the group, once, how a player who cannot get their cards gets them back."""
        key = (record.id, user_id)
        if user_id in record.hand_msgs:
            self._unreachable.discard(key)
            return
        if record.solo or key in self._unreachable:
            return
        self._unreachable.add(key)
        tr = self.tr(record.lang)
        text = notices.unreachable_text(name, await self._username(), record.turn_timer > 0, tr)
        await self.sender.send(record.chat_id, text)

    async def _username(self) -> str:
        """The bot's username (aiogram asks Telegram once and keeps it)."""
        return (await self.sender.bot.me()).username or ""

    async def _table(
        self, record: TableRecord, game: Game, names: list[str], tr: Translator, *, resend: bool
    ) -> None:
        # in a group the table tells where the cards are, and opens that chat
        bot = "" if record.solo else await self._username()
        text = table.table_text(game.view(None, brief=True), names, tr, cards_with=bot)
        markup = (
            None
            if game.is_over
            else table.table_keyboard(record.id, record.version, tr, cards_with=bot)
        )
        old = record.table_msg_id
        shows = _shows(record)
        if resend and not game.is_over:
            record.table_msg_id = await self._send(record.chat_id, text, markup, shows)
            if old is not None and record.table_msg_id is not None:
                await self.on_shown(record)
                await self.delete(record.chat_id, old)
        else:
            # a game's last state goes out at once; a private chat has no group rationing
            interval = 0 if record.solo or game.is_over else GROUP_EDIT_INTERVAL
            if old is None or not await self.throttle.edit(
                record.chat_id, old, text, markup, interval=interval, shows=shows
            ):
                record.table_msg_id = await self._anew(
                    record, record.chat_id, old, None, text, markup
                )
        record.chat_id = self.sender.moved.get(record.chat_id, record.chat_id)

    async def _send(
        self, chat_id: int, text: str, markup: Markup | None, shows: Shows | None = None
    ) -> int | None:
        """A table or hand message sent anew: its edits are paced from now, as after an
        edit (the first move after a deal starts does not edit it at once); what it
        shows (``shows``) is written for it, so that an older edit made elsewhere is
        left out."""
        message_id = await self.sender.send(chat_id, text, markup)
        if message_id is not None:
            chat_id = self.sender.moved.get(chat_id, chat_id)
            self.throttle.sent(chat_id, message_id)
            if shows is not None and self.versions is not None:
                await self.versions.show(chat_id, message_id, *shows)
        return message_id

    async def _anew(
        self,
        record: TableRecord,
        chat_id: int,
        old: int | None,
        user_id: int | None,
        text: str,
        markup: Markup | None,
    ) -> int | None:
        """The message ``old`` (the table's, or the hand of ``user_id``) is gone: it is sent
        anew, showing the record's version, unless another process sharing the database
        sent it anew since ``record`` was read (and deleted ``old``): that message is
        edited instead, for a third would leave two live ones with buttons."""
        if old is not None and self.stored is not None:
            fresh = await self.stored(record.id)
            if fresh is not None:
                now = fresh.table_msg_id if user_id is None else fresh.hand_msgs.get(user_id)
                if (
                    now is not None
                    and now != old
                    and await self.throttle.edit(
                        chat_id, now, text, markup, interval=0, shows=_shows(record)
                    )
                ):
                    return now
        return await self._send(chat_id, text, markup, _shows(record))

    async def _hand(
        self,
        record: TableRecord,
        user_id: int,
        text: str,
        markup: Markup | None,
        *,
        resend: bool,
        urgent: bool = True,
    ) -> None:
        """``urgent``: the hand of the player to act, edited at once in any case."""
        old = record.hand_msgs.get(user_id)
        interval = 0.0 if urgent else self._hand_interval()
        if resend or old is None:
            new = await self._send(user_id, text, markup, _shows(record))
        elif await self.throttle.edit(
            user_id, old, text, markup, interval=interval, shows=_shows(record)
        ):
            new = old
        else:
            new = await self._anew(record, user_id, old, user_id, text, markup)
        if new is None:
            record.hand_msgs.pop(user_id, None)
        else:
            record.hand_msgs[user_id] = new
            if new != old:
                # a new message called them: a turn soon after is an edit of it
                self._turn_at[(record.id, user_id)] = self.sender.clock()
        if new != old:
            await self.on_shown(record)
            if old is not None and new is not None:
                await self.delete(user_id, old)

    async def cancelled(
        self, record: TableRecord, game: Game | None, notice: Notice | None = None
    ) -> None:
        """The table was cancelled (``game``: where its game stood), for the reason
        ``notice`` gives, if any: its messages say so."""
        if game is None:
            await self.lobby(record)
            return
        tr = self.tr(record.lang)
        why = notices.cancelled_text(notice, tr)
        last = table.table_text(game.view(None, brief=True), record.names(), tr, closed=True)
        # the table message says so too, so the notice, which tells the group at once,
        # may be left out when the group has used its minute rather than keep this waiting
        shows = _shows(record)
        await self.show(record.chat_id, record.table_msg_id, f"{last}\n\n{why}", shows=shows)
        if not record.solo:  # a private chat's own table and hand messages say it there
            await self.sender.reply(record.chat_id, why)
        for user_id, message_id in record.hand_msgs.items():
            await self.edit(user_id, message_id, why, shows=shows)

    async def chat_closed(self, record: TableRecord) -> None:
        """The table's chat is gone: its players' hands say the table was cancelled."""
        text = notices.cancelled_text(None, self.tr(record.lang))
        for user_id, message_id in record.hand_msgs.items():
            await self.edit(user_id, message_id, text)

    async def expired(self, record: TableRecord) -> None:
        """The lobby was not started in time: its message says so."""
        text = notices.expired_text(self.tr(record.lang))
        record.table_msg_id = await self.show(
            record.chat_id, record.table_msg_id, text, shows=_shows(record)
        )

    async def timed_out(
        self, record: TableRecord, user_id: int, message_id: int, action: str
    ) -> None:
        """The reminder ``message_id`` says that a bot made the move ``action``."""
        user_tr = await self.user_tr(user_id, record.lang)
        await self.edit(
            user_id, message_id, notices.timed_out_text(action, record.names(), user_tr)
        )

    async def next_table(self, record: TableRecord, user_id: int) -> None:
        """A person who asked for a seat at the next game is told "Play again" opened its
        table: whether they have a seat, and a link to it."""
        user_tr = await self.user_tr(user_id, record.lang)
        try:
            chat = await self.sender.bot.get_chat(record.chat_id)
            title, username = chat.title, chat.username
        except TelegramAPIError:
            title = username = None  # the table is named without its group then
        seated = record.seat_of(user_id) is not None
        text = notices.next_table_text(record.game, title, seated, user_tr)
        link = message_link(record.chat_id, record.table_msg_id, username)
        await self.sender.send(user_id, text, notices.next_table_keyboard(link, user_tr))

    async def left(self, record: TableRecord, user_id: int, message_id: int) -> None:
        """The hand message ``message_id`` of a person who left says so."""
        user_tr = await self.user_tr(user_id, record.lang)
        await self.edit(user_id, message_id, notices.left_text(user_tr))

    def chat_moved(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: what is sent to the old one goes to the new one."""
        self.sender.moved.setdefault(old_chat_id, new_chat_id)

    def bot_name(self, number: int, lang: str) -> str:
        return notices.bot_name(number, self.tr(lang))

    async def edit(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        markup: Markup | None = None,
        *,
        shows: Shows | None = None,
    ) -> bool:
        """A table's or hand's message edited at once; an edit waiting for it is dropped,
        so it cannot come later and undo this one. ``False`` if the message is gone.
        ``shows``: the table's id and version it shows (see :class:`EditThrottle`)."""
        return await self.throttle.edit(chat_id, message_id, text, markup, interval=0, shows=shows)

    async def show(
        self,
        chat_id: int,
        message_id: int | None,
        text: str,
        markup: Markup | None = None,
        *,
        shows: Shows | None = None,
    ) -> int | None:
        """:meth:`edit`, or a new message if there is none to edit."""
        if message_id is not None and await self.edit(
            chat_id, message_id, text, markup, shows=shows
        ):
            return message_id
        return await self._send(chat_id, text, markup, shows)

    async def delete(self, chat_id: int, message_id: int) -> None:
        self.throttle.forget(chat_id, message_id)
        await self.sender.delete(chat_id, message_id)
