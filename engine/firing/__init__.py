"""Firing (Iron Cross 2015, pp. 8-13, 18-20) around the rule functions of :mod:`engine.rules`:
aiming a shot on the table, the markers and losses it causes, and its exact odds."""
