"""Scenarios (Iron Cross 2015, pp. 26-31) and quick battles: the book's four scenarios as data,
setting a game up for one, their own ways to win, and putting a game together from units."""
