"""The public table message and the private hand message, from ``view()`` dicts."""

from __future__ import annotations

from itertools import groupby

from bot.engine.base import Call, ScoreRow, Trick
from bot.engine.deberts.view import Redeal as DebertsRedeal
from bot.engine.deberts.view import SevenSwap
from bot.engine.thousand.view import Gift, Talon, ThousandBriefView
from bot.engine.thousand.view import Redeal as ThousandRedeal
from bot.engine.views import BriefView, LastDeal, final_trick
from bot.i18n import Translator
from bot.render.cards import (
    action_label,
    card_label,
    cards_line,
    last_trick_line,
    sort_codes,
    suit_symbol,
    trick_line,
)
from bot.render.common import (
    cut,
    game_title,
    labels_for,
    name_of,
    number,
    phase_label,
)
from bot.render.keyboards.callbacks import Again, act_data, table_button_data
from bot.render.keyboards.layout import Keyboard, Link, keyboard
from bot.render.scores import deal_line

__all__ = [
    "again_keyboard",
    "hand_alert",
    "hand_keyboard",
    "hand_text",
    "last_trick_text",
    "private_chat_link",
    "table_keyboard",
    "table_text",
]

_ALERT_NAME = 24
"""Characters of a player's name shown in an alert."""

_AUCTION_CALLS = 6
"""Latest calls the auction line shows: a Thousand auction may run to fifty, and the
last two rounds of three players tell where it stands."""

_MAX_BUTTONS = 100
"""Buttons Telegram allows in one inline keyboard."""

_CARDS_A_ROW = 5
"""Card buttons a row at most: a suit of more goes on over the next row."""

_TRUMP_MARK = "★"
"""After a trump card's label on its button: "J♥★"."""

_MARRIAGE_MARK = "💍"
"""After a king or queen that declares a marriage (a bella) if played now: "K♥ 💍"."""


def _per_seat(values: list[int], names: list[str]) -> str:
    # a score below zero with the minus sign the texts use: "Ann −200", not "Ann -200"
    return " · ".join(f"{name_of(names, i)} {number(v)}" for i, v in enumerate(values))


