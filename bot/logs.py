"""Logging: one JSON object per line (python-json-logger) so that a server admin can search
the bot's logs by channel, command or latency; plain text when asked."""

from __future__ import annotations

import logging
import sys

from pythonjsonlogger.json import JsonFormatter

FIELDS = "%(asctime)s %(levelname)s %(name)s %(message)s"


def configure_logging(level: str = "INFO", as_json: bool = True) -> None:
    """Send the bot's logs to stderr, as JSON lines (default) or as text."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(FIELDS) if as_json else logging.Formatter(FIELDS))
    logging.basicConfig(level=level.upper(), handlers=[handler], force=True)
