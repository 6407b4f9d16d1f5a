"""Logging: one JSON object per line (python-json-logger) so that a server admin can search
the bot's logs by channel, command or latency; plain text when asked (``LOG_JSON=false``).
The bot logs to stdout, as a container's logs are read; the console table, whose stdout is the
table itself, logs to stderr."""

from __future__ import annotations

import logging
import sys
from typing import TextIO

from pythonjsonlogger.json import JsonFormatter

FIELDS = "%(asctime)s %(levelname)s %(name)s %(message)s"


def configure_logging(level: str = "INFO", as_json: bool = True, stream: TextIO | None = None) -> None:
    """Send the logs to ``stream`` (stdout unless told), as JSON lines (default) or as text."""
    handler = logging.StreamHandler(stream or sys.stdout)
    handler.setFormatter(JsonFormatter(FIELDS) if as_json else logging.Formatter(FIELDS))
    logging.basicConfig(level=level.upper(), handlers=[handler], force=True)
