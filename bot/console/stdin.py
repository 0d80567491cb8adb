"""The person's answers, read from the terminal by the event loop."""

from __future__ import annotations

import asyncio
import codecs
import os
import sys
from typing import TextIO


class StdinLines:
    """Lines typed on standard input, read by the event loop itself (no thread).

    A thread blocked in `input()` would keep the process waiting for Enter after Ctrl-C; a
    reader on the event loop is simply cancelled. None means the input has ended (Ctrl-D).
    """

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self._in = stdin
        self._out = stdout
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._ended = False

    async def __call__(self, prompt: str) -> str | None:
        out = self._out or sys.stdout
        out.write(prompt)
        out.flush()
        while "\n" not in self._buffer:
            if self._ended:
                rest, self._buffer = self._buffer, ""
                return rest or None
            chunk = await self._read()
            self._ended = not chunk
            self._buffer += self._decoder.decode(chunk, final=self._ended)
        line, self._buffer = self._buffer.split("\n", 1)
        return line.rstrip("\r")

    async def _read(self) -> bytes:
        fd = (self._in or sys.stdin).fileno()
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        try:
            loop.add_reader(fd, self._wake, ready)
        except (PermissionError, NotImplementedError):  # a regular file: it never blocks
            return self._read_now(fd)
        try:
            await ready
        finally:
            loop.remove_reader(fd)
        return self._read_now(fd)

    @staticmethod
    def _wake(ready: asyncio.Future[None]) -> None:
        if not ready.done():
            ready.set_result(None)

    @staticmethod
    def _read_now(fd: int) -> bytes:
        try:
            return os.read(fd, 4096)
        except OSError:  # the terminal went away: as good as Ctrl-D
            return b""
