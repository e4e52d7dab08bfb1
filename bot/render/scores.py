"""Deal results, the scoresheet and the final result."""

from __future__ import annotations

import re
from html import escape
from typing import Any

from bot.engine.base import ScoreRow, Scoresheet, Trick
from bot.engine.deberts.scoring import BAIT_MARK
from bot.engine.thousand.rules import DUMP_TRUCK
from bot.engine.thousand.scoring import ATTEMPT_FAILED
from bot.i18n import Translator
from bot.render.cards import last_trick_line, suit_symbol
from bot.render.common import MINUS, cut, game_title, name_of, number, signed

__all__ = ["deal_line", "deal_result_text", "final_text", "scoresheet_text"]

_COLUMN = 9
SHEET_ROWS = 30
"""Deals the scoresheet lists, the latest ones: a long game's whole sheet would not fit
in one Telegram message (4,096 characters), and the totals sum up the rest."""
RESULT_ROWS = 3
"""Deals the sheet under a deal's result lists: posted every deal, a long one would fill
a phone's screen each time; /score lists more."""


_TALON_CELL = "*"
"""After a total on the scoresheet: its seat dealt, sat the deal out and wrote the talon."""


def _talon_seat(row: ScoreRow) -> int | None:
    """Thousand for four: the seat that sat the row's deal out and wrote the talon's
    points (not one the barrel kept standing still)."""
    out = row.notes.get("sitting_out")
    still = row.notes.get("stood_still") or []
    if not isinstance(out, int) or (out < len(still) and still[out]):
        return None
    return out


def _cell(text: str) -> str:
    # one place short of the column, so a long name never runs into the next one
    return cut(text, _COLUMN - 1).rjust(_COLUMN)


_HANGING_MARK = re.compile(r"vs\((\d+)\)")


def _mark(cell: str, tr: Translator) -> str:
    """A scoresheet cell as the players read it, not as the engine (and a saved game)
    writes it: "bait" for an English player's "БТ", "vs 83" for "vs(83)" (in brackets
    after a score, it would nest them), "−120" with the minus sign for "-120"."""
    if cell == BAIT_MARK:
        return tr("bait")
    hanging = _HANGING_MARK.fullmatch(cell)
    if hanging:
        return f"vs {hanging[1]}"
    return MINUS + cell[1:] if cell.startswith("-") else cell


def mark_text(cell: str, tr: Translator) -> str:
    """A scoresheet cell as the players read it (see :func:`_mark`)."""
    return _mark(cell, tr)


