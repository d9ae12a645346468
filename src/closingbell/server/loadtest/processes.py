"""The servers a load test plays on: ``closingbell serve`` processes, and the CPU they use.

The CPU figures are read from ``/proc`` (Linux only; ``None`` elsewhere): each process's
own time, its main thread's (its event loop's) and its helper processes'.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from closingbell.server.store import async_url


@dataclass
class ServerProcess:
    """A running server process and where to reach it."""

    process: subprocess.Popen[bytes]
    """The ``closingbell serve`` process."""
    port: int
    """The loopback port it listens on."""
    log: Path
    """The file its output goes to."""

    @property
    def base(self) -> str:
        """Its ``host:port``."""
        return f"127.0.0.1:{self.port}"


@contextlib.contextmanager
def server_process(
    database: str,
    bot_processes: int | None = None,
    options: tuple[str, ...] = (),
    environment: Mapping[str, str] | None = None,
) -> Iterator[ServerProcess]:
    """``closingbell serve`` on a free loopback port, stopped when the block ends.

    ``options`` are more arguments of ``closingbell serve``; ``environment``, variables it
    has besides this process's own (settings such as ``CLOSINGBELL_ADDRESS_RATE``).
    """
    extra = (
        [*options] if bot_processes is None else [*options, "--bot-processes", str(bot_processes)]
    )
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    with tempfile.TemporaryDirectory(prefix="closingbell-web-log-") as folder:
        log = Path(folder) / "server.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "closingbell.cli.main",
                    "serve",
                    "--port",
                    str(port),
                    "--database",
                    database,
                    "--bot-delay",
                    "0",
                    # Every client is on this machine: no per-address limits.
                    "--connections-per-address",
                    "0",
                    "--tables-per-minute",
                    "0",
                    *extra,
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=None if environment is None else {**os.environ, **environment},
            )
        server = ServerProcess(process, port, log)
        try:
            yield server
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_until_healthy(server: ServerProcess, timeout: float = 60.0) -> None:
    """Wait for ``server`` to answer ``GET /api/health``; raise if it stops or takes too long."""
    deadline = time.monotonic() + timeout
    while True:
        check_process(server)
        with contextlib.suppress(OSError, http.client.HTTPException):
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
            try:
                connection.request("GET", "/api/health")
                if connection.getresponse().status == 200:
                    return
            finally:
                connection.close()
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server did not answer /api/health within {timeout:g} s")
        time.sleep(0.1)


def check_process(server: ServerProcess) -> None:
    """Raise, with the end of its log, if ``server``'s process has stopped."""
    if server.process.poll() is not None:
        tail = server.log.read_text(errors="replace")[-2000:]
        raise RuntimeError(f"the server stopped (exit {server.process.returncode}):\n{tail}")


async def database_commits(database: str) -> int:
    """Transactions committed so far in PostgreSQL database ``database`` (its URL).

    PostgreSQL's backends report their counts at most about once a second, so the figure
    lags by up to a second; over a measurement of many seconds that is small.
    """
    engine = create_async_engine(async_url(database), poolclass=NullPool)
    try:
        async with engine.connect() as connection:
            value = await connection.scalar(
                sa.text(
                    "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
                )
            )
    finally:
        await engine.dispose()
    return int(value)


def process_cpu(pid: int, stat: str = "stat") -> float | None:
    """CPU seconds (user and system) a process has used so far, from ``/proc``; Linux only.

    ``stat`` is the file read under ``/proc/PID``: ``task/TID/stat`` for one thread.
    """
    try:
        fields = Path(f"/proc/{pid}/{stat}").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_memory(pid: int) -> float | None:
    """The resident memory of process ``pid`` in MB, from ``/proc``; Linux only."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return None


def child_processes(pid: int) -> list[int]:
    """The running (not yet exited) children of process ``pid``, from ``/proc``; Linux only."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state, parent = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:2]
        except (OSError, ValueError):
            continue
        if int(parent) == pid and state != "Z":
            found.append(int(entry.name))
    return found


def _thread_cpu(pid: int) -> float | None:
    """CPU seconds the main thread of process ``pid`` (its event loop) has used; Linux only."""
    return process_cpu(pid, f"task/{pid}/stat")


def _helpers_cpu(pid: int) -> float | None:
    """CPU seconds the running children of process ``pid`` have used so far; Linux only."""
    if not Path("/proc").is_dir():
        return None
    return sum(process_cpu(child) or 0.0 for child in child_processes(pid))


def cpu_sample(pid: int) -> tuple[float | None, float | None, float | None]:
    """CPU seconds so far of process ``pid``, of its main thread and of its helpers."""
    return process_cpu(pid), _thread_cpu(pid), _helpers_cpu(pid)


def cpu_rate(
    before: float | None, after: float | None, seconds: float, *, at_least_0: bool = False
) -> float | None:
    """CPU seconds used between two samples, in percent of one core over ``seconds``.

    ``at_least_0``: for the helpers, whose sum drops when one of them exits.
    """
    if before is None or after is None:
        return None
    used = max(0.0, after - before) if at_least_0 else after - before
    return round(used / seconds * 100, 1)


def total(values: Iterable[float | None]) -> float | None:
    """The sum of ``values``, ``None`` if any is unknown."""
    known = list(values)
    if any(value is None for value in known):
        return None
    return round(sum(value for value in known if value is not None), 1)