def _table_lines(
    view: BriefView, names: list[str], tr: Translator, *, live: bool = True
) -> list[str]:
    """Lines both the table and hand messages show: trump, auction, trick, tricks taken.

    ``live=False`` leaves out what changes with every bid and card, for a waiting
    player's hand: the table message shows those, and the hand is not edited for them.
    """
    locale = tr.locale
    lines = []
    deberts = view if view["game"] == "deberts" else None
    thousand = view if view["game"] == "thousand" else None
    open_card = deberts["open_card"] if deberts is not None else None
    if isinstance(open_card, str) and view["trump"] in (None, open_card[1]):
        # a trump of another suit named in round 2: the open card tells nothing any more
        lines.append(tr("Open card: {card}", card=card_label(open_card, locale)))
    bottom = deberts["bottom_card"] if deberts is not None else None
    if isinstance(bottom, str):
        lines.append(tr("Bottom card: {card}", card=card_label(bottom, locale)))
    playing = view["phase"] == "play" and view["bidder"] is not None
    if view["trump"] and not playing:
        lines.append(tr("Trump: {suit}", suit=suit_symbol(view["trump"])))
    if thousand is not None and thousand["golden"]:
        lines.append(tr("Golden round: the deal's points count double."))
    # worth knowing before bidding: the deal is played for these as well
    hanging = [points for points in deberts["hanging"] if points] if deberts is not None else []
    if hanging and view["winner"] is None:
        if view["seats"] == 2:
            line = tr(
                "Hanging: {n}, to the bidder if the contract is made, to the opponent on a bait",
                n=hanging[0],
            )
        else:
            line = tr(
                "Hanging: {n}, to the bidder if the contract is made,"
                " shared by the others on a bait",
                n=hanging[0],
            )
        if len(hanging) > 1:
            line += " " + tr("(then {points})", points=", ".join(map(str, hanging[1:])))
        lines.append(line)
    for talon in thousand["talons"] if thousand is not None else []:
        if talon["cards"] or talon["taken_by"] is not None:
            lines.append(_talon_line(talon, names, tr))
        # else a talon not taken (two players): out of play, and never shown
    if live and view["auction"] and not playing:
        calls = view["auction"]
        shown_from = max(0, len(calls) - _AUCTION_CALLS)
        said = ", ".join(
            f"{name_of(names, a['seat'])}: {_call_label(a, view, tr, names, opening=i == 0)}"
            for i, a in enumerate(calls[shown_from:], start=shown_from)
        )
        if len(calls) > _AUCTION_CALLS:
            said = "…, " + said
        lines.append(tr("Auction: {said}", said=said))
    if playing:
        # the auction is over: who plays, for what, in which trump, on one line
        lines.append(_contract_line(view, names, tr))
    elif view["bidder"] is not None:
        bidder = name_of(names, view["bidder"])
        bid = thousand["bid"] if thousand is not None else None
        contract = thousand["contract"] if thousand is not None else None
        if contract:
            lines.append(tr("Bidder: {name} — contract {n}", name=bidder, n=contract))
        elif bid and view["phase"] == "auction":
            # Others may still outbid it, so it changes with the bids as the auction does.
            if live:
                lines.append(tr("Highest bid: {name} ({n})", name=bidder, n=bid))
        elif bid:
            lines.append(tr("Bidder: {name} — bid {n}", name=bidder, n=bid))
        elif deberts is not None and deberts["forced_order"]:
            lines.append(tr("Bidder: {name} (the dealer had to name a trump)", name=bidder))
        else:
            lines.append(tr("Bidder: {name}", name=bidder))
    for ann in view["announcements"]:
        if ann["kind"] == "swap7":
            lines.append(_swap_line(ann, names, tr))
            continue
        lines.append(
            tr(
                "{name} announces {kind} ({points}): {cards}",
                name=name_of(names, ann["seat"]),
                kind=_kind_label(ann["kind"], tr),
                points=ann["points"],
                cards=cards_line(ann["cards"], locale),
            )
        )
    if not live:
        return lines
    # Kept in view while the next trick is played: the card that completes a trick is
    # never on the table otherwise, and a group's table message may skip a moment.
    last = last_trick_line(view["last_trick"], names, tr)
    if last:
        lines.append(last)
    if view["trick"]:
        lines.append(tr("On the table: {cards}", cards=trick_line(view["trick"], names, locale)))
    if any(view["tricks_taken"]):
        lines.append(tr("Tricks: {line}", line=_per_seat(view["tricks_taken"], names)))
    return lines


def _sitting_out_line(view: BriefView, names: list[str], tr: Translator) -> list[str]:
    """Thousand for four: who deals and sits the deal out, and the talon's points they
    write once its cards are shown."""
    if view["game"] != "thousand" or view["sitting_out"] is None:
        return []
    name = name_of(names, view["sitting_out"])
    points = view["talon_points"]
    if points is None:
        return [tr("Sits out on the talon: {name}", name=name)]
    return [tr("Sits out on the talon: {name} ({points} in it)", name=name, points=points)]


def _contract_line(view: BriefView, names: list[str], tr: Translator) -> str:
    """ "Bidder: Ann · contract 120 · trump ♥", once the deal is played."""
    bidder = name_of(names, view["bidder"])
    if view["game"] == "deberts" and view["forced_order"]:
        parts = [tr("Bidder: {name} (the dealer had to name a trump)", name=bidder)]
    else:
        parts = [tr("Bidder: {name}", name=bidder)]
    if view["game"] == "thousand" and view["contract"]:
        parts.append(tr("contract {n}", n=view["contract"]))
    if view["trump"]:
        parts.append(tr("trump {suit}", suit=suit_symbol(view["trump"])))
    else:  # Thousand: a marriage names the trump
        parts.append(tr("no trump yet"))
    return " · ".join(parts)


