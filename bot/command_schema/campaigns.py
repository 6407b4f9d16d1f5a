"""/campaign: the Red Barricades campaign game and linked campaigns."""

from __future__ import annotations

from bot.command_schema.options import (
    SCENARIOS,
    choice,
    flag,
    integer,
    spec,
    text,
)
from bot.command_schema.tables import BATTLEFIELD, BATTLEFIELD_SEED
from bot.services.limits import MAX_DAYS

CAMPAIGN_SPECS = (
    spec(
        "campaign linked new",
        "Set up linked Iron Cross battles between two saved forces",
        text("name", "The campaign's name", required=True),
        text("allies", "The allied player (@mention)", required=True),
        text("allies_force", "The allied player's force (one of their /force list)", required=True),
        text("axis", "The axis player (@mention)", required=True),
        text("axis_force", "The axis player's force", required=True),
        integer(
            "winner",
            "Reinforcement points for a win (our campaign rule; default 50)",
            low=0,
            high=1000,
            default=50,
        ),
        integer("loser", "Reinforcement points for a loss (default 30)", low=0, high=1000, default=30),
        integer(
            "draw", "Reinforcement points for each side in a draw (default 40)", low=0, high=1000, default=40
        ),
        choice(
            "damaged",
            "Units left with morale markers: back for the next battle, or sitting it out",
            ("return", "sit_out"),
            default="return",
        ),
    ),
    spec(
        "campaign linked battle",
        "Set up the next battle here, both forces as they stand",
        choice(
            "scenario",
            "The book scenario to fight",
            SCENARIOS,
            required=True,
        ),
        BATTLEFIELD,
        BATTLEFIELD_SEED,
        choice("attacker", "Capture and Breakthrough: the attacking side", ("allies", "axis")),
        choice(
            "attacker_choice",
            "Breakthrough: the attacker's aggressive command or preliminary bombardment",
            ("aggressive_command", "preliminary_bombardment"),
        ),
        integer(
            "reaction_seconds",
            "How long the other side has to react (15 s to 48 h, default 120)",
            low=15,
            high=172800,
            default=120,
        ),
    ),
    spec(
        "campaign linked buy",
        "Buy a unit for your side with its reinforcement points",
        choice("side", "Your side", ("allies", "axis"), required=True),
        text("unit", "A unit of your force's order of battle", required=True),
        text("label", "What to call it"),
    ),
    spec(
        "campaign linked command",
        "Make another of your units the command unit",
        choice("side", "Your side", ("allies", "axis"), required=True),
        text("unit", "The new command unit", required=True),
    ),
    spec(
        "campaign linked retire",
        "Take a unit out of your force for good (no points back)",
        choice("side", "Your side", ("allies", "axis"), required=True),
        text("unit", "The unit to retire", required=True),
    ),
    spec(
        "campaign linked end",
        "End the campaign between battles: result and final standings",
    ),
    spec(
        "campaign linked standings",
        "Each side's results, points and force, and the history",
    ),
    spec(
        "campaign new",
        "Set up a Red Barricades campaign in this channel",
        text("name", "The campaign's name", required=True),
        text("german", "The German players (@mentions)", required=True),
        text("russian", "The Russian players (@mentions)", required=True),
        integer(
            "german_cpp",
            "German CPP each CG Day (set by the organiser, from the full CG rules)",
            required=True,
            low=0,
            high=999,
        ),
        integer("russian_cpp", "Russian CPP each CG Day", required=True, low=0, high=999),
        integer("days", "How many CG Days (phases)", low=1, high=MAX_DAYS, default=3),
        text("start", "The first CG Day, e.g. 17 Oct", default="17 Oct"),
        text("every", "Each phase's length: 24h, 3d, 90m ...", default="24h"),
        text("grace", "A grace period after each deadline: 2h ...", default="0s"),
        text("reminders", "When to remind before a deadline: 24h,1h (the default), or none"),
        text("referee", "The referee (@mention), who may submit for a side"),
        flag(
            "carry_over",
            "Unspent CPP carry over to the next CG Day, as your CG rules say (default yes)",
            default=True,
        ),
    ),
    spec(
        "campaign submit",
        "Seal your side's orders (only you see this)",
        text(
            "buy",
            'RG IDs from your chart: "I1, O2 2 hexes, M1", or none; leave buy and fortify out for a form',
        ),
        text("fortify", 'Fortifications with the FPP of the day\'s M1: "2 x Trench, 3 Foxhole at 2"'),
        choice("side", "The referee names the side", ("german", "russian")),
        integer("phase", "A phase number (the open phase if left out)", low=1, high=MAX_DAYS),
        rest="buy",
    ),
    spec(
        "campaign status",
        "Every phase, who has submitted, the time left",
    ),
    spec(
        "campaign ledger",
        "Every purchase, roll and change of the campaign",
        flag("csv", "As a CSV file"),
    ),
    spec(
        "campaign orbat",
        "Each side's order of battle: formations, fortifications",
        choice("side", "One side only", ("german", "russian")),
        words=("side",),
    ),
    spec(
        "campaign correct",
        "The referee corrects a ledger entry, with a reason",
        integer(
            "entry",
            "The entry's number (the # column of /campaign ledger)",
            required=True,
            low=0,
            high=100000,
        ),
        text(
            "to",
            "What it should have been: CPP, void, full/depleted, leaders, SW, ammo or retained units",
            required=True,
        ),
        text("reason", "Why: kept in the ledger", required=True),
    ),
    spec(
        "campaign retain",
        "The referee records units a side retains into the next CG scenario",
        choice("side", "The side that retains them", ("german", "russian"), required=True),
        text("units", 'The units retained, with commas: "2 x 4-6-7, 9-1, HMG"', required=True),
    ),
    spec(
        "campaign balance",
        "The referee sets a side's Balance provision DRM (RB 11.32)",
        choice("side", "The side", ("german", "russian"), required=True),
        integer(
            "drm",
            "Added to the side's RG strength, gun battery and OBA ammo rolls",
            required=True,
            low=-6,
            high=6,
        ),
    ),
    spec(
        "campaign cg2",
        "The referee says whether CG II scenarios are played",
        flag("on", "CG II scenarios: +1 German Leader DRM", required=True),
    ),
    spec(
        "campaign chit",
        "The referee records a Battery Access chit for an OBA module",
        integer(
            "entry",
            "The ledger entry that bought the module (the # column of /campaign ledger)",
            required=True,
            low=0,
            high=100000,
        ),
        choice("colour", "The chit drawn", ("black", "red"), required=True),
    ),
)
