"""Help and rules, written for the chat (not translations of the seed documents), and
the other answers to commands."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from bot.i18n import Translator
from bot.render.common import cut, game_title
from bot.render.keyboards.layout import Keyboard, Link, keyboard
from bot.render.lobby import conventions_summary
from bot.render.scores import scoresheet_text
from bot.tables.lookups import Scores, TableRules

__all__ = [
    "RULES_PAYLOAD",
    "chat_rules_text",
    "chat_scores_text",
    "failure_text",
    "help_keyboard",
    "help_summary_text",
    "help_text",
    "not_understood_text",
    "rules_keyboard",
    "rules_payload",
    "rules_summary_text",
    "rules_text",
    "start_link",
    "unknown_game_text",
]


def help_text(tr: Translator) -> str:
    """The whole help, with every command: in a private chat."""
    return tr(
        "<b>Deberts and Thousand at your table</b>\n\nIn a group: /new deberts or /new thousand "
        "opens a table. Players press <i>Join</i>; the host (or a chat admin) may add bot "
        "players, change the settings and press <i>Start</i>. Everyone needs a private chat with "
        "me: that is where your cards come, as buttons — press a card or an action to play "
        "it.\n\nIn a private chat with me: /new deberts or /new thousand starts a game against "
        "one to three bot players.\n\nThe table message in the group shows the trump, the "
        "bidding, the cards on the table, whose turn it is and the scores. <i>My hand</i> shows "
        "your cards to you alone.\n\n<b>Commands</b>\n/new [deberts|thousand] — open a table (in "
        "a private chat: a game against bots)\n/table — show the table again, below\n/score — "
        "the scoresheet\n/deal [N] — a deal of the last game, card by card\n/stats — your "
        "statistics and rating (in reply to someone's message: theirs)\n/top "
        "[deberts|thousand] — the best players\n/history — recent games\n/export [csv] — the "
        "last game as a file\n/rules [deberts|thousand] — the rules\n/lang — the language\n"
        "/leave — leave a game (in a group a bot takes your seat; in a private game against bots "
        "the game ends)\n/cancel — close the table (host or admin)\n/help — this help"
    )


def help_summary_text(tr: Translator) -> str:
    """/help in a group: how to begin, in a few lines; the rest is in the private chat."""
    return tr(
        "<b>Deberts and Thousand at your table</b>\n\n/new deberts or /new thousand opens a "
        "table here: press <i>Join</i>, and the host presses <i>Start</i>. Your cards come to "
        "the private chat with me, so open it once first.\n\n/table — the table again, below; "
        "/score — the scoresheet; /rules — the rules.\nThe whole help, with every command, is "
        "in the private chat."
    )


def help_keyboard(bot_username: str, tr: Translator) -> Keyboard:
    """Under the group's help: the whole of it, in the private chat."""
    return keyboard([Link(tr("📖 The whole help"), start_link(bot_username, "help"))])


def start_link(bot_username: str, payload: str) -> str:
    """A link that opens the private chat with the bot and says ``/start payload`` there."""
    return f"https://t.me/{bot_username}?start={payload}"


RULES_PAYLOAD = "rules"
"""The start payload of the full rules: ``rules_<game>`` for one game, ``rules`` for all."""


def rules_payload(games: Sequence[str]) -> str:
    return f"{RULES_PAYLOAD}_{games[0]}" if len(games) == 1 else RULES_PAYLOAD


