"""Generated game folders: whatever a folder holds (many cards or none, huge
copy counts, deep nesting, art that is missing, outside or linked out,
templates that loop, include, recurse or print anything), `pnp build` ends
with exit status 0, or 2 and a message that says where; never a traceback,
never a hang (each build runs under a time limit that fails the test), and
never a read outside the folder (every command the tests run is audited)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.conftest import MINI, run_pnp

ART = st.sampled_from(["art/missing.svg", "../outside.svg", "/etc/hostname", "art/linked.svg", "art/", "art/dot.svg#x"])
SOUND = ["<h1>{{ card.title }}</h1>", "<h1>{{ card.title }}</h1><img src=\"{{ asset(card.art) }}\" style=\"width: 5mm\">"]
TEMPLATES = st.sampled_from([
    *SOUND * 4,
    "{% for a in range(n) %}{% for b in range(n) %}{% for c in range(n) %}.{% endfor %}{% endfor %}{% endfor %}",
    "{% include 'mini/none.html' %}",
    "{% include 'mini/card.html' %}",
    "{% macro m(k) %}{{ m(k + 1) }}{% endmacro %}{{ m(0) }}",
    "{{ 'x' * n }}",
    "{{ card.nothing.deeper }}",
    "<img src=\"{{ card.art }}\">",
    "{{ card.title | upper }}" + "<div>" * 50 + "</div>" * 50,
])
TITLES = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40)


@st.composite
def folders(draw: st.DrawFn) -> dict[str, object]:
    """A sound deck of random size and text, with at most one card gone wrong
    (its copies or its art) and any nesting depth, template and loop size."""
    cards = draw(st.integers(0, 40))
    copies = draw(st.lists(st.sampled_from([1, 2]), min_size=cards, max_size=cards))
    art = ["art/dot.svg"] * cards
    if cards and draw(st.booleans()):
        odd = draw(st.integers(0, cards - 1))
        if draw(st.booleans()):
            copies[odd] = draw(st.sampled_from([0, 9, 10_000, 10**9, -1]))
        else:
            art[odd] = draw(ART)
    return {
        "cards": cards,
        "titles": draw(st.lists(TITLES, min_size=cards, max_size=cards)),
        "copies": copies,
        "art": art,
        "depth": draw(st.sampled_from([0] * 12 + [10, 65, 20_000])),
        "template": draw(TEMPLATES),
        "n": draw(st.sampled_from([1, 1, 10, 1000, 10**6, 10**10])),
    }


def _quoted(text: str) -> str:
    return json.dumps(text)  # a JSON string is a YAML double-quoted scalar


def _write(game: Path, outside: Path, spec: dict[str, object]) -> None:
    (game / "art" / "linked.svg").symlink_to(outside)
    lines = ["cards:"]
    titles, copies, art = spec["titles"], spec["copies"], spec["art"]
    assert isinstance(titles, list) and isinstance(copies, list) and isinstance(art, list)
    for number, (title, count, picture) in enumerate(zip(titles, copies, art)):
        lines.append(f"  - id: c{number}\n    title: {_quoted(title)}\n    copies: {count}\n    art: {_quoted(picture)}")
    depth = spec["depth"]
    assert isinstance(depth, int)
    if depth:
        lines.append("  - id: deep\n    title: " + "[" * depth + "x" + "]" * depth)
    (game / "cards.yaml").write_text("\n".join(lines) + "\n")
    (game / "templates" / "mini" / "card.html").write_text(f"{{% set n = {spec['n']} %}}" + str(spec["template"]) + "\n")
    text = (game / "game.yaml").read_text().replace(
        "      crest: {type: ref, set: crests, doc: The owner.}\n",
        "      crest: {type: ref, set: crests, doc: The owner.}\n      art: {type: text, doc: A picture.}\n",
    )
    (game / "game.yaml").write_text(text)


LOCATED = re.compile(r"^(\S+?\.(yaml|yml|html|css|svg|png|jpg)(:\d+(:\d+)?)?:|card faces:|\S+/\S+:)", re.MULTILINE)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(spec=folders())
def test_any_generated_game_folder_builds_or_is_refused_where_it_goes_wrong(tmp_path_factory: pytest.TempPathFactory, spec: dict[str, object]) -> None:
    here = tmp_path_factory.mktemp("generated")
    outside = here / "outside.svg"
    outside.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')
    game = here / "mini"
    shutil.copytree(MINI, game)
    _write(game, outside, spec)
    result = run_pnp("build", str(game), "--paper", "a4", "--out", str(here / "out"), timeout=240)
    said = result.stderr.replace(str(game), "").splitlines()[1:]  # after the game folder read
    event(f"exit {result.returncode}: {said[0][:70] if said else ''}")
    assert result.returncode in (0, 2), (result.returncode, result.stderr[-2000:])
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    if result.returncode == 2:
        assert LOCATED.search(result.stderr), result.stderr[-2000:]
