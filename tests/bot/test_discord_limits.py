"""The harness is as strict as Discord: a request Discord would refuse is refused (400) and fails
the test that sent it, naming the rule (issue 30). Each rule is shown failing, and passing at its
limit, so that none of these tests could pass with the check switched off."""

import discord
import pytest

from bot.discord_adapter import answers
from tests.bot import discord_rules
from tests.bot.discord_harness import ANN, close_bot, open_bot

CALLBACK = ("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
POST = ("POST", "/channels/{channel_id}/messages")
CARD = 1 << 15  # Components V2


def form(label: str) -> dict:
    """A form with one text input labelled ``label``, as discord.py sends it."""
    modal = discord.ui.Modal(title="React")
    modal.add_item(discord.ui.TextInput(label=label))
    return {"type": 9, "data": modal.to_dict()}


def card(*components: dict, **extra) -> dict:
    return {"flags": CARD, "components": list(components), **extra}


def text(content: str) -> dict:
    return {"type": 10, "content": content}


def picture(url: str) -> dict:
    return {"type": 12, "items": [{"media": {"url": url}, "description": "The battlefield"}]}


def button(custom_id: str, label: str = "Go") -> dict:
    return {"type": 1, "components": [{"type": 2, "style": 1, "label": label, "custom_id": custom_id}]}


def broken(request: tuple[str, str], body, uploaded=(), kept=()) -> list[str]:
    return discord_rules.violations(*request, body, set(uploaded), set(kept))


def test_a_text_inputs_label_has_at_most_45_characters():
    assert broken(CALLBACK, form("x" * 45)) == []
    (rule,) = broken(CALLBACK, form("x" * 46))
    assert rule.endswith("(46 characters) breaks maxLength 45")


def test_a_forms_title_has_at_most_45_characters():
    body = form("Unit")
    body["data"]["title"] = "t" * 46
    (rule,) = broken(CALLBACK, body)
    assert "$.data.title" in rule and rule.endswith("(46 characters) breaks maxLength 45")


def test_every_picture_a_message_shows_is_uploaded_with_it_or_kept_on_it():
    message = card(picture("attachment://card.png"))
    assert broken(POST, message, uploaded={"card.png"}) == []
    assert broken(("PATCH", "/channels/{channel_id}/messages/{message_id}"), message, kept={"card.png"}) == []
    (rule,) = broken(POST, message, uploaded={"other.png"})
    assert rule.endswith("attachment://card.png is not uploaded with the message nor kept on it")


def test_a_card_has_no_content_at_most_40_components_and_4000_characters_of_text():
    assert broken(POST, card(*[text("a") for _ in range(40)])) == []
    assert broken(POST, card(text("a" * 4000))) == []
    assert broken(POST, card(text("a"), content="hello")) == [
        "POST /channels/{channel_id}/messages: a Components V2 message has no content"
    ]
    container = {"type": 17, "components": [text("a") for _ in range(40)]}
    (too_many,) = broken(POST, card(container))
    assert "at most 40 components, nested too: 41" in too_many
    (too_long,) = broken(POST, card(text("a" * 2000), text("b" * 2001)))
    assert "at most 4,000 characters of text: 4,001" in too_long


def test_custom_ids_are_unique_in_a_message_and_at_most_100_characters():
    assert broken(POST, card(button("ic:1"), button("ic:2"))) == []
    assert broken(POST, card(button("ic:1"), button("ic:1"))) == [
        "POST /channels/{channel_id}/messages: custom id 'ic:1' is not unique in its message"
    ]
    assert broken(POST, card(button("i" * 100))) == []
    (rule,) = broken(POST, card(button("i" * 101)))
    assert "breaks maxLength" in rule


def test_a_buttons_label_has_at_most_80_characters_and_autocomplete_25_choices():
    assert broken(POST, card(button("ic:1", "b" * 80))) == []
    assert "breaks maxLength" in broken(POST, card(button("ic:1", "b" * 81)))[0]
    choices = [{"name": str(n), "value": str(n)} for n in range(26)]
    assert broken(CALLBACK, {"type": 8, "data": {"choices": choices[:25]}}) == []
    assert broken(CALLBACK, {"type": 8, "data": {"choices": choices}}) != []


def test_a_route_discord_does_not_have_is_refused():
    assert broken(("POST", "/channels/{channel_id}/cards"), {}) == [
        "POST /channels/{channel_id}/cards: not a route of Discord's API"
    ]


async def test_a_second_callback_of_one_interaction_is_refused_and_fails_the_test(tmp_path, monkeypatch):
    """The bot answers an interaction that comes again by follow-ups; with that switched off, the
    second callback is refused as Discord refuses it (40060) and kept to fail the test."""
    bot, harness = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    await harness.slash("roll", user=ANN, channel="1", dice="2d6")
    await harness.resend()
    assert harness.violations == []
    monkeypatch.setattr(answers, "first_callback", lambda interaction: not interaction.response.is_done())
    await harness.slash("roll", user=ANN, channel="1", dice="2d6")
    await harness.resend()
    assert set(harness.violations) == {
        "POST /interactions/{webhook_id}/{webhook_token}/callback: one callback per interaction (40060)"
    }
    harness.violations.clear()  # seen: this test is about them
    await close_bot(bot)


async def test_a_request_discord_would_refuse_reaches_the_bot_as_discords_refusal(tmp_path, monkeypatch):
    bot, harness = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    channel = bot.get_partial_messageable(1)
    with pytest.raises(discord.HTTPException) as refusal:
        view = discord.ui.LayoutView()
        view.add_item(discord.ui.TextDisplay("a" * 2000)).add_item(discord.ui.TextDisplay("b" * 2001))
        await channel.send(view=view)
    assert (refusal.value.status, refusal.value.code) == (400, 50035)
    assert harness.violations == [
        "POST /channels/{channel_id}/messages: a Components V2 message has at most 4,000 characters "
        "of text: 4,001"
    ]
    harness.violations.clear()
    await close_bot(bot)


async def test_the_command_registration_is_what_discord_accepts(tmp_path, monkeypatch):
    bot, harness = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    payload = [command.to_dict(bot.tree) for command in bot.tree._get_all_commands()]
    assert broken(("PUT", "/applications/{application_id}/commands"), payload) == []
    payload[0]["description"] = "d" * 101
    assert "breaks maxLength" in broken(("PUT", "/applications/{application_id}/commands"), payload)[0]
    await close_bot(bot)
