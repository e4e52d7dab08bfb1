"""A small HTTP/1.1 client for the JSON posts of :mod:`bot.services.session`.

aiohttp's request machinery (URL and header objects, cookies, tracing, payload and
timer objects) costs several times what the bot's whole exchange needs: one POST of
a JSON body and one reply read by its length, on a kept-alive connection. This does
just that. A broken, closed or timed-out connection is closed and never reused;
the caller sees an :class:`OSError` or :class:`TimeoutError` and decides what to do.
"""

from __future__ import annotations

import asyncio
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

__all__ = ["HttpPool"]

_MAX_LINE = 65536


@dataclass(frozen=True)
class _Target:
    host: str
    port: int
    tls: bool
    path: bytes
    host_header: bytes


class _Connection:
    __slots__ = ("reader", "writer")

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    def usable(self) -> bool:
        return not (self.reader.at_eof() or self.writer.is_closing())

    def close(self) -> None:
        self.writer.close()


class HttpPool:
    """Kept-alive connections per host, at most ``limit`` requests at a time."""

    def __init__(self, *, ssl_context: ssl.SSLContext | None, user_agent: str, limit: int) -> None:
        self._ssl = ssl_context
        self._user_agent = user_agent.encode()
        self._slots = asyncio.Semaphore(limit)
        self._idle: dict[tuple[str, int, bool], list[_Connection]] = {}
        self._targets: dict[str, _Target] = {}

    def _target(self, url: str) -> _Target:
        target = self._targets.get(url)
        if target is None:
            parts = urlsplit(url)
            tls = parts.scheme == "https"
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise ValueError(f"not an http(s) URL: {url}")
            port = parts.port or (443 if tls else 80)
            path = parts.path or "/"
            if parts.query:
                path += "?" + parts.query
            default_port = port == (443 if tls else 80)
            host = parts.hostname if default_port else f"{parts.hostname}:{port}"
            target = _Target(parts.hostname, port, tls, path.encode(), host.encode())
            self._targets[url] = target
        return target

    async def _connect(self, target: _Target) -> _Connection:
        key = (target.host, target.port, target.tls)
        idle = self._idle.get(key)
        while idle:
            connection = idle.pop()
            if connection.usable():
                return connection
            connection.close()
        reader, writer = await asyncio.open_connection(
            target.host,
            target.port,
            ssl=(self._ssl or ssl.create_default_context()) if target.tls else None,
            limit=_MAX_LINE,
        )
        return _Connection(reader, writer)

    async def post_json(self, url: str, body: bytes, seconds: float) -> tuple[int, str]:
        """POST ``body`` as JSON within ``seconds``; the status and the reply's text (UTF-8)."""
        target = self._target(url)
        head = b"".join(
            (
                b"POST ",
                target.path,
                b" HTTP/1.1\r\nHost: ",
                target.host_header,
                b"\r\nUser-Agent: ",
                self._user_agent,
                b"\r\nContent-Type: application/json\r\nContent-Length: ",
                str(len(body)).encode(),
                b"\r\n\r\n",
            )
        )
        async with asyncio.timeout(seconds), self._slots:
            connection = await self._connect(target)
            keep = False
            try:
                connection.writer.write(head + body)
                status, text, keep = await _read_response(connection.reader)
            finally:
                if keep:
                    key = (target.host, target.port, target.tls)
                    self._idle.setdefault(key, []).append(connection)
                else:
                    connection.close()
        return status, text

    async def close(self) -> None:
        idle, self._idle = self._idle, {}
        for connections in idle.values():
            for connection in connections:
                connection.close()


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, str, bool]:
    """Status, body text and whether the connection may be used again."""
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionResetError("Server disconnected")
    version, _, rest = status_line.partition(b" ")
    status = int(rest.split(b" ", 1)[0])
    keep = version.strip() == b"HTTP/1.1"
    length: int | None = None
    chunked = False
    while True:
        line = await reader.readline()
        if not line:
            raise ConnectionResetError("Server disconnected")
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        value = value.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"transfer-encoding":
            chunked = value.endswith(b"chunked")
        elif name == b"connection":
            keep = value == b"keep-alive" or (keep and value != b"close")
    if chunked:
        parts = []
        while True:
            size = int((await reader.readline()).split(b";", 1)[0], 16)
            if size == 0:
                while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                    pass  # trailers
                break
            parts.append(await reader.readexactly(size))
            await reader.readexactly(2)
        data = b"".join(parts)
    elif length is not None:
        data = await reader.readexactly(length)
    else:
        data = await reader.read()
        keep = False
    return status, data.decode("utf-8"), keep
