"""A small HTTP/1.1 client for the JSON posts of :mod:`bot.telegram.session`.

aiohttp's request machinery (URL and header objects, cookies, tracing, payload and
timer objects) costs several times what the bot's whole exchange needs: one POST of
a JSON body and one reply read by its length, on a kept-alive connection. This does
just that, as an :class:`asyncio.Protocol` that parses the reply from the bytes as
they arrive: a reply usually comes in one read, and a stream reader would wake the
caller once for each of its lines. A broken, closed or timed-out connection is
closed and never reused; the caller sees an :class:`OSError`, :class:`ValueError` or
:class:`TimeoutError` and decides what to do.
"""

from __future__ import annotations

import asyncio
import ssl
from dataclasses import dataclass
from typing import NamedTuple, cast
from urllib.parse import urlsplit

__all__ = ["HttpPool"]

_MAX_HEAD = 65536
Reply = tuple[int, str, bool]
"""Status, body text and whether the connection may be used again."""


@dataclass(frozen=True)
class _Target:
    host: str
    port: int
    tls: bool
    path: bytes
    host_header: bytes

    @property
    def key(self) -> tuple[str, int, bool]:
        return self.host, self.port, self.tls


class _Head(NamedTuple):
    status: int
    keep: bool
    length: int | None
    chunked: bool
    start: int
    """Where the body starts in the buffer."""

    @property
    def to_end(self) -> bool:
        """The body runs to the end of the stream."""
        return self.length is None and not self.chunked


class _Connection(asyncio.Protocol):
    """One kept-alive connection; one request on it at a time."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self._buffer = bytearray()
        self._reply: asyncio.Future[Reply] | None = None
        self._head: _Head | None = None
        self._ended = False

    # the protocol's side

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports have the methods of asyncio's but not its classes
        self.transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        if self._reply is None or self._reply.done():
            self.close()  # nothing was asked: a server talking out of turn is not trusted
            return
        self._buffer += data
        try:
            reply = self._parse()
        except ValueError as e:
            self._fail(e)
            return
        if reply is not None:
            self._settle(reply)

    def eof_received(self) -> bool:
        self._ended = True
        head = self._head
        if self._reply is not None and head is not None and head.to_end:
            self._settle((head.status, self._text(self._buffer[head.start :]), False))
            return False
        self._fail(ConnectionResetError("Server disconnected"))
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._ended = True
        self._fail(exc if isinstance(exc, OSError) else ConnectionResetError("Server disconnected"))

    # the caller's side

    def usable(self) -> bool:
        return not self._ended and self.transport is not None and not self.transport.is_closing()

    def close(self) -> None:
        self._ended = True
        if self.transport is not None:
            self.transport.close()

    async def exchange(self, request: bytes, deadline: float) -> Reply:
        """Send ``request`` and read its reply, both before the loop's time ``deadline``."""
        assert self.transport is not None
        loop = asyncio.get_running_loop()
        reply: asyncio.Future[Reply] = loop.create_future()
        self._reply = reply
        self._head = None
        self._buffer.clear()
        timer = loop.call_at(deadline, self._fail, TimeoutError())
        try:
            self.transport.write(request)
            return await reply
        finally:
            timer.cancel()
            self._reply = None
            if not reply.done() or reply.cancelled() or reply.exception() is not None:
                self.close()

    def _settle(self, reply: Reply) -> None:
        if self._reply is not None and not self._reply.done():
            self._reply.set_result(reply)

    def _fail(self, error: BaseException) -> None:
        if self._reply is not None and not self._reply.done():
            self._reply.set_exception(error)
        self.close()

    # reading the reply

    def _parse(self) -> Reply | None:
        """The reply once all of it is in the buffer; ``None`` while it is not."""
        if self._head is None:
            self._head = self._read_head()
            if self._head is None:
                return None
        status, keep, length, chunked, start = self._head
        if chunked:
            body = self._dechunk(start)
            if body is None:
                return None
            return status, self._text(body), keep
        if length is None:
            return None  # read to the end of the stream
        if len(self._buffer) < start + length:
            return None
        if len(self._buffer) > start + length:
            keep = False  # more than was asked for: the connection's framing is not trusted
        return status, self._text(self._buffer[start : start + length]), keep

    def _read_head(self) -> _Head | None:
        end = self._buffer.find(b"\r\n\r\n")
        skip = 4
        if end < 0:
            end, skip = self._buffer.find(b"\n\n"), 2
        if end < 0:
            if len(self._buffer) > _MAX_HEAD:
                raise ValueError("reply head too long")
            return None
        lines = bytes(self._buffer[:end]).split(b"\n")
        version, _, rest = lines[0].partition(b" ")
        status = int(rest.split(b" ", 1)[0])
        keep = version.strip() == b"HTTP/1.1"
        length: int | None = None
        chunked = False
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            value = value.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding":
                chunked = value.endswith(b"chunked")
            elif name == b"connection":
                keep = value == b"keep-alive" or (keep and value != b"close")
        if length is None and not chunked:
            keep = False
        return _Head(status, keep, length, chunked, end + skip)

    def _dechunk(self, start: int) -> bytes | None:
        """The body of a chunked reply once its last chunk and trailers are in."""
        buffer = self._buffer
        parts: list[bytes] = []
        at = start
        while True:
            line_end = buffer.find(b"\n", at)
            if line_end < 0:
                return None
            size = int(bytes(buffer[at:line_end]).split(b";", 1)[0].strip(), 16)
            at = line_end + 1
            if size == 0:
                while True:  # trailers, up to an empty line
                    line_end = buffer.find(b"\n", at)
                    if line_end < 0:
                        return None
                    empty = not buffer[at:line_end].strip()
                    at = line_end + 1
                    if empty:
                        return b"".join(parts)
            if len(buffer) < at + size + 2:
                return None
            parts.append(bytes(buffer[at : at + size]))
            at += size
            at = buffer.index(b"\n", at) + 1

    @staticmethod
    def _text(body: bytes | bytearray) -> str:
        return body.decode("utf-8")


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

    async def _connect(self, target: _Target, deadline: float) -> _Connection:
        idle = self._idle.get(target.key)
        while idle:
            connection = idle.pop()
            if connection.usable():
                return connection
            connection.close()
        loop = asyncio.get_running_loop()
        async with asyncio.timeout_at(deadline):
            _, connection = await loop.create_connection(
                _Connection,
                target.host,
                target.port,
                ssl=(self._ssl or ssl.create_default_context()) if target.tls else None,
            )
        return connection

    async def post_json(self, url: str, body: bytes, seconds: float) -> tuple[int, str]:
        """POST ``body`` as JSON within ``seconds``; the status and the reply's text (UTF-8)."""
        target = self._target(url)
        request = b"".join(
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
                body,
            )
        )
        deadline = asyncio.get_running_loop().time() + seconds
        if self._slots.locked():
            async with asyncio.timeout_at(deadline):
                await self._slots.acquire()
        else:
            await self._slots.acquire()  # free: taken at once, with no timer to set up
        try:
            connection = await self._connect(target, deadline)
            status, text, keep = await connection.exchange(request, deadline)
            if keep and connection.usable():
                self._idle.setdefault(target.key, []).append(connection)
            else:
                connection.close()
        finally:
            self._slots.release()
        return status, text

    async def close(self) -> None:
        idle, self._idle = self._idle, {}
        for connections in idle.values():
            for connection in connections:
                connection.close()