def _notes(
    notes: dict[str, Any],
    names: list[str],
    tr: Translator,
    *,
    hanging_below: Any = None,
    deltas: tuple[int, ...] = (),
) -> list[str]:
    """The facts of a deal or game worth a line: who bid, trump, outcome, bolts, barrel.

    ``hanging_below``: the amounts the scoresheet under these lines says hang now;
    ``deltas``: what each seat wrote for the deal.
    """
    outcomes = {
        "made": tr("made"),
        "bait": tr("bait (БТ)"),
        "hanging": tr("hanging"),
        "failed": tr("failed"),
        "conceded": tr("conceded"),
    }
    lines = []
    if isinstance(notes.get("bidder"), int):
        lines.append(tr("Bidder: {name}", name=name_of(names, notes["bidder"])))
    if notes.get("contract"):
        lines.append(tr("Contract: {n}", n=notes["contract"]))
    if isinstance(notes.get("trump"), str):
        lines.append(tr("Trump: {suit}", suit=suit_symbol(notes["trump"])))
    if isinstance(notes.get("outcome"), str):
        outcome = notes["outcome"]
        lines.append(tr("Outcome: {what}", what=outcomes.get(outcome, escape(outcome))))
    bidder = notes.get("bidder")
    points = notes.get("points")
    if (
        notes.get("bait") is True
        and isinstance(bidder, int)
        and isinstance(points, list)
        and points[bidder]
    ):
        # the whistlers' scores are more than their own points: say where the rest came from
        whistlers = [s for s in range(len(points)) if s != bidder]
        paid = notes.get("hanging_paid") or [0] * len(points)
        if len(whistlers) > 1 and len(deltas) == len(points) == len(paid):
            # shared, the odd point to one: what each wrote beyond own and hanging points
            shares = ", ".join(
                f"{name_of(names, s)} {deltas[s] - points[s] - paid[s]}" for s in whistlers
            )
            lines.append(
                tr(
                    "The bidder's {points} are split: {shares}.",
                    points=points[bidder],
                    shares=shares,
                )
            )
        else:
            others = ", ".join(name_of(names, s) for s in whistlers)
            lines.append(
                tr("The bidder's {points} go to {names}.", points=points[bidder], names=others)
            )
    if notes.get("takes_all") is True:
        lines.append(tr("Winner takes all: the bidder writes the whole deal."))
    if notes.get("conceded") is True and notes.get("outcome") != "conceded":
        lines.append(tr("The bidder conceded."))  # unless the outcome line said it
    if notes.get("conceded") is True and isinstance(bidder, int):
        # what conceding costs depends on a convention: say which one this table plays
        marks = notes.get("marks") or []
        penalised = bidder < len(marks) and str(marks[bidder]).startswith("-")
        lines.append(
            tr("Conceded: the others get half the contract each, the bidder loses it.")
            if penalised
            else tr("Conceded: the others get half the contract each, the bidder a bolt.")
        )
    if notes.get("redeal") is True:
        lines.append(tr("Redeal: nothing is scored."))
    if notes.get("golden") is True:
        lines.append(tr("Golden round: the deal's points count double."))
    if isinstance(points, list) and len(points) == len(names) and any(points):
        out = notes.get("sitting_out")
        shown = ", ".join(
            f"{name_of(names, i)} {number(p)}" for i, p in enumerate(points) if i != out
        )
        lines.append(f"{tr('Deal points')}: {shown}")
    lines += _talon_line(notes, names, tr)
    # Who sits on the barrel ("on_barrel") is not repeated here: the barrel lines below
    # say who climbed onto it this deal, the scoresheet under them who sits there now.
    # per seat the total reset: 555 or −555 (rows saved before kept ``True`` for either)
    trucked = notes.get("dump_truck")
    if isinstance(trucked, list) and any(trucked):
        for total in (DUMP_TRUCK, -DUMP_TRUCK):
            who = ", ".join(
                name_of(names, i) for i, t in enumerate(trucked) if t and (t < 0) == (total < 0)
            )
            if who:
                lines.append(
                    tr("Dump truck ({total} → 0): {names}", total=number(total), names=who)
                )
    marriages = _nonzero(notes.get("marriages"), names)
    if marriages:
        lines.append(tr("Marriages declared: {line}", line=marriages))
    combos = _nonzero(notes.get("combination_points"), names)
    if combos:
        lines.append(tr("Combinations counted: {line}", line=combos))
    bella = _nonzero(notes.get("bella_points"), names)
    if bella:
        lines.append(tr("Bella: {line}", line=bella))
    # The running bolt counts are on the scoresheet below; here only this deal's.
    bolted = notes.get("bolts")
    if isinstance(bolted, list) and any(bolted):
        who = ", ".join(name_of(names, i) for i, b in enumerate(bolted) if b)
        lines.append(tr("Bolt this deal: {names}", names=who))
    penalties = _nonzero(notes.get("bolt_penalties"), names)
    if penalties:
        lines.append(tr("Third bolt: {line}", line=penalties))
    lines += _barrel_lines(notes, names, tr)
    paid = _nonzero(notes.get("hanging_paid"), names)
    if paid:
        lines.append(tr("Hanging points paid: {line}", line=paid))
    # Amounts waiting to be played one a deal (or one sum), whoever wrote them: a
    # queue, even when it is as long as the table has seats.
    hanging = notes.get("hanging_left")
    if isinstance(hanging, list) and any(hanging) and hanging != hanging_below:
        lines.append(tr("Hanging: {points}", points=", ".join(str(h) for h in hanging)))
    return lines


