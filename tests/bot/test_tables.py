"""Tables saved per server (TableService) on SQLite and PostgreSQL, and /table through the
real command tree: built by commands, shown with a picture, exported as a file and imported
again to an equal table; a bad file refused by its line with nothing stored."""

import asyncio

import pytest
import yaml

from bot.app import Services
from bot.reply import Mention
from bot.services.game_service import GameError
from bot.services.limits import TABLE_FILE
from bot.services.table_service import TableService, read_piece
from engine.errors import IllegalCommand
from engine.tables.file import import_table
from engine.tables.layout import add_piece, move_piece
from engine.tables.pieces import square_centre
from tests.bot.discord_harness import (
    ANN,
    OTTO,
    Upload,
    attachments,
    buttons,
    close_bot,
    form,
    menus,
    open_bot,
    reply,
)


def _wood(name="wood", at="C3", size="12x9"):
    return lambda t: add_piece(t, read_piece(name, "woods", at=at, size=size))


@pytest.mark.both_databases
async def test_tables_are_saved_per_server_and_only_their_maker_changes_them(store):
    tables = TableService(store)
    await tables.create("g1", "ann", "Farm", 72, 48)
    built = await tables.edit("g1", "ann", "farm", _wood())
    assert [p.id for p in built.pieces] == ["wood"] and await tables.table("g1", "FARM") == built
    assert await tables.names("g1") == ["Farm"] and await tables.names("g2") == []
    with pytest.raises(GameError, match="There is already a table called FARM here: pick another name"):
        await tables.create("g1", "otto", "FARM", 48, 48)
    with pytest.raises(GameError, match="Farm is ann's table: copy it to change it") as refused:
        await tables.edit("g1", "otto", "Farm", _wood("copse", "H6"))
    assert Mention("ann") in refused.value.words  # a mention in Discord, a name at the console
    copied = await tables.copy("g1", "otto", "Farm", "Otto's farm")
    assert (await tables.edit("g1", "otto", "otto's farm", _wood("copse", "H6"))).pieces[0] == copied.pieces[
        0
    ]
    with pytest.raises(GameError, match="only they may delete it"):
        await tables.delete("g1", "otto", "Farm")
    assert await tables.delete("g1", "ann", "Farm") == "Deleted Farm"
    assert await tables.names("g1") == ["Otto's farm"]


@pytest.mark.both_databases
async def test_two_edits_at_once_from_two_processes_both_count(store):
    first, second = TableService(store), TableService(store)  # each with its own locks
    await first.create("g1", "ann", "Farm", 72, 48)
    await asyncio.gather(
        *(
            service.edit("g1", "ann", "Farm", _wood(f"wood-{n}", f"{'BCDEFG'[n]}4", "5x5"))
            for n, service in enumerate([first, second] * 3)
        )
    )
    table = await first.table("g1", "Farm")
    assert sorted(p.id for p in table.pieces) == [f"wood-{n}" for n in range(6)]


async def test_a_bad_file_is_refused_by_its_line_and_nothing_is_stored(store):
    tables = TableService(store)
    good = "name: Farm\nwidth: 72\ndepth: 48\npieces:\n- {id: wood, kind: woods, at: C3, size: [12, 9]}\n"
    with pytest.raises(GameError, match="line 7: r: the road r runs through the building barn"):
        await tables.import_text(
            "g1",
            "ann",
            good.replace("name: Farm", "name: Bad") + "- {id: barn, kind: building, at: H3, size: [4, 4]}\n"
            "- {id: r, kind: road, points: [[40, 15], [50, 15]]}\n",
        )
    assert await tables.names("g1") == []
    with pytest.raises(IllegalCommand, match="A table's file has at most 100,000 characters"):
        await tables.import_text("g1", "ann", good + "#" * 100_000)
    imported = await tables.import_text("g1", "ann", good)
    with pytest.raises(GameError, match="already a table called Farm"):
        await tables.import_text("g1", "ann", good)
    moved = await tables.import_text("g1", "ann", good.replace("at: C3", "at: D4"), replace=True)
    assert moved == move_piece(imported, "wood", square_centre("D4"))
    assert await tables.table("g1", "Farm") == moved


