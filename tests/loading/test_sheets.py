"""Card data from spreadsheets: CSV, TSV, xlsx and ods read as the YAML they
stand for, every problem named by its cell, and `pnp cards` converting a
deck between YAML and a sheet exactly."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest

from pnp.testing import copy_game
from pnp.loading.convert import convert
from pnp.loading.loader import load_game, resolve_game_dir, shipped_games
from pnp.model import Game
from tests.conftest import run_pnp
from tests.loading.workbooks import Date, Formula, ods, xlsx

HEADER = ["id", "title", "copies", "symbols.sun", "symbols.moon", "crest"]
ROWS = [["one", "One", None, 1, -1, "red"], ["two", "Two", 2, -1, None, None], ["three", "Three", None, None, 1, None]]


def _cards(game: Game, component: str = "cards") -> list[tuple[Any, ...]]:
    found = next(c for c in game.components if c.id == component)
    return [(c.id, c.title, c.copies, dict(c.fields)) for c in found.cards]


def _use(game_dir: Path, cards: str, sheet: str | None = None) -> Path:
    """Point the mini game's ``cards`` component at ``cards`` (and ``sheet``)."""
    game = game_dir / "game.yaml"
    extra = f"\n    sheet: {sheet}" if sheet else ""
    game.write_text(game.read_text().replace("    cards: cards.yaml", f"    cards: {cards}{extra}", 1))
    return game_dir


def _fail(game_dir: Path) -> list[str]:
    """`pnp list` on a broken game: exit 2, no traceback; the error lines
    (after the first, which names the game folder)."""
    result = run_pnp("list", str(game_dir))
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    folder, *errors = result.stderr.splitlines()
    assert folder.startswith(f"game folder {game_dir}"), folder
    return errors


@pytest.fixture(scope="module")
def expected(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Any, ...]]:
    from tests.conftest import MINI

    return _cards(load_game(MINI))


@pytest.mark.parametrize("suffix, sep", [(".csv", ","), (".tsv", "\t")])
def test_a_text_sheet_reads_as_the_same_cards_as_the_yaml(mini_copy: Path, expected: list[Any], suffix: str, sep: str) -> None:
    lines = [HEADER, ROWS[0], ROWS[1], [], ["", "  ", ""], ROWS[2]]  # blank rows end nothing
    text = "\ufeff" + "".join(sep.join("" if v is None else str(v) for v in row) + "\r\n" for row in lines)  # Excel's BOM and line ends
    (mini_copy / f"cards{suffix}").write_text(text, newline="")
    assert _cards(load_game(_use(mini_copy, f"cards{suffix}"))) == expected


def test_a_csv_in_an_old_code_page_is_refused_at_its_first_foreign_byte(mini_copy: Path) -> None:
    lines = [",".join(HEADER), "one,Caf\u00e9,,1,-1,red"]  # "Café" as Excel's plain CSV saves it on Windows
    (mini_copy / "cards.csv").write_bytes("\r\n".join(lines).encode("cp1252"))
    errors = _fail(_use(mini_copy, "cards.csv"))
    assert errors[0].endswith('cards.csv:2:8: byte 0xe9 is not UTF-8 text; expected UTF-8 text (in a spreadsheet program, save it as "CSV UTF-8" or as .xlsx/.ods)'), errors


def test_an_xlsx_sheet_by_name_with_formulas_counts_their_saved_values(mini_copy: Path, expected: list[Any]) -> None:
    rows: list[list[Any]] = [
        [None], HEADER,  # the header is the first row that is not blank
        ["one", Formula('"O"&"ne"', "One"), None, Formula("2-1", 1), -1.0, "red"],
        [None, None],
        ["two", "Two", Formula("1+1", 2), -1, None, None],
        ["three", "Three", None, None, 1, None],
    ]
    xlsx(mini_copy / "cards.xlsx", {"Notes": [["not the cards"]], "Cards": rows})
    assert _cards(load_game(_use(mini_copy, "cards.xlsx", "Cards"))) == expected


