"""The actions a unit takes in an activation (p. 5), each one object with its check, its carrying
out and its wording (:mod:`engine.actions.base`), registered by name as its class is written
(:mod:`engine.actions.registry`) and offered by the rule sets that have it
(:attr:`engine.rulesets.RuleSet.actions`). The 2015 actions are here; a rule set's own actions
are in its package (``engine/variants/<name>/actions.py``).

A new action is its command in :mod:`engine.commands` (a member of ``Action``), its
:class:`~engine.actions.base.ActionType` subclass (here, or in the package of the one rule set
that has it), and its name in the ``actions`` of each rule set that offers it.
"""
