"""Splitting an imported document in a process of its own.

Splitting 5 MB into sections is seconds of pure Python: in a thread it would still share the
interpreter's lock with the event loop, and every other channel's command would wait its turn at
it. A child Python (``python -m bot.library.apart``) reads the text on its standard input and
writes the sections as JSON; the event loop only waits for it.
"""

from __future__ import annotations

import asyncio
import json
import sys

from bot.library.sections import Section, split_document

SPLIT_SECONDS = 60  # a split taking longer is stopped (5 MB takes some 2 s)


async def split_apart(text: str, most: int) -> list[Section]:
    """:func:`split_document` of ``text`` (stopping past ``most`` sections), in a child process."""
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        __name__,
        str(most),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(child.communicate(text.encode()), SPLIT_SECONDS)
    finally:
        if child.returncode is None:  # stopped, or the import was cancelled
            child.kill()
            await child.wait()
    if child.returncode:
        raise RuntimeError(f"splitting the document failed: {err.decode(errors='replace')[-2000:]}")
    return [Section(*fields) for fields in json.loads(out)]


def main() -> None:
    sections = split_document(sys.stdin.buffer.read().decode(), int(sys.argv[1]))
    json.dump([(s.number, s.title, s.body) for s in sections], sys.stdout)


if __name__ == "__main__":
    main()
