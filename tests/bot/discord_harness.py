"""Drive the real discord.py command tree with interaction payloads, and capture what the bot
sends at discord.py's HTTP boundary (the webhook adapter for interaction replies, and
HTTPClient.request for everything else). No network, no token."""

from __future__ import annotations

import asyncio
import itertools
import json
import zlib
from dataclasses import dataclass
from typing import Any

import discord
from discord.http import HTTPClient
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.app import Services
from bot.discord_adapter.answers import STUB
from bot.discord_adapter.client import IronCrossBot
from bot.discord_adapter.replay_card import STORY_TASK
from bot.services.game_service import GameService
from bot.storage.store import GameStore
from engine.dice import ScriptedDice, d6
from engine.runtime import VirtualClock
from tests.bot import discord_rules
from tests.bot.discord_double import FAULTS, SENDING, DiscordSession, Fault
from tests.storage.databases import seed_sqlite

GUILD = "100"
IN_A_SERVER, IN_THE_BOTS_DM, IN_A_PRIVATE_CHANNEL = 0, 1, 2  # an interaction's context
USER_INSTALL = "1"  # the key of a user's install among an interaction's authorizing owners
# what a user's install of the bot may do in a private channel: embed links, attach files, use
# external emojis (the replies to its interactions are all it sends there)
PRIVATE_CHANNEL_PERMISSIONS = 1 << 14 | 1 << 15 | 1 << 18
# the tasks an interaction leaves running until it is answered: discord.py's, and the story that
# follows a game-over card
_HANDLERS = ("CommandTree-invoker", "discord-ui", "discord.py: on_interaction", STORY_TASK)
APPLICATION = "200"
_ids = itertools.count(10_000)


MANAGE_GUILD = 1 << 5
MANAGE_MESSAGES = 1 << 13
THREADS = 1 << 36 | 1 << 38  # the bot's Create Private Threads and Send Messages in Threads
PIN_MESSAGES = 1 << 51  # the bot's Pin Messages (its game card: bot.discord_adapter.pinned_card)


@dataclass(frozen=True)
class Upload:
    """A file given to an attachment option."""

    filename: str
    data: bytes
    content_type: str = "text/plain; charset=utf-8"

    @property
    def id(self) -> str:
        return str(zlib.crc32(self.filename.encode()))


@dataclass(frozen=True)
class Pick:
    """A user (type 6) or a server role (type 8) given to an option, by id, without resolved
    data (discord.py then hands the command a discord.Object)."""

    id: str
    type: int = 6


def role(role_id: str) -> Pick:
    return Pick(role_id, 8)


def _option(name: str, value: Any) -> dict[str, Any]:
    if isinstance(value, Upload):
        return {"name": name, "type": 11, "value": value.id}
    if isinstance(value, Pick):
        return {"name": name, "type": value.type, "value": value.id}
    kind = {bool: 5, int: 4, float: 10}.get(type(value), 3)
    return {"name": name, "type": kind, "value": value}


def _cdn(upload: Upload) -> str:
    return f"https://cdn.example/{upload.filename}"


def _resolved_attachments(options: dict[str, Any]) -> dict[str, Any]:
    return {
        upload.id: {
            "id": upload.id,
            "filename": upload.filename,
            "size": len(upload.data),
            "url": _cdn(upload),
            "proxy_url": _cdn(upload),
            "content_type": upload.content_type,
        }
        for upload in options.values()
        if isinstance(upload, Upload)
    }


def _message(channel_id: int, content: str, message_id: str | None = None) -> dict[str, Any]:
    """The message Discord would send back for a posted one."""
    return {
        "id": message_id or str(next(_ids)),
        "channel_id": str(channel_id),
        "type": 0,
        "content": content,
        "author": {"id": APPLICATION, "username": "ironcross", "discriminator": "0", "avatar": None},
        "attachments": [],
        "embeds": [],
        "mentions": [],
        "mention_roles": [],
        "pinned": False,
        "mention_everyone": False,
        "tts": False,
        "timestamp": "2026-01-01T00:00:00+00:00",
        "edited_timestamp": None,
        "flags": 0,
        "components": [],
    }


