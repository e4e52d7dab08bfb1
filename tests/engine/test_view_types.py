"""Every view the engine returns has exactly the shape its ``TypedDict`` declares.

The bot's messages and players are type-checked against those declarations
(:mod:`bot.engine.views`), so a key the engine writes and the type does not name, or
the other way round, would let a reader be checked against the wrong shape.
"""

from __future__ import annotations

import functools
import random
import types
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from bot.engine import game_class
from bot.engine.deberts import view as deberts_view
from bot.engine.thousand import view as thousand_view

_hints = functools.cache(get_type_hints)


def _check(value: Any, hint: Any, path: str, seen: set[str]) -> None:
    """Fails unless ``value`` is of type ``hint``; ``seen`` gathers the TypedDicts met."""
    origin = get_origin(hint)
    if is_typeddict(hint):
        assert isinstance(value, dict), f"{path}: {value!r} is not a dict"
        required, optional = hint.__required_keys__, hint.__optional_keys__
        assert value.keys() >= required, f"{path}: no {sorted(required - value.keys())}"
        assert value.keys() <= required | optional, (
            f"{path}: {sorted(value.keys() - required - optional)} undeclared"
        )
        hints = _hints(hint)
        for key, item in value.items():
            _check(item, hints[key], f"{path}.{key}", seen)
        seen.add(hint.__name__)
    elif origin in (Union, types.UnionType):
        errors = []
        for option in get_args(hint):
            tried: set[str] = set()
            try:
                _check(value, option, path, tried)
            except AssertionError as error:
                errors.append(str(error))
            else:
                seen |= tried
                return
        raise AssertionError(" / ".join(errors))
    elif origin is Literal:
        assert any(type(value) is type(a) and value == a for a in get_args(hint)), (
            f"{path}: {value!r} is not one of {get_args(hint)}"
        )
    elif origin is list:
        assert isinstance(value, list), f"{path}: {value!r} is not a list"
        (item_type,) = get_args(hint)
        for i, item in enumerate(value):
            _check(item, item_type, f"{path}[{i}]", seen)
    elif origin is dict:
        assert isinstance(value, dict), f"{path}: {value!r} is not a dict"
        key_type, item_type = get_args(hint)
        for key, item in value.items():
            _check(key, key_type, f"{path} key", seen)
            _check(item, item_type, f"{path}.{key}", seen)
    elif hint is None or hint is type(None):
        assert value is None, f"{path}: {value!r} is not None"
    else:
        # bool is an int to isinstance: a flag must not pass for a number, nor one for it
        assert type(value) is hint, f"{path}: {value!r} is not {hint.__name__}"


def test_the_checker_refuses_a_missing_an_extra_or_a_wrong_key() -> None:
    game = game_class("thousand").new(3, seed=1)
    view = game.view(0)
    _check(view, thousand_view.ThousandView, "view", set())
    for spoiled in (
        {k: v for k, v in view.items() if k != "talons"},
        {**view, "talon": []},
        {**view, "bid": True},
        {**view, "game": "deberts"},
        {**view, "trick": [{"seat": 0, "card": 7}]},
    ):
        with pytest.raises(AssertionError):
            _check(spoiled, thousand_view.ThousandView, "view", set())


# conventions that make the rarer shapes appear: the seven swap, both redeals,
# the ace marriage, a talon taken face down
DEBERTS = {"seven_swap": True, "four_sevens_redeal": True, "target": 301}
THOUSAND = {"ace_marriage": True, "show_talon_on_hundred": False, "redeal": True}
DEALS = 8
GAMES = 8
DEBERTS_SHAPES = {"Declaration", "SevenSwap", "Redeal", "DealSummary", "Trick"}
THOUSAND_SHAPES = {"Marriage", "Gift", "Talon", "BarrelSeat", "Redeal", "RedealSummary"}
THOUSAND_SHAPES |= {"DealSummary", "Trick"}


def _action(legal: list[str], rng: random.Random) -> str:
    """A random action, but the rare ones whenever they come: the seven swapped, a
    redeal asked for; and a pass often, so that all may pass."""
    for rare in ("swap7", "sevens", "redeal"):
        if rare in legal:
            return rare
    if "pass" in legal and rng.random() < 0.5:
        return "pass"
    return rng.choice(legal)


TYPES = {
    "deberts": (deberts_view.DebertsView, deberts_view.DebertsBriefView, DEBERTS, DEBERTS_SHAPES),
    "thousand": (
        thousand_view.ThousandView,
        thousand_view.ThousandBriefView,
        THOUSAND,
        THOUSAND_SHAPES,
    ),
}


@pytest.mark.parametrize(
    ("name", "seats"),
    [("deberts", 3), ("deberts", 2), ("thousand", 4), ("thousand", 3), ("thousand", 2)],
)
def test_views_of_random_games_have_their_declared_shape(name: str, seats: int) -> None:
    full, brief, conventions, shapes = TYPES[name]
    cls = game_class(name)
    rng = random.Random(f"{name}{seats}")
    seen: set[str] = set()
    for _ in range(GAMES):  # a game or two shows every shape; a few more if needed
        game = cls.new(seats, cls.conventions_type.from_json(conventions), rng.randrange(2**32))
        while not game.is_over and game.deal_no <= DEALS:
            to_act = game.current_seat()
            assert to_act is not None
            for seat in (None, to_act):
                _check(game.view(seat), full, f"{name} view({seat})", seen)
                # the brief view is the full one less its history (test_brief_views)
                assert game.view(seat, brief=True).keys() == brief.__required_keys__
            game.apply(to_act, _action(game.legal_actions(to_act), rng))
        _check(game.view((to_act + 1) % seats), full, f"{name} another seat's view", seen)
        if seen >= shapes:
            break
    assert seen >= shapes
