"""The commands of a message's menu (Discord's message context menu, "Apps"), by the names
Discord shows (1-32 characters, capitals and spaces allowed): each takes the message it is used
on and nothing else, so there are no options to declare. Discord alone has them; at the
console, ``/rule`` and ``/roll`` do the same with what is typed.

- "Look up rules": every rule number the message cites, answered with its section;
- "Roll dice": the message's dice expressions, rolled as ``/roll`` rolls them.
"""

from __future__ import annotations

MENUS: tuple[str, ...] = ("Look up rules", "Roll dice")