def _swap_line(ann: SevenSwap, names: list[str], tr: Translator) -> str:
    return tr(
        "{name} swaps the {seven} for the open card {card}",
        name=name_of(names, ann["seat"]),
        seven=card_label(ann["given"], tr.locale),
        card=card_label(ann["cards"][0], tr.locale),
    )


def _kind_labels(tr: Translator) -> dict[str, str]:
    return {
        "terz": tr("terz"),
        "berz": tr("berz"),
        "bella": tr("bella"),
        "marriage": tr("marriage"),
        "ace_marriage": tr("ace marriage"),
    }


def _kind_label(kind: str, tr: Translator) -> str:
    return labels_for(tr, _kind_labels).get(kind, kind.replace("_", " "))


def table_text(
    view: BriefView,
    names: list[str],
    tr: Translator,
    *,
    closed: bool = False,
    cards_with: str = "",
) -> str:
    """``closed``: the table is closed, and nobody is to move any more: no "Turn:" line.
    ``cards_with``: the bot's username, in a group, where the table says that the cards
    are in the private chat with it."""
    head = tr(
        "<b>{game}</b> · deal {n} · dealer {dealer}",
        game=game_title(view["game"], tr),
        n=view["deal_no"],
        dealer=name_of(names, view["dealer"]),
    )
    lines = [head]
    redeal = view["redeal"]
    if redeal is not None:
        # A redeal scores nothing, so no deal result is posted: only this line says why
        # the deal was dealt again (it keeps its number).
        lines.append(_redeal_line(redeal, view["deal_no"], names, tr))
    lines.append(tr("Phase: {phase}", phase=phase_label(view["phase"], tr)))
    lines += _sitting_out_line(view, names, tr)
    lines += _table_lines(view, names, tr)
    lines.append(tr("Score: {line}", line=_per_seat(view["totals"], names)))
    thousand = view if view["game"] == "thousand" else None
    if thousand is not None and any(thousand["bolts"]):
        lines.append(tr("Bolts: {line}", line=_per_seat(thousand["bolts"], names)))
    for seat, barrel in enumerate(thousand["barrel"] if thousand is not None else []):
        if barrel["on"]:
            lines.append(
                tr(
                    "On the barrel: {name} (attempt {n})",
                    name=name_of(names, seat),
                    n=barrel["attempts"] + 1,
                )
            )
    if view["winner"] is not None:
        lines.append(tr("🏆 Winner: {name}", name=name_of(names, view["winner"])))
    elif view["to_act"] is not None and not closed:
        lines.append(tr("Turn: <b>{name}</b>", name=name_of(names, view["to_act"])))
    if cards_with and view["winner"] is None and not closed:
        lines.append(tr("Your cards are in the private chat with @{bot}.", bot=cards_with))
    return "\n".join(lines)


def _redeal_line(
    redeal: DebertsRedeal | ThousandRedeal, deal_no: int, names: list[str], tr: Translator
) -> str:
    name = name_of(names, redeal["seat"])
    if redeal["reason"] == "all_passed":
        return tr("Deal {n} was dealt again: everyone passed.", n=deal_no)
    if redeal["reason"] == "sevens":
        return tr("Deal {n} was dealt again: {name} declared four sevens.", n=deal_no, name=name)
    why = labels_for(tr, _redeal_whys).get(redeal["why"] or "")
    if why:
        return tr(
            "Deal {n} was dealt again: {name} asked for a redeal ({why}).",
            n=deal_no,
            name=name,
            why=why,
        )
    return tr("Deal {n} was dealt again: {name} asked for a redeal.", n=deal_no, name=name)


def _redeal_whys(tr: Translator) -> dict[str, str]:
    return {
        "nines": tr("all four nines"),
        "points": tr("cards worth under 14 points"),
        "talon": tr("a talon of nines"),
    }


def private_chat_link(bot_username: str) -> str:
    """The link that opens the private chat with the bot."""
    return f"https://t.me/{bot_username}"


