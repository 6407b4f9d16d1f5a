"""Naming the rule that decided a roll: every result of a house-rules game says so (issue 6)."""

from __future__ import annotations


def house_rule(section: str) -> str:
    """The rule set and the section of the rules library that holds the rule (``/rule HR5.7``)."""
    return f"House Rules HR{section}"


def cited(text: str, section: str) -> str:
    """``text`` closed by the house-rules section that decided it: "... (House Rules HR5.7)"."""
    return f"{text} ({house_rule(section)})"
