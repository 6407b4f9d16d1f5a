"""The actions a unit takes in an activation (p. 5), each one object with its check, its carrying
out and its wording (:mod:`engine.actions.base`), registered by name as its class is written
(:mod:`engine.actions.registry`) and offered by the rule sets that have it
(:attr:`engine.rulesets.RuleSet.actions`). The 2015 actions are here; a rule set's own actions
are in its package (``engine/variants/<name>/actions.py``).

A new action is its command (a :class:`~engine.commands.BaseAction` subclass, in
:mod:`engine.commands` or the rule set's package), its :class:`~engine.actions.base.ActionType`
subclass (here, or in the package of the one rule set that has it) with the option of ``/act``
that asks for it (``options``, ``from_options``), and its name in the ``actions`` of each rule set
that offers it: three files. Both front ends read ``/act`` from the actions, so neither changes.
"""
