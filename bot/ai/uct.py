"""The tree of single-observer information-set MCTS (Cowling, Powley and Whitehouse
2012), shared by the searches of both games: one node per move, its reward total for
the seat that made it, its visits, and how often it was available (which stands in for
its parent's visits, as different dealings allow different moves)."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

__all__ = ["EXPLORATION", "Node", "child", "credit", "descend", "follow", "select"]

EXPLORATION = 0.7
"""UCB1's exploration constant, for rewards scaled to about [-1, 1]."""


@dataclass(slots=True)
class Node:
    """A move's node: who made it, its reward total, its visits and availability."""

    seat: int
    total: float = 0.0
    visits: int = 0
    available: int = 0
    children: dict[int, Node] = field(default_factory=dict)

    def most_visited(self) -> int:
        """The move of the child visited most (the higher total breaks a tie)."""
        best = max(self.children.items(), key=lambda item: (item[1].visits, item[1].total))
        return best[0]


def child(node: Node, move: int, seat: int) -> Node:
    """The node of ``move`` below ``node``, made by ``seat`` (added if new)."""
    found = node.children.get(move)
    if found is None:
        found = node.children[move] = Node(seat=seat, available=1)
    return found


def descend(path: list[Node], moves: list[int], seat: int, rng: random.Random) -> tuple[int, bool]:
    """One step down the tree from ``path[-1]``: the move :func:`select` picks among
    ``moves``, made by ``seat``; its node is appended to ``path``. Also whether that
    node was added now (the walk then leaves the tree)."""
    move = select(path[-1], moves, rng)
    return move, _step(path, move, seat)


def follow(path: list[Node], moves: list[int], move: int, seat: int) -> bool:
    """One step down the tree from ``path[-1]`` along ``move``, chosen outside the tree
    (by a model of how ``seat`` plays) among ``moves``, which count as available as
    :func:`select` counts them; its node is appended to ``path``. Whether it was added now."""
    _note_available(path[-1], moves)
    return _step(path, move, seat)


def _step(path: list[Node], move: int, seat: int) -> bool:
    """Append ``move``'s node below ``path[-1]`` to ``path``; whether it was added now."""
    node = path[-1]
    found = node.children.get(move)
    path.append(child(node, move, seat) if found is None else found)
    return found is None


def _note_available(node: Node, moves: list[int]) -> list[int]:
    """Count each of ``moves`` that has a node as available once more; the moves that
    have none (untried)."""
    untried = []
    for m in moves:
        found = node.children.get(m)
        if found is None:
            untried.append(m)
        else:
            found.available += 1
    return untried


def credit(path: list[Node], values: list[float]) -> None:
    """Credit every node below the root on ``path`` with the result for its seat."""
    for visited in path[1:]:
        visited.visits += 1
        visited.total += values[visited.seat]


def select(node: Node, moves: list[int], rng: random.Random) -> int:
    """An untried move at random, else UCB1 over the moves available now."""
    untried = _note_available(node, moves)
    if untried:
        return untried[rng.randrange(len(untried))]
    best = moves[0]
    best_score = -math.inf
    for m in moves:
        found = node.children[m]
        score = found.total / found.visits + EXPLORATION * math.sqrt(
            math.log(found.available) / found.visits
        )
        if score > best_score:
            best, best_score = m, score
    return best
