"""The engine's cheap copies of JSON data give what the general ones give."""

from __future__ import annotations

import copy
import dataclasses
import itertools

from bot.engine.base import json_copy
from bot.engine.deberts import DebertsConventions
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
