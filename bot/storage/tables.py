"""Database tables (SQLModel). Schema changes go through the Alembic migrations beside this."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Index, text
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(UTC)


class GameRow(SQLModel, table=True):
    """One game per channel: its state now and a version that every write must advance by
    exactly one (so two writers never both win); the state it started from is its snapshot 0."""

    __tablename__ = "games"

    channel_id: str = Field(primary_key=True)
    version: int = 0
    state: str  # GameState JSON after the last command (the snapshot)
    reaction_seconds: int = 120  # how long a reaction window stays open in this game
    interaction_id: str | None = None  # the Discord interaction that set the game up
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)  # with the version, names the state written


class CommandRow(SQLModel, table=True):
    """One applied command with the events it produced (and so every die it rolled)."""

    __tablename__ = "game_commands"

    channel_id: str = Field(primary_key=True, foreign_key="games.channel_id")
    seq: int = Field(primary_key=True)  # the game version this command produced
    user_id: str
    command: str  # Command JSON
    events: str  # list[Event] JSON
    created_at: datetime = Field(default_factory=utcnow)
    # the Discord interaction that sent it: a re-sent interaction is answered, not applied again
    interaction_id: str | None = None  # unique (migration 0015)


class SnapshotRow(SQLModel, table=True):
    """The game's state right after command ``seq`` (0: as it was set up), kept every few
    commands so an undo replays only the commands since the newest snapshot before the first
    one it takes back. Only snapshots of the line still in force are kept: an undo drops those
    from the first command it takes back on (never the start)."""

    __tablename__ = "game_snapshots"

    channel_id: str = Field(primary_key=True, foreign_key="games.channel_id")
    seq: int = Field(primary_key=True)
    state: str  # GameState JSON


class WindowRow(SQLModel, table=True):
    """The channel's open reaction window and when it closes by itself (ISO 8601, UTC)."""

    __tablename__ = "reaction_windows"

    channel_id: str = Field(primary_key=True, foreign_key="games.channel_id")
    window: int
    deadline: str
    message_id: str | None = None
    claimed_by: str | None = None  # the process that fires it (bot.storage.deadline_claims)
    claimed_until: str | None = None  # when its claim runs out, if it has not fired by then


class DeadlinePostRow(SQLModel, table=True):
    """A post a deadline made that is still to send (bot.services.deadline_posts): written in
    the transaction that fired the deadline, dropped once posted, so a process that dies in
    between leaves it to another. ``post`` names it in its channel, and with the channel gives
    its Discord nonce; ``payload`` (JSON) is what its ``kind`` needs to make it."""

    __tablename__ = "deadline_posts"

    channel_id: str = Field(primary_key=True)
    post: str = Field(primary_key=True)
    kind: str  # one of POST_KINDS
    payload: str = "{}"
    claimed_by: str | None = None  # the process that posts it (bot.storage.deadline_claims)
    claimed_until: str | None = None  # when its claim runs out, if it has not posted by then


WINDOW_CLOSED, REFEREE_DEADLINE, TURN_PING = "window_closed", "referee_deadline", "turn_ping"
CAMPAIGN_REMINDER, CAMPAIGN_REVEAL = "campaign_reminder", "campaign_reveal"
STAND_IN_POST = "stand_in"  # the stand-in's turn, or a side it took over or handed back by itself
LOBBY_EXPIRED = "lobby_expired"  # a lobby's post edited to say it expired
GAME_POSTS = (
    WINDOW_CLOSED,
    REFEREE_DEADLINE,
    TURN_PING,
    STAND_IN_POST,
)  # about a channel's game: gone with it
POST_KINDS = (*GAME_POSTS, CAMPAIGN_REMINDER, CAMPAIGN_REVEAL, LOBBY_EXPIRED)


class RollRow(SQLModel, table=True):
    """One /roll or /chart in a channel's roll log; a secret roll is shown only to its roller."""

    __tablename__ = "rolls"

    id: int | None = Field(default=None, primary_key=True)
    channel_id: str = Field(index=True)
    user_id: str
    asked: str  # what the user asked for, e.g. "2d10 5+ Panther" or "chart rb-rg-strength: side=german"
    result: str  # the lines shown
    secret: bool = False
    created_at: datetime = Field(default_factory=utcnow)
    dice: str | None = None  # each die as "sides:face", space-separated; None in rolls logged before 0016


