"""How often the bot edits and sends a table's messages: Telegram's limits and the
players' pace."""

from __future__ import annotations

__all__ = [
    "GROUP_EDIT_INTERVAL",
    "HAND_EDIT_INTERVAL",
    "NOTIFY_AFTER",
    "RESEND_HAND_AFTER",
    "RESHOW_CALLS_PER_SECOND",
    "STRAINED_HAND_EDIT_INTERVAL",
]

GROUP_EDIT_INTERVAL = 4.0
"""Seconds between edits of a table message in a group: Telegram allows a bot about
20 messages a minute there, edits included. This takes three quarters of them and
leaves the rest for deal results, notices and replies to commands."""
HAND_EDIT_INTERVAL = 2.0
"""Seconds between edits of a waiting player's hand (a chat takes about one message a
second). The hand of the player to act is never kept waiting, so a hand that just
played is shown at once when its owner thought for longer than this; in faster play
its next turn usually comes first and the two edits go out as one."""
STRAINED_HAND_EDIT_INTERVAL = 5.0
""":data:`HAND_EDIT_INTERVAL` while the bot is overloaded (see :mod:`bot.telegram.strain`):
each press then waits in Telegram's queue for the CPU of the ones before it, and an edit
saved is CPU for them. A hand that just played then mostly waits for its owner's next
turn and goes out with it."""
RESEND_HAND_AFTER = 10.0
"""Seconds before "My hand" or /start sends a player's hand message anew once more: sent
for each press of a burst, the messages would run into Telegram's flood limit, and its
wait would hold the whole table up."""
NOTIFY_AFTER = 20.0
"""Seconds since a player was last called, by their previous turn or by their hand coming
as a new message, after which their turn comes as a new message (Telegram notifies of
those); sooner, they are watching and the hand is edited in place. So the first turn
of a game, moments after its hands were sent, is an edit too."""
RESHOW_CALLS_PER_SECOND = 20.0
"""Bot API calls a second at most while a starting bot shows the tables left unshown
(:mod:`bot.telegram.reshow`): Telegram allows about 30 messages a second over all chats,
and the rest is left for the presses that come in meanwhile."""
