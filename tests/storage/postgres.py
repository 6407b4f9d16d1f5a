"""A throw-away local PostgreSQL server for the tests, when its binaries are on the machine.

``PostgresServer.start(folder)`` runs ``initdb`` and ``pg_ctl`` from ``/usr/lib/postgresql/*/bin``
(Debian's ``postgresql`` package; CI installs it) on a loopback port, with its data in
``folder``. PostgreSQL refuses to run as root, so under root the folder is handed to the
``postgres`` user the package creates and the server runs as that user (``runuser``).
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
    def start(cls, folder: Path) -> PostgresServer:
        """initdb a cluster in ``folder`` and start it on a free loopback port."""
        bin_folder = binaries()
        if bin_folder is None:
            raise RuntimeError("no PostgreSQL server binaries in /usr/lib/postgresql")
        folder.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            for path in (folder, *folder.parents):  # the server user must reach its folder
                if path == Path("/"):
                    break
                os.chmod(path, os.stat(path).st_mode | 0o011)
            shutil.chown(folder, user.pw_uid, user.pw_gid)
        server = cls(folder, _free_port(), bin_folder)
        data = folder / "data"
        server._run("initdb", "-D", str(data), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8")
        options = f"-p {server.port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        server._run("pg_ctl", "-D", str(data), "-l", str(folder / "server.log"), "-o", options, "-w", "start")
        return server

    def _run(self, program: str, *args: str) -> None:
        subprocess.run(
            _as_server_user([str(self.bin / program), *args]),
            check=True,
            capture_output=True,
            cwd=self.folder,
        )

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")

    def url(self, database: str) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, template: str = "template1", name: str | None = None) -> str:
        """A new database, a copy of ``template`` (by default an empty one); its SQLAlchemy URL.

        Callable with or without a running event loop: the statement runs on a loop of its own.
        """
        name = name or f"test_{os.getpid()}_{next(self._names)}"
        with ThreadPoolExecutor(1) as worker:
            statement = f'CREATE DATABASE "{name}" TEMPLATE "{template}"'
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
