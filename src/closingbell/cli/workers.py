"""``closingbell serve --workers N``: N server processes on one PostgreSQL database.

The first process binds the listening socket and starts N workers, each a ``closingbell
serve`` of its own that accepts connections on that inherited socket (the kernel hands each
new connection to one of them) and shares the database with the others
(``closingbell.server.cluster``). The first process watches them: a worker that dies is
started again after a second (its tables are taken over meanwhile by the others); SIGTERM
or Ctrl-C stops every worker with SIGTERM, each handing its tables over, and waits for them.
A worker that fails within its first seconds with status 1 (a database it refuses) stops the
whole server: starting it again would only fail again.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence

WORKER_FD = "CLOSINGBELL_WORKER_FD"
"""The environment variable that gives a worker the listening socket's file descriptor."""
WORKER_NUMBER = "CLOSINGBELL_WORKER_NUMBER"
"""The environment variable that gives a worker its number (1 to N), for its messages."""
RESTART_AFTER = 1.0
"""Seconds before a worker that died is started again."""
EARLY_FAILURE = 10.0
"""Seconds after its start within which a worker's failure (status 1) stops the server."""
STOP_WAIT = 30.0
"""Seconds the workers have to stop after SIGTERM before they are killed."""


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port`` that worker processes may inherit."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def inherited_socket() -> socket.socket | None:
    """In a worker: the listening socket the first process made, or ``None``."""
    fd = os.environ.get(WORKER_FD)
    if not fd:
        return None
    return socket.socket(fileno=int(fd))


def worker_command(argv: Sequence[str]) -> list[str]:
    """The command line of a worker: ``argv`` (``serve`` and its options) without ``--workers``."""
    command = [sys.executable, "-m", "closingbell.cli.main"]
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--workers":
            skip = True
        elif not arg.startswith("--workers="):
            command.append(arg)
    return [*command, "--workers", "1"]


def supervise(count: int, sock: socket.socket, argv: Sequence[str]) -> int:
    """Run ``count`` workers on ``sock`` until SIGTERM or Ctrl-C; the exit status."""
    command = worker_command(argv)
    stopping = False

    def stop(_signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    previous = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGINT)}
    workers: dict[int, tuple[subprocess.Popen[bytes], float]] = {}

    def start(number: int) -> None:
        env = {**os.environ, WORKER_FD: str(sock.fileno()), WORKER_NUMBER: str(number)}
        # Workers stay out of the terminal's process group: Ctrl-C reaches this process,
        # which stops them in order, rather than all of them at once.
        process = subprocess.Popen(
            command, env=env, pass_fds=(sock.fileno(),), start_new_session=True
        )
        workers[number] = (process, time.monotonic())

    status = 0
    try:
        for number in range(1, count + 1):
            start(number)
        print(f"closingbell: {count} workers share the database (SIGTERM stops them)", flush=True)
        restart_at: dict[int, float] = {}
        while not stopping:
            time.sleep(0.2)
            now = time.monotonic()
            for number, (process, started) in list(workers.items()):
                code = process.poll()
                if code is None or number in restart_at:
                    continue
                if code == 1 and now - started < EARLY_FAILURE:
                    print(
                        f"closingbell serve: worker {number} could not start (status 1); "
                        "stopping the others",
                        file=sys.stderr,
                        flush=True,
                    )
                    status = 1
                    stopping = True
                    break
                print(
                    f"closingbell serve: worker {number} ended (status {code}); "
                    f"starting it again in {RESTART_AFTER:g} s",
                    file=sys.stderr,
                    flush=True,
                )
                restart_at[number] = now + RESTART_AFTER
            for number, when in list(restart_at.items()):
                if not stopping and time.monotonic() >= when:
                    del restart_at[number]
                    start(number)
    finally:
        for process, _ in workers.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_WAIT
        for process, _ in workers.values():
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for s, handler in previous.items():
            signal.signal(s, handler)
        sock.close()
    return status
