"""One server per SQLite file, whatever the path it is named by.

SQLite keeps a write-ahead log and its index per *path* (``PATH-wal``, ``PATH-shm``): two
servers on one file named two ways (a hard link, a symbolic link, a path through ``..``)
would each write a log of their own, and the file would lose games. So the lock belongs to
the file itself, not to a name of it.

On Linux the lock is ``flock`` on a descriptor of the database file. It is independent of
the POSIX locks SQLite takes on the same file (byte ranges near 1 GiB, held per process
and dropped when any descriptor of the file closes): ``flock`` belongs to the open file
description, and Linux never lets the two kinds meet. On BSD and macOS they do meet (a
whole-file ``flock`` would block SQLite's own locks), so there the lock is ``flock`` on a
file beside the database's real path (``REALPATH.lock``): symbolic links and ``..`` are
seen through, hard links are not. Windows has no ``fcntl``, and takes no lock.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import sqlite3
import sys
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no OS lock for SQLite files (docs/web.md)
    fcntl = None  # type: ignore[assignment]

LOCKS_APART = sys.platform.startswith("linux")
"""Whether ``flock`` and POSIX record locks are independent here (Linux), so that the
database file itself can carry the server's lock beside SQLite's."""

ATTEMPTS = 10
"""How many times a lock is tried when the file at the path keeps changing (a restore
renaming a new file into place between the open and the lock)."""


class FileHeldError(BlockingIOError):
    """The file's lock is held by another server (or a restore)."""

    def __init__(self, holder: int | None) -> None:
        super().__init__(errno.EWOULDBLOCK, "the database file is locked")
        self.holder = holder
        """The process holding it, when known."""


def lock_database(path: Path) -> int | None:
    """Lock the SQLite file at ``path``; held while the descriptor returned stays open.

    ``None`` means no lock on this system (Windows). A file that does not exist is made
    first, as an empty SQLite database (never a file of 0 bytes, which a server refuses as
    a database that lost its games). Raises :class:`FileHeldError` when another holds the
    lock, ``OSError`` when the file cannot be opened or made.
    """
    if fcntl is None:
        return None
    if not LOCKS_APART:
        return _lock_beside(Path(os.path.realpath(path)))
    for _ in range(ATTEMPTS):
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            _make_database(Path(os.path.realpath(path)))
            continue
        try:
            _flock(fd)
            # A restore may have renamed a new file to this path between the open and the
            # lock: the lock on the old file would guard nothing.
            if os.path.samestat(os.fstat(fd), os.stat(path)):
                return fd
        except FileNotFoundError:
            pass  # removed meanwhile: made again on the next try
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
    raise OSError(errno.EAGAIN, "the file keeps changing", str(path))


def _flock(fd: int) -> None:
    """Lock ``fd``'s file exclusively, or raise :class:`FileHeldError` at once."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise FileHeldError(_holder(fd)) from None


def _holder(fd: int) -> int | None:
    """The process holding a ``flock`` on ``fd``'s file, as ``/proc/locks`` lists it.

    A line reads ``1: FLOCK  ADVISORY  WRITE 4321 08:01:131075 0 EOF`` (the device's
    major and minor numbers in hexadecimal, then the inode); a lock waited for has ``->``
    in the second field. Overlay file systems may list another device: then ``None``.
    """
    stat = os.fstat(fd)
    key = f"{os.major(stat.st_dev):02x}:{os.minor(stat.st_dev):02x}:{stat.st_ino}"
    try:
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        fields = line.split()
        if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == key:
            return int(fields[4]) if fields[4].isdigit() else None
    return None


def _lock_beside(real: Path) -> int:
    """The lock on ``REALPATH.lock``, which holds the holder's process id (BSD, macOS)."""
    fd = os.open(real.with_name(real.name + ".lock"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
        os.close(fd)
        raise FileHeldError(int(holder) if holder.isdigit() else None) from None
    except BaseException:
        os.close(fd)
        raise
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def _make_database(real: Path) -> None:
    """Put an empty SQLite database at ``real`` unless a file is there already.

    Made under another name and linked into place, so that the path never holds a file of
    0 bytes (nor a half-written one) that another server starting at the same moment could
    lock and refuse. A file system without hard links (FAT) gets a copy, made exclusively.
    """
    if not real.parent.is_dir():
        raise FileNotFoundError(errno.ENOENT, "no such folder", str(real.parent))
    temporary = real.with_name(f".{real.name}.{secrets.token_hex(8)}.new")
    # Made as SQLite makes a database (0o644 less the umask), so the link has its mode.
    os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644))
    try:
        connection = sqlite3.connect(temporary)
        try:
            # Any write makes SQLite write the file's header (a database of one page).
            connection.execute("PRAGMA user_version = 0")
            connection.commit()
        finally:
            connection.close()
        try:
            os.link(temporary, real)
        except FileExistsError:
            pass  # made meanwhile by another server: that one is locked instead
        except OSError:
            _copy_new(temporary, real)
    except sqlite3.Error as exc:
        raise OSError(errno.EIO, f"cannot make a new database: {exc}", str(real)) from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()


def _copy_new(source: Path, target: Path) -> None:
    """Copy ``source`` to a new file ``target``, unless ``target`` exists."""
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
    except FileExistsError:
        return
    try:
        data = source.read_bytes()
        while data:
            data = data[os.write(fd, data) :]
        os.fsync(fd)
    finally:
        os.close(fd)