def table_keyboard(
    table_id: int, version: int, tr: Translator, *, cards_with: str = ""
) -> Keyboard:
    """``cards_with``: the bot's username, in a group: a link under the table opens the
    private chat with it, where the cards are (*My hand* shows them in an alert)."""
    buttons = keyboard(
        [
            (tr("🂠 My hand"), table_button_data(table_id, version, "hand")),
            (tr("Last trick"), table_button_data(table_id, version, "last")),
        ],
        (2,),
    )
    if cards_with:
        link = Link(tr("💬 My cards in private chat"), private_chat_link(cards_with))
        buttons += keyboard([link])
    return buttons


def again_keyboard(table_id: int, tr: Translator) -> Keyboard:
    """Under a game's final result: a new table with the same game, settings and bots."""
    return keyboard([(tr("🔁 Play again"), Again(table_id=table_id))])


def hand_text(
    view: BriefView,
    names: list[str],
    tr: Translator,
    *,
    table_above: bool = False,
    away: bool = False,
    result: ScoreRow | None = None,
    plays_itself: bool = False,
) -> str:
    """``table_above``: the table message sits right above, as in a private game against
    bots, so the hand leaves the deal's lines (trump, auction, trick) to it. ``away``: a
    bot plays the seat for its player (see :func:`away_keyboard`). ``result``: the last
    deal scored, said with the running totals (the results are posted in the group).
    ``plays_itself``: the seat's forced last card is about to be played for it."""
    seat = view["seat"]
    head = tr(
        "<b>{game}</b> · deal {n} · your hand, {name}",
        game=game_title(view["game"], tr),
        n=view["deal_no"],
        name=name_of(names, seat),
    )
    my_turn = view["to_act"] == seat and bool(view["legal"]) and not away
    thousand = view if view["game"] == "thousand" else None
    lines = [head]
    if result is not None:
        lines.append(deal_line(result, names, tr))
        lines.append(tr("Score: {line}", line=_per_seat(view["totals"], names)))
    if thousand is not None and seat is not None and thousand["sitting_out"] == seat:
        return "\n".join(lines + _sitting_out_hand(thousand, names, tr, table_above=table_above))
    if not table_above:
        lines += _table_lines(view, names, tr, live=my_turn)
    elif thousand is not None:  # the table above shows the talon as everyone saw it: face down
        lines += [_talon_line(t, names, tr) for t in thousand["talons"] if t.get("seen")]
    if view["winner"] is not None:
        lines.append(tr("🏆 Winner: {name}", name=name_of(names, view["winner"])))
    elif away:
        lines.append(tr("A bot plays for you. Press “I am back” to play again."))
    elif my_turn:
        lines.append(tr("<b>Your turn.</b>"))
        prompt = (
            tr("Your last card plays itself in a moment.")
            if plays_itself
            else _prompt(view, names, tr)
        )
        if prompt:
            lines.append(prompt)
    elif (
        thousand is not None and thousand["phase"] == "auction" and seat in thousand["auto_passed"]
    ):
        lines.append(tr("Your score is too far in the minus to bid: you pass this auction."))
    elif view["to_act"] is not None:
        # not who: the hand would be edited for every move then (the alert of a card
        # pressed out of turn names them)
        lines.append(tr("Waiting for the others."))
    if thousand is not None:
        lines += _gift_lines(thousand, names, tr)
    hand = view["hand"]
    if not hand:
        lines.append(tr("No cards in hand."))
    elif away or not _cards_on_buttons(hand, _extras(view)):
        lines.append(hand_alert(view, tr))
    return "\n".join(lines)