def test_an_ods_sheet_reads_as_the_same_cards(mini_copy: Path, expected: list[Any]) -> None:
    ods(mini_copy / "cards.ods", {"Cards": [HEADER, *ROWS]})
    assert _cards(load_game(_use(mini_copy, "cards.ods"))) == expected


def test_cells_are_typed_by_the_field_they_fill(mini_copy: Path) -> None:
    """A number in a text field is its text (2 -> "2", not 2.0); true/false text is a boolean."""
    xlsx(mini_copy / "cards.xlsx", {"Cards": [["id", "title", "symbols.sun"], ["one", 2, "+1"], ["two", 2.5, " -1 "]]})
    cards = _cards(load_game(_use(mini_copy, "cards.xlsx")))
    assert [(c[1], c[3]["symbols"]) for c in cards] == [("2", {"sun": 1}), ("2.5", {"sun": -1})]


CORPUS: list[tuple[str, list[list[Any]], dict[str, list[str]], str]] = [
    ("wrong type", [HEADER, ["one", "One", None, 2, None, None]], {}, "cards.xlsx:Cards!D2: symbols.sun: expected one of -1, +1, found 2"),
    ("a date where a number belongs", [HEADER, ["one", "One", Date(46000), 1, None, None]], {},
     "cards.xlsx:Cards!C2: copies: expected a whole number from 0 to 10000, found a date or time (2025-12-09)"),
    ("unknown column", [[*HEADER, "colour"], ["one", "One", None, 1, None, None, "red"]], {},
     "cards.xlsx:Cards!G1: unknown column 'colour'; expected one of id, title, copies, symbols.<key>, crest"),
    ("unknown map key", [["id", "title", "symbols.star"], ["one", "One", 1]], {},
     "cards.xlsx:Cards!C2: symbols.star: unknown symbol 'star'; expected one of moon, sun"),
    ("missing required column", [["id", "symbols.sun"], ["one", 1]], {}, "cards.xlsx:Cards!A1: no column 'title'; every card needs it"),
    ("empty required cell", [HEADER, [None, "One", None, 1, None, None]], {}, "cards.xlsx:Cards!A2: id: empty cell; every row needs a value here"),
    ("duplicate ids", [HEADER, ["one", "One", None, 1, None, None], ["one", "Uno", None, -1, None, None]], {},
     "cards.xlsx:Cards!A3: id: duplicate id 'one' (first used at Cards!A2); expected each id once"),
    ("repeated column", [["id", "title", "title"], ["one", "One", "Uno"]], {}, "cards.xlsx:Cards!C1: column 'title' appears twice (first in column B)"),
    ("a column inside another", [["id", "title", "symbols", "symbols.sun"], ["one", "One", "x", 1]], {},
     "cards.xlsx:Cards!D1: column 'symbols.sun' and column 'symbols' (column C) fill the same value; expected the value whole in one column"),
    ("a value under no header", [["id", "title"], ["one", "One", "stray"]], {}, "cards.xlsx:Cards!C2: a value in a column without a header"),
    ("merged cells", [HEADER, ["one", "One", None, 1, None, None]], {"Cards": ["D2:E2"]},
     "cards.xlsx:Cards!D2: cells D2:E2 are merged; expected one value in each cell (unmerge them)"),
    ("empty sheet", [], {}, "cards.xlsx:Cards!A1: the sheet is empty; expected a header row"),
]


@pytest.mark.parametrize("rows, merged, message", [c[1:] for c in CORPUS], ids=[c[0] for c in CORPUS])
def test_bad_sheets_are_refused_at_the_cell(mini_copy: Path, rows: list[list[Any]], merged: dict[str, list[str]], message: str) -> None:
    xlsx(mini_copy / "cards.xlsx", {"Cards": rows}, merged)
    errors = _fail(_use(mini_copy, "cards.xlsx"))
    assert any(f"/{message}" in line for line in errors), errors


