"""The actions a unit takes in an activation (p. 5), each one object with its check, its carrying
out and its wording (:mod:`engine.actions.base`), registered by name
(:mod:`engine.actions.registry`) and offered by the rule sets that have it
(:attr:`engine.rulesets.RuleSet.actions`).

A new action is its command in :mod:`engine.commands` (a member of ``Action``), its
:class:`~engine.actions.base.ActionType` subclass in one of the action modules, and its name in the
``actions`` of each rule set that offers it.
"""
