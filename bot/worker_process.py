"""One worker process of :mod:`bot.worker_pool`, and the frames its jobs and answers travel in.

A worker is spawned with its end of a socket pair. It warms itself (``warm(niceness)``: its
priority lowered, what its jobs need loaded), says its process id, then answers one job at a
time: each job a frame read off its socket (the job's function and its plain data, pickled),
each answer a frame written back (the job's result, or the exception it raised). It ends when
the bot closes its end of the socket (or the bot's process ends).

A frame is its length (8 bytes, network order) and that many bytes of a pickle.
"""

from __future__ import annotations

import os
import pickle
import socket
import struct
import traceback
from collections.abc import Callable
from typing import Any

LENGTH = struct.Struct("!Q")


def framed(thing: Any) -> bytes:
    """``thing`` pickled, after its length."""
    data = pickle.dumps(thing, pickle.HIGHEST_PROTOCOL)
    return LENGTH.pack(len(data)) + data


def answered(job: Callable[[Any], Any], plain: Any) -> bytes:
    """The frame of ``job(plain)``: (True, its result), or (False, the exception it raised, with
    the worker's traceback as a note; if it cannot be pickled and read back, a RuntimeError
    naming it)."""
    try:
        return framed((True, job(plain)))
    except Exception as error:  # noqa: BLE001 - every failure of a job goes back to its caller
        error.add_note("in the worker process:\n" + "".join(traceback.format_exception(error)))
        try:
            frame = framed((False, error))
            pickle.loads(frame[LENGTH.size :])  # one whose arguments are not its ``args`` is not read back
            return frame
        except Exception:  # noqa: BLE001 - an exception that cannot travel is named instead
            return framed((False, RuntimeError(f"{type(error).__name__}: {error}\n{error.__notes__[-1]}")))


def _exactly(connection: socket.socket, size: int) -> bytes | None:
    """``size`` bytes read off ``connection``; None once the bot closed it."""
    data = bytearray(size)
    view = memoryview(data)
    while view:
        got = connection.recv_into(view)
        if not got:
            return None
        view = view[got:]
    return bytes(data)


def serve(connection: socket.socket, warm: Callable[[int], None], niceness: int) -> None:
    """A worker's life (the target of its process): warmed, its process id said, then its jobs
    answered one at a time until the bot closes the connection."""
    warm(niceness)
    connection.sendall(framed(os.getpid()))
    while (head := _exactly(connection, LENGTH.size)) is not None:
        frame = _exactly(connection, LENGTH.unpack(head)[0])
        if frame is None:
            return
        job, plain = pickle.loads(frame)
        connection.sendall(answered(job, plain))
