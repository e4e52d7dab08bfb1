"""Help and rules, written for the chat (not translations of the seed documents)."""

from __future__ import annotations

from bot.i18n import Translator

__all__ = ["help_text", "rules_text"]


def help_text(tr: Translator) -> str:
    return tr(
        "<b>Deberts and Thousand at your table</b>\n\n"
        "In a group: /new deberts or /new thousand opens a table. Players press "
        "<i>Join</i>; the host may add bot players, change the settings and press "
        "<i>Start</i>. Everyone needs a private chat with me: that is where your cards "
        "come, as buttons — press a card or an action to play it.\n\n"
        "In a private chat with me: /new deberts or /new thousand starts a game "
        "against one or two bot players.\n\n"
        "The table message in the group shows the trump, the bidding, the cards on "
        "the table, whose turn it is and the scores. <i>My hand</i> shows your cards "
        "to you alone.\n\n"
        "/score — the scoresheet\n/rules — the rules\n/lang — the language\n"
        "/leave — leave a game (a bot takes your seat)\n/cancel — close the table "
        "(host or admin)"
    )


def rules_text(game: str, tr: Translator) -> str:
    if game == "deberts":
        return tr(
            "<b>Deberts</b> — 2 or 3 players, each for himself, 32 cards.\n\n"
            "Everyone gets 6 cards and one card is turned face up. In turn, players "
            "either <i>play</i> with that card's suit as trump or pass; if all pass, "
            "each may name another suit. Whoever chooses trump is the bidder. Then "
            "everyone gets 3 more cards.\n\n"
            "Follow suit; with none, play a trump; when trump is led, beat the highest "
            "trump if you can. Trump order: J 9 A 10 K Q 8 7 (J = 20, 9 = 14 points); "
            "other suits: A 10 K Q J 9 8 7 (A 11, 10 10, K 4, Q 3, J 2). The last trick "
            "is worth 10.\n\n"
            "Runs in one suit (A K Q J 10 9 8 7): three in a row — terz, 20; four — "
            "berz, 50. They are declared with your first card; only the player with "
            "the best run scores runs, and only if they take a trick. Trump K and Q "
            "together — bella, 20.\n\n"
            "If the bidder scores more than the others, everyone writes their points; "
            "less — bait (БТ): the bidder writes nothing and the others take it all; "
            "equal — the bidder's points hang (vs) until the next deal. The first to "
            "reach the target wins."
        )
    return tr(
        "<b>Thousand</b> — 2 or 3 players, 24 cards (9 to A).\n\n"
        "Each player gets 7 cards (10 with two players) and a talon is left. Players "
        "bid in steps of 5, starting at 100; you may not bid above 120 plus your "
        "marriages. The winner takes the talon, gives one card to each opponent and "
        "names the contract.\n\n"
        "Follow suit; with none, play a trump. There is no trump until someone leads a "
        "K or Q holding its partner: that marriage (♠ 40, ♣ 60, ♦ 80, ♥ 100) scores "
        "and makes its suit trump. Card points: A 11, 10 10, K 4, Q 3, J 2, 9 0.\n\n"
        "The bidder gains the contract if they make it and loses it otherwise; the "
        "others write their points rounded to 5. No trick — a bolt; three bolts cost "
        "120. At 880 you sit on the barrel and must make 121 or more to win; the "
        "first to 1000 wins."
    )
