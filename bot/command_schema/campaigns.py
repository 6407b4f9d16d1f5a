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
        "Link battles between two saved forces",
        text("name", "The campaign's name", required=True),
        text("allies", "The allied player (@mention)", required=True),
        text("allies_force", "The allied player's force (their /force list)", required=True),
        text("axis", "The axis player (@mention)", required=True),
        text("axis_force", "The axis player's force", required=True),
        integer(
            "winner", "Reinforcement points for a win (our rule; default 50)", low=0, high=1000, default=50
        ),
        integer("loser", "Reinforcement points for a loss (default 30)", low=0, high=1000, default=30),
        integer(
            "draw", "Reinforcement points per side for a draw (default 40)", low=0, high=1000, default=40
        ),
        choice(
            "damaged",
            "Units left with morale markers: back next battle, or sit it out",
            ("return", "sit_out"),
            default="return",
        ),
    ),
    spec(
        "campaign linked battle",
        "Set up the next battle here",
        choice(
            "scenario",
            "The book scenario to fight",
            SCENARIOS,
            required=True,
        ),
        BATTLEFIELD,
        BATTLEFIELD_SEED,
        choice("attacker", "Capture, Breakthrough: the attacker", ("allies", "axis")),
        choice(
            "attacker_choice",
            "Breakthrough: what the attacker chooses",
            ("aggressive_command", "preliminary_bombardment"),
        ),
        integer(
            "reaction_seconds",
            "The other side's time to react (15 s-48 h, default 120)",
            low=15,
            high=172800,
            default=120,
        ),
    ),
    spec(
        "campaign linked buy",
        "Buy a unit with your side's reinforcement points",
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
        "Retire a unit from your force (no points back)",
        choice("side", "Your side", ("allies", "axis"), required=True),
        text("unit", "The unit to retire", required=True),
    ),
    spec(
        "campaign linked end",
        "End the campaign: its result and final standings",
    ),
    spec(
        "campaign linked standings",
        "Results, points, forces and history",
    ),
    spec(
        "campaign new",
        "Set up a Red Barricades campaign here",
        text("name", "The campaign's name", required=True),
        text("german", "The German players (@mentions)", required=True),
        text("russian", "The Russian players (@mentions)", required=True),
        integer(
            "german_cpp",
            "German CPP each CG Day (from your CG rules)",
            required=True,
            low=0,
            high=999,
        ),
        integer("russian_cpp", "Russian CPP each CG Day", required=True, low=0, high=999),
        integer("days", "How many CG Days (phases)", low=1, high=MAX_DAYS, default=3),
        text("start", "The first CG Day, e.g. 17 Oct", default="17 Oct"),
        text("every", "Each phase's length: 24h, 3d, 90m ...", default="24h"),
        text("grace", "Grace after each deadline: 2h ...", default="0s"),
        text("reminders", "Reminders before a deadline: 24h,1h (default) or none"),
        text("referee", "The referee (@mention), who may submit for a side"),
        flag(
            "carry_over",
            "Unspent CPP carry over to the next CG Day (default yes)",
            default=True,
        ),
    ),
    spec(
        "campaign submit",
        "Seal your side's orders (only you see this)",
        text(
            "buy",
            'RG IDs: "I1, O2 2 hexes, M1", or none; leave buy and fortify out for a form',
        ),
        text("fortify", 'Fortifications with the day\'s M1 FPP: "2 x Trench, 3 Foxhole at 2"'),
        choice("side", "The referee names the side", ("german", "russian")),
        integer("phase", "The phase (default: the open one)", low=1, high=MAX_DAYS),
        rest="buy",
    ),
    spec(
        "campaign status",
        "Every phase, who has submitted, the time left",
    ),
    spec(
        "campaign ledger",
        "Every purchase, roll and change",
        flag("csv", "As a CSV file"),
    ),
    spec(
        "campaign orbat",
        "Each side's order of battle and fortifications",
        choice("side", "One side only", ("german", "russian")),
        words=("side",),
    ),
    spec(
        "campaign correct",
        "The referee corrects a ledger entry",
        integer(
            "entry",
            "The entry's # in /campaign ledger",
            required=True,
            low=0,
            high=100000,
        ),
        text(
            "to",
            "The right value: CPP, void, full/depleted, leaders, SW, ammo or retained units",
            required=True,
        ),
        text("reason", "Why: kept in the ledger", required=True),
    ),
    spec(
        "campaign retain",
        "The referee records units retained into the next CG scenario",
        choice("side", "The retaining side", ("german", "russian"), required=True),
        text("units", 'The units, with commas: "2 x 4-6-7, 9-1, HMG"', required=True),
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
        "The referee says if CG II scenarios are played",
        flag("on", "CG II scenarios: +1 German Leader DRM", required=True),
    ),
    spec(
        "campaign chit",
        "The referee records a Battery Access chit for an OBA module",
        integer(
            "entry",
            "The # of the ledger entry that bought the module",
            required=True,
            low=0,
            high=100000,
        ),
        choice("colour", "The chit drawn", ("black", "red"), required=True),
    ),
)