def _sitting_out_hand(
    view: ThousandBriefView, names: list[str], tr: Translator, *, table_above: bool
) -> list[str]:
    """The hand message of the dealer sitting the deal out (four players): no cards, and
    only what the table shows everyone (the view of their seat holds no more)."""
    lines = [tr("You dealt: you sit this deal out, on the talon, and write its points.")]
    if view["talon_points"] is not None:
        lines.append(tr("The talon is worth {points}.", points=view["talon_points"]))
    if not table_above:
        lines += _table_lines(view, names, tr, live=False)
    if view["winner"] is not None:
        lines.append(tr("🏆 Winner: {name}", name=name_of(names, view["winner"])))
    return lines


def _talon_line(talon: Talon, names: list[str], tr: Translator) -> str:
    # "seen": taken face down, in its taker's own hand message; neither: sitting on a hundred
    shown = talon["cards"] or talon.get("seen")
    line = tr("Talon: {cards}", cards=cards_line(shown, tr.locale) if shown else tr("face down"))
    if talon["taken_by"] is not None:
        line += " → " + name_of(names, talon["taken_by"])
    if talon.get("seen"):
        line += " " + tr("(face down: only you saw it)")
    return line


def _gift_lines(view: ThousandBriefView, names: list[str], tr: Translator) -> list[str]:
    """Thousand: the cards given away in the deal as this seat knows them: the bidder
    all it gave, another player the card they got (the view holds no other). Kept for the
    whole deal, so a waiting hand is not edited only to drop them."""
    gifts: list[Gift] = view["gifts"]
    if not gifts:
        return []
    seat, locale = view["seat"], tr.locale
    if view["bidder"] == seat:
        given = ", ".join(
            f"{card_label(g['card'], locale)} → {name_of(names, g['seat'])}" for g in gifts
        )
        return [tr("You gave: {given}", given=given)]
    return [
        tr(
            "You got {card} from {name}.",
            card=card_label(g["card"], locale),
            name=name_of(names, view["bidder"]),
        )
        for g in gifts
        if g["seat"] == seat
    ]


def _call_label(
    call: Call, view: BriefView, tr: Translator, names: list[str], *, opening: bool
) -> str:
    """``opening``: the auction's first call. The rules made some calls, not the player:
    a pass below the minus limit, the 121 a deal on the barrel opens with."""
    thousand = view if view["game"] == "thousand" else None
    if thousand is None:
        return _action_label(call["action"], view, tr, names)
    if call["action"] == "pass" and call["seat"] in thousand["auto_passed"]:
        return tr("Pass (in the minus)")
    if opening and thousand["barrel_opening"]:
        return tr("{n} (on the barrel)", n=action_label(call["action"], tr, names))
    return action_label(call["action"], tr, names)


def away_keyboard(table_id: int, version: int, tr: Translator) -> Keyboard:
    """The hand of a player a bot plays for: its cards are the bot's to play, and any
    button of the table gives the seat back, this one too."""
    return keyboard([(tr("I am back"), table_button_data(table_id, version, "hand"))])


def _redeal_reasons(tr: Translator) -> dict[str, str]:
    return {
        "nines": tr("you hold all four nines"),
        "points": tr("your cards are worth under 14 points"),
        "talon": tr("the talon was all nines"),
    }


def _prompt(view: BriefView, names: list[str], tr: Translator) -> str | None:
    """What the buttons ask for, where a row of bare numbers or a missing Pass would not
    say it by itself."""
    legal = view["legal"]
    thousand = view if view["game"] == "thousand" else None
    contracts = [int(code[1:]) for code in legal if code[:1] == "k" and code[1:].isdigit()]
    if contracts:
        low, high = min(contracts), max(contracts)
        if low == high:
            text = tr("Name your contract: {n}.", n=low)
        else:
            text = tr("Name your contract, from {low} to {high}.", low=low, high=high)
        if "concede" in legal:
            text += " " + tr("Or concede.")
        return text
    if _gives(legal):
        seats = thousand["to_receive"] if thousand is not None else []
        if len(seats) == 1:
            return tr("Give a card to {name}.", name=name_of(names, seats[0]))
        who = ", ".join(name_of(names, seat) for seat in seats)
        return tr("Give one card to each of: {names}.", names=who)
    if "keep" in legal:
        why = thousand["redeal_reason"] if thousand is not None else None
        reason = labels_for(tr, _redeal_reasons).get(why or "")
        if reason:
            return tr("You may ask for a redeal: {reason}.", reason=reason)
        return tr("You may ask for a redeal.")
    names_trump = any(code[:1] == "t" and code[1:] in "SCDH" for code in legal)
    if names_trump and "pass" not in legal:
        return tr("Everyone passed: the dealer must name a trump.")
    if any(code[:1] == "t" and code[1:].isdigit() for code in legal):
        return tr("Choose a talon: the other stays face down, out of play.")
    bids = any(code[:1] == "b" for code in legal)
    if bids and "pass" not in legal and view["phase"] == "auction":
        return tr("You open the bidding: the first bid is compulsory, so there is no Pass.")
    if legal == ["pass"] and view["phase"] == "auction":
        return tr("No higher bid is open to you (120 plus the marriages you hold): only Pass.")
    return None