def _talon_line(notes: dict[str, Any], names: list[str], tr: Translator) -> list[str]:
    """Thousand for four: the dealer sat the deal out and writes the talon's points."""
    out, talon, written = notes.get("sitting_out"), notes.get("talon_points"), notes.get("written")
    still = notes.get("stood_still") or []
    if not isinstance(out, int) or not isinstance(talon, int) or not isinstance(written, list):
        return []
    if out < len(still) and still[out]:
        return []  # the barrel's line says it: no points this deal
    return [
        tr(
            "{name} dealt and sat out: the talon's {points} write {written}",
            name=name_of(names, out),
            points=talon,
            written=number(written[out]),
        )
    ]


def _barrel_lines(notes: dict[str, Any], names: list[str], tr: Translator) -> list[str]:
    """Who stood still and what the barrel did this deal: the totals move by 120 or to
    880 with no card points to show for it, and the players are owed the reason."""
    events: dict[str, list[str]] = {}
    for event in notes.get("barrel_events") or []:
        events.setdefault(event["event"], []).append(name_of(names, event["seat"]))
    said = {
        "climbed": tr("Onto the barrel at 880: {names}"),
        "fell_off": tr("Below 880, off the barrel: {names}"),
        "attempts_used": tr("Three attempts on the barrel used up, −120: {names}"),
        "raised_failed": tr("Raised above 121 on the barrel and failed, off the barrel: {names}"),
        "knocked_off": tr("Knocked off the barrel, −120: {names}"),
        "rolled_off_together": tr("Reached the barrel together, all drop to 760: {names}"),
    }
    # "won" needs no line: the game's final result follows at once
    lines = []
    marks = notes.get("marks")
    if isinstance(marks, list) and ATTEMPT_FAILED in marks:
        # failed off the barrel costs the contract: the 0 written here needs its reason
        who = ", ".join(name_of(names, i) for i, m in enumerate(marks) if m == ATTEMPT_FAILED)
        lines.append(tr("Barrel attempt failed, at no cost: {names}", names=who))
    still = notes.get("stood_still")
    if isinstance(still, list) and any(still):
        who = ", ".join(name_of(names, i) for i, s in enumerate(still) if s)
        lines.append(tr("No points this deal, for the barrel: {names}", names=who))
    for kind, text in said.items():
        if kind in events:
            lines.append(text.format(names=", ".join(events[kind])))
    return lines


def _nonzero(values: Any, names: list[str]) -> str:
    """The seats with a value other than 0, as "Ann 49, Cid 20"; "" if there is none."""
    if not isinstance(values, list):
        return ""
    return ", ".join(f"{name_of(names, i)} {number(v)}" for i, v in enumerate(values) if v)


def _sheet_notes(
    notes: dict[str, Any], names: list[str], tr: Translator, winner: int | None = None
) -> list[str]:
    lines = []
    bolts = notes.get("bolts")
    if isinstance(bolts, list) and any(bolts):
        shown = ", ".join(f"{name_of(names, i)} {b}" for i, b in enumerate(bolts))
        lines.append(tr("Bolts: {line}", line=shown))
    barrel = notes.get("barrel")
    # once the game is won, the winner sits on the barrel no more
    if isinstance(barrel, dict) and barrel.get("seat") is not None and winner is None:
        lines.append(
            tr(
                "On the barrel: {name} (attempt {n})",
                name=name_of(names, barrel["seat"]),
                n=barrel.get("attempts", 0) + 1,
            )
        )
    hanging = notes.get("hanging")
    # a game over plays no more deals for them, and its table message says none hang
    if isinstance(hanging, list) and any(hanging) and winner is None:
        lines.append(tr("Hanging: {points}", points=", ".join(str(h) for h in hanging)))
    return lines


