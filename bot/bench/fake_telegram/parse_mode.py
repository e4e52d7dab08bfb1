"""Telegram's HTML ``parse_mode``, strict enough to catch unescaped text.

Telegram rejects any ``<`` that does not open a supported tag, and any tag
left open or closed out of order.  :func:`parse_html` mirrors that and returns
the plain text with its entities (offsets in UTF-16 code units, as Telegram
counts them).

>>> parse_html("<b>Hi</b> &lt;3")
('Hi <3', [{'type': 'bold', 'offset': 0, 'length': 2}])
"""

from __future__ import annotations

import html
import re
from typing import Any

__all__ = ["HtmlParseError", "parse_html", "utf16_len"]

_TAG_TYPES: dict[str, str] = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
}
_TAG_RE = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^<>]*)?)\s*>")
_ATTR_RE = re.compile(r"""([a-zA-Z-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""")
_ENTITY_RE = re.compile(r"&(lt|gt|amp|quot|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});")


class HtmlParseError(ValueError):
    """The text is not valid Telegram HTML; ``str()`` is Telegram's wording."""


def utf16_len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units, the unit of entity offsets."""
    return len(text.encode("utf-16-le")) // 2


def _byte_offset(text: str, index: int) -> int:
    return len(text[:index].encode())


def _attrs(raw: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for match in _ATTR_RE.finditer(raw):
        name, dq, sq, bare = match.groups()
        found[name.lower()] = html.unescape(dq or sq or bare or "")
    return found


def parse_html(text: str) -> tuple[str, list[dict[str, Any]]]:
    """Return ``(plain_text, entities)`` or raise :class:`HtmlParseError`."""
    plain: list[str] = []
    offset = 0  # UTF-16 offset in the plain text built so far
    stack: list[tuple[str, int, dict[str, str]]] = []
    entities: list[dict[str, Any]] = []
    i = 0

    def emit(chunk: str) -> None:
        nonlocal offset
        plain.append(chunk)
        offset += utf16_len(chunk)

    while i < len(text):
        char = text[i]
        if char == "&":
            entity = _ENTITY_RE.match(text, i)
            if entity:
                emit(html.unescape(entity.group(0)))
                i = entity.end()
            else:
                emit(char)
                i += 1
            continue
        if char != "<":
            stops = [p for p in (text.find("<", i), text.find("&", i)) if p != -1]
            end = min(stops, default=len(text))
            emit(text[i:end])
            i = end
            continue
        tag = _TAG_RE.match(text, i)
        if tag is None:
            if text.find(">", i) == -1:
                msg = f"Unclosed start tag at byte offset {_byte_offset(text, i)}"
            else:
                msg = f'Unsupported start tag "{text[i + 1 : i + 20]}" at byte offset ' + str(
                    _byte_offset(text, i)
                )
            raise HtmlParseError(msg)
        closing, name, raw_attrs = tag.group(1), tag.group(2).lower(), tag.group(3)
        if name not in _TAG_TYPES:
            kind = "end" if closing else "start"
            msg = f'Unsupported {kind} tag "{name}" at byte offset {_byte_offset(text, i)}'
            raise HtmlParseError(msg)
        if closing:
            if not stack or stack[-1][0] != name:
                msg = f'Unmatched end tag at byte offset {_byte_offset(text, i)}, expected "</'
                msg += (stack[-1][0] if stack else "") + '>", found "</' + name + '>"'
                raise HtmlParseError(msg)
            open_name, start, attrs = stack.pop()
            if offset > start:
                entities.append(_entity(open_name, start, offset - start, attrs))
        else:
            attrs = _attrs(raw_attrs)
            if name == "span" and attrs.get("class") != "tg-spoiler":
                msg = f'Unsupported start tag "span" at byte offset {_byte_offset(text, i)}'
                raise HtmlParseError(msg)
            stack.append((name, offset, attrs))
        i = tag.end()
    if stack:
        msg = f'Can\'t find end tag corresponding to start tag "{stack[-1][0]}"'
        raise HtmlParseError(msg)
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(plain), entities


def _entity(name: str, offset: int, length: int, attrs: dict[str, str]) -> dict[str, Any]:
    kind = _TAG_TYPES[name]
    entity: dict[str, Any] = {"type": kind, "offset": offset, "length": length}
    if kind == "text_link":
        entity["url"] = attrs.get("href", "")
    elif kind == "blockquote" and "expandable" in attrs:
        entity["type"] = "expandable_blockquote"
    elif kind == "custom_emoji":
        entity["custom_emoji_id"] = attrs.get("emoji-id", "")
    return entity