class RuleSourceRow(SQLModel, table=True):
    """A document in the rules library: shipped with the bot (guild "") or imported by a server;
    one of a name, in any case, per server."""

    __tablename__ = "rule_sources"
    __table_args__ = (Index("one_rule_source_per_name", "guild_id", text("lower(name)"), unique=True),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: str = Field(index=True)
    name: str
    filename: str
    checksum: str  # sha256 of the text, so a shipped document is re-indexed only when it changes
    size: int  # characters
    sections: int
    imported_by: str
    imported_at: datetime = Field(default_factory=utcnow)


class RuleSectionRow(SQLModel, table=True):
    """One section of a library document; its words are indexed in the FTS5 table rule_search."""

    __tablename__ = "rule_sections"

    id: int | None = Field(default=None, primary_key=True)
    source_id: int = Field(foreign_key="rule_sources.id", index=True)
    position: int
    number: str  # "63.22", "IC6.1"; "" when the section has only a title
    number_key: str = Field(index=True)  # the number in lower case, for lookups
    title: str
    body: str


class ForceRow(SQLModel, table=True):
    """A player's saved force in one server (the Force model as JSON): one of a name, in any
    case, per player and server; every edit advances ``version`` by exactly one."""

    __tablename__ = "forces"
    __table_args__ = (Index("one_force_per_name", "guild_id", "owner_id", text("lower(name)"), unique=True),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: str = Field(index=True)
    owner_id: str = Field(index=True)
    name: str
    version: int = 0
    force: str  # engine.forces.Force JSON
    updated_at: datetime = Field(default_factory=utcnow)


class SavedTableRow(SQLModel, table=True):
    """A table a server's players built, imported or generated (engine.tables.layout.BattleTable
    JSON): one of a name, in any case, per server; ``owner_id`` made it and alone changes or
    deletes it; every edit advances ``version`` by exactly one."""

    __tablename__ = "saved_tables"
    __table_args__ = (Index("one_table_per_name", "guild_id", text("lower(name)"), unique=True),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: str = Field(index=True)
    owner_id: str
    name: str
    version: int = 0
    layout: str  # engine.tables.layout.BattleTable JSON
    updated_at: datetime = Field(default_factory=utcnow)


class ArchivedGameRow(SQLModel, table=True):
    """A finished game's result and whole log, kept when a new game replaces it in the channel."""

    __tablename__ = "archived_games"

    id: int | None = Field(default=None, primary_key=True)
    channel_id: str = Field(index=True)
    result: str
    log: str  # every event's text, one per line
    finished_at: datetime = Field(default_factory=utcnow)


class CardDeckRow(SQLModel, table=True):
    """A server's Tactical Advantage deck, as the text its admins wrote: one of a name, in any
    case, per server."""

    __tablename__ = "card_decks"
    __table_args__ = (Index("one_deck_per_name", "guild_id", text("lower(name)"), unique=True),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: str = Field(index=True)
    name: str
    text: str
    updated_at: datetime = Field(default_factory=utcnow)


class CampaignRow(SQLModel, table=True):
    """An asynchronous campaign in a channel (engine.campaign.phases.Campaign JSON), with a version
    that every write must advance by exactly one. A channel runs one unfinished campaign of each
    kind at a time."""

    __tablename__ = "campaigns"
    __table_args__ = (
        Index(
            "one_running_campaign",
            "channel_id",
            "kind",
            unique=True,
            sqlite_where=text("NOT finished"),
            postgresql_where=text("NOT finished"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    channel_id: str = Field(index=True)
    kind: str = "red_barricades"  # or "linked": engine.campaign.linked.LinkedCampaign JSON
    version: int = 0
    finished: bool = False  # every phase revealed, or (linked) ended by its players
    campaign: str
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    due: str | None = None  # its next alarm (ISO 8601, UTC); None: none, or not known yet
    claimed_by: str | None = None  # the process that fires it (bot.storage.deadline_claims)
    claimed_until: str | None = None  # when its claim runs out, if it has not fired by then


class SideThreadRow(SQLModel, table=True):
    """A game's private Discord thread for one side, or for its referees (side "referee")."""

    __tablename__ = "side_threads"

    channel_id: str = Field(primary_key=True)
    side: str = Field(primary_key=True)
    thread_id: str


class PinnedCardRow(SQLModel, table=True):
    """The game card pinned in a channel (bot.discord_adapter.pinned_card): written only when its
    message changes, so the actions of a game never write it."""

    __tablename__ = "pinned_cards"

    channel_id: str = Field(primary_key=True)
    message_id: str


class MissedDeadlinesRow(SQLModel, table=True):
    """How many deadlines in a row a side of a channel's game has missed (its windows closed by
    their timer, its referee's deadlines passed), kept while it is more than none: written in
    the transaction of what the game did for the side, dropped when its player acts
    (bot.services.stand_in_service)."""

    __tablename__ = "missed_deadlines"

    channel_id: str = Field(primary_key=True)
    side: str = Field(primary_key=True)
    missed: int


class PausedClockRow(SQLModel, table=True):
    """A game whose timers a referee has stopped, and since when (ISO 8601, UTC)."""

    __tablename__ = "paused_clocks"

    channel_id: str = Field(primary_key=True)
    paused_at: str


class PlayerDeadlineRow(SQLModel, table=True):
    """A referee's deadline for an absent side to act by (ISO 8601, UTC), after which the game
    passes or declines for it in the referee's name."""

    __tablename__ = "player_deadlines"

    channel_id: str = Field(primary_key=True)
    side: str = Field(primary_key=True)
    deadline: str
    referee: str
    claimed_by: str | None = None  # the process that fires it (bot.storage.deadline_claims)
    claimed_until: str | None = None  # when its claim runs out, if it has not fired by then


class TurnPingRow(SQLModel, table=True):
    """A channel's turn ping: how long the game lets a wait last before the players it waits for
    are told (0: never), who they are, and when they will be told (ISO 8601, UTC; None: told
    already, or nobody to tell). Every write advances ``version`` by exactly one."""

    __tablename__ = "turn_pings"

    channel_id: str = Field(primary_key=True)
    version: int = 0
    minutes: int = 10
    players: str = ""  # the players the game waits for, comma-separated
    due: str | None = None
    claimed_by: str | None = None  # the process that fires it (bot.storage.deadline_claims)
    claimed_until: str | None = None  # when its claim runs out, if it has not fired by then


class PingChoiceRow(SQLModel, table=True):
    """How a user is told that a game waits for them: "mention", "dm" or "off"."""

    __tablename__ = "ping_choices"

    user_id: str = Field(primary_key=True)
    how: str


class LobbyRow(SQLModel, table=True):
    """An open game posted to a server's channel (/lfg post) for anyone to join: what it offers
    (the /game new options, JSON), the side its poster takes, and what became of it. ``status``
    is "open" (its Join button takes the other side), "joining" (a joiner's game is being made,
    until ``joining_until`` at the latest), "taken", "expired" or "cancelled"; it expires at
    ``expires_at`` (ISO 8601, UTC) while open, or while a join given up holds it."""

    __tablename__ = "lobbies"
    __table_args__ = (Index("lobbies_open", "status", "expires_at"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: str = Field(index=True)
    channel_id: str  # where the lobby was posted
    message_id: str | None = None  # the lobby's post, once made
    forum_id: str | None = None  # the forum whose new post the game gets; None: a thread of the post
    poster: str
    poster_name: str
    side: str  # the poster's
    offer: str  # bot.services.lobby_service.Offer JSON
    note: str = ""
    status: str = "open"
    joiner: str | None = None
    joining_until: str | None = None  # a join not done by then was given up (its process died)
    thread_id: str | None = None  # the game's channel, once made
    created_at: str
    expires_at: str
    claimed_by: str | None = None  # the process that expires it (bot.storage.deadline_claims)
    claimed_until: str | None = None  # when its claim runs out, if it has not expired it by then
