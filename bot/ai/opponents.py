"""How the other players play, judged from their plays so far.

A layout of the hidden cards that a seat deals fits what it has seen, but not yet
*how* the others played. For each layout the game's inference counts the others'
plays where they had a choice and those of them the heuristic card play (the easy
level's, the rollouts') would not have made. :func:`judge` turns those counts into
each layout's weight and the chance that the others play by the heuristic, as the
easy level does, rather than search, as a strong player does: a player who made
the heuristic's choice in every play so far probably plays that way, one who made it
in about half of them probably searches.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["LIKELIHOOD", "PLAIN_MATCH", "PLAIN_PRIOR", "chance", "judge"]

LIKELIHOOD = 0.3
"""How much likelier a layout is per play of the others that the heuristic card play
explains than per play it does not."""
PLAIN_MATCH = 0.95
"""How often a player who plays by the heuristic makes its choice."""
PLAIN_PRIOR = 0.5
"""The chance, before anyone has played, that the others play by the heuristic."""


def chance(missed: int, choices: int, search_match: float, prior: float = PLAIN_PRIOR) -> float:
    """The chance that the others play by the heuristic, ``prior`` before plays of theirs
    with a choice (``choices``), ``missed`` of which the heuristic would not have made."""
    made = choices - missed
    plain = prior * PLAIN_MATCH**made * (1 - PLAIN_MATCH) ** missed
    searching = (1 - prior) * search_match**made * (1 - search_match) ** missed
    return plain / (plain + searching) if plain + searching > 0 else prior


def judge(
    tallies: Iterable[tuple[float, int, int]], search_match: float, *, mixed: bool
) -> tuple[list[float], float]:
    """Each layout's weight and the chance that the others play by the heuristic.

    ``tallies``: per layout, its weight before the plays (1, or how well it fits the
    auction), the plays the heuristic would not have made and the plays with a choice.
    ``search_match``: how often a player who searches makes the heuristic's choice.
    ``mixed``: weigh a layout by how likely the plays are under it for either kind of
    player, mixed by that chance (a searching player's plays are taken to say nothing
    of the layout); else by ``LIKELIHOOD`` a miss, whoever plays.
    """
    rows = list(tallies)
    plains = []
    plain = searching = 0.0
    for before, missed, choices in rows:
        made = choices - missed
        likely = PLAIN_MATCH**made * (1 - PLAIN_MATCH) ** missed
        plains.append(likely)
        plain += before * likely
        searching += before * search_match**made * (1 - search_match) ** missed
    chance = PLAIN_PRIOR * plain
    total = chance + (1 - PLAIN_PRIOR) * searching
    odds = chance / total if total > 0 else PLAIN_PRIOR
    if not mixed:
        return [before * LIKELIHOOD**missed for before, missed, _ in rows], odds
    anyway = searching / (sum(before for before, _, _ in rows) or 1.0)
    weights = [
        before * (odds * likely + (1 - odds) * anyway)
        for (before, _, _), likely in zip(rows, plains, strict=True)
    ]
    return weights, odds