def _gives(codes: list[str]) -> bool:
    """Whether these actions are the give-away's: a card to an opponent each."""
    return any(code[:1] == "g" for code in codes)


def _extras(view: BriefView) -> list[str]:
    """The legal actions that are not one of the hand's cards: bids, contracts, Pass..."""
    hand = set(view["hand"])
    legal = view["legal"]
    return [code for code in legal if not (code.startswith("c") and code[1:] in hand)]


def _cards_on_buttons(hand: list[str], extras: list[str]) -> bool:
    """Whether the hand's cards fit on buttons beside every other legal action.

    A two-player Thousand auction with the ace marriage may offer 93 bids (100 to 560)
    beside ten cards: then the actions keep their buttons, every one of them, and the
    cards are listed in the message instead (no card is playable then anyway).
    """
    if _gives(extras):
        return False  # every give-away button names its card already
    return len(hand) + len(extras) <= _MAX_BUTTONS


def hand_keyboard(
    table_id: int, version: int, view: BriefView, names: list[str], tr: Translator
) -> Keyboard:
    """Every card in hand is a button (pressing one that is not legal explains why);
    legal cards are marked while it is the player's turn; other legal actions follow.
    Past Telegram's 100 buttons the cards give way to the actions (``_cards_on_buttons``)."""
    legal = view["legal"]
    playable = {code[1:] for code in legal if code.startswith("c") and len(code) == 3}
    hand = view["hand"]
    held = _held(view)
    # marked only when it tells something: some card may not be played now
    marked = bool(playable) and len(playable) < len(hand)
    marriages = _marriage_cards(view)
    trump = view["trump"]
    extras = _extras(view)
    suits: list[list[tuple[str, str]]] = []
    if _cards_on_buttons(hand, extras):
        for suit, of_suit in groupby(held, key=lambda code: code[1]):
            row = []
            for code in of_suit:
                label = card_label(code, tr.locale)
                if suit == trump:
                    label += _TRUMP_MARK
                if code in marriages:
                    label += " " + _MARRIAGE_MARK
                if marked:
                    label = f"▶ {label}" if code in playable else f"· {label} ·"
                row.append((label, act_data(table_id, version, "c" + code)))
            suits.append(row)
    # suits kept together, as a hand is held: a row takes the next suit while it fits
    packed: list[list[tuple[str, str]]] = []
    for in_suit in suits:
        if packed and len(packed[-1]) + len(in_suit) <= _CARDS_A_ROW:
            packed[-1] += in_suit
        else:
            packed.append(in_suit)
    cards = Keyboard(())
    for row in packed:
        cards += keyboard(row, (_CARDS_A_ROW,))
    recipients = len(view["to_receive"]) if view["game"] == "thousand" else 0
    giving = recipients > 1 and _gives(extras)
    if giving:
        # a card a row, in the hand's order, its recipients side by side
        order = {code: i for i, code in enumerate(held)}
        extras = sorted(extras, key=lambda code: (order.get(code[1:3], 0), code[3:]))
    # every one, however many: a Thousand auction may offer some 90 bids, and the one a
    # player wants, or Concede after the contracts, must not be left out
    actions = [
        (_action_label(code, view, tr, names), act_data(table_id, version, code)) for code in extras
    ]
    if giving:
        return cards + keyboard(actions, (recipients,))
    # bids and contracts are bare numbers, six a row; words (Pass, Concede) four a row
    laid = cards
    for numbers, run in groupby(actions, key=lambda button: button[0].isdigit()):
        laid += keyboard(list(run), (6 if numbers else 4,))
    return laid


