"""Smoke under the House Rules V1.0, s. 5 Smoke: the rule numbers, and screens of puffs on the
table."""
