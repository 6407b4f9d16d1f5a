"""Dice for players at any table: dice expressions, rolls on named charts, exact odds."""