def rules_text(game: str, tr: Translator) -> str:
    if game == "deberts":
        return tr(
            "<b>Deberts</b> — 2 or 3 players, each for themselves, 32 cards.\n\nEveryone gets 6 "
            "cards and the next card is turned face up. Starting left of the dealer, the dealer "
            "last, players either <i>play</i> with that card's suit as trump or pass; if all "
            "pass, each in turn may name another suit. Whoever chooses trump is the bidder. If "
            "all pass again, the next player deals anew (with <i>order obligatory</i> set, the "
            "dealer must name a suit instead). Then everyone gets 3 more cards, and the bottom "
            "card of the stock is shown for information only. The player left of the dealer "
            "leads.\n\nFollow suit; with none, play a trump; with neither, any card. When trump "
            "is led, beat the highest trump on the table if you can. Trumps, high to low, and "
            "their points: J 20, 9 14, A 11, 10 10, K 4, Q 3, 8 and 7 none; other suits: A 11, 10 "
            "10, K 4, Q 3, J 2, then 9 8 7 with none. The last trick is worth 10.\n\nRuns in one "
            "suit (A K Q J 10 9 8 7) are declared by themselves with your first card: three in a "
            "row — terz, 20; four — berz, 50; five or six count as a berz, seven as a berz and a "
            "terz, eight as two berz. The best run wins: a berz beats a terz, then the higher top "
            "card, then (Moscow) the trump run, then the player sitting earlier from the dealer's "
            "left. Only its holder writes runs, all of theirs, and only with a trick. Trump K and "
            "Q together — bella, 20, even without a trick.\n\nIf the bidder has more points than "
            "the other players together, everyone writes their points; fewer — bait (БТ): the "
            "bidder writes nothing and their points go to the others; equal — the others write "
            "theirs and the bidder's points hang (vs) for whoever scores the most in the next "
            "deal. Whoever wrote the most deals next. When a deal leaves someone at the target "
            "(501, or 301 if set) or above, the highest total wins; an exact tie goes to whoever "
            "took that deal's last trick (if neither did, to the one sitting earlier from the "
            "dealer's left). A loser below half the target gets a mars.\n\nA table's settings may "
            "change this: /rules at a table lists them."
        )
    return tr(
        "<b>Thousand</b> — 2–4 players, 24 cards (9 to A).\n\nEach player gets 7 cards and a "
        "talon of 3 is left (two players: 10 cards each and two talons of 2; four players: the "
        "dealer sits the deal out and writes the talon's points). Bids are multiples "
        "of 5 and only rise; the player left of the dealer opens with 100 or more, and a pass is "
        "final. You may not bid above 120 plus the marriages in your hand. The winner takes the "
        "talon, shown to everyone (two players: one of the two, and the other stays out of play), "
        "gives one card face down to each opponent and names the contract: at least the bid, at "
        "most 120 plus the marriages now in hand. A player holding four 9s or cards worth under "
        "14 may ask for a redeal, and the bidder may concede rather than play (each of the others "
        "gets half the contract). The bidder leads.\n\nFollow suit; with none, play a trump; with "
        "neither, any card. There is no trump until a marriage: leading a K or Q while holding "
        "its partner, except on the first lead of the deal, scores the marriage (♠ 40, ♣ 60, ♦ "
        "80, ♥ 100) and makes its suit trump until the next one. Card points: A 11, 10 10, K 4, Q "
        "3, J 2, 9 0.\n\nThe bidder gains the contract if their card points and marriages reach "
        "it, and loses it otherwise; the others write their card points and marriages rounded to "
        "the nearest 5 (ending in 1, 2, 6, 7 down; 3, 4, 8, 9 up). No trick — a bolt; every third "
        "bolt costs 120. A total of exactly 555 or −555 becomes 0 (dump truck). At 880 or more "
        "your total stops at 880 and you sit on the barrel: making a contract of 121 or more "
        "wins, and while you play one the others get neither points nor bolts. Failing costs "
        "nothing, but after three deals there, or when another player reaches the barrel, you "
        "drop off with −120 (two who reach it in the same deal both drop off).\n\nA table's "
        "settings may change this: /rules at a table lists them."
    )


def unknown_game_text(name: str, tr: Translator) -> str:
    """/rules was asked for a game the bot does not know."""
    return tr(
        "I know no game called “{name}”: /rules deberts or /rules thousand.",
        name=escape(cut(name, 32)),
    )


def chat_rules_text(games: Sequence[str], table: TableRules | None, tr: Translator) -> str:
    """The rules of ``games``; with the chat's open table's settings, if it plays one of
    them, each with what it means (the rules above are the defaults these may change)."""
    parts = [rules_text(game, tr) for game in games]
    if table is not None and table.game in games:
        summary = conventions_summary(
            table.conventions, table.turn_timer, tr, explain=True, autoplay=table.autoplay
        )
        heading = tr("<b>This table ({game}):</b>", game=game_title(table.game, tr))
        parts.append(heading + "\n" + summary)
    return "\n\n".join(parts)


def rules_summary_text(games: Sequence[str], table: TableRules | None, tr: Translator) -> str:
    """/rules in a group: each of ``games`` in a few lines, and the settings of the chat's
    open table if it plays one of them; the whole rules are in the private chat."""
    parts = [_rules_summaries(tr)[game] for game in games]
    if table is not None and table.game in games:
        summary = conventions_summary(
            table.conventions, table.turn_timer, tr, autoplay=table.autoplay
        )
        heading = tr("<b>This table ({game}):</b>", game=game_title(table.game, tr))
        parts.append(heading + "\n" + summary)
    parts.append(tr("The whole rules are in the private chat."))
    return "\n\n".join(parts)


def _rules_summaries(tr: Translator) -> dict[str, str]:
    return {
        "deberts": tr(
            "<b>Deberts</b> — 2 or 3 players, 32 cards. Whoever names the trump is the bidder and "
            "must score more points than the others together, or their points go to them. Points "
            "come from the cards in your tricks, runs in a suit and the bella (trump K and Q). "
            "The game is played to 501 points (or 301)."
        ),
        "thousand": tr(
            "<b>Thousand</b> — 2–4 players, 24 cards. Whoever bids highest takes the talon and "
            "must make the contract with the cards in their tricks and their marriages (K and Q "
            "of a suit, which also make it trump), or lose it. The game is played to 1000."
        ),
    }


def rules_keyboard(games: Sequence[str], bot_username: str, tr: Translator) -> Keyboard:
    """Under the group's rules: the whole rules of ``games``, in the private chat."""
    link = start_link(bot_username, rules_payload(games))
    return keyboard([Link(tr("📖 The whole rules"), link)])


def chat_scores_text(scores: Scores | None, tr: Translator) -> str:
    """The scoresheet of the chat's latest game (/score)."""
    if scores is None:
        return tr("No game has been played in this chat yet.")
    text = scoresheet_text(scores.sheet, list(scores.names), tr)
    if scores.cancelled:
        text += "\n\n" + tr("The table was cancelled.")  # the sheet stops short of an end
    return text


def not_understood_text(tr: Translator) -> str:
    """Words written to the bot in its private chat."""
    return tr("I follow commands and buttons: /new starts a game, /help says more.")


def failure_text(tr: Translator | None) -> str:
    """Something failed on the bot's side; ``tr`` is missing only when the failure came
    before the language was known."""
    text = "Something went wrong on my side. Please try again later."
    return "⚠️ " + (tr(text) if tr else text)
