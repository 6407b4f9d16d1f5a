"""The rule sets beyond the Iron Cross 2015 rulebook, one package each. Importing a package
registers its rule set (:func:`engine.rulesets.register_rule_set`) and its actions; this is the one
place that names them, and :mod:`engine` imports it once."""

from engine.variants import house_v1  # noqa: F401
