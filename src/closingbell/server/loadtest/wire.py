"""The load test's words with a server: HTTP requests, and raw WebSocket frames.

A few lines of asyncio and of sockets rather than client libraries: the ``web`` extra has
no HTTP client, and a client that floods or never reads is written with bare frames.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import socket
import struct
from typing import Any


async def http_request(
    base: str,
    method: str,
    path: str,
    body: Any = None,
    *,
    parse: bool = True,
    source: str | None = None,
) -> tuple[int, Any]:
    """One HTTP/1.1 request on its own connection; the status and the JSON answer.

    Without ``parse``, the answer's bytes. ``source`` is the local address to send from
    (``127.0.0.2``, say), when not the system's choice. A few lines of asyncio rather than
    an HTTP client library: the ``web`` extra has none, and the answers have a
    ``Content-Length``.
    """
    host, port = base.rsplit(":", 1)
    data = b"" if body is None else json.dumps(body).encode()
    local = None if source is None else (source, 0)
    reader, writer = await asyncio.open_connection(host, int(port), local_addr=local)
    try:
        writer.write(
            f"{method} {path} HTTP/1.1\r\nHost: {base}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n".encode()
            + data
        )
        await writer.drain()
        answer = await reader.read()
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    head, _, payload = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    if not parse:
        return status, payload
    return status, json.loads(payload) if payload else None


def replay_path(table_id: str) -> str:
    """A table's whole replay in words, as the page asks for it."""
    return f"/api/tables/{table_id}/replay?start=0&limit=1000&lang=en"


def masked_frame(payload: bytes, opcode: int = 0x1) -> bytes:
    """One whole client frame (text by default), masked as clients must mask."""
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    size = len(payload)
    if size < 126:
        head = bytes([0x80 | opcode, 0x80 | size])
    elif size < 1 << 16:
        head = bytes([0x80 | opcode, 0x80 | 126]) + struct.pack("!H", size)
    else:
        head = bytes([0x80 | opcode, 0x80 | 127]) + struct.pack("!Q", size)
    return head + mask + body


def open_raw_websocket(
    port: int, path: str, source: str = "127.0.0.1", receive_buffer: int | None = None
) -> tuple[socket.socket | None, int]:
    """A WebSocket to ``path`` on 127.0.0.1 from ``source``, as a bare socket.

    Returns the socket and 101, or ``None`` and the HTTP status of a refusal. A client
    that floods or never reads is written with it: no library stands in the way.
    ``receive_buffer`` sets the socket's ``SO_RCVBUF`` before connecting.
    """
    sock = socket.socket()
    sock.settimeout(10)
    if receive_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)  # byte by byte: nothing of the first frames is consumed
        if not chunk:
            break
        head += chunk
    fields = head.split(b" ", 2)
    status = int(fields[1]) if len(fields) > 1 and fields[1].isdigit() else 0
    if status != 101:
        sock.close()
        return None, status
    return sock, status


def _read_exact(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the server closed the connection")
        data += chunk
    return data


def read_frame(sock: socket.socket) -> tuple[int, bytes]:
    """The next server frame: its opcode (1 text, 8 close ...) and payload."""
    first, second = _read_exact(sock, 2)
    size = second & 0x7F
    if size == 126:
        size = struct.unpack("!H", _read_exact(sock, 2))[0]
    elif size == 127:
        size = struct.unpack("!Q", _read_exact(sock, 8))[0]
    return first & 0x0F, _read_exact(sock, size)


def close_code(payload: bytes) -> int:
    """The code of a close frame's payload (1005 when it has none)."""
    return int(struct.unpack("!H", payload[:2])[0]) if len(payload) >= 2 else 1005
