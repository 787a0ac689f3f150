#!/usr/bin/env python3
"""Holds COUNT idle WebSocket connections open for the connection-memory benchmark.

Usage: idle_clients.py PORT PATH_TEMPLATE COUNT   ("{i}" in PATH_TEMPLATE becomes the connection's number)

Each connection completes the HTTP upgrade (RFC 6455 §4) and then says nothing. Prints "ready N" once N
connections are open, then waits until standard input closes. A separate process, so that the benchmark's
resident memory counts the server's side only.
"""
import asyncio
import base64
import os
import resource
import sys


async def open_one(port, path):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 101"):
        raise RuntimeError(f"upgrade refused: {head[:80]!r}")
    return reader, writer


async def main():
    port, template, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    connections = []
    batch = 200
    for start in range(0, count, batch):
        opened = await asyncio.gather(
            *(open_one(port, template.replace("{i}", str(i))) for i in range(start, min(start + batch, count)))
        )
        connections.extend(opened)
    print(f"ready {len(connections)}", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    for _, writer in connections:
        writer.close()


asyncio.run(main())
