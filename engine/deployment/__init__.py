"""Deploying (Iron Cross 2015, pp. 26-31): the plan a scenario gives each side, placing units by
it, and hidden deployment under markers (p. 26)."""
