"""A throw-away local PostgreSQL server for the tests, when its binaries are on the machine.

``PostgresServer.start()`` runs ``initdb`` and ``pg_ctl`` from ``/usr/lib/postgresql/*/bin``
(Debian's ``postgresql`` package; CI installs it) on a loopback port, with its data in a new
folder under the system's tmp. PostgreSQL refuses to run as root, so under root the folder is
handed to the ``postgres`` user the package creates and the server runs as that user
(``runuser``).
Each test gets its own database, made with ``CREATE DATABASE ... TEMPLATE``.
"""

from __future__ import annotations

import asyncio
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg


def binaries() -> Path | None:
    """The newest installed PostgreSQL's bin folder, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _as_server_user(argv: list[str]) -> list[str]:
    """The command run as the ``postgres`` user when we are root (PostgreSQL will not run as root)."""
    if os.geteuid() != 0:
        return argv
    return ["runuser", "-u", "postgres", "--", *argv]


@dataclass
class PostgresServer:
    folder: Path
    port: int
    bin: Path
    _names: itertools.count = field(default_factory=itertools.count)

    @classmethod
    def start(cls) -> PostgresServer:
        """initdb a cluster in a new folder under the system's tmp and start it on a free loopback port."""
        bin_folder = binaries()
        if bin_folder is None:
            raise RuntimeError("no PostgreSQL server binaries in /usr/lib/postgresql")
        folder = Path(tempfile.mkdtemp(prefix="ironcross-postgres-"))
        if os.geteuid() == 0:  # the server runs as the package's postgres user
            user = pwd.getpwnam("postgres")
            shutil.chown(folder, user.pw_uid, user.pw_gid)
        server = cls(folder, _free_port(), bin_folder)
        data = folder / "data"
        server._run("initdb", "-D", str(data), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8")
        options = f"-p {server.port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        server._run("pg_ctl", "-D", str(data), "-l", str(folder / "server.log"), "-o", options, "-w", "start")
        return server

    def _run(self, program: str, *args: str) -> None:
        done = subprocess.run(
            _as_server_user([str(self.bin / program), *args]), capture_output=True, text=True, cwd=self.folder
        )
        if done.returncode:
            raise RuntimeError(f"{program} failed ({done.returncode}): {done.stderr or done.stdout}")

    def stop(self) -> None:
        """Stop the server and remove its folder, in the background: after a whole test run it
        holds hundreds of databases, and the run need not wait for their files to go."""
        try:
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        finally:
            subprocess.Popen(["rm", "-rf", str(self.folder)], start_new_session=True)

    @property
    def version(self) -> int:
        """The server's major version, from its bin folder (``/usr/lib/postgresql/15/bin``)."""
        return int(self.bin.parts[-2])

    def url(self, database: str) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, template: str = "template1", name: str | None = None) -> str:
        """A new database, a copy of ``template`` (by default an empty one); its SQLAlchemy URL.

        Callable with or without a running event loop: the statement runs on a loop of its own.
        """
        name = name or f"test_{os.getpid()}_{next(self._names)}"
        # FILE_COPY copies the template's files; the default since PostgreSQL 15 (WAL_LOG) writes
        # every page through the log, about twice as slow for the tests' many small databases.
        strategy = " STRATEGY FILE_COPY" if self.version >= 15 else ""
        with ThreadPoolExecutor(1) as worker:
            statement = f'CREATE DATABASE "{name}" TEMPLATE "{template}"{strategy}'
            worker.submit(asyncio.run, self._execute(statement)).result()
        return self.url(name)

    async def _execute(self, statement: str) -> None:
        connection = await asyncpg.connect(
            host="127.0.0.1", port=self.port, user="postgres", database="postgres"
        )
        try:
            await connection.execute(statement)
        finally:
            await connection.close()
