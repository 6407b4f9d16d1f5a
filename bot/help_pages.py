"""The pages of ``/help``: one topic a page, each short enough for one Discord message. Every
``/command`` and ``option:`` written in backticks is checked against the command tree by the
tests, so a page cannot name a command the bot does not have."""

from __future__ import annotations

from dataclasses import dataclass

from bot.reply import Heading, Line, Reply, Strong, Typed
from bot.services.limits import quoted
from engine.actions.registry import reaction_options, rule_set_order_options
from engine.errors import IllegalCommand
from engine.names import either


@dataclass(frozen=True)
class HelpPage:
    key: str
    title: str
    text: Line  # words, a button's name Strong


REACTING = either([f"`{name}:`" for name in reaction_options()])  # as the actions declare them
HOUSE_ORDERS = either(  # the orders the House Rules' actions add, as they declare them
    [
        f"`{name}:true`" if option.kind == "flag" else f"`{name}:`"
        for name, option in rule_set_order_options("house_v1").items()
        if name not in rule_set_order_options("core_2015")
    ]
)
PAGES: tuple[HelpPage, ...] = (
    HelpPage(
        "start",
        "Getting started",
        (
            """A battle is played in a channel, one game per channel.
1. `/game new` sets up a quick battle; choose a `table:`, the allied `forces:`, the game's \
`pace:` (`live`, played at one sitting: a reaction may wait 2 minutes; `daily`, played over \
days: 24 hours; or any time with `reaction_seconds:`), or a book scenario with `scenario:`. \
Every set-up message says what is still missing and the command for it. No opponent yet? In a \
Discord server `/lfg post side:` offers the game to the channel: whoever taps Join takes the other \
side, and it starts in a thread of its own (`/lfg list` shows the server's open games).
2. Each player takes a side: `/game join side:allies` and `/game join side:axis`. In a scenario \
game, bring one of your own forces with `force:` (build it with `/force new`).
3. `/game start` rolls for the initiative; whoever wins answers `/initiative choice:start` to \
go first or `/initiative choice:pass` to let the other side begin.
A scenario game is set up first: tap Set up a unit on the card, or place each unit with \
`/deploy unit:... at:...` (again, to move one), then `/deploy done:true`, confirmed while \
units could still go down.
Along the way: `/game status` says who the game waits for, `/game map` shows the table as your \
side sees it (only to you), `/game log` lists what happened with every die (`page:` for \
earlier pages), and `/games mine` finds every game waiting for you on any channel. When the \
game ends, the battle's story and its animated replay follow its last card; `/game replay` \
shows them again.""",
        ),
    ),
    HelpPage(
        "turn",
        "A turn",
        (
            """At the start of a turn each side draws command tokens: one for each of its units on the \
table and two more for its command unit. Both sides roll a die and the higher one chooses who \
starts.
The side with the initiative spends a token to activate one unit: `/act unit:...` with a move, \
a shot or both. A unit already activated this turn must pass a reactivation roll first, harder \
for each token and morale marker on it.
`/cmt` spends a token on a Company Morale Test to take morale markers off.
`/fallback unit:... to:...` pulls a unit back away from the enemy.
`/pass` hands the initiative over; the other side must then spend a token before it can pass it \
back. When both sides have spent their tokens, the next turn begins.
`/reserves units:...` calls reserves at the start of a turn when the game asks for it.
`/game concede` ends the game for your side.""",
        ),
    ),
    HelpPage(
        "reactions",
        "Reactions",
        (
            """When a unit is ordered, the other side may interrupt it. The order is posted with two \
buttons: """,
            Strong("React"),
            """ opens a short form, """,
            Strong("No reaction"),
            f""" lets the order go ahead.
The same by command: `/react unit:...` with what it does, as an activation's order says it \
({REACTING}; `first:` says which of a move and a shot comes first), `at:` to strike when the \
enemy reaches a point of its declared move, or `cmt:true` for a Company Morale Test; `/noreact` \
declines.
A reaction costs a token and needs a roll: 3+ on a d6, one more for each token and morale \
marker already on the reacting unit; a 6 always succeeds (the House Rules V1.0 have their own \
table).
A window nobody answers closes by itself when its time runs out (set with \
`/game new reaction_seconds:`), and the order goes ahead.
Some results need an answer from you, such as which unit loses its morale markers or a new \
target: `/choose unit:...`.""",
        ),
    ),
    HelpPage(
        "orders",
        "Orders and positions",
        (
            """`/act unit:Panzer IV move:C6 fire:Sherman 1` moves then fires; add `first:fire` to fire \
first, `rapid:true` for a rapid move (no shot), `reverse:true` or `road:true` for vehicles.
Infantry get in and out of transports with `embark:` and `disembark:`.
A position is inches across and up the table (`30,18`), a 6" grid square (`C6`, or `C6+1,-2` \
to shift it), several waypoints joined by `;`, or `6 toward Sherman 1`.
Before you order, look: `/measure unit:... to:...` gives the distance to a unit or a spot, \
whether your unit sees it and, if not, what blocks the line (a wood, a building, a hill, or the \
observation distance), and the cover a target there would have.
`/odds fire unit:... target:...` gives the exact chances of a shot as the table stands.
A game under the House Rules V1.0 (`/game new ruleset:house_v1`) gives `/act` more orders: \
""",
            HOUSE_ORDERS,
            ".",
        ),
    ),
    HelpPage(
        "teams",
        "Teams and referees",
        (
            """A scenario game may be played in teams: `/game new scenario:meeting teams:2` seats two \
players a side, each bringing a force with `/game join side:... force:...`; the first to join a \
side is its commanding officer (CO), whose force holds the command unit.
`/team show` lists who holds which units and tokens; the CO hands out \
bonus tokens with `/team give player:... tokens:...` and answers reserve requests \
(`/team request unit:...`, then `/team grant` or `/team refuse`).
A referee plays no side and sees everything. Name one with `/game new referee:@someone` or \
`referee_role:`, or later with `/ref appoint referee:@someone`.
Referees correct the table with a reason that is logged: `/ref move`, `/ref markers`, \
`/ref tokens`, `/ref reveal`, `/ref undo count:1 reason:...`; they rule on what the rules do \
not cover with `/ref ruling text:...`, see the truth with `/ref map` and `/ref log`, and run \
the clock with `/ref clock pause`, `/ref clock resume`, `/ref clock extend` and \
`/ref clock deadline`. Before set-up they prepare the game with `/ref prep objective`, \
`/ref prep zone`, `/ref prep brief` and `/ref prep force`.""",
        ),
    ),
    HelpPage(
        "bot",
        "Against the bot",
        (
            """`/game new stand_in:axis` (or `stand_in:allies`) sets up a quick battle with the bot \
playing that side: take the other with `/game join` and `/game start`. The bot answers each of its \
turns by itself, and its orders are logged with their dice like anyone's.
A player may hand their own side to the bot, and take it back: `/game stand_in play:on`, \
`/game stand_in play:off` (never a team's side, nor against the bot itself). A referee does it \
for an absent player with `/ref stand_in side:... play:on reason:...`; what a referee handed \
over, a referee hands back.
A daily game may do it by itself: `/game new pace:daily stand_in_after:2` hands a side to the bot \
once its player has missed 2 deadlines in a row (a reaction window that ran out, a referee's \
deadline that passed). The channel is told, and the player's next command hands the side back \
to them first, then goes on as usual.""",
        ),
    ),
    HelpPage(
        "campaigns",
        "Campaigns",
        (
            Strong("Linked battles"),
            """ carry two saved forces, losses and all, from one scenario to the \
next: `/campaign linked new name:... allies:@... allies_force:... axis:@... axis_force:...`, \
then `/campaign linked battle scenario:...` for each battle. Between battles a side spends its \
reinforcement points with `/campaign linked buy`, and `/campaign linked standings` shows the \
results; `/campaign linked end` closes it.
""",
            Strong("Red Barricades"),
            """ runs a campaign a phase at a time: `/campaign new name:... german:... \
russian:... german_cpp:... russian_cpp:...`. Each side seals its orders with \
`/campaign submit buy:...` (only you see them); `/campaign status` shows who has submitted and \
the time left, `/campaign ledger` every purchase and roll, `/campaign orbat` the orders of \
battle. The referee corrects the ledger with `/campaign correct`.
`/stats` shows how each player's dice ran, and `/stats campaign:true` over the whole \
campaign.""",
        ),
    ),
    HelpPage(
        "library",
        "Dice, charts and the rules library",
        (
            """These work in any channel, with or without a game.
`/roll dice:2d10 5+ Panther` rolls and counts successes; `dice:DR +1` is a coloured and a white \
d6, and `secret:true` shows the roll only to you (and to moderators, in the roll log).
`/chart list` names every chart, `/chart show chart:...` what it takes, and \
`/chart roll chart:... choices:...` rolls on it.
`/odds shot firer:... target:... range:...` gives the exact chances of any shot, \
`/odds test needs:4` of any test.
`/rule query:IC12.6` or `/rule query:smoke dissipate` looks a rule up by section number or by \
words, in the bot's own summaries and in the documents this server has added; \
`private:true` keeps the answer to you. `/library` lists those documents.
On any message, the Apps menu offers "Look up rules" (every rule number it cites, with its \
section, shown to you alone) and "Roll dice" (its dice, rolled as `/roll` rolls them).
`/force new`, `/force add`, `/force show` and `/force list` build and check your own forces \
for scenario games (`/force orbat nation:...` lists what a force may add); \
`/cards deal deck:...`, `/cards hand` and `/cards use` play Tactical Advantage Cards.""",
        ),
    ),
    HelpPage(
        "admin",
        "Server admin",
        (
            """Members with the Manage Server permission look after the server's own material:
`/rules import document:... name:...` adds a text or Markdown document to the rules library \
(`/library`, open to every member, lists what `/rule` searches here), and \
`/rules remove name:...` takes a document out. `/cards deck name:...` writes one of the \
server's Tactical Advantage Card decks (in a direct message with the bot, one of your own).
An admin may also appoint or dismiss a game's referees (`/ref appoint`, `/ref dismiss`) when \
the game's own referee has gone.
Discord shows `/rules` only to members with Manage Server; a server can change that under \
Server Settings > Integrations. The bot checks the permission itself either way.
The bot needs """,
            Strong("Create Private Threads"),
            """ and """,
            Strong("Send Messages in Threads"),
            """ in a game's channel \
to give each side a private thread; without them a side's secrets come as replies only its \
players see.
Pings: a game's players set how long it waits before reminding whoever it waits for with \
`/games delay minutes:...`; each member chooses how they are told with `/games ping how:...`.""",
        ),
    ),
)


def commands_typed(line: Line) -> Line:
    """A page's words with each command written between backticks a :class:`Typed` piece, so
    each front end shows it as a command to type (the rest of the words as written)."""
    pieces: list = []
    for piece in line:
        if isinstance(piece, str):
            pieces += [Typed(part) if odd % 2 else part for odd, part in enumerate(piece.split("`")) if part]
        else:
            pieces.append(piece)
    return tuple(pieces)


def help_page(key: str) -> Reply:
    """The page of the topic ``key``: its title, then its words, for the asker's eyes."""
    page = next((p for p in PAGES if p.key == key.casefold()), None)
    if page is None:
        raise IllegalCommand(f"There is no help topic {quoted(key)}: try {', '.join(p.key for p in PAGES)}")
    return Reply.of(Heading(page.title), commands_typed(page.text), private=True)