def _thread(channel_id: int, asked: dict[str, Any], thread_id: str | None = None) -> dict[str, Any]:
    """The thread Discord would send back for a started one (one started from a message takes
    the message's id)."""
    return {
        "id": thread_id or str(next(_ids)),
        "guild_id": GUILD,
        "parent_id": str(channel_id),
        "owner_id": APPLICATION,
        "name": asked.get("name", "game"),
        "type": asked.get("type", 11),  # a thread of a message, or a forum's post: public
        "message_count": 0,
        "member_count": 1,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": asked.get("auto_archive_duration", 1440),
            "archive_timestamp": "2026-01-01T00:00:00+00:00",
            "locked": False,
            "invitable": asked.get("invitable", True),
        },
    }


HARNESSES: list[Harness] = []  # every harness of the running test, whose violations fail it


class Harness:
    def __init__(self, client: discord.Client, monkeypatch) -> None:
        self.client = client
        self.sent: list[dict[str, Any]] = []
        self.violations: list[str] = []  # what Discord would have refused, each naming its rule
        self.permissions: dict[str, int] = {}  # each user's permission bits in every channel
        self.roles: dict[str, list[str]] = {}  # the ids of each user's server roles
        self.nicks: dict[str, str] = {}  # each user's nickname on the server, if they set one
        self.app_permissions = 0  # the bot's own permission bits in every channel
        self.refused: set[str] = set()  # routes ("POST /channels/{channel_id}/threads") answered 403
        self.refused_after: dict[str, int] = {}  # routes answered 403 once they have succeeded N times
        self.uploads: dict[str, bytes] = {}
        self.dm_channels: dict[str, str] = {}  # direct-message channel id -> its user (no server there)
        # private channels (other users' direct messages, group chats) where the bot is no member:
        # only a user's install of it answers there
        self.private_channels: set[str] = set()
        self.user_installed: set[str] = set()  # server channels where only the user installed the bot
        self.threads: dict[str, str] = {}  # thread id -> its channel (a forum's, for a post): used in it
        self.channel_types: dict[str, int] = {}  # a channel's type, as Discord gives it (default: text, 0)
        self.posted: dict[str, dict[str, Any]] = {}  # message id -> the message Discord keeps (for fetches)
        self.answered: set[str] = set()  # the interactions called back (Discord takes one callback each)
        self.nonces: dict[str, str] = {}  # a message's nonce -> the message posted with it
        self.lost: set[str] = set()  # the requests done whose answer was lost (a fault's)
        # the messages Discord posted or edited: (route, the message, whether only its user sees it)
        self.delivered: list[tuple[str, dict[str, Any], bool]] = []
        HARNESSES.append(self)
        state = client._connection
        state.user = discord.ClientUser(  # as if logged in
            state=state,
            data={
                "id": APPLICATION,
                "username": "ironcross",
                "discriminator": "0",
                "avatar": None,
                "bot": True,
            },
        )
        state.application_id = int(APPLICATION)
        harness = self
        # routes ("POST /channels/{channel_id}/messages", or "*" for all) -> how Discord fails them
        self.faults: dict[str, list[Fault]] = {}
        client.http._HTTPClient__session = DiscordSession(self._answer)  # discord.py's own requests run on it
        client.http._global_over = asyncio.Event()  # as logging in leaves it: no global rate limit
        client.http._global_over.set()
        webhook, http = AsyncWebhookAdapter.request, HTTPClient.request

        async def webhook_request(adapter, route, session=None, *, payload=None, multipart=None, **kwargs):
            harness.sent.append(
                {"route": f"{route.method} {route.path}", "payload": payload, "multipart": multipart}
            )
            sending = SENDING.set((route, payload, multipart))
            try:
                return await webhook(adapter, route, session, payload=payload, multipart=multipart, **kwargs)
            finally:
                SENDING.reset(sending)

        async def http_request(client_http, route, **kwargs):
            payload = kwargs.get("json")
            entry = {"route": f"{route.method} {route.path}", "payload": payload, "url": route.url}
            harness.sent.append({**entry, **({"multipart": kwargs["form"]} if kwargs.get("form") else {})})
            sending = SENDING.set((route, payload, kwargs.get("form")))
            try:
                return await http(client_http, route, **kwargs)
            finally:
                SENDING.reset(sending)

        async def get_from_cdn(client_http, url):
            return harness.uploads[url]

        monkeypatch.setattr(AsyncWebhookAdapter, "request", webhook_request)
        monkeypatch.setattr(HTTPClient, "request", http_request)
        monkeypatch.setattr(HTTPClient, "get_from_cdn", get_from_cdn)

    def fail(self, route: str, fault: Fault | str) -> Fault:
        """From now on Discord answers ``route`` (or every route: ``"*"``) with ``fault``: a
        :class:`Fault` or the name of one of :data:`FAULTS`."""
        fault = FAULTS[fault]() if isinstance(fault, str) else fault
        self.faults.setdefault(route, []).append(fault)
        return fault

    def _failing(self, key: str) -> Fault | None:
        """The fault Discord answers this request of ``key`` with, if any (counting it down)."""
        faults = [f for f in self.faults.get(key, []) + self.faults.get("*", []) if f.times != 0]
        due = next((f for f in faults if f.after <= 0), None)
        if due is None:
            for fault in faults:
                fault.after -= 1
            left = self.refused_after.get(key)
            if left is not None:
                self.refused_after[key] = left - 1
            if key in self.refused or (left is not None and left <= 0):
                return FAULTS["missing permissions"]()
            return None
        if due.times is not None:
            due.times -= 1
        due.hits += 1
        return due

    def _answer(self, route, payload, multipart) -> tuple[int, Any]:
        """What Discord answers a request: a status and its JSON body."""
        key = f"{route.method} {route.path}"
        fault = self._failing(key)
        if fault is not None:
            if fault.applied:
                self._answered(route, key, payload, multipart)
                self.lost.add(route.url)
            return fault.status, fault.body()
        return self._answered(route, key, payload, multipart)

    def _answered(self, route, key: str, payload, multipart) -> tuple[int, Any]:
        """Discord doing what a request asks: its status and JSON body."""
        body = request_body(payload, multipart)
        if route.path.endswith("/callback"):
            interaction = route.url.split("/interactions/")[1].split("/")[0]
            if interaction in self.answered:
                if route.url not in self.lost:  # discord.py sends a callback again whose answer was lost
                    self.violations.append(f"{key}: one callback per interaction (40060)")
                return 400, FAULTS["already acknowledged"]().body()
            if broken := self._broken(route, body, multipart):
                return broken
            self.answered.add(interaction)
            self.original = str(next(_ids))  # the answer's message, "thinking..." till written
            if body.get("type") in (4, 7):
                message = self.last_payload.get("message") if body["type"] == 7 else None
                kept_id = message["id"] if message else self.original
                kept = self._kept(_message(0, "", kept_id), body.get("data") or {}, multipart)
                self.delivered.append((key, kept, bool((body.get("data") or {}).get("flags", 0) & 64)))
            callback = {"id": str(next(_ids)), "type": 2, "response_message_id": self.original}
            return 200, {"interaction": callback}
        edited = route.url.rsplit("/", 1)[1] if route.method == "PATCH" else None
        if route.path.startswith("/webhooks/"):
            edited = self.original if edited == "@original" else edited
            if broken := self._broken(route, body, multipart, message_id=edited):
                return broken
            if route.method in ("PATCH", "POST"):  # the answer written over "thinking...", a follow-up
                kept = self._kept(_message(0, "", edited), body, multipart)
                self.delivered.append((key, kept, bool(body.get("flags", 0) & 64)))
                return 200, kept
            return 200, {}
        sending = payload is not None or multipart
        if broken := self._broken(route, body if sending else None, multipart, message_id=edited):
            return broken
        if route.path.endswith("/threads") and route.method == "POST":
            return 200, self._started(route, body, multipart)
        if route.path == "/channels/{channel_id}" and route.method == "GET":
            channel = route.url.rsplit("/", 1)[1]
            return 200, self._channel(channel)
        if route.path.startswith("/channels/{channel_id}/messages") and route.method in ("POST", "PATCH"):
            nonce = body.get("nonce") if body.get("enforce_nonce") else None
            if nonce is not None and nonce in self.nonces:  # Discord gives back what it posted
                return 200, self.posted[self.nonces[nonce]]
            message = self._kept(_message(route.channel_id, "", edited), body, multipart)
            if nonce is not None:
                self.nonces[nonce] = message["id"]
            self.delivered.append((key, message, False))
            return 200, message
        if route.path == "/channels/{channel_id}/messages/{message_id}" and route.method == "GET":
            message_id = route.url.rsplit("/", 1)[1]
            return 200, self.posted.get(message_id) or _message(route.channel_id, "", message_id)
        if route.path == "/users/@me/channels":  # a direct-message channel opened with a user
            dm = str(next(_ids))
            self.dm_channels[dm] = str(payload["recipient_id"])
            return 200, {"id": dm, "type": 1, "recipients": []}
        return 200, {}

    def _started(self, route, body: dict[str, Any], multipart) -> dict[str, Any]:
        """A thread Discord started: of a message (taking its id), of a channel, or a forum's
        post with its first message."""
        from_message = route.path.endswith("/messages/{message_id}/threads")
        thread = _thread(route.channel_id, body, route.url.split("/")[-2] if from_message else None)
        if from_message or "message" in body:  # a thread players may use the commands in
            self.threads[thread["id"]] = str(route.channel_id)
        if "message" in body:  # a forum's post
            first = self._kept(_message(int(thread["id"]), "", thread["id"]), body["message"], multipart)
            self.delivered.append((f"{route.method} {route.path}", first, False))
            thread["message"] = first
        return thread

    def _channel(self, channel: str) -> dict[str, Any]:
        """A channel as Discord gives it: a thread (of its channel), or a channel of its type."""
        kind = self.channel_types.get(channel, 11 if channel in self.threads else 0)
        data = {"id": channel, "type": kind, "guild_id": GUILD, "name": "battle", "position": 0}
        data |= {"permission_overwrites": [], "nsfw": False, "parent_id": self.threads.get(channel)}
        if kind in (15, 16):  # a forum, and its tags
            data |= {"available_tags": [], "default_reaction_emoji": None, "flags": 0}
        if channel in self.threads:
            data |= _thread(int(self.threads[channel]), {}, channel)
        return data

    def _broken(self, route, body, multipart, *, message_id: str | None = None) -> tuple[int, Any] | None:
        """Discord's refusal (400, Invalid Form Body) of a request that breaks one of its rules,
        each rule kept to fail the test with."""
        kept = set()
        if message_id is not None and message_id in self.posted:
            attachments = self.posted[message_id]["attachments"]
            keeping = body.get("attachments") if isinstance(body, dict) else None
            ids = None if keeping is None else {str(a.get("id")) for a in keeping}
            kept = {a["filename"] for a in attachments if ids is None or a["id"] in ids}
        broken = discord_rules.violations(route.method, route.path, body, _uploaded(multipart), kept)
        if not broken:
            return None
        self.violations += broken
        return 400, {"code": 50035, "message": "Invalid Form Body: " + "; ".join(broken)}

    def _kept(
        self, message: dict[str, Any], body: dict[str, Any], multipart: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        """The message Discord keeps and sends back: what was sent, with each uploaded file as an
        attachment on Discord's CDN and every ``attachment://`` reference resolved to it, as a
        later fetch returns it. An edit keeps what it does not change."""
        before = self.posted.get(message["id"], {})
        files = [part for part in multipart or [] if part.get("filename")]
        uploaded = {
            part["filename"]: {
                "id": str(next(_ids)),
                "filename": part["filename"],
                "size": 0,
                "url": f"https://cdn.example/attachments/{message['id']}/{part['filename']}",
                "proxy_url": f"https://media.example/attachments/{message['id']}/{part['filename']}",
            }
            for part in files
        }
        keeping = body.get("attachments")
        ids = None if keeping is None else {str(a.get("id")) for a in keeping}
        kept = [a for a in before.get("attachments", []) if ids is None or a["id"] in ids]
        attachments = [a for a in kept if a["filename"] not in uploaded] + list(uploaded.values())
        by_name = {a["filename"]: a for a in attachments}
        message = {
            **message,
            "content": body.get("content", before.get("content", "")),
            "components": _resolved(body.get("components", before.get("components")) or [], by_name),
            "flags": body.get("flags", before.get("flags", 0)),
            "attachments": attachments,
        }
        self.posted[message["id"]] = message
        return message

    def direct_messages(self, sent: list[dict[str, Any]]) -> list[tuple[str, str]]:
        """The direct messages among what was sent: to whom (a user id), and the text."""
        return [
            (self.dm_channels[where], text)
            for where, text, _ in channel_posts(sent)
            if where in self.dm_channels
        ]

    async def slash(
        self, command: str, /, *, user: str, channel: str, **options: Any
    ) -> list[dict[str, Any]]:
        """Invoke ``/command``, ``/group sub`` or ``/group subgroup sub`` as ``user`` in ``channel``;
        return what the bot sent."""
        resolved = _resolved_attachments(options)
        for upload in options.values():
            if isinstance(upload, Upload):
                self.uploads[_cdn(upload)] = upload.data
        return await self._interact(
            2, command, user, channel, [_option(k, v) for k, v in options.items()], resolved
        )

    async def message_menu(
        self, command: str, message: dict[str, Any] | str, /, *, user: str, channel: str
    ) -> list[dict[str, Any]]:
        """Use ``command`` of a message's menu (Apps) on ``message`` (its text, as a member
        posted it, or a message as Discord holds it, such as one the bot posted) as ``user`` in
        ``channel``; return what the bot sent. Discord gives the message, whole, in the
        interaction's resolved data (message commands get its content without the privileged
        message content intent)."""
        if isinstance(message, str):
            author = {"id": OTTO, "username": f"user{OTTO}", "discriminator": "0", "avatar": None}
            message = {**_message(int(channel), message), "author": author}
        data = {
            "id": str(next(_ids)),
            "name": command,
            "type": 3,
            "target_id": message["id"],
            "resolved": {"messages": {message["id"]: {**message, "channel_id": channel}}},
        }
        return await self._dispatch(self._payload(2, user, channel, data))

    async def autocomplete(
        self, command: str, option: str, typed: str, *, user: str, channel: str
    ) -> list[str]:
        """What the bot suggests while ``user`` types ``typed`` into ``option``: choice values."""
        focused = {**_option(option, typed), "focused": True}
        sent = await self._interact(4, command, user, channel, [focused])
        (answer,) = [e for e in sent if e["route"].endswith("/callback")]
        return [choice["value"] for choice in answer["payload"]["data"]["choices"]]

    async def click(self, button: dict[str, Any], *, user: str, channel: str) -> list[dict[str, Any]]:
        """Click a button the bot sent (as found by :func:`buttons`)."""
        message = self._carrying(button, channel)
        data = {"custom_id": button["custom_id"], "component_type": 2}
        return await self._dispatch(self._payload(3, user, channel, data, message=message))

    async def choose(
        self, menu: dict[str, Any], values: list[str], *, user: str, channel: str
    ) -> list[dict[str, Any]]:
        """Pick ``values`` in a select menu the bot sent (as found by :func:`menus`)."""
        message = self._carrying(menu, channel)
        data = {"custom_id": menu["custom_id"], "component_type": 3, "values": values}
        return await self._dispatch(self._payload(3, user, channel, data, message=message))

    def _carrying(self, component: dict[str, Any], channel: str) -> dict[str, Any]:
        """The message a clicked component is on: the latest one the bot sent with it, as Discord
        keeps it, or (for a component the bot never sent, such as a forged one) a bare message."""
        for message in reversed(self.posted.values()):
            if any(c.get("custom_id") == component["custom_id"] for c in walk(message["components"])):
                return {**message, "channel_id": channel}
        message = _message(int(channel), "")
        message["components"] = [{"type": 1, "components": [component]}]
        return message

    async def submit(self, form: dict[str, Any], values: dict[str, str], *, user: str, channel: str):
        """Submit a form (modal) the bot opened, filling inputs whose label starts with a key."""
        rows = []
        for text_input in _inputs(form):
            value = next((v for k, v in values.items() if text_input["label"].startswith(k)), "")
            rows.append(
                {"type": 1, "components": [{"type": 4, "custom_id": text_input["custom_id"], "value": value}]}
            )
        data = {"custom_id": form["custom_id"], "components": rows}
        return await self._dispatch(self._payload(5, user, channel, data))

    async def _interact(
        self,
        kind: int,
        command: str,
        user: str,
        channel: str,
        options: list[dict[str, Any]],
        attachments: dict[str, Any] | None = None,
    ) -> list[dict[str, Any]]:
        names = command.split()
        data: dict[str, Any] = {"id": str(next(_ids)), "name": names[0], "type": 1, "options": options}
        if attachments:
            data["resolved"] = {"attachments": attachments}
        if len(names) == 2:
            data["options"] = [{"name": names[1], "type": 1, "options": options}]
        if len(names) == 3:  # a subcommand of a subcommand group
            subcommand = {"name": names[2], "type": 1, "options": options}
            data["options"] = [{"name": names[1], "type": 2, "options": [subcommand]}]
        return await self._dispatch(self._payload(kind, user, channel, data))

    def _payload(
        self, kind: int, user: str, channel: str, data: dict[str, Any], **extra: Any
    ) -> dict[str, Any]:
        payload = {
            **extra,
            "id": str(next(_ids)),
            "application_id": APPLICATION,
            "type": kind,
            "token": "interaction-token",
            "version": 1,
            "guild_id": GUILD,
            "channel_id": channel,
            "channel": {
                "id": channel,
                "type": 0,
                "guild_id": GUILD,
                "name": "battle",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
            },
            "member": {
                "user": {
                    "id": user,
                    "username": f"user{user}",
                    "discriminator": "0",
                    "global_name": None,
                    "avatar": None,
                },
                "roles": self.roles.get(user, []),
                "nick": self.nicks.get(user),
                "joined_at": "2026-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
                "permissions": str(self.permissions.get(user, 0)),
                "flags": 0,
            },
            "app_permissions": str(self.app_permissions),
            "locale": "en-GB",
            "guild_locale": "en-GB",
            "entitlements": [],
            "authorizing_integration_owners": {"0": GUILD},  # the server installed the bot
            "attachment_size_limit": 8_388_608,
            "data": data,
        }
        payload["context"] = IN_A_SERVER
        if channel in self.threads:  # used in a thread, or a forum's post
            payload["channel"] = self._channel(channel)
        if channel in self.dm_channels or channel in self.private_channels:  # no server, no member
            del payload["guild_id"], payload["guild_locale"]
            payload["user"] = payload.pop("member")["user"]
        if channel in self.dm_channels:  # the bot's direct messages with the user
            payload["channel"] = {"id": channel, "type": 1, "recipients": [payload["user"]]}
            payload["context"] = IN_THE_BOTS_DM
            payload["authorizing_integration_owners"] = {"0": "0"}  # a server's install, in the bot's DM
        if channel in self.private_channels:  # a group chat the user brought the bot's commands to
            payload["channel"] = {"id": channel, "type": 3, "recipients": [payload["user"]], "owner_id": user}
            payload["context"] = IN_A_PRIVATE_CHANNEL
            payload["app_permissions"] = str(PRIVATE_CHANNEL_PERMISSIONS)
        if channel in self.user_installed or channel in self.private_channels:
            payload["authorizing_integration_owners"] = {USER_INSTALL: user}  # the user's own install
        return payload

    async def resend(self) -> list[dict[str, Any]]:
        """The last interaction again, with the same id, as when a client sends it twice."""
        return await self._dispatch(self.last_payload)

    async def _dispatch(self, payload: dict[str, Any]) -> list[dict[str, Any]]:
        self.last_payload = payload
        before = len(self.sent)
        self.client._connection.parse_interaction_create(payload)
        while pending := [
            t for t in asyncio.all_tasks() if t.get_name().startswith(_HANDLERS) and not t.done()
        ]:
            await asyncio.gather(*pending)
        return self.sent[before:]


def request_body(payload: dict[str, Any] | None, multipart: list[dict[str, Any]] | None) -> dict[str, Any]:
    """A request's JSON, also when it was sent as multipart with files."""
    if payload is not None or not multipart:
        return payload or {}
    (part,) = [p for p in multipart if p["name"] == "payload_json"]
    return json.loads(part["value"])


def _uploaded(multipart: list[dict[str, Any]] | None) -> set[str]:
    """The names of the files a request uploads."""
    return {part["filename"] for part in multipart or [] if part.get("filename")}


def _resolved(value: Any, attachments: dict[str, dict[str, Any]]) -> Any:
    """Components as Discord sends them back: each ``attachment://name`` media resolved to the
    uploaded file on its CDN."""
    if isinstance(value, list):
        return [_resolved(item, attachments) for item in value]
    if not isinstance(value, dict):
        return value
    resolved = {key: _resolved(item, attachments) for key, item in value.items()}
    url = value.get("url")
    if isinstance(url, str) and url.startswith("attachment://"):
        attachment = attachments.get(url.removeprefix("attachment://"))
        if attachment is not None:
            resolved.update(
                url=attachment["url"],
                proxy_url=attachment["proxy_url"],
                attachment_id=attachment["id"],
                width=1200,
                height=800,
                content_type="image/png",
            )
    return resolved


def text_of(body: dict[str, Any]) -> str:
    """A message's text: its content, or a card's (Components V2) text displays."""
    if body.get("content"):
        return body["content"]
    return "\n".join(c["content"] for c in walk(body.get("components") or []) if c.get("type") == 10)


def walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component at every depth (rows, containers, sections and what they hold)."""
    return list(discord_rules.walk(components))


def described(entry: dict[str, Any]) -> list[tuple[str, str | None]]:
    """Each picture one request sent, with its description (alt text; None for none): every
    media gallery item (by its url) and every file attached (by its name)."""
    body = callback_payload(entry)
    body = body.get("data", body) if "type" in body and "data" in body else body
    gallery = [c for c in walk(body.get("components") or []) if c.get("type") == 12]
    found = [(item["media"]["url"], item.get("description")) for c in gallery for item in c["items"]]
    return found + [(a.get("filename", ""), a.get("description")) for a in body.get("attachments") or []]


def callback_payload(entry: dict[str, Any]) -> dict[str, Any]:
    """An interaction callback's JSON, also when it was sent as multipart with files."""
    return request_body(entry["payload"], entry.get("multipart"))


def attachments(sent: list[dict[str, Any]]) -> list[bytes]:
    """The files sent with the interaction reply."""
    files = []
    for entry in sent:
        for part in entry.get("multipart") or []:
            if part["name"].startswith("files["):
                value = part["value"]
                files.append(value if isinstance(value, bytes) else value.read())
    return files


def messages(sent: list[dict[str, Any]]) -> list[str]:
    """Every text the bot sent in answer: the reply, then its follow-ups (not a stub that stood
    for a moment over a "thinking...")."""
    texts = []
    for entry in sent:
        body = callback_payload(entry) if "multipart" in entry else entry["payload"]
        content = text_of((body or {}).get("data", body or {}))
        if content and content != STUB:
            texts.append(content)
    return texts


def answer_of(sent: list[dict[str, Any]]) -> tuple[dict[str, Any], bool]:
    """The interaction's answer among what was sent, and whether it was ephemeral: the callback's
    message, or for an acknowledged (deferred) interaction the message written over its
    "thinking...", or the follow-up after a stub written there (an answer of the other privacy)."""
    answers = answers_in(sent)
    if not answers:
        raise AssertionError(f"no interaction reply in {sent}")
    body, private, _ = answers[0]
    return body, private


def answers_in(sent: list[dict[str, Any]]) -> list[tuple[dict[str, Any], bool, dict[str, Any]]]:
    """Every message of the interaction's answer, in order: its body, whether only the user who
    asked can see it (a written-over "thinking..." is as private as it was), and the entry. A
    stub that stands for a moment over the "thinking..." is no answer."""
    found = []
    deferred = False
    for entry in sent:
        route = entry["route"]
        if route.endswith("/callback"):
            callback = callback_payload(entry)
            data = callback.get("data") or {}
            private = bool(data.get("flags", 0) & 64)
            if callback["type"] == 5:
                deferred = private
            elif callback["type"] == 4:
                found.append((data, private, entry))
        elif route.startswith("PATCH /webhooks/"):
            body = callback_payload(entry)
            if body.get("content") != STUB:
                found.append((body, deferred, entry))
        elif route.startswith("POST /webhooks/"):
            body = callback_payload(entry)
            found.append((body, bool(body.get("flags", 0) & 64), entry))
    return found


def reply(sent: list[dict[str, Any]]) -> tuple[str, bool]:
    """The text of the interaction's answer among what was sent, and whether it was ephemeral."""
    body, ephemeral = answer_of(sent)
    return text_of(body), ephemeral


def buttons(sent: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The buttons of the interaction's answer, by label."""
    return {
        item["label"]: item for item in walk(answer_of(sent)[0].get("components") or []) if item["type"] == 2
    }


def menus(sent: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The select menus of the interaction's answer."""
    return [item for item in walk(answer_of(sent)[0].get("components") or []) if item["type"] == 3]


def form(sent: list[dict[str, Any]]) -> dict[str, Any]:
    """The form (modal) the bot opened in answer to a click."""
    for entry in sent:
        if entry["route"].endswith("/callback") and entry["payload"]["type"] == 9:
            return entry["payload"]["data"]
    raise AssertionError(f"no form was opened in {sent}")


def _inputs(form: dict[str, Any]) -> list[dict[str, Any]]:
    inputs = []
    for row in form["components"]:
        for item in row.get("components", []) or [row.get("component", {})]:
            if item.get("type") == 4:
                inputs.append({**item, "label": item.get("label") or row.get("label", "")})
    return inputs


ANN, OTTO, EVE = "301", "302", "303"  # two players and a spectator


async def open_bot(database_url: str, monkeypatch) -> tuple[IronCrossBot, Harness]:
    """The bot on a real SQLite store and a virtual clock, ready to take interactions."""
    # a new file starts migrated, with the bot's rules documents indexed
    store = await GameStore.open(seed_sqlite(database_url, shipped=True))
    bot = IronCrossBot(Services.around(GameService(store, clock=VirtualClock())))
    await bot._async_setup_hook()
    await bot.rules.ship()
    return bot, Harness(bot, monkeypatch)


async def close_bot(bot: IronCrossBot) -> None:
    await bot.stories.close()  # a finished game's story is posted
    await bot.pings.close()
    await bot.games.close()
    await bot.games.store.close()


async def started_game(bot: IronCrossBot, discord: Harness, channel: str = "1") -> None:
    """/game new, Ann joins allies, Otto joins axis, /game start: axis wins the initiative 5-2."""
    await discord.slash("game new", user=ANN, channel=channel)
    await discord.slash("game join", user=ANN, channel=channel, side="allies")
    await discord.slash("game join", user=OTTO, channel=channel, side="axis")
    bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])
    await discord.slash("game start", user=OTTO, channel=channel)
    bot.games.dice = lambda: ScriptedDice([])


def channel_posts(sent: list[dict[str, Any]]) -> list[tuple[str, str, list[bytes]]]:
    """The messages the bot posted to channels and threads itself (not as interaction replies):
    where (the channel or thread id), the text, and the files."""
    return [(where, text_of(callback_payload(entry)), files_of(entry)) for where, entry in posts_in(sent)]


def posts_in(sent: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """The requests that posted messages to channels and threads: where (the channel or thread
    id), and the request."""
    return [
        (entry["url"].split("/channels/")[1].split("/")[0], entry)
        for entry in sent
        if entry["route"] == "POST /channels/{channel_id}/messages"
    ]


def files_of(entry: dict[str, Any]) -> list[bytes]:
    """The files sent with one message (left unread, so they can be read again)."""
    parts = [p for p in entry.get("multipart") or [] if p["name"].startswith("files[")]
    return [p["value"] if isinstance(p["value"], bytes) else p["value"].getvalue() for p in parts]
