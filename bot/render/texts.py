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
        "/leave — leave a game (in a group a bot takes your seat; in a private game "
        "against bots the game ends)\n/cancel — close the table (host or admin)"
    )


def rules_text(game: str, tr: Translator) -> str:
    if game == "deberts":
        return tr(
            "<b>Deberts</b> — 2 or 3 players, each for themselves, 32 cards.\n\n"
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
            "together — bella, 20, even without a trick.\n\n"
            "If the bidder scores more than the other players together, everyone writes "
            "their points; less — bait (БТ): the bidder writes nothing and their points "
            "go to the others; equal — the others write theirs and the bidder's points "
            "hang (vs) for whoever scores the most in the next deal. When a deal leaves "
            "someone at the target or above, the highest total wins; an exact tie goes to "
            "whoever took that deal's last trick."
        )
    return tr(
        "<b>Thousand</b> — 2 or 3 players, 24 cards (9 to A).\n\n"
        "Each player gets 7 cards and a talon of 3 is left (two players: 10 cards each "
        "and two talons of 2). Bids are multiples of 5 and only rise; the player left of "
        "the dealer opens with 100 or more, and a pass is final. You may not bid above "
        "120 plus your marriages. The winner takes the talon (two players: one of them), "
        "gives one card to each opponent and names the contract.\n\n"
        "Follow suit; with none, play a trump. There is no trump until a marriage: "
        "leading a K or Q while holding its partner, except on the first lead of the "
        "deal, scores the marriage (♠ 40, ♣ 60, ♦ 80, ♥ 100) and makes its suit trump "
        "until the next one. Card points: A 11, 10 10, K 4, Q 3, J 2, 9 0.\n\n"
        "The bidder gains the contract if they make it and loses it otherwise; the "
        "others write their points rounded to 5. No trick — a bolt; every third bolt "
        "costs 120. A total of exactly 555 or −555 becomes 0 (dump truck). At 880 or more "
        "your total stops at 880 and you sit on the barrel: making a contract of 121 or "
        "more wins, and while you play one the others score nothing. Failing costs "
        "nothing, but after three deals there, or when another player reaches the barrel, "
        "you drop off with −120."
    )