def test_every_error_of_a_sheet_is_reported_at_once(mini_copy: Path) -> None:
    (mini_copy / "cards.csv").write_text("id,title,copies,symbols.sun,colour\none,One,x,2,red\none,Two,2,-1,\n")
    errors = _fail(_use(mini_copy, "cards.csv"))
    for where in ("cards.csv:E1: unknown column", "cards.csv:C2: copies:", "cards.csv:D2: symbols.sun:", "cards.csv:A3: id: duplicate"):
        assert any(f"/{where}" in line for line in errors), errors
    assert errors[-1] == "4 errors; nothing was built."


FLOODS = {
    "a title row above the header": (
        "cards.xlsx", [["Cards of Mini, autumn draft"], [None], HEADER, *ROWS * 20],
        "cards.xlsx:Cards!A1: row 1 looks like a title, not the header: the column names (id, title, copies, symbols.sun, ...) "
        "are in row 3; the header must be the first row that is not blank, so delete the rows above row 3",
    ),
    "a csv separated by semicolons": (
        "cards.csv", [HEADER, *ROWS * 20],
        "cards.csv:A1: the fields are separated by semicolons, not commas as a .csv file's are; save it again with commas "
        "between the fields (a spreadsheet program's export asks which), or as .xlsx/.ods",
    ),
    "a tsv separated by commas": (
        "cards.tsv", [HEADER, *ROWS * 20],
        "cards.tsv:A1: the fields are separated by commas, not tabs as a .tsv file's are; name it .csv, or save it again with tabs",
    ),
    "a required column missing": (
        "cards.csv", [[h for h in HEADER if h != "id"], *[r[1:] for r in ROWS * 20]],
        "cards.csv:A1: no column 'id'; every card needs it: The card's id, unique within its component. "
        "Add it to the header (row 1); the rows are read once it is there",
    ),
    "a misspelt required column": (
        "cards.csv", [["idd", *HEADER[1:]], *ROWS * 20],
        "cards.csv:A1: no column 'id'; every card needs it: The card's id, unique within its component. "
        "Add it to the header (row 1) (is 'idd' in column A meant to be it?)",
    ),
}


@pytest.mark.parametrize("case", list(FLOODS))
def test_one_cause_of_errors_in_every_row_is_said_once(mini_copy: Path, case: str) -> None:
    """A sheet whose header is not where or what it should be is one error
    naming the cause and the fix, not one in every cell of 60 rows."""
    name, rows, message = FLOODS[case]
    if name == "cards.xlsx":
        xlsx(mini_copy / name, {"Cards": rows})
    else:
        separator = ";" if "semicolons" in case else ","
        (mini_copy / name).write_text("".join(separator.join("" if v is None else str(v) for v in row) + "\n" for row in rows))
    errors = _fail(_use(mini_copy, name))
    assert any(f"/{message}" in line for line in errors), errors
    assert errors[-1] == ("2 errors; nothing was built." if case == "a misspelt required column" else "1 error; nothing was built."), errors


@pytest.mark.parametrize("merged", [["D2:E2"], ["B2:B3"], ["C3:D4"]])
def test_merged_cells_of_an_ods_are_refused_at_the_cell(mini_copy: Path, merged: list[str]) -> None:
    """calamine reads no merged ranges from an .ods (the covered cells come out
    blank): they are read from the sheet's spanned cells."""
    rows = [HEADER, ["one", "One", None, 1, -1, "red"], ["two", "Two", 2, -1, None, None], ["three", "Three", None, None, 1, None]]
    ods(mini_copy / "cards.ods", {"Notes": [["a", "b", "c"]], "Cards": rows}, {"Notes": ["A1:C1"], "Cards": merged})
    errors = _fail(_use(mini_copy, "cards.ods", "Cards"))
    top_left = merged[0].split(":")[0]
    message = f"cards.ods:Cards!{top_left}: cells {merged[0]} are merged; expected one value in each cell (unmerge them)"
    assert [line for line in errors if "merged" in line] == [line for line in errors if line.endswith(f"/{message}")], errors
    assert any(line.endswith(f"/{message}") for line in errors), errors


