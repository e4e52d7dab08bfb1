"""The engine's cheap copies of JSON data give what the general ones give."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import json
import random

import pytest

from bot.engine.base import Game, json_copy
from bot.engine.deberts import Deberts, DebertsConventions
from bot.engine.thousand import ThousandGame
from bot.engine.thousand.rules import ThousandConventions


def _containers(value: object) -> list[object]:
    if isinstance(value, dict):
        return [value, *itertools.chain.from_iterable(map(_containers, value.values()))]
    if isinstance(value, list):
        return [value, *itertools.chain.from_iterable(map(_containers, value))]
    return []


def test_json_copy_is_a_deep_copy_sharing_nothing() -> None:
    data = {"a": [1, {"b": [2, 3], "c": None}], "d": "x", "e": [[], {}], "f": 1.5, "g": True}
    copied = json_copy(data)
    assert copied == copy.deepcopy(data) == data
    originals = {id(c) for c in _containers(data)}
    assert not originals & {id(c) for c in _containers(copied)}
    copied["a"][1]["b"].append(4)
    assert data["a"][1]["b"] == [2, 3]


def test_conventions_json_is_what_asdict_gives() -> None:
    for kind in (DebertsConventions, ThousandConventions):
        for name, choices in kind.options().items():
            for value in choices:
                conventions = kind().replace(name, value)
                assert conventions.to_json() == dataclasses.asdict(conventions)
                assert kind.from_json(conventions.to_json()) == conventions


def _spoil(value: object) -> None:
    """Changes every list and dict inside ``value``."""
    for container in _containers(value):
        if isinstance(container, dict):
            container["spoiled"] = True
        elif isinstance(container, list):
            container.append("spoiled")


@pytest.mark.parametrize("cls", [Deberts, ThousandGame])
def test_the_json_a_game_gives_shares_nothing_with_it(cls: type[Game]) -> None:
    game = cls.new(3, seed=4)
    rng = random.Random(4)
    # a few deals in, and at a moment the deal has announcements (combinations, marriages)
    while game.deal_no < 4 or not game.view(None)["announcements"]:
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    handed_out = [
        lambda: game.to_json(),
        lambda: game.scoresheet().to_json(),
        *(lambda seat=seat: game.view(seat) for seat in (None, 0, 1, 2)),
    ]
    before = [json.dumps(give()) for give in handed_out]
    for give in handed_out:
        _spoil(give())
    assert [json.dumps(give()) for give in handed_out] == before
