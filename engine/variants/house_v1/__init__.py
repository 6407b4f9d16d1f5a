"""The Iron Cross House Rules V1.0 (and their quick reference) as a rule set: everything only they
have lives in this package, and the core engine never imports it.

Each rule is a small function named after it, with the house-rules section it comes from. The
rule set (:mod:`.rules`) and its actions (:mod:`.actions`) register themselves on import.
"""

from engine.variants.house_v1 import actions, rules  # noqa: F401