@pytest.fixture
async def discord_(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    yield discord
    await close_bot(bot)


async def test_a_table_built_by_commands_is_shown_exported_imported_and_fought_on(discord_):
    await discord_.slash("table new", user=ANN, channel="1", name="Farm", width=72.0, depth=48.0)
    await discord_.slash(
        "table add", user=ANN, channel="1", table="Farm", piece="wood", kind="woods", at="C3", size="12x9"
    )
    await discord_.slash(
        "table add", user=ANN, channel="1", table="Farm", piece="road", kind="road", points="0,24;72,24"
    )
    sent = await discord_.slash(
        "table add",
        user=ANN,
        channel="1",
        table="Farm",
        piece="church",
        kind="building",
        at="H6",
        size="7x6",
        storeys=2,
    )
    text, private = reply(sent)
    assert private and '- church: building at 45.0,33.0, 7" x 6", 2 storeys' in text
    assert attachments(sent)[0].startswith(b"\x89PNG")  # the picture, drawn again
    text, private = reply(
        await discord_.slash("table move", user=OTTO, channel="1", table="Farm", piece="wood", to="D4")
    )
    assert private and "Farm is <@" in text and "copy it to change it" in text
    text, _ = reply(
        await discord_.slash(
            "table add",
            user=ANN,
            channel="1",
            table="Farm",
            piece="barn",
            kind="building",
            at="F5",
            size="4x4",
        )
    )
    assert "the road road runs through the building barn" in text
    sent = await discord_.slash("table show", user=OTTO, channel="1", table="farm")
    assert not reply(sent)[1] and attachments(sent)[0].startswith(b"\x89PNG")
    sent = await discord_.slash("table export", user=OTTO, channel="1", table="Farm")
    exported = attachments(sent)[0]
    assert yaml.safe_load(exported)["name"] == "Farm"
    copy = exported.replace(b"name: Farm", b"name: Farm copy")
    text, _ = reply(
        await discord_.slash("table import", user=OTTO, channel="1", file=Upload("farm.yaml", copy))
    )
    assert text.startswith('**Farm copy**: 72" x 48", 3 pieces')
    bad = copy.replace(b"kind: woods", b"kind: wods").replace(b"name: Farm copy", b"name: Bad")
    text, _ = reply(
        await discord_.slash("table import", user=OTTO, channel="1", file=Upload("bad.yaml", bad))
    )
    assert text.startswith("line 9: kind: Input should be 'woods'")  # the wood's own line
    assert "Bad" not in reply(await discord_.slash("table list", user=OTTO, channel="1"))[0]
    original = import_table(exported.decode())
    assert import_table(copy.decode()) == original.model_copy(update={"name": "Farm copy"})
    text, _ = reply(await discord_.slash("game new", user=ANN, channel="2", table="Farm", scenario="meeting"))
    assert text.startswith('**Meeting Engagement** (p. 28) on the Farm (72" x 48", 3 pieces)')


async def test_a_table_is_built_at_the_console_exported_to_a_file_and_imported_again(tmp_path, store):
    from bot.console import ConsoleTable
    from bot.services.game_service import GameService

    console, _ = await ConsoleTable.open(Services.around(GameService(store)))
    console.pictures = tmp_path / "pictures"
    lines = [
        "/table new name:'Hill 112' width:96 depth:72",
        "/table add table:'Hill 112' piece:hill kind:hill at:H7 size:24x12 height:medium",
        "/table add table:'Hill 112' piece:copse kind:woods at:H7 size:6x5",
        "/table add table:'Hill 112' piece:lane kind:road points:0,10;96,14 width:2.5",
        "/table add table:'Hill 112' piece:hedge kind:hedge at:C4 size:14x0.6 turn:30",
        "/table turn table:'Hill 112' piece:hedge degrees:-30",
        "/table move table:'Hill 112' piece:copse to:50,40",
    ]
    for typed in lines:
        answer = await console.handle(typed)
        assert not answer.startswith("Not allowed"), (typed, answer)
    assert answer.endswith(f"Picture: {tmp_path / 'pictures' / 'table.png'}")
    assert (tmp_path / "pictures" / "table.png").read_bytes().startswith(b"\x89PNG")
    told, _, text = (await console.handle("/table export table:'hill 112'")).partition("\n\n")
    assert told == "Hill 112: edit it and bring it back with /table import"  # as in Discord, then the file
    assert "- {id: hedge, kind: hedge, at: C4, size: [14, 0.6]}" in text  # turned back to no turn
    (tmp_path / "hill.yaml").write_text(text.replace("name: Hill 112", "name: Hill 113"), encoding="utf-8")
    assert (await console.handle(f"/table import {tmp_path / 'hill.yaml'}")).startswith('Hill 113: 96" x 72"')
    tables = TableService(store)
    first, second = await tables.table("console", "Hill 112"), await tables.table("console", "Hill 113")
    assert second == first.model_copy(update={"name": "Hill 113"})
    answer = await console.handle("/table add table:'Hill 112' piece:farm kind:building at:50,12 size:5x4")
    assert (
        answer == "Not allowed: That table cannot be played:\n- the road lane runs through the building farm"
    )
    assert await tables.table("console", "Hill 112") == first
    news = await console.handle("/game new scenario:capture attacker:axis table:'Hill 113'")
    assert 'on the Hill 113 (96" x 72", 4 pieces)' in news
    assert console.state.objectives and all(abs(o.position.y - 36) <= 6 for o in console.state.objectives)


async def test_a_table_is_built_by_taps_on_its_card_and_only_its_maker_changes_it(discord_, tmp_path):
    await discord_.slash("table new", user=ANN, channel="1", name="Farm", width=72.0, depth=48.0)
    card = await discord_.slash("table show", user=ANN, channel="1", table="Farm")
    (menu,) = menus(card)
    assert [o["value"] for o in menu["options"]] == ["woods", "building", "hill", "rough", "hedge", "wall"]
    undo = buttons(card)["Undo last piece"]
    assert (menu["custom_id"], undo["custom_id"]) == ("ictable:add:Farm", "ictable:undo:Farm")
    opened = form(await discord_.choose(menu, ["woods"], user=ANN, channel="1"))
    sent = await discord_.submit(opened, {"Grid square": "C3"}, user=ANN, channel="1")
    text, _ = reply(sent)
    assert '- woods-1: woods at 15.0,15.0, 10" x 8"' in text and attachments(sent)[0].startswith(b"\x89PNG")
    assert buttons(sent)["Undo last piece"]["custom_id"] == "ictable:undo:Farm"  # the card again
    # a square off the table is refused, and nothing changes
    opened = form(await discord_.choose(menu, ["hill"], user=ANN, channel="1"))
    text, private = reply(await discord_.submit(opened, {"Grid square": "Z99"}, user=ANN, channel="1"))
    assert private and text.startswith("Nothing changed:")
    # someone else taps: refused before any form is opened; a form the maker opened, sent by
    # someone else, is refused too; nothing changes
    text, private = reply(await discord_.choose(menu, ["hill"], user=OTTO, channel="1"))
    assert private and "Farm is <@" in text and "copy it to change it" in text
    opened = form(await discord_.choose(menu, ["hill"], user=ANN, channel="1"))
    text, private = reply(await discord_.submit(opened, {"Grid square": "E5"}, user=OTTO, channel="1"))
    assert private and "copy it to change it" in text
    text, private = reply(await discord_.click(undo, user=OTTO, channel="1"))
    assert private and "copy it to change it" in text
    shown, _ = reply(await discord_.slash("table show", user=ANN, channel="1", table="Farm"))
    assert "1 piece\n" in shown and "woods-1" in shown and "hill" not in shown
    # the maker undoes the last piece; with none left, undo is refused
    text, _ = reply(await discord_.click(undo, user=ANN, channel="1"))
    assert "0 pieces" in text and "woods-1" not in text
    text, private = reply(await discord_.click(undo, user=ANN, channel="1"))
    assert private and text == "Nothing changed: Farm has no pieces to take off"


@pytest.mark.parametrize(
    ("data", "refusal"),
    [
        (b"name: Caf\xe9\nwidth: 72\ndepth: 48\n", "farm.yaml is not a text file (UTF-8)"),
        (b"#" * (TABLE_FILE + 1), "farm.yaml is 100,001 bytes; a table file is at most 100,000"),
    ],
)
async def test_a_file_that_is_no_table_file_is_refused_alike_in_discord_and_at_the_console(
    discord_, tmp_path, store, data, refusal
):
    from bot.console import ConsoleTable
    from bot.services.game_service import GameService

    text, private = reply(
        await discord_.slash("table import", user=ANN, channel="1", file=Upload("farm.yaml", data))
    )
    assert private and text == refusal
    console, _ = await ConsoleTable.open(Services.around(GameService(store)))
    (tmp_path / "farm.yaml").write_bytes(data)
    assert await console.handle(f"/table import {tmp_path / 'farm.yaml'}") == f"Not allowed: {refusal}"
    assert await console.handle("/table") == "No tables here yet: /table new or /table random"
