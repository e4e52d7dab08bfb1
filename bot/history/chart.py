"""The picture of a game's score: each player's total over the deals, the target marked.

One image for every chat: Telegram shows it as it is in light and dark themes alike,
so it carries its own opaque mid-dark background, light text and bright lines told
apart by colour and by marker (colour-blind safe), sized for a phone's screen.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

# A Figure made directly (not through pyplot) draws with Agg and needs no GUI backend.
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

__all__ = ["BACKGROUND", "HEIGHT", "TEXT", "WIDTH", "score_chart"]

WIDTH, HEIGHT = 1200, 800
_DPI = 150
BACKGROUND = "#1e2a36"
TEXT = "#f2f5f8"
_GRID = "#3c4b5a"
_TARGET = "#ffd166"
# Okabe-Ito colours that stay bright on the background, and a marker each.
_LINES = (("#56b4e9", "o"), ("#e69f00", "s"), ("#cc79a7", "^"), ("#009e73", "D"))


def score_chart(
    names: Sequence[str],
    totals: Sequence[Sequence[int]],
    *,
    target: int | None,
    title: str,
    deal_label: str,
) -> bytes:
    """A PNG of the running totals: ``totals[i]`` is every seat's total after deal i+1."""
    fig = Figure(figsize=(WIDTH / _DPI, HEIGHT / _DPI), dpi=_DPI, facecolor=BACKGROUND)
    ax = fig.add_subplot()
    ax.set_facecolor(BACKGROUND)
    deals = list(range(len(totals) + 1))
    for seat, name in enumerate(names):
        colour, marker = _LINES[seat % len(_LINES)]
        points = [0, *(row[seat] for row in totals)]
        ax.plot(
            deals,
            points,
            color=colour,
            marker=marker,
            markersize=5,
            linewidth=2.5,
            label=f"{name}: {points[-1]}",
        )
    if target is not None:
        ax.axhline(target, color=_TARGET, linestyle="--", linewidth=1.8)
        ax.annotate(
            str(target),
            xy=(deals[-1], target),
            xytext=(-4, 4),
            textcoords="offset points",
            horizontalalignment="right",
            color=_TARGET,
            fontsize=11,
        )
    ax.axhline(0, color=_GRID, linewidth=1)
    ax.grid(True, color=_GRID, linewidth=0.6)
    ax.set_title(title, color=TEXT, fontsize=14, loc="left")
    ax.set_xlabel(deal_label, color=TEXT, fontsize=11)
    ax.tick_params(colors=TEXT, labelsize=10)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    for spine in ax.spines.values():
        spine.set_color(_GRID)
    legend = ax.legend(
        loc="best", fontsize=11, facecolor=BACKGROUND, edgecolor=_GRID, framealpha=0.9
    )
    for text in legend.get_texts():
        text.set_color(TEXT)
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="png", facecolor=BACKGROUND)
    return out.getvalue()
