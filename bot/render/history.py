"""Texts of players' records: /stats, /top, /history and an ended deal's review."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from html import escape

from bot.db.history import GameLine, PlayerStats, TopLine
from bot.engine.base import DealLog, Scoresheet
from bot.history.chart import score_chart
from bot.history.ratings import BOARD_MIN_GAMES
from bot.i18n import Translator
from bot.render.cards import action_label, card_label, cards_line, sort_codes
from bot.render.common import game_title, name_of
from bot.render.keyboards.callbacks import Review
from bot.render.keyboards.layout import Keyboard, keyboard
from bot.render.scores import mark_text
from bot.tables.records import DealReview, NotAllowed

__all__ = [
    "deal_keyboard",
    "deal_review_keyboard",
    "deal_review_text",
    "history_keyboard",
    "history_text",
    "score_picture",
    "scoresheet_csv",
    "stats_text",
    "top_text",
]

_MESSAGE_CHARS = 4000
"""A review's text at most, under Telegram's 4096 characters of a message."""


def _trend(values: Sequence[float]) -> str:
    if len(values) < 2:
        return ""
    change = values[-1] - values[-2]
    arrow = "↑" if change > 0.05 else "↓" if change < -0.05 else "→"
    return f" {arrow}{abs(change):.1f}"


def stats_text(stats: PlayerStats | None, name: str, tr: Translator) -> str:
    if stats is None:
        return tr("{name} has no finished games yet.", name=escape(name))
    lines = [tr("<b>{name}</b>", name=escape(stats.name or name))]
    for game, c in sorted(stats.counters.items()):
        lines.append("")
        lines.append(f"<b>{game_title(game, tr)}</b>")
        lines.append(tr("Games: {games}, wins: {wins}", games=c["games"], wins=c["wins"]))
        average = c["points"] / c["deals"] if c["deals"] else 0.0
        lines.append(
            tr(
                "Contracts made: {made}, failed: {failed}; points per deal: {average}",
                made=c["made"],
                failed=c["failed"],
                average=f"{average:.1f}",
            )
        )
        if game == "deberts":
            lines.append(tr("Baits: {baits}, hangings: {hangings}", **c))
        else:
            lines.append(tr("Barrels: {barrels}, bolts: {bolts}, dump trucks: {dump_trucks}", **c))
        lines.append(tr("Mars: {mars}", mars=c["mars"]))
        for pool in stats.ratings:
            if pool.game != game:
                continue
            lines.append(
                tr(
                    "Rating ({seats} players): {rating}{trend} after {games} rated games",
                    seats=pool.seats,
                    rating=f"{pool.rating.ordinal:.1f}",
                    trend=_trend(pool.trend),
                    games=pool.games,
                )
            )
    return "\n".join(lines)


def top_text(game: str, lines: Sequence[TopLine], tr: Translator, *, chat: bool) -> str:
    title = (
        tr("<b>Best of this chat: {game}</b>", game=game_title(game, tr))
        if chat
        else tr("<b>Best players: {game}</b>", game=game_title(game, tr))
    )
    if not lines:
        return (
            title
            + "\n"
            + tr("Nobody yet: {n} rated games put a player on the board.", n=BOARD_MIN_GAMES)
        )
    rows = [
        tr(
            "{place}. {name}: {rating} ({seats} players, {games} games)",
            place=i,
            name=escape(line.name),
            rating=f"{line.ordinal:.1f}",
            seats=line.seats,
            games=line.games,
        )
        for i, line in enumerate(lines, 1)
    ]
    return "\n".join([title, *rows])


def history_text(lines: Sequence[GameLine], tr: Translator) -> str:
    if not lines:
        return tr("No game has been finished in this chat yet.")
    out = [tr("<b>Recent games</b>")]
    for line in lines:
        players = ", ".join(
            f"{place}. {escape(name)} {points}"
            for name, place, points in sorted(line.players, key=lambda p: p[1])
        )
        deals = tr("deals: {n}", n=line.deals)
        out.append(f"{game_title(line.game, tr)} #{line.table_id}, {deals}: {players}")
    out.append(
        tr(
            "/export gives the last game's scoresheet and deals as a JSON file,"
            " /export csv its scoresheet as a table."
        )
    )
    return "\n".join(out)


def history_keyboard(lines: Sequence[GameLine], tr: Translator) -> Keyboard | None:
    """Under ``/history``: each game replayed deal by deal, from its first."""
    if not lines:
        return None
    return keyboard(
        [
            (
                tr("▶ {game} #{table}", game=game_title(line.game, tr), table=line.table_id),
                Review(table_id=line.table_id, deal=1),
            )
            for line in lines
        ],
        (2,),
    )


def deal_keyboard(table_id: int, deal_no: int, tr: Translator) -> Keyboard:
    """Under a deal's result: the deal's review, once it is over."""
    return keyboard([(tr("🃏 Show the deal"), Review(table_id=table_id, deal=deal_no))])


def deal_review_keyboard(review: DealReview, tr: Translator) -> Keyboard | None:
    """The deals before and after the one shown, to go through the game deal by deal."""
    buttons = []
    if review.deal_no > 1:
        n = review.deal_no - 1
        buttons.append((tr("« Deal {n}", n=n), Review(table_id=review.table_id, deal=n, page=1)))
    if review.deal_no < review.last:
        n = review.deal_no + 1
        buttons.append((tr("Deal {n} »", n=n), Review(table_id=review.table_id, deal=n, page=1)))
    return keyboard(buttons, (2,)) if buttons else None


def deal_review_text(review: DealReview, tr: Translator) -> str:
    """The deal as :func:`deal_text` tells it, after each deal dealt anew in its place; the
    earliest of those are left out should the whole not fit in a message."""
    blocks = [deal_text(log, review.deal_no, review.names, tr) for log in review.logs]
    if review.deal_no == review.last and review.over:
        blocks[-1] += "\n" + tr("The game's last deal.")
    left_out = 0
    while len(blocks) > 1 and len("\n\n".join(blocks)) > _MESSAGE_CHARS:
        blocks.pop(0)
        left_out += 1
    if left_out:
        blocks.insert(0, tr("Deals dealt anew before this one, not shown: {n}.", n=left_out))
    return "\n\n".join(blocks)


def deal_text(log: DealLog, deal_no: int, names: Sequence[str], tr: Translator) -> str:
    """Everyone's hand as dealt, the other cards, the auction, the give-away, the tricks;
    ``deal_no``: the deal's number as its result gave it."""
    locale = tr.locale
    out = [tr("<b>Deal {deal_no}</b>", deal_no=deal_no)]
    out.append(tr("Dealer: {name}", name=escape(name_of(names, log.dealer))))
    for seat, hand in enumerate(log.hands):
        if hand:
            out.append(f"{escape(name_of(names, seat))}: {cards_line(sort_codes(hand), locale)}")
    stock_names = {
        "open": tr("Open card"),
        "bottom": tr("Bottom card"),
        "talon": tr("Talon"),
        "talon0": tr("Talon {n}", n=1),
        "talon1": tr("Talon {n}", n=2),
    }
    for key, cards in log.stock:
        out.append(f"{stock_names.get(key, key)}: {cards_line(cards, locale)}")
    if log.auction:
        bids = ", ".join(
            f"{escape(name_of(names, seat))} {action_label(action, tr)}"
            for seat, action in log.auction
        )
        out.append(tr("Auction: {bids}", bids=bids))
    for giver, taker, card in log.gives:
        out.append(
            tr(
                "{giver} gives {card} to {taker}",
                giver=escape(name_of(names, giver)),
                card=card_label(card, locale),
                taker=escape(name_of(names, taker)),
            )
        )
    for i, trick in enumerate(log.tricks, 1):
        played = " · ".join(
            f"{escape(name_of(names, seat))} {card_label(card, locale)}"
            for seat, card in trick.cards
        )
        out.append(f"{i}. {played} → {escape(name_of(names, trick.winner))}")
    if log.redeal:
        out.append(tr("The cards were dealt anew."))
    return "\n".join(out)


