"""One bot process per database file.

SQLite would let a second process share the file, and moves would stay safe (the version
check), but two processes each keep their own timers, caches and settings, so their lobby
races and settings toggles would overwrite each other.  An exclusive ``flock`` on
``<database>.lock`` beside the file makes the second process refuse to start instead.  The
kernel drops the lock when its holder exits, however it exits, so a killed bot never leaves a
stale lock behind; the file itself stays (deleting it would race with a process taking it).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from bot.storage.port import DatabaseInUse


class FileLock:
    """Held from :meth:`acquire` until :meth:`release` (or the process ends)."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def beside(cls, database: Path) -> FileLock:
        """Take the lock of ``database``; :class:`DatabaseInUse` if another holder has it."""
        path = database.with_name(database.name + ".lock")
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)  # not inherited by child processes
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            os.close(fd)
            raise DatabaseInUse(str(database), holder) from None
        except BaseException:
            os.close(fd)
            raise
        # Who holds it, for the message the next process shows (advisory only).
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode("ascii"), 0)
        return cls(path, fd)

    def release(self) -> None:
        """Let another process open the database; idempotent."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # closing the only descriptor releases the flock
