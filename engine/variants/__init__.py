"""The rule sets beyond the Iron Cross 2015 rulebook, one package each. Importing a package
registers its rule set (:func:`engine.rulesets.register_rule_set`), its actions (each
:class:`~engine.actions.base.ActionType` subclass, as it is written) and its parts of the core
models (:func:`engine.variant_parts.register_part`). This module is the one place that names
them, and :mod:`engine` imports it once; no other core module imports a package here.

A new rule set is a package beside ``house_v1``:

- ``rules.py``: a :class:`~engine.rulesets.RuleSet` subclass (``name``, ``title``, the
  ``actions`` it offers, the methods where it differs), registered with ``register_rule_set``;
- ``actions.py``, if it has actions of its own; ``state.py``, if it keeps state of its own (a
  :class:`~engine.variant_parts.VariantPart` per core model, registered with ``register_part``);
- its rule modules and data;
- one import line below. Discord's and the console's ``/game new ruleset:`` offer it from the
  registry.
"""

from engine.variants import house_v1  # noqa: F401
