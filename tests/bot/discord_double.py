"""Discord's side of the wire, for the harness: an HTTP session that discord.py sends its
requests through, answering each as Discord would, including the ways Discord fails.

discord.py's own request code runs unchanged on top of it: its retries of 5xx answers, its waits
on 429's ``retry_after``, its exceptions (Forbidden, NotFound, DiscordServerError). So an injected
failure reaches the bot exactly as the real one does.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp

# the request discord.py is sending: its route, JSON body and multipart parts (set by the
# harness around discord.py's own request function, read by the session below)
SENDING: contextvars.ContextVar[tuple[Any, Any, Any]] = contextvars.ContextVar("sending")

TIMEOUT = 0  # a Fault's status: no answer in time


@dataclass
class Fault:
    """How Discord fails a route: ``status`` and its JSON error ``code``, for the next ``times``
    requests (``None``: every one), once ``after`` requests have succeeded."""

    status: int
    code: int = 0
    message: str = ""
    times: int | None = 1
    after: int = 0
    retry_after: float = 0.01  # a 429's wait
    is_global: bool = False  # a 429 of the whole bot, not of one route
    hits: int = 0  # the requests it failed
    applied: bool = False  # Discord did what was asked, but its answer was lost (a 5xx after it)

    def body(self) -> dict[str, Any]:
        if self.status == 429:
            return {"message": "You are being rate limited.", "retry_after": self.retry_after,
                    "global": self.is_global, "code": self.code}
        return {"code": self.code, "message": self.message}


# What Discord answers, by name: each fault the issue lists (a test may add its own).
FAULTS = {
    "invalid form": lambda: Fault(400, 50035, "Invalid Form Body"),
    "missing permissions": lambda: Fault(403, 50013, "Missing Permissions"),
    "unknown message": lambda: Fault(404, 10008, "Unknown Message"),
    "unknown interaction": lambda: Fault(404, 10062, "Unknown interaction", times=None),
    "already acknowledged": lambda: Fault(400, 40060, "Interaction has already been acknowledged."),
    "token expired": lambda: Fault(401, 50027, "Invalid Webhook Token", times=None),
    "rate limited": lambda: Fault(429, 0, retry_after=0.01),
    "globally rate limited": lambda: Fault(429, 0, retry_after=0.01, is_global=True),
    "server error": lambda: Fault(500, 0, "500: Internal Server Error", times=None),
    "bad gateway": lambda: Fault(502, 0, "502: Bad Gateway", times=None),
    "unavailable": lambda: Fault(503, 0, "503: Service Unavailable"),
    "done, answer lost": lambda: Fault(500, 0, "500: Internal Server Error", applied=True),
    "timeout": lambda: Fault(TIMEOUT),
}


class _Answer:
    """Discord's response to one request, as aiohttp gives it to discord.py."""

    def __init__(self, status: int, data: Any, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.reason = {200: "OK", 204: "No Content", 400: "Bad Request", 401: "Unauthorized",
                       403: "Forbidden", 404: "Not Found", 429: "Too Many Requests"}.get(status, "Error")
        self.headers = {"content-type": "application/json", "Via": "1.1 google", **(headers or {})}
        self._text = json.dumps(data)

    async def text(self, encoding: str | None = None) -> str:
        return self._text

    async def __aenter__(self) -> _Answer:
        return self

    async def __aexit__(self, *exc) -> None:
        return None


class _Request:
    def __init__(self, answering: Callable[[], tuple[int, Any]]) -> None:
        self.answering = answering

    async def __aenter__(self) -> _Answer:
        status, data = self.answering()
        if status == TIMEOUT:
            raise aiohttp.ServerTimeoutError("Timeout on reading data from socket")
        return _Answer(status, data)

    async def __aexit__(self, *exc) -> None:
        return None


class DiscordSession:
    """The HTTP session discord.py is given (the client's and every interaction's): each request
    is answered by ``answer(route, body, multipart)``, which returns a status and a JSON body."""

    closed = False

    def __init__(self, answer: Callable[[Any, Any, Any], tuple[int, Any]]) -> None:
        self.answer = answer

    def request(self, method: str, url: str, **_: Any) -> _Request:
        return _Request(lambda: self.answer(*SENDING.get()))

    async def close(self) -> None:
        return None


def quick_retries(monkeypatch) -> None:
    """discord.py waits 1, 3, 5 ... seconds before it sends a request again after a 5xx: in the
    tests, no time at all (its own waits only; every other sleep is untouched)."""

    async def no_wait(delay: float, result: Any = None) -> Any:
        await asyncio.sleep(0)
        return result

    for module in ("discord.http", "discord.webhook.async_"):
        shim = types.SimpleNamespace(**{name: getattr(asyncio, name) for name in dir(asyncio)})
        shim.sleep = no_wait
        monkeypatch.setattr(f"{module}.asyncio", shim)
