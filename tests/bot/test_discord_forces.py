"""/force through the real command tree: build, check, save, copy, export and import."""

import pytest

from tests.bot.discord_harness import (
    ANN,
    OTTO,
    answers_in,
    close_bot,
    form,
    messages,
    open_bot,
    reply,
    text_of,
)


@pytest.fixture
async def discord_(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    yield discord
    await close_bot(bot)


async def build(discord):
    await discord.slash(
        "force new", user=OTTO, channel="1", nation="german", name="KG Meyer", points=300, date="1944-12"
    )
    await discord.slash("force add", user=OTTO, channel="1", force="KG Meyer", unit="Infantry Detachment")
    await discord.slash("force add", user=OTTO, channel="1", force="KG Meyer", unit="panther", label="Lion")
    return reply(
        await discord.slash(
            "force upgrade",
            user=OTTO,
            channel="1",
            force="kg meyer",
            unit="Infantry Detachment 1",
            iaw=True,
            transport="251 Halftrack",
            command=True,
        )
    )


async def test_a_force_is_built_privately_with_points_break_points_and_problems(discord_):
    text, private = await build(discord_)
    assert private and text.splitlines()[0] == "**KG Meyer** (German, 1944-12): 139 of 300 points, 17 BP"
    assert (
        "- Infantry Detachment 1: Infantry Detachment [command, IAW, in a 251 Halftrack], 39 pts, 4 BP"
        in text
    )
    assert "- Lion: Panther, 100 pts, 13 BP" in text
    assert await discord_.autocomplete("force add", "force", "meyer", user=OTTO, channel="1") == ["KG Meyer"]
    assert await discord_.autocomplete("force add", "force", "meyer", user=ANN, channel="1") == []


async def test_refusals_say_which_rule_and_change_nothing(discord_):
    await build(discord_)
    text, private = reply(
        await discord_.slash("force upgrade", user=OTTO, channel="1", force="KG Meyer", unit="Lion", iaw=True)
    )
    assert private and text == "Lion is a Panther; only infantry detachments may carry an IAW"
    await discord_.slash("force add", user=OTTO, channel="1", force="KG Meyer", unit="Tiger I")
    await discord_.slash("force add", user=OTTO, channel="1", force="KG Meyer", unit="Tiger II")
    text, _ = reply(await discord_.slash("force show", user=OTTO, channel="1", force="KG Meyer"))
    assert "Not yet legal:" in text and "Points (p. 18): the force costs" in text


async def test_export_import_and_copy(discord_):
    await build(discord_)
    exported, _ = reply(await discord_.slash("force export", user=OTTO, channel="1", force="KG Meyer"))
    text = exported.strip("`\n")
    opened = form(await discord_.slash("force import", user=ANN, channel="1"))
    sent = await discord_.submit(opened, {"Paste": text}, user=ANN, channel="1")
    assert messages(sent)[0].startswith("**KG Meyer** (German, 1944-12): 139 of 300 points")
    again, _ = reply(await discord_.slash("force export", user=ANN, channel="1", force="KG Meyer"))
    assert again == exported
    copied, _ = reply(
        await discord_.slash("force copy", user=ANN, channel="1", force="KG Meyer", name="KG Two")
    )
    assert copied.startswith("**KG Two**")
    listed, _ = reply(await discord_.slash("force list", user=ANN, channel="1"))
    assert listed.splitlines() == [
        "**KG Meyer** (German): 139/300 points, 2 units, legal",
        "**KG Two** (German): 139/300 points, 2 units, legal",
    ]
    clash, _ = reply(
        await discord_.slash("force copy", user=ANN, channel="1", force="KG Two", name="kg meyer")
    )
    assert clash == "You already have a force called kg meyer: pick another name, or delete it"
    await discord_.slash("force delete", user=ANN, channel="1", force="KG Two")
    gone, _ = reply(await discord_.slash("force show", user=ANN, channel="1", force="KG Two"))
    assert gone == "You have no force called 'KG Two': see /force list"


async def make_force(discord, user, nation, name, *units, points=500):
    await discord.slash("force new", user=user, channel="1", nation=nation, name=name, points=points)
    for unit in units:
        await discord.slash("force add", user=user, channel="1", force=name, unit=unit)
    await discord.slash(
        "force upgrade", user=user, channel="1", force=name, unit="Infantry Detachment 1", command=True
    )


async def test_a_meeting_engagement_with_the_players_forces_is_set_up_by_slash_command(discord_):
    await make_force(
        discord_, ANN, "us", "Easy", "Infantry Detachment", "Infantry Detachment", "Sherman 75mm"
    )
    await make_force(discord_, OTTO, "german", "KG", "Infantry Detachment", "Infantry Detachment", "Panther")
    text, _ = reply(
        await discord_.slash("game new", user=ANN, channel="4", scenario="meeting", table="crossroads")
    )
    assert text.startswith("**Meeting Engagement** (p. 28) on the Crossroads")
    text, private = reply(await discord_.slash("game join", user=ANN, channel="4", side="allies"))
    assert private and text == "This is a scenario game: join with your force (/game join side: force:)"
    text, _ = reply(await discord_.slash("game join", user=ANN, channel="4", side="allies", force="Easy"))
    assert "The Allies bring 3 units" in text
    text, _ = reply(await discord_.slash("game join", user=OTTO, channel="4", side="axis", force="KG"))
    assert "Both forces are here: Meeting Engagement (p. 28)" in text
    assert await discord_.autocomplete("deploy", "unit", "sher", user=ANN, channel="4") == ["Sherman 75mm 1"]
    text, private = reply(
        await discord_.slash("deploy", user=OTTO, channel="4", unit="Panther 1", at="10,40")
    )
    assert private and text == "It is the Allies' turn to set up a unit"
    text, _ = reply(await discord_.slash("deploy", user=ANN, channel="4", unit="Sherman 75mm 1", at="10,30"))
    assert 'must set up within 12" of the near edge' in text
    for user, unit, at in (
        (ANN, "Sherman 75mm 1", "10,8"),
        (OTTO, "Panther 1", "10,40"),
        (ANN, "Infantry Detachment 1", "20,6"),
        (OTTO, "Infantry Detachment 1", "20,42"),
    ):
        text, _ = reply(await discord_.slash("deploy", user=user, channel="4", unit=unit, at=at))
        assert "Allies set up" in text or "Axis set up" in text, text
    await discord_.slash("deploy", user=ANN, channel="4", done=True)
    text, _ = reply(await discord_.slash("deploy", user=OTTO, channel="4", done=True))
    assert "The Axis have finished setting up; 1 unit held in reserve" in text
    text, _ = reply(await discord_.slash("game start", user=OTTO, channel="4"))
    assert "Turn 1: the Allies draw" in text


async def test_in_capture_the_channel_sees_markers_and_only_the_defender_learns_what_is_under_them(discord_):
    await make_force(discord_, ANN, "us", "Easy", "Infantry Detachment", "Sherman 75mm")
    await make_force(
        discord_, OTTO, "german", "KG", "Infantry Detachment", "Infantry Detachment", "Panther", points=1000
    )
    await discord_.slash(
        "game new", user=ANN, channel="5", scenario="capture", attacker="axis", table="crossroads"
    )
    await discord_.slash("game join", user=ANN, channel="5", side="allies", force="Easy")
    await discord_.slash("game join", user=OTTO, channel="5", side="axis", force="KG")
    assert await discord_.autocomplete("deploy", "unit", "", user=ANN, channel="5") == [
        "Infantry Detachment 1 (Allies)",  # the Axis have one too
        "Sherman 75mm 1",
        "Dummy 1",
    ]
    sent = await discord_.slash("deploy", user=ANN, channel="5", unit="Sherman 75mm 1", at="30,20")
    text, private = reply(sent)
    assert (
        not private and text.startswith("The Allies set up Marker 1 at 30.0,20.0") and "Sherman" not in text
    )
    secret = [
        (body, hidden) for body, hidden, _ in answers_in(sent) if "Only your side sees this" in str(body)
    ]
    assert len(secret) == 1 and secret[0][1]
    assert "The Allies set up Sherman 75mm 1 as Marker 1 at 30.0,20.0" in text_of(secret[0][0])
    assert await discord_.autocomplete("act", "unit", "sherman", user=ANN, channel="5") == [
        "allies-sherman-75mm-1"
    ]  # the owner finds its marker by the true name
    assert await discord_.autocomplete("act", "fire", "", user=OTTO, channel="5") == ["Marker 1"]  # its label
    log, _ = reply(await discord_.slash("game log", user=OTTO, channel="5"))
    assert "Marker 1" in log and "Sherman" not in log
    log, _ = reply(await discord_.slash("game log", user=ANN, channel="5"))
    assert "Sherman 75mm 1 as Marker 1" in log


async def test_a_house_rules_force_fields_the_quick_reference_with_troop_quality(discord_):
    await discord_.slash(
        "force new", user=OTTO, channel="1", nation="german", name="KG Hoth", points=300, ruleset="house_v1"
    )
    text, private = reply(
        await discord_.slash(
            "force add", user=OTTO, channel="1", force="KG Hoth", unit="pz iv f1", quality="veteran, elite"
        )
    )
    assert (
        private and text.splitlines()[0] == "**KG Hoth** (German, House Rules V1.0): 44 of 300 points, 6 BP"
    )
    assert "- Pz IV F1 1: Pz IV F1 [veteran, elite], 44 pts, 6 BP" in text
    text, _ = reply(
        await discord_.slash(
            "force add",
            user=OTTO,
            channel="1",
            force="KG Hoth",
            unit="Marder III",
            quality="weak inexperienced veteran",
        )
    )
    pairs = "a unit is veteran or inexperienced, and elite or weak: one of each pair at most (s. 2)"
    assert text == f"Marder III 1: {pairs}"
    text, _ = reply(await discord_.slash("force export", user=OTTO, channel="1", force="KG Hoth"))
    assert "Rules: house_v1" in text and "- Pz IV F1 1: Pz IV F1 [veteran, elite]" in text


async def test_a_units_troop_quality_is_changed_and_set_back_to_regular(discord_):
    await discord_.slash(
        "force new", user=OTTO, channel="1", nation="british", name="Able", points=300, ruleset="house_v1"
    )
    await discord_.slash("force add", user=OTTO, channel="1", force="Able", unit="Vickers MG", label="Vic")
    text, _ = reply(
        await discord_.slash(
            "force upgrade", user=OTTO, channel="1", force="Able", unit="Vic", quality="weak"
        )
    )
    assert "- Vic: Vickers MG [weak], 20 pts" in text
    text, _ = reply(
        await discord_.slash(
            "force upgrade", user=OTTO, channel="1", force="Able", unit="Vic", quality="regular"
        )
    )
    assert "- Vic: Vickers MG, 20 pts" in text