def scoresheet_text(
    sheet: Scoresheet, names: list[str], tr: Translator, *, deals: int = SHEET_ROWS
) -> str:
    """``deals``: how many of the latest deals are listed; the totals sum up all."""
    header = "    " + "".join(_cell(n) for n in names)
    shown = sheet.rows[-deals:]
    rows = [
        f"{row.deal_no:>3} "
        + "".join(
            _cell(_mark(c, tr) + (_TALON_CELL if seat == _talon_seat(row) else ""))
            for seat, c in enumerate(row.cells)
        )
        for row in shown
    ]
    if len(shown) < len(sheet.rows):
        rows.insert(0, "  …")
    total = tr("Σ").ljust(4)[:4] + "".join(_cell(signed(t)) for t in sheet.totals)
    table = "\n".join([header, *rows, total])
    lines = [tr("<b>Scoresheet — {game}</b>", game=game_title(sheet.game, tr))]
    lines.append(f"<pre>{escape(table)}</pre>")
    if any(_talon_seat(row) is not None for row in shown):
        lines.append(tr("{mark} the dealer sat the deal out and wrote the talon", mark=_TALON_CELL))
    lines += _sheet_notes(sheet.notes, names, tr, sheet.winner)
    return "\n".join(lines)


def _deltas(row: ScoreRow, names: list[str], tr: Translator) -> str:
    """What each seat wrote for the deal: "Ann +57 · Ben 0 (bait)"."""
    return " · ".join(
        f"{name_of(names, i)} {signed(d, plus=True)}"
        + (f" ({escape(_mark(c, tr))})" if not c.lstrip("-").isdigit() else "")
        for i, (d, c) in enumerate(zip(row.deltas, row.cells, strict=False))
    )


def deal_line(row: ScoreRow, names: list[str], tr: Translator) -> str:
    """A deal's result on one line, for a player's hand message."""
    return tr("Deal {n}: {line}", n=row.deal_no, line=_deltas(row, names, tr))


def deal_result_text(
    row: ScoreRow,
    sheet: Scoresheet,
    names: list[str],
    tr: Translator,
    *,
    last_trick: Trick | None = None,
) -> str:
    """``last_trick``: the deal's final trick, which no table message shows (the deal is
    scored as it is taken)."""
    lines = [tr("<b>Deal {n} is over.</b>", n=row.deal_no), _deltas(row, names, tr)]
    lines += _notes(
        row.notes, names, tr, hanging_below=sheet.notes.get("hanging"), deltas=row.deltas
    )
    final = last_trick_line(last_trick, names, tr)  # which cuts the names itself
    if final:
        lines.append(final)
    lines += ["", scoresheet_text(sheet, names, tr, deals=RESULT_ROWS)]
    return "\n".join(lines)


def final_text(sheet: Scoresheet, names: list[str], tr: Translator) -> str:
    lines = [tr("<b>Game over.</b> 🏆 {name} wins!", name=name_of(names, sheet.winner))]
    lines.append(
        tr(
            "Final scores: {line}",
            line=" · ".join(f"{name_of(names, i)} {signed(t)}" for i, t in enumerate(sheet.totals)),
        )
    )
    # equal totals at the top: the result must say what made one of them the winner
    tie_break = sheet.notes.get("tie_break")
    if tie_break is not None:
        top = max(sheet.totals)
        name = name_of(names, sheet.winner)
        if tie_break == "last_trick":
            lines.append(tr("A tie at {n}: {name} took the last trick.", n=number(top), name=name))
        else:
            lines.append(
                tr(
                    "A tie at {n}: {name} sits first from the dealer's left.",
                    n=number(top),
                    name=name,
                )
            )
    marsed = sheet.notes.get("mars")  # the seats that lost below half the target
    if marsed:
        lines.append(tr("Mars: {names}", names=", ".join(name_of(names, s) for s in marsed)))
    return "\n".join(lines)
