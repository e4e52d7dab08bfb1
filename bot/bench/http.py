"""``python -m bot.bench http``: the CPU the bot's HTTP client spends on one Bot API call.

The client (:class:`bot.telegram.http.HttpPool`) posts an ``editMessageText``-sized
body to a minimal HTTP server in a child process, which answers each with a reply of
Telegram's size and headers at once. The server's CPU is its own process's, so the
figure is the client's alone: what each of the several calls a card costs takes from
the bot's one core. ``--concurrency`` calls are in flight at a time, as at a busy bot.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import platform
import statistics
import time
from multiprocessing.connection import Connection

from bot.loop import run
from bot.telegram.http import HttpPool

_REPLY_BODY = (
    b'{"ok":true,"result":{"message_id":17,"from":{"id":1,"is_bot":true,"first_name":"B"},'
    b'"chat":{"id":2,"first_name":"A","type":"private"},"date":1700000000,"edit_date":'
    b'1700000001,"text":"' + b"x" * 300 + b'"}}'
)
_REPLY = (
    b"HTTP/1.1 200 OK\r\nServer: nginx/1.18.0\r\nDate: Thu, 26 Nov 2026 09:00:00 GMT\r\n"
    b"Content-Type: application/json\r\nContent-Length: %d\r\nConnection: keep-alive\r\n"
    b"Strict-Transport-Security: max-age=31536000; includeSubDomains; preload\r\n"
    b"Access-Control-Allow-Origin: *\r\n\r\n%b" % (len(_REPLY_BODY), _REPLY_BODY)
)
_REQUEST_BODY = b'{"chat_id":2,"message_id":17,"text":"' + b"y" * 400 + b'","parse_mode":"HTML"}'


class _Server(asyncio.Protocol):
    """Answers every request at once; reads requests by their Content-Length."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.buffer = b""

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while (end := self.buffer.find(b"\r\n\r\n")) >= 0:
            head = self.buffer[:end].lower()
            at = head.index(b"content-length:") + len(b"content-length:")
            length = int(head[at : head.index(b"\r\n", at)] if b"\r\n" in head[at:] else head[at:])
            if len(self.buffer) < end + 4 + length:
                return
            self.buffer = self.buffer[end + 4 + length :]
            self.transport.write(_REPLY)  # type: ignore[attr-defined]


def _serve(ready: Connection) -> None:
    async def main() -> None:
        server = await asyncio.get_running_loop().create_server(_Server, "127.0.0.1", 0)
        ready.send(server.sockets[0].getsockname()[1])
        await asyncio.Event().wait()

    run(main())


async def _measure(port: int, calls: int, concurrency: int, repeat: int) -> list[float]:
    """CPU microseconds per call, one figure per window."""
    http = HttpPool(ssl_context=None, user_agent="bench", limit=100)
    url = f"http://127.0.0.1:{port}/bot1:bench/editMessageText"

    async def worker(n: int) -> None:
        for _ in range(n):
            await http.post_json(url, _REQUEST_BODY, 10)

    async def window(n: int) -> float:
        start = time.process_time()
        await asyncio.gather(*(worker(n // concurrency) for _ in range(concurrency)))
        return (time.process_time() - start) / (n // concurrency * concurrency) * 1e6

    await window(min(calls, 2000))  # warm-up: connections opened, code paths hot
    figures = [await window(calls) for _ in range(repeat)]
    await http.close()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench http")
    parser.add_argument("--calls", type=int, default=20000, help="calls per window")
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5, help="windows; the median is shown")
    args = parser.parse_args(argv)
    receive, send = multiprocessing.Pipe(duplex=False)
    server = multiprocessing.Process(target=_serve, args=(send,), daemon=True)
    server.start()
    try:
        port = receive.recv()
        figures = run(_measure(port, args.calls, args.concurrency, args.repeat))
    finally:
        server.terminate()
        server.join()
    median = statistics.median(figures)
    print(
        f"HTTP client CPU per call  {median:.1f} µs (median of {len(figures)} windows:"
        f" {', '.join(f'{f:.1f}' for f in figures)}; {args.concurrency} in flight)"
    )
    print(
        json.dumps(
            {
                "cpu_us_per_call": round(median, 2),
                "windows_us": [round(f, 2) for f in figures],
                "calls_per_window": args.calls,
                "concurrency": args.concurrency,
                "python": platform.python_version(),
            }
        )
    )
    return 0