def hand_alert(view: BriefView, tr: Translator) -> str:
    return tr("Your cards: {cards}", cards=cards_line(_held(view), tr.locale))


def _held(view: BriefView) -> list[str]:
    """The hand in the order a player holds it: the trump first, colours alternating."""
    return sort_codes(view["hand"], view["game"], view["trump"])


_KING_QUEEN = {"K": "Q", "Q": "K"}


def _marriage_cards(view: BriefView) -> set[str]:
    """The kings and queens that declare a marriage (Thousand) or a bella (Deberts, in
    trumps) if played now: the player is to play and holds the other of the pair."""
    if view["phase"] != "play" or view["to_act"] != view["seat"]:
        return set()
    hand = set(view["hand"])
    if view["game"] == "thousand":
        # a marriage is declared by leading it, from the deal's second trick on
        if view["trick"] or not view["first_lead_done"]:
            return set()
        suits = "SCDH"
    else:
        if not view["trump"]:
            return set()
        suits = view["trump"]
    legal = set(view["legal"])
    return {
        code
        for code in hand
        if code[0] in _KING_QUEEN
        and code[1] in suits
        and _KING_QUEEN[code[0]] + code[1] in hand
        and "c" + code in legal
    }


def _action_label(code: str, view: BriefView, tr: Translator, names: list[str]) -> str:
    """An action's button as this deal makes it: "Play ♥" names the suit it plays in,
    "Swap 7♥ for Q♥" both cards."""
    if view["game"] == "deberts":
        open_card = view["open_card"]
        if code == "play" and open_card:
            return tr("Play {suit}", suit=suit_symbol(open_card[1]))
        if code == "swap7" and open_card and view["trump"]:
            return tr(
                "Swap {seven} for {card}",
                seven=card_label("7" + view["trump"], tr.locale),
                card=card_label(open_card, tr.locale),
            )
    return action_label(code, tr, names)


def _alert_name(names: list[str], seat: int) -> str:
    # an alert holds 200 characters, and a Telegram name may be 129 long
    return cut(names[seat] if seat < len(names) else str(seat + 1), _ALERT_NAME)


def last_trick_text(
    view: BriefView,
    names: list[str],
    tr: Translator,
    *,
    previous_deal: LastDeal | None = None,
) -> str:
    """``previous_deal``: the summary of the deal before, whose final trick is shown until
    this deal has one of its own (no table message ever showed it)."""
    last = view["last_trick"]
    if last:
        return tr("Last trick: {cards}. Taken by {name}.", **_alert_trick(last, names, tr))
    # after a deal everyone passed, the summary kept is older: its trick is not "before"
    if previous_deal is not None and previous_deal["deal_no"] == view["deal_no"] - 1:
        final = final_trick(previous_deal)
        if final is not None and final["cards"]:
            return tr(
                "Last trick of the deal before: {cards}. Taken by {name}.",
                **_alert_trick(final, names, tr),
            )
    return tr("No trick has been played yet in this deal.")


def _alert_trick(trick: Trick, names: list[str], tr: Translator) -> dict[str, str]:
    """A trick's ``cards`` and who took it (``name``), for an alert's text."""
    cards = ", ".join(
        f"{_alert_name(names, p['seat'])} {card_label(p['card'], tr.locale)}"
        for p in trick["cards"]
    )
    return {"cards": cards, "name": _alert_name(names, trick["winner"])}