def score_picture(sheet: Scoresheet, names: Sequence[str], target: int, tr: Translator) -> bytes:
    """The PNG of the game's score over its deals, the target marked."""
    totals = [row.totals for row in sheet.rows if row.notes.get("redeal") is not True]
    return score_chart(
        [name_of(names, seat) for seat in range(sheet.seats)],
        totals,
        target=target,
        title=game_title(sheet.game, tr),
        deal_label=tr("Deal"),
    )


def scoresheet_csv(sheet: Scoresheet, names: Sequence[str], tr: Translator) -> bytes:
    """The scoresheet as a CSV table: per deal (numbered as the results are) what each
    player wrote and their total after it, and what the deal's marks say; the totals last.
    UTF-8 with a byte order mark, so spreadsheets read the names and marks as written."""
    players = [name_of(names, seat) for seat in range(sheet.seats)]
    out = io.StringIO()
    writer = csv.writer(out)
    header = [tr("Deal")]
    for name in players:
        header += [tr("{name}: points", name=name), tr("{name}: total", name=name)]
    writer.writerow([*header, tr("Notes")])
    for row in sheet.rows:
        cells = [str(row.deal_no)]
        for delta, total in zip(row.deltas, row.totals, strict=True):
            cells += [str(delta), str(total)]
        if row.notes.get("redeal") is True:
            notes = tr("The cards were dealt anew.")
        else:
            notes = "; ".join(
                f"{name}: {mark_text(cell, tr)}"
                for name, cell in zip(players, row.cells, strict=False)
                if not cell.lstrip("-").isdigit()
            )
        writer.writerow([*cells, notes])
    totals = [tr("Total")]
    for total in sheet.totals:
        totals += ["", str(total)]
    writer.writerow([*totals, ""])
    return out.getvalue().encode("utf-8-sig")


def review_refusal(refused: NotAllowed | None, tr: Translator) -> str:
    """Why a deal is not shown: not this chat's or player's table, or not ended yet."""
    if isinstance(refused, NotAllowed):
        return tr("Only the table's chat and players may see its deals.")
    return tr("That deal has not been played to its end.")


def deal_usage(tr: Translator) -> str:
    return tr("Which deal? /deal 3 shows the third one.")


def chat_busy(tr: Translator) -> str:
    return tr("Too many messages in this chat just now: try again in a minute.")


def export_usage(tr: Translator) -> str:
    return tr("Which file? /export gives JSON, /export csv the scoresheet as a table.")


def no_game_yet(tr: Translator) -> str:
    return tr("No game has been played in this chat yet.")


def export_caption(csv_file: bool, tr: Translator) -> str:
    if csv_file:
        return tr("The game's scoresheet")
    return tr("The game's scoresheet and deals")
