"""JSON for the paths every button press takes: Bot API bodies and replies, game states
and table rows. orjson writes and reads the same compact JSON as ``json`` does with
``separators=(",", ":")``, several times faster; the standard library stays for the rest.

Its errors are the standard ones: a bad document raises a ``ValueError``
(``json.JSONDecodeError`` among them), a value it cannot write a ``TypeError``.
"""

from __future__ import annotations

from typing import Any

import orjson

__all__ = ["dump_bytes", "dumps", "loads"]

loads = orjson.loads


def dumps(value: Any) -> str:
    """``value`` as compact JSON text; non-ASCII characters are written as they are."""
    return orjson.dumps(value).decode()


def dump_bytes(value: Any) -> bytes:
    """``value`` as compact JSON, UTF-8 encoded: what an HTTP body needs."""
    return orjson.dumps(value)
