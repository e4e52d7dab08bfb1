"""The lean session's HTTP client against a scripted server: reuse, framing, failures."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.telegram.http import HttpPool

HERE = Path(__file__).parent
CERT, KEY = HERE / "tls-cert.pem", HERE / "tls-key.pem"
"""A self-signed certificate for 127.0.0.1, good until 2126, made for these tests."""

Reply = Callable[[asyncio.StreamWriter, bytes], Awaitable[bool]]
"""Writes the reply to one request (its body given); ``False`` closes the connection."""


@dataclass
class Server:
    replies: list[Reply]
    url: str = ""
    connections: int = 0
    bodies: list[bytes] = field(default_factory=list)
    heads: list[bytes] = field(default_factory=list)
    closed: asyncio.Event = field(default_factory=asyncio.Event)

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                )
                body = await reader.readexactly(length)
                self.heads.append(head)
                self.bodies.append(body)
                if not await self.replies.pop(0)(writer, body):
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        writer.close()
        await writer.wait_closed()
        self.closed.set()


def plain(text: bytes, status: int = 200, extra: bytes = b"") -> Reply:
    async def reply(writer: asyncio.StreamWriter, body: bytes) -> bool:
        writer.write(
            b"HTTP/1.1 %d X\r\nContent-Type: application/json\r\nContent-Length: %d\r\n%b\r\n%b"
            % (status, len(text), extra, text)
        )
        return b"close" not in extra

    return reply


def chunked(*parts: bytes) -> Reply:
    async def reply(writer: asyncio.StreamWriter, body: bytes) -> bool:
        writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        for part in parts:
            writer.write(b"%x\r\n%b\r\n" % (len(part), part))
        writer.write(b"0\r\n\r\n")
        return True

    return reply


async def hang_up(writer: asyncio.StreamWriter, body: bytes) -> bool:
    return False


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    state = Server(replies=[])
    listener = await asyncio.start_server(state.handle, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    state.url = f"http://127.0.0.1:{port}/bot1:x/sendMessage"
    async with listener:
        yield state


def pool() -> HttpPool:
    return HttpPool(ssl_context=None, user_agent="test", limit=4)


async def test_requests_share_one_kept_alive_connection(server: Server) -> None:
    server.replies += [plain(b'{"ok":true}'), plain('{"t":"Д♠"}'.encode()), chunked(b"ab", b"cd")]
    http = pool()
    assert await http.post_json(server.url, b'{"a":1}', 5) == (200, '{"ok":true}')
    assert await http.post_json(server.url, b"{}", 5) == (200, '{"t":"Д♠"}')
    assert await http.post_json(server.url, b"[]", 5) == (200, "abcd")
    assert server.connections == 1
    assert server.bodies == [b'{"a":1}', b"{}", b"[]"]
    head = server.heads[0]
    assert head.startswith(b"POST /bot1:x/sendMessage HTTP/1.1\r\n")
    assert b"\r\nContent-Type: application/json\r\n" in head
    assert b"\r\nHost: 127.0.0.1:" in head
    await http.close()


async def test_error_statuses_come_back_with_their_body(server: Server) -> None:
    server.replies += [plain(b'{"ok":false}', status=429), plain(b"x", status=502)]
    http = pool()
    assert await http.post_json(server.url, b"{}", 5) == (429, '{"ok":false}')
    assert await http.post_json(server.url, b"{}", 5) == (502, "x")
    await http.close()


async def test_a_connection_the_server_closes_is_not_reused(server: Server) -> None:
    server.replies += [plain(b"1", extra=b"Connection: close\r\n"), plain(b"2"), hang_up]
    http = pool()
    assert await http.post_json(server.url, b"{}", 5) == (200, "1")
    assert await http.post_json(server.url, b"{}", 5) == (200, "2")
    assert server.connections == 2
    # the server hangs up on a kept connection: the caller hears of it...
    with pytest.raises((OSError, EOFError)):
        await http.post_json(server.url, b"{}", 5)
    # ...and the next request goes out on a new connection
    server.replies.append(plain(b"3"))
    assert await http.post_json(server.url, b"{}", 5) == (200, "3")
    assert server.connections == 3
    await http.close()


async def test_an_idle_connection_closed_meanwhile_is_replaced(server: Server) -> None:
    async def reply_then_close(writer: asyncio.StreamWriter, body: bytes) -> bool:
        await plain(b"1")(writer, body)
        return False  # as a server whose keep-alive time ran out

    server.replies += [reply_then_close, plain(b"2")]
    http = pool()
    assert await http.post_json(server.url, b"{}", 5) == (200, "1")
    await server.closed.wait()
    idle = [c for connections in http._idle.values() for c in connections]
    for _ in range(1000):  # until the loop has read the end of the stream
        if not idle[0].usable():
            break
        await asyncio.sleep(0)
    assert await http.post_json(server.url, b"{}", 5) == (200, "2")
    assert server.connections == 2
    await http.close()


async def test_a_reply_that_never_comes_times_out_and_its_connection_is_dropped(
    server: Server,
) -> None:
    never = asyncio.Event()

    async def silent(writer: asyncio.StreamWriter, body: bytes) -> bool:
        await never.wait()
        return False

    server.replies += [silent, plain(b"next")]
    http = pool()
    with pytest.raises(TimeoutError):
        await http.post_json(server.url, b"{}", 0.05)
    assert await http.post_json(server.url, b"{}", 5) == (200, "next")
    assert server.connections == 2
    never.set()
    await http.close()


def trickled(reply: bytes) -> Reply:
    """The reply a few bytes at a time, each write let out before the next."""

    async def write(writer: asyncio.StreamWriter, body: bytes) -> bool:
        for at in range(0, len(reply), 3):
            writer.write(reply[at : at + 3])
            await writer.drain()
            await asyncio.sleep(0)
        return True

    return write


async def test_a_reply_split_across_reads_is_put_together(server: Server) -> None:
    text = '{"ok":true,"t":"Д♠"}'.encode()
    server.replies += [
        trickled(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%b" % (len(text), text)),
        trickled(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n"),
        plain(b"after"),
    ]
    http = pool()
    assert await http.post_json(server.url, b"{}", 5) == (200, text.decode())
    assert await http.post_json(server.url, b"{}", 5) == (200, "ab")
    assert await http.post_json(server.url, b"{}", 5) == (200, "after")
    assert server.connections == 1
    await http.close()


async def test_a_reply_without_a_length_runs_to_the_end_of_the_stream(server: Server) -> None:
    async def unframed(writer: asyncio.StreamWriter, body: bytes) -> bool:
        writer.write(b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{"ok":')
        await writer.drain()
        writer.write(b"true}")
        return False  # the end of the stream ends the body

    server.replies += [unframed, plain(b"next")]
    http = pool()
    assert await http.post_json(server.url, b"{}", 5) == (200, '{"ok":true}')
    assert await http.post_json(server.url, b"{}", 5) == (200, "next")
    assert server.connections == 2
    await http.close()


async def test_a_garbled_or_cut_reply_fails_and_its_connection_goes(server: Server) -> None:
    async def garbled(writer: asyncio.StreamWriter, body: bytes) -> bool:
        writer.write(b"HTTP/1.1 OK fine\r\nContent-Length: 1\r\n\r\nx")
        return True

    async def cut(writer: asyncio.StreamWriter, body: bytes) -> bool:
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")
        return False

    server.replies += [garbled, cut, plain(b"fine")]
    http = pool()
    with pytest.raises(ValueError):
        await http.post_json(server.url, b"{}", 5)
    with pytest.raises(OSError):
        await http.post_json(server.url, b"{}", 5)
    assert await http.post_json(server.url, b"{}", 5) == (200, "fine")
    assert server.connections == 3
    await http.close()


async def test_https_as_telegram_serves_it() -> None:
    """The Bot API is reached over TLS: the same exchange, through the TLS transport."""
    server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_tls.load_cert_chain(CERT, KEY)
    state = Server(replies=[plain(b'{"ok":true}'), chunked("Д".encode(), "♠".encode())])
    listener = await asyncio.start_server(state.handle, "127.0.0.1", 0, ssl=server_tls)
    port = listener.sockets[0].getsockname()[1]
    async with listener:
        client_tls = ssl.create_default_context(cafile=CERT)  # the hostname is checked too
        http = HttpPool(ssl_context=client_tls, user_agent="test", limit=4)
        url = f"https://127.0.0.1:{port}/bot1:x/getMe"
        assert await http.post_json(url, b'{"a":1}', 5) == (200, '{"ok":true}')
        assert await http.post_json(url, b"{}", 5) == (200, "Д♠")
        assert state.connections == 1
        assert state.bodies == [b'{"a":1}', b"{}"]
        # a client that does not trust the certificate does not talk to the server
        strict = HttpPool(ssl_context=ssl.create_default_context(), user_agent="t", limit=1)
        with pytest.raises(ssl.SSLError):
            await strict.post_json(url, b"{}", 5)
        await strict.close()
        await http.close()