@pytest.mark.parametrize("case", ["not a zip", "truncated zip", "zip of other things", "unknown sheet", "sheet for a csv", "zip bomb"])
def test_unreadable_workbooks_are_refused_in_one_line(mini_copy: Path, case: str) -> None:
    book = mini_copy / "cards.xlsx"
    sheet = None
    if case == "not a zip":
        book.write_bytes(b"id,title\none,One\n")
    elif case == "truncated zip":
        xlsx(book, {"Cards": [HEADER, *ROWS]})
        book.write_bytes(book.read_bytes()[:300])
    elif case == "zip of other things":
        with zipfile.ZipFile(book, "w") as z:
            z.writestr("hello.txt", "hello")
    elif case == "unknown sheet":
        xlsx(book, {"Cards": [HEADER, *ROWS]})
        sheet = "Traits"
    elif case == "sheet for a csv":
        book = mini_copy / "cards.csv"
        book.write_text(",".join(HEADER) + "\n")
        sheet = "Cards"
    else:
        with zipfile.ZipFile(book, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("xl/worksheets/sheet1.xml", b"\0" * (65 * 1024 * 1024))
    errors = _fail(_use(mini_copy, book.name, sheet))
    expected = {
        "not a zip": "cards.xlsx: this is not a .xlsx workbook (it is no zip archive)",
        "truncated zip": "cards.xlsx: this is not a .xlsx workbook",
        "zip of other things": "cards.xlsx: cannot read this .xlsx file",
        "unknown sheet": "cards.xlsx: no sheet named 'Traits'; the workbook has 'Cards'",
        "sheet for a csv": "cards.csv: sheet: 'Cards' was given, but a .csv file has no sheets",
        "zip bomb": "cards.xlsx: the workbook unpacks to 68157440 bytes; expected at most 67108864",
    }[case]
    assert any(f"/{expected}" in line for line in errors), errors


def test_a_sheet_for_a_yaml_cards_file_is_refused(mini_copy: Path) -> None:
    errors = _fail(_use(mini_copy, "cards.yaml", "Cards"))
    assert any("components[0].sheet: 'sheet' names a sheet of a workbook, but cards.yaml is not one" in line for line in errors), errors


def _decks() -> list[tuple[str, str]]:
    out = []
    for name in shipped_games():
        for c in load_game(resolve_game_dir(name)).components:
            if c.cards_file is not None:
                out.append((name, c.id))
    return out


def _point(folder: Path, old: str, new: str) -> None:
    """game.yaml's ``cards: old`` made ``cards: new``."""
    game = folder / "game.yaml"
    text = game.read_text()
    assert text.count(f"cards: {old}\n") == 1
    game.write_text(text.replace(f"cards: {old}\n", f"cards: {new}\n"))


@pytest.mark.parametrize("form", [".csv", ".xlsx"])
@pytest.mark.parametrize("game_name, component", _decks())
def test_every_shipped_deck_goes_to_a_sheet_and_back_exactly(tmp_path: Path, game_name: str, component: str, form: str) -> None:
    """YAML -> a CSV or a workbook: the game loads the same cards from it, and
    written again it is the same bytes (no clock in it); it -> YAML -> CSV gives
    the CSV the YAML gives."""
    folder = tmp_path / game_name
    copy_game(game_name, folder)
    game = load_game(folder)
    before = _cards(game, component)
    source = next(c for c in game.components if c.id == component).cards_file
    assert source is not None
    sheet = folder / f"{component}-sheet{form}"
    assert convert(game, component, sheet) == len(before)
    convert(game, component, tmp_path / f"again{form}")
    assert (tmp_path / f"again{form}").read_bytes() == sheet.read_bytes()
    convert(game, component, tmp_path / "from-yaml.csv")
    _point(folder, source.relative_to(folder).as_posix(), sheet.name)
    from_sheet = load_game(folder)
    assert _cards(from_sheet, component) == before
    again = folder / f"{component}-again.yaml"
    convert(from_sheet, component, again)
    _point(folder, sheet.name, again.name)
    from_yaml = load_game(folder)
    assert _cards(from_yaml, component) == before
    convert(from_yaml, component, tmp_path / "round.csv")
    assert (tmp_path / "round.csv").read_bytes() == (tmp_path / "from-yaml.csv").read_bytes()


def test_a_workbook_types_its_cells_as_the_fields_read_them(mini_copy: Path, tmp_path: Path) -> None:
    import python_calamine

    cards = mini_copy / "cards.yaml"
    cards.write_text(cards.read_text().replace("title: Two", "title: \"=1+1\"", 1))  # text, never a formula
    game = load_game(mini_copy)
    assert convert(game, "cards", tmp_path / "deck.xlsx") == 3
    book = python_calamine.CalamineWorkbook.from_path(str(tmp_path / "deck.xlsx"))
    assert book.sheet_names == ["cards"]
    rows = book.get_sheet_by_index(0).to_python()
    assert rows[0] == ["id", "title", "copies", "symbols.sun", "symbols.moon", "crest"]
    assert rows[2] == ["two", "=1+1", 2.0, -1.0, "", ""]  # numbers for whole-number fields, the title as typed
    with zipfile.ZipFile(tmp_path / "deck.xlsx") as z:
        assert "<f>" not in z.read("xl/worksheets/sheet1.xml").decode()  # no formula anywhere


def test_pnp_cards_writes_a_sheet_from_the_command_line_and_refuses_its_own_source(mini_copy: Path, tmp_path: Path) -> None:
    done = run_pnp("cards", str(mini_copy), "cards", "--to", str(tmp_path / "deck.csv"))
    assert done.returncode == 0, done.stderr
    assert "3 cards of cards, checked to read back the same" in done.stdout
    written = (tmp_path / "deck.csv").read_bytes()
    assert written.startswith(b"\xef\xbb\xbf")  # the byte order mark Excel needs to read UTF-8
    assert written[3:].decode("utf-8").splitlines() == [
        "id,title,copies,symbols.sun,symbols.moon,crest", "one,One,,1,-1,red", "two,Two,2,-1,,", "three,Three,,,1,",
    ]
    own = run_pnp("cards", str(mini_copy), "cards", "--to", str(mini_copy / "cards.yaml"))
    assert own.returncode == 2 and "that is the file the cards are read from" in own.stderr
    unknown = run_pnp("cards", str(mini_copy), "nope", "--to", str(tmp_path / "x.csv"))
    assert unknown.returncode == 2 and "no component 'nope'; mini has cards, sleeves" in unknown.stderr


def test_pnp_cards_leaves_an_existing_file_alone_unless_forced(mini_copy: Path, tmp_path: Path) -> None:
    """Another deck's cards file (or any file) is not overwritten by a slip of --to."""
    other = mini_copy / "traits.csv"
    other.write_text("id,title\nkept,Kept\n")
    refused = run_pnp("cards", str(mini_copy), "cards", "--to", str(other))
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert f"--to {other}: the file exists" in refused.stderr and "--force" in refused.stderr, refused.stderr
    assert other.read_text() == "id,title\nkept,Kept\n"
    forced = run_pnp("cards", str(mini_copy), "cards", "--to", str(other), "--force")
    assert forced.returncode == 0, forced.stderr
    assert other.read_bytes().startswith(b"\xef\xbb\xbfid,title,copies")
    own = run_pnp("cards", str(mini_copy), "cards", "--to", str(mini_copy / "cards.yaml"), "--force")
    assert own.returncode == 2 and "that is the file the cards are read from" in own.stderr  # never its own source
