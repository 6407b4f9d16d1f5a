"""The game's flow, one part a module: setting up, the turn sequence, the active side's
activation, the reaction window and its interrupts, resolving a declaration step by step, and
how a game ends. :mod:`engine.game` is the façade that dispatches each command to its part."""
